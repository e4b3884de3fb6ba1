// Functions that every browser suite runs inside a page, whatever drives it: Playwright's
// page.evaluate (tests/browser/), puppeteer's (tests/firefox/) and WebDriver's execute
// (tests/webkit/). Each is whole in itself (no name from outside it), since only its text reaches
// the page; what checks their answers runs here, in Node, as does the page they are run in
// before the figures' scripts (readerWithoutScripts).
"use strict";

/**
 * Draws every figure of the page now, as printing does (a figure draws as it comes near the
 * screen): once the elements are defined (the widgets' script is async), each draws as soon as
 * the engine is loaded. A page whose script cannot run defines nothing within `ms`: then it draws
 * nothing, and the caller's own wait says so.
 */
async function drawEveryFigure(ms) {
  const widgets = [...document.querySelectorAll("*")].filter((el) => el.localName.startsWith("llm-"));
  const defined = Promise.all(widgets.map((el) => customElements.whenDefined(el.localName)));
  if (!(await Promise.race([defined.then(() => true), new Promise((r) => setTimeout(r, ms, false))]))) return;
  for (const el of widgets) /** @type {any} */ (el).drawNow?.();
}

/**
 * Every figure in the page's document with what shows it drew: data-ready, the error message it
 * shows if any, and whether it drew its figure (an svg or a table in its shadow root; the
 * diagnosis has neither, it draws a scenario and six choices).
 */
function figuresOnPage() {
  return [...document.querySelectorAll("*")]
    .filter((el) => el.localName.startsWith("llm-") && el.shadowRoot && /** @type {any} */ (el.constructor).attributes)
    .map((el) => {
      const root = /** @type {ShadowRoot} */ (el.shadowRoot);
      const error = root.querySelector(".llm-status.llm-error");
      const drawn =
        el.localName === "llm-diagnose"
          ? (root.querySelector(".diagnose-title")?.textContent?.trim().length ?? 0) > 0 &&
            root.querySelectorAll(".diagnose-choice").length === 6
          : root.querySelector("svg, table") !== null;
      return {
        id: el.id,
        tag: el.localName,
        ready: el.hasAttribute("data-ready"),
        error: error ? error.textContent : null,
        drawn,
      };
    });
}

/** Fails unless every figure of figuresOnPage()'s answer is ready, shows no error and drew. */
function assertEveryFigureDrawn(assert, all, what) {
  assert.ok(all.length > 0, `${what}: no figure on the page`);
  for (const f of all) {
    assert.ok(f.ready, `${what}: ${f.id || f.tag} is not ready`);
    assert.equal(f.error, null, `${what}: ${f.id || f.tag} shows an error`);
    assert.ok(f.drawn, `${what}: ${f.id || f.tag} drew no figure`);
  }
  return all;
}

/**
 * Every figure of the page with what shows of the drawing the page was built with (site/
 * prerender.mjs, shown by site/src/drawing.js): whether its shadow root shows the drawing's frame,
 * inert and displayed, its height, whether the drawing's styles apply ("Skip this figure" is out
 * of sight until focused), and whether a script has defined the figure.
 */
function drawingsOnPage() {
  return [...document.querySelectorAll("[data-prerendered]")].map((el) => {
    const root = el.shadowRoot;
    const frame = root?.querySelector(".llm-frame");
    const skip = root?.querySelector(".llm-skip");
    return {
      id: el.id,
      defined: customElements.get(el.localName) !== undefined,
      shown: !!frame && /** @type {HTMLElement} */ (frame).inert && getComputedStyle(frame).display !== "none",
      height: el.getBoundingClientRect().height,
      styled: !!skip && getComputedStyle(skip).position === "absolute",
    };
  });
}

/**
 * Fails unless drawingsOnPage()'s answer has the chapter's 13 figures, none defined by a script,
 * and shows the drawing of each of `ids`, styled; returns the answer.
 */
function assertDrawingsShown(assert, all, ids, what) {
  assert.equal(all.length, 13, `${what}: the chapter's figures drawn at build time`);
  for (const f of all) assert.equal(f.defined, false, `${what}: #${f.id} was defined by a script`);
  for (const id of ids) {
    const f = all.find((x) => x.id === id);
    assert.ok(f?.shown, `${what}: #${id} shows no drawing`);
    assert.ok(f.height > 150, `${what}: #${id}'s drawing is ${f.height} px tall`);
    assert.ok(f.styled, `${what}: #${id}'s drawing is not styled`);
  }
  return all;
}

/**
 * A copy of dist/'s reader.html without the figures' scripts (reader.js taken out, and
 * reader-head.js's data-widgets, by which first-screen.js would start the widgets' script; its
 * styles and reader-head.js kept), in a new folder beside a copy of dist/assets: the reader as it
 * stands before those scripts have run. With `drawings` false, without the figures' drawings made
 * at build time either (site/prerender.mjs): the text alone. Returns the folder; the caller
 * removes it.
 */
function readerWithoutScripts(dist, { drawings = true } = {}) {
  const fs = require("node:fs");
  const os = require("node:os");
  const path = require("node:path");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-without-scripts-"));
  fs.cpSync(path.join(dist, "assets"), path.join(dir, "assets"), { recursive: true });
  const html = fs.readFileSync(path.join(dist, "reader.html"), "utf8");
  let without = html
    .replace(/<script src="assets\/reader\.[0-9a-f]{10}\.js"><\/script>\n?/g, "")
    .replace(/ data-widgets="assets\/llmmath-widgets\.[0-9a-f]{10}\.js"/g, "");
  if (
    html.length === without.length ||
    /llmmath-widgets\.[0-9a-f]{10}\.js|"assets\/reader\.[0-9a-f]{10}\.js"/.test(without)
  )
    throw new Error("reader.html's scripts were not found to take out");
  if (!drawings)
    without = without
      .replace(/<noscript data-drawing>[\s\S]*?<\/noscript>/g, "")
      .replace(/<template id="llm-drawing-kit">[\s\S]*?<\/template>/, "");
  fs.writeFileSync(path.join(dir, "reader.html"), without);
  return dir;
}

/**
 * Where the reader opens, and the figure whose drawing from the build it shows there before any
 * script has run: its top, and a link to a section whose figure stands a screen below its place.
 */
const PLACES_SHOWN = [
  ["", "opening-attention"],
  ["#quantization", "quantization-figure"],
];

module.exports = {
  drawEveryFigure,
  figuresOnPage,
  assertEveryFigureDrawn,
  drawingsOnPage,
  assertDrawingsShown,
  readerWithoutScripts,
  PLACES_SHOWN,
};
