// The kit every widget shares (Distill-style custom elements).
//
// A widget declares its attributes once (static `attributes`, see attributes.js) and keeps its
// whole state in one object, `this.state`, keyed by the attributes' camelCase names. Its HTML
// attributes, the reader's URL, embed.html's query and its own controls all read and write that
// object: attributes through attributeChangedCallback, a page through applySettings(), controls
// through set(). After every change the widget recomputes with the core and redraws (changes of
// its attributes made by one script together, once the script is done: redrawSoon); bad input
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
//
// The element is made with the kit's modules, each a group of plain functions given the widget:
// frame.js (its styles, skip links and the kit's rows), built-drawing.js (its shadow root, and
// the drawing the page was built with standing in it), starting.js (when it starts and first
// draws), settings.js (its state from its attributes and a page's settings, and back), announce.js
// (what it says aloud) and panel.js (its action bar and panel). Its methods keep their names.
import { h } from "../dom.js";
import { figureNameOf } from "../widgets/figures.js";
import { announce, hush, sayComputingSoon } from "./announce.js";
import { namesOf, VIEW_ATTRIBUTES } from "./attributes.js";
import { attachRoot, placeParts, showDrawing, showLive, showWaiting } from "./built-drawing.js";
import { finishFrame, kitRows, skipLinks } from "./frame.js";
import * as panel from "./panel.js";
import { followScheme, unfollowScheme } from "./scheme.js";
import {
  applyPageSettings,
  attributeChanged,
  attributeSettingsOf,
  drawFallback,
  readView,
  settingsOf,
  showNotes,
  stateFrom,
  viewSettingsOf,
} from "./settings.js";
import { cannotBuild, drawWhenLoaded, engineLoaded, firstDraw, forget, whenNeeded } from "./starting.js";

// The style sheets' texts of a widget, which the build reads from here (site/build.mjs).
export { styleTexts } from "./frame.js";

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
    /** @type {Set<string>} the notes already written to the console (settings.js showNotes) */
    this._logged = new Set();
    /** @type {string | undefined} why the engine did not start, once it has not (starting.js) */
    this.engineError = undefined;
    this._settled = false; // drawn once, and the placeholder gone (announce.js settle)
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
    const { skip, end } = skipLinks();
    this.skip = skip;
    this.skipEnd = end;
    attachRoot(this);
    this.state = this._stateFrom([]).state;
    this._readView();
    const rows = kitRows(this);
    this.actions = rows.actions;
    this.panel = rows.panel;
    this.notesEl = rows.notes;
    this.status = rows.status;
    this.live = rows.live;
    this._pending = rows.pending;
    this.frame.append(this._pending, this.live);
    // The state is known at once (attributes, links and the API read and write it); building
    // the controls and computing waits until the figure comes near the screen, so a long page
    // shows its first screen without drawing every figure first.
    whenNeeded(this);
  }

  /** Where its elements go once started, with a drawing from the build (built-drawing.js). */
  _placeParts() {
    return placeParts(this, engineLoaded() !== null);
  }

  /** Shows the figure's drawing from the build now, if it can (built-drawing.js; first-screen.js). */
  _showDrawing() {
    return showDrawing(this);
  }

  /** The figure's own elements in place of the drawing from the build (built-drawing.js). */
  _showLive() {
    showLive(this);
  }

  /** "Computing the figure…" over the drawing from the build (built-drawing.js). */
  _showWaiting() {
    showWaiting(this);
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
      cannotBuild(this, error); // it says why, and its `ready` still settles
      return;
    }
    finishFrame(this);
    showNotes(this);
    sayComputingSoon(this);
    drawWhenLoaded(this);
  }

  /** The figure's first drawing, once the engine is loaded (from the queue, or drawNow). */
  _firstDraw() {
    firstDraw(this);
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

  disconnectedCallback() {
    hush(this);
    unfollowScheme(this);
    widths?.unobserve(this.frame);
    // A figure removed before it started is no longer waited for, nor does it follow its page's
    // scheme. Nothing else of a widget lives outside its own element; subclasses that listen
    // elsewhere remove their listeners here.
    if (!this._started) forget(this);
  }

  attributeChangedCallback(name, before, after) {
    if (!this._connected || before === after) return;
    attributeChanged(this, name, after);
  }

  /**
   * The widget's attributes as a Map from name to string, each under its declared name: an
   * attribute written by a former name (an alias) counts when the name itself is absent.
   */
  attributeSettings() {
    return attributeSettingsOf(this);
  }

  /**
   * The state from the declarations, this element's attributes and then `sources` (later
   * wins), normalised. Sets this.notes to what was ignored.
   */
  _stateFrom(sources) {
    return stateFrom(this, sources);
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
    applyPageSettings(this, settings, unknown);
  }

  /**
   * The settings that reproduce the current state: [name, string] pairs, relative to this
   * element's attributes (`relativeTo: "attributes"`, for a link to this page) or to the
   * declared defaults (`"defaults"`, for embed code that carries every setting).
   */
  settings(relativeTo = "attributes") {
    return settingsOf(this, relativeTo);
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
      showNotes(this);
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
    showNotes(this);
    if (!this._started) return;
    this.sync();
    this.update();
  }

  /** Adds buttons to the widget's action bar: [{ label, run }] (the reader's Copy link, …). */
  addActions(actions) {
    panel.addActions(this, actions);
  }

  /** Shows text to copy in the widget's panel (selected), with a label and a close button. */
  showPanel(label, text) {
    return panel.showPanel(this, label, text);
  }

  /**
   * Shows, in the widget's panel under `label`, texts to copy one at a time: for each form its
   * label, a sentence on when to use it, the text and a Copy button, which copies that text
   * alone and says so (or selects it where the clipboard is refused). Focus goes to the first.
   */
  showForms(label, forms) {
    return panel.showForms(this, label, forms);
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
   * the first the core accepts, and says in its notes what was not drawn (settings.js).
   */
  update() {
    if (!this.core || !this._started) return;
    let result;
    try {
      result = this.compute();
      this.result = result;
      this.render(result);
    } catch (error) {
      if (this.result === null && drawFallback(this, `${error?.message ?? error}`)) return;
      this.showError(`Not updated: ${error?.message ?? error}.`);
      return;
    }
    this.clearError();
    // The first drawing is not announced: a page of figures would otherwise speak all at once.
    if (this._settled) announce(this);
    this.dispatchEvent(new CustomEvent("llm-change", { bubbles: true, detail: result }));
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
    if (this._settled) announce(this, message);
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
    return viewSettingsOf(this);
  }

  /**
   * Reads the view attributes (attributes.js: VIEW_ATTRIBUTES, the same for every figure) into
   * this.view, { compact, scheme }, a bad value noted in this.viewNotes and replaced by its
   * default; then lets the figure follow them (viewChanged). Not state: nothing here redraws.
   */
  _readView() {
    const { view, notes } = readView(this);
    this.view = view;
    this.viewNotes = notes;
    this.viewChanged();
  }

  /**
   * Called after this.view changed (and once when the figure is connected); the kit's own hook:
   * the figure takes its scheme, pinned or its page's (scheme.js sets data-scheme), and is
   * whole, compact or slide-sized (the classes llm-compact and llm-slide on its frame, which
   * compactCss's rules select, frame.js).
   */
  viewChanged() {
    followScheme(this, this.view.scheme);
    this.frame?.classList.toggle("llm-compact", this.view.compact !== "false");
    this.frame?.classList.toggle("llm-slide", this.view.compact === "slide");
  }
}
