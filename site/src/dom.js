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
      el.appendChild(c);
    } else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces an element's children (building the keep() parts among them). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  holds.delete(el);
  resolve(el);
  return el;
}

// --- redrawing in place ---------------------------------------------------------------------
// A figure has one way to redraw: at every input it describes what it shows with h(), and
// patch() writes that description into the nodes already on the page. Swapping new nodes in
// would make the browser restyle and lay out every one of them (a table of 300 cells: several
// ms a frame); patch() keeps the nodes there and writes into them only what differs (a cell's
// text, a bar's height), so only that is restyled, and what the reader focused, scrolled or
// hovers stays the same node. What depends on few inputs is wrapped in keep(key, build): patch()
// calls build() only when the node in its place shows another key, so a part whose inputs did
// not change is neither built nor compared.

/** The listeners h() attached to an element, by event type, so that patch() can move them. */
const listeners = new WeakMap();
/** Elements made by h() that have listeners, or hold one that has (patch() must visit them). */
const listening = new WeakSet();
let listened = 0; // listeners attached so far: a part built while it grew holds one
function listen(el, type, fn) {
  listened += 1;
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
  hooked += 1;
}
let hooked = 0; // hooks registered so far: a part built while it grew holds one

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
 * Makes an element's children `children` (nodes, strings, arrays, fragments, keep() parts,
 * null), as fill() does, but writing into the nodes already there where they are of the same
 * kind, in order. The new nodes must not be used afterwards: they are taken apart (use fill()
 * for nodes a widget keeps a reference to).
 */
export function patch(el, ...children) {
  const next = flatten(children, []);
  if (frozen.has(el)) frozen.get(el).children = next;
  else patchChildren(el, next);
  return el;
}

// --- parts kept while their key stays ---------------------------------------------------------
// keep(key, build) stands for the drawing build() returns, which must depend on nothing but
// `key` (an array of the inputs it reads, compared as JSON, or a string). It is a placeholder
// until patch() meets it: if the node in its place shows the same key, patch() leaves that node
// as it is, without building or comparing anything; otherwise it builds the part and writes it
// in like any other. A part that is an element's only child may be several nodes (the key is
// then the element's: patch(box, keep(key, () => [a, b]))); among other children it is one node.
// A part may hold listeners: the ones on the page were made from the same key.

/** Placeholders made by keep() → { key, build }. */
const keeps = new WeakMap();
let marked = 0; // placeholders made so far: a part built while it grew holds one
/** The key of the part each node shows (a part among other children). */
const shows = new WeakMap();
/** The key of the part each element's children are, with whether they hold listeners. */
const holds = new WeakMap();

/**
 * A part of a drawing that depends only on `key`: built by build() when patch() does not find
 * it on the page already.
 * @param {string | any[]} key
 * @param {() => any} build
 * @returns {Comment}
 */
export function keep(key, build) {
  marked += 1;
  const mark = document.createComment("keep");
  keeps.set(mark, { key: typeof key === "string" ? key : JSON.stringify(key), build });
  return mark;
}

/** The one node a part among other children is. */
function built(key, build) {
  const node = flatten([build()], []);
  if (node.length !== 1) throw new Error("keep(): a part among other children must be one node");
  shows.set(node[0], key);
  return node[0];
}

// A reader dragging a slider back and forth asks for drawings a place showed a moment ago. Each
// place (the element a part is drawn in) remembers the last DRAWINGS_KEPT parts it showed, and a
// part asked for again is a native copy of its remembered drawing instead of a new build with
// h(). What is remembered is the drawing itself, as built: patch() only reads a drawing it
// writes into nodes of the same kind, so one written without inserting any of its nodes is
// intact afterwards (nothing is copied for a part asked for once). A copy has no listeners,
// patch hooks or observers, so a part is remembered only when it holds none of the first two
// (and no keep() inside), and a copy is used only to write into nodes of the same kind, which
// keep their own. Keys are per place: two figures may use the same key for different parts.

/** Each place → Map of key → the remembered drawing (its nodes), the most recently used last. */
const drawings = new WeakMap();
const DRAWINGS_KEPT = 24;
let inserted = 0; // nodes patch() has put on the page rather than written into others

/**
 * Writes part `part` into `place` with write(nodes), which returns what patchChildren() does:
 * a copy of the remembered drawing when each of its nodes fits the node now in its place
 * (`olds`), else a new build, remembered if it can be copied and came through intact.
 * `single`: the part must be one node (it is among other children).
 */
