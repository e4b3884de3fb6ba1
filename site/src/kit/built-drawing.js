// A figure's shadow root, and the drawing the page was built with standing in it until the figure
// draws (LlmWidget, base.js). The reader's pages carry each figure's first drawing, made by the
// core at build time (site/prerender.mjs), in a <noscript data-drawing> (text, where scripts run);
// first-screen.js may have shown it in the root already (src/drawing.js). attachRoot() keeps
// such a drawing; a figure that starts before the engine has loaded shows its drawing meanwhile
// (placeParts, showDrawing); a figure still computing after a while says so over the drawing
// (showWaiting); and the figure's own elements replace the drawing in the same task as its first
// drawing or its error (showLive), so that nothing is painted between.
import { h } from "../dom.js";
import { readToItsEnd, showDrawing as showBuiltDrawing } from "../drawing.js";
import { COMPUTING } from "./announce.js";
import { keepKeys, styledRoot } from "./frame.js";

/**
 * A widget as this module uses it: besides its root, frame and skip links, whether the drawing
 * the page was built with is shown in its root (_prerendered), the style sheets that drawing
 * brought (_drawingSheets), and the "computing" line shown over it (_waiting).
 * @typedef {import("./base.js").LlmWidget & { _prerendered?: boolean, _drawingSheets?: CSSStyleSheet[],
 *   _waiting?: HTMLElement }} Stand
 */

/**
 * Gives `widget` its shadow root, styled, with its elements in it; a figure with a drawing from the
 * build gets its elements, or its drawing, when it starts (placeParts).
 * @param {Stand} widget
 */
export function attachRoot(widget) {
  const drawn = widget.hasAttribute("data-prerendered");
  // The sheets a drawing shown before this script ran was given (first-screen.js): taken away
  // with the drawing (showLive).
  widget._drawingSheets = drawn && widget.shadowRoot ? [...widget.shadowRoot.adoptedStyleSheets] : [];
  widget.root = styledRoot(
    widget,
    /** @type {typeof import("./base.js").LlmWidget} */ (widget.constructor).styles,
    drawn,
  );
  keepKeys(widget.root);
  widget._prerendered = drawn && widget.root.childElementCount > 0;
  if (!drawn) widget.root.append(widget.skip, widget.frame, widget.skipEnd);
}

/**
 * Once started, where the figure's elements go for a figure the page was built with a drawing
 * for: nowhere yet if its drawing is shown; otherwise, while the engine is still loading
 * (`engineLoaded` false), its drawing is shown meanwhile (the parser must have read the element to
 * its end, for its drawing to be whole); else the elements. Returns false to be asked again at
 * the next frame.
 * @param {Stand} widget
 * @param {boolean} engineLoaded
 */
export function placeParts(widget, engineLoaded) {
  if (!widget.hasAttribute("data-prerendered") || widget._prerendered || widget.frame.parentNode === widget.root)
    return true;
  if (widget.root.childElementCount > 0) return (widget._prerendered = true);
  if (!engineLoaded) {
    if (!readToItsEnd(widget)) return false;
    if (showDrawing(widget)) return true;
  }
  widget.root.append(widget.skip, widget.frame, widget.skipEnd);
  return true;
}

/**
 * Shows the figure's drawing from the build now, if it has one not shown and has not placed its
 * own elements yet; returns the style sheets the drawing brought, or null where none was shown.
 * @param {Stand} widget
 */
export function showDrawing(widget) {
  if (!widget.root || widget._prerendered || widget.frame.parentNode === widget.root || widget.core) return null;
  const given = showBuiltDrawing(widget);
  if (given) {
    widget._drawingSheets.push(...given);
    widget._prerendered = true;
  }
  return given;
}

/**
 * The figure's own elements in its shadow root in place of the drawing the page was built with
 * (if any), in the same task as its first drawing or its error: nothing is painted between.
 * @param {Stand} widget
 */
export function showLive(widget) {
  if (!widget._prerendered) return;
  widget._prerendered = false;
  const { root, frame, live } = widget;
  root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => !widget._drawingSheets.includes(s));
  // the live region back in the frame, after the placeholder, where the figure keeps it
  if (live.parentNode !== frame)
    if (widget._pending.parentNode === frame) widget._pending.after(live);
    else frame.prepend(live);
  // The narrow classes (base.js watchWidth) as the drawing's frame has them, the classes of the
  // width it was drawn at: taken now rather than at the live frame's first measurement, a layout
  // later, which moved what is around a figure that takes its content's width twice (the opening
  // figure's caption, a layout shift of 0.06 on the first screen).
  const drawn = [...root.children].find((el) => el !== frame && el.classList.contains("llm-frame"));
  for (const name of ["llm-narrow", "llm-narrower"])
    frame.classList.toggle(name, drawn?.classList.contains(name) ?? false);
  root.replaceChildren(widget.skip, frame, widget.skipEnd);
}

/**
 * A figure shown by the drawing the page was built with that has not drawn after a while (a slow
 * device, an engine slow to start: announce.js sayComputingSoon): "Computing the figure…" over the
 * drawing's top, taking no room, so that a reader who tries its controls, which do not answer
 * yet, knows why; and the figure's live region beside it, out of the inert drawing, to say so.
 * @param {Stand} widget
 */
export function showWaiting(widget) {
  if (!widget._prerendered) return;
  widget._waiting ??= h("p", { class: "llm-pending llm-waiting" }, h("span", {}, COMPUTING));
  widget.root.prepend(widget.live, widget._waiting);
}
