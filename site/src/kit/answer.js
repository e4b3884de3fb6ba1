// The base of every exercise that follows a figure: it asks for a prediction before it tells.
//   <llm-answer-speculative for="speculative-figure"></llm-answer-speculative>
// draws, after the exercise's question:
//   a form: the reader types their prediction of one quantity and presses Check;
//   a status line (role=status, aria-live=polite): right or not within the stated tolerance, and
//     on a wrong number a hint at the step that went wrong (a common wrong answer is recognised
//     by its value, e.g. the token's probability before renormalising);
//   then, once that prediction is right, the follow-up ("Then: …"), which asks for a second
//     number of its own, with its own field and status line;
//   <details> "Show the answer": the worked answer, which opens after the last right prediction
//     or on request (asking counts as committing: it also shows the follow-up).
// Until then the figure's readouts that state the answer are withheld (every digit in them shown
// as "•", dom.js withhold), blurred and hidden from assistive technology, with a note at the top
// of the figure that offers to show them. Which readouts those
// are is the figure's to say: its `conceals` (site/src/widgets/<name>/<name>-figure.js, read through
// the registry, figures.js).
//
// The question and its figure are one tap apart each way: the figure's note has "Go to the
// exercise", the exercise "Back to Figure N". On a screen large enough (DOCK_MEDIA), while the
// figure fills the screen, the field with its status line is docked at the bottom of the screen,
// under the figure (dock()), so the reader predicts with the figure in view; it goes back to its
// place in the exercise as the figure's last row comes onto the screen, so that neither that row
// (Reset, Copy, Download) nor the exercise after it is ever under the dock.
//
// The expected value, the hints' values and the answer come from the figure's current core
// result, and are computed again on every "llm-change" of the figure: after the reader changes
// the figure, Check tests their number against the new inputs' value.
//
// A subclass provides:
//   static figure           the tag of the figure it answers for; any other target gets a message
//   static followUp         optional: the rest of the exercise's question, asked after the first
//   followUpPrediction(result, figure) → the follow-up's number, in the shape prediction() returns
//                           (null: the follow-up asks for no number and is shown with the answer)
//   prediction(result, figure) → { label, value, tolerance, digits, unit, hints, otherwise }:
//     label     what to predict (text or nodes), the form field's label
//     value     the expected number, from the core
//     tolerance how far a prediction may be from it and count as right (0: exactly)
//     digits    decimals with which the value is shown
//     unit      optional text after the field ("tokens")
//     probability optional: true when the value is a probability, so that "50%" reads as 0.5
//     hints     [{ value, text }]: a wrong prediction within the tolerance of `value` (and not
//               within it of the right value) gets `text`; the first match wins
//     otherwise the hint for any other wrong number: the step to redo
//   answer(result, figure) → the worked answer (nodes)
// Everything is drawn in the light DOM with the page's styles (an answer is prose inside the
// page's exercise), with DOM calls only, so nothing the reader types is parsed as markup. Drawing
// replaces what is there, and what the parser reads into it later, so a saved copy of the page
// never shows it twice.
//
// The exercise is made with the kit's modules, each a group of plain functions given it: steps.js
// (a prediction's form, the reading of the number typed and the verdict on it), dock.js (the
// dock) and conceal.js (what it holds back of its figure, and the figure's note). Its methods
// keep their names.
import { fill, h, patch } from "../dom.js";
import { figureOf } from "../widgets/figures.js";
import { conceal, markConcealed, reveal, writeNote } from "./conceal.js";
import { dock, undock, unwatchDock, watchDock } from "./dock.js";
import { judge, makeStep, readStep, writeExpected } from "./steps.js";

/** @typedef {import("./steps.js").Step} Step */

export class FigureAnswer extends HTMLElement {
  static figure = "";
  static followUp = "";

  constructor() {
    super();
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
    this._draw = () => this.draw();
    this.concealed = false;
    /** @type {Step | null} */
    this.docked = null;
    /** @type {HTMLElement | null} */
    this.dockPlace = null;
    this.dockGeometry = ""; // what dock() last wrote: left and width
    /**
     * What the page's progress (site/src/progress.js) reports of this exercise: committed once a
     * number was checked or the answer opened; right once every number it asks was checked right
     * before the answer was shown on request; tries, the numbers checked.
     */
    this.progress = { committed: false, right: false, tries: 0 };
    this.askedAnswer = false;
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
    watchDock(this);
  }

  disconnectedCallback() {
    this.figure?.removeEventListener("llm-change", this._draw);
    this.undock();
    unwatchDock(this);
    // A figure is never left blurred by an exercise that is no longer on the page.
    this.reveal();
    this.note?.remove();
    this.note = null;
    this.figure = null;
  }

