// The controls above Figure 7.1's panels: the example list (.controls), the hint, the editors of X
// and W (.quantization-editors) and the bit width and migration strength sliders (.sliders), each
// setting one attribute. They follow the result too: the sliders' readouts and the bit width's
// spoken value say the settings the core used (r.bits, r.alpha) and its levels (r.quantX.qmax).
import { fill, h } from "../../dom.js";
import { fmt } from "../../format.js";
import { markInvalid, matrixEditor, slider } from "../../kit/controls.js";
import { presetFields } from "./attributes.js";
import { quantizationPresets } from "./quantization-presets.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The example, X and W, the bits and α: a part of the figure (quantization.js) that holds
 * controls, so it is made with the figure whose state it sets; sync(state) sets them, render(r)
 * writes the sliders' readouts.
 */
export class Controls {
  /**
   * @param {import("./quantization.js").LlmQuantization} figure
   * @param {string} id the figure's unique id, which the example list's id extends
   */
  constructor(figure, id) {
    this.figure = figure;
    this.presetSelect = h(
      "select",
      { id: `${id}-preset`, onchange: () => figure.onPreset(this.presetSelect.value) },
      Object.entries(quantizationPresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "", disabled: true }, "Your numbers"),
    );
    this.bits = slider({ label: "Bits b", min: 2, max: 16, step: 1, oninput: (bits) => figure.set({ bits }) });
    this.alpha = slider({
      label: "Migration strength α",
      min: 0,
      max: 1,
      step: 0.05,
      oninput: (alpha) => figure.set({ alpha }),
    });
    this.editors = h("div", { class: "quantization-editors" });
    this.nodes = [
      h("div", { class: "controls" }, h("label", { for: `${id}-preset` }, "Example "), this.presetSelect),
      h(
        "p",
        { class: "hint" },
        "Edit any number of X (rows are tokens, columns are channels) or W (rows are the same channels, columns are outputs).",
      ),
      this.editors,
      h("div", { class: "sliders llm-bar" }, this.bits.row, this.alpha.row),
    ];
  }

  /** Sets the example list, the editors and the sliders from the state. */
  sync(s) {
    const p = presetFields(s.preset);
    this.presetSelect.value = same(p.x, s.x) && same(p.w, s.w) ? s.preset : "";
    this.bits.input.value = String(s.bits);
    this.alpha.input.value = String(s.alpha);
    // Fields are named "X t1, ch 2": the row and column headers the reader sees.
    const editor = (name, key, caption, rowName, colName) => {
      const rows = s[key].map((_, i) => rowName(i)),
        cols = s[key][0].map((_, j) => colName(j));
      return matrixEditor({
        name,
        caption: [h("var", {}, name), ` (${caption})`],
        M: s[key],
        rowLabels: rows,
        colLabels: cols,
        step: "0.01",
        cellLabel: (i, j) => `${name} ${rows[i]}, ${cols[j]}`,
        oncell: (i, j, v, input) => this.onCell(key, i, j, v, input),
      });
    };
    fill(
      this.editors,
      editor(
        "X",
        "x",
        "activations",
        (i) => `t${i + 1}`,
        (j) => `ch ${j + 1}`,
      ),
      editor(
        "W",
        "w",
        "weights",
        (i) => `ch ${i + 1}`,
        (j) => `out ${j + 1}`,
      ),
    );
  }

  onCell(key, i, j, v, input) {
    // v is NaN for an empty or unparsable field; the core names it in its message.
    const M = this.figure.state[key].map((row) => row.slice());
    M[i][j] = v;
    this.figure.set({ [key]: M });
    this.presetSelect.value = "";
    markInvalid(input, this.figure.failed);
  }

  /** The sliders' readouts: the bits with their levels, and α. */
  render(r) {
    this.bits.out.value = `${r.bits}`;
    this.bits.input.setAttribute("aria-valuetext", `${r.bits} bits, levels −${r.quantX.qmax} to ${r.quantX.qmax}`);
    this.alpha.out.value = fmt(r.alpha, 2);
  }
}
