// The public JavaScript API of the core (../shared/spec/core-api.md), declared once: one file per
// concept beside this one, each a plain-data module that says, for every function of the
// concept, its parameters (how the boundary reads each one), its result and its documentation,
// and a few example calls. Everything else is read or generated from these declarations:
//
//   generate.js (run by the build)  → llmmath.d.ts, the table boundary.js reads its parameters
//                                     by (api-table.js), the example calls (examples.json) and the
//                                     parameter kinds the fuzz target draws by (api_table.inc)
//   tests/js/*.test.js              → iterate `functions` (names, kinds, examples)
//
// The format, for one concept:
//   { concept, section, functions: [Function…], types: [Type…] }
//     concept   its name, the name of its file here and of its core header; section: the
//               chapter's section that teaches it, which orders the concepts (this folder is
//               read whole: a new concept is a new file, and nothing else here changes)
//   Function: { name, doc, params: [Param…], returns, examples: [[arg…]…], worst: [Case…] }
//     name      the JavaScript name; the C++ adapter of the same name in snake_case
//               (bindings/api/adapters.hpp) is derived from it mechanically
//     doc       the declaration's documentation, as its JSDoc says it (no leading " * ")
//     returns   a TypeScript type: a result interface of `types`, or "number[]", "Index[]"
//     examples  argument lists, as JSON, that a test may call the function with; each is also a
//               call of the golden file (tests/fixtures/golden.json)
//     worst     the function's worst cases within its limits, each { what, args(inputs) }: the
//               calls whose time its doc states, timed by bench/limits.js; args builds the
//               arguments from the helpers `inputs` (index.js: matrix, vector, uniform)
//   Param: { name, kind, optional?, type?, fields?, like?, swept?, values?, fuzzMax?, doc? }
//     kind      "number" | "vector" | "matrix" | "boolean" | "choice" | "object" | "text" | "json"
//               number: a JavaScript number (NaN and ±Infinity pass; the core names them)
//               vector: an array of numbers or a Float64Array; matrix: an array of such rows
//               choice: one of the strings `values`, handed to the core as its index
//               object: an options or config object, read as own enumerable properties, every
//               key one of its fields (a misspelt key is refused, not ignored)
//               text: a string, handed to the core as it is (a config.json's text), at most the
//               core's json::max_text_bytes long
//               json: plain data of any shape (a parsed config.json, a shape handed back),
//               written by the boundary as JSON text from its own enumerable properties, each
//               read once, and parsed again by the core (llmmath/json.hpp); `type` names it
//     optional  the argument may be omitted (undefined); an optional object may also be null,
//               meaning all defaults
//     type      the TypeScript type, when it is not the kind's own (an object's interface name)
//     fields    an object's fields, each { name, kind, optional?, values?, type?, doc? }: given
//               here, or by the interface `type` of `types` when that declares them
//     fuzzMax   a count whose legal values can be slow (10^6 draws, a 4096-token bias): the fuzz
//               target draws it as a whole number in −1 … fuzzMax instead of any double, so that
//               every iteration stays fast (the Catch2 and Node suites test the limit itself)
//     like, swept  a sweep's config: the fields of interface `like` with field `swept` read as a
//               vector (the curve's points) instead of a number
//   Type: { name, doc?, fields?: [Field…], alias?: "TypeScript text" }
//     an interface (fields, each { name, kind | type, optional?, doc? }) or a type alias
"use strict";

const fs = require("node:fs");
const path = require("node:path");

/** Every file of this folder but this one and the generator is a concept, in the chapter's order. */
const concepts = fs
  .readdirSync(__dirname)
  .filter((file) => file.endsWith(".js") && file !== "index.js" && file !== "generate.js")
  .map((file) => require(path.join(__dirname, file)))
  .sort((a, b) => a.section - b.section);

/** Every function of the API, in the order of the concepts. */
const functions = concepts.flatMap((c) => c.functions);

/** Every declared type by name. */
const types = Object.fromEntries(concepts.flatMap((c) => c.types).map((t) => [t.name, t]));

/** The fields an object parameter is read by: its own, or its interface's (a sweep's swept field a vector). */
function fieldsOf(param) {
  if (param.fields) return param.fields;
  const source = types[param.like ?? param.type];
  if (!source || !source.fields) throw new Error(`bindings/api: ${param.name}'s type ${param.type} declares no fields`);
  if (!param.swept) return source.fields;
  return source.fields.map((f) => (f.name === param.swept ? { ...f, kind: "vector", optional: false } : f));
}

// The inputs of the worst cases: smooth, non-degenerate values, as Float64Array rows (the fastest
// input the API takes; plain arrays add about 10 ms per million entries).
const matrix = (rows, cols) =>
  Array.from({ length: rows }, (_, i) => Float64Array.from({ length: cols }, (_, j) => Math.sin(i * 7 + j)));
const vector = (n, f = (i) => Math.sin(i)) => Float64Array.from({ length: n }, (_, i) => f(i));
const uniform = (n) => vector(n, () => 1 / n);
const inputs = { matrix, vector, uniform };

module.exports = { concepts, functions, types, fieldsOf, inputs };
