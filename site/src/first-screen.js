// data-first-screen: the moment the figures on the reader's first screen have drawn, set on <html>
// (and as a performance mark, for the benchmark) as soon as it is true, while the rest of the
// chapter may still be being read; data-first-screen-shown, the moment each is on the screen,
// drawn by its script or drawn at build time (site/prerender.mjs): the drawings of the figures on
// the first screen and the screen below are shown here (drawing.js), each as soon as the parser
// has read it (at the page's top, not before its first frame: textFirst below). reader-head.js
// starts this from right after the masthead, so it cannot wait for the end of the page as
// reader.js (at the end of <body>) would.
//
// The first screen is the viewport where the page opens: its top, or for a link to a place in the
// page (reader.html#quantization) the screen that starts at that place, where the browser scrolls
// to. Which figures are on it is known once the parser has read past the screen's bottom (or has
// read the whole page): while the page is still being read, each animation frame (at the page's
// top, also each addition the parser makes) asks whether the last element read so far starts
// below that line. Then the figures' elements read so far are
// looked at once, and the mark waits for each of those on the screen to be drawn (its `ready`, once
// llmmath-widgets.js has defined it). A screen with no figure is marked as soon as it is known.

import { drawingShown, lastRead, readToItsEnd, showDrawing } from "./drawing.js";
import { placeInAddress } from "./place.js";

/** Elements the parser reads that are not drawn (display: none): no box to ask where they are. */
const UNDRAWN = new Set(["script", "template", "style", "link", "meta", "noscript"]);

/** An element's top and bottom in the page (not the viewport), in CSS pixels. */
const span = (el) => {
  const box = el.getBoundingClientRect();
  return { top: box.top + scrollY, bottom: box.bottom + scrollY, height: box.height };
};

/**
 * Whether an element lies between `top` and `bottom` of the page. A section of the chapter off the
 * screen is not laid out (content-visibility: auto): asking an element inside it for its box would
 * lay out the whole section, so the section's own box answers first for what it holds.
 */
function within(el, top, bottom) {
  const section = el.closest("main > section");
  if (section) {
    const s = span(section);
    if (s.top >= bottom || s.bottom <= top) return false;
  }
  const e = span(el);
  return e.height > 0 && e.top < bottom && e.bottom > top;
}

/**
 * Starts the figures' script, named by reader-head.js's script element (data-widgets): asked for
 * and run only from here, once the first screen is known and its text painted, with the drawings
 * the page was built with. Run while the page was still being read, or before its first screen
 * was painted, the script's work (its compilation, the engine's) came first and the reader waited
 * for it to see the screen the link opened at. Nor is it fetched ahead (a preload): its 900 kB,
 * read and parsed on another thread while the page was still being read, competed with the page
 * for a two-core machine's time, and a deep link's figure was shown 10 to 24 ms later (paired cold
 * loads from file://, 20 to 30 rounds); Lighthouse on a phone gave the same score either way.
 * @param {readonly Element[]} [first] the figures on the first screen: the script defines their
 *   elements first (data-first, widgets-embed.js); not for a link with settings, which reader.js
 *   gives the figures before they draw
 */
export function startWidgets(first) {
  const head = document.querySelector("script[data-widgets]");
  if (!head || head.hasAttribute("data-started")) return;
  head.setAttribute("data-started", "");
  const script = document.createElement("script");
  if (first && !location.hash.includes("?"))
    script.setAttribute("data-first", [...new Set(first.map((el) => el.localName))].join(" "));
  // its address as the page writes it (relative), so that a saved copy of the page loads it from beside itself
  script.src = /** @type {string} */ (head.getAttribute("data-widgets"));
  document.head.append(script);
}

/**
 * Shows a figure's drawing (drawing.js); returns the style sheets given, or null where none was
 * shown. Once the figures' script has taken the figure (its element defined, its shadow root its
 * own), the figure is asked to show it (kit/base.js _showDrawing): it must know the drawing's
 * sheets to take them away with it, and could not know those this script's bundle gave.
 */
const showEarly = (el) =>
  customElements.get(el.localName) ? (/** @type {any} */ (el)._showDrawing?.() ?? null) : showDrawing(el);

