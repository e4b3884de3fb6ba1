// Figure 7.1's table per channel (.quantization-table): both ranges as they are (r.xAbsMax,
// r.wAbsMax), the smoothing factors s_j and the ranges after smoothing (r.now: scales, xAbsMax,
// wAbsMax), and the integer levels X uses before and after (r.xLevels, r.xLevelsSmoothed), the
// channel with the largest activation range marked (r.largestChannel). Drawn again only when one
// of those changes (keep). Exercise 7 conceals it (quantization-figure.js).
import { h, keep, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { scrollBox } from "../../kit/controls.js";

/** The table per channel: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class ChannelTable {
  constructor() {
    this.box = scrollBox("Per channel", "quantization-table");
    this.nodes = [this.box];
  }

  /** The table, built again only when what it reads changed. */
  render(r) {
    const n = r.now;
    patch(
      this.box,
      keep(
        [r.alpha, r.xAbsMax, r.wAbsMax, n.scales, n.xAbsMax, n.wAbsMax, r.xLevels, r.xLevelsSmoothed, r.largestChannel],
        () => this.table(r),
      ),
    );
  }

  /** Per channel: both ranges, s_j, the ranges after smoothing and the levels X uses. */
  table(r) {
    const n = r.now;
    const row = (label, values, digits = 4, cls) =>
      h(
        "tr",
        { class: cls },
        h("th", { scope: "row" }, label),
        values.map((v) => h("td", {}, typeof v === "number" ? fmt(v, digits) : v)),
      );
    return h(
      "table",
      { class: "data-table quantization-channels" },
      h("caption", {}, `Per channel, with α = ${fmt(r.alpha, 2)}`),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", {}),
          r.xAbsMax.map((_, j) =>
            h("th", { scope: "col", class: j === r.largestChannel ? "largest" : null }, `ch ${j + 1}`),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        row(["max|", sym("X", "j"), "|"], r.xAbsMax),
        row(["max|", sym("W", "j"), "|"], r.wAbsMax),
        row([sym("s", "j")], n.scales, 4, "scales"),
        row(["max|", sym("X", "j"), "| / ", sym("s", "j")], n.xAbsMax, 4, "x-after"),
        row(["max|", sym("W", "j"), "| · ", sym("s", "j")], n.wAbsMax, 4, "w-after"),
        row(
          "levels of X",
          r.xLevels.map((l) => `±${l}`),
        ),
        row(
          "levels of X/s",
          r.xLevelsSmoothed.map((l) => `±${l}`),
        ),
      ),
    );
  }
}
