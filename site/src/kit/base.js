// The kit every widget shares (Distill-style custom elements).
//
// A widget declares its attributes once (static `attributes`, see attributes.js) and keeps its
// whole state in one object, `this.state`, keyed by the attributes' camelCase names. Its HTML
// attributes, the reader's URL, embed.html's query and its own controls all read and write that
// object: attributes through attributeChangedCallback, a page through applySettings(), controls
// through set(). After every change the widget recomputes with the core and redraws (changes of
// its attributes made by one script together, once the script is done: _redrawSoon); bad input
// shows a message that names the parameter and keeps the last good figure. When it has first
// rendered it sets data-ready on itself and resolves `ready`; it emits "llm-change" after every
// render. Every widget's element carries data-figure, its figure's name in the registry
// (figures.js; "" for a widget the registry does not name), set when it is first connected: the
// one attribute by which a page's styles select the figures, whatever their tags.
//
// For a screen reader each figure has one polite live region (visually hidden) and nothing else
// live: once the reader pauses (ANNOUNCE_DELAY after the last change, never at each slider
// step, not at the first render) it says the widget's summary(), one sentence with the key
// numbers, or the error that kept the figure from updating. Until its first render a figure
// shows "Computing the figure…", and says so aloud if it is on screen and still computing after
// COMPUTING_DELAY (a slow device); if the engine cannot start, the figure says so in words in
// the same place, and emits "llm-engine-error" (the reader page then shows one notice).
//
// Everything a widget draws lives in its (open) shadow root with the kit's and its own styles
// as constructed style sheets (allowed under a strict style-src): the host page's styles do not
// reach inside, and the widget's styles do not reach out. Building clears the shadow root, so a
// saved copy of a page, or an element moved in the document, never shows a widget twice.
//
// A subclass provides:
//   static attributes         its declarations
//   static styles             its own CSS text (imported from <concept>.css), optional
//   static presetFields(name) the state fields a preset sets, when it declares a preset
//   normalize(state, notes)   optional: makes fields consistent (shapes, index ranges) in place
//   build()                   builds controls and figure into this.frame, once
//   sync()                    sets the controls from this.state (after any outside change)
//   compute()                 calls the core with this.state, returns the result; may throw
//   render(result)            draws the result, one way: described with h() and written into
//                             the page by patch() (dom.js), each part that depends on few
//                             inputs wrapped in keep(deps, build); a core call most inputs
//                             leave alone goes through memo(name, deps, compute)
//   summary(result, { concealed }) one sentence with the result's key numbers, for the live
//                             region; with `concealed` (an exercise hides the figure's answer)
//                             it must not state the numbers the exercise asks for
import { loadCore } from "../core.js";
import { placeInAddress } from "../place.js";
import { readToItsEnd, showDrawing } from "../drawing.js";
import { sheetFor } from "../sheets.js";
import { h } from "../dom.js";
import {
  declarationNamed,
  namesOf,
  parseValue,
  settingsToState,
  shown,
  shownNames,
  SLIDE_HEIGHT,
  unknownAttributeNotes,
  VIEW_ATTRIBUTES,
  stateDiff,
  stateKey,
} from "./attributes.js";
import { figureNameOf, figureOf } from "../widgets/figures.js";
import { followScheme, unfollowScheme } from "./scheme.js";
import { tokensCss } from "../tokens.js";
import widgetCss from "./widget.css";
import plotCss from "./plot.css";

const kitCss = `${tokensCss()}\n${widgetCss}\n${plotCss}`;

// A figure's summary is spoken this long after the last change (ms): a reader dragging a slider
// or typing a number hears the figure once they pause, not at every step.
const ANNOUNCE_DELAY = 700;
// A figure on screen that has not drawn this long after it started (ms) says it is computing:
// the engine is still starting, as on a slow device; on a fast one nothing is said.
const COMPUTING_DELAY = 600;
const COMPUTING = "Computing the figure…";

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
  // A sheet another part gave the root before (an exercise's, answer.js, given a figure whose
  // root the page was built with) stays, after the widget's.
  if ("adoptedStyleSheets" in root) {
    const own = texts.map(sheetFor);
    root.adoptedStyleSheets = [...own, ...root.adoptedStyleSheets.filter((s) => !own.includes(s))];
  } else root.append(...texts.map((t) => h("style", {}, t)));
  return root;
}

// --- starting figures when they are needed ---------------------------------------------------
// A figure starts (builds its controls, then draws with the engine) when it comes within a screen
// of the viewport. One further down waits until the reader scrolls near it: a reader's phone does
// the work of the figures the reader comes to, when they come, and a deep link's own figure is
// drawn first. drawNow() starts and draws a figure at once (printing does so for every figure,
// since paper has no scrolling). Where IntersectionObserver is missing, figures start at once.
// A page opened at a place (page.html#section) is shown from its top until the parser has read
// that place and the browser has scrolled there: figures seen near the top meanwhile wait, and are
// asked again once the place is there, so the place's own figures are the ones drawn first.
let observer = null;
/** @type {Set<Element>} figures near the screen while the page's place was still to come */
const deferred = new Set();

