// The small calculation of the scenario shown (.diagnose-calc), under Figure 9.1's card once its
// mechanism is found: a field for each of the scenario's inputs (the attribute
// "<scenario id>-<input name>" each sets), and the lines its calculation gives with them
// (.diagnose-lines: r.lines, computed by the core, diagnose-calculations.js).
import { fill, h } from "../../dom.js";
import { markInvalid, numberField } from "../../kit/controls.js";
import { inputKey } from "./scenarios.js";

/**
 * The calculation of one scenario: a part of the card (card.js), made for each scenario shown,
 * whose inputs set the figure's state; sync(state) sets the fields, render(r) writes the lines.
 */
export class Calculation {
  /**
   * @param {import("./diagnose.js").LlmDiagnose} figure
   * @param {any} s the scenario shown
   */
  constructor(figure, s) {
    this.figure = figure;
    this.fields = s.inputs.map((i) => {
      const key = inputKey(s, i);
      const field = numberField({
        label: i.label,
        min: i.min,
        max: i.max,
        step: i.step,
        value: figure.state[key],
        oninput: (x, input) => this.onInput(key, x, input),
      });
      return { key, input: field.input, row: field.row };
    });
    this.lines = h("ul", { class: "diagnose-lines" });
    this.nodes = [
      h(
        "div",
        { class: "diagnose-calc" },
        h("p", { class: "diagnose-calc-title" }, h("strong", {}, "The small calculation"), " (change the numbers):"),
        h(
          "div",
          { class: "diagnose-inputs" },
          this.fields.map((f) => f.row),
        ),
        this.lines,
      ),
    ];
  }

  /** Sets every field from the state, none marked. */
  sync(state) {
    for (const { key, input } of this.fields) {
      input.value = String(state[key]);
      markInvalid(input, false);
    }
  }

  onInput(key, x, input) {
    // x is NaN for an empty or unparsable field; the core names the input in its message.
    this.figure.set({ [key]: x });
    const invalid = this.figure.failed;
    if (!invalid) for (const f of this.fields) markInvalid(f.input, false);
    markInvalid(input, invalid);
  }

  /** The lines of the calculation, with the figure's numbers. */
  render(r) {
    fill(
      this.lines,
      r.lines.map((line) => h("li", {}, line)),
    );
  }
}
