// Small DOM helpers shared by the widgets (numbers are formatted by format.js). Everything is built with DOM calls,
// never innerHTML, so nothing a reader types or a link carries is ever parsed as markup.

/** @typedef {"svg" | "path" | "line" | "circle" | "rect" | "text" | "g" | "polyline" | "title" | "tspan"} SvgTag */

/**
 * Creates an element: h("td", { class: "x", "aria-label": "…" }, child, "text", …).
 * Props named on* are event listeners; `style` takes an object of CSS properties (set through
 * the CSSOM, which a strict Content-Security-Policy allows); other props become attributes.
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any>} [props]
 * @param {...any} children
 * @returns {K extends SvgTag ? SVGElementTagNameMap[K] : K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const el = /** @type {any} */ (
    document.createElementNS(
      tag === "svg" || svgTags.has(tag) ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml",
      tag,
    )
  );
  // for…in rather than Object.entries: a figure's drawing makes thousands of elements an input,
  // and the arrays of pairs were a tenth of its time.
  for (const key in props) {
    const value = props[key];
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) listen(el, key.slice(2), value);
    else if (key === "style") for (const p in value) el.style.setProperty(p, value[p]);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

const svgTags = new Set(["path", "line", "circle", "rect", "text", "g", "polyline", "title", "tspan"]);

/** Appends children (nodes, strings, nested arrays; null, undefined and false skipped) in order. */
function append(el, children) {
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) {
      if (listening.has(c)) listening.add(el);
      el.append(c);
    } else el.append(String(c));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// --- redrawing in place ---------------------------------------------------------------------
// A figure redraws at every input, building its tables and charts anew with h(). Swapping the
// new nodes in would make the browser restyle and lay out every one of them (a table of 300
// cells: several ms a frame). patch() keeps the nodes already on the page and writes into them
// only what differs (a cell's text, a bar's height), so only that is restyled; and what the
// reader focused, scrolled or hovers stays the same node.

/** The listeners h() attached to an element, by event type, so that patch() can move them. */
const listeners = new WeakMap();
/** Elements made by h() that have listeners, or hold one that has (patch() must visit them). */
const listening = new WeakSet();
function listen(el, type, fn) {
  el.addEventListener(type, fn);
  listening.add(el);
  let map = listeners.get(el);
  if (!map) listeners.set(el, (map = new Map()));
  map.set(type, fn);
}

/** Elements made here that want to know when patch() keeps another node in their place. */
const patchHooks = new WeakMap();
/**
 * Registers `hook(kept)` for `el`: called when patch() is about to write `el` into the node `kept`
 * instead of inserting `el`; it returns the node to write in its place (`el` itself, or a new
 * drawing of it for `kept`'s box). plot.js uses it to redraw a chart at the width its box has.
 */
export function whenPatched(el, hook) {
  patchHooks.set(el, hook);
}

// Elements whose state is more than their attributes and children (a control's value, an open
// <details>, a widget's shadow root): patch() replaces them rather than writing into them.
const opaque = new Set([
  "input",
  "select",
  "textarea",
  "option",
  "details",
  "dialog",
  "canvas",
  "iframe",
  "video",
  "audio",
]);

/**
 * Makes an element's children `children` (nodes, strings, arrays, fragments, null), as fill()
 * does, but writing into the nodes already there where they are of the same kind, in order.
 * The new nodes must not be used afterwards: they are taken apart (use fill() for nodes a
 * widget keeps a reference to).
 */
export function patch(el, ...children) {
  const next = flatten(children, []);
  if (frozen.has(el)) frozen.get(el).children = next;
  else patchChildren(el, next);
  return el;
}

// --- frozen nodes ---------------------------------------------------------------------------
// A node the reader cannot read for now (an exercise blurs the readouts that would give its
// answer away) need not follow every redraw: written into at each input, its blur was
// rasterised again each time, which in Chromium without a GPU was about 4 of the 9 ms an input's
// frame took to raster and draw. While a node is frozen, patch() keeps the latest drawing meant
// for it (the node itself, or its children) and writes it in when the node is thawed.

/** Frozen nodes → { node, children }: what patch() last meant to write into each, if anything. */
const frozen = new WeakMap();

