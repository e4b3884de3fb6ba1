// The base of every exercise that follows a figure: it asks for a prediction before it tells.
//   <llm-answer-speculative for="speculative-figure"></llm-answer-speculative>
// draws, after the exercise's question:
//   a form: the reader types their prediction of one quantity and presses Check;
//   a status line (role=status, aria-live=polite): right or not within the stated tolerance, and
//     on a wrong number a hint at the step that went wrong (a common wrong answer is recognised
//     by its value, e.g. the token's probability before renormalising);
//   <details> "Show the answer": the follow-up question and the worked answer, which open after a
//     right prediction or on request.
// Until then the figure's readouts that state the answer are blurred and hidden from assistive
// technology, with a note at the top of the figure that offers to show them. Which readouts those
// are is the figure's to say: its `conceals` (site/src/widgets/<name>-figure.js, read through
// the registry, figures.js).
//
// The expected value, the hints' values and the answer come from the figure's current core
// result, and are computed again on every "llm-change" of the figure: after the reader changes
// the figure, Check tests their number against the new inputs' value.
//
// A subclass provides:
//   static figure           the tag of the figure it answers for; any other target gets a message
//   static followUp         optional: the rest of the exercise's question, shown with the answer
//   prediction(result, figure) → { label, value, tolerance, digits, unit, hints, otherwise }:
//     label     what to predict (text or nodes), the form field's label
//     value     the expected number, from the core
//     tolerance how far a prediction may be from it and count as right (0: exactly)
//     digits    decimals with which the value is shown
//     unit      optional text after the field ("tokens")
//     hints     [{ value, text }]: a wrong prediction within the tolerance of `value` (and not
//               within it of the right value) gets `text`; the first match wins
//     otherwise the hint for any other wrong number: the step to redo
//   answer(result, figure) → the worked answer (nodes)
// Everything is drawn in the light DOM with the page's styles (an answer is prose inside the
// page's exercise), with DOM calls only, so nothing the reader types is parsed as markup. Drawing
// replaces what is there, and what the parser reads into it later, so a saved copy of the page
// never shows it twice.
import { fill, freeze, h, thaw, uniqueId } from "../dom.js";
import { fmt } from "../format.js";
import { figureOf } from "./figures.js";
import css from "./answer.css";

let concealSheet = null;
/** The constructed style sheet an exercise adds to its figure's shadow root (one for all). */
function sheet() {
  if (!concealSheet) {
    concealSheet = new CSSStyleSheet();
    concealSheet.replaceSync(css);
  }
  return concealSheet;
}

/**
 * A prediction as typed: "0.5", "0,5", "−0.25", "8,192", "8 192", "1e-3". Returns a finite
 * number or null. Reading the reader's own number is not mathematics the figure explains.
 */
