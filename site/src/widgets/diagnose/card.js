// Figure 9.1's card (.diagnose-card): the scenario shown, its title and story, and its three
// steps: the six mechanisms with a verdict on each choice made; once the right one is chosen, why
// not the others and the small calculation (calculation.js); then the scenario's assumptions and
// its checks, each with its verdicts; once the right check is chosen, the link to the section and
// the next scenario, or after the last the score and Start again. Built again when the scenario
// shown changes; its choices follow the state (the figure's current() and score()), its
// calculation the result (r.lines).
import { fill, h } from "../../dom.js";
import { mechanisms, sectionTitles } from "llmmath:scenarios";
import { Calculation } from "./calculation.js";
import { MECHANISM_IDS, REASONS, labelOf, rightOf, scenarios, tallyOf } from "./scenarios.js";

/**
 * The scenario and its steps: a part of the figure (diagnose.js) that holds controls, so it is
 * made with the figure whose state it sets; sync(state) builds the card for the scenario shown and
 * marks the choices made, render(r) writes its calculation.
 */
export class Card {
  /** @param {import("./diagnose.js").LlmDiagnose} figure */
  constructor(figure) {
    this.figure = figure;
    this.box = h("div", { class: "diagnose-card" });
    this.shown = null;
    this.nodes = [this.box];
  }

  /** Sets the card (rebuilt when the scenario changed), its choices and its inputs from the state. */
  sync(state) {
    const { s, picks, solved, reasons, done } = this.figure.current();
    if (this.shown !== s) this.build(s);

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
    const last = state.scenario === scenarios.length;
    this.nextButton.hidden = !done || last;
    this.final.hidden = !done || !last;
    fill(
      this.finalText,
      `That was the last of the ${scenarios.length} scenarios: `,
      h("strong", {}, tallyOf(this.figure.score())),
      ".",
    );
    this.calculation.sync(state);
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
  build(s) {
    const figure = this.figure;
    this.shown = s;
    this.shownPicks = {};
    this.buttons = new Map(
      mechanisms.map((m) => [
        m.id,
        h("button", { type: "button", class: "diagnose-choice", onclick: () => figure.choose(m.id) }, m.label),
      ]),
    );
    this.reasonParts = REASONS.map((step, n) => {
      const buttons = new Map(
        s[step.key].map((choice, k) => [
          String(k + 1),
          h(
            "button",
            { type: "button", class: "diagnose-option", onclick: () => figure.chooseReason(n, String(k + 1)) },
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
    this.calculation = new Calculation(figure, s);
    this.heading = h("h3", { class: "diagnose-title", tabindex: "-1" }, s.title);
    this.feedback = h("div", { class: "diagnose-feedback" });
    this.othersList = h("ul", {});
    this.others = h("details", { class: "diagnose-others" }, h("summary", {}, "Why not the others?"), this.othersList);
    this.nextButton = h(
      "button",
      { type: "button", class: "diagnose-next", onclick: () => figure.next() },
      "Next scenario",
    );
    this.finalText = h("span", {});
    this.final = h(
      "p",
      { class: "diagnose-final" },
      this.finalText,
      " ",
      h("button", { type: "button", onclick: () => figure.restart() }, "Start again in a new order"),
    );
    this.analysis = h("div", { class: "diagnose-analysis" }, this.others, ...this.calculation.nodes);
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
      this.box,
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

  /** The calculation of the scenario shown. */
  render(r) {
    this.calculation.render(r);
  }
}