  /** The forms, their status lines and the answer's <details>, built once (the answer fills in later). */
  build() {
    const { followUp } = /** @type {typeof FigureAnswer} */ (this.constructor);
    this.first = this.step();
    this.body = h("div", { class: "answer-body" });
    this.details = h(
      "details",
      {
        class: "answer",
        ontoggle: () => {
          if (!this.details.open) return;
          // Opened on request before every number was right: the answer was told, not found.
          if (!this.progress.right) this.askedAnswer = true;
          this.commit({});
          this.undock();
          this.reveal();
          if (this.then) this.then.hidden = false;
        },
      },
      h("summary", {}, "Show the answer"),
      this.body,
    );
    this.then = null;
    this.second = null;
    if (followUp) {
      this.second = this.step();
      this.then = h(
        "div",
        { class: "follow-up-step", hidden: true },
        h("p", { class: "follow-up" }, h("strong", {}, "Then: "), followUp),
        this.second.box,
      );
    }
    const name = this.figure?.captionName() ?? "";
    this.back = h(
      "p",
      { class: "predict-back" },
      h("button", { type: "button", onclick: () => this.toFigure() }, name ? `Back to ${name}` : "Back to the figure"),
    );
    fill(this, this.first.box, this.then, this.back, this.details);
  }

  /** "Go to the exercise": the field the reader is at, in view with its question, and focused. */
  toExercise() {
    const { input, box } = this.current();
    if (!this.docked) (this.closest(".exercise") ?? box).scrollIntoView({ block: "start" });
    input.focus({ preventScroll: true });
  }

  /** "Back to Figure N": the figure from its top, with the focus on its note (one tap back). */
  toFigure() {
    if (!this.figure) return;
    this.figure.scrollIntoView({ block: "start" });
    /** @type {HTMLElement | null | undefined} */ (this.note?.querySelector("button"))?.focus({ preventScroll: true });
  }

  /**
   * Docks the current step's field and status line at the bottom of the screen while the figure
   * fills it, on a screen large enough (see the top), and puts it back otherwise (dock.js). Called
   * on scroll and resize (one frame at most), and after a check.
   */
  dock() {
    dock(this);
  }

  /** Puts a docked field back in its place in the exercise. */
  undock() {
    undock(this);
  }

  /**
   * One prediction asked: its form (label, field, unit, Check, tolerance) and its status line
   * (steps.js).
   * @returns {Step}
   */
  step() {
    return makeStep(this);
  }

