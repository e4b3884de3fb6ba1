// Widget settings: each widget declares its attributes once, as data, and everything that sets a
// widget goes through the functions here: its HTML attributes, the reader's URL, the query of
// embed.html, and the guide for course authors (generated from the same declarations).
//
// A declaration: { name, type, default, doc, ...limits }
//   name     the attribute, kebab-case ("cost-ratio"); the widget's state key is its camelCase
//   type     "number" (min, max), "integer" (min, max), "boolean" ("true" or "false"),
//            "choice" (choices: the allowed strings), "text" (maxLength),
//            "numbers" (comma-separated; minLength, maxLength, min, max),
//            "labels" ("|"-separated strings; minLength, maxLength, maxChars),
//            "matrix" (rows separated by ";", entries by ","; maxRows, maxCols)
//   limits   min and max are inclusive; minExclusive or maxExclusive, in their place, is a bound
//            the value must not reach (kv-bytes-per-element > 0: the core refuses 0 itself). The
//            declared range is one the core accepts, each field alone from its defaults
//            (tests/browser/hostile.test.js tries every bound against the core)
//   default  the value when neither the attribute nor a preset gives one
//   bare     optional, for a view attribute (below): the value it takes written without one
//            (<llm-x compact>, embed.html?compact)
//   slideHeight  compact's own: SLIDE_HEIGHT, for the guide
//   doc      one sentence for the guide
//   preset   true on the one attribute that selects a preset (a widget may have none)
//   example  optional: a value the figure accepts other than the default, for a text whose
//            form a generic change cannot make (a configuration's JSON); the guide shows it and
//            the tests that change every setting use it
//   unset    optional: the value that means the setting is not used (top-k 0: no top-k filter);
//            a printed figure leaves such a setting out of its settings (site/src/print.js)
//   label    optional, for a setting no single control of the figure sets (a table of numbers):
//            what the printed settings call it when the reader changed it; the others are
//            named by their controls' labels (controls.js markSettings)
//   print    optional: false for a setting that means nothing on paper (the choices made so far
//            in a figure that asks questions: the paper asks them afresh)
//   aliases  optional: former names still accepted wherever a name is read (an HTML attribute,
//            a key of the reader's URL, embed.html's query), so that pages and links written
//            before a rename keep working; the name wins when a source gives both, and only the
//            name is ever written
// Pure functions of strings and numbers: no DOM, so the build and Node tests use them too.

// How a figure is shown on a page, the same for every figure: not a part of its state (neither the
// reader's URL, nor Copy link, nor Reset touch them), but attributes of its element and query
// parameters of embed.html, declared like the figures' own and listed once in the guide. The kit
// (base.js) reads them; the styles select on what the kit makes of them (.llm-compact on the
// figure's frame, the parts each figure's declaration names hidden; :host([data-scheme="dark"]),
// the scheme resolved by scheme.js).
// The most height a figure takes at the slide size (compact="slide"), in px: a reveal.js slide is
// 960 × 700, and a slide's title (reveal's themes: about 100 px) leaves room for 560 and a margin.
// Past it the figure scrolls within itself, its main controls (.llm-bar) held at its top.
export const SLIDE_HEIGHT = 560;

export const VIEW_ATTRIBUTES = Object.freeze([
  // compact's values are the figure's sizes: whole (false), compact (true, or the attribute
  // written without a value: `bare`), and compact within a slide (slide).
  Object.freeze({
    name: "compact",
    type: "choice",
    choices: Object.freeze(["false", "true", "slide"]),
    default: "false",
    bare: "true",
    slideHeight: SLIDE_HEIGHT,
    doc: `Shows only the figure's chart and its main controls: no editor, no list of draws, no written calculation (for a course page that wants the picture). slide is compact and at most ${SLIDE_HEIGHT} px tall, to fit a 960 × 700 slide under its title: a taller figure scrolls within itself, its main controls held at its top.`,
  }),
  Object.freeze({
    name: "scheme",
    type: "choice",
    choices: Object.freeze(["auto", "light", "dark"]),
    default: "auto",
    doc: "The figure's colours: auto follows the page it is on (its theme, its color-scheme, the background around the figure, else the reader's system setting); light or dark pins them.",
  }),
]);

