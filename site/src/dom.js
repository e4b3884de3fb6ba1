// Small DOM and formatting helpers shared by the widgets. Everything is built with DOM calls,
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

/**
 * A number as a reader should see it: up to `digits` decimals, trailing zeros dropped, a true
 * minus sign, exact zero as "0". Formatting only: the value itself comes from the core.
 */
export function fmt(x, digits = 4) {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (x === 0) return "0";
  const abs = Math.abs(x);
  let s;
  if (abs >= 1e6 || abs < 10 ** -digits) s = x.toExponential(Math.min(digits - 1, 3)).replace(/\.?0+e/, "e");
  else {
    s = x.toFixed(digits);
    if (s.includes(".")) s = s.replace(/\.?0+$/, "");
  }
  if (s === "-0") s = "0";
  return s.replace("-", "−");
}

/** A vector as "(a, b, c)". */
export function fmtVec(xs, digits = 4) {
  return "(" + xs.map((x) => fmt(x, digits)).join(", ") + ")";
}

/** A percentage of a probability, e.g. 0.4249 → "42.5%". */
export function pct(p, digits = 1) {
  return fmt(p * 100, digits) + "%";
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