export function parsePrediction(text) {
  let s = String(text)
    .trim()
    .replace(/[\u2212\u2012\u2013]/g, "-")
    .replace(/[\s\u00a0\u202f_']/g, "");
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, "");
  else if (/^[-+]?\d*,\d+$/.test(s)) s = s.replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return null;
  const x = Number(s);
  return Number.isFinite(x) ? x : null;
}

/** "within 0.01" or "exactly": the tolerance as the reader is told it. */
export function toleranceText(tolerance) {
  return tolerance === 0 ? "exactly" : `within ${fmt(tolerance, 8)}`;
}

export class FigureAnswer extends HTMLElement {
  static figure = "";
  static followUp = "";

  constructor() {
    super();
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
    this._draw = () => this.draw();
    this.expected = null;
    this.checked = false;
    this.concealed = false;
  }

  connectedCallback() {
    const cls = /** @type {typeof FigureAnswer} */ (this.constructor);
    // A saved copy of a page carries the data-ready its exercises had: it is set again when drawn.
    this.removeAttribute("data-ready");
    const figure = /** @type {import("./base.js").LlmWidget | null} */ (
      document.getElementById(this.getAttribute("for") ?? "")
    );
    if (!figure || figure.localName !== cls.figure || !figure.ready) {
      fill(this, `This answer belongs to a ${cls.figure} figure, and none with the id given in for= is on this page.`);
      this.keepDrawing();
      this._resolveReady();
      return;
    }
    this.figure = figure;
    this.build();
    this.keepDrawing();
    this.conceal();
    figure.addEventListener("llm-change", this._draw);
    figure.ready.then(this._draw);
  }

  disconnectedCallback() {
    this.figure?.removeEventListener("llm-change", this._draw);
    // A figure is never left blurred by an exercise that is no longer on the page.
    this.reveal();
    this.figure = null;
  }

  /** The form, its status line and the answer's <details>, built once (the answer fills in later). */
  build() {
    const { followUp } = /** @type {typeof FigureAnswer} */ (this.constructor);
    const id = uniqueId("predict");
    this.labelEl = h("label", { for: id });
    this.input = h("input", {
      id,
      type: "text",
      inputmode: "decimal",
      autocomplete: "off",
      spellcheck: "false",
      class: "predict-input",
      "aria-describedby": `${id}-tolerance`,
    });
    this.unitEl = h("span", { class: "predict-unit" });
    this.toleranceEl = h("span", { id: `${id}-tolerance`, class: "predict-tolerance" });
    this.feedback = h("p", { class: "predict-feedback", role: "status", "aria-live": "polite" });
    this.body = h("div", { class: "answer-body" });
    this.details = h(
      "details",
      { class: "answer", ontoggle: () => this.details.open && this.reveal() },
      h("summary", {}, "Show the answer"),
      followUp ? h("p", { class: "follow-up" }, h("strong", {}, "Then: "), followUp) : null,
      this.body,
    );
    this.form = h(
      "form",
      {
        class: "predict",
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          this.check();
        },
      },
      h("span", { class: "predict-field" }, this.labelEl, " ", this.input, this.unitEl),
      h("button", { type: "submit" }, "Check"),
      this.toleranceEl,
    );
    fill(this, this.form, this.feedback, this.details);
  }

  /**
   * Keeps only what is drawn in this element now once the page is read. The widgets' script is
   * async, so it may define this element while the page is still being read: the element is
   * then connected before the parser has read what is inside it, and in a saved copy of the page
   * that is the drawing it was saved with, which the parser appends after ours.
   */
  keepDrawing() {
    if (document.readyState !== "loading") return;
    const ours = [...this.childNodes];
    document.addEventListener(
      "DOMContentLoaded",
      () => {
        for (const node of [...this.childNodes]) if (!ours.includes(node)) node.remove();
      },
      { once: true },
    );
  }

  /** Selectors, in the figure's shadow root, of the readouts that state the answer: the figure's own. */
  get conceals() {
    return figureOf(/** @type {typeof FigureAnswer} */ (this.constructor).figure)?.conceals ?? [];
  }

  /** Blurs the figure's readouts that state the answer, with a note that offers to show them. */
  conceal() {
    const { conceals } = this;
    const figure = this.figure;
    if (!conceals.length || !figure.shadowRoot || !figure.frame) return;
    // Where the browser has no constructed style sheets (adoptedStyleSheets), a <style> instead.
    const root = /** @type {DocumentFragment & Partial<Pick<ShadowRoot, "adoptedStyleSheets">>} */ (figure.shadowRoot);
    if ("adoptedStyleSheets" in root) {
      if (!root.adoptedStyleSheets.includes(sheet())) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet()];
    } else if (!root.querySelector("style[data-predict]")) {
      root.append(h("style", { "data-predict": "" }, css));
    }
    const exercise = this.closest(".exercise")?.querySelector("h3")?.textContent.trim() || "The exercise below";
    this.note = h(
      "p",
      { class: "llm-predict-note" },
      h(
        "span",
        {},
        `${exercise} asks you to predict a number this figure shows: it is blurred until you check a prediction there or open its answer.`,
      ),
      h("button", { type: "button", onclick: () => this.input.focus() }, "Go to the exercise"),
      h("button", { type: "button", onclick: () => this.reveal() }, "Show the numbers"),
    );
    figure.frame.prepend(this.note);
    figure.setAttribute("data-predict-first", "");
    this.concealed = true;
    this.markConcealed();
  }

  /** Marks the readouts to conceal (again after every render: a figure may redraw them). */
  markConcealed() {
    if (!this.concealed) return;
    for (const el of this.figure.shadowRoot.querySelectorAll(this.conceals.join(", "))) {
      if (el.hasAttribute("data-predict-conceal")) continue;
      el.setAttribute("data-predict-conceal", "");
      // Blurred, it need not follow each redraw (dom.js freeze): it is drawn anew when shown.
      freeze(el);
      if (!el.hasAttribute("aria-hidden")) {
        el.setAttribute("aria-hidden", "true");
        // Out of the tab order too: hidden content must hold nothing focusable (a scrolling table).
        el.inert = true;
        el.setAttribute("data-predict-aria", "");
      }
    }
  }

  /** Shows the figure's readouts again (after a right prediction, on request, or when removed). */
  reveal() {
    if (!this.concealed || !this.figure) return;
    this.concealed = false;
    const root = this.figure.shadowRoot;
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-predict-conceal]"))) {
      el.removeAttribute("data-predict-conceal");
      if (el.hasAttribute("data-predict-aria")) {
        el.removeAttribute("aria-hidden");
        el.inert = false;
      }
      el.removeAttribute("data-predict-aria");
      // What the figure drew while it was blurred (dom.js freeze).
      thaw(el);
    }
    this.figure.removeAttribute("data-predict-first");
    this.note?.remove();
    this.note = null;
  }

  /**
   * The quantity the exercise asks for, from the figure's result (subclasses; see the top).
   * @type {(result: any, figure: import("./base.js").LlmWidget) => any}
   */
  prediction() {
    return null;
  }

  /**
   * The worked answer, from the figure's result (subclasses; see the top).
   * @type {(result: any, figure: import("./base.js").LlmWidget) => any}
   */
  answer() {
    return null;
  }

  /** Recomputes the prediction's expected value and the answer from the figure's current result. */
  draw() {
    const figure = this.figure;
    if (figure?.result) {
      try {
        this.expected = this.prediction(figure.result, figure);
        const { label, unit, tolerance } = this.expected;
        fill(this.labelEl, label);
        this.unitEl.textContent = unit ? ` ${unit}` : "";
        this.toleranceEl.textContent = `Counted right ${toleranceText(tolerance)}, for the figure's inputs as they are now.`;
        fill(this.body, this.answer(figure.result, figure));
      } catch (error) {
        this.expected = null;
        fill(this.body, `The answer could not be written for these inputs: ${error?.message ?? error}.`);
      }
      if (this.checked) {
        // The number was checked against other inputs: say so instead of keeping a stale verdict.
        this.checked = false;
        this.showFeedback(
          "stale",
          "The figure has changed since you checked: press Check to test your number against its new inputs.",
        );
      }
      this.markConcealed();
    } else if (figure?.engineError) {
      // The figure computes the answer, and it cannot run here: say so where the answer would be.
      fill(this.labelEl, "Your prediction:");
      fill(this.body, "The figure above computes this answer, and its engine did not start here.");
      this.reveal(); // nothing to blur: the figure shows no numbers
    }
    this.setAttribute("data-ready", "");
    this._resolveReady();
  }

  /** Checks the typed number against the expected value; opens the answer when it is right. */
  check() {
    const p = this.expected;
    if (!p) {
      this.showFeedback(
        "wrong",
        this.figure?.engineError
          ? "The figure cannot check a prediction here: its engine did not start."
          : "The figure has no result to check against yet: fix its inputs first.",
      );
      return;
    }
    const guess = parsePrediction(this.input.value);
    this.input.setAttribute("aria-invalid", guess === null ? "true" : "false");
    if (guess === null) {
      this.showFeedback("wrong", "Type a number, such as 0.25 (a decimal point or comma both work).");
      return;
    }
    this.checked = true;
    const near = (x, tol) => Math.abs(guess - x) <= tol;
    const g = fmt(guess, 10);
    const exact = p.tolerance === 0;
    if (near(p.value, p.tolerance)) {
      this.showFeedback(
        "right",
        `Right: the figure's inputs give ${fmt(p.value, p.digits)}, ${exact ? "exactly your number" : `and ${g} is ${toleranceText(p.tolerance)} of it`}. The worked answer is open below.`,
      );
      this.details.open = true;
      this.reveal();
      return;
    }
    const hint = p.hints.find(
      (x) => Number.isFinite(x.value) && near(x.value, p.tolerance) && !(Math.abs(x.value - p.value) <= p.tolerance),
    );
    this.showFeedback(
      "wrong",
      `Not yet: ${g} is not ${exact ? "" : `${toleranceText(p.tolerance)} of `}the answer. ${hint ? hint.text : p.otherwise} Try again, or open the answer.`,
    );
  }

  /** Writes the verdict into the status line: kind is "right", "wrong" or "stale" (styled by reader.css). */
  showFeedback(kind, text) {
    this.feedback.className = `predict-feedback predict-${kind}`;
    this.feedback.textContent = text;
  }
}
