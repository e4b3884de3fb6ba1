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
import { fill, freeze, h, patch, thaw, uniqueId, withhold } from "../dom.js";
import { fmt } from "../format.js";
import { figureOf } from "../widgets/figures.js";
import css from "./answer.css";
import pageCss from "./answer-page.css";

// Where the prediction may dock at the bottom of the screen: a laptop's, not a phone's, whose
// height the figure's own bar of controls already shares.
const DOCK_MEDIA = "(min-width: 48rem) and (min-height: 34rem)";

/**
 * One prediction asked (step()): its form's parts, its status line, the box that holds both (what
 * docks), the value it expects now and whether the number in it was checked against the
 * figure's inputs as they are.
 * @typedef {{ labelEl: HTMLElement, input: HTMLInputElement, unitEl: HTMLElement, toleranceEl: HTMLElement,
 *   feedback: HTMLElement, form: HTMLFormElement, box: HTMLElement, expected: any, checked: boolean }} Step
 */

// --- the dock ---------------------------------------------------------------------------------
// One scroll and resize listener for every exercise on the page, each frame at most.
/** @type {Set<FigureAnswer>} */
const docking = new Set();
let dockFrame = 0;
function dockSoon() {
  if (dockFrame) return;
  dockFrame = requestAnimationFrame(() => {
    dockFrame = 0;
    for (const answer of docking) answer.dock();
  });
}
function watchDock(answer) {
  if (!docking.size) {
    addEventListener("scroll", dockSoon, { passive: true });
    addEventListener("resize", dockSoon, { passive: true });
    // The dock's look and its place (fixed at the bottom of the screen), for the reader and for
    // any course page: a constructed sheet, allowed under a strict style-src.
    if (!pageSheet && "adoptedStyleSheets" in document) {
      pageSheet = new CSSStyleSheet();
      pageSheet.replaceSync(pageCss);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
    }
  }
  docking.add(answer);
  dockSoon();
}
let pageSheet = null;
/**
 * The page's scroll padding at the bottom: the docked field's height while one is docked, so that
 * a control that takes the focus under it is scrolled clear of it. Set from every exercise at
 * once, after any of them docks or undocks: an exercise that undocks as another docks (the reader
 * jumped from one figure to the next) must not take away the other's padding. One pixel more than
 * the dock's height, rounded up: a scroll lands on whole pixels.
 */
let dockPadding = "";
/** @type {ResizeObserver | null} */
let dockSize = null;
function padForDock() {
  let height = 0;
  for (const answer of docking)
    if (answer.docked) height = Math.max(height, answer.docked.box.getBoundingClientRect().height);
  const padding = height ? `${Math.ceil(height) + 1}px` : "";
  if (padding === dockPadding) return;
  dockPadding = padding;
  if (padding) document.documentElement.style.scrollPaddingBottom = padding;
  else document.documentElement.style.removeProperty("scroll-padding-bottom");
}
function unwatchDock(answer) {
  docking.delete(answer);
  if (docking.size) return;
  removeEventListener("scroll", dockSoon);
  removeEventListener("resize", dockSoon);
}