/** Freezes `el`: patch() leaves it as it is, keeping what it would have written, until thaw(el). */
export function freeze(el) {
  if (!frozen.has(el)) frozen.set(el, { node: null, children: null });
}

/** Thaws `el`: writes in the latest drawing patch() kept for it, and lets patch() write again. */
export function thaw(el) {
  const pending = frozen.get(el);
  if (!pending) return;
  frozen.delete(el);
  if (pending.node) patchNode(el, pending.node);
  if (pending.children) patchChildren(el, pending.children);
}

function flatten(children, out) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flatten(c, out);
    else if (c instanceof DocumentFragment) out.push(...c.childNodes);
    else out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

/** Returns whether a node now in `parent` has listeners from h(), or holds one that has. */
function patchChildren(parent, next) {
  let old = parent.firstChild;
  let live = false;
  for (const node of next) {
    if (old && sameKind(old, node)) {
      live = patchNode(old, node) || live;
      old = old.nextSibling;
    } else {
      live = listening.has(node) || live;
      if (old) {
        const after = old.nextSibling;
        parent.replaceChild(node, old);
        old = after;
      } else {
        parent.append(node);
      }
    }
  }
  while (old) {
    const after = old.nextSibling;
    old.remove();
    old = after;
  }
  return live;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType === Node.TEXT_NODE) return true;
  if (a.nodeType !== Node.ELEMENT_NODE) return false;
  return (
    a.localName === b.localName &&
    a.namespaceURI === b.namespaceURI &&
    !opaque.has(a.localName) &&
    !a.localName.includes("-") &&
    !a.shadowRoot &&
    !b.shadowRoot
  );
}

// Styles go property by property through the CSSOM, as h() sets them: a strict
// Content-Security-Policy (embed.html's) blocks a written style attribute, and in Chromium
// writing one on an element in the page costs about 40 times as much (a table cell's --w:
// 120 µs against 4 µs).
function patchStyle(old, next) {
  for (let i = old.length - 1; i >= 0; i -= 1) if (!next.getPropertyValue(old[i])) old.removeProperty(old[i]);
  for (let i = 0; i < next.length; i += 1) {
    const name = next[i],
      value = next.getPropertyValue(name);
    if (old.getPropertyValue(name) !== value) old.setProperty(name, value, next.getPropertyPriority(name));
  }
}

/**
 * Writes `node` into `old`; returns whether `old` now has listeners or holds one that has, which
 * it records (`listening`), so that a later drawing without them still visits and removes them.
 */
