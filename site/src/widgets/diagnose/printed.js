// Figure 9.1 on paper (.diagnose-print, shown only in print, diagnose.css): every scenario with
// its three questions and their choices, in the order the figure asks them (the figure's
// ordered(), by the state's seed); the answers are the page's Solutions (the figure's
// solutions()). Drawn again only when the order changes, not with a choice or an input.
import { fill, h } from "../../dom.js";
import { mechanisms } from "llmmath:scenarios";
import { REASONS } from "./scenarios.js";

/**
 * The printed scenarios: a part of the figure (diagnose.js), made with the figure whose order it
 * prints: the nodes it places, and render(), which follows the order.
 */
export class Printed {
  /** @param {import("./diagnose.js").LlmDiagnose} figure */
  constructor(figure) {
    this.figure = figure;
    this.box = h("ol", { class: "diagnose-print" });
    this.seed = undefined;
    this.nodes = [this.box];
  }

  /** The printed scenarios change only with their order, not with a choice or an input. */
  render() {
    const { seed } = this.figure.state;
    if (this.seed === seed) return;
    this.seed = seed;
    const choices = (items) =>
      h(
        "ol",
        { class: "diagnose-print-choices", type: "a" },
        items.map((t) => h("li", {}, t)),
      );
    fill(
      this.box,
      this.figure.ordered().map((s) =>
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
}
