// <llm-diagnose>: a diagnosis to make, one scenario at a time, in three steps. The figure tells
// what a user saw and the numbers they have; the reader chooses the mechanism among the
// chapter's six, is told why a wrong choice does not fit this story, and once right sees why it
// does and the live calculation (computed by the core, with inputs to change). Then the reader
// chooses the assumption that matters most, and then the check that would tell, each among the
// scenario's own choices, each wrong one explained. The scenarios (site/scenarios/, a data file
// each; their calculations in diagnose-calculations.js) come in a seeded shuffled order that the
// reader can restart; the score counts the steps answered right at the first choice.
//
// Attributes: see LlmDiagnose.attributes: seed (the order), scenario (the position shown in
// it), picks, assumptions and checks (the choices made so far at each step, scenario by
// scenario) and one attribute per input of every scenario, named "<scenario id>-<input name>"
// (serving-batch, slow-chat-alpha, …), with the input's default. Inputs of the scenarios not
// shown keep their values.
// Properties: result ({ id, calculation (the scenario's, by name and arguments), values (its
// inputs by key), lines, configs and names: the config.json texts and the names of the real
// models the scenario reads, by id }), state ({ seed, scenario, picks, assumptions, checks,
// servingBatch, … }), order (the scenario ids in the shown order).
import { fill, h } from "../../dom.js";
import { LlmWidget } from "../../kit/base.js";
import { stateKey } from "../../kit/attributes.js";
import { markInvalid, numberField } from "../../kit/controls.js";
import { calculations } from "./diagnose-calculations.js";
import { mechanisms, scenarios as scenarioData, sectionTitles } from "llmmath:scenarios";
import { modelPresets } from "llmmath:model-presets";
import css from "./diagnose.css";

/**
 * The scenarios (site/scenarios/, as the build read them), each with its compute(core, values,
 * models): the calculation it names, with the arguments it gives.
 */
const scenarios = scenarioData.map((s) => ({
  ...s,
  compute: (core, values, models) => calculations[s.calculation.use](core, values, models, s.calculation.with ?? {}),
}));

const MAX_SEED = 2 ** 32 - 1;
/** The real models' committed configurations by id, which the scenarios' compute reads. */
const MODELS = Object.fromEntries(modelPresets.map((p) => [p.id, p]));
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

/**
 * The two steps after the mechanism, each a list of the scenario's choices (its field) named in
 * the state by their number in that list ("2" is the second): the attribute, the question, and
 * what a verdict says.
 */
const REASONS = [
  {
    key: "assumptions",
    question: "Which assumption matters most here?",
    right: "Right: this is the one the conclusion rests on.",
    wrong: "Not the one that matters most.",
    retry: "Not that assumption: try another",
    found: "Right assumption.",
  },
  {
    key: "checks",
    question: "Which check would tell you?",
    right: "Right: this check would tell you.",
    wrong: "Not this check.",
    retry: "Not that check: try another",
    found: "Right check.",
  },
];

/** The score as the figure writes it: "7 of 9 steps right at the first try". */
const tallyOf = ({ right, answered }) =>
  `${right} of ${answered} ${answered === 1 ? "step" : "steps"} right at the first try`;

