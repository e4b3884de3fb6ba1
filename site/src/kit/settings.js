// A figure's settings and its state (LlmWidget, base.js): the state from the declarations, the
// element's attributes and a page's settings (stateFrom), kept following the attributes as they
// change (attributeChanged); the settings that reproduce a state, for a link or embed code
// (settingsOf, viewSettingsOf); the view attributes, the same for every figure (readView); the
// states a figure falls back to when the core refuses its first (drawFallback); and the notes
// that say what was ignored, in the figure and once in the console (showNotes). The attributes'
// reading and writing is attributes.js's; this is what a widget makes of it.
import {
  declarationNamed,
  namesOf,
  parseValue,
  settingsToState,
  shown,
  shownNames,
  stateDiff,
  stateKey,
  unknownAttributeNotes,
  VIEW_ATTRIBUTES,
} from "./attributes.js";

/** @typedef {import("./base.js").LlmWidget} LlmWidget */

/** @param {LlmWidget} widget */
const classOf = (widget) => /** @type {typeof import("./base.js").LlmWidget} */ (widget.constructor);

/**
 * `widget`'s attributes as a Map from name to string, each under its declared name: an attribute
 * written by a former name (an alias) counts when the name itself is absent.
 * @param {LlmWidget} widget
 */
export function attributeSettingsOf(widget) {
  const out = new Map();
  for (const d of classOf(widget).attributes) {
    const name = namesOf(d).find((n) => widget.hasAttribute(n));
    if (name !== undefined) out.set(d.name, widget.getAttribute(name));
  }
  return out;
}

/**
 * The state from the declarations, `widget`'s attributes and then `sources` (later wins),
 * normalised, with the notes on what was ignored. Sets widget.notes to those.
 * @param {LlmWidget} widget
 * @param {Map<string, string>[]} sources
 */
export function stateFrom(widget, sources) {
  const cls = classOf(widget);
  const { state, notes } = settingsToState(cls.attributes, [widget.attributeSettings(), ...sources], (p) =>
    cls.presetFields(p),
  );
  widget.normalize(state, notes);
  // A misspelt attribute name is reported as a misspelt value is, not silently ignored.
  notes.unshift(...unknownAttributeNotes(cls.attributes, widget.getAttributeNames()));
  widget.notes = notes;
  return { state, notes };
}

/**
 * The settings that reproduce `widget`'s state: [name, string] pairs, relative to its attributes
 * (`relativeTo: "attributes"`) or to the declared defaults (`"defaults"`).
 * @param {LlmWidget} widget
 * @param {string} relativeTo
 */
export function settingsOf(widget, relativeTo) {
  const cls = classOf(widget);
  const presetDecl = cls.attributes.find((d) => d.preset);
  const sources = relativeTo === "attributes" ? [widget.attributeSettings()] : [];
  if (presetDecl) sources.push(new Map([[presetDecl.name, String(widget.state[stateKey(presetDecl.name)])]]));
  const base = settingsToState(cls.attributes, sources, (p) => cls.presetFields(p)).state;
  widget.normalize(base, []);
  const diff = stateDiff(cls.attributes, widget.state, base);
  // The preset names the starting point of every other setting: keep it whenever it differs
  // from where the comparison started.
  if (presetDecl && !diff.some(([n]) => n === presetDecl.name)) {
    const start = settingsToState(
      cls.attributes,
      relativeTo === "attributes" ? [widget.attributeSettings()] : [],
      (p) => cls.presetFields(p),
    ).state;
    const name = stateKey(presetDecl.name);
    if (start[name] !== widget.state[name]) diff.unshift([presetDecl.name, String(widget.state[name])]);
  }
  return diff;
}

/**
 * After `widget`'s attribute `name` changed to `after` (null: removed): a view attribute is read
 * again; any other changes the state, whose notes, controls and figure follow once the script
 * that changed it is done (redrawSoon); a value that does not parse is noted and ignored.
 * @param {LlmWidget} widget
 * @param {string} name
 * @param {string | null} after
 */
export function attributeChanged(widget, name, after) {
  if (VIEW_ATTRIBUTES.some((d) => d.name === name)) {
    widget._readView();
    showNotes(widget);
    return;
  }
  const decl = declarationNamed(classOf(widget).attributes, name);
  // A former name (an alias) changed where the element also has the name: the name wins.
  if (name !== decl.name && widget.hasAttribute(decl.name)) return;
  if (decl.preset || after === null) {
    // A new preset, or a removed attribute: start again from the attributes (a removed name
    // leaves its former name, if the element has it, in force).
    widget.state = widget._stateFrom(widget._pageSettings).state;
    redrawSoon(widget);
    return;
  }
  const parsed = parseValue(decl, after);
  if ("value" in parsed) {
    const next = { ...widget.state, [stateKey(decl.name)]: parsed.value };
    const notes = [];
    widget.normalize(next, notes);
    widget.state = next;
    widget.notes = notes;
    redrawSoon(widget);
  } else {
    widget.notes = [`${name}="${shown(after)}" ignored: ${parsed.error}.`];
    showNotes(widget);
  }
}

