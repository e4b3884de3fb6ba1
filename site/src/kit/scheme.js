// A figure's colour scheme: its element's data-scheme, "light" or "dark", on which the tokens'
// styles select (src/tokens.js). The figure's scheme attribute "light" or "dark" pins it; "auto"
// follows the page the figure is on, resolved here in this order:
//   1. a theme the page declares in an attribute of its <html> or <body>, as the common themes
//      do: Material for MkDocs' data-md-color-scheme ("slate" is dark, "default" light);
//      data-theme "light" or "dark" (pydata-sphinx-theme, sphinx-book-theme, Furo, whose "auto"
//      decides nothing); the class "dark" (VitePress, Tailwind); Bootstrap's data-bs-theme;
//   2. the page's own color-scheme, when it names one scheme: the computed color-scheme of <html>
//      ("light" or "dark", not "normal" nor "light dark"), else its <meta name="color-scheme">;
//   3. the background the figure sits on: the nearest ancestor with an opaque background colour,
//      dark below the luminance DARK_BELOW;
//   4. the reader's system setting (prefers-color-scheme).
// Every figure that follows its page is kept here; one MutationObserver on <html> and <body> and
// one listener of the system setting, shared by all of them, resolve them again when the page
// changes its theme (a palette toggle), so no figure needs a reload. Nothing is watched once no
// figure follows the page.

const DARK_QUERY = "(prefers-color-scheme: dark)";
// The attributes by which themes switch (step 1) or restyle the page (style: color-scheme).
const WATCHED = ["class", "style", "data-theme", "data-md-color-scheme", "data-bs-theme"];
// The relative luminance (WCAG 2) at which black and white text have the same contrast with a
// background, (L + 0.05) / 0.05 = 1.05 / (L + 0.05): √(1.05 · 0.05) − 0.05 ≈ 0.179. Below it light
// text reads better, as the dark palette has it.
const DARK_BELOW = Math.sqrt(1.05 * 0.05) - 0.05;

/** @typedef {"light" | "dark"} Scheme */

/** The figures that follow their page (scheme="auto"). @type {Set<HTMLElement>} */
const following = new Set();
/** @type {MutationObserver | null} */
let observer = null;
/** @type {HTMLElement | null} the <body> the observer watches */
let watchedBody = null;
/** @type {MediaQueryList | null} */
let system = null;

/**
 * Sets `el`'s data-scheme from its scheme attribute's value ("auto", "light" or "dark") and, for
 * "auto", keeps it following the page until unfollowScheme(el).
 */
export function followScheme(el, scheme) {
  if (scheme === "light" || scheme === "dark") {
    following.delete(el);
    if (!following.size) unwatch();
    show(el, scheme);
    return;
  }
  following.add(el);
  watch();
  // Resolved with every figure connected before the next frame, at that frame: each resolution
  // reads computed styles, which a page still being read restyles for (one forced style update
  // per figure cost tens of ms of a load); the frame's own style update serves them all.
  settling.add(el);
  if (!settleQueued) requestAnimationFrame(settle);
  settleQueued = true;
}

/** The figures connected since the last frame, to resolve at the next (followScheme). */
const settling = new Set();
let settleQueued = false;
function settle() {
  settleQueued = false;
  const now = [...settling].filter((el) => following.has(el)).map((el) => [el, resolveScheme(el)]);
  settling.clear();
  for (const [el, scheme] of now) show(el, scheme);
}

/** `el` no longer follows its page (it left the document). */
export function unfollowScheme(el) {
  following.delete(el);
  settling.delete(el);
  if (!following.size) unwatch();
}

/** The scheme that "auto" gives `el` where it is now (the steps above, in order). */
export function resolveScheme(el) {
  return declaredTheme() ?? declaredColorScheme() ?? backgroundScheme(el) ?? systemScheme();
}

function show(el, scheme) {
  if (el.getAttribute("data-scheme") !== scheme) el.setAttribute("data-scheme", scheme);
}

function update() {
  if (document.body !== watchedBody) watchBody();
  for (const el of following) show(el, resolveScheme(el));
}

function watch() {
  if (observer) {
    if (document.body !== watchedBody) watchBody();
    return;
  }
  observer = new MutationObserver(update);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: WATCHED });
  watchBody();
  system = matchMedia(DARK_QUERY);
  system.addEventListener("change", update);
}

/** Watches the document's <body> too (a figure can connect before the parser reaches it). */
function watchBody() {
  watchedBody = document.body;
  if (observer && watchedBody) observer.observe(watchedBody, { attributes: true, attributeFilter: WATCHED });
}

function unwatch() {
  observer?.disconnect();
  system?.removeEventListener("change", update);
  observer = null;
  watchedBody = null;
  system = null;
}

// --- 1. the theme's attributes -----------------------------------------------------------------

/** @returns {Scheme | null} */
function declaredTheme() {
  const html = document.documentElement;
  const body = document.body;
  const md = body?.getAttribute("data-md-color-scheme") ?? html.getAttribute("data-md-color-scheme");
  if (md === "slate") return "dark";
  if (md === "default") return "light";
  for (const name of ["data-theme", "data-bs-theme"]) {
    for (const node of [html, body]) {
      const v = node?.getAttribute(name)?.trim().toLowerCase();
      if (v === "light" || v === "dark") return v;
    }
  }
  if (html.classList.contains("dark") || body?.classList.contains("dark")) return "dark";
  return null;
}

// --- 2. the page's color-scheme ----------------------------------------------------------------

/** @returns {Scheme | null} */
function declaredColorScheme() {
  const computed = one(getComputedStyle(document.documentElement).colorScheme);
  if (computed) return computed;
  const meta = document.querySelector('meta[name="color-scheme"]');
  return meta ? one(meta.getAttribute("content")) : null;
}

/** "dark" for "dark" or "only dark", "light" likewise; null for "normal", "light dark", none. */
function one(value) {
  const words = (value ?? "")
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "only");
  return words.length === 1 && (words[0] === "light" || words[0] === "dark") ? /** @type {Scheme} */ (words[0]) : null;
}

// --- 3. the background -------------------------------------------------------------------------

/** @returns {Scheme | null} */
function backgroundScheme(el) {
  // From the element's parent outwards, out of a shadow root through its host.
  for (let n = parentOf(el); n; n = parentOf(n)) {
    const rgba = rgbaOf(getComputedStyle(n).backgroundColor);
    if (rgba && rgba[3] >= 1) return luminance(rgba) < DARK_BELOW ? "dark" : "light";
  }
  return null;
}

/** @returns {Element | null} */
function parentOf(n) {
  if (n.parentElement) return n.parentElement;
  const root = n.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** @type {CanvasRenderingContext2D | null | undefined} */
let probe;
/**
 * A computed colour as [r, g, b, a] (0–255 and 0–1), or null. Computed colours are rgb() or
 * rgba() in the browsers targeted; one in another space (oklch(), color()) is drawn on a pixel.
 */
function rgbaOf(value) {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(value);
  if (m) {
    const a = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
    return [Number(m[1]), Number(m[2]), Number(m[3]), a];
  }
  if (!value || value === "transparent") return null;
  probe ??= document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  if (!probe) return null;
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = value;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}

/** Relative luminance (WCAG 2) of an sRGB colour ([r, g, b, …], 0–255), 0 (black) to 1 (white). */
function luminance(/** @type {number[]} */ [r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

// --- 4. the system -----------------------------------------------------------------------------

/** @returns {Scheme} */
function systemScheme() {
  return matchMedia(DARK_QUERY).matches ? "dark" : "light";
}
