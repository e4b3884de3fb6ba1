// A figure's frame, the parts of it that are the kit's and not the figure's (LlmWidget, base.js):
// its shadow root's style sheets (the kit's, the widget's own and its compact view's:
// styleTexts, styledRoot), the keys that stay in it (keepKeys), "Skip this figure" and the end
// mark it skips to (skipLinks), and the rows every figure has: the placeholder, the live region,
// the notes, the status line, the action bar with Reset, and the panel (kitRows). The element
// places them: the skip links about its frame in its root, the rows in its frame (base.js).
import { h } from "../dom.js";
import { sheetFor } from "../sheets.js";
import { tokensCss } from "../tokens.js";
import { figureOf } from "../widgets/figures.js";
import { COMPUTING } from "./announce.js";
import { SLIDE_HEIGHT } from "./attributes.js";
import plotCss from "./plot.css";
import widgetCss from "./widget.css";

const kitCss = `${tokensCss()}\n${widgetCss}\n${plotCss}`;

// Keys pressed in a figure stay in the figure. A host page's shortcut handlers listen on the
// document and look at the event's target or document.activeElement, which outside the shadow
// root are the <llm-…> element, never the field inside it: so a host took every key typed into a
// figure for a shortcut (MkDocs' n/p/s/?, Material's n/p/s/f and /, Sphinx's / and arrow keys,
// the book theme's arrows turning the page). The shadow root stops keyboard events on their way
// out, once the figure's own controls have had them; Escape and Tab go on, so a host's dialog
// still closes and focus still moves out (Tab's move is the browser's, not a handler's).
const KEY_EVENTS = ["keydown", "keypress", "keyup"];
const PASSING_KEYS = new Set(["Escape", "Tab"]);
function keepKey(event) {
  if (!PASSING_KEYS.has(event.key)) event.stopPropagation();
}
/**
 * Keeps the keys pressed in `root` in it (see above).
 * @param {ShadowRoot} root
 */
export function keepKeys(root) {
  for (const type of KEY_EVENTS) root.addEventListener(type, keepKey);
}

// A compact figure (the view attribute compact) keeps its chart and its main controls: it hides
// the parts its figure's declaration lists (figures.js: compact.hides, selectors within .llm-frame) and
// the kit's actions (downloads, copies, embed code). One style sheet per figure, made once.
// At the slide size (compact="slide") it is also at most SLIDE_HEIGHT tall: what is below scrolls
// within the frame, and the main controls (.llm-bar, sticky) stay at its top, on the slide.
const KIT_COMPACT = ["> .llm-actions", "> .llm-panel"];
const compactSheets = new Map();
function compactCss(tag) {
  let css = compactSheets.get(tag);
  if (css === undefined) {
    const parts = [...(figureOf(tag)?.compact.hides ?? []), ...KIT_COMPACT];
    css = `${parts.map((sel) => `.llm-frame.llm-compact ${sel}`).join(",\n")} { display: none !important; }
.llm-frame.llm-slide { box-sizing: border-box; max-height: ${SLIDE_HEIGHT}px; overflow-y: auto; }`;
    compactSheets.set(tag, css);
  }
  return css;
}

/**
 * The style sheets' texts of a widget `tag` whose own styles are `css`: the kit's, its own, and its
 * compact view's. The build gives the drawings it puts in the reader's pages the same
 * (site/prerender.mjs).
 */
export function styleTexts(tag, css) {
  return [kitCss, ...(css ? [css] : []), compactCss(tag)];
}

/**
 * Attaches (or clears) an element's open shadow root styled by the kit's CSS and `css`. With
 * `keep`, what the root holds stays: a drawing the page was built with (LlmWidget's prerender),
 * shown until the figure's own replaces it.
 */
export function styledRoot(el, css, keep = false) {
  const root = el.shadowRoot ?? el.attachShadow({ mode: "open" });
  if (!keep) root.replaceChildren();
  const texts = styleTexts(el.localName, css);
  // A sheet another part gave the root before (an exercise's, conceal.js, given a figure whose
  // root the page was built with) stays, after the widget's.
  if ("adoptedStyleSheets" in root) {
    const own = texts.map(sheetFor);
    root.adoptedStyleSheets = [...own, ...root.adoptedStyleSheets.filter((s) => !own.includes(s))];
  } else root.append(...texts.map((t) => h("style", {}, t)));
  return root;
}

/**
 * "Skip this figure", first in the figure and shown while it has the focus: one key press past
 * every control of the figure (a figure has tens; the chapter has eleven figures), to the end
 * mark after them (`end`), from which Tab goes on in the page. The mark is a Tab stop only while
 * the skip has put the focus there (from an element out of the tab order, Chromium's Tab starts
 * again at the shadow root's first); otherwise Tab from the figure's last control leaves the
 * figure, with no extra stop at its end.
 */
export function skipLinks() {
  const end = h(
    "span",
    {
      class: "llm-skip llm-skip-end",
      tabindex: "-1",
      onblur: (/** @type {FocusEvent} */ e) =>
        /** @type {HTMLElement} */ (e.currentTarget).setAttribute("tabindex", "-1"),
    },
    "End of the figure",
  );
  const skip = h(
    "button",
    {
      type: "button",
      class: "llm-skip",
      onclick: () => {
        end.setAttribute("tabindex", "0");
        end.focus();
      },
    },
    "Skip this figure",
  );
  return { skip, end };
}

/**
 * The rows of `widget`'s frame that are the kit's: the action bar (with Reset), the panel, the
 * notes, the status line (errors, spoken through the live region, the figure's only one), the
 * live region itself (visually hidden) and the placeholder, "Computing the figure…".
 * @param {import("./base.js").LlmWidget} widget
 */
export function kitRows(widget) {
  return {
    actions: h(
      "div",
      { class: "llm-actions" },
      h("button", { type: "button", class: "llm-reset", onclick: () => widget.reset() }, "Reset"),
    ),
    panel: h("div", { class: "llm-panel", hidden: true }),
    notes: h("p", { class: "llm-notes", hidden: true }),
    status: h("p", { class: "llm-status" }),
    live: h("p", {
      class: "llm-live visually-hidden",
      role: "status",
      "aria-live": "polite",
      "aria-atomic": "true",
    }),
    pending: h("p", { class: "llm-pending" }, COMPUTING),
  };
}

/**
 * After the figure has built its own elements into its frame: the kit's rows after them, and its
 * sliders' outputs made not live. A slider's <output> is a live region by its implicit role
 * (status): it would speak at every step, on top of the slider's own value. The figure's summary
 * speaks once the reader pauses (announce.js).
 * @param {import("./base.js").LlmWidget} widget
 */
export function finishFrame(widget) {
  widget.frame.append(widget.notesEl, widget.status, widget.actions, widget.panel);
  for (const out of widget.frame.querySelectorAll("output")) out.setAttribute("aria-live", "off");
}