/**
 * After attributes changed: the state is already theirs, and the notes, controls and figure
 * follow once, when the script that changed them is done (a microtask), however many it
 * changed: a host page setting 1,000 attributes in a loop costs one computation and drawing.
 * @param {LlmWidget & { _redrawQueued?: boolean }} widget
 */
function redrawSoon(widget) {
  if (widget._redrawQueued) return;
  widget._redrawQueued = true;
  queueMicrotask(() => {
    widget._redrawQueued = false;
    widget._redraw();
  });
}

/**
 * Applies settings a page carries (LlmWidget's applySettings): the state from `widget`'s
 * attributes and then `settings`, with notes on what was ignored, `unknown` (names that are not
 * settings of the figure) first; then notes, controls and figure follow, once it is connected.
 * @param {LlmWidget} widget
 * @param {Map<string, string>} settings
 * @param {string[]} unknown
 */
export function applyPageSettings(widget, settings, unknown) {
  widget._pageSettings = [settings];
  const { state, notes } = widget._stateFrom([settings]);
  widget.state = state;
  const ignored = unknown.length === 1 ? "is not a setting" : "are not settings";
  widget.notes = [...(unknown.length ? [`${shownNames(unknown)} ${ignored} of this figure; ignored.`] : []), ...notes];
  if (widget._connected) widget._redraw();
}

/**
 * After a refused first computation (`reason`, the core's message): the state from the
 * attributes alone, else from the declared defaults, the first that differs from the refused
 * one; the notes keep what they said and add what was not drawn. Returns whether one was tried
 * (update() then draws it, or says why not).
 * @param {LlmWidget} widget
 * @param {string} reason
 */
export function drawFallback(widget, reason) {
  const cls = classOf(widget);
  const refused = JSON.stringify(widget.state);
  const fromAttributes = () => widget._stateFrom([]).state;
  const fromDefaults = () => {
    const { state } = settingsToState(cls.attributes, [], (p) => cls.presetFields(p));
    widget.normalize(state, []);
    return state;
  };
  const notes = widget.notes ?? [];
  for (const { fallback, what } of [
    { fallback: fromAttributes, what: "the figure's own settings" },
    { fallback: fromDefaults, what: "the defaults" },
  ]) {
    const state = fallback();
    if (JSON.stringify(state) === refused) continue;
    widget._pageSettings = [];
    widget.state = state;
    widget.notes = [...notes, `Not drawn: ${reason}; the figure shows ${what} instead.`];
    showNotes(widget);
    widget.sync();
    widget.update();
    return true;
  }
  widget.notes = notes;
  return false;
}

/**
 * The view attributes of `widget` that differ from their defaults, as [name, string] pairs: one
 * at the value it takes written bare as ["compact", ""] (written <llm-x compact>, ?compact).
 * @param {LlmWidget} widget
 */
export function viewSettingsOf(widget) {
  return VIEW_ATTRIBUTES.filter((d) => widget.view[stateKey(d.name)] !== d.default).map((d) => {
    const value = String(widget.view[stateKey(d.name)]);
    return [d.name, value === /** @type {{ bare?: string }} */ (d).bare ? "" : value];
  });
}

/**
 * `widget`'s view attributes (attributes.js: VIEW_ATTRIBUTES) as { view, notes }: view is
 * { compact, scheme } ("false", "true" or "slide"; "auto", "light" or "dark"), a bad value noted
 * in notes and replaced by its default.
 * @param {LlmWidget} widget
 */
export function readView(widget) {
  const view = {};
  const notes = [];
  for (const d of VIEW_ATTRIBUTES) {
    const raw = widget.getAttribute(d.name);
    // a view attribute present without a value (<llm-x compact>) takes its bare value
    const parsed =
      raw === null ? { value: d.default } : raw === "" && "bare" in d ? { value: d.bare } : parseValue(d, raw);
    if ("value" in parsed) view[stateKey(d.name)] = parsed.value;
    else {
      view[stateKey(d.name)] = d.default;
      notes.push(`${d.name}="${shown(raw)}" ignored: ${parsed.error}.`);
    }
  }
  return { view, notes };
}

/**
 * Shows `widget`'s notes, the view's and the settings', in its notes line (hidden when there are
 * none), and writes each to the console, once per figure, for an author reading them there.
 * @param {LlmWidget} widget
 */
export function showNotes(widget) {
  const all = [...(widget.viewNotes ?? []), ...(widget.notes ?? [])];
  widget.notesEl.textContent = all.length ? `Settings: ${all.join(" ")}` : "";
  widget.notesEl.hidden = !all.length;
  for (const note of all) {
    if (widget._logged.has(note)) continue;
    widget._logged.add(note);
    console.warn(`<${widget.localName}${widget.id ? ` id="${widget.id}"` : ""}>: ${note}`);
  }
}
