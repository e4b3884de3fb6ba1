// The colour scheme and fonts of every page and every widget, declared once: reader.css,
// embed.css (the build prepends tokensCss to them) and the widgets' shadow roots (frame.js adopts
// it before the kit's styles) all start with the CSS made here, so the chapter and its figures
// share one palette in the light and the dark scheme.
//
// Each colour is written once, as [light, dark] (one value: the same in both); tokensCss writes
// them as custom properties (--bg, --fg, …) and chooses the dark values
//   - on a page (:root) when the reader's system is dark (prefers-color-scheme), unless the page
//     says data-scheme="light" (embed.html?scheme=light), and when it says data-scheme="dark";
//   - on a figure when its element carries data-scheme="dark", which the kit sets from the
//     figure's scheme attribute, or for scheme="auto" from the page it is on (kit/scheme.js);
//     a figure that has none yet (not connected) follows the system, as a page does.
// Pure data and one function of it: the build reads them too.

/** name → [light, dark], or one value for both. */
export const COLOURS = Object.freeze({
  bg: ["#fdfcf9", "#16171a"],
  fg: ["#1d1d1f", "#e8e6e1"],
  muted: ["#5f6368", "#a3a6ab"],
  rule: ["#d9d6cf", "#3a3c41"],
  panel: ["#f4f2ec", "#1f2125"],
  accent: ["#1f5fbf", "#7fb0ff"],
  "accent-2": ["#c2410c", "#fb923c"],
  heat: ["31, 95, 191", "127, 176, 255"],
  // the strongest heat-map shade that keeps the cell's text at 4.5:1 contrast (WCAG AA)
  "heat-max": ["0.5", "0.4"],
  // three things a figure greys out, a token each so that each can be told apart: keys hidden
  // by the causal mask, tokens a sampler removed (top-k, top-p), distractor keys
  mask: ["#6b6b6b", "#9c9c9c"],
  removed: ["#6b6b6b", "#9c9c9c"],
  distractor: ["#6b6b6b", "#9c9c9c"],
  error: ["#b3261e", "#ff8a80"],
  focus: "#f59e0b",
  // shadows: under a bar that stays on screen, at the edge of a box that scrolls
  shade: ["rgba(0, 0, 0, 0.28)", "rgba(0, 0, 0, 0.75)"],
});

/** name → font stack, the same in both schemes. */
export const FONTS = Object.freeze({
  serif: '"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif',
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif',
  mono: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace',
});

/** The colour `name` in `scheme` ("light" or "dark"), as tokensCss writes it. */
export function colour(name, scheme) {
  const v = COLOURS[name];
  return typeof v === "string" ? v : v[scheme === "dark" ? 1 : 0];
}

const declarations = (entries) => entries.map(([name, value]) => `  --${name}: ${value};`).join("\n");

/**
 * The tokens as CSS for a document (:root) and for a shadow root (:host) alike. color-scheme
 * goes with the palette, so that form controls and scroll bars match it: a page without a
 * data-scheme has the system's, as one word, "light" or "dark" (written "light dark" it rendered
 * the same, but a figure that follows its page, kit/scheme.js, could not read the page's scheme
 * from it and read the background behind each figure instead: the styles of every section the
 * browser skips, content-visibility: auto, worked out one after another at the reader's load).
 * Paper is light whatever the screen's scheme.
 */
export function tokensCss() {
  const names = Object.keys(COLOURS);
  const light = declarations([...names.map((n) => [n, colour(n, "light")]), ...Object.entries(FONTS)]);
  const dark = `${declarations(names.filter((n) => typeof COLOURS[n] !== "string").map((n) => [n, colour(n, "dark")]))}\n  color-scheme: dark;`;
  const paper = `${declarations(names.map((n) => [n, colour(n, "light")]))}\n  color-scheme: light;`;
  return `/* made by site/src/tokens.js */
:root, :host {
${light}
}
:root, :root[data-scheme="light"], :host([data-scheme="light"]) { color-scheme: light; }
@media (prefers-color-scheme: dark) {
  :root:not([data-scheme="light"]), :host(:not([data-scheme])) {
${dark}
  }
}
:root[data-scheme="dark"], :host([data-scheme="dark"]) {
${dark}
}
@media print {
  :root, :root[data-scheme], :host, :host([data-scheme]) {
${paper}
  }
}
`;
}
