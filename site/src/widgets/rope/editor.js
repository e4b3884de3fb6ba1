// The editors of Figure 3.1's numbers: the given frequencies, one field per pair (.rope-freqs,
// hidden while they come from a base), and the vectors q and k, one field per coordinate
// (.rope-vectors), each field setting one value of the freqs, q or k attribute. They draw nothing
// from the result: they follow the state (sync), keeping their fields from one sync to the next.
import { h, sym } from "../../dom.js";
import { fieldValue } from "../../format.js";
import { markInvalid } from "../../kit/controls.js";

/**
 * The number fields of the frequencies, q and k: a part of the figure (rope.js) that holds
 * controls, so it is made with the figure whose state it sets; sync(state) sets them.
 */
export class Editor {
  /** @param {import("./rope.js").LlmRope} figure */
  constructor(figure) {
    this.figure = figure;
    // The number fields of q, k and the frequencies, kept from one sync to the next (a new
    // example or d writes values into them, and adds or removes fields at the end).
    this.rows = {
      freqs: editorRow(
        h("span", { class: "rope-row-label" }, "θ per pair (radians per position)"),
        (i) => [sym("θ", i), " "],
        (i) => ({ step: "any", "aria-label": `θ ${i}, frequency of pair ${i}` }),
      ),
      q: editorRow(
        h("span", { class: "rope-row-label" }, h("var", {}, "q"), " (query)"),
        (i) => h("span", { class: "rope-index" }, String(i)),
        (i) => ({ step: "0.1", "aria-label": `q coordinate ${i}` }),
      ),
      k: editorRow(
        h("span", { class: "rope-row-label" }, h("var", {}, "k"), " (key)"),
        (i) => h("span", { class: "rope-index" }, String(i)),
        (i) => ({ step: "0.1", "aria-label": `k coordinate ${i}` }),
      ),
    };
    this.freqEditor = h("div", { class: "rope-freqs" }, this.rows.freqs.row);
    this.vectorEditor = h("div", { class: "rope-vectors" }, this.rows.q.row, this.rows.k.row);
    this.nodes = [this.freqEditor, this.vectorEditor];
  }

  /** Shows the frequencies' fields while they are given, and every field's value from the state. */
  sync(s) {
    this.freqEditor.hidden = !s.useFreqs;
    this.syncRow("freqs", s.useFreqs ? s.freqs : []);
    this.syncRow("q", s.q);
    this.syncRow("k", s.k);
  }

  /**
   * Row `key` shows the fields for `values`: fields are added or removed at the end, and each
   * shows its value, marked valid (a sync replaces whatever was typed), so that a new example or
   * d does not build every field anew.
   */
  syncRow(key, values) {
    const row = this.rows[key];
    while (row.cells.length > values.length) row.cells.pop().label.remove();
    while (row.cells.length < values.length) {
      const i = row.cells.length;
      const input = h("input", {
        type: "number",
        inputmode: "decimal",
        ...row.props(i),
        oninput: (e) => this.onCell(key, i, e.target),
      });
      const label = h("label", { class: "rope-cell" }, row.lead(i), input);
      row.row.append(label);
      row.cells.push({ label, input });
    }
    values.forEach((v, i) => {
      const { input } = row.cells[i];
      if (input.value !== fieldValue(v)) input.value = fieldValue(v);
      if (input.getAttribute("aria-invalid") === "true") markInvalid(input, false);
    });
  }

  onCell(key, i, input) {
    const figure = this.figure;
    // NaN for an empty or unparsable field; the core's message names the coordinate.
    const v = figure.state[key].slice();
    v[i] = input.valueAsNumber;
    figure.set({ [key]: v });
    markInvalid(input, figure.failed);
  }
}

/** An editor row: its label, then one number field per value; `lead(i)` before field i, `props(i)` its attributes. */
function editorRow(label, lead, props) {
  return { row: h("div", { class: "rope-row" }, label), lead, props, cells: [] };
}
