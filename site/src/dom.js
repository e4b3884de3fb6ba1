// Small DOM helpers shared by the widgets (numbers are formatted by format.js). Everything is built with DOM calls,
// never innerHTML, so nothing a reader types or a link carries is ever parsed as markup.

/**
 * Creates an element: h("td", { class: "x", "aria-label": "…" }, child, "text", …).
 * Props named on* are event listeners; `style` takes an object of CSS properties (set through
 * the CSSOM, which a strict Content-Security-Policy allows); other props become attributes.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElementNS(
    tag === "svg" || svgTags.has(tag) ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml",
    tag,
  );
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "style") for (const [p, v] of Object.entries(value)) el.style.setProperty(p, v);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

const svgTags = new Set(["path", "line", "circle", "rect", "text", "g", "polyline", "title", "tspan"]);

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A subscripted symbol: sym("w", "1 3") → w₁₃ as <var>w</var><sub>1 3</sub>. */
export function sym(name, sub, sup) {
  return h("span", { class: "sym" }, h("var", {}, name), sub !== undefined ? h("sub", {}, sub) : null,
    sup !== undefined ? h("sup", {}, sup) : null);
}

let uid = 0;
/** A page-unique id for label/aria wiring inside widgets. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}
