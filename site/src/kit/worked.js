// A figure's worked calculation, declared as steps and drawn one way (the kit's, for every figure
// that shows its arithmetic): a numbered list, each step "Name. lead formula = values = result
// tail", the result in bold.
//
// A step is { name, lead, formula, with, values, result, tail, class } (all but name optional):
//   name      its title ("Scores per head"), drawn in bold with a full stop
//   class     its list item's class, for the figure's styles and what its exercise withholds
//   lead      text or nodes before the formula ("Every query meets every key: ")
//   formula   the formula in symbols, as text: each letter is a variable, drawn as sym() does
//             (site/src/dom.js), with a subscript after _ or a superscript after ^ (a word, or
//             one character; _{kv} where a variable follows): "2·b·n·h_kv·d", "QK^⊤", "h_{kv}d";
//             everything else is written as it is
//   with      the figure's numbers by variable ({ b: "3", h_kv: "8" }), already formatted: the
//             values are the formula with each variable replaced by its number ("2·3·…·8·128"),
//             so that what is computed is the formula shown
//   values    the values written out, when they are not the formula's substitution (a factor
//             taken from an earlier step)
//   result    what it comes to, drawn in bold after " = "
//   tail      text or nodes after it, its full stop included
import { h, sym } from "../dom.js";

// a variable: one letter, then a subscript (_kv, _model, or _{kv} where a letter follows) or a
// superscript (^⊤), or neither
const VARIABLE = /([A-Za-z])(?:_(?:\{([^}]*)\}|([A-Za-z0-9]+))|\^([A-Za-z0-9]+|[^\sA-Za-z0-9]))?/g;

/** The formula's text as nodes: its variables as sym() draws them, the rest as text. */
export function formula(text) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(VARIABLE)) {
    if (m.index > at) parts.push(text.slice(at, m.index));
    parts.push(sym(m[1], m[2] ?? m[3], m[4]));
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** The formula's text with each variable replaced by its number in `values` (a variable it lacks is an error). */
export function substitute(text, values) {
  return text.replace(VARIABLE, (_whole, name, braced, sub, sup) => {
    // its name as `with` gives it: h_kv for h_kv and h_{kv}, K^⊤
    const key = name + ((braced ?? sub) ? `_${braced ?? sub}` : "") + (sup ? `^${sup}` : "");
    if (!Object.hasOwn(values, key)) throw new Error(`worked: no number for ${key} in ${text}`);
    return String(values[key]);
  });
}

/**
 * The parts of a step as the list item's children: nested lists flattened, nothing left out, and
 * adjacent texts joined into one text node, so that a sentence is shaped as one run of text
 * (Chromium lays out each text node's glyphs on its own: a sentence split where its parts were
 * written apart would sit a fraction of a pixel differently).
 */
function joined(parts) {
  const out = [];
  for (const part of [parts].flat(Infinity)) {
    if (part === null || part === undefined || part === false || part === "") continue;
    const text = typeof part === "string" || typeof part === "number";
    if (text && typeof out.at(-1) === "string") out[out.length - 1] += String(part);
    else out.push(text ? String(part) : part);
  }
  return out;
}

/** One step as its list item. */
function step({ name, lead = "", formula: f, with: numbers, values, result, tail = "", class: cls }) {
  const written = values ?? (f !== undefined && numbers ? substitute(f, numbers) : undefined);
  return h(
    "li",
    cls ? { class: cls } : {},
    ...joined([
      h("strong", {}, `${name}. `),
      lead,
      f === undefined ? "" : formula(f),
      f !== undefined && written !== undefined ? " = " : "",
      written ?? "",
      result === undefined ? "" : [" = ", h("strong", {}, result)],
      tail,
    ]),
  );
}

/** The steps as a numbered list, for the figure's .worked box. */
export function workedSteps(steps) {
  return h("ol", {}, steps.filter(Boolean).map(step));
}
