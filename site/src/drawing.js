// A figure's drawing made at build time (site/prerender.mjs): the reader's pages carry its markup
// inside the figure's element, in a <noscript data-drawing>. Where scripts run, the parser reads
// that as text, makes no element of it, and nothing shows it until a script does: here, as the
// figure's shadow root's content until the figure's own first drawing replaces it
// (LlmWidget._showLive in kit/base.js), and only where it is needed: the first screen's
// figures and those of the screen below, as soon as the page knows them (first-screen.js), and a
// figure that starts before the engine has loaded (kit/base.js). Not when the address gives
// figures settings the drawings do not have (reader.html#rope?rope.m=5). Where scripts do not run,
// the parser makes the <noscript>'s elements: a <div> with a declarative shadow root that holds
// the drawing, which the reader then sees, still and inert, in place of each figure.
//
// Its styles are texts the page carries inert: the kit's once (<template id="llm-drawing-kit">),
// each drawing's own in its <noscript>. They become constructed style sheets given to the shadow
// root (sheets.js), as the widgets' own styles do: never <style> elements in the page, which a
// policy without 'unsafe-inline' would refuse. The <link>s the <noscript> has for a reader
// without scripts are left out: none is asked for.

import { placeInAddress } from "./place.js";
import { sheetFor } from "./sheets.js";

/** The id of the <template> that holds the kit's styles (written by site/prerender.mjs). */
export const KIT = "llm-drawing-kit";
/** The attribute of the <noscript> that holds a figure's drawing (written by site/prerender.mjs). */
export const DRAWING_BLOCK = "data-drawing";
/** The attribute of the <div> in the <noscript> that holds the drawing for a reader without scripts. */
export const DRAWING_HOST = "data-drawing-host";
const DRAWING = `:scope > noscript[${DRAWING_BLOCK}]`;

/** The last element the parser has read so far (the deepest last child of <body>), or null. */
export function lastRead() {
  let el = document.body?.lastElementChild ?? null;
  while (el?.lastElementChild) el = el.lastElementChild;
  return el;
}

/** Whether the parser has read `el` to its end: the page is read, or it has read past it. */
export function readToItsEnd(el) {
  if (document.readyState !== "loading") return true;
  const last = lastRead();
  return last !== null && last !== el && !el.contains(last);
}

/** Whether `el` shows a drawing from the build (inert, until the figure draws its own). */
export const drawingShown = (el) => el.shadowRoot?.querySelector(".llm-frame[inert]") != null;

/** Whether `el` has a drawing from the build that is not shown yet and may be. */
export function drawingToShow(el) {
  return (
    placeInAddress().settings === "" &&
    (el.shadowRoot?.childElementCount ?? 0) === 0 &&
    el.querySelector(DRAWING) !== null &&
    "adoptedStyleSheets" in Document.prototype
  );
}

/**
 * Shows `el`'s drawing from the build in its shadow root (made open, or the empty one it has);
 * returns the style sheets it gave the root for it (the figure takes them away with the drawing),
 * or null where it showed none. The element must have been read to its end (its drawing whole).
 */
export function showDrawing(el) {
  if (!drawingToShow(el)) return null;
  // its markup made inert elements (a template's content: nothing in it loads or runs); the
  // drawing is the content of the template that is, for a reader without scripts, the host's
  // declarative shadow root (innerHTML makes it a plain template)
  const template = document.createElement("template");
  template.innerHTML = /** @type {Element} */ (el.querySelector(DRAWING)).textContent ?? "";
  const inner = /** @type {HTMLTemplateElement | null} */ (template.content.querySelector("template[shadowrootmode]"));
  if (!inner) return null;
  const drawing = inner.content;
  for (const link of drawing.querySelectorAll("link")) link.remove();
  const kit = /** @type {HTMLTemplateElement | null} */ (document.getElementById(KIT));
  const texts = [kit?.content.querySelector("style")?.textContent ?? ""];
  // the drawing's own styles (in a template of their own, or in the drawing's, taken out before
  // it goes in the page)
  for (const t of template.content.querySelectorAll("template"))
    for (const style of t.content.querySelectorAll("style")) {
      texts.push(style.textContent ?? "");
      style.remove();
    }
  const root = el.shadowRoot ?? el.attachShadow({ mode: "open" });
  // those the root has already (the widget's, the kit's among them) are not given twice
  const given = texts
    .filter(Boolean)
    .map(sheetFor)
    .filter((sheet) => !root.adoptedStyleSheets.includes(sheet));
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...given];
  root.append(drawing);
  // for the benchmark (bench/page.js): when a figure was first shown, in the frame painted next
  performance.mark(`drawing shown: ${el.id}`);
  return given;
}
