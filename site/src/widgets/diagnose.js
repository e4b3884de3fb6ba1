// <llm-diagnose>: a diagnosis to make, one scenario at a time. The figure tells what a user saw
// and the numbers they have; the reader chooses the mechanism among the chapter's six, is told
// why a wrong choice does not fit this story, and once right sees why it does, then the live
// calculation (computed by the core, with inputs to change), its assumptions and the check to
// run. The scenarios (diagnose-scenarios.js) come in a seeded shuffled order that the reader can
// restart; the score counts the scenarios answered right at the first choice.
//
// Attributes: see LlmDiagnose.attributes: seed (the order), scenario (the position shown in
// it), picks (the choices made so far, scenario by scenario) and one attribute per input of
// every scenario, named "<scenario id>-<input name>" (serving-batch, slow-chat-alpha, …), with
// the input's default. Inputs of the scenarios not shown keep their values.
// Properties: result ({ id, lines }), state ({ seed, scenario, picks, servingBatch, … }),
// order (the scenario ids in the shown order).
import { fill, h } from "../dom.js";
import { LlmWidget } from "./base.js";
import { stateKey } from "./attributes.js";
import { markInvalid, numberField } from "./controls.js";
import { mechanisms, scenarios } from "./diagnose-scenarios.js";
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

const MAX_SEED = 2 ** 32 - 1;
const MECHANISM_IDS = mechanisms.map((m) => m.id);
const labelOf = (id) => mechanisms.find((m) => m.id === id).label;

/** The attribute of a scenario's input: "serving" + "batch" → "serving-batch". */
const inputAttribute = (scenario, input) => `${scenario.id}-${input.name}`;
/** The state key of a scenario's input: "servingBatch". */
const inputKey = (scenario, input) => stateKey(inputAttribute(scenario, input));

/**
 * The scenarios in the order of `seed` (a whole number in 0 … 2^32 − 1): a Fisher–Yates
 * shuffle driven by mulberry32, so the same seed gives the same order in every browser. The
 * order is no number the chapter explains, and normalize() needs it before the core has loaded,
 * so it is computed here rather than by the core.
 */
