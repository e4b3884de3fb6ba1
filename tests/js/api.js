// The API's declarations (bindings/api/), as the Node tests iterate them: every function with its
// example calls, the same calls with typed arrays, and calls that must be refused, each derived
// from the kinds of the declared parameters. A test that loops over these covers a function
// added to the declarations without being edited.
"use strict";
const { functions, fieldsOf } = require("../../bindings/api/index.js");

/** Functions of the module that are not the core's: the leak measures and embind's handle count. */
const diagnostics = ["memoryInUse", "memoryStats", "count_emval_handles"];

/** [name, args] of every example of every declared function, in declaration order. */
const examples = functions.flatMap((f) => f.examples.map((args) => [f.name, args]));

/** A value of a declared kind with every vector and every matrix row as a Float64Array. */
function typedValue(p, value) {
  if (value === undefined || value === null) return value;
  if (p.kind === "vector") return Float64Array.from(value);
  if (p.kind === "matrix") return value.map((row) => Float64Array.from(row));
  if (p.kind === "object") {
    const out = {};
    for (const f of fieldsOf(p)) if (Object.hasOwn(value, f.name)) out[f.name] = typedValue(f, value[f.name]);
    return out;
  }
  return value;
}

/** An example's arguments with typed arrays wherever the declaration has a vector or a matrix. */
function typed(f, args) {
  return args.map((a, i) => (i < f.params.length ? typedValue(f.params[i], a) : a));
}

// ---- what must be refused -------------------------------------------------------------------

const boom = () => {
  throw new Error("a caller's getter throws");
};
/** A copy of `array` whose entry `index` is read through a getter that throws. */
const throwingEntry = (array, index) => Object.defineProperty([...array], index, { get: boom });
/** A copy of `object` whose property `key` is read through an enumerable getter that throws. */
const throwingKey = (object, key) => Object.defineProperty({ ...object }, key, { get: boom, enumerable: true });
/** An object whose every Proxy trap that reads throws. */
const throwingProxy = (target) =>
  new Proxy(target, { get: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, has: boom });

/**
 * Values of a parameter's kind that boundary.js or the core must refuse whatever the function:
 * the wrong type, a value no core function accepts (NaN, an empty or ragged array), and a
 * caller's getter that throws. `example` is the parameter's valid value, to fault from.
 */
function faultsOf(p, example) {
  switch (p.kind) {
    case "number":
      return ["1", NaN, -Infinity, null, true];
    case "vector":
      return [[], [1, "2"], [NaN], throwingEntry([1, 2, 3], 1), 3, new Float32Array(2)];
    case "matrix":
      return [[], [[1, 2], [3]], [[NaN]], [[1, 0], throwingEntry([0, 1], 1)], [1, 2]];
    case "boolean":
      return [1, "true", null];
    case "choice":
      return ["neither", 0];
    case "object": {
      const out = [7, [], throwingProxy({}), { ...(example ?? {}), notAnOption: 1 }];
      if (!p.optional) out.push(null);
      const base = example ?? {};
      for (const f of fieldsOf(p)) {
        for (const fault of faultsOf(f, base[f.name])) out.push({ ...base, [f.name]: fault });
        out.push(throwingKey(base, f.name));
      }
      return out;
    }
    case "text":
      // not a string; not JSON (a fault with its line and column); JSON but not a configuration;
      // longer than the core reads
      return [7, null, '{\n  "a": }', "[1, 2]", "{}", "x".repeat(2 ** 20 + 1)];
    case "json": {
      const base = example ?? {};
      const cyclic = { ...base };
      cyclic.self = cyclic;
      // the first field that must be a number (num_hidden_layers, layers)
      const first = Object.keys(base).find((k) => typeof base[k] === "number");
      return [
        7,
        "{}",
        [],
        null,
        {},
        throwingProxy({}),
        { ...base, [first]: NaN },
        { ...base, [first]: () => 1 },
        { ...base, [first]: "32" },
        throwingKey(base, first),
        cyclic,
      ];
    }
    default:
      throw new Error(`tests/js/api.js: no faults for the kind ${p.kind}`);
  }
}

/** Argument lists for `f` that must be refused: its first example with one argument faulted. */
function refusedCalls(f) {
  const args = f.examples[0];
  const out = [];
  f.params.forEach((p, i) => {
    for (const fault of faultsOf(p, args[i])) {
      const faulted = [...args];
      faulted[i] = fault;
      out.push(faulted);
    }
  });
  return out;
}

module.exports = {
  functions,
  fieldsOf,
  diagnostics,
  examples,
  typed,
  refusedCalls,
  throwingEntry,
  throwingKey,
  throwingProxy,
};
