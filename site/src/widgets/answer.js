// The base of every exercise answer that follows a figure, e.g.
//   <details><summary>Show the answer</summary><llm-answer-attention for="attention-figure">
// A subclass's answer(result, figure) writes the answer from the figure's current core result,
// so at the figure's default inputs it reproduces the chapter's answer, and after the reader
// changes the figure it answers for their numbers. It redraws on the figure's "llm-change".
// `static figure` names the tag of the figure it can answer for; any other target gets a message.
import { styledRoot } from "./base.js";
import { fill, h } from "../dom.js";

export class FigureAnswer extends HTMLElement {
  static figure = "";
  static styles = "";

  constructor() {
    super();
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
    this._draw = () => this.draw();
  }

  connectedCallback() {
    const cls = this.constructor;
    this.root = styledRoot(this, cls.styles);
    this.body = h("div", { class: "llm-answer" });
    this.root.append(this.body);
    const figure = document.getElementById(this.getAttribute("for") ?? "");
    if (!figure || figure.localName !== cls.figure || !figure.ready) {
      fill(this.body, `This answer belongs to a ${cls.figure} figure, and none with the id given in for= is on this page.`);
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
        fill(this.body, this.answer(figure.result, figure));
      } catch (error) {
        fill(this.body, `The answer could not be written for these inputs: ${error?.message ?? error}.`);
      }
    }
    this.setAttribute("data-ready", "");
    this._resolveReady();
  }
}