function patchNode(old, node) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== node.data) old.data = node.data;
    return false;
  }
  const pending = frozen.get(old);
  if (pending) {
    // The whole node is meant: it replaces children kept before it.
    pending.node = node;
    pending.children = null;
    return listening.has(old);
  }
  const hook = patchHooks.get(node);
  if (hook) node = hook(old) ?? node;
  const key = shows.get(node);
  // The same part as the node shows already: nothing to compare.
  if (key !== undefined && shows.get(old) === key && !listening.has(old)) return false;
  if (key !== undefined) shows.set(old, key);
  else shows.delete(old);
  // Nothing differs below (one native comparison), and no listener is to be moved: done.
  if (!listening.has(node) && !listening.has(old) && old.isEqualNode(node)) return false;
  for (const name of old.getAttributeNames())
    if (name !== "style" && !node.hasAttribute(name)) old.removeAttribute(name);
  for (const name of node.getAttributeNames()) {
    const value = node.getAttribute(name);
    if (name !== "style" && old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  if ((old.getAttribute("style") ?? "") !== (node.getAttribute("style") ?? "")) patchStyle(old.style, node.style);
  const had = listeners.get(old),
    has = listeners.get(node);
  if (had || has) {
    for (const [type, fn] of had ?? []) old.removeEventListener(type, fn);
    for (const [type, fn] of has ?? []) old.addEventListener(type, fn);
    if (has) listeners.set(old, has);
    else listeners.delete(old);
  }
  const live = patchChildren(old, [...node.childNodes]) || Boolean(has);
  if (live) listening.add(old);
  else listening.delete(old);
  return live;
}

// --- parts drawn once ------------------------------------------------------------------------
// Much of a figure's drawing does not change from one input to the next: a chart's axes and
// grid while only its marker moves, the rows of its data table while the curve stays. A part
// built with part(key, build) is built by h() the first time its key is asked for, and is a
// native copy of that drawing afterwards; patch() leaves a node of the page that already shows
// the same key as it is, without comparing it. The key must name everything the part depends
// on, and the part must have no listener and no id (it may be copied into several figures).

/** The key of the part each node shows: the copies part() returns, and the nodes patched with them. */
const shows = new WeakMap();
const parts = new Map(); // key → the part as first built, the most recently used last
const PARTS_KEPT = 400;

/** A part of a drawing that depends only on `key` (a string), built by build() when not kept. */
export function part(key, build) {
  let node = parts.get(key);
  if (node) parts.delete(key);
  else {
    node = build();
    if (listening.has(node)) throw new Error("part(): a part cannot hold listeners (a copy would not have them)");
    if (parts.size >= PARTS_KEPT) parts.delete(parts.keys().next().value);
  }
  parts.set(key, node);
  const copy = node.cloneNode(true);
  shows.set(copy, key);
  return copy;
}

// --- numbers written into cells ----------------------------------------------------------------
// A table whose shape stays while its numbers change (a figure's matrix as an input moves) is
// built once per shape and then written into: each cell's text and style change in place, and
// only where they differ, which costs a fraction of building the table again for patch().

/**
 * A table of rows × cols number cells: { table, caption, cells } where cells[i][j] is the <td>
 * of row i and column j. `head` gives each column's header (or null for none) and `corner` the
 * text above the row headers, `rowHead` each row's header, `cellClass` the cells' class,
 * `attrs` the table's other attributes; `captioned: false` leaves the caption out. `fixed(i, j)`
 * may return a cell of its own for a place that holds no number (cells[i][j] is then null).
 * Fill it with write(). What is written goes straight into the cells: a table inside a frozen
 * node (freeze) is for patch() to draw, not for this.
 * @param {{ className: string, rows: number, cols: number, head?: ((j: number) => any) | null,
 *   corner?: string | null, rowHead: (i: number) => any, cellClass?: string | null,
 *   attrs?: Record<string, any>, captioned?: boolean, fixed?: (i: number, j: number) => Node | null }} spec
 */
export function cellTable({
  className,
  rows,
  cols,
  head = null,
  corner = null,
  rowHead,
  cellClass = null,
  attrs = {},
  captioned = true,
  fixed = () => null,
}) {
  const caption = captioned ? h("caption") : null;
  const cells = [];
  const body = h(
    "tbody",
    {},
    Array.from({ length: rows }, (_, i) => {
      const own = Array.from({ length: cols }, (_, j) => fixed(i, j));
      const tds = own.map((node) => (node ? null : h("td", { class: cellClass })));
      cells.push(tds);
      return h(
        "tr",
        {},
        h("th", { scope: "row" }, rowHead(i)),
        own.map((node, j) => node ?? tds[j]),
      );
    }),
  );
  const thead = head
    ? h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", { class: corner === null ? null : "corner" }, corner),
          Array.from({ length: cols }, (_, j) => h("th", { scope: "col" }, head(j))),
        ),
      )
    : null;
  return { table: h("table", { class: className, ...attrs }, caption, thead, body), caption, cells };
}

/** Writes `text` into an element, and each style property of `style`, where they differ. */
export function write(el, text, style) {
  if (el.textContent !== text) el.textContent = text;
  if (style)
    for (const name in style)
      if (el.style.getPropertyValue(name) !== style[name]) el.style.setProperty(name, style[name]);
}

/** A subscripted symbol: sym("w", "1 3") → w₁₃ as <var>w</var><sub>1 3</sub>. */
export function sym(name, sub, sup) {
  return h(
    "span",
    { class: "sym" },
    h("var", {}, name),
    sub !== undefined ? h("sub", {}, sub) : null,
    sup !== undefined ? h("sup", {}, sup) : null,
  );
}

let uid = 0;
/** A page-unique id for label/aria wiring inside widgets. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}
