// A figure's drawing made at build time (site/prerender.mjs): the reader's pages carry it inside
// the figure's element as an inert <template data-drawing>, which costs the parser little and
// shows nothing by itself. Shown, it becomes the figure's shadow root's content until the figure's
// own first drawing replaces it (LlmWidget._showLive in widgets/base.js). Shown where it is
// needed only: the first screen's figures and those of the screen below, as soon as the page
// knows them (first-screen.js), and a figure that starts before the engine has loaded (widgets/
// base.js). Never where scripts do not run, since a script shows it; not when the address gives
// figures settings the drawings do not have (reader-head.js marks that, data-linked-settings).
//
// Its styles are texts the page carries inert: the kit's once (<template id="llm-drawing-kit">),
// each drawing's own in its template. They become constructed style sheets given to the shadow
// root, as the widgets' own styles do: never <style> elements in the page, which a policy without
// 'unsafe-inline' would refuse.

const KIT = "llm-drawing-kit";
/** @type {Map<string, CSSStyleSheet>} a sheet per text, made once */
const sheets = new Map();
/** The sheets given to drawings, which the figure takes away once it draws (drawingSheet). */
const given = new WeakSet();

function sheetOf(text) {
  let sheet = sheets.get(text);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    sheets.set(text, sheet);
    given.add(sheet);
  }
  return sheet;
}

/** Whether `sheet` styles a drawing from the build (and not the figure's own elements). */
export const drawingSheet = (sheet) => given.has(sheet);

/** Whether `el` has a drawing from the build that is not shown yet and may be. */
export function drawingToShow(el) {
  return (
    !document.documentElement.hasAttribute("data-linked-settings") &&
    (el.shadowRoot?.childElementCount ?? 0) === 0 &&
    el.querySelector(":scope > template[data-drawing]") !== null &&
    "adoptedStyleSheets" in Document.prototype
  );
}

/**
 * Shows `el`'s drawing from the build in its shadow root (made open, or the empty one it has);
 * returns whether it did. The element must have been read to its end (its template whole).
 */
export function showDrawing(el) {
  if (!drawingToShow(el)) return false;
  const template = /** @type {HTMLTemplateElement} */ (el.querySelector(":scope > template[data-drawing]"));
  const kit = /** @type {HTMLTemplateElement | null} */ (document.getElementById(KIT));
  const drawing = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  const texts = [kit?.content.querySelector("style")?.textContent ?? ""];
  // the drawing's own styles, taken out before it goes in the page
  for (const style of drawing.querySelectorAll("style")) {
    texts.push(style.textContent ?? "");
    style.remove();
  }
  const root = el.shadowRoot ?? el.attachShadow({ mode: "open" });
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...texts.filter(Boolean).map(sheetOf)];
  root.append(drawing);
  // for the benchmark (bench/page.js): when a figure was first shown, in the frame painted next
  performance.mark(`drawing shown: ${el.id}`);
  return true;
}
