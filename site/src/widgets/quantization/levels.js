// Figure 7.1's integer levels of X (.quantization-levels): the level of every entry of X as it is
// (r.quantX: levels, scale, qmax) and of X/s after smoothing with α (r.now.quantXSmoothed: levels,
// scale; r.alpha), side by side, each cell shaded by |level| / qmax. Drawn again only when one of
// those changes (keep). Exercise 7 conceals the smoothed scale (quantization-figure.js).
import { gridTable, h, keep, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { scrollBox } from "../../kit/controls.js";

/** The integer levels: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class Levels {
  constructor() {
    this.box = scrollBox("Integer levels of X", "quantization-levels");
    this.nodes = [h("p", { class: "figure-sub" }, "The integer levels of X"), this.box];
  }

  /** The two tables, built again only when a level, a scale or α changed. */
  render(r) {
    const n = r.now;
    patch(
      this.box,
      keep(
        [r.alpha, r.quantX.qmax, r.quantX.scale, r.quantX.levels, n.quantXSmoothed.scale, n.quantXSmoothed.levels],
        () => this.tables(r),
      ),
    );
  }

  /** The integer levels of X before and after smoothing, shaded by |level| / qmax. */
  tables(r) {
    const c = r.xAbsMax.length,
      t = r.quantX.levels.length / c;
    const q = r.quantX.qmax;
    const table = (caption, levels) =>
      gridTable({
        className: "data-table quantization-level-table",
        caption,
        rows: t,
        cols: c,
        head: (j) => `ch ${j + 1}`,
        rowHead: (i) => `t${i + 1}`,
        rowKey: (i) => [q, levels.slice(i * c, (i + 1) * c)],
        cell: (i, j) => {
          const l = levels[i * c + j];
          return h("td", { class: "heat", style: { "--w": String(Math.abs(l) / q) } }, fmt(l));
        },
      });
    return h(
      "div",
      { class: "quantization-pair" },
      table(`X as it is: scale Δ ${fmt(r.quantX.scale, 4)}`, r.quantX.levels),
      table(
        [
          `X/s, α = ${fmt(r.alpha, 2)}: scale Δ `,
          // an exercise may hold it back (quantization-figure.js conceals)
          h("span", { class: "quantization-scale-smoothed" }, fmt(r.now.quantXSmoothed.scale, 4)),
        ],
        r.now.quantXSmoothed.levels,
      ),
    );
  }
}