  /** The first prediction's field (the figure's note and the tests reach it by this name). */
  get input() {
    return this.first.input;
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

  /**
   * What a printed copy's Solutions part says of this exercise (site/src/print.js): its name, the
   * follow-up's question, and the worked answer for the figure as it is, whether or not the
   * reader has opened it.
   */
  solutions() {
    if (!this.body) return [];
    const { followUp } = /** @type {typeof FigureAnswer} */ (this.constructor);
    const name = this.exerciseName() || "Exercise";
    const figure = this.figure?.captionName() ?? "";
    return [
      h(
        "div",
        { class: "print-solution" },
        h("h3", {}, figure ? `${name} (${figure})` : name),
        followUp ? h("p", { class: "follow-up" }, h("strong", {}, "Then: "), followUp) : null,
        /** @type {HTMLElement} */ (this.body.cloneNode(true)),
      ),
    ];
  }

  /** The exercise's name, its heading ("Exercise 5"), or "" where it has none. */
  exerciseName() {
    return this.closest(".exercise")?.querySelector("h3")?.textContent.trim() ?? "";
  }

  /**
   * The note at the top of the figure: which exercise asks about it and "Go to the exercise"; while
   * the figure's readouts are held back, also why, and "Show the numbers" (conceal.js).
   */
  writeNote() {
    writeNote(this);
  }

  /** Blurs the figure's readouts that state the answer, with a note that offers to show them. */
  conceal() {
    conceal(this);
  }

  /** Marks the readouts to conceal (again after every render: a figure may redraw them). */
  markConcealed() {
    markConcealed(this);
  }

  /** Shows the figure's readouts again (after a right prediction, on request, or when removed). */
  reveal() {
    reveal(this);
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

  /**
   * The follow-up's number, from the figure's result (subclasses; see the top), or null.
   * @type {(result: any, figure: import("./base.js").LlmWidget) => any}
   */
  followUpPrediction() {
    return null;
  }

  /** The step the reader is at: the follow-up once it is asked and not yet answered, else the first. */
  current() {
    return this.then && !this.then.hidden && !this.details.open ? this.second : this.first;
  }

  /** Recomputes the predictions' expected values and the answer from the figure's current result. */
  draw() {
    const figure = this.figure;
    if (figure?.result) {
      const steps = /** @type {[Step | null, () => any][]} */ ([
        [this.first, () => this.prediction(figure.result, figure)],
        [this.second, () => this.followUpPrediction(figure.result, figure)],
      ]);
      try {
        for (const [step, predict] of steps) {
          if (!step) continue;
          step.expected = predict();
          if (step.expected) writeExpected(step);
        }
        // A follow-up that asks for no number is a question the worked answer answers.
        if (this.second) this.second.form.hidden = !this.second.expected;
        patch(this.body, this.answer(figure.result, figure));
      } catch (error) {
        for (const step of [this.first, this.second]) if (step) step.expected = null;
        patch(this.body, `The answer could not be written for these inputs: ${error?.message ?? error}.`);
      }
      for (const step of [this.first, this.second]) {
        if (!step?.checked) continue;
        // The number was checked against other inputs: say so instead of keeping a stale verdict.
        step.checked = false;
        this.showFeedback(
          step,
          "stale",
          "The figure has changed since you checked: press Check to test your number against its new inputs.",
        );
      }
      this.markConcealed();
    } else if (figure?.engineError) {
      // The figure computes the answer, and it cannot run here: say so where the answer would be.
      fill(this.first.labelEl, "Your prediction:");
      fill(this.body, "The figure above computes this answer, and its engine did not start here.");
      this.reveal(); // nothing to blur: the figure shows no numbers
    }
    this.setAttribute("data-ready", "");
    this._resolveReady();
  }

  /**
   * Checks the number typed into `step` against its expected value. A right first prediction
   * asks the follow-up (when there is one); the last right prediction opens the answer.
   */
  check(step = this.first) {
    const { guess, problem } = readStep(step, this.figure?.engineError);
    if (problem) {
      this.showFeedback(step, "wrong", problem);
      return;
    }
    step.checked = true;
    this.commit({ tries: this.progress.tries + 1 });
    const asks = step === this.first && this.second?.expected && !this.details.open;
    const { right, text } = judge(step.expected, guess, asks);
    this.showFeedback(step, right ? "right" : "wrong", text);
    if (!right) return;
    if (asks) {
      this.then.hidden = false;
      // The follow-up's field takes the dock, and the focus, where the first one had them.
      this.dock();
      this.second.input.focus({ preventScroll: true });
      return;
    }
    if (this.then) this.then.hidden = false;
    if (!this.askedAnswer) this.commit({ right: true });
    this.details.open = true;
    this.undock();
    this.reveal();
  }

  /**
   * Records a change of the exercise's progress and tells the page ("llm-answer-progress", which
   * bubbles to the document, where progress.js listens).
   * @param {{ right?: boolean, tries?: number }} change
   */
  commit(change) {
    const next = { ...this.progress, ...change, committed: true };
    if (JSON.stringify(next) === JSON.stringify(this.progress)) return;
    this.progress = next;
    this.dispatchEvent(new CustomEvent("llm-answer-progress", { bubbles: true, detail: { ...next } }));
  }

  /**
   * Puts back the progress of an earlier visit (progress.js, from what a host saved): a committed
   * exercise shows its worked answer open and says how it went; the numbers typed then are not kept.
   * @param {{ committed: boolean, right: boolean, tries: number }} saved
   */
  restoreProgress(saved) {
    if (!saved.committed || !this.first) return;
    this.progress = { committed: true, right: saved.right, tries: saved.tries };
    this.askedAnswer = !saved.right;
    const tries = `${saved.tries} ${saved.tries === 1 ? "number" : "numbers"} checked`;
    this.showFeedback(
      this.first,
      saved.right ? "right" : "stale",
      saved.right
        ? `On an earlier visit you predicted this right (${tries}). The worked answer is open below.`
        : `On an earlier visit you opened the answer (${tries}). Check a number again for the figure as it is now.`,
    );
    if (this.then) this.then.hidden = false;
    this.details.open = true;
    this.undock();
    this.reveal();
    this.dispatchEvent(new CustomEvent("llm-answer-progress", { bubbles: true, detail: { ...this.progress } }));
  }

  /** Writes a verdict into a step's status line: kind is "right", "wrong" or "stale" (styled by reader.css). */
  showFeedback(step, kind, text) {
    step.feedback.className = `predict-feedback predict-${kind}`;
    step.feedback.textContent = text;
  }
}
