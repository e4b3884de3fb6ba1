// What a figure says aloud through its one live region, and what its placeholder says before its
// first drawing (LlmWidget, base.js, whose header tells the whole): the summary once the reader
// pauses (announce, ANNOUNCE_DELAY after the last change), "Computing the figure…" when a figure
// on screen has not drawn after COMPUTING_DELAY (sayComputingSoon), and, after the first attempt
// to draw, the placeholder gone or saying why the figure cannot run (settle). A page with several
// figures on screen says "computing" and the failure once, not once per figure: the figure that
// says it is kept here (`speaking`, `failureSaid`).

/**
 * A widget as this module uses it: the live region, the placeholder, and its own timers and the
 * last thing it said.
 * @typedef {import("./base.js").LlmWidget & { _said?: string, _computingTimer?: any, _announceTimer?: any }} Speaker
 */

// A figure's summary is spoken this long after the last change (ms): a reader dragging a slider
// or typing a number hears the figure once they pause, not at every step.
const ANNOUNCE_DELAY = 700;
// A figure on screen that has not drawn this long after it started (ms) says it is computing:
// the engine is still starting, as on a slow device; on a fast one nothing is said.
const COMPUTING_DELAY = 600;
export const COMPUTING = "Computing the figure…";

// The figure that is saying "computing" or that the engine failed, so that a page with several
// figures on screen says each once, not once per figure.
/** @type {Speaker | null} */
let speaking = null;
let failureSaid = false;

/**
 * Says `text`, or else the summary of `widget`'s latest result, once no change has come for
 * ANNOUNCE_DELAY: every change restarts the wait, so only the last is spoken.
 * @param {Speaker} widget
 * @param {string} [text]
 */
export function announce(widget, text) {
  clearTimeout(widget._announceTimer);
  widget._announceTimer = setTimeout(() => {
    let said = text;
    if (said === undefined) {
      try {
        said = widget.result
          ? widget.summary(widget.result, { concealed: widget.hasAttribute("data-predict-first") })
          : "";
      } catch {
        said = ""; // a summary that cannot be written says nothing rather than break the figure
      }
    }
    widget._said = said;
    widget.live.textContent = said;
  }, ANNOUNCE_DELAY);
}

/**
 * Nothing more is said of `widget` (removed from the page): what it was about to say is not said.
 * @param {Speaker} widget
 */
export function hush(widget) {
  clearTimeout(widget._announceTimer);
}

/**
 * Once `widget` has started: if it has not drawn after COMPUTING_DELAY, "Computing the figure…"
 * over the drawing the page was built with (if it shows one), and said aloud if the figure is on
 * screen and no other figure is saying it. settle() calls it off.
 * @param {Speaker} widget
 */
export function sayComputingSoon(widget) {
  widget._computingTimer = setTimeout(() => {
    widget._showWaiting();
    if (speaking?.isConnected || !onScreen(widget)) return;
    speaking = widget;
    widget._said = COMPUTING;
    widget.live.textContent = COMPUTING;
  }, COMPUTING_DELAY);
}

/**
 * After the first attempt to draw: the placeholder goes, or says why the figure cannot run
 * (`failure`). A figure that said it was computing then says its summary. A failure is said
 * aloud by the first figure on screen only: the others show it, and the reader page says it
 * once at its top.
 * @param {Speaker} widget
 * @param {string} [failure]
 */
export function settle(widget, failure) {
  clearTimeout(widget._computingTimer);
  const saidComputing = widget._said === COMPUTING;
  if (speaking === widget) speaking = null;
  if (failure) {
    widget._pending.textContent = failure;
    widget._pending.classList.add("llm-error");
    if ((saidComputing || onScreen(widget)) && !failureSaid) {
      failureSaid = true;
      widget.live.textContent = failure;
    }
    return;
  }
  widget._pending.remove();
  widget._settled = true;
  if (saidComputing) announce(widget);
}

/**
 * Whether the figure is in view now (asked only of a figure still computing, or failing).
 * @param {HTMLElement} widget
 */
function onScreen(widget) {
  const box = widget.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight && box.height > 0;
}
