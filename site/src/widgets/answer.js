// The base of every exercise answer that follows a figure, e.g.
//   <details><summary>Show the answer</summary><llm-answer-attention for="attention-figure">
// A subclass's answer(result, figure) writes the answer from the figure's current core result,
// so at the figure's default inputs it reproduces the chapter's answer, and after the reader
// changes the figure it answers for their numbers. It redraws on the figure's "llm-change".
import { fill } from "../dom.js";

export class FigureAnswer extends HTMLElement {
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
