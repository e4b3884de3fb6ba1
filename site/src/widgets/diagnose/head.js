// The head of Figure 9.1 (.diagnose-head): where the reader is in the order and the score so far
// (.diagnose-progress: the state's scenario, the figure's score()), and the button that starts
// again in a new order (the figure's restart()).
import { fill, h } from "../../dom.js";
import { scenarios, tallyOf } from "./scenarios.js";

/**
 * The progress and Start again: a part of the figure (diagnose.js) that holds a control, so it is
 * made with the figure whose state it sets; sync(state) writes where the reader is and the score.
 */
export class Head {
  /** @param {import("./diagnose.js").LlmDiagnose} figure */
  constructor(figure) {
    this.figure = figure;
    this.progress = h("p", { class: "diagnose-progress" });
    this.restartButton = h(
      "button",
      { type: "button", class: "diagnose-restart", onclick: () => figure.restart() },
      "Start again in a new order",
    );
    this.nodes = [h("div", { class: "diagnose-head" }, this.progress, this.restartButton)];
  }

  /** The scenario shown of how many, and the score once a step is answered. */
  sync(state) {
    const score = this.figure.score();
    fill(
      this.progress,
      `Scenario ${state.scenario} of ${scenarios.length}. `,
      score.answered ? h("span", { class: "diagnose-score" }, `${tallyOf(score)}.`) : "No answers yet.",
    );
  }
}