/** "cost-ratio" → "costRatio": the state key of an attribute. */
export function stateKey(name) {
  return name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

/** Every name a declaration answers to: its name, then its former names (`aliases`). */
export function namesOf(decl) {
  return [decl.name, ...(decl.aliases ?? [])];
}

/** The declaration that answers to `name`, by its name or a former one, or undefined. */
export function declarationNamed(decls, name) {
  return decls.find((d) => namesOf(d).includes(name));
}

// Strings longer than any legal value are refused before they are split or parsed.
const MAX_RAW = 4096;

/**
 * Parses one attribute value. Returns { value } or { error } where error says what was
 * expected ("a number from 0 to 2.5"). Never throws, whatever `raw` is.
 */
export function parseValue(decl, raw) {
  if (typeof raw !== "string") return { error: `expected ${describeType(decl)}` };
  if (raw.length > MAX_RAW) return { error: `longer than ${MAX_RAW} characters` };
  const fail = { error: `expected ${describeType(decl)}` };
  switch (decl.type) {
    case "number":
    case "integer": {
      const v = parseNumber(raw);
      return v !== null && inRange(decl, v) && (decl.type === "number" || Number.isInteger(v)) ? { value: v } : fail;
    }
    case "boolean":
      if (raw === "true" || raw === "") return { value: true };
      if (raw === "false") return { value: false };
      return fail;
    case "choice":
      return decl.choices.includes(raw) ? { value: raw } : fail;
    case "text":
      return raw.length <= (decl.maxLength ?? MAX_RAW) ? { value: raw } : fail;
    case "numbers": {
      const parts = raw.trim() === "" ? [] : raw.split(",");
      if (parts.length < (decl.minLength ?? 1) || parts.length > (decl.maxLength ?? 64)) return fail;
      const values = parts.map(parseNumber);
      return values.every((v) => v !== null && inRange(decl, v)) ? { value: values } : fail;
    }
    case "labels": {
      const parts = raw.split("|");
      if (parts.length < (decl.minLength ?? 1) || parts.length > (decl.maxLength ?? 64)) return fail;
      return parts.every((p) => p.length <= (decl.maxChars ?? 40)) ? { value: parts } : fail;
    }
    case "matrix": {
      const rows = raw.split(";").map((r) => r.split(",").map(parseNumber));
      const cols = rows[0].length;
      const ok =
        rows.length <= (decl.maxRows ?? 16) &&
        cols <= (decl.maxCols ?? 16) &&
        rows.every((r) => r.length === cols && r.every((v) => v !== null));
      return ok ? { value: rows } : fail;
    }
    default:
      return { error: `has an unknown type ${decl.type}` };
  }
}

/** Writes a value back as the attribute's string: the inverse of parseValue. */
export function formatValue(decl, value) {
  switch (decl.type) {
    case "boolean":
      return value ? "true" : "false";
    case "numbers":
      return value.map(String).join(",");
    case "labels":
      return value.join("|");
    case "matrix":
      return value.map((row) => row.map(String).join(",")).join(";");
    default:
      return String(value);
  }
}

/** What a declaration accepts, in words: "a number from 0 to 2.5", "a number more than 0 and at most 1024". */
export function describeType(decl) {
  const { min, max, minExclusive, maxExclusive } = decl;
  let range = "";
  if (min !== undefined && max !== undefined) range = ` from ${min} to ${max}`;
  else if (minExclusive !== undefined || maxExclusive !== undefined) {
    const low = minExclusive !== undefined ? `more than ${minExclusive}` : min !== undefined ? `at least ${min}` : "";
    const high = maxExclusive !== undefined ? `less than ${maxExclusive}` : max !== undefined ? `at most ${max}` : "";
    range = ` ${[low, high].filter(Boolean).join(" and ")}`;
  }
  switch (decl.type) {
    case "number":
      return `a number${range}`;
    case "integer":
      return `a whole number${range}`;
    case "boolean":
      return "true or false";
    case "choice":
      return `one of ${decl.choices.join(", ")}`;
    case "text":
      return `text of at most ${decl.maxLength ?? MAX_RAW} characters`;
    case "numbers":
      return `${decl.minLength ?? 1} to ${decl.maxLength ?? 64} comma-separated numbers${range ? ` each${range}` : ""}`;
    case "labels":
      return `${decl.minLength ?? 1} to ${decl.maxLength ?? 64} labels separated by |, each at most ${decl.maxChars ?? 40} characters`;
    case "matrix":
      return `a matrix of at most ${decl.maxRows ?? 16} rows (separated by ;) of at most ${decl.maxCols ?? 16} comma-separated numbers`;
    default:
      return decl.type;
  }
}

/**
 * A widget's state from its declarations and sources of settings, later sources winning:
 * `sources` is a list of Maps (or objects) from attribute name to string, e.g. [attributes,
 * URL]. A source may name an attribute by a former name (`aliases`); where it gives both, the
 * name wins. The preset attribute (if declared) is taken from the last source that names it; the
 * state starts from the declared defaults overlaid with `presetFields(preset)`, then every other
 * attribute given by a source replaces its field. Values that do not parse are skipped and
 * reported in `notes` under the name they were given by ("temperature="hot" ignored: expected a
 * number from 0 to 2.5").
 * Returns { state, notes }.
 * @param {any[]} decls
 * @param {Array<Map<string, string> | Record<string, string>>} sources
 * @param {(preset: any) => Record<string, any>} [presetFields]
 */
export function settingsToState(decls, sources, presetFields = () => ({})) {
  const notes = [];
  const state = {};
  for (const d of decls) state[stateKey(d.name)] = clone(d.default);
  const get = (src, name) => (src instanceof Map ? src.get(name) : Object.hasOwn(src, name) ? src[name] : undefined);
  // [the name given, its string] for declaration d in a source: its name first, then its aliases.
  const given = (src, d) => {
    for (const name of namesOf(d)) {
      const raw = get(src, name);
      if (raw !== undefined && raw !== null) return [name, raw];
    }
    return null;
  };
  const presetDecl = decls.find((d) => d.preset);
  if (presetDecl) {
    for (const src of sources) {
      const found = given(src, presetDecl);
      if (!found) continue;
      const r = parseValue(presetDecl, found[1]);
      if ("value" in r) state[stateKey(presetDecl.name)] = r.value;
      else notes.push(note(found[0], found[1], r.error));
    }
    Object.assign(state, clone(presetFields(state[stateKey(presetDecl.name)])));
  }
  for (const src of sources) {
    for (const d of decls) {
      if (d.preset) continue;
      const found = given(src, d);
      if (!found) continue;
      const r = parseValue(d, found[1]);
      if ("value" in r) state[stateKey(d.name)] = r.value;
      else notes.push(note(found[0], found[1], r.error));
    }
  }
  return { state, notes };
}

/**
 * The settings that turn `base` into `state`: a list of [name, string] for every declared field
 * whose written form differs (the preset first, so that it applies before the fields it sets).
 * A field the reader left invalid (an emptied number field is NaN) is not written: a link carries
 * only values that it can give back.
 */
export function stateDiff(decls, state, base) {
  const out = [];
  for (const d of [...decls].sort((a, b) => Number(Boolean(b.preset)) - Number(Boolean(a.preset)))) {
    const k = stateKey(d.name);
    const s = formatValue(d, state[k]);
    if (s !== formatValue(d, base[k]) && "value" in parseValue(d, s)) out.push([d.name, s]);
  }
  return out;
}

// Text a page echoes from a link or an attribute (a value, a name it does not know) is cut to
// this many characters, and a list of such names to MAX_SHOWN_NAMES: a link of a million
// characters makes a note of a line.
const MAX_SHOWN = 40;
const MAX_SHOWN_NAMES = 5;

/** Text from a link or an attribute as a note shows it: at most 40 characters, then "…". */
export function shown(text) {
  const s = String(text);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
}

/** Names from a link as a note lists them: each shown(), at most five, then how many more. */
export function shownNames(names) {
  const listed = names.slice(0, MAX_SHOWN_NAMES).map(shown).join(", ");
  const more = names.length - MAX_SHOWN_NAMES;
  return more > 0 ? `${listed} and ${more} more` : listed;
}

// Attributes any element may carry, which are not a figure's settings.
const VIEW_NAMES = new Set(VIEW_ATTRIBUTES.map((d) => d.name));
const GLOBAL_ATTRIBUTES = new Set(
  "id class style title hidden lang dir tabindex slot part exportparts role translate draggable spellcheck autofocus inert accesskey contenteditable enterkeyhint inputmode nonce is popover autocapitalize itemscope itemprop itemtype itemid itemref".split(
    " ",
  ),
);

/** The edits (insert, delete, replace, swap two neighbours) that make `a` into `b`, up to 3. */
function distance(a, b) {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The notes for attribute names of an element that are neither a setting of its figure (a name
 * or a former one), nor an attribute any element may carry (id, class, data-…, aria-…, on…),
 * nor one of `others` (the widget's own, such as an exercise's for): one note per name, naming
 * the nearest setting when one is within two edits ("temprature … (temperature?)").
 */
export function unknownAttributeNotes(decls, names, others = []) {
  const known = new Set([...decls.flatMap(namesOf), ...VIEW_NAMES]);
  const notes = [];
  for (const name of names) {
    if (known.has(name) || others.includes(name) || GLOBAL_ATTRIBUTES.has(name)) continue;
    if (/^(data-|aria-|on)/.test(name)) continue;
    let nearest = null;
    let best = 3;
    for (const k of known) {
      const d = distance(name, k);
      if (d < best) [nearest, best] = [k, d];
    }
    notes.push(`${shown(name)} is not a setting of this figure; ignored${nearest ? ` (${nearest}?)` : ""}.`);
  }
  return notes;
}

function note(name, raw, error) {
  return `${shown(name)}="${shown(raw)}" ignored: ${error}.`;
}

function parseNumber(s) {
  const t = s.trim();
  if (t === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

function inRange(decl, v) {
  return (
    (decl.min === undefined || v >= decl.min) &&
    (decl.max === undefined || v <= decl.max) &&
    (decl.minExclusive === undefined || v > decl.minExclusive) &&
    (decl.maxExclusive === undefined || v < decl.maxExclusive)
  );
}

function clone(v) {
  return Array.isArray(v) ? v.map(clone) : v;
}
