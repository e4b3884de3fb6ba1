// The JavaScript boundary of dist/llmmath.js: the public functions of core-api.md, in front of
// the internal embind functions of llmmath_bindings.cpp. Emscripten appends this file to the
// module (--post-js), inside the factory, beside its glue (HEAP8, readyPromiseResolve); once the
// runtime is ready each public function replaces the embind function of the same name.
//
// What crosses into WebAssembly is only what this file built: numbers, booleans, `undefined`
// for an omitted option, a Float64Array per vector, { rows, cols, values } per matrix (values
// row by row in one Float64Array) and plain objects of these. So:
//  - each argument is read exactly once, into such a snapshot; a length is read once as a
//    Number and checked as a whole number against the limit before any entry is read, so a
//    getter or Proxy that changes the array while it is read can change only the values read;
//  - arrays are recognised with Array.isArray and typed arrays through the intrinsic
//    %TypedArray% getters captured below, never through the argument's own properties or
//    methods (its `every`, `length` on a typed array, `constructor`), so arrays and typed
//    arrays from another realm (an iframe, a vm context) are accepted like local ones;
//  - options are read as own enumerable properties only: a property inherited from
//    Object.prototype (a polluted prototype) is ignored;
//  - no string a caller passes reaches the WebAssembly heap (the only string option, pairing,
//    becomes a number here), and a string is not even read beyond its length when it is too
//    long to quote in an error message;
//  - an exception thrown by a caller's getter or Proxy trap is rethrown as an Error naming the
//    parameter being read; nothing is allocated in the heap until every argument is read, so
//    there is nothing to release;
//  - results come back through a callback while the core's arrays are alive and are copied
//    here into plain arrays and objects, with −0 written as 0 (a reader would see "−0.00");
//  - large snapshot buffers are reused from call to call (see snapshotBuffer): the rest of the
//    time of a large call goes into the plain arrays it returns, new memory on every call.
// Error messages follow the core's shape, "<parameter> must be <expected>, got <value>", and
// match the messages of the earlier C++ adapters word for word.
(function installBoundary() {
  "use strict";

  // ---- intrinsics, captured when the module is created ----------------------------------
  const { isArray } = Array;
  const { apply } = Reflect;
  const ownKeys = Object.keys;
  const createObject = Object.create;
  const { isInteger, isFinite } = Number;
  const ErrorConstructor = Error;
  const F64 = Float64Array;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const getter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
  const typedArrayTag = getter(Symbol.toStringTag); // undefined for anything but a typed array
  const typedArrayLength = getter("length");
  const typedArraySet = TypedArrayPrototype.set;
  const hasOwn = Object.prototype.hasOwnProperty;

  // ---- limits of check.hpp, checked here before anything is read ------------------------
  const MAX_VECTOR_LENGTH = 2 ** 20; // llmmath::max_vector_length
  const MAX_MATRIX_SIDE = 4096; // llmmath::max_matrix_side
  // A string longer than this is described by its length only: quoting its start would make
  // the engine flatten all of it (a 2^29-character string of repeats: 1 GB and seconds).
  const MAX_QUOTED_STRING = 1024;

  // ---- describing values in error messages ----------------------------------------------

  // BigInt values by name: Emscripten 3.1.6's minifier cannot print BigInt literals.
  const [ONE, TWO, TEN, SHIFT, FRACTION, HIDDEN] =
    [1, 2, 10, 52, 0xfffffffffffff, 0x10000000000000].map((n) => BigInt(n));

  /** |x| = M·2^q exactly, M a BigInt (x finite and nonzero). */
  function binary(x) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Math.abs(x));
    const bits = view.getBigUint64(0);
    const exponent = Number(bits >> SHIFT);
    const fraction = bits & FRACTION;
    return exponent === 0 ? [fraction, -1074] : [fraction | HIDDEN, exponent - 1075];
  }

  /** Whether |x| is exactly (D − 1/2)·10^s: the tie that JavaScript rounds up and C to even. */
  function halfwayBelow(x, D, s) {
    const [M, q] = binary(x);
    let lhs = TWO * D - ONE;
    let rhs = M;
    if (s >= 0) lhs *= TEN ** BigInt(s);
    else rhs *= TEN ** BigInt(-s);
    if (q + 1 >= 0) rhs *= TWO ** BigInt(q + 1);
    else lhs *= TWO ** BigInt(-(q + 1));
    return lhs === rhs;
  }

  /**
   * printf's %.{p}g of x with the exponent unpadded, as llmmath::describe's loop writes it:
   * p significant digits rounded to nearest, ties to even (as C rounds; JavaScript rounds ties
   * up), then trailing zeros dropped; scientific for exponents below −4 or from p on.
   */
  function formatG(x, p) {
    const [mantissa, exponent] = x.toExponential(p - 1).split("e");
    let digits = mantissa.replace("-", "").replace(".", "");
    const e = Number(exponent);
    if (Number(digits[p - 1]) % 2 === 1 && halfwayBelow(x, BigInt(digits), e - p + 1)) {
      digits = (BigInt(digits) - ONE).toString(); // still p digits: its last digit was odd
    }
    const sign = x < 0 ? "-" : "";
    const trimmed = digits.replace(/0+$/, "");
    if (e < -4 || e >= p) {
      const rest = trimmed.slice(1);
      return `${sign}${digits[0]}${rest ? "." + rest : ""}e${e < 0 ? "-" : "+"}${Math.abs(e)}`;
    }
    if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${trimmed}`;
    const whole = digits.slice(0, e + 1);
    const fraction = trimmed.slice(e + 1);
    return `${sign}${whole}${fraction ? "." + fraction : ""}`;
  }

  /** A number as llmmath::describe (check.cpp) writes it: 1.5, 1e-9, -0, NaN, Infinity. */
  function describeNumber(x) {
    if (x !== x) return "NaN";
    if (!isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (x === Math.floor(x) && Math.abs(x) < 1e16) return Object.is(x, -0) ? "-0" : x.toFixed(0);
    for (let p = 1; p < 17; p++) {
      const s = formatG(x, p);
      if (Number(s) === x) return s;
    }
    return formatG(x, 17);
  }

  /** "abc" for a short string; the first 40 characters and "…" for a longer one. */
  function quoted(s) {
    if (s.length <= 40) return `"${s}"`;
    let head = s.slice(0, 40);
    const last = head.charCodeAt(39);
    if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, 39); // half a surrogate pair
    return `"${head}…"`;
  }

  /** The length of an array without letting its getter or trap escape (for messages only). */
  function lengthForMessage(a) {
    try {
      const n = a.length;
      return typeof n === "number" ? n : undefined;
    } catch {
      return undefined;
    }
  }

  /** A short description of any value: 1.5, "3" (a string), null, an array of length 2. */
  function describe(v) {
    switch (typeof v) {
      case "number":
        return describeNumber(v);
      case "string":
        return v.length <= MAX_QUOTED_STRING ? `${quoted(v)} (a string)` : `a string of ${v.length} characters`;
      case "boolean":
        return v ? "true" : "false";
      case "undefined":
        return "undefined";
      case "object": {
        if (v === null) return "null";
        if (isArray(v)) {
          const n = lengthForMessage(v);
          return n === undefined ? "an array" : `an array of length ${n}`;
        }
        const tag = apply(typedArrayTag, v, []);
        if (tag !== undefined) return `a ${tag} of length ${apply(typedArrayLength, v, [])}`;
        return "an object";
      }
      default:
        return `a ${typeof v}`;
    }
  }

  /** What a caller's code threw, for the message that names the parameter it was reading. */
  function describeThrown(e) {
    if (e !== null && (typeof e === "object" || typeof e === "function")) {
      try {
        const message = e.message;
        if (typeof message === "string") {
          return message.length <= MAX_QUOTED_STRING ? quoted(message) : `a message of ${message.length} characters`;
        }
      } catch {
        // a message that cannot be read either: say only that something was thrown
      }
      return "an exception";
    }
    return describe(e);
  }

  function fail(name, expected, got) {
    throw new ErrorConstructor(`${name} must be ${expected}, got ${got}`);
  }

  /** The Error for a caller's getter or Proxy trap that threw while `name` was read. */
  function unreadable(name, e) {
    return new ErrorConstructor(`${name} must be readable, got an exception while reading it: ${describeThrown(e)}`,
      { cause: e });
  }

  // ---- snapshot buffers --------------------------------------------------------------------
  // A snapshot lives only until the internal function has copied it into the heap, so large
  // ones are reused from call to call: memory the engine has not touched yet is slow to touch
  // (a fresh 8 MiB buffer took 24 ms on the reference machine, a reused one 0.1 ms). Buffers
  // taken by a public call go back when it returns or throws; a call made from a caller's
  // getter in the middle of another takes buffers of its own.
  const POOLED = 2 ** 16; // smaller snapshots are cheap to allocate
  const MAX_SPARE = 2 ** 22; // at most 32 MiB of spare buffers are kept
  const spare = [];
  let taken = [];

  /** A Float64Array of n entries for a snapshot (a view of a reused buffer when n is large). */
  function snapshotBuffer(n) {
    if (n < POOLED) return new F64(n);
    let best = -1;
    for (let i = 0; i < spare.length; i++) {
      const length = apply(typedArrayLength, spare[i], []);
      if (length >= n && length <= 2 * n && (best < 0 || length < apply(typedArrayLength, spare[best], []))) best = i;
    }
    const buffer = best < 0 ? new F64(n) : spare.splice(best, 1)[0];
    taken.push(buffer);
    return buffer.length === n ? buffer : buffer.subarray(0, n);
  }

  /** `body` as a public function whose snapshot buffers are given back when it returns. */
  function givingBack(body) {
    return function (...args) {
      const outer = taken;
      taken = [];
      try {
        return apply(body, this, args);
      } finally {
        let size = 0;
        for (let i = 0; i < spare.length; i++) size += spare[i].length;
        for (let i = 0; i < taken.length; i++) {
          if (size + taken[i].length > MAX_SPARE) break;
          size += taken[i].length;
          spare.push(taken[i]);
        }
        taken = outer;
      }
    };
  }

  // ---- reading arguments ------------------------------------------------------------------

  /** object[key], with a caller's exception named as `name`. */
  function read(object, key, name) {
    try {
      return object[key];
    } catch (e) {
      throw unreadable(name, e);
    }
  }

  function isFloat64Array(v) {
    return typeof v === "object" && v !== null && apply(typedArrayTag, v, []) === "Float64Array";
  }

  /**
   * The length of an Array, read once (through any getter or trap) and required to be a whole
   * number, as a Proxy may report anything; anything but an Array is refused with `expected`.
   */
  function arrayLength(value, name, expected) {
    if (!isArray(value)) fail(name, expected, describe(value));
    const n = read(value, "length", name);
    if (typeof n !== "number" || !isInteger(n) || n < 0) fail(name, expected, `an array whose length is ${describe(n)}`);
    return n;
  }

  /** The length of an Array (as arrayLength) or of a Float64Array (its intrinsic length). */
  function lengthOf(value, name, expected) {
    return isFloat64Array(value) ? apply(typedArrayLength, value, []) : arrayLength(value, name, expected);
  }

  /**
   * Copies the n entries of `value` (an Array or a Float64Array) into out[offset …]. Each entry
   * of an Array is read once and must be a number (numeric strings, booleans and null are
   * refused; NaN and ±Infinity pass here and the core names them).
   */
  function copyEntries(value, n, name, out, offset) {
    if (isFloat64Array(value)) {
      apply(typedArraySet, out, [value, offset]); // one copy, no caller code runs
      return;
    }
    for (let i = 0; i < n; i++) {
      let e;
      try {
        e = value[i];
      } catch (error) {
        throw unreadable(`${name}[${i}]`, error);
      }
      if (typeof e !== "number") fail(`${name}[${i}]`, "a number", describe(e));
      out[offset + i] = e;
    }
  }

  /** A vector: an Array of numbers or a Float64Array, copied into a Float64Array snapshot. */
  function vector(value, name) {
    const n = lengthOf(value, name, "an array of numbers");
    if (n === 0) fail(name, "a non-empty array", "an empty one");
    if (n > MAX_VECTOR_LENGTH) fail(name, `at most 2^20 = ${MAX_VECTOR_LENGTH} entries`, `${n} entries`);
    const out = snapshotBuffer(n);
    copyEntries(value, n, name, out, 0);
    return out;
  }

  /** An optional vector: undefined stays undefined. */
  function optionalVector(value, name) {
    return value === undefined ? undefined : vector(value, name);
  }

  const ROW = "a row (an array of numbers)";

  /**
   * A matrix: an Array of rows, each an Array of numbers or a Float64Array, all of one length,
   * as { rows, cols, values } with the values row by row in one Float64Array.
   */
  function matrix(value, name) {
    const rows = arrayLength(value, name, "a matrix (an array of rows, each an array of numbers)");
    if (rows === 0) fail(name, "a non-empty matrix", "an empty array");
    if (rows > MAX_MATRIX_SIDE) {
      // Refused before any row is read; the first row's length only completes the message.
      let cols;
      try {
        cols = lengthOf(value[0], `${name}[0]`, ROW);
      } catch {
        cols = undefined;
      }
      fail(name, `at most ${MAX_MATRIX_SIDE} rows and columns`, cols === undefined ? `${rows} rows` : `${rows}x${cols}`);
    }
    const first = read(value, 0, `${name}[0]`);
    const cols = lengthOf(first, `${name}[0]`, ROW);
    if (cols === 0) fail(name, "a non-empty matrix", `an empty one (${rows}x0)`);
    if (cols > MAX_MATRIX_SIDE) fail(name, `at most ${MAX_MATRIX_SIDE} rows and columns`, `${rows}x${cols}`);
    const values = snapshotBuffer(rows * cols);
    for (let i = 0; i < rows; i++) {
      const rowName = `${name}[${i}]`;
      const row = i === 0 ? first : read(value, i, rowName);
      const n = i === 0 ? cols : lengthOf(row, rowName, ROW);
      if (n !== cols) {
        fail(rowName, `a row of ${cols} numbers like ${name}[0] (a matrix cannot be ragged)`, `${n} entries`);
      }
      copyEntries(row, cols, rowName, values, i * cols);
    }
    return { rows, cols, values };
  }

  /**
   * An options or config object as a snapshot: a null-prototype object holding the own
   * enumerable properties of `value`, each read once. undefined and null mean "all defaults"
   * when `optional`. A key not in `known` is refused, so a misspelt option is reported instead
   * of silently ignored; a property inherited from a prototype is not read at all.
   */
  function options(value, name, known, optional) {
    const snapshot = createObject(null);
    if (optional && (value === undefined || value === null)) return snapshot;
    if (typeof value !== "object" || value === null || isArray(value)) fail(name, "an object", describe(value));
    let keys;
    try {
      keys = ownKeys(value);
    } catch (e) {
      throw unreadable(name, e);
    }
    for (let i = 0; i < keys.length; i++) {
      let found = false;
      for (let j = 0; j < known.length; j++) found = found || keys[i] === known[j];
      if (!found) {
        const key = keys[i];
        fail(name, `an object with only the keys ${known.join(", ")}`,
          `the unknown key ${key.length <= MAX_QUOTED_STRING ? quoted(key) : `of ${key.length} characters`}`);
      }
    }
    for (let i = 0; i < keys.length; i++) snapshot[keys[i]] = read(value, keys[i], keys[i]);
    return snapshot;
  }

  function number(v, name) {
    if (typeof v !== "number") fail(name, "a number", describe(v));
    return v;
  }

  /** A number that may be omitted (undefined); null and every other non-number are refused. */
  function optionalNumber(v, name) {
    return v === undefined ? undefined : number(v, name);
  }

  function optionalBoolean(v, name) {
    if (v !== undefined && typeof v !== "boolean") fail(name, "true or false", describe(v));
    return v;
  }

  /** One of the strings `allowed`, as its index. */
  function optionalChoice(v, name, allowed) {
    if (v === undefined) return undefined;
    for (let i = 0; i < allowed.length; i++) if (v === allowed[i]) return i;
    const list = allowed.map((a, i) => (i === 0 ? "" : i + 1 === allowed.length ? " or " : ", ") + `"${a}"`).join("");
    return fail(name, list, describe(v));
  }

  // ---- results ----------------------------------------------------------------------------

  // A result array starts as a copy-free fill with a value of its kind (a number, a small
  // integer, a boolean), so the engine allocates it once, already holding that kind, and the
  // loop only overwrites. Built from `new Array(n)` alone it would start holey and be converted
  // on the way; built in chunks joined by concat, the chunks would be copied by the young-
  // generation collector (measured in Node 20 on 2^20 entries: 26, 48 and 27 ms, and the
  // chunks cost page faults and collections on top).
  const { fill, slice } = Array.prototype;

  /** A view of numbers, indices or flags as a plain array (−0 as 0, flags as booleans). */
  function plainArray(view) {
    const tag = apply(typedArrayTag, view, []);
    const n = apply(typedArrayLength, view, []);
    if (tag === "Float64Array") {
      const out = apply(fill, new Array(n), [0.5]);
      for (let i = 0; i < n; i++) out[i] = view[i] + 0;
      return out;
    }
    if (tag === "Uint8Array") {
      const out = apply(fill, new Array(n), [false]);
      for (let i = 0; i < n; i++) out[i] = view[i] !== 0;
      return out;
    }
    const out = apply(fill, new Array(n), [0]);
    for (let i = 0; i < n; i++) out[i] = view[i];
    return out;
  }

  /**
   * { rows, cols, values[, keep] } with values column by column (Eigen's order) as an array of
   * plain rows; where keep is 0 the entry is null (a masked entry has no value to show). Each
   * row starts as a copy of a template already holding its kind of element (numbers, booleans,
   * or null), which spares the engine converting every new row from its initial kind (a fifth
   * of the time of a 2048 × 2048 matrix, measured in Node 20).
   */
  function plainRows(matrix) {
    const { rows, cols, values } = matrix;
    const keep = apply(hasOwn, matrix, ["keep"]) ? matrix.keep : undefined;
    const tag = apply(typedArrayTag, values, []);
    const kind = keep !== undefined ? null : tag === "Float64Array" ? 0.5 : tag === "Uint8Array" ? false : 0;
    const template = new Array(cols).fill(kind);
    const out = new Array(rows);
    for (let i = 0; i < rows; i++) {
      const row = apply(slice, template, []);
      if (keep !== undefined) {
        // Rows of mixed numbers and nulls hold each number as a separate heap object; a value
        // equal to the one up and to the left shares that object (alibi's bias is constant
        // along its diagonals: 2^12 numbers instead of 2^23 at 4096 tokens, and half the time).
        const above = i > 0 ? out[i - 1] : undefined;
        for (let j = 0, at = i; j < cols; j++, at += rows) {
          if (keep[at] === 0) continue; // null already
          if (j > 0 && above !== undefined && keep[at - rows - 1] !== 0 && values[at - rows - 1] === values[at]) row[j] = above[j - 1];
          else row[j] = values[at] + 0;
        }
      } else if (tag === "Float64Array") {
        for (let j = 0, at = i; j < cols; j++, at += rows) row[j] = values[at] + 0;
      } else if (tag === "Uint8Array") {
        for (let j = 0, at = i; j < cols; j++, at += rows) row[j] = values[at] !== 0;
      } else {
        for (let j = 0, at = i; j < cols; j++, at += rows) row[j] = values[at];
      }
      out[i] = row;
    }
    return out;
  }

  /**
   * What the bindings handed over (llmmath::js::Result) as plain values. Its objects are the
   * bindings' own; only their own properties are read, so a polluted Object.prototype (a
   * `rows` or `keep` inherited by every object) changes nothing.
   */
  function plain(value) {
    if (typeof value === "number") return value + 0;
    if (typeof value !== "object") return value;
    if (apply(typedArrayTag, value, []) !== undefined) return plainArray(value);
    if (apply(hasOwn, value, ["rows"])) return plainRows(value);
    const out = {};
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) out[keys[i]] = plain(value[keys[i]]);
    return out;
  }

  /**
   * Calls an internal function with `sink` last: it hands the result to the sink while its
   * arrays are alive, and returns undefined, or the core's error message.
   */
  function run(internal, ...snapshots) {
    let result;
    let failure;
    const sink = (handed) => {
      try {
        result = plain(handed);
      } catch (e) {
        failure = e; // not thrown through WebAssembly frames; rethrown below
      }
    };
    const message = internal(...snapshots, sink);
    if (message !== undefined) throw new ErrorConstructor(message);
    if (failure !== undefined) throw failure;
    return result;
  }

  // ---- the public functions (core-api.md), in front of the internal ones --------------------

  function publicFunctions(internal) {
    return {
      // ---- attention ----
      attention(q, k, v, opts) {
        const o = options(opts, "opts", ["causal", "scale"], true);
        const causal = optionalBoolean(o.causal, "causal");
        const scale = optionalNumber(o.scale, "scale");
        const Q = matrix(q, "q");
        const K = matrix(k, "k");
        const V = matrix(v, "v");
        return run(internal.attention, Q, K, V, { causal, scale });
      },
      contextDilution(cfg) {
        const c = options(cfg, "cfg", dilutionFields, false);
        return run(internal.contextDilution, dilutionConfig(c, number));
      },
      contextDilutionSweep(cfg) {
        const c = options(cfg, "cfg", dilutionFields, false);
        return run(internal.contextDilutionSweep, dilutionConfig(c, vector));
      },

      // ---- sampling ----
      sampling(input, opts) {
        const i = options(input, "input", ["logits", "probs"], false);
        const logits = optionalVector(i.logits, "logits");
        const probs = optionalVector(i.probs, "probs");
        const o = options(opts, "opts", ["temperature", "topK", "topP"], true);
        return run(internal.sampling, { logits, probs }, {
          temperature: optionalNumber(o.temperature, "temperature"),
          topK: optionalNumber(o.topK, "topK"),
          topP: optionalNumber(o.topP, "topP"),
        });
      },
      sample(probs, opts) {
        const p = vector(probs, "probs");
        const o = options(opts, "opts", ["count", "seed"], false);
        return run(internal.sample, p, { count: number(o.count, "count"), seed: number(o.seed, "seed") });
      },

      // ---- moe ----
      moeLoadBalance(f, p) {
        const F = vector(f, "f");
        return run(internal.moeLoadBalance, F, vector(p, "p"));
      },
      moeRoute(routerLogits, topK) {
        const L = matrix(routerLogits, "routerLogits");
        return run(internal.moeRoute, L, optionalNumber(topK, "topK"));
      },

      // ---- rope ----
      rope(q, k, m, n, opts) {
        const Q = vector(q, "q");
        const K = vector(k, "k");
        const M = number(m, "m");
        const N = number(n, "n");
        return run(internal.rope, Q, K, M, N, ropeOptions(opts));
      },
      ropeScores(q, k, offsets, opts) {
        const Q = vector(q, "q");
        const K = vector(k, "k");
        const O = vector(offsets, "offsets");
        return run(internal.ropeScores, Q, K, O, ropeOptions(opts));
      },

      // ---- cost ----
      attentionCost(cfg) {
        const c = options(cfg, "cfg", costFields, false);
        return run(internal.attentionCost, costConfig(c, number));
      },
      attentionCostSweep(cfg) {
        const c = options(cfg, "cfg", costFields, false);
        return run(internal.attentionCostSweep, costConfig(c, vector));
      },

      // ---- speculative ----
      speculativeDecoding(cfg) {
        const c = options(cfg, "cfg", speculativeFields, false);
        return run(internal.speculativeDecoding, speculativeConfig(c, number));
      },
      speculativeSweep(cfg) {
        const c = options(cfg, "cfg", speculativeFields, false);
        return run(internal.speculativeSweep, speculativeConfig(c, vector));
      },
      speculativeAlpha(cfg) {
        const c = options(cfg, "cfg", ["meanTokens", "gamma"], false);
        return run(internal.speculativeAlpha, {
          meanTokens: number(c.meanTokens, "meanTokens"),
          gamma: number(c.gamma, "gamma"),
        });
      },
      speculativeMeasure(cfg) {
        const c = options(cfg, "cfg", ["alpha", "gamma", "rounds", "seed"], false);
        return run(internal.speculativeMeasure, {
          alpha: number(c.alpha, "alpha"),
          gamma: number(c.gamma, "gamma"),
          rounds: number(c.rounds, "rounds"),
          seed: number(c.seed, "seed"),
        });
      },

      // ---- alibi ----
      alibiSlopes(heads) {
        return run(internal.alibiSlopes, number(heads, "heads"));
      },
      alibiHeads(heads) {
        return run(internal.alibiHeads, number(heads, "heads"));
      },
      alibi(cfg) {
        const c = options(cfg, "cfg", ["slope", "tokens", "distances"], false);
        return run(internal.alibi, {
          slope: number(c.slope, "slope"),
          tokens: optionalNumber(c.tokens, "tokens"),
          distances: optionalNumber(c.distances, "distances"),
        });
      },

      // ---- quantization ----
      smoothQuant(xAbsMax, wAbsMax, alpha) {
        const X = vector(xAbsMax, "xAbsMax");
        const W = vector(wAbsMax, "wAbsMax");
        return run(internal.smoothQuant, X, W, optionalNumber(alpha, "alpha"));
      },
      quantize(values, opts) {
        const x = vector(values, "values");
        const o = options(opts, "opts", ["bits"], true);
        return run(internal.quantize, x, { bits: optionalNumber(o.bits, "bits") });
      },
      smoothQuantLayer(x, w, opts) {
        const X = matrix(x, "x");
        const W = matrix(w, "w");
        const o = options(opts, "opts", smoothQuantLayerFields, true);
        return run(internal.smoothQuantLayer, X, W, smoothQuantLayerOptions(o, optionalNumber));
      },
      smoothQuantLayerSweep(x, w, opts) {
        const X = matrix(x, "x");
        const W = matrix(w, "w");
        const o = options(opts, "opts", smoothQuantLayerFields, false);
        return run(internal.smoothQuantLayerSweep, X, W, smoothQuantLayerOptions(o, vector));
      },

      // ---- diagnostics ----
      memoryInUse() {
        return internal.memoryInUse();
      },
      memoryStats() {
        const s = internal.memoryStats();
        return { bytesInUse: s.bytesInUse, blocksInUse: s.blocksInUse, heapTop: s.heapTop,
          memoryBytes: HEAP8.buffer.byteLength };
      },
    };
  }

  // ---- the config of a function and of its sweep ----------------------------------------
  // A function and its sweep take the same config except for the swept field, a number for the
  // one and an array for the other: one reader per pair, given how to read that field (`number`
  // or `optionalNumber` for the function, `vector` for the sweep). The fields are read in the
  // order written, so the first bad one named is the same for both. No object spread here: this
  // Emscripten's optimiser cannot parse it.

  /** contextDilution's and contextDilutionSweep's cfg; `distractors` reads the swept field. */
  const dilutionFields = ["relevantScore", "distractorScore", "distractors"];
  function dilutionConfig(c, distractors) {
    return {
      relevantScore: number(c.relevantScore, "relevantScore"),
      distractorScore: number(c.distractorScore, "distractorScore"),
      distractors: distractors(c.distractors, "distractors"),
    };
  }

  /** attentionCost's and attentionCostSweep's cfg; `tokens` reads the swept field. */
  const costFields = ["tokens", "heads", "headDim", "layers", "kvHeads", "batch", "bytesPerValue", "dModel",
    "ffnDim", "gated"];
  function costConfig(c, tokens) {
    return {
      tokens: tokens(c.tokens, "tokens"),
      heads: number(c.heads, "heads"),
      headDim: number(c.headDim, "headDim"),
      layers: optionalNumber(c.layers, "layers"),
      kvHeads: optionalNumber(c.kvHeads, "kvHeads"),
      batch: optionalNumber(c.batch, "batch"),
      bytesPerValue: optionalNumber(c.bytesPerValue, "bytesPerValue"),
      dModel: optionalNumber(c.dModel, "dModel"),
      ffnDim: optionalNumber(c.ffnDim, "ffnDim"),
      gated: optionalBoolean(c.gated, "gated"),
    };
  }

  /** speculativeDecoding's and speculativeSweep's cfg; `gamma` reads the swept field. */
  const speculativeFields = ["alpha", "gamma", "costRatio"];
  function speculativeConfig(c, gamma) {
    return {
      alpha: number(c.alpha, "alpha"),
      gamma: gamma(c.gamma, "gamma"),
      costRatio: optionalNumber(c.costRatio, "costRatio"),
    };
  }

  /** smoothQuantLayer's and smoothQuantLayerSweep's opts; `alpha` reads the swept field. */
  const smoothQuantLayerFields = ["alpha", "bits"];
  function smoothQuantLayerOptions(o, alpha) {
    return {
      alpha: alpha(o.alpha, "alpha"),
      bits: optionalNumber(o.bits, "bits"),
    };
  }

  /** rope's options: pairing as 0 (interleaved) or 1 (half), base, freqs. */
  function ropeOptions(opts) {
    const o = options(opts, "opts", ["pairing", "base", "freqs"], true);
    return {
      pairing: optionalChoice(o.pairing, "pairing", ["interleaved", "half"]),
      base: optionalNumber(o.base, "base"),
      freqs: optionalVector(o.freqs, "freqs"),
    };
  }

  // The embind functions exist once the runtime has started (its constructors register them).
  // The public functions replace them just before the factory's promise resolves, in the same
  // turn, so no caller (nor Module.onRuntimeInitialized) ever sees the internal ones.
  const resolveReady = readyPromiseResolve;
  readyPromiseResolve = (module) => {
    const internal = {};
    const functions = publicFunctions(internal);
    for (const name of ownKeys(functions)) {
      internal[name] = module[name];
      module[name] = givingBack(functions[name]);
    }
    resolveReady(module);
  };
})();
