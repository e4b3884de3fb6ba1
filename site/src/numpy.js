// "Copy as NumPy": for each figure, a short Python 3 program that recomputes the figure's numbers
// from its current inputs with NumPy alone, so that a reader can check them in a notebook. Each
// figure's program is its own, a facet of the figure: `numpy(state, result)` in
// site/src/widgets/<name>/<name>-figure.js (see site/src/widgets/figures.js); this file holds what every
// program shares.
//
// A program is the reference's mathematics, reference/*.py inlined verbatim (program(), with the
// table site/build.mjs reads from the .py files): the code the core's reference values are
// computed with (each module's fixture(), which tests/fixtures/make.py writes), so the program a
// reader copies is the code the tests trust. What a figure's file adds is its driver: the
// figure's current inputs as Python literals, the calls, and the printing of what the figure
// shows. It never computes a number of the chapter itself.
//
// Every program prints one line per quantity, `name = value`, the value as Python writes a float
// or a (nested) list of them at full precision: the figure rounds for display, the program does
// not. tests/browser/takeaway.test.js runs every program, compares its numbers with the figure's
// (the core's), and checks that each definition in it is the reference's, verbatim.
import definitions from "../../reference/definitions.js";

/** A number as a Python literal that reads back as the same double. */
export function py(x) {
  if (typeof x === "boolean") return x ? "True" : "False";
  if (Number.isNaN(x)) return "float('nan')";
  if (!Number.isFinite(x)) return x > 0 ? "float('inf')" : "-float('inf')";
  // JavaScript's shortest round-trip form is also Python's (1e+21 reads as a float in both).
  return Object.is(x, -0) ? "0.0" : String(x);
}

/** A whole number as a Python int (exact at any size the figures allow). */
export const pyInt = (x) => (Number.isSafeInteger(x) ? String(x) : py(x));
/** A list of numbers, a matrix (list of rows) or a list of strings as Python literals. */
export const pyList = (xs) => `[${xs.map(py).join(", ")}]`;
export const pyMatrix = (M) => `[${M.map(pyList).join(",\n     ")}]`;
export const pyStrings = (xs) => `[${xs.map((s) => JSON.stringify(String(s))).join(", ")}]`;

/**
 * A configuration as JSON.parse gives it, written as the Python literal json.loads would give:
 * objects as dicts, true, false and null as True, False and None, one member a line at the top.
 */
export function pyJson(v, depth = 0) {
  if (v === null) return "None";
  if (typeof v === "boolean" || typeof v === "number") return py(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => pyJson(x, depth + 1)).join(", ")}]`;
  const members = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x, depth + 1)}`);
  return depth === 0 && members.length ? `{\n    ${members.join(",\n    ")},\n}` : `{${members.join(", ")}}`;
}

/** Every program's helper: one quantity per line, long doubles printed as the doubles they round to. */
const SHOW = `def show(name, x):
    """One quantity per line, at full precision: name = value."""
    x = np.asarray(x)
    print(name, "=", repr((x.astype(float) if x.dtype.kind == "f" else x).tolist()))`;

/**
 * The definitions of reference/ named by `uses`, with every definition they need, in the
 * reference's order, and the imports they use (beside NumPy, which every program imports).
 * @param {string[]} uses
 */
function inlined(uses) {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const wanted = new Set();
  for (const name of uses) {
    const d = byName.get(name);
    if (!d) throw new Error(`no definition ${name} in reference/ (the table is read by site/build.mjs)`);
    for (const n of [name, ...d.needs]) wanted.add(n);
  }
  const chosen = definitions.filter((d) => wanted.has(d.name));
  const imports = [...new Set(chosen.flatMap((d) => d.imports))].filter((line) => line !== "import numpy as np");
  return { imports, texts: chosen.map((d) => d.text) };
}

/**
 * A whole program: `title` (its comment lines), the definitions of reference/ that `uses` names,
 * inlined verbatim, then `driver`, the figure's settings and the printing of what it shows.
 * @param {string} title
 * @param {string[]} uses
 * @param {string} driver
 */
export function program(title, uses, driver) {
  const { imports, texts } = inlined(uses);
  const head = `${title.trim()}\n${imports.length ? `${imports.join("\n")}\n\n` : ""}import numpy as np`;
  return `${[head, SHOW, ...texts, driver.trim()].join("\n\n\n")}\n`;
}

/**
 * A result's fields by the names a program prints them with, the reference's (snake_case), each
 * after `prefix`: { kvBytes } → { kv_bytes }. (The tests' trials of the figures read a program's
 * output by them: a figure's `trial.prints`.)
 */
export const snakeFields = (fields, prefix = "") =>
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [prefix + k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
