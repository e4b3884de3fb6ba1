// Figure 7.1's check of the output XW (.quantization-check): the output with full-precision,
// quantised, and smoothed then quantised tensors, and the largest errors of the last two and of
// smoothing alone (r.check: y, yQuantized, yQuantizedSmoothed, errorQuantized,
// errorQuantizedSmoothed, errorSmoothingAlone), at r.bits and r.alpha. Drawn again only when one
// of those changes (keep).
import { gridTable, h, keep, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { scrollBox } from "../../kit/controls.js";

/** The check of the output: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class OutputCheck {
  constructor() {
    this.box = h("div", { class: "quantization-check" });
    this.nodes = [h("p", { class: "figure-sub" }, "The check: the output XW"), this.box];
  }

  /** The outputs and errors, built again only when the check, the bits or α changed. */
  render(r) {
    patch(
      this.box,
      keep([r.alpha, r.bits, r.check], () => this.check(r)),
    );
  }

  /** The output with full-precision, quantised and quantised smoothed tensors, and the largest errors. */
  check(r) {
    const k = r.check;
    const t = k.y.length,
      o = k.y[0].length;
    const table = (cls, caption, Y) =>
      gridTable({
        className: `data-table ${cls}`,
        caption,
        rows: t,
        cols: o,
        rowHead: (i) => `t${i + 1}`,
        rowKey: (i) => Y[i],
        cell: (i, j) => h("td", {}, fmt(Y[i][j], 3)),
      });
    return [
      scrollBox(
        "Outputs XW",
        "quantization-outputs",
        table("y", "XW, full precision", k.y),
        table("y-quantized", `Quantised X and W, ${r.bits} bits`, k.yQuantized),
        table("y-quantized-smoothed", `Quantised X/s and s·W, α = ${fmt(r.alpha, 2)}`, k.yQuantizedSmoothed),
      ),
      h(
        "p",
        {},
        "Largest error of the output: ",
        h("strong", { class: "error-quantized" }, fmt(k.errorQuantized, 4)),
        " quantising X and W as they are, ",
        h("strong", { class: "error-quantized-smoothed" }, fmt(k.errorQuantizedSmoothed, 4)),
        ` quantising them after smoothing with α = ${fmt(r.alpha, 2)}. `,
        "Smoothing alone changes nothing: (X/s)(s·W) differs from XW by at most ",
        h("span", { class: "error-smoothing-alone" }, fmt(k.errorSmoothingAlone, 4)),
        ", rounding in the last digits.",
      ),
    ];
  }
}