/** What the watcher of a figure's withheld readout records: anything written into it. */
const WITHHELD_WRITES = { subtree: true, childList: true, characterData: true, attributes: true };

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
 * A prediction as typed: "0.5", "0,5", "−0.25", "8,192", "8 192", "1e-3", a fraction "1/2", a
 * number followed by words ("1.875 tokens": the words are the reader's unit, and dropped), and,
 * with `probability` (the answer is one), a percentage "50%". Returns a finite number or null.
 * Reading the reader's own number is not mathematics the figure explains.
 * @param {string} text
 * @param {{ probability?: boolean }} [options]
 */
export function parsePrediction(text, { probability = false } = {}) {
  let s = String(text)
    .trim()
    .replace(/[\u2212\u2012\u2013]/g, "-")
    .replace(/[\u00a0\u202f]/g, " ");
  // Words after the last digit or % ("tokens", "per call") name a unit: the number is before them.
  s = s.replace(/(?<=[\d.%])\s*\p{L}[\p{L}\s.-]*$/u, "");
  let scale = 1;
  if (/%$/.test(s)) {
    if (!probability) return null;
    s = s.slice(0, -1);
    scale = 100;
  }
  const parts = s.split("/");
  if (parts.length > 2) return null;
  const [numerator, denominator = 1] = parts.map(plainNumber);
  if (numerator === null || denominator === null || denominator === 0) return null;
  const x = numerator / denominator / scale;
  return Number.isFinite(x) ? x : null;
}

/** One number as typed, without a unit: "0,5", "8 192", "-1e3" → its value, or null. */
function plainNumber(text) {
  let s = text.replace(/[\s_']/g, "");
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
   * fills it, on a screen large enough (see the top), and puts it back otherwise. Called on
   * scroll and resize (one frame at most), and after a check.
   */
  dock() {
    const step = this.figure && !this.details?.open ? this.current() : null;
    if (this.docked && this.docked !== step) this.undock();
    if (!step || !matchMedia(DOCK_MEDIA).matches) return this.undock();
    const screen = innerHeight;
    const fig = this.figure.getBoundingClientRect();
    const place = (this.docked ? this.dockPlace : step.box).getBoundingClientRect();
    // The figure fills the screen: its top is in the upper part of it, and its last row of
    // controls (the kit's actions, else the figure's foot) is still below the screen's bottom edge.
    // Once that row comes up, the field goes back: what then comes up at the foot of the screen,
    // where the dock lay (the row, the caption, the exercise's question, then the field in its
    // place), is what the reader reads next. The dock covers only what passes under it on the way
    // through the figure, as the screen's own edge does (a control that takes the focus there is
    // scrolled clear of it: padForDock).
    const { actions } = this.figure;
    const row = actions?.isConnected && actions.offsetHeight > 0 ? actions.getBoundingClientRect().top : fig.bottom;
    const wanted = fig.top < screen * 0.6 && row >= screen && place.top > fig.top;
    if (!wanted) return this.undock();
    if (!this.docked) {
      // The field's room stays in the exercise, so nothing below it moves.
      this.dockPlace = h("div", { class: "predict-dock-place", "aria-hidden": "true" });
      this.dockPlace.style.height = `${step.box.offsetHeight}px`;
      step.box.before(this.dockPlace);
      step.box.classList.add("predict-docked");
      this.docked = step;
    }
    // Under the figure, as wide as it is. Written only when it changes: this runs in every frame
    // of a scroll.
    const geometry = `${Math.round(fig.left)} ${Math.round(fig.width)}`;
    if (geometry !== this.dockGeometry) {
      this.dockGeometry = geometry;
      step.box.style.setProperty("--dock-left", `${Math.round(fig.left)}px`);
      step.box.style.setProperty("--dock-width", `${Math.round(fig.width)}px`);
    }
    // A control that takes the focus is scrolled clear of it, at its height in that width
    // (its label may wrap), and again whenever that height changes (a hint after a check).
    dockSize ??= new ResizeObserver(padForDock);
    dockSize.observe(step.box);
    padForDock();
  }

  /** Puts a docked field back in its place in the exercise. */
  undock() {
    if (!this.docked) return;
    dockSize?.unobserve(this.docked.box);
    this.docked.box.classList.remove("predict-docked");
    this.docked.box.style.removeProperty("--dock-left");
    this.docked.box.style.removeProperty("--dock-width");
    this.dockPlace?.remove();
    this.dockPlace = null;
    this.docked = null;
    this.dockGeometry = "";
    padForDock();
  }

  /**
   * One prediction asked: its form (label, field, unit, Check, tolerance) and its status line.
   * @returns {Step}
   */
  step() {
    const id = uniqueId("predict");
    const step = {
      // named at once, before the figure draws and the label says what to predict
      labelEl: h("label", { for: id }, "Your prediction:"),
      input: h("input", {
        id,
        type: "text",
        inputmode: "decimal",
        autocomplete: "off",
        spellcheck: "false",
        class: "predict-input",
        "aria-describedby": `${id}-tolerance`,
      }),
      unitEl: h("span", { class: "predict-unit" }),
      toleranceEl: h("span", { id: `${id}-tolerance`, class: "predict-tolerance" }),
      feedback: h("p", { class: "predict-feedback", role: "status", "aria-live": "polite" }),
      form: /** @type {HTMLFormElement} */ (/** @type {unknown} */ (null)),
      box: /** @type {HTMLElement} */ (/** @type {unknown} */ (null)),
      expected: null,
      checked: false,
    };
    step.form = h(
      "form",
      {
        class: "predict",
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          this.check(step);
        },
      },
      // Which exercise a docked field belongs to (shown only when docked: in place, its heading is above it).
      h("span", { class: "predict-dock-title", "aria-hidden": "true" }, this.exerciseName()),
      h("span", { class: "predict-field" }, step.labelEl, " ", step.input, step.unitEl),
      h("button", { type: "submit" }, "Check"),
      step.toleranceEl,
    );
    step.box = h("div", { class: "predict-step" }, step.form, step.feedback);
    return step;
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
   * The note at the top of the figure: which exercise asks about it and "Go to the exercise"; while
   * the figure's readouts are held back, also why, and "Show the numbers".
   */
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

  writeNote() {
    const exercise = this.exerciseName() || "The exercise below";
    const go = h("button", { type: "button", onclick: () => this.toExercise() }, "Go to the exercise");
    fill(
      /** @type {HTMLElement} */ (this.note),
      this.concealed
        ? [
            h(
              "span",
              {},
              `${exercise} asks you to predict a number this figure shows: it is held back until you check a prediction there or open its answer.`,
            ),
            go,
            h("button", { type: "button", onclick: () => this.reveal() }, "Show the numbers"),
            // On paper, instead (answer.css): where the held-back numbers are.
            h(
              "span",
              { class: "llm-predict-print" },
              `The numbers ${exercise} asks for are held back here (•); its answer is in the Solutions at the end.`,
            ),
          ]
        : [h("span", {}, `${exercise} asks you to predict a number from this figure.`), go],
    );
  }

  /** Blurs the figure's readouts that state the answer, with a note that offers to show them. */
  conceal() {
    const { conceals } = this;
    const figure = this.figure;
    if (!figure.shadowRoot || !figure.frame) return;
    this.concealed = conceals.length > 0;
    // Where the browser has no constructed style sheets (adoptedStyleSheets), a <style> instead.
    const root = /** @type {DocumentFragment & Partial<Pick<ShadowRoot, "adoptedStyleSheets">>} */ (figure.shadowRoot);
    if ("adoptedStyleSheets" in root) {
      if (!root.adoptedStyleSheets.includes(sheet())) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet()];
    } else if (!root.querySelector("style[data-predict]")) {
      root.append(h("style", { "data-predict": "" }, css));
    }
    // Concealed again (after printing): the note is written anew, not added twice.
    this.note ??= h("p", { class: "llm-predict-note" });
    this.writeNote();
    if (!this.note.isConnected) figure.frame.prepend(this.note);
    if (!conceals.length) return;
    figure.setAttribute("data-predict-first", "");
    // A readout may be written after a render (a chart that measures itself, a table filled in
    // place): whatever is drawn into a withheld readout, or as a new one, is withheld at once.
    // The figure is watched for new elements and classes (a new readout), and each withheld
    // readout for anything written into it (markConcealed): the figure's other writes at an
    // input, most of them, make no record.
    this.watcher?.disconnect();
    this.watcher = new MutationObserver((records) => {
      for (const r of records) {
        const el = /** @type {Element | null} */ (
          r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement
        )?.closest("[data-predict-conceal]");
        if (el) withhold(el);
      }
      this.markConcealed();
    });
    this.watcher.observe(figure.shadowRoot, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["class", "id"],
    });
    // Readouts marked before (by an earlier watch) are watched too; markConcealed() marks the rest.
    for (const el of figure.shadowRoot.querySelectorAll("[data-predict-conceal]"))
      this.watcher.observe(el, WITHHELD_WRITES);
    this.markConcealed();
  }

  /** Marks the readouts to conceal (again after every render: a figure may redraw them). */
  markConcealed() {
    // Not before the figure's first drawing: a readout frozen empty would stay empty.
    if (!this.concealed || !this.figure.result) return;
    for (const el of this.figure.shadowRoot.querySelectorAll(this.conceals.join(", "))) {
      if (el.hasAttribute("data-predict-conceal")) continue;
      el.setAttribute("data-predict-conceal", "");
      // Withheld, it need not follow each redraw (dom.js freeze): it is drawn anew when shown.
      freeze(el, { withhold: true });
      // What is written into it other than by a redraw is withheld again (conceal()'s watcher).
      this.watcher?.observe(el, WITHHELD_WRITES);
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
    this.watcher?.disconnect();
    this.watcher = null;
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
    if (this.note) this.writeNote();
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
          if (!step.expected) continue;
          const { label, unit, tolerance } = step.expected;
          // Written into what is there (dom.js patch()): at most inputs only the numbers change.
          patch(step.labelEl, label);
          patch(step.unitEl, unit ? ` ${unit}` : "");
          patch(
            step.toleranceEl,
            `Counted right ${toleranceText(tolerance)}, for the figure's inputs as they are now.`,
          );
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
    const p = step.expected;
    if (!p) {
      this.showFeedback(
        step,
        "wrong",
        this.figure?.engineError
          ? "The figure cannot check a prediction here: its engine did not start."
          : "The figure has no result to check against yet: fix its inputs first.",
      );
      return;
    }
    const guess = parsePrediction(step.input.value, { probability: p.probability === true });
    step.input.setAttribute("aria-invalid", guess === null ? "true" : "false");
    if (guess === null) {
      const percent = p.probability !== true && /%\s*$/.test(step.input.value);
      this.showFeedback(
        step,
        "wrong",
        percent
          ? "Type the number itself, without %: this answer is not a probability."
          : "Type a number, such as 0.25 (a decimal point or comma both work, and so does a fraction such as 1/4).",
      );
      return;
    }
    step.checked = true;
    this.commit({ tries: this.progress.tries + 1 });
    const near = (x, tol) => Math.abs(guess - x) <= tol;
    const g = fmt(guess, 10);
    const exact = p.tolerance === 0;
    if (near(p.value, p.tolerance)) {
      const asks = step === this.first && this.second?.expected && !this.details.open;
      this.showFeedback(
        step,
        "right",
        `Right: the figure's inputs give ${fmt(p.value, p.digits)}, ${exact ? "exactly your number" : `and ${g} is ${toleranceText(p.tolerance)} of it`}. ${asks ? "Now the follow-up, below." : "The worked answer is open below."}`,
      );
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
      return;
    }
    const hint = p.hints.find(
      (x) => Number.isFinite(x.value) && near(x.value, p.tolerance) && !(Math.abs(x.value - p.value) <= p.tolerance),
    );
    this.showFeedback(
      step,
      "wrong",
      `Not yet: ${g} is not ${exact ? "" : `${toleranceText(p.tolerance)} of `}the answer. ${hint ? hint.text : p.otherwise} Try again, or open the answer.`,
    );
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
