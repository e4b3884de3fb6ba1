// What an exercise holds back of its figure until the reader has predicted (FigureAnswer,
// answer.js): the figure's readouts that state the answer, which its declaration names
// (`conceals`), are withheld (every digit shown as "•", dom.js withhold), blurred and hidden from
// assistive technology (conceal, markConcealed), with a note at the top of the figure that says
// which exercise asks about it and offers to show them (writeNote); reveal() shows them again.
// What is drawn into a withheld readout meanwhile is withheld too: a MutationObserver watches the
// figure (the exercise's `watcher`). The blur is answer.css's, which the exercise adds to the
// figure's shadow root.
import { fill, freeze, h, thaw, withhold } from "../dom.js";
import css from "./answer.css";

/**
 * An exercise as this module uses it, with the watcher of its figure's withheld readouts.
 * @typedef {import("./answer.js").FigureAnswer & { watcher?: MutationObserver | null }} Concealer
 */

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
 * The note at the top of `answer`'s figure: which exercise asks about it and "Go to the exercise";
 * while the figure's readouts are held back, also why, and "Show the numbers".
 * @param {Concealer} answer
 */
export function writeNote(answer) {
  const exercise = answer.exerciseName() || "The exercise below";
  const go = h("button", { type: "button", onclick: () => answer.toExercise() }, "Go to the exercise");
  fill(
    /** @type {HTMLElement} */ (answer.note),
    answer.concealed
      ? [
          h(
            "span",
            {},
            `${exercise} asks you to predict a number this figure shows: it is held back until you check a prediction there or open its answer.`,
          ),
          go,
          h("button", { type: "button", onclick: () => answer.reveal() }, "Show the numbers"),
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

/**
 * Blurs the figure's readouts that state the answer, with a note that offers to show them.
 * @param {Concealer} answer
 */
export function conceal(answer) {
  const { conceals } = answer;
  const figure = answer.figure;
  if (!figure.shadowRoot || !figure.frame) return;
  answer.concealed = conceals.length > 0;
  // Where the browser has no constructed style sheets (adoptedStyleSheets), a <style> instead.
  const root = /** @type {DocumentFragment & Partial<Pick<ShadowRoot, "adoptedStyleSheets">>} */ (figure.shadowRoot);
  if ("adoptedStyleSheets" in root) {
    if (!root.adoptedStyleSheets.includes(sheet())) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet()];
  } else if (!root.querySelector("style[data-predict]")) {
    root.append(h("style", { "data-predict": "" }, css));
  }
  // Concealed again (after printing): the note is written anew, not added twice.
  answer.note ??= h("p", { class: "llm-predict-note" });
  writeNote(answer);
  if (!answer.note.isConnected) figure.frame.prepend(answer.note);
  if (!conceals.length) return;
  figure.setAttribute("data-predict-first", "");
  // A readout may be written after a render (a chart that measures itself, a table filled in
  // place): whatever is drawn into a withheld readout, or as a new one, is withheld at once.
  // The figure is watched for new elements and classes (a new readout), and each withheld
  // readout for anything written into it (markConcealed): the figure's other writes at an
  // input, most of them, make no record.
  answer.watcher?.disconnect();
  answer.watcher = new MutationObserver((records) => {
    for (const r of records) {
      const el = /** @type {Element | null} */ (
        r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement
      )?.closest("[data-predict-conceal]");
      if (el) withhold(el);
    }
    markConcealed(answer);
  });
  answer.watcher.observe(figure.shadowRoot, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["class", "id"],
  });
  // Readouts marked before (by an earlier watch) are watched too; markConcealed() marks the rest.
  for (const el of figure.shadowRoot.querySelectorAll("[data-predict-conceal]"))
    answer.watcher.observe(el, WITHHELD_WRITES);
  markConcealed(answer);
}

/**
 * Marks the readouts to conceal (again after every render: a figure may redraw them).
 * @param {Concealer} answer
 */
export function markConcealed(answer) {
  // Not before the figure's first drawing: a readout frozen empty would stay empty.
  if (!answer.concealed || !answer.figure.result) return;
  for (const el of answer.figure.shadowRoot.querySelectorAll(answer.conceals.join(", "))) {
    if (el.hasAttribute("data-predict-conceal")) continue;
    el.setAttribute("data-predict-conceal", "");
    // Withheld, it need not follow each redraw (dom.js freeze): it is drawn anew when shown.
    freeze(el, { withhold: true });
    // What is written into it other than by a redraw is withheld again (conceal()'s watcher).
    answer.watcher?.observe(el, WITHHELD_WRITES);
    if (!el.hasAttribute("aria-hidden")) {
      el.setAttribute("aria-hidden", "true");
      // Out of the tab order too: hidden content must hold nothing focusable (a scrolling table).
      el.inert = true;
      el.setAttribute("data-predict-aria", "");
    }
  }
}

/**
 * Shows the figure's readouts again (after a right prediction, on request, or when removed).
 * @param {Concealer} answer
 */
export function reveal(answer) {
  if (!answer.concealed || !answer.figure) return;
  answer.concealed = false;
  answer.watcher?.disconnect();
  answer.watcher = null;
  const root = answer.figure.shadowRoot;
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
  answer.figure.removeAttribute("data-predict-first");
  if (answer.note) writeNote(answer);
}
