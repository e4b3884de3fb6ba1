// Functions that every browser suite runs inside a page, whatever drives it: Playwright's
// page.evaluate (tests/browser/), puppeteer's (tests/firefox/) and WebDriver's execute
// (tests/webkit/). Each is whole in itself (no name from outside it), since only its text reaches
// the page; what checks their answers runs here, in Node.
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

module.exports = { drawEveryFigure, figuresOnPage, assertEveryFigureDrawn };