export function shuffled(seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out = scenarios.slice();
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(uniform() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The choices made at one position: "memory,speed" → ["memory", "speed"]. */
const picksOf = (entry) => (entry ? entry.split(",") : []);

export class LlmDiagnose extends LlmWidget {
  static styles = css;
  // picks: the six mechanisms of one scenario take 63 characters; 128 leaves room for stray
  // entries, which normalize() then names in its note instead of refusing the whole value.
  static attributes = [
    {
      name: "seed",
      type: "integer",
      min: 0,
      max: MAX_SEED,
      default: 1,
      doc: "The shuffled order of the scenarios: the same seed gives the same order; “Start again” takes the next seed.",
    },
    {
      name: "scenario",
      type: "integer",
      min: 1,
      max: scenarios.length,
      default: 1,
      doc: "The position, in that order, of the scenario shown (1 is the first).",
    },
    {
      name: "picks",
      type: "labels",
      minLength: 1,
      maxLength: scenarios.length,
      maxChars: 128,
      default: [],
      doc: `The mechanisms chosen so far, scenario by scenario in the shuffled order: “|” between scenarios, “,” between the choices of one, which end at the right one (e.g. memory|speed,position). Mechanisms: ${MECHANISM_IDS.join(", ")}.`,
    },
    ...scenarios.flatMap((s) =>
      s.inputs.map((i) => ({
        name: inputAttribute(s, i),
        type: i.type ?? "number",
        min: i.min,
        max: i.max,
        default: i.value,
        doc: i.doc,
      })),
    ),
  ];

  /**
   * Keeps the picks a scenario can have: known mechanisms, each once, none after the right one;
   * an empty entry is a scenario not answered, and trailing ones are dropped.
   */
  normalize(state, notes) {
    // A scenario past either end (next() after the last, set() from a script) is the nearest one.
    const scenario = Number.isInteger(state.scenario) ? Math.min(Math.max(state.scenario, 1), scenarios.length) : 1;
    if (scenario !== state.scenario) {
      notes.push(`scenario ${state.scenario} does not exist; scenario ${scenario} is shown.`);
      state.scenario = scenario;
    }
    const order = shuffled(state.seed);
    const ignored = [];
    const picks = state.picks.map((entry, k) => {
      const kept = [];
      for (const id of picksOf(entry)) {
        if (MECHANISM_IDS.includes(id) && !kept.includes(id) && !kept.includes(order[k].mechanism)) kept.push(id);
        else ignored.push(id);
      }
      return kept.join(",");
    });
    while (picks.length && picks.at(-1) === "") picks.pop();
    state.picks = picks;
    if (ignored.length) {
      notes.push(
        `picks: ${ignored.map((id) => `“${id.length > 20 ? `${id.slice(0, 20)}…` : id}”`).join(", ")} ignored: expected mechanisms among ${MECHANISM_IDS.join(", ")}, each once per scenario and none after the right one.`,
      );
    }
  }

  /** The scenario ids in the order shown. */
  get order() {
    return this.state ? shuffled(this.state.seed).map((s) => s.id) : [];
  }

  build() {
    this.progress = h("p", { class: "diagnose-progress" });
    this.restartButton = h(
      "button",
      { type: "button", class: "diagnose-restart", onclick: () => this.restart() },
      "Start again in a new order",
    );
    this.card = h("div", { class: "diagnose-card" });
    this.shown = null;
    this.fields = [];
    this.frame.append(h("div", { class: "diagnose-head" }, this.progress, this.restartButton), this.card);
  }

  /** The scenario shown and the choices made for it. */
  current() {
    const s = shuffled(this.state.seed)[this.state.scenario - 1];
    const picks = picksOf(this.state.picks[this.state.scenario - 1]);
    return { s, picks, solved: picks.includes(s.mechanism) };
  }

  /** Sets the progress, the card (rebuilt when the scenario changed), choices and inputs from the state. */
  sync() {
    const { s, picks, solved } = this.current();
    if (this.shown !== s) this.renderCard(s);
    const order = shuffled(this.state.seed);
    const answered = this.state.picks.flatMap((entry, k) => (entry ? [picksOf(entry)[0] === order[k].mechanism] : []));
    const right = answered.filter(Boolean).length;
    fill(
      this.progress,
      `Scenario ${this.state.scenario} of ${scenarios.length}. `,
      answered.length
        ? h("span", { class: "diagnose-score" }, `${right} of ${answered.length} right first time.`)
        : "No answers yet.",
    );

    for (const [id, button] of this.buttons) {
      const tried = picks.includes(id);
      button.setAttribute("aria-disabled", String(solved || tried));
      button.classList.toggle("diagnose-no", tried && id !== s.mechanism);
      button.classList.toggle("diagnose-yes", tried && id === s.mechanism);
    }
    // Feedback for each choice made, added to what is shown when the reader adds a choice (so a
    // screen reader announces only the new one), rebuilt otherwise.
    const grows = this.shownPicks.every((id, k) => picks[k] === id);
    if (!grows) fill(this.feedback);
    for (const id of picks.slice(grows ? this.shownPicks.length : 0)) this.feedback.append(this.verdict(s, id));
    this.shownPicks = picks;

    this.analysis.hidden = !solved;
    const others = MECHANISM_IDS.filter((id) => id !== s.mechanism && !picks.includes(id));
    fill(
      this.othersList,
      others.map((id) => h("li", {}, h("strong", {}, `${labelOf(id)}: `), s.not[id])),
    );
    this.others.hidden = !others.length;
    const last = this.state.scenario === scenarios.length;
    this.nextButton.hidden = !solved || last;
    this.final.hidden = !solved || !last;
    fill(
      this.finalText,
      `That was the last of the ${scenarios.length} scenarios: `,
      h("strong", {}, `${right} of ${answered.length} right first time`),
      ".",
    );
    for (const { key, input } of this.fields) {
      input.value = String(this.state[key]);
      markInvalid(input, false);
    }
  }

  /** The feedback for choosing mechanism `id` in scenario `s`. */
  verdict(s, id) {
    return id === s.mechanism
      ? h(
          "p",
          { class: "diagnose-verdict diagnose-yes" },
          h("strong", {}, `Right: ${labelOf(id).toLowerCase()}. `),
          s.because,
        )
      : h(
          "p",
          { class: "diagnose-verdict diagnose-no" },
          h("strong", {}, `Not ${labelOf(id).toLowerCase()}. `),
          s.not[id],
        );
  }

  /** The scenario's story, the six choices and the calculation (hidden until the right choice). */
  renderCard(s) {
    this.shown = s;
    this.shownPicks = [];
    this.buttons = new Map(
      mechanisms.map((m) => [
        m.id,
        h("button", { type: "button", class: "diagnose-choice", onclick: () => this.choose(m.id) }, m.label),
      ]),
    );
    this.fields = s.inputs.map((i) => {
      const key = inputKey(s, i);
      const field = numberField({
        label: i.label,
        min: i.min,
        max: i.max,
        step: i.step,
        value: this.state[key],
        oninput: (x, input) => this.onInput(key, x, input),
      });
      return { key, input: field.input, row: field.row };
    });
    this.heading = h("h3", { class: "diagnose-title", tabindex: "-1" }, s.title);
    this.feedback = h("div", { class: "diagnose-feedback" });
    this.lines = h("ul", { class: "diagnose-lines" });
    this.othersList = h("ul", {});
    this.others = h("details", { class: "diagnose-others" }, h("summary", {}, "Why not the others?"), this.othersList);
    this.nextButton = h(
      "button",
      { type: "button", class: "diagnose-next", onclick: () => this.next() },
      "Next scenario",
    );
    this.finalText = h("span", {});
    this.final = h(
      "p",
      { class: "diagnose-final" },
      this.finalText,
      " ",
      h("button", { type: "button", onclick: () => this.restart() }, "Start again in a new order"),
    );
    this.analysis = h(
      "div",
      { class: "diagnose-analysis" },
      this.others,
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
      h("p", {}, h("strong", {}, "Assumptions. "), s.assumptions),
      h("p", { class: "check" }, h("strong", {}, "The check. "), s.check),
      // The link works where the section is on the page (the reader); embedded, it names it.
      h(
        "p",
        {},
        document.getElementById(s.section)
          ? h("a", { href: `#${s.section}` }, `Go to section ${SECTION_TITLES[s.section]} for the full figure →`)
          : `The full figure is in section ${SECTION_TITLES[s.section]} of the chapter.`,
      ),
    );
    fill(
      this.card,
      this.heading,
      h("p", { class: "diagnose-story" }, s.story),
      h("fieldset", { class: "diagnose-choices" }, h("legend", {}, "Which mechanism explains it?"), [
        ...this.buttons.values(),
      ]),
      this.feedback,
      this.analysis,
      this.nextButton,
      this.final,
    );
  }

  /** The reader chooses mechanism `id` for the scenario shown (once; none after the right one). */
  choose(id) {
    const { picks, solved } = this.current();
    if (solved || picks.includes(id)) return;
    const all = this.state.picks.slice();
    while (all.length < this.state.scenario) all.push("");
    all[this.state.scenario - 1] = [...picks, id].join(",");
    this.set({ picks: all }, { sync: true });
  }

  next() {
    this.set({ scenario: Math.min(this.state.scenario + 1, scenarios.length) }, { sync: true });
    this.heading.focus();
  }

  /** A new order (the next seed), from its first scenario, with no choices made. */
  restart() {
    this.set({ seed: this.state.seed === MAX_SEED ? 0 : this.state.seed + 1, scenario: 1, picks: [] }, { sync: true });
    this.heading.focus();
  }

  onInput(key, x, input) {
    // x is NaN for an empty or unparsable field; the core names the input in its message.
    this.set({ [key]: x });
    const invalid = this.failed;
    if (!invalid) for (const f of this.fields) markInvalid(f.input, false);
    markInvalid(input, invalid);
  }

  compute() {
    const { s } = this.current();
    const values = Object.fromEntries(s.inputs.map((i) => [i.key, this.state[inputKey(s, i)]]));
    return { id: s.id, lines: s.compute(this.core, values) };
  }

  render(r) {
    fill(
      this.lines,
      r.lines.map((line) => h("li", {}, line)),
    );
  }

  /**
   * Where the reader is and the verdict on their last choice; once right, the calculation's first
   * result (its first bold number).
   */
  summary(r) {
    const { s, picks, solved } = this.current();
    const where = `scenario ${this.state.scenario} of ${scenarios.length}`;
    if (!picks.length)
      return `${where[0].toUpperCase()}${where.slice(1)}: ${s.title}${/[.?!]$/.test(s.title) ? "" : "."} Which mechanism explains it?`;
    if (!solved) return `Not ${labelOf(picks.at(-1)).toLowerCase()}: try another mechanism (${where}).`;
    const first = r.lines.flat(Infinity).find((x) => x instanceof Element && x.localName === "strong");
    return `Right: ${labelOf(s.mechanism).toLowerCase()} (${where}).${first ? ` The calculation gives ${first.textContent}.` : ""}`;
  }
}

export const widgets = { "llm-diagnose": LlmDiagnose };