/** The number, as the state writes it, of the right choice of a scenario's list. */
const rightOf = (choices) => String(choices.findIndex((c) => c.right) + 1);

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
      label: "Order of the scenarios, shuffled by seed",
      doc: "The shuffled order of the scenarios: the same seed gives the same order; “Start again” takes the next seed.",
    },
    {
      name: "scenario",
      type: "integer",
      min: 1,
      max: scenarios.length,
      default: 1,
      print: false,
      doc: "The position, in that order, of the scenario shown (1 is the first).",
    },
    {
      name: "picks",
      type: "labels",
      minLength: 1,
      maxLength: scenarios.length,
      maxChars: 128,
      default: [],
      print: false,
      doc: `The mechanisms chosen so far, scenario by scenario in the shuffled order: “|” between scenarios, “,” between the choices of one, which end at the right one (e.g. memory|speed,position). Mechanisms: ${MECHANISM_IDS.join(", ")}.`,
    },
    ...REASONS.map(({ key, question }) => ({
      name: key,
      type: "labels",
      minLength: 1,
      maxLength: scenarios.length,
      maxChars: 32,
      default: [],
      print: false,
      doc: `The answers chosen so far to “${question}”, as picks writes the mechanisms, each choice by its number in the scenario's list (1 is the first shown), e.g. 2|3,1; a scenario's answers count once the step before is right.`,
    })),
    ...scenarios.flatMap((s) =>
      s.inputs.map((i) => ({
        name: inputAttribute(s, i),
        ...(i.aliases ? { aliases: i.aliases.map((a) => `${s.id}-${a}`) } : {}),
        type: i.type ?? "number",
        min: i.min,
        max: i.max,
        default: i.value,
        label: `${s.title}: ${i.label}`,
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
    this.normalizeReasons(state, notes, order);
  }

  /**
   * The same for the steps after the mechanism: a choice's number in the scenario's list, each
   * once, none after the right one, and none where the step before is not yet right (the picks
   * are normalised first, so each step reads the one before as kept).
   */
  normalizeReasons(state, notes, order) {
    let before = (k) => picksOf(state.picks[k]).includes(order[k].mechanism);
    for (const { key } of REASONS) {
      const ignored = [];
      const solvedBefore = before;
      const entries = state[key].map((entry, k) => {
        const choices = order[k][key];
        const kept = [];
        for (const n of picksOf(entry)) {
          const known = /^[1-9]$/.test(n) && Number(n) <= choices.length;
          if (known && solvedBefore(k) && !kept.includes(n) && !kept.includes(rightOf(choices))) kept.push(n);
          else ignored.push(n);
        }
        return kept.join(",");
      });
      while (entries.length && entries.at(-1) === "") entries.pop();
      state[key] = entries;
      if (ignored.length) {
        notes.push(
          `${key}: ${ignored.map((n) => `“${n.length > 20 ? `${n.slice(0, 20)}…` : n}”`).join(", ")} ignored: expected the number of one of the scenario's choices, each once and none after the right one, once the step before is right.`,
        );
      }
      before = (k) => picksOf(entries[k]).includes(rightOf(order[k][key]));
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
    // On paper (diagnose.css), every scenario with its three questions and their choices, in the
    // order the figure asks them; the answers are the page's Solutions (solutions()).
    this.printed = h("ol", { class: "diagnose-print" });
    this.frame.append(h("div", { class: "diagnose-head" }, this.progress, this.restartButton), this.card, this.printed);
  }

  /** The scenarios in the order shown, as data. */
  ordered() {
    return this.order.map((id) => scenarios.find((s) => s.id === id));
  }

  /** Every scenario as a printed exercise: its story, then each step's question and choices. */
  renderPrinted() {
    const choices = (items) =>
      h(
        "ol",
        { class: "diagnose-print-choices", type: "a" },
        items.map((t) => h("li", {}, t)),
      );
    fill(
      this.printed,
      this.ordered().map((s) =>
        h(
          "li",
          { class: "diagnose-print-scenario" },
          h("h3", {}, s.title),
          h("p", {}, s.story),
          h("p", { class: "diagnose-print-question" }, "1. Which mechanism explains it?"),
          choices(mechanisms.map((m) => m.label)),
          REASONS.map((step, k) => [
            h("p", { class: "diagnose-print-question" }, `${k + 2}. ${step.question}`),
            choices(s[step.key].map((c) => c.text)),
          ]),
        ),
      ),
    );
  }

  /**
   * What a printed copy's Solutions part says of Figure 9.1 (site/src/print.js): for each
   * scenario, the mechanism and why, the assumption and the check that matter and why, and its
   * small calculation with the figure's numbers, computed by the core.
   */
  solutions() {
    if (!this.core) return [];
    const right = (list) => list.find((c) => c.right);
    return [
      h(
        "div",
        { class: "print-solution" },
        h("h3", {}, "Figure 9.1: the scenarios"),
        h(
          "ol",
          {},
          this.ordered().map((s) => {
            const values = Object.fromEntries(s.inputs.map((i) => [i.key, this.state[inputKey(s, i)]]));
            const assumption = right(s.assumptions);
            const check = right(s.checks);
            return h(
              "li",
              {},
              h(
                "p",
                {},
                h("strong", {}, /[.?!]$/.test(s.title) ? `${s.title} ` : `${s.title}: `),
                `${labelOf(s.mechanism)}. `,
                s.because,
              ),
              h("p", {}, h("em", {}, "The assumption that matters: "), assumption.text, " ", assumption.why),
              h("p", {}, h("em", {}, "The check: "), check.text, " ", check.why),
              h(
                "ul",
                {},
                s.compute(this.core, values, MODELS).map((line) => h("li", {}, line)),
              ),
            );
          }),
        ),
      ),
    ];
  }

  /**
   * Every scenario in the order shown, as plain data for the notebook edition (site/notebook.mjs,
   * through site/prerender.mjs): its title and story, its three questions with their choices, and
   * what the Solutions say (solutions()): the mechanism and why, the assumption and the check that
   * matter and why, and its calculation's lines as markup, computed by the core from the figure's
   * numbers.
   */
  paperScenarios() {
    if (!this.core) return [];
    const right = (list) => list.find((c) => c.right);
    return this.ordered().map((s) => {
      const values = Object.fromEntries(s.inputs.map((i) => [i.key, this.state[inputKey(s, i)]]));
      return {
        id: s.id,
        title: s.title,
        story: s.story,
        questions: [
          { question: "Which mechanism explains it?", choices: mechanisms.map((m) => m.label) },
          ...REASONS.map((step) => ({ question: step.question, choices: s[step.key].map((c) => c.text) })),
        ],
        mechanism: labelOf(s.mechanism),
        because: s.because,
        assumption: { text: right(s.assumptions).text, why: right(s.assumptions).why },
        check: { text: right(s.checks).text, why: right(s.checks).why },
        calculation: s.compute(this.core, values, MODELS).map((line) => h("p", {}, line).innerHTML),
      };
    });
  }

  /**
   * The scenario shown and the choices made for it: the mechanisms picked and whether the right
   * one is among them, then for each step after it (REASONS) the numbers picked, whether the
   * step is open (the one before is right) and solved.
   */
  current() {
    const k = this.state.scenario - 1;
    const s = shuffled(this.state.seed)[k];
    const picks = picksOf(this.state.picks[k]);
    const solved = picks.includes(s.mechanism);
    let open = solved;
    const reasons = REASONS.map((step) => {
      const chosen = picksOf(this.state[step.key][k]);
      const done = open && chosen.includes(rightOf(s[step.key]));
      const out = { step, picks: chosen, open, solved: done };
      open = done;
      return out;
    });
    return { s, picks, solved, reasons, done: open };
  }

  /**
   * The steps answered so far in the order and how many of them were right at the first choice:
   * a step counts once a choice was made at it; of `total`, every scenario's steps (the page's
   * progress reports all three, site/src/progress.js).
   */
  score() {
    const order = shuffled(this.state.seed);
    const firsts = order.flatMap((s, k) => [
      [picksOf(this.state.picks[k])[0], s.mechanism],
      ...REASONS.map(({ key }) => [picksOf(this.state[key][k])[0], rightOf(s[key])]),
    ]);
    const answered = firsts.filter(([first]) => first !== undefined);
    return {
      right: answered.filter(([first, right]) => first === right).length,
      answered: answered.length,
      total: firsts.length,
    };
  }

  /** Sets the progress, the card (rebuilt when the scenario changed), choices and inputs from the state. */
  sync() {
    const { s, picks, solved, reasons, done } = this.current();
    if (this.shown !== s) this.renderCard(s);
    const score = this.score();
    const tally = tallyOf(score);
    fill(
      this.progress,
      `Scenario ${this.state.scenario} of ${scenarios.length}. `,
      score.answered ? h("span", { class: "diagnose-score" }, `${tally}.`) : "No answers yet.",
    );

    this.mark(this.buttons, picks, s.mechanism, solved);
    this.grow(this.feedback, "mechanism", picks, (id) => this.verdict(s, id));

    this.analysis.hidden = !solved;
    const others = MECHANISM_IDS.filter((id) => id !== s.mechanism && !picks.includes(id));
    fill(
      this.othersList,
      others.map((id) => h("li", {}, h("strong", {}, `${labelOf(id)}: `), s.not[id])),
    );
    this.others.hidden = !others.length;
    for (const [n, r] of reasons.entries()) {
      const part = this.reasonParts[n];
      part.fieldset.hidden = !r.open;
      this.mark(part.buttons, r.picks, rightOf(s[r.step.key]), r.solved);
      this.grow(part.feedback, r.step.key, r.picks, (number) => this.reasonVerdict(s, r.step, number));
    }
    this.sectionLink.hidden = !done;
    const last = this.state.scenario === scenarios.length;
    this.nextButton.hidden = !done || last;
    this.final.hidden = !done || !last;
    fill(this.finalText, `That was the last of the ${scenarios.length} scenarios: `, h("strong", {}, tally), ".");
    for (const { key, input } of this.fields) {
      input.value = String(this.state[key]);
      markInvalid(input, false);
    }
  }

  /** Marks a step's buttons (a Map from choice to button): tried wrong, tried right, or still open. */
  mark(buttons, picks, right, solved) {
    for (const [id, button] of buttons) {
      const tried = picks.includes(id);
      button.setAttribute("aria-disabled", String(solved || tried));
      button.classList.toggle("diagnose-no", tried && id !== right);
      button.classList.toggle("diagnose-yes", tried && id === right);
    }
  }

  /**
   * A step's feedback, one verdict per choice made: added to what is shown when the reader adds
   * a choice (so that the verdicts already read stay as they are), rebuilt otherwise.
   */
  grow(feedback, name, picks, verdict) {
    const shown = this.shownPicks[name] ?? [];
    const grows = shown.every((id, k) => picks[k] === id);
    if (!grows) fill(feedback);
    for (const id of picks.slice(grows ? shown.length : 0)) feedback.append(verdict(id));
    this.shownPicks[name] = picks;
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

  /** The feedback for choosing choice number `n` of `step` in scenario `s`. */
  reasonVerdict(s, step, n) {
    const choice = s[step.key][Number(n) - 1];
    return h(
      "p",
      { class: `diagnose-verdict ${choice.right ? "diagnose-yes" : "diagnose-no"}` },
      h("strong", {}, `${choice.right ? step.right : step.wrong} `),
      choice.why,
    );
  }

  /**
   * The scenario's story and its three steps: the six mechanisms; once the right one is chosen,
   * the calculation and the assumptions; once the right assumption is, the checks; once the
   * right check is, the link to the section and the next scenario.
   */
  renderCard(s) {
    this.shown = s;
    this.shownPicks = {};
    this.buttons = new Map(
      mechanisms.map((m) => [
        m.id,
        h("button", { type: "button", class: "diagnose-choice", onclick: () => this.choose(m.id) }, m.label),
      ]),
    );
    this.reasonParts = REASONS.map((step, n) => {
      const buttons = new Map(
        s[step.key].map((choice, k) => [
          String(k + 1),
          h(
            "button",
            { type: "button", class: "diagnose-option", onclick: () => this.chooseReason(n, String(k + 1)) },
            choice.text,
          ),
        ]),
      );
      const feedback = h("div", { class: "diagnose-feedback" });
      const fieldset = h(
        "fieldset",
        { class: "diagnose-choices diagnose-step" },
        h("legend", {}, `${n + 2}. ${step.question}`),
        [...buttons.values()],
        feedback,
      );
      return { buttons, feedback, fieldset };
    });
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
    );
    // The link works where the section is on the page (the reader); embedded, it names it.
    const { number, title } = sectionTitles[s.section];
    this.sectionLink = h(
      "p",
      { class: "diagnose-section" },
      document.getElementById(s.section)
        ? h("a", { href: `#${s.section}` }, `Go to section ${number}, “${title}”, for the full figure →`)
        : `The full figure is in section ${number}, “${title}”, of the chapter.`,
    );
    fill(
      this.card,
      this.heading,
      h("p", { class: "diagnose-story" }, s.story),
      h("fieldset", { class: "diagnose-choices" }, h("legend", {}, "1. Which mechanism explains it?"), [
        ...this.buttons.values(),
      ]),
      this.feedback,
      this.analysis,
      this.reasonParts.map((p) => p.fieldset),
      this.sectionLink,
      this.nextButton,
      this.final,
    );
  }

  /** The reader chooses mechanism `id` for the scenario shown (once; none after the right one). */
  choose(id) {
    const { picks, solved } = this.current();
    if (solved || picks.includes(id)) return;
    this.set({ picks: this.withChoice(this.state.picks, picks, id) }, { sync: true });
  }

  /** The reader chooses choice `number` at step `n` after the mechanism (once, while the step is open). */
  chooseReason(n, number) {
    const r = this.current().reasons[n];
    if (!r.open || r.solved || r.picks.includes(number)) return;
    this.set({ [r.step.key]: this.withChoice(this.state[r.step.key], r.picks, number) }, { sync: true });
  }

  /** A step's entries with `choice` added to the scenario shown's (`picks`). */
  withChoice(entries, picks, choice) {
    const all = entries.slice();
    while (all.length < this.state.scenario) all.push("");
    all[this.state.scenario - 1] = [...picks, choice].join(",");
    return all;
  }

  next() {
    this.set({ scenario: Math.min(this.state.scenario + 1, scenarios.length) }, { sync: true });
    this.heading.focus();
  }

  /** A new order (the next seed), from its first scenario, with no choices made. */
  restart() {
    const none = Object.fromEntries(["picks", ...REASONS.map((r) => r.key)].map((key) => [key, []]));
    this.set({ seed: this.state.seed === MAX_SEED ? 0 : this.state.seed + 1, scenario: 1, ...none }, { sync: true });
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
    const models = s.models ?? [];
    const configs = Object.fromEntries(models.map((id) => [id, MODELS[id].text]));
    const names = Object.fromEntries(models.map((id) => [id, MODELS[id].name]));
    const lines = s.compute(this.core, values, MODELS);
    return { id: s.id, calculation: s.calculation, values, lines, configs, names };
  }

  render(r) {
    fill(
      this.lines,
      r.lines.map((line) => h("li", {}, line)),
    );
    // The printed scenarios change only with their order, not with a choice or an input.
    if (this.printedSeed !== this.state.seed) {
      this.printedSeed = this.state.seed;
      this.renderPrinted();
    }
  }

  /**
   * Where the reader is and the verdict on their last choice, with the question that follows;
   * once the mechanism is right, the calculation's first result (its first bold number).
   */
  summary(r) {
    const { s, picks, solved, reasons } = this.current();
    const where = `scenario ${this.state.scenario} of ${scenarios.length}`;
    // The furthest step with a choice is the one the reader just answered.
    let latest = reasons.length - 1;
    while (latest >= 0 && !(reasons[latest].open && reasons[latest].picks.length)) latest -= 1;
    if (latest >= 0) {
      const { step, solved: right } = reasons[latest];
      if (!right) return `${step.retry} (${where}).`;
      const following = REASONS[latest + 1];
      if (following) return `${step.found} ${following.question} (${where})`;
      return `${step.found} That was ${where}: ${tallyOf(this.score())}.`;
    }
    if (!picks.length)
      return `${where[0].toUpperCase()}${where.slice(1)}: ${s.title}${/[.?!]$/.test(s.title) ? "" : "."} Which mechanism explains it?`;
    if (!solved) return `Not ${labelOf(picks.at(-1)).toLowerCase()}: try another mechanism (${where}).`;
    const first = r.lines.flat(Infinity).find((x) => x instanceof Element && x.localName === "strong");
    return `Right: ${labelOf(s.mechanism).toLowerCase()} (${where}).${first ? ` The calculation gives ${first.textContent}.` : ""} ${REASONS[0].question}`;
  }
}

export const widgets = { "llm-diagnose": LlmDiagnose };
