// <llm-diagnose>: a diagnosis to make, one scenario at a time, in three steps. The figure tells
// what a user saw and the numbers they have; the reader chooses the mechanism among the
// chapter's six, is told why a wrong choice does not fit this story, and once right sees why it
// does and the live calculation (computed by the core, with inputs to change). Then the reader
// chooses the assumption that matters most, and then the check that would tell, each among the
// scenario's own choices, each wrong one explained. The scenarios (site/scenarios/, a data file
// each; their calculations in diagnose-calculations.js) come in a seeded shuffled order that the
// reader can restart; the score counts the steps answered right at the first choice.
//
// Attributes: see attributes.js: seed (the order), scenario (the position shown in it), picks,
// assumptions and checks (the choices made so far at each step, scenario by scenario) and one
// attribute per input of every scenario, named "<scenario id>-<input name>" (serving-batch,
// slow-chat-alpha, …), with the input's default. Inputs of the scenarios not shown keep their
// values.
// Properties: result ({ id, calculation (the scenario's, by name and arguments), values (its
// inputs by key), lines, configs and names: the config.json texts and the names of the real
// models the scenario reads, by id }), state ({ seed, scenario, picks, assumptions, checks,
// servingBatch, … }), order (the scenario ids in the shown order).
//
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state, the rules of the steps and the core calls;
// its parts build their elements and draw from the state and compute()'s result: where the reader
// is and Start again (head.js), the scenario's card with its steps (card.js) and, in it, the small
// calculation (calculation.js), and the scenarios on paper (printed.js). Its settings are declared
// in attributes.js; the scenarios as the figure uses them, their order and the steps' rules, in
// scenarios.js.
import { h } from "../../dom.js";
import { LlmWidget } from "../../kit/base.js";
import { mechanisms } from "llmmath:scenarios";
import { ATTRIBUTES, MAX_SEED } from "./attributes.js";
import { Card } from "./card.js";
import { Head } from "./head.js";
import { Printed } from "./printed.js";
import {
  MECHANISM_IDS,
  MODELS,
  REASONS,
  inputKey,
  labelOf,
  picksOf,
  rightOf,
  scenarios,
  shuffled,
  tallyOf,
} from "./scenarios.js";
import css from "./diagnose.css";

// The scenarios' order, exported by its module as before the figure's parts had files.
export { shuffled } from "./scenarios.js";

export class LlmDiagnose extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

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

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes, sync() sets
   * the head and the card from the state, render() has the card and the printed scenarios draw.
   */
  build() {
    this.head = new Head(this);
    this.card = new Card(this);
    this.printed = new Printed(this);
    this.frame.append(...this.head.nodes, ...this.card.nodes, ...this.printed.nodes);
  }

  /** The scenarios in the order shown, as data. */
  ordered() {
    return this.order.map((id) => scenarios.find((s) => s.id === id));
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

  /** Sets the progress and the card (rebuilt when the scenario changed), its choices and inputs, from the state. */
  sync() {
    this.head.sync(this.state);
    this.card.sync(this.state);
  }

  /**
   * The buttons of the six mechanisms of the scenario shown, by mechanism id (the card's): what a
   * reader clicks, for a script that chooses as a reader does (the screen-reader test).
   * @returns {Map<string, HTMLButtonElement>}
   */
  get buttons() {
    return this.card.buttons;
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
    this.card.heading.focus();
  }

  /** A new order (the next seed), from its first scenario, with no choices made. */
  restart() {
    const none = Object.fromEntries(["picks", ...REASONS.map((r) => r.key)].map((key) => [key, []]));
    this.set({ seed: this.state.seed === MAX_SEED ? 0 : this.state.seed + 1, scenario: 1, ...none }, { sync: true });
    this.card.heading.focus();
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

  /** Hands the result to the card (its calculation); the printed scenarios follow the order. */
  render(r) {
    this.card.render(r);
    this.printed.render();
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
