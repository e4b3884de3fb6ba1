// Exercise answers that follow a figure: <llm-answer-attention for="figure-id">. The answer is
// written from the figure's current core result, so at the default example it reproduces the
// chapter's answer, and after the reader edits the figure it answers for their numbers.
import { fill, fmt, fmtVec, h } from "../dom.js";

class FigureAnswer extends HTMLElement {
  constructor() {
    super();
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
  }

  connectedCallback() {
    if (this._connected) return;
    this._connected = true;
    const figure = document.getElementById(this.getAttribute("for") ?? "");
    if (!figure || !figure.ready) {
      this.textContent = "This answer belongs to a figure that is not on this page.";
      this._resolveReady();
      return;
    }
    const draw = () => {
      if (figure.result) fill(this, this.answer(figure.result, figure));
      this.setAttribute("data-ready", "");
      this._resolveReady();
    };
    figure.addEventListener("llm-change", draw);
    figure.ready.then(draw, () => this._resolveReady());
  }
}

export class LlmAnswerAttention extends FigureAnswer {
  /** Query 1's weights and output, and what happened to the keys it could not see. */
  answer(r, figure) {
    const { V, causal } = figure.state;
    const w = r.weights[0];
    const visible = r.visible[0];
    const seen = visible.map((v, j) => (v ? j : -1)).filter((j) => j >= 0);
    const hidden = visible.map((v, j) => (v ? -1 : j)).filter((j) => j >= 0);
    // The masked key with the largest raw score: the one a reader might expect to dominate.
    const strongest = hidden.reduce((best, j) => (best < 0 || r.scores[0][j] > r.scores[0][best] ? j : best), -1);
    const only = seen.length === 1;
    return [
      h("p", {},
        causal
          ? `Query 1 sits at position 1, so under the causal mask it sees ${only ? "only key 1" : `keys ${seen.map((j) => j + 1).join(", ")}`}. `
          : "Without the causal mask, query 1 sees every key. ",
        "Its weights are ", h("strong", { class: "answer-weights" }, fmtVec(w, 4)), only ? `, so the output is V1 = ` : ", so the output is ",
        h("strong", { class: "answer-output" }, fmtVec(r.output[0], 4)),
        only ? ` (the value of key 1, ${fmtVec(V[0])}, copied unchanged).` : "."),
      strongest >= 0
        ? h("p", {}, `Future key ${strongest + 1} has a raw score of ${fmt(r.scores[0][strongest], 4)}`,
            r.scores[0][strongest] >= Math.max(...seen.map((j) => r.scores[0][j])) ? ", the largest in the row, " : " ",
            "but it is masked before normalisation, so its weight is exactly 0 and it contributes nothing to the output.")
        : null,
    ];
  }
}