/** Watches the page being read and marks data-first-screen once its first screen's figures drew. */
export function watchFirstScreen() {
  const root = document.documentElement;
  const { id } = placeInAddress();
  /** The figures' elements read so far (once, when the first screen is known: a watch of every
   * element the parser adds cost tens of ms of a load). */
  const figures = () => [...document.body.getElementsByTagName("*")].filter((el) => el.localName.startsWith("llm-"));

  /**
   * Whether the parser has read past the line `bottom`: the last element read that is drawn
   * starts below it (a <script> or <template>, which is not drawn, has no place to ask).
   */
  function readPast(bottom) {
    let last = lastRead();
    while (last && UNDRAWN.has(last.localName)) last = last.previousElementSibling ?? last.parentElement;
    if (!last || last === document.body) return false;
    const section = last.closest("main > section");
    if (section && span(section).top >= bottom) return true;
    return span(last).top >= bottom;
  }

  /**
   * Where the first screen starts in the page: the place the link names, else where the page is;
   * null while that place is still to come.
   */
  function screenTop() {
    const place = id ? document.getElementById(id) : null;
    if (id && !place && document.readyState === "loading") return null;
    return place ? span(place).top : scrollY;
  }

  /** The figures of the first screen, or null while the parser has not read past it. */
  function onFirstScreen() {
    const top = screenTop();
    if (top === null) return null;
    const bottom = top + innerHeight;
    if (document.readyState === "loading" && !readPast(bottom)) return null;
    return figures().filter((el) => within(el, top, bottom));
  }

  const mark = (name) => {
    performance.mark(name);
    root.setAttribute(name, "");
  };
  /** Drawn by its script: its `ready`, once llmmath-widgets.js has defined it. */
  const drawn = (el) => customElements.whenDefined(el.localName).then(() => /** @type {any} */ (el).ready);
  /**
   * Shown from the build: its drawing made at build time (site/prerender.mjs) shown now, or
   * already, in its shadow root (drawing.js), unless it has drawn by its script meanwhile.
   */
  const fromBuild = (el) => !el.hasAttribute("data-ready") && (showEarly(el) !== null || drawingShown(el));
  /**
   * At the page's top, resolved in a task right after its first frame: that frame paints the text
   * read so far alone, as the chapter without its figures would, and the first screen's drawings
   * are shown for the frame after. Shown before it, the opening figure's drawing (its shadow root,
   * its style sheets, its layout and paint) made the first paint later by about 9 ms, more than a
   * tenth of the text alone's: interquartile means of 150 rounds of cold first paints, 73.9 ms
   * against the text alone's 65.1 ms, and 67.3 ms with the drawing a frame later; the first screen
   * shown 6 ms later for it (paired, 40 rounds). At a link's place, resolved at once: the screen
   * there shows its figures as soon as the parser has read them, as before.
   */
  const textFirst = id
    ? Promise.resolve()
    : new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  let known = false;
  /** Marks the first screen once it is known; asked again at the next frame if `again`. */
  const check = (again = true) => {
    if (known) return;
    const shown = onFirstScreen();
    if (!shown) return void (again && requestAnimationFrame(() => check()));
    known = true;
    parsed.disconnect();
    // data-first-screen-shown: every figure of the first screen on it, drawn at build time or by
    // its script; data-first-screen: every one drawn by its script, answering the reader.
    // A figure not yet read to its end then (a loaded machine) has no drawing to show: the first
    // screen waits for its script, and says so (data-first-screen-by-script), so that a test can
    // tell that the script was asked for before that screen was shown, as it had to be.
    // The figures' script is asked for as soon as a frame has painted the text read so far and the
    // first screen's drawings are shown (at the top, textFirst; at a link's place, the frame after
    // the place was read), or at once where that screen waits for it: its file is then read and
    // parsed on another thread while the drawings' frame and the parser run. Asked for once the
    // drawings' frame had been painted too and the first paint reported (a PerformanceObserver,
    // whose report came 100 to 180 ms after the paint on a loaded machine), the first screen was
    // live later (bench/README.md, 2026-12-07).
    const start = () => startWidgets(shown);
    const afterAFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    textFirst.then(() => {
      const waiting = shown.filter((el) => !fromBuild(el));
      if (waiting.length) document.documentElement.setAttribute("data-first-screen-by-script", "");
      const marked = Promise.all(waiting.map(drawn)).then(() => mark("data-first-screen-shown"));
      const painted = id ? afterAFrame() : Promise.resolve();
      if (waiting.length) painted.then(start);
      else Promise.all([marked, painted]).then(start);
    });
    Promise.all(shown.map(drawn)).then(() => mark("data-first-screen"));
    // Each of them starts (builds its controls) in the task after its element is defined, while
    // the engine compiles on another thread, not after the next frame, when the browser would
    // report it near the screen (kit/starting.js): 15 to 25 ms of a cold load sooner.
    for (const el of shown)
      customElements.whenDefined(el.localName).then(() => setTimeout(() => /** @type {any} */ (el).start?.(), 0));
  };
  // The first screen and the one below it, where a reader goes next and where the widgets start
  // figures ahead of the reader: each figure's drawing shown as soon as the parser has read the
  // figure, frame by frame until it has read past them (a link to a section whose figure starts
  // just below the screen it opens at shows it without waiting for the rest of that screen).
  function ahead() {
    const top = screenTop();
    if (top === null) return void requestAnimationFrame(ahead);
    const bottom = top + 2 * innerHeight;
    const done = document.readyState !== "loading" || readPast(bottom);
    for (const el of document.querySelectorAll("[data-prerendered]"))
      if (!drawingShown(el) && readToItsEnd(el) && within(el, top, bottom)) showEarly(el);
    if (!done) requestAnimationFrame(ahead);
  }
  // A page opened at its top: the figures read before this script (the masthead's) are on its
  // first screen; their drawings are shown as soon as the text has been painted.
  if (!id) {
    const above = figures();
    textFirst.then(() => above.forEach(showEarly));
  }
  // A page opened at its top is also asked whenever the parser has added to it, not only at each
  // frame: it knows its first screen as soon as it has read past it, 10 to 18 ms sooner (paired
  // cold loads, 30 rounds, twice), and its first paint no later. Not at a link's place: known
  // sooner there, the first screen started the widgets' script before the figure of the screen
  // below, where such a link's figure stands, was shown, and that figure came 37 ms later.
  const parsed = new MutationObserver(() => check(false));
  if (!id) parsed.observe(document.body, { childList: true, subtree: true });
  requestAnimationFrame(() => check());
  textFirst.then(() => requestAnimationFrame(ahead));
}
