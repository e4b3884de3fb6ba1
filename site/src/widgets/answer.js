// The base of every exercise answer that follows a figure, e.g.
//   <details><summary>Show the answer</summary><llm-answer-attention for="attention-figure">
// A subclass's answer(result, figure) writes the answer from the figure's current core result,
// so at the figure's default inputs it reproduces the chapter's answer, and after the reader
// changes the figure it answers for their numbers. It redraws on the figure's "llm-change".
// `static figure` names the tag of the figure it can answer for; any other target gets a message.
// An answer is prose inside the page's exercise, so it is drawn in the light DOM with the page's
// styles (not in a shadow root like the figures); drawing replaces what is there, so a saved
// copy of the page never shows it twice.
import { fill } from "../dom.js";

export class FigureAnswer extends HTMLElement {
  static figure = "";

  constructor() {
    super();
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
    this._draw = () => this.draw();
  }

  connectedCallback() {
    const cls = this.constructor;
    const figure = document.getElementById(this.getAttribute("for") ?? "");
    if (!figure || figure.localName !== cls.figure || !figure.ready) {
      fill(this, `This answer belongs to a ${cls.figure} figure, and none with the id given in for= is on this page.`);
      this._resolveReady();
      return;
    }
    this.figure = figure;
    figure.addEventListener("llm-change", this._draw);
    figure.ready.then(this._draw);
  }

  disconnectedCallback() {
    this.figure?.removeEventListener("llm-change", this._draw);
    this.figure = null;
  }

  draw() {
    const figure = this.figure;
    if (figure?.result) {
      try {
        fill(this, this.answer(figure.result, figure));
      } catch (error) {
        fill(this, `The answer could not be written for these inputs: ${error?.message ?? error}.`);
      }
    }
    this.setAttribute("data-ready", "");
    this._resolveReady();
  }
}
