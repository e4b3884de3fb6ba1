// The lifecycle every widget shares (Distill-style custom elements): build the controls once,
// wait for the core, then render on every input. A widget with bad input shows a message that
// names the parameter and keeps its last good figure. When it has rendered with the core it
// sets data-ready on itself and resolves `ready`; it emits "llm-change" after every render.
import { loadCore } from "../core.js";
import { h } from "../dom.js";

export class LlmWidget extends HTMLElement {
  constructor() {
    super();
    this.core = null;
    this.result = null;
    this.ready = new Promise((resolve, reject) => {
      this._resolveReady = resolve;
      this._rejectReady = reject;
    });
  }

  connectedCallback() {
    if (this._built) return;
    this._built = true;
    this.classList.add("llm-widget");
    this.status = h("p", { class: "llm-status", role: "status", "aria-live": "polite" });
    this.build();
    this.append(this.status);
    loadCore().then(
      (core) => {
        this.core = core;
        this.update();
        this.setAttribute("data-ready", "");
        this._resolveReady();
      },
      (error) => {
        this.showError(`The calculation engine could not start: ${error.message}`);
        this._rejectReady(error);
      },
    );
  }

  /** Builds the controls and figure skeleton (subclasses). */
  build() {}

  /** Computes with this.core and returns the result to draw; throws on bad input (subclasses). */
  compute() {
    return null;
  }

  /** Draws a result (subclasses). */
  render() {}

  /** Recomputes and redraws; on an error keeps the last good figure and says what was wrong. */
  update() {
    if (!this.core) return;
    let result;
    try {
      result = this.compute();
    } catch (error) {
      this.showError(`Not updated: ${error.message}.`);
      return;
    }
    this.result = result;
    this.render(result);
    this.clearError();
    this.dispatchEvent(new CustomEvent("llm-change", { bubbles: true, detail: result }));
  }

  showError(message) {
    this.status.textContent = message;
    this.status.classList.add("llm-error");
  }

  clearError() {
    this.status.textContent = "";
    this.status.classList.remove("llm-error");
  }
}