// A narrow figure: its frame carries .llm-narrow while the room its page gives it is under 22rem
// (a phone's frame, a notebook's output column) and .llm-narrower under 18rem, for the rules that
// tighten its tables and fields so that one that nearly fits fits (widget.css and the figures'
// styles). The room is the width of the figure's parent, less the frame's own padding and border:
// a figure that takes its content's width (the reader's opening figure, beside its caption; a
// host's inline-block or flex item) is as wide as its tables need, and narrowing them there only
// made it taller than the room the first screen holds for it. (A figure given a width of its own
// in a wide parent is not narrowed: its tables scroll.) Measured here rather than by a container
// query: a container does not count its content in its own width, so such a figure shrank around
// a table's box made one.
const NARROW_REM = 22;
const NARROWER_REM = 18;
let widths = null;
/** The room `frame`'s page gives its figure, in px, less the frame's padding and border; 0 before layout. */
function roomOf(frame) {
  const own = frame.getBoundingClientRect().width;
  if (own === 0) return 0; // not laid out (a section off the screen, content-visibility: auto)
  const style = getComputedStyle(frame);
  const edges = own - frame.clientWidth + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const parent = /** @type {ShadowRoot} */ (frame.getRootNode()).host?.parentElement;
  if (!parent) return own - edges;
  const outer = getComputedStyle(parent);
  const inner = parent.clientWidth - parseFloat(outer.paddingLeft) - parseFloat(outer.paddingRight);
  return Math.max(inner, own) - edges;
}
/** Starts keeping `frame`'s narrow classes true to its room (see above). */
function watchWidth(frame) {
  if (typeof ResizeObserver !== "function") return;
  widths ??= new ResizeObserver((entries) => {
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    for (const { target } of entries) {
      const room = roomOf(/** @type {HTMLElement} */ (target));
      if (room === 0) continue;
      target.classList.toggle("llm-narrow", room < NARROW_REM * rem);
      target.classList.toggle("llm-narrower", room < NARROWER_REM * rem);
    }
  });
  widths.observe(frame);
}

/**
 * Whether the page's fragment names a place the page has not come to yet while it is being read:
 * not read yet, or read but not scrolled into view (the browser scrolls there at a frame of its
 * own, up to its load). Once the page has loaded, figures go by where the page is.
 */
function placeToCome() {
  if (document.readyState === "complete") return false;
  const { id } = placeInAddress();
  if (!id) return false;
  const place = document.getElementById(id);
  if (!place) return true;
  const box = place.getBoundingClientRect();
  return box.top >= innerHeight || box.bottom <= 0;
}

function askAgainWhenPlaceIsRead() {
  if (!placeToCome()) {
    // the page is at its place: the figures are asked afresh where they are now
    for (const el of deferred) {
      observer.unobserve(el);
      observer.observe(el);
    }
    deferred.clear();
  } else requestAnimationFrame(askAgainWhenPlaceIsRead);
}

function whenNeeded(widget) {
  if (typeof IntersectionObserver !== "function") return queueMicrotask(() => widget.start());
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        if (placeToCome()) {
          if (!deferred.size) requestAnimationFrame(askAgainWhenPlaceIsRead);
          deferred.add(e.target);
          continue;
        }
        observer.unobserve(e.target);
        /** @type {LlmWidget} */ (e.target).start();
      }
    },
    { rootMargin: "100% 0px" },
  );
  observer.observe(widget);
}

// First drawings, one per task, in the order the figures started: figures that start together
// (those of the first screen, or of a page of figures) then leave the page free to paint and to
// answer the reader between them, rather than drawing all in one long task.
/** @type {LlmWidget[]} */
const drawQueue = [];
let pumping = false;
/** @type {MessageChannel | null} a task each, without setTimeout's clamping; made when first needed */
let tasks = null;
function nextTask() {
  if (!tasks && typeof MessageChannel === "function") {
    tasks = new MessageChannel();
    tasks.port1.onmessage = drawNext;
  }
  if (tasks) tasks.port2.postMessage(null);
  else setTimeout(drawNext, 0);
}
function queueDraw(widget) {
  drawQueue.push(widget);
  if (pumping) return;
  pumping = true;
  nextTask();
}
function drawNext() {
  drawQueue.shift()?._firstDraw();
  if (drawQueue.length) nextTask();
  else pumping = false;
}
/** The engine once loaded (a figure that draws at once, for print, needs it without waiting). */
let loadedCore = null;

