// <llm-diagnose>: pick a symptom, land on its calculation. Each scenario (diagnose-scenarios.js)
// names the mechanism, runs its small calculation through the core with inputs the reader can
// change, states the assumptions, and says which check to run, linking to its section.
// Attribute: symptom (a scenario id, default the first).
import { fill, h, uniqueId } from "../dom.js";
import { LlmWidget } from "./base.js";
import { scenarios } from "./diagnose-scenarios.js";

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

export class LlmDiagnose extends LlmWidget {
  build() {
    const id = uniqueId("diag");
    const wanted = scenarios.find((s) => s.id === this.getAttribute("symptom")) ?? scenarios[0];
    this.scenario = wanted;
    this.values = {};
    this.picker = h("fieldset", { class: "diag-picker" }, h("legend", {}, "What are you seeing?"),
      scenarios.map((s) => h("label", { class: "diag-choice" },
        h("input", { type: "radio", name: `${id}-symptom`, value: s.id, checked: s === wanted, onchange: () => this.pick(s) }),
        " ", s.symptom)));
    this.card = h("div", { class: "diag-card" });
    this.append(this.picker, this.card);
    this.renderCard();
  }

  pick(scenario) {
    this.scenario = scenario;
    this.setAttribute("symptom", scenario.id);
    this.renderCard();
    this.update();
  }

  /** The scenario's fixed text and its inputs; the calculation lines are filled by render(). */
  renderCard() {
    const s = this.scenario;
    const id = uniqueId("diag-in");
    this.values = Object.fromEntries(s.inputs.map((i) => [i.key, i.value]));
    this.lines = h("ul", { class: "diag-lines", "aria-live": "polite" });
    fill(this.card,
      h("h3", { class: "diag-title" }, s.symptom),
      h("p", { class: "diag-story" }, s.story),
      h("p", {}, h("strong", {}, "Mechanism. "), s.mechanism),
      h("div", { class: "diag-calc" },
        h("p", { class: "diag-calc-title" }, h("strong", {}, "The small calculation"), " (change the numbers):"),
        h("div", { class: "diag-inputs" }, s.inputs.map((i, k) => h("label", { for: `${id}-${k}` }, i.label,
          h("input", { id: `${id}-${k}`, type: "number", min: i.min, max: i.max, step: i.step, value: String(i.value),
            oninput: (e) => { this.values[i.key] = e.target.valueAsNumber; this.update(); } })))),
        this.lines),
      h("p", {}, h("strong", {}, "Assumptions. "), s.assumptions),
      h("p", { class: "check" }, h("strong", {}, "The check. "), s.check),
      h("p", {}, h("a", { href: `#${s.section}` }, `Go to section ${SECTION_TITLES[s.section]} for the full figure →`)));
  }

  compute() {
    return { id: this.scenario.id, lines: this.scenario.compute(this.core, this.values) };
  }

  render(r) {
    fill(this.lines, r.lines.map((line) => h("li", {}, line)));
  }
}

export const widgets = { "llm-diagnose": LlmDiagnose };
