// The inputs bench/api.js times through the public API and bench/native.cpp through the core's
// C++ API: made once, here, and sent to the native program as JSON, so both sides compute on
// the same numbers (JSON carries every double exactly: JavaScript writes the shortest string
// that reads back to the same double, and strtod reads it back).
//
// Two sizes:
//   - widget size: what the reader's figures pass by default, recorded from the page itself
//     (bench/figure-calls.js): for every function of the API's declarations, the first call the
//     figures make while they first draw, or, for a function no figure calls at its defaults,
//     the first example of its declaration. Each call takes microseconds, so a timing covers
//     many calls.
//   - large: the sizes of issue 10 (attention 512 × 64 and 2048 × 64; sampling over 50,257,
//     128,256 and 2^20 logits; quantize 2^20; moeRoute 4096 × 64), also passed as Float64Arrays.
"use strict";
const { functions } = require("../bindings/api/index.js");
const { figureCalls } = require("./figure-calls.js");

// Issue 10's budgets of the wasm / native ratio: 2× at widget size; 1.3× for the three large
// cases of issue 9; the other large cases have none (reported only).
const WIDGET_BUDGET = 2;
const LARGE_BUDGET = 1.3;

// Large inputs, smooth and non-degenerate as in bench/limits.js: sin of the index.
const vector = (n) => Array.from({ length: n }, (_, i) => Math.sin(i));
const matrix = (rows, cols) =>
  Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => Math.sin(7 * i + j)));

/** A short account of arguments: a matrix as rows × cols, an array by its length, an object by its keys. */
function describe(args) {
  const one = (a) => {
    if (Array.isArray(a) && Array.isArray(a[0])) return `${a.length} × ${a[0].length}`;
    if (Array.isArray(a)) return `${a.length} values`;
    if (a && typeof a === "object")
      return `{ ${Object.entries(a)
        .map(([k, v]) => `${k}: ${typeof v === "object" ? one(v) : v}`)
        .join(", ")} }`;
    return String(a);
  };
  return args.map(one).join(", ");
}

/** Every case: { name, fn, size, what, args (as a page passes them), budget (or null) }. */
async function cases() {
  const recorded = await figureCalls();
  const widget = functions.map((f) => {
    const call = recorded.find((c) => c.fn === f.name);
    const args = call ? call.args : f.examples[0];
    const what = `${call ? "the figures' first call" : "no figure calls it at its defaults: its first example"}: ${describe(args)}`;
    return { name: f.name, fn: f.name, size: "widget", what, args, budget: WIDGET_BUDGET };
  });
  const large = (name, fn, what, budget, ...args) => ({ name, fn, size: "large", what, args, budget });
  return [
    ...widget,
    large("attention 512×64", "attention", "q = k = v 512 × 64", null, ...Array(3).fill(matrix(512, 64))),
    large("attention 2048×64", "attention", "q = k = v 2048 × 64", LARGE_BUDGET, ...Array(3).fill(matrix(2048, 64))),
    large("sampling 50,257", "sampling", "50,257 logits (GPT-2's vocabulary)", null, { logits: vector(50257) }),
    large("sampling 128,256", "sampling", "128,256 logits (Llama 3's vocabulary)", null, { logits: vector(128256) }),
    large("sampling 2^20", "sampling", "2^20 logits", LARGE_BUDGET, { logits: vector(2 ** 20) }),
    large("quantize 2^20", "quantize", "2^20 values, 8 bits", LARGE_BUDGET, vector(2 ** 20)),
    large("moeRoute 4096×64", "moeRoute", "4096 tokens × 64 experts, top-2", null, matrix(4096, 64), 2),
  ];
}

/** The same arguments with every vector as a Float64Array (a matrix: rows of Float64Arrays). */
function typed(arg) {
  if (Array.isArray(arg) && arg.every((x) => typeof x === "number")) return Float64Array.from(arg);
  if (Array.isArray(arg)) return arg.map(typed);
  if (arg && typeof arg === "object") return Object.fromEntries(Object.entries(arg).map(([k, v]) => [k, typed(v)]));
  return arg;
}

module.exports = { cases, typed, WIDGET_BUDGET, LARGE_BUDGET };
