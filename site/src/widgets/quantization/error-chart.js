// Figure 7.1's chart of the largest quantisation error against α (.chart-box), with its legend:
// the smoothed activations' and weights' errors at every α of the grid (r.curve), those of X and W
// as they are as dashed lines (r.quantX.maxAbsError, r.quantW.maxAbsError), and the figure's α
// marked (r.alpha, r.now.quantXSmoothed and quantWSmoothed's maxAbsError). Drawn again only when
// one of those changes (keep).
import { h, keep, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { legend, lineChart, niceTicks } from "../../kit/plot.js";

/** The error chart: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class ErrorChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.nodes = [h("p", { class: "figure-sub" }, "The largest quantisation error of each side as α moves"), this.box];
  }

  /** The chart, drawn again only when a curve, an error or α changed. */
  render(r) {
    const n = r.now;
    patch(
      this.box,
      keep(
        [
          r.alpha,
          r.curve,
          r.quantX.maxAbsError,
          r.quantW.maxAbsError,
          n.quantXSmoothed.maxAbsError,
          n.quantWSmoothed.maxAbsError,
        ],
        () => this.chart(r),
      ),
    );
  }

  /** Max error of the quantised smoothed X and W against α, with their unsmoothed errors as lines. */
  chart(r) {
    const top = Math.max(
      r.quantX.maxAbsError,
      r.quantW.maxAbsError,
      ...r.curve.flatMap((p) => [p.quantXSmoothedMaxAbsError, p.quantWSmoothedMaxAbsError]),
    );
    const { max, ticks } = niceTicks(top);
    return [
      lineChart({
        title: "Largest quantisation error of the smoothed activations and weights against α",
        width: 440,
        height: 240,
        x: {
          min: 0,
          max: 1,
          ticks: [0, 0.25, 0.5, 0.75, 1],
          format: (t) => fmt(t, 2),
          label: "migration strength α",
          name: "α",
        },
        y: { min: 0, max, ticks, format: (t) => fmt(t, 4), label: "max |error|" },
        series: [
          {
            points: r.curve.map((p) => [p.alpha, p.quantXSmoothedMaxAbsError]),
            class: "series",
            label: "activations X/s",
          },
          {
            points: r.curve.map((p) => [p.alpha, p.quantWSmoothedMaxAbsError]),
            class: "series alt",
            label: "weights s·W",
          },
        ],
        describe: `Marked: α = ${fmt(r.alpha, 2)}, the figure's. As they are, X's largest error is ${fmt(r.quantX.maxAbsError, 4)} and W's ${fmt(r.quantW.maxAbsError, 4)} (the dashed lines).`,
        hlines: [
          { y: r.quantX.maxAbsError, class: "guide accent" },
          { y: r.quantW.maxAbsError, class: "guide" },
        ],
        markers: [
          { x: r.alpha, y: r.now.quantXSmoothed.maxAbsError, class: "marker accent" },
          { x: r.alpha, y: r.now.quantWSmoothed.maxAbsError },
        ],
      }),
      legend([
        { label: "activations X/s", class: "line" },
        { label: "weights s·W", class: "line alt" },
        { label: "X as it is", class: "dashed" },
        { label: "W as it is", class: "dashed alt" },
      ]),
    ];
  }
}
