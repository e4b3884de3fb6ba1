// "Copy as NumPy": for each figure, a short Python 3 program that recomputes the figure's numbers
// from its current inputs with NumPy alone, so that a reader can check them in a notebook. Each
// figure's program is its own, beside its widget: site/src/widgets/<name>-numpy.js, declared as
// the widget's `static numpy(state, result)` (see site/src/widgets/figures.js); this file holds
// what every program shares. A program writes text: it formats the inputs as Python literals and
// never computes a number of the chapter itself (the program does, and the figure's own numbers
// come from the core).
//
// Every program prints one line per quantity, `name = value`, the value as Python writes a float
// or a (nested) list of them at full precision: the figure rounds for display, the program does
// not. The formulas follow the core (core/include/llmmath/<concept>.hpp) step by step, including
// its tie rules, tolerances and clamps, so the printed numbers agree with the figure's to the last
// digits (floating-point summation order aside); tests/browser/takeaway.test.js runs every program
// and compares.

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

/** Every program's first lines: NumPy, and show(), which prints one quantity per line. */
export const HEADER = `import numpy as np


def show(name, x):
    """One quantity per line, at full precision: name = value."""
    print(name, "=", repr(np.asarray(x).tolist()))
`;

/** SplitMix64 as the core's (core/src/sampling.cpp), yielding uniforms k·2^-53 in [0, 1). */
export const SPLITMIX = `
def splitmix64(seed):
    """The core's generator: SplitMix64, uniforms from its top 53 bits."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        yield ((z ^ (z >> 31)) >> 11) * 2.0**-53
`;
