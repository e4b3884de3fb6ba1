// The dock of an exercise (FigureAnswer, answer.js, whose header tells when it docks): on a screen
// large enough (DOCK_MEDIA), while the figure fills the screen, the current step's field and its
// status line are docked at the bottom of the screen, under the figure, as wide as it (dock()),
// and go back to their place in the exercise as the figure's last row comes onto the screen
// (undock()). Its room stays in the exercise meanwhile (.predict-dock-place), and the page's
// scroll padding keeps a control that takes the focus clear of it (padForDock). Its look and its
// place on the screen are answer-page.css's, adopted by the document.
import { h } from "../dom.js";
import pageCss from "./answer-page.css";

/** @typedef {import("./answer.js").FigureAnswer} FigureAnswer */

// Where the prediction may dock at the bottom of the screen: a laptop's, not a phone's, whose
// height the figure's own bar of controls already shares.
const DOCK_MEDIA = "(min-width: 48rem) and (min-height: 34rem)";

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
/**
 * Docks `answer` when it should be docked, from now on (see above).
 * @param {FigureAnswer} answer
 */
export function watchDock(answer) {
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
/**
 * No longer docks `answer` (removed from the page).
 * @param {FigureAnswer} answer
 */
export function unwatchDock(answer) {
  docking.delete(answer);
  if (docking.size) return;
  removeEventListener("scroll", dockSoon);
  removeEventListener("resize", dockSoon);
}

/**
 * Docks the current step's field and status line at the bottom of the screen while the figure
 * fills it, on a screen large enough (see the top), and puts it back otherwise. Called on
 * scroll and resize (one frame at most), and after a check.
 * @param {FigureAnswer} answer
 */
export function dock(answer) {
  const step = answer.figure && !answer.details?.open ? answer.current() : null;
  if (answer.docked && answer.docked !== step) undock(answer);
  if (!step || !matchMedia(DOCK_MEDIA).matches) return undock(answer);
  const screen = innerHeight;
  // A figure in a section off the screen cannot fill it, and the section's own box says so without
  // laying out what the section holds, which the browser skips while it is off the screen (the
  // reader's sections, content-visibility: auto). Asked for the figure's box instead, each such
  // section was laid out: at the reader's load, three forced layouts of the page one after another
  // in the frame before the first figure could draw (160 ms of a loaded machine's, traced).
  const section = answer.figure.closest("main > section");
  if (section) {
    const { top, bottom } = section.getBoundingClientRect();
    if (bottom <= 0 || top >= screen) return undock(answer);
  }
  const fig = answer.figure.getBoundingClientRect();
  const place = (answer.docked ? answer.dockPlace : step.box).getBoundingClientRect();
  // The figure fills the screen: its top is in the upper part of it, and its last row of
  // controls (the kit's actions, else the figure's foot) is still below the screen's bottom edge.
  // Once that row comes up, the field goes back: what then comes up at the foot of the screen,
  // where the dock lay (the row, the caption, the exercise's question, then the field in its
  // place), is what the reader reads next. The dock covers only what passes under it on the way
  // through the figure, as the screen's own edge does (a control that takes the focus there is
  // scrolled clear of it: padForDock).
  const { actions } = answer.figure;
  const row = actions?.isConnected && actions.offsetHeight > 0 ? actions.getBoundingClientRect().top : fig.bottom;
  const wanted = fig.top < screen * 0.6 && row >= screen && place.top > fig.top;
  if (!wanted) return undock(answer);
  if (!answer.docked) {
    // The field's room stays in the exercise, so nothing below it moves.
    answer.dockPlace = h("div", { class: "predict-dock-place", "aria-hidden": "true" });
    answer.dockPlace.style.height = `${step.box.offsetHeight}px`;
    step.box.before(answer.dockPlace);
    step.box.classList.add("predict-docked");
    answer.docked = step;
  }
  // Under the figure, as wide as it is. Written only when it changes: this runs in every frame
  // of a scroll.
  const geometry = `${Math.round(fig.left)} ${Math.round(fig.width)}`;
  if (geometry !== answer.dockGeometry) {
    answer.dockGeometry = geometry;
    step.box.style.setProperty("--dock-left", `${Math.round(fig.left)}px`);
    step.box.style.setProperty("--dock-width", `${Math.round(fig.width)}px`);
  }
  // A control that takes the focus is scrolled clear of it, at its height in that width
  // (its label may wrap), and again whenever that height changes (a hint after a check).
  dockSize ??= new ResizeObserver(padForDock);
  dockSize.observe(step.box);
  padForDock();
}

/**
 * Puts a docked field back in its place in the exercise.
 * @param {FigureAnswer} answer
 */
export function undock(answer) {
  if (!answer.docked) return;
  dockSize?.unobserve(answer.docked.box);
  answer.docked.box.classList.remove("predict-docked");
  answer.docked.box.style.removeProperty("--dock-left");
  answer.docked.box.style.removeProperty("--dock-width");
  answer.dockPlace?.remove();
  answer.dockPlace = null;
  answer.docked = null;
  answer.dockGeometry = "";
  padForDock();
}