/**
 * Why the engine did not start, in one short clause: the two usual causes in words, otherwise
 * the error without Emscripten's "Aborted(…)" wrapper and advice to rebuild, cut at 120 characters.
 */
function engineReason(error) {
  const text = String(error?.message ?? error);
  if (typeof WebAssembly !== "object") return "this browser has WebAssembly turned off";
  // Chromium names the policy and 'unsafe-eval'; Firefox says "blocked by CSP"
  if (/Content.Security.Policy|unsafe-eval|blocked by CSP/i.test(text))
    return "the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'";
  const bare = text
    .replace(/\s*Build with -s\w+.*$/s, "")
    .replace(/^Aborted\((.*)\)[.\s]*$/s, "$1")
    .trim();
  return bare.length > 120 ? `${bare.slice(0, 119)}…` : bare || "no reason given";
}

// The figure that is saying "computing" or that the engine failed, so that a page with several
// figures on screen says each once, not once per figure.
let speaking = null;
let failureSaid = false;

export class LlmWidget extends HTMLElement {
  static attributes = [];
  static styles = "";
  /**
   * The state fields preset `_name` sets; none here, a widget with presets overrides it.
   * @param {string} _name
   * @returns {Record<string, any>}
   */
  static presetFields(_name) {
    return {};
  }

  static get observedAttributes() {
    return [...this.attributes.flatMap(namesOf), ...VIEW_ATTRIBUTES.map((d) => d.name)];
  }