function drawPart(place, part, olds, single, write) {
  let kept = drawings.get(place);
  const remembered = kept?.get(part.key);
  if (remembered && remembered.length === olds.length && remembered.every((n, i) => olds[i] && sameKind(olds[i], n))) {
    kept.delete(part.key);
    kept.set(part.key, remembered);
    return write(
      remembered.map((n) => {
        const copy = n.cloneNode(true);
        if (single) shows.set(copy, part.key);
        return copy;
      }),
    );
  }
  const marks = marked,
    hooks = hooked,
    heard = listened;
  const nodes = single ? [built(part.key, part.build)] : flatten([part.build()], []);
  const copiable = marks === marked && hooks === hooked && heard === listened;
  const before = inserted;
  const live = write(nodes);
  if (copiable && inserted === before) {
    if (!kept) drawings.set(place, (kept = new Map()));
    if (kept.size >= DRAWINGS_KEPT) kept.delete(kept.keys().next().value);
    kept.set(part.key, nodes);
  }
  return live;
}

/**
 * Builds the parts inside `root`, a drawing about to be put on the page as it is (nothing there
 * to write into): each placeholder is replaced by its part. Marks the elements that now hold
 * listeners (a part's) up to `root`.
 */
function resolve(root) {
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  const marks = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  while (walker.nextNode()) if (keeps.has(walker.currentNode)) marks.push(walker.currentNode);
  for (const mark of marks) {
    const { key, build } = keeps.get(mark);
    const parent = /** @type {Element} */ (mark.parentNode);
    const alone = parent.childNodes.length === 1;
    const nodes = alone ? flatten([build()], []) : [built(key, build)];
    mark.replaceWith(...nodes);
    let live = false;
    for (const node of nodes) {
      resolve(node);
      live = listening.has(node) || live;
    }
    if (alone) holds.set(parent, { key, live });
    if (live)
      for (let p = parent; p && p !== root.parentNode; p = /** @type {Element} */ (p.parentNode)) listening.add(p);
  }
}

// --- frozen nodes ---------------------------------------------------------------------------
// A node the reader cannot read for now (an exercise blurs the readouts that would give its
// answer away) need not follow every redraw: written into at each input, its blur was
// rasterised again each time, which in Chromium without a GPU was about 4 of the 9 ms an input's
// frame took to raster and draw. While a node is frozen, patch() keeps the latest drawing meant
// for it (the node itself, or its children) and writes it in when the node is thawed.

/** Frozen nodes → { node, children }: what patch() last meant to write into each, if anything. */
const frozen = new WeakMap();

/**
 * Freezes `el`: patch() leaves it as it is, keeping what it would have written, until thaw(el).
 * With `withhold`, what it shows of numbers is held back too (withhold()), not only left as it was.
 */
export function freeze(el, { withhold: hold = false } = {}) {
  if (!frozen.has(el)) frozen.set(el, { node: null, children: null });
  if (hold) withhold(el);
}

/** Thaws `el`: puts back what withhold() held back, writes in the latest drawing patch() kept for it, and lets patch() write again. */
export function thaw(el) {
  restore(el);
  const pending = frozen.get(el);
  if (!pending) return;
  frozen.delete(el);
  if (pending.node) patchNode(el, pending.node);
  if (pending.children) patchChildren(el, pending.children);
}

// --- withheld numbers -------------------------------------------------------------------------
// Blurred text is still text: selected, copied, searched for, read by a reader's own tools or
// printed. A readout that states an exercise's answer is withheld until the reader commits: each
// digit in its text and in the attributes that say something (title, alt, value, aria-label and
// the like) becomes "•", and the custom properties of its inline style (a heat-map cell's
// --w: 1 is its weight) are taken out. What was there is kept per node and put back by restore().
// Anything written into a withheld node afterwards must be withheld again by whoever wrote it
// (conceal.js watches its figure for that); withhold() is idempotent.

/** Withheld roots → Map(node → its text, or { attribute: value }, before it was withheld). */
const held = new WeakMap();

/** Attributes whose value a reader or their tools may read as a statement. */
const TELLING = /^(title|alt|value|label|aria-(?!hidden$|labelledby$|describedby$|controls$|owns$).+|data-.+)$/;
const DIGITS = /\d/g;

