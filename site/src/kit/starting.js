// When a figure starts and draws (LlmWidget, base.js): as it comes near the screen (whenNeeded),
// its first drawing in its turn once the engine has loaded (drawWhenLoaded, firstDraw), and what
// it shows when it cannot (cannotBuild; engineFailed, when the engine does not start).
import { loadCore } from "../core.js";
import { placeInAddress } from "../place.js";
import { settle } from "./announce.js";

/**
 * @typedef {import("./base.js").LlmWidget} LlmWidget
 * @typedef {LlmWidget & { _unbuilt?: boolean }} Starting a widget, and whether it could not build
 */

// A figure starts (builds its controls, then draws with the engine) when it comes within a screen
// of the viewport. One further down waits until the reader scrolls near it: a reader's phone does
// the work of the figures the reader comes to, when they come, and a deep link's own figure is
// drawn first. drawNow() starts and draws a figure at once (printing does so for every figure,
// since paper has no scrolling). Where IntersectionObserver is missing, figures start at once.
// A page opened at a place (page.html#section) is shown from its top until the parser has read
// that place and the browser has scrolled there: figures seen near the top meanwhile wait, and are
// asked again once the place is there, so the place's own figures are the ones drawn first.
let observer = null;
/** @type {Set<Element>} figures near the screen while the page's place was still to come */
const deferred = new Set();

/**
 * Whether the page's fragment names a place the page has not come to yet while it is being read:
 * not read yet, or read but not scrolled into view (the browser scrolls there at a frame of its
 * own, up to its load). Once the page has loaded, figures go by where the page is.
 */
function placeToCome() {
  if (document.readyState === "complete") return false;
  const { id } = placeInAddress();
  if (!id) return false;
  const place = document.getElementById(id);
  if (!place) return true;
  const box = place.getBoundingClientRect();
  return box.top >= innerHeight || box.bottom <= 0;
}

function askAgainWhenPlaceIsRead() {
  if (!placeToCome()) {
    // the page is at its place: the figures are asked afresh where they are now
    for (const el of deferred) {
      observer.unobserve(el);
      observer.observe(el);
    }
    deferred.clear();
  } else requestAnimationFrame(askAgainWhenPlaceIsRead);
}

/**
 * Starts `widget` when it comes near the screen (see above).
 * @param {LlmWidget} widget
 */
export function whenNeeded(widget) {
  if (typeof IntersectionObserver !== "function") return queueMicrotask(() => widget.start());
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        if (placeToCome()) {
          if (!deferred.size) requestAnimationFrame(askAgainWhenPlaceIsRead);
          deferred.add(e.target);
          continue;
        }
        observer.unobserve(e.target);
        /** @type {LlmWidget} */ (e.target).start();
      }
    },
    { rootMargin: "100% 0px" },
  );
  observer.observe(widget);
}

/**
 * A figure removed before it started is no longer waited for.
 * @param {LlmWidget} widget
 */
export function forget(widget) {
  observer?.unobserve(widget);
  deferred.delete(widget);
}

// First drawings, one per task, in the order the figures started: figures that start together
// (those of the first screen, or of a page of figures) then leave the page free to paint and to
// answer the reader between them, rather than drawing all in one long task.
/** @type {LlmWidget[]} */
const drawQueue = [];
let pumping = false;
/** @type {MessageChannel | null} a task each, without setTimeout's clamping; made when first needed */
let tasks = null;
function nextTask() {
  if (!tasks && typeof MessageChannel === "function") {
    tasks = new MessageChannel();
    tasks.port1.onmessage = drawNext;
  }
  if (tasks) tasks.port2.postMessage(null);
  else setTimeout(drawNext, 0);
}
function queueDraw(widget) {
  drawQueue.push(widget);
  if (pumping) return;
  pumping = true;
  nextTask();
}
function drawNext() {
  drawQueue.shift()?._firstDraw();
  if (drawQueue.length) nextTask();
  else pumping = false;
}
/** The engine once loaded (a figure that draws at once, for print, needs it without waiting). */
let loadedCore = null;
/** The engine if it has loaded, else null. */
export const engineLoaded = () => loadedCore;

/**
 * Once `widget` is built: its first drawing in its turn once the engine has loaded (firstDraw), or
 * what it says when the engine does not start (engineFailed).
 * @param {LlmWidget} widget
 */
export function drawWhenLoaded(widget) {
  loadCore().then(
    (core) => {
      loadedCore = core;
      queueDraw(widget);
    },
    (error) => engineFailed(widget, error),
  );
}

/**
 * `widget`'s first drawing, once the engine is loaded (from the queue, or drawNow): its own
 * elements in place of the drawing from the build, the placeholder gone, data-ready set and
 * `ready` resolved.
 * @param {Starting} widget
 */
export function firstDraw(widget) {
  if (widget.core || !loadedCore || widget._unbuilt) return;
  widget.core = loadedCore;
  widget._showLive();
  widget.update();
  settle(widget);
  widget.setAttribute("data-ready", "");
  widget._resolveReady();
}

/**
 * A widget that cannot build (build() or sync() threw `error`) still says why, and its `ready`
 * still settles. Only the placeholder goes: what a page added to the frame meanwhile (an
 * exercise's note) stays.
 * @param {Starting} widget
 */
export function cannotBuild(widget, error) {
  widget._unbuilt = true;
  widget._showLive();
  widget._pending.remove();
  widget.frame.append(widget.notesEl, widget.status, widget.actions, widget.panel);
  widget.showError(`This figure could not be built: ${error?.message ?? error}.`);
  widget._resolveReady();
}

/**
 * Why the engine did not start, in one short clause: the two usual causes in words, otherwise
 * the error without Emscripten's "Aborted(…)" wrapper and advice to rebuild, cut at 120 characters.
 */
function engineReason(error) {
  const text = String(error?.message ?? error);
  if (typeof WebAssembly !== "object") return "this browser has WebAssembly turned off";
  // Chromium names the policy and 'unsafe-eval'; Firefox says "blocked by CSP"
  if (/Content.Security.Policy|unsafe-eval|blocked by CSP/i.test(text))
    return "the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'";
  const bare = text
    .replace(/\s*Build with -s\w+.*$/s, "")
    .replace(/^Aborted\((.*)\)[.\s]*$/s, "$1")
    .trim();
  return bare.length > 120 ? `${bare.slice(0, 119)}…` : bare || "no reason given";
}

/**
 * When the engine did not start (`error`): the figure's own elements in place of its drawing, its
 * placeholder saying why (announce.js settle), "llm-engine-error" for the page (the reader shows
 * one notice), and its `ready` settled.
 * @param {LlmWidget} widget
 */
function engineFailed(widget, error) {
  widget._showLive();
  widget.engineError = engineReason(error);
  settle(
    widget,
    `This figure cannot run: the engine did not start (${widget.engineError}). The text and the answers still read.`,
  );
  widget.dispatchEvent(new CustomEvent("llm-engine-error", { bubbles: true, detail: { message: widget.engineError } }));
  widget._resolveReady();
}
