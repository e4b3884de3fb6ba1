// Figure 7.1's bars of each channel's range (.quantization-ranges): max|X_j| and max|W_j| as they
// are (r.xAbsMax, r.wAbsMax) and after smoothing with α (r.now.xAbsMax, r.now.wAbsMax, r.alpha),
// side by side on one logarithmic scale, with their legend. Drawn again only when one of those
// changes (keep). Exercise 7 conceals the bars after smoothing (quantization-figure.js).
import { h, keep, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { groupedBarChart, legend } from "../../kit/plot.js";

/** The ranges' bars: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class RangesChart {
  constructor() {
    this.box = h("div", { class: "quantization-ranges" });
    this.nodes = [h("p", { class: "figure-sub" }, "The range of each channel, before and after smoothing"), this.box];
  }

  /** The bars, drawn again only when a range or α changed. */
  render(r) {
    const n = r.now;
    patch(
      this.box,
      keep([r.alpha, r.xAbsMax, r.wAbsMax, n.xAbsMax, n.wAbsMax], () => this.charts(r)),
    );
  }

  /** Bars of max|X_j| and max|W_j| per channel, before and after, on one log scale. */
  charts(r) {
    // Whole decades around the nonzero ranges (an all-zero channel's bar stays at the bottom),
    // at least one decade tall.
    const all = [...r.xAbsMax, ...r.wAbsMax, ...r.now.xAbsMax, ...r.now.wAbsMax].filter((v) => v > 0);
    const lo = all.length ? Math.floor(Math.log10(Math.min(...all))) : 0;
    const hi = Math.max(lo + 1, all.length ? Math.ceil(Math.log10(Math.max(...all))) : 1);
    const ticks = Array.from({ length: hi - lo + 1 }, (_, k) => 10 ** (lo + k));
    const y = {
      min: ticks[0],
      max: ticks[ticks.length - 1],
      log: true,
      ticks,
      format: (t) => fmt(t, 6),
      label: "max |·| (log scale)",
    };
    const categories = r.xAbsMax.map((_, j) => `ch ${j + 1}`);
    const chart = (title, xs, ws) =>
      h(
        "div",
        { class: "chart-box" },
        h("p", { class: "chart-title" }, title),
        groupedBarChart({
          title,
          categories,
          y,
          width: 360,
          height: 220,
          x: { name: "channel" },
          series: [
            { values: xs, label: "activations", class: "bar" },
            { values: ws, label: "weights", class: "bar alt" },
          ],
        }),
      );
    return [
      h(
        "div",
        { class: "quantization-pair" },
        chart("X and W as they are", r.xAbsMax, r.wAbsMax),
        chart(`Smoothed, α = ${fmt(r.alpha, 2)}`, r.now.xAbsMax, r.now.wAbsMax),
      ),
      legend([
        { label: "activations max|Xⱼ|", class: "bar" },
        { label: "weights max|Wⱼ|", class: "bar alt" },
      ]),
    ];
  }
}