  constructor() {
    super();
    this.core = null;
    this.result = null;
    this.root = null;
    this.state = null;
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve) => (this._resolveReady = resolve));
    this._pageSettings = [];
    this._memos = new Map(); // memo(): each name → { key, value } of its last computation
    /** @type {Set<string>} the notes already written to the console (_showNotes) */
    this._logged = new Set();
    /** @type {HTMLElement | undefined} "Computing the figure…" over a drawing the page was built with */
    this._waiting = undefined;
  }

  connectedCallback() {
    if (this._connected) {
      watchWidth(this.frame);
      if (!this._started) whenNeeded(this); // moved before it started
      followScheme(this, this.view.scheme); // moved: the page it is on now
      return;
    }
    this._connected = true;
    // A saved copy of a page carries the data-ready its figures had: it is set again when drawn.
    this.removeAttribute("data-ready");
    this.setAttribute("data-figure", figureNameOf(this.localName) ?? "");
    this.frame = h("div", { class: "llm-frame", part: "frame" });
    watchWidth(this.frame);
    // "Skip this figure", first in the figure and shown while it has the focus: one key press
    // past every control of the figure (a figure has tens; the chapter has eleven figures), to
    // the end mark after them, from which Tab goes on in the page. The mark is a Tab stop only
    // while the skip has put the focus there (from an element out of the tab order, Chromium's
    // Tab starts again at the shadow root's first); otherwise Tab from the figure's last control
    // leaves the figure, with no extra stop at its end.
    this.skipEnd = h(
      "span",
      {
        class: "llm-skip llm-skip-end",
        tabindex: "-1",
        onblur: (/** @type {FocusEvent} */ e) =>
          /** @type {HTMLElement} */ (e.currentTarget).setAttribute("tabindex", "-1"),
      },
      "End of the figure",
    );
    this.skip = h(
      "button",
      {
        type: "button",
        class: "llm-skip",
        onclick: () => {
          this.skipEnd.setAttribute("tabindex", "0");
          this.skipEnd.focus();
        },
      },
      "Skip this figure",
    );
    this._attachRoot();
    this.state = this._stateFrom([]).state;
    this._readView();
    this.actions = h(
      "div",
      { class: "llm-actions" },
      h("button", { type: "button", class: "llm-reset", onclick: () => this.reset() }, "Reset"),
    );
    this.panel = h("div", { class: "llm-panel", hidden: true });
    this.notesEl = h("p", { class: "llm-notes", hidden: true });
    // The status line shows errors; they are spoken through the live region, the figure's only one.
    this.status = h("p", { class: "llm-status" });
    this.live = h("p", {
      class: "llm-live visually-hidden",
      role: "status",
      "aria-live": "polite",
      "aria-atomic": "true",
    });
    this._pending = h("p", { class: "llm-pending" }, COMPUTING);
    this.frame.append(this._pending, this.live);
    // The state is known at once (attributes, links and the API read and write it); building
    // the controls and computing waits until the figure comes near the screen, so a long page
    // shows its first screen without drawing every figure first.
    whenNeeded(this);
  }

  /**
   * Gives the figure its shadow root, styled, with its elements in it. The reader's pages carry
   * each figure's first drawing, made by the core at build time (site/prerender.mjs), in a
   * <noscript data-drawing> (text, where scripts run); first-screen.js may have shown it in
   * the root already (src/drawing.js): then it stays until the figure's own first drawing replaces
   * it (_showLive). A figure with such a drawing gets its elements, or its drawing, when it starts
   * (_placeParts).
   */
  _attachRoot() {
    const drawn = this.hasAttribute("data-prerendered");
    // The sheets a drawing shown before this script ran was given (first-screen.js): taken away
    // with the drawing (_showLive).
    /** @type {CSSStyleSheet[]} */
    this._drawingSheets = drawn && this.shadowRoot ? [...this.shadowRoot.adoptedStyleSheets] : [];
    this.root = styledRoot(this, /** @type {typeof LlmWidget} */ (this.constructor).styles, drawn);
    for (const type of KEY_EVENTS) this.root.addEventListener(type, keepKey);
    this._prerendered = drawn && this.root.childElementCount > 0;
    if (!drawn) this.root.append(this.skip, this.frame, this.skipEnd);
  }

  /**
   * Once started, where the figure's elements go for a figure the page was built with a drawing
   * for: nowhere yet if its drawing is shown; otherwise, while the engine is still loading, its
   * drawing is shown meanwhile (the parser must have read the element to its end, for its
   * drawing to be whole); else the elements. Returns false to be asked again at the next frame.
   */
  _placeParts() {
    if (!this.hasAttribute("data-prerendered") || this._prerendered || this.frame.parentNode === this.root) return true;
    if (this.root.childElementCount > 0) return (this._prerendered = true);
    if (!loadedCore) {
      if (!readToItsEnd(this)) return false;
      if (this._showDrawing()) return true;
    }
    this.root.append(this.skip, this.frame, this.skipEnd);
    return true;
  }

  /**
   * Shows the figure's drawing from the build now, if it has one not shown and has not placed its
   * own elements yet; returns the style sheets the drawing brought, or null where none was shown.
   * first-screen.js (reader-head.js's bundle) asks this of a figure this script has already taken,
   * rather than show the drawing itself: the figure then knows the drawing's sheets, and takes
   * them away with it (_showLive).
   */
  _showDrawing() {
    if (!this.root || this._prerendered || this.frame.parentNode === this.root || this.core) return null;
    const given = showDrawing(this);
    if (given) {
      this._drawingSheets.push(...given);
      this._prerendered = true;
    }
    return given;
  }

  /** The figure's name as its caption gives it ("Figure 5.1"), or "" where it has none. */
  captionName() {
    const caption = this.closest("figure")?.querySelector("figcaption strong")?.textContent ?? "";
    return caption.trim().replace(/[.:]$/, "");
  }

  /**
   * Builds the controls, then computes and draws with the core (once, when first needed). The
   * placeholder stays until the first result is drawn.
   */
  start() {
    if (this._started || !this._connected) return;
    // its drawing still being read (_placeParts): asked again at the next frame
    if (!this._placeParts()) return void requestAnimationFrame(() => this.start());
    this._started = true;
    // Named as its caption names it, where it stands in a <figure> ("Skip Figure 5.1").
    const name = this.captionName();
    if (name) {
      this.skip.textContent = `Skip ${name}`;
      this.skipEnd.textContent = `End of ${name}`;
    }
    try {
      this.build();
      this.sync();
    } catch (error) {
      // A widget that cannot build still says why, and its `ready` still settles. Only the
      // placeholder goes: what a page added to the frame meanwhile (an exercise's note) stays.
      this._unbuilt = true;
      this._showLive();
      this._pending.remove();
      this.frame.append(this.notesEl, this.status, this.actions, this.panel);
      this.showError(`This figure could not be built: ${error?.message ?? error}.`);
      this._resolveReady();
      return;
    }
    this.frame.append(this.notesEl, this.status, this.actions, this.panel);
    // A slider's <output> is a live region by its implicit role (status): it would speak at every
    // step, on top of the slider's own value. The figure's summary speaks once the reader pauses.
    for (const out of this.frame.querySelectorAll("output")) out.setAttribute("aria-live", "off");
    this._showNotes();
    this._computingTimer = setTimeout(() => {
      this._showWaiting();
      if (speaking?.isConnected || !this._onScreen()) return;
      speaking = this;
      this._said = COMPUTING;
      this.live.textContent = COMPUTING;
    }, COMPUTING_DELAY);
    loadCore().then(
      (core) => {
        loadedCore = core;
        queueDraw(this);
      },
      (error) => {
        this._showLive();
        this.engineError = engineReason(error);
        this._settle(
          `This figure cannot run: the engine did not start (${this.engineError}). The text and the answers still read.`,
        );
        this.dispatchEvent(
          new CustomEvent("llm-engine-error", { bubbles: true, detail: { message: this.engineError } }),
        );
        this._resolveReady();
      },
    );
  }

  /** The figure's first drawing, once the engine is loaded (from the queue, or drawNow). */
  _firstDraw() {
    if (this.core || !loadedCore || this._unbuilt) return;
    this.core = loadedCore;
    this._showLive();
    this.update();
    this._settle();
    this.setAttribute("data-ready", "");
    this._resolveReady();
  }

  /**
   * The figure's own elements in its shadow root in place of the drawing the page was built with
   * (if any), in the same task as its first drawing or its error: nothing is painted between.
   */
  _showLive() {
    if (!this._prerendered) return;
    this._prerendered = false;
    this.root.adoptedStyleSheets = this.root.adoptedStyleSheets.filter((s) => !this._drawingSheets.includes(s));
    // the live region back in the frame, after the placeholder, where the figure keeps it
    if (this.live.parentNode !== this.frame)
      if (this._pending.parentNode === this.frame) this._pending.after(this.live);
      else this.frame.prepend(this.live);
    // The narrow classes (watchWidth) as the drawing's frame has them, the classes of the width it
    // was drawn at: taken now rather than at the live frame's first measurement, a layout later,
    // which moved what is around a figure that takes its content's width twice (the opening
    // figure's caption, a layout shift of 0.06 on the first screen).
    const drawn = [...this.root.children].find((el) => el !== this.frame && el.classList.contains("llm-frame"));
    for (const name of ["llm-narrow", "llm-narrower"])
      this.frame.classList.toggle(name, drawn?.classList.contains(name) ?? false);
    this.root.replaceChildren(this.skip, this.frame, this.skipEnd);
  }

  /**
   * A figure shown by the drawing the page was built with that has not drawn after
   * COMPUTING_DELAY (a slow device, an engine slow to start): "Computing the figure…" over the
   * drawing's top, taking no room, so that a reader who tries its controls, which do not answer
   * yet, knows why; and the figure's live region beside it, out of the inert drawing, to say so.
   */
  _showWaiting() {
    if (!this._prerendered) return;
    this._waiting ??= h("p", { class: "llm-pending llm-waiting" }, h("span", {}, COMPUTING));
    this.root.prepend(this.live, this._waiting);
  }

  /**
   * Starts the figure and draws it now, without waiting to come near the screen or for its turn:
   * at once where the engine is loaded (so that a print handler's figures are on the paper), else
   * as soon as it is.
   */
  drawNow() {
    this.start();
    if (this._started) this._firstDraw();
  }

  /**
   * After the first attempt to draw: the placeholder goes, or says why the figure cannot run
   * (`failure`). A figure that said it was computing then says its summary. A failure is said
   * aloud by the first figure on screen only: the others show it, and the reader page says it
   * once at its top.
   */
  /** @param {string} [failure] */
  _settle(failure) {
    clearTimeout(this._computingTimer);
    const saidComputing = this._said === COMPUTING;
    if (speaking === this) speaking = null;
    if (failure) {
      this._pending.textContent = failure;
      this._pending.classList.add("llm-error");
      if ((saidComputing || this._onScreen()) && !failureSaid) {
        failureSaid = true;
        this.live.textContent = failure;
      }
      return;
    }
    this._pending.remove();
    this._settled = true;
    if (saidComputing) this._announce();
  }

  /** Whether the figure is in view now (asked only of a figure still computing, or failing). */
  _onScreen() {
    const box = this.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight && box.height > 0;
  }

  disconnectedCallback() {
    clearTimeout(this._announceTimer);
    unfollowScheme(this);
    widths?.unobserve(this.frame);
    // A figure removed before it started is no longer waited for, nor does it follow its page's
    // scheme. Nothing else of a widget lives outside its own element; subclasses that listen
    // elsewhere remove their listeners here.
    if (!this._started) {
      observer?.unobserve(this);
      deferred.delete(this);
    }
  }

  attributeChangedCallback(name, before, after) {
    if (!this._connected || before === after) return;
    if (VIEW_ATTRIBUTES.some((d) => d.name === name)) {
      this._readView();
      this._showNotes();
      return;
    }
    const decl = declarationNamed(/** @type {typeof LlmWidget} */ (this.constructor).attributes, name);
    // A former name (an alias) changed where the element also has the name: the name wins.
    if (name !== decl.name && this.hasAttribute(decl.name)) return;
    if (decl.preset || after === null) {
      // A new preset, or a removed attribute: start again from the attributes (a removed name
      // leaves its former name, if the element has it, in force).
      this.state = this._stateFrom(this._pageSettings).state;
      this._redrawSoon();
      return;
    }
    const parsed = parseValue(decl, after);
    if ("value" in parsed) {
      const next = { ...this.state, [stateKey(decl.name)]: parsed.value };
      const notes = [];
      this.normalize(next, notes);
      this.state = next;
      this.notes = notes;
      this._redrawSoon();
    } else {
      this.notes = [`${name}="${shown(after)}" ignored: ${parsed.error}.`];
      this._showNotes();
    }
  }

  /**
   * The widget's attributes as a Map from name to string, each under its declared name: an
   * attribute written by a former name (an alias) counts when the name itself is absent.
   */
  attributeSettings() {
    const out = new Map();
    for (const d of /** @type {typeof LlmWidget} */ (this.constructor).attributes) {
      const name = namesOf(d).find((n) => this.hasAttribute(n));
      if (name !== undefined) out.set(d.name, this.getAttribute(name));
    }
    return out;
  }

  /**
   * The state from the declarations, this element's attributes and then `sources` (later
   * wins), normalised. Sets this.notes to what was ignored.
   */
  _stateFrom(sources) {
    const cls = /** @type {typeof LlmWidget} */ (this.constructor);
    const { state, notes } = settingsToState(cls.attributes, [this.attributeSettings(), ...sources], (p) =>
      cls.presetFields(p),
    );
    this.normalize(state, notes);
    // A misspelt attribute name is reported as a misspelt value is, not silently ignored.
    notes.unshift(...unknownAttributeNotes(cls.attributes, this.getAttributeNames()));
    this.notes = notes;
    return { state, notes };
  }

  /**
   * Makes the state's fields consistent, in place, adding a note for each change (subclasses).
   * @type {(state?: Record<string, any>, notes?: string[]) => void}
   */
  normalize() {}

  /**
   * Applies settings a page carries (the reader's URL): a Map from attribute name to string,
   * over this element's attributes. Unknown names and bad values are reported in the widget.
   */
  applySettings(settings, unknown = []) {
    this._pageSettings = [settings];
    const { state, notes } = this._stateFrom([settings]);
    this.state = state;
    const ignored = unknown.length === 1 ? "is not a setting" : "are not settings";
    this.notes = [...(unknown.length ? [`${shownNames(unknown)} ${ignored} of this figure; ignored.`] : []), ...notes];
    if (this._connected) this._redraw();
  }

  /**
   * The settings that reproduce the current state: [name, string] pairs, relative to this
   * element's attributes (`relativeTo: "attributes"`, for a link to this page) or to the
   * declared defaults (`"defaults"`, for embed code that carries every setting).
   */
  settings(relativeTo = "attributes") {
    const cls = /** @type {typeof LlmWidget} */ (this.constructor);
    const presetDecl = cls.attributes.find((d) => d.preset);
    const sources = relativeTo === "attributes" ? [this.attributeSettings()] : [];
    if (presetDecl) sources.push(new Map([[presetDecl.name, String(this.state[stateKey(presetDecl.name)])]]));
    const base = settingsToState(cls.attributes, sources, (p) => cls.presetFields(p)).state;
    this.normalize(base, []);
    const diff = stateDiff(cls.attributes, this.state, base);
    // The preset names the starting point of every other setting: keep it whenever it differs
    // from where the comparison started.
    if (presetDecl && !diff.some(([n]) => n === presetDecl.name)) {
      const start = settingsToState(
        cls.attributes,
        relativeTo === "attributes" ? [this.attributeSettings()] : [],
        (p) => cls.presetFields(p),
      ).state;
      const name = stateKey(presetDecl.name);
      if (start[name] !== this.state[name]) diff.unshift([presetDecl.name, String(this.state[name])]);
    }
    return diff;
  }

  /**
   * Merges a change into the state, then recomputes. From the widget's own controls the state is
   * always consistent; with `report` (a changed attribute) what normalize() had to change, if
   * anything, replaces the notes shown.
   */
  set(patch, { sync = false, report = false } = {}) {
    const next = { ...this.state, ...patch };
    const notes = [];
    this.normalize(next, notes);
    this.state = next;
    if (report) {
      this.notes = notes;
      this._showNotes();
    }
    if (sync && this._started) this.sync();
    this.update();
  }

  /** Back to the state its attributes (and the page's settings, if any) describe. */
  reset() {
    this._pageSettings = [];
    this.state = this._stateFrom([]).state;
    this._redraw();
  }

  /** After the state was replaced from outside: notes, controls and figure follow it. */
  _redraw() {
    this._showNotes();
    if (!this._started) return;
    this.sync();
    this.update();
  }

  /**
   * After attributes changed: the state is already theirs, and the notes, controls and figure
   * follow once, when the script that changed them is done (a microtask), however many it
   * changed: a host page setting 1,000 attributes in a loop costs one computation and drawing.
   */
  _redrawSoon() {
    if (this._redrawQueued) return;
    this._redrawQueued = true;
    queueMicrotask(() => {
      this._redrawQueued = false;
      this._redraw();
    });
  }

  /** Adds buttons to the widget's action bar: [{ label, run }] (the reader's Copy link, …). */
  addActions(actions) {
    for (const { label, run, className } of actions) {
      this.actions.append(h("button", { type: "button", class: className, onclick: () => run(this) }, label));
    }
  }

  /** Shows text to copy in the widget's panel (selected), with a label and a close button. */
  showPanel(label, text) {
    const area = h("textarea", { readonly: true, rows: Math.min(8, text.split("\n").length + 1), "aria-label": label });
    area.value = text;
    this.panel.replaceChildren(
      h(
        "div",
        { class: "llm-panel-head" },
        h("strong", {}, label),
        h("button", { type: "button", onclick: () => (this.panel.hidden = true) }, "Close"),
      ),
      area,
    );
    this.panel.hidden = false;
    area.focus();
    area.select();
    return area;
  }

  /**
   * Shows, in the widget's panel under `label`, texts to copy one at a time: for each form its
   * label, a sentence on when to use it, the text and a Copy button, which copies that text
   * alone and says so (or selects it where the clipboard is refused). Focus goes to the first.
   */
  showForms(label, forms) {
    const parts = forms.map((f) => {
      const area = h("textarea", {
        readonly: true,
        rows: Math.min(8, f.text.split("\n").length + 1),
        "aria-label": f.label,
      });
      area.value = f.text;
      const said = h("span", { class: "llm-copied", role: "status" });
      const copy = h(
        "button",
        {
          type: "button",
          onclick: async () => {
            const copied = await navigator.clipboard?.writeText(f.text).then(
              () => true,
              () => false,
            );
            said.textContent = copied ? "Copied." : "Select the text and copy it.";
            if (!copied) {
              area.focus();
              area.select();
            }
          },
        },
        `Copy ${f.label.toLowerCase()}`,
      );
      return h(
        "div",
        { class: "llm-form" },
        h("p", {}, h("strong", {}, f.label), ` ${f.when}`),
        area,
        h("p", {}, copy, " ", said),
      );
    });
    this.panel.replaceChildren(
      h(
        "div",
        { class: "llm-panel-head" },
        h("strong", {}, label),
        h("button", { type: "button", onclick: () => (this.panel.hidden = true) }, "Close"),
      ),
      ...parts,
    );
    this.panel.hidden = false;
    const first = /** @type {HTMLTextAreaElement} */ (parts[0].querySelector("textarea"));
    first.focus();
    first.select();
    return parts;
  }

  /** Builds the controls and figure skeleton into this.root (subclasses). */
  build() {}

  /** Sets the controls from this.state (subclasses). */
  sync() {}

  /** Computes with this.core and returns the result to draw; throws on bad input (subclasses). */
  compute() {
    return null;
  }

  /**
   * Draws a result (subclasses).
   * @type {(result: any) => void}
   */
  render() {}

  /**
   * What compute() returns for inputs `deps` (compared as JSON), computed again only when they
   * differ from the last time `name` was asked for: a core call whose inputs most changes leave
   * alone (a curve over the offsets while only the positions move). `deps` must name everything
   * compute() reads that can change.
   * @template T
   * @param {string} name
   * @param {any[]} deps
   * @param {() => T} compute
   * @returns {T}
   */
  memo(name, deps, compute) {
    const key = JSON.stringify(deps);
    const last = this._memos.get(name);
    if (last?.key === key) return last.value;
    const value = compute();
    this._memos.set(name, { key, value });
    return value;
  }

  /**
   * One sentence with a result's key numbers, for the live region (subclasses; see the top).
   * @type {(result: any, options: { concealed: boolean }) => string}
   */
  summary() {
    return "";
  }

  /**
   * Recomputes and redraws; on an error keeps the last good figure and says what was wrong. A
   * figure has no last good figure before its first drawing: when the core refuses that, the
   * figure falls back to what its attributes alone give, then to the declared defaults, draws
   * the first the core accepts, and says in its notes what was not drawn.
   */
  update() {
    if (!this.core || !this._started) return;
    let result;
    try {
      result = this.compute();
      this.result = result;
      this.render(result);
    } catch (error) {
      if (this.result === null && this._drawFallback(`${error?.message ?? error}`)) return;
      this.showError(`Not updated: ${error?.message ?? error}.`);
      return;
    }
    this.clearError();
    // The first drawing is not announced: a page of figures would otherwise speak all at once.
    if (this._settled) this._announce();
    this.dispatchEvent(new CustomEvent("llm-change", { bubbles: true, detail: result }));
  }

  /**
   * After a refused first computation (`reason`, the core's message): the state from the
   * attributes alone, else from the declared defaults, the first that differs from the refused
   * one; the notes keep what they said and add what was not drawn. Returns whether one was tried
   * (update() then draws it, or says why not).
   */
  _drawFallback(reason) {
    const cls = /** @type {typeof LlmWidget} */ (this.constructor);
    const refused = JSON.stringify(this.state);
    const fromAttributes = () => this._stateFrom([]).state;
    const fromDefaults = () => {
      const { state } = settingsToState(cls.attributes, [], (p) => cls.presetFields(p));
      this.normalize(state, []);
      return state;
    };
    const notes = this.notes ?? [];
    for (const { fallback, what } of [
      { fallback: fromAttributes, what: "the figure's own settings" },
      { fallback: fromDefaults, what: "the defaults" },
    ]) {
      const state = fallback();
      if (JSON.stringify(state) === refused) continue;
      this._pageSettings = [];
      this.state = state;
      this.notes = [...notes, `Not drawn: ${reason}; the figure shows ${what} instead.`];
      this._showNotes();
      this.sync();
      this.update();
      return true;
    }
    this.notes = notes;
    return false;
  }

  /**
   * Whether the figure shows an error now: its last input was refused, so it still draws the
   * last good numbers. A field of the widget, set only here and in clearError(); the status
   * line's class follows it for the styles.
   * @type {boolean}
   */
  get failed() {
    return this._failed === true;
  }

  showError(message) {
    this._failed = true;
    this.status.textContent = message;
    this.status.classList.add("llm-error");
    if (this._settled) this._announce(message);
  }

  /**
   * Says `text`, or else the summary of the figure's latest result, once no change has come for
   * ANNOUNCE_DELAY: every change restarts the wait, so only the last is spoken.
   */
  _announce(text) {
    clearTimeout(this._announceTimer);
    this._announceTimer = setTimeout(() => {
      let said = text;
      if (said === undefined) {
        try {
          said = this.result ? this.summary(this.result, { concealed: this.hasAttribute("data-predict-first") }) : "";
        } catch {
          said = ""; // a summary that cannot be written says nothing rather than break the figure
        }
      }
      this._said = said;
      this.live.textContent = said;
    }, ANNOUNCE_DELAY);
  }

  clearError() {
    this._failed = false;
    this.status.textContent = "";
    this.status.classList.remove("llm-error");
  }

  /**
   * The view attributes that differ from their defaults, as [name, string] pairs for embed code:
   * one at the value it takes written bare as ["compact", ""] (written <llm-x compact>, ?compact).
   */
  viewSettings() {
    return VIEW_ATTRIBUTES.filter((d) => this.view[stateKey(d.name)] !== d.default).map((d) => {
      const value = String(this.view[stateKey(d.name)]);
      return [d.name, value === /** @type {{ bare?: string }} */ (d).bare ? "" : value];
    });
  }

  /**
   * Reads the view attributes (attributes.js: VIEW_ATTRIBUTES, the same for every figure) into
   * this.view, { compact, scheme } ("false", "true" or "slide"; "auto", "light" or "dark"), a bad value noted in this.viewNotes and replaced by its
   * default; then lets the figure follow them (viewChanged). Not state: nothing here redraws.
   */
  _readView() {
    const view = {};
    const notes = [];
    for (const d of VIEW_ATTRIBUTES) {
      const raw = this.getAttribute(d.name);
      // a view attribute present without a value (<llm-x compact>) takes its bare value
      const parsed =
        raw === null ? { value: d.default } : raw === "" && "bare" in d ? { value: d.bare } : parseValue(d, raw);
      if ("value" in parsed) view[stateKey(d.name)] = parsed.value;
      else {
        view[stateKey(d.name)] = d.default;
        notes.push(`${d.name}="${shown(raw)}" ignored: ${parsed.error}.`);
      }
    }
    this.view = view;
    this.viewNotes = notes;
    this.viewChanged();
  }

  /**
   * Called after this.view changed (and once when the figure is connected); the kit's own hook:
   * the figure takes its scheme, pinned or its page's (scheme.js sets data-scheme), and is
   * whole, compact or slide-sized (the classes llm-compact and llm-slide on its frame, which
   * compactCss's rules select).
   */
  viewChanged() {
    followScheme(this, this.view.scheme);
    this.frame?.classList.toggle("llm-compact", this.view.compact !== "false");
    this.frame?.classList.toggle("llm-slide", this.view.compact === "slide");
  }

  _showNotes() {
    const all = [...(this.viewNotes ?? []), ...(this.notes ?? [])];
    this.notesEl.textContent = all.length ? `Settings: ${all.join(" ")}` : "";
    this.notesEl.hidden = !all.length;
    // Each note is also written to the console, once per figure, for an author reading it there.
    for (const note of all) {
      if (this._logged.has(note)) continue;
      this._logged.add(note);
      console.warn(`<${this.localName}${this.id ? ` id="${this.id}"` : ""}>: ${note}`);
    }
  }
}