/** Holds back the numbers `el` and everything in it show (see above); returns `el`. */
export function withhold(el) {
  let kept = held.get(el);
  if (!kept) held.set(el, (kept = new Map()));
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = /** @type {Node | null} */ (el); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = /** @type {Text} */ (node);
      if (!/\d/.test(text.data)) continue;
      kept.set(text, text.data);
      text.data = text.data.replace(DIGITS, "•");
      continue;
    }
    const e = /** @type {HTMLElement} */ (node);
    let attrs = /** @type {Record<string, string | null> | undefined} */ (kept.get(e));
    for (const a of [...e.attributes]) {
      if (!(TELLING.test(a.name) && /\d/.test(a.value))) continue;
      if (!attrs) kept.set(e, (attrs = {}));
      attrs[a.name] = a.value;
      e.setAttribute(a.name, a.value.replace(DIGITS, "•"));
    }
    // Through the style object, as the figures set them: a page's policy may refuse style attributes.
    for (const name of [...(e.style ?? [])]) {
      if (!name.startsWith("--")) continue;
      if (!attrs) kept.set(e, (attrs = {}));
      attrs[name] = e.style.getPropertyValue(name);
      e.style.removeProperty(name);
    }
  }
  return el;
}

/** Puts back what withhold() held back in `el` (what was drawn there since is withheld again by its writer). */
export function restore(el) {
  const kept = held.get(el);
  if (!kept) return;
  held.delete(el);
  for (const [node, was] of kept) {
    if (!el.contains(node)) continue;
    if (typeof was === "string") /** @type {Text} */ (node).data = was;
    else
      for (const [name, value] of Object.entries(was)) {
        if (name.startsWith("--")) /** @type {HTMLElement} */ (node).style.setProperty(name, value);
        else /** @type {Element} */ (node).setAttribute(name, value);
      }
  }
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
  if (next.length === 1 && keeps.has(next[0])) {
    // The element's only child is a part: its children are that part already, or become it.
    const part = keeps.get(next[0]);
    const held = holds.get(parent);
    if (held?.key === part.key) return held.live;
    const live = drawPart(parent, part, [...parent.childNodes], false, (nodes) => patchChildren(parent, nodes));
    holds.set(parent, { key: part.key, live });
    return live;
  }
  holds.delete(parent);
  let old = parent.firstChild;
  /** Writes `node` into the node in its place, or puts it there; returns whether it now has listeners. */
  const put = (node) => {
    if (old && sameKind(old, node)) {
      const into = old;
      old = old.nextSibling;
      return patchNode(into, node);
    }
    inserted += 1;
    resolve(node);
    if (old) {
      const after = old.nextSibling;
      parent.replaceChild(node, old);
      old = after;
    } else {
      parent.append(node);
    }
    return listening.has(node);
  };
  let live = false;
  for (const node of next) {
    const part = keeps.get(node);
    if (!part) live = put(node) || live;
    else if (old && shows.get(old) === part.key) {
      live = listening.has(old) || live;
      old = old.nextSibling;
    } else live = drawPart(parent, part, [old], true, ([n]) => put(n)) || live;
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

// --- tables of numbers ---------------------------------------------------------------------------

/**
 * A table of rows × cols cells, drawn with h() like any other part of a figure: `cell(i, j)`
 * gives the <td> of row i and column j, `rowHead(i)` each row's header, `head(j)` each column's
 * header (none without it) and `corner` the text above the row headers; `caption` (optional)
 * its caption and `attrs` the table's other attributes. With `rowKey(i)`, the inputs row i
 * depends on, each row is a part of its own (keep()): an input that changes one row of numbers
 * builds that row alone.
 * @param {{ className: string, rows: number, cols: number, cell: (i: number, j: number) => Node,
 *   rowHead: (i: number) => any, head?: ((j: number) => any) | null, corner?: string | null,
 *   caption?: any, attrs?: Record<string, any>, rowKey?: ((i: number) => any[]) | null }} spec
 */
export function gridTable({
  className,
  rows,
  cols,
  cell,
  rowHead,
  head = null,
  corner = null,
  caption,
  attrs = {},
  rowKey = null,
}) {
  const columns = Array.from({ length: cols }, (_, j) => j);
  return h(
    "table",
    { class: className, ...attrs },
    caption === undefined ? null : h("caption", {}, caption),
    head
      ? h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", { class: corner === null ? null : "corner" }, corner),
            columns.map((j) => h("th", { scope: "col" }, head(j))),
          ),
        )
      : null,
    h(
      "tbody",
      {},
      Array.from({ length: rows }, (_, i) => {
        const row = () =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, rowHead(i)),
            columns.map((j) => cell(i, j)),
          );
        return rowKey ? keep(["row", i, rowKey(i)], row) : row();
      }),
    ),
  );
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
