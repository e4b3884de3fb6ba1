// <llm-diagnose>: pick a symptom, land on its calculation. Each scenario (diagnose-scenarios.js)
// names the mechanism, runs its small calculation through the core with inputs the reader can
// change, states the assumptions, and says which check to run, linking to its section.
//
// Attributes: see LlmDiagnose.attributes: symptom (a scenario id, default the first) and one
// attribute per input of every scenario, named "<scenario id>-<input name>" (memory-batch,
// speed-alpha, …), with the input's default. Inputs of the scenarios not shown keep their values
// (switching back shows them again).
// Properties: result ({ id, lines }), state ({ symptom, memoryBatch, speedAlpha, … }).
import { fill, h, uniqueId } from "../dom.js";
import { LlmWidget } from "./base.js";
import { stateKey } from "./attributes.js";
import { markInvalid, numberField } from "./controls.js";
import { scenarios } from "./diagnose-scenarios.js";
import css from "./diagnose.css";

const SECTION_TITLES = {
  attention: "1 Attention",
  sampling: "2 Sampling",
  rope: "3 Rotary embeddings",
  cost: "4 Growing context",
  speculative: "5 Speculative decoding",
  alibi: "6 ALiBi",
  quantization: "7 Quantisation",
  moe: "8 Mixture of experts",
};

/** The attribute of a scenario's input: "memory" + "batch" → "memory-batch". */
const inputAttribute = (scenario, input) => `${scenario.id}-${input.name}`;
/** The state key of a scenario's input: "memoryBatch". */
const inputKey = (scenario, input) => stateKey(inputAttribute(scenario, input));
/** The scenario of a symptom id (a declared choice, so always one of them). */
const scenarioOf = (id) => scenarios.find((s) => s.id === id) ?? scenarios[0];

export class LlmDiagnose extends LlmWidget {
  static styles = css;
  static attributes = [
    { name: "symptom", type: "choice", choices: scenarios.map((s) => s.id), default: scenarios[0].id,
      doc: "The symptom whose scenario and calculation are shown." },
    ...scenarios.flatMap((s) => s.inputs.map((i) => ({
      name: inputAttribute(s, i), type: i.type ?? "number", min: i.min, max: i.max, default: i.value, doc: i.doc,
    }))),
  ];

  build() {
    const id = uniqueId("diag");
    this.radios = new Map();
    this.picker = h("fieldset", { class: "diag-picker" }, h("legend", {}, "What are you seeing?"),
      scenarios.map((s) => {
        const radio = h("input", { type: "radio", name: `${id}-symptom`, value: s.id,
          onchange: () => this.set({ symptom: s.id }, { sync: true }) });
        this.radios.set(s.id, radio);
        return h("label", { class: "diag-choice" }, radio, " ", s.symptom);
      }));
    this.card = h("div", { class: "diag-card" });
    this.shown = null;
    this.fields = [];
    this.frame.append(this.picker, this.card);
  }

  /** Sets the picker, the card (rebuilt when the symptom changed) and the inputs from the state. */
  sync() {
    const s = scenarioOf(this.state.symptom);
    for (const [sid, radio] of this.radios) radio.checked = sid === s.id;
    if (this.shown !== s) this.renderCard(s);
    for (const { key, input } of this.fields) {
      input.value = String(this.state[key]);
      markInvalid(input, false);
    }
  }

  /** The scenario's fixed text and its inputs; the calculation lines are filled by render(). */
  renderCard(s) {
    this.shown = s;
    this.fields = s.inputs.map((i) => {
      const key = inputKey(s, i);
      const field = numberField({ label: i.label, min: i.min, max: i.max, step: i.step, value: this.state[key],
        oninput: (x, input) => this.onInput(key, x, input) });
      return { key, input: field.input, row: field.row };
    });
    this.lines = h("ul", { class: "diag-lines", "aria-live": "polite" });
    fill(this.card,
      h("h3", { class: "diag-title" }, s.symptom),
      h("p", { class: "diag-story" }, s.story),
      h("p", {}, h("strong", {}, "Mechanism. "), s.mechanism),
      h("div", { class: "diag-calc" },
        h("p", { class: "diag-calc-title" }, h("strong", {}, "The small calculation"), " (change the numbers):"),
        h("div", { class: "diag-inputs" }, this.fields.map((f) => f.row)),
        this.lines),
      h("p", {}, h("strong", {}, "Assumptions. "), s.assumptions),
      h("p", { class: "check" }, h("strong", {}, "The check. "), s.check),
      // The link works where the section is on the page (the reader); embedded, it names it.
      h("p", {}, document.getElementById(s.section)
        ? h("a", { href: `#${s.section}` }, `Go to section ${SECTION_TITLES[s.section]} for the full figure →`)
        : `The full figure is in section ${SECTION_TITLES[s.section]} of the chapter.`));
  }

  onInput(key, x, input) {
    // x is NaN for an empty or unparsable field; the core names the input in its message.
    this.set({ [key]: x });
    const invalid = this.status.classList.contains("llm-error");
    if (!invalid) for (const f of this.fields) markInvalid(f.input, false);
    markInvalid(input, invalid);
  }

  compute() {
    const s = scenarioOf(this.state.symptom);
    const values = Object.fromEntries(s.inputs.map((i) => [i.key, this.state[inputKey(s, i)]]));
    return { id: s.id, lines: s.compute(this.core, values) };
  }

  render(r) {
    fill(this.lines, r.lines.map((line) => h("li", {}, line)));
  }
}

export const widgets = { "llm-diagnose": LlmDiagnose };
