// The JavaScript boundary of dist/llmmath.js: the public functions of core-api.md, in front of
// the internal embind functions of llmmath_bindings.cpp. Emscripten appends this file to the
// module (--post-js), inside the factory, beside its glue (HEAP8, readyPromiseResolve) and after
// `llmmathApi`, the table of every function's parameters that bindings/api/generate.js makes from
// the API's declarations (bindings/api/<concept>.js); once the runtime is ready one public
// function per row of that table replaces the embind function of the same name. This file names
// no function of the API: it knows how to read each kind of parameter, and the table says which.
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
//  - no string a caller passes reaches the WebAssembly heap, but for the two kinds that are text
//    by nature: a "text" argument (a config.json's text, at most the core's maxTextBytes) and a
//    "json" one (plain data, a parsed config.json, which this file writes as JSON text from the
//    value's own enumerable properties, each read once, to a depth of at most maxJsonDepth, for
//    the core's parser to read back); a choice (pairing) becomes a number here, and a string is
//    not even read beyond its length when it is too long to quote in an error message;
//  - an exception thrown by a caller's getter or Proxy trap is rethrown as an Error naming the
//    parameter being read; nothing is allocated in the heap until every argument is read, so
//    there is nothing to release;
//  - results come back through a callback while the core's arrays are alive and are copied
//    here into plain arrays and objects, with −0 written as 0 (a reader would see "−0.00");
//  - large snapshot buffers are reused from call to call (see snapshotBuffer): the rest of the
//    time of a large call goes into the plain arrays it returns, new memory on every call.
// Error messages follow the core's shape, "<parameter> must be <expected>, got <value>"; limits,
// the words of the core's own checks and the way a number is written in a message are the
// core's (check.hpp), read from the module: this file checks only what JavaScript alone can
// (types, lengths before entries are read, own properties, a caller's exceptions).
(function installBoundary() {
  "use strict";

  // ---- intrinsics, captured when the module is created ----------------------------------
  const { isArray } = Array;
  const { apply } = Reflect;
  const ownKeys = Object.keys;
  const createObject = Object.create;
  const { isInteger } = Number;
  const ErrorConstructor = Error;
  const F64 = Float64Array;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const getter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
  const typedArrayTag = getter(Symbol.toStringTag); // undefined for anything but a typed array
  const typedArrayLength = getter("length");
  const typedArraySet = TypedArrayPrototype.set;
  const hasOwn = Object.prototype.hasOwnProperty;

  // ---- the core's policy, taken from the module once its runtime is ready (see the end) ------
  let maxVectorLength = 0; // llmmath::max_vector_length
  let maxMatrixSide = 0; // llmmath::max_matrix_side
  let describeNumber = null; // llmmath::describe: a number as the core writes it in a message
  let requireVectorLength = null; // the core's check of a length: its message, or undefined
  let requireMatrixDims = null; // the core's check of a shape: its message, or undefined
  let maxTextBytes = 0; // llmmath::json::max_text_bytes
  let maxJsonDepth = 0; // llmmath::json::max_depth
  const quote = JSON.stringify; // of a primitive string only: no toJSON is looked up
  // A string longer than this is described by its length only: quoting its start would make
  // the engine flatten all of it (a 2^29-character string of repeats: 1 GB and seconds).
  const MAX_QUOTED_STRING = 1024;

  // ---- describing values in error messages ----------------------------------------------

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
    return new ErrorConstructor(`${name} must be readable, got an exception while reading it: ${describeThrown(e)}`, {
      cause: e,
    });
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
    if (typeof n !== "number" || !isInteger(n) || n < 0)
      fail(name, expected, `an array whose length is ${describe(n)}`);
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
    if (n === 0 || n > maxVectorLength) throw new ErrorConstructor(requireVectorLength(n, name));
    const out = snapshotBuffer(n);
    copyEntries(value, n, name, out, 0);
    return out;
  }

  const ROW = "a row (an array of numbers)";

  /**
   * A matrix: an Array of rows, each an Array of numbers or a Float64Array, all of one length,
   * as { rows, cols, values } with the values row by row in one Float64Array.
   */
  function matrix(value, name) {
    const rows = arrayLength(value, name, "a matrix (an array of rows, each an array of numbers)");
    if (rows === 0) fail(name, "a non-empty matrix", "an empty array");
    if (rows > maxMatrixSide) {
      // Refused before any row is read; the first row's length only completes the message.
      let cols;
      try {
        cols = lengthOf(value[0], `${name}[0]`, ROW);
      } catch {
        cols = undefined;
      }
      if (cols !== undefined) throw new ErrorConstructor(requireMatrixDims(rows, cols, name));
      fail(name, `at most ${maxMatrixSide} rows and columns`, `${rows} rows`);
    }
    const first = read(value, 0, `${name}[0]`);
    const cols = lengthOf(first, `${name}[0]`, ROW);
    if (cols === 0 || cols > maxMatrixSide) throw new ErrorConstructor(requireMatrixDims(rows, cols, name));
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
        fail(
          name,
          `an object with only the keys ${known.join(", ")}`,
          `the unknown key ${key.length <= MAX_QUOTED_STRING ? quoted(key) : `of ${key.length} characters`}`,
        );
      }
    }
    for (let i = 0; i < keys.length; i++) snapshot[keys[i]] = read(value, keys[i], keys[i]);
    return snapshot;
  }

  function number(v, name) {
    if (typeof v !== "number") fail(name, "a number", describe(v));
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
          if (j > 0 && above !== undefined && keep[at - rows - 1] !== 0 && values[at - rows - 1] === values[at])
            row[j] = above[j - 1];
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
    if (typeof value !== "object" || value === null) return value;
    if (isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < out.length; i++) out[i] = plain(value[i]);
      return out;
    }
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

  /** A "text" argument: a string of at most maxTextBytes characters (the core counts its bytes). */
  function text(v, name) {
    if (typeof v !== "string") fail(name, "a string (the text of a config.json)", describe(v));
    if (v.length > maxTextBytes) fail(name, `at most ${maxTextBytes} characters (1 MiB)`, describe(v));
    return v;
  }

  /**
   * A "json" argument written as JSON text: objects by their own enumerable properties (each read
   * once, an inherited one never, no toJSON called), arrays by index, finite numbers, strings,
   * booleans and null; anything else, or nesting deeper than maxJsonDepth (a cycle), is refused
   * naming where it is (config.text_config.layer_types[3]).
   */
  function jsonText(value, name) {
    if (typeof value !== "object" || value === null || isArray(value))
      fail(name, "an object (the contents of a config.json, as JSON.parse gives it)", describe(value));
    const parts = [];
    let size = 0;
    const write = (part) => {
      size += part.length;
      if (size > maxTextBytes) fail(name, `at most ${maxTextBytes} characters (1 MiB) written as JSON`, "more");
      parts.push(part);
    };
    const walk = (v, where, depth) => {
      if (typeof v === "number") {
        if (v !== v || v === Infinity || v === -Infinity)
          fail(where, "a finite number (JSON has no NaN or Infinity)", describe(v));
        write(`${v}`); // the shortest form that reads back to v, valid JSON
      } else if (typeof v === "string") {
        if (v.length > maxTextBytes) fail(name, `at most ${maxTextBytes} characters (1 MiB) written as JSON`, "more");
        write(quote(v));
      } else if (typeof v === "boolean") {
        write(v ? "true" : "false");
      } else if (v === null) {
        write("null");
      } else if (typeof v === "object") {
        if (depth >= maxJsonDepth)
          fail(name, `nested at most ${maxJsonDepth} deep (plain data, no cycles)`, "deeper nesting");
        if (isArray(v)) {
          const n = arrayLength(v, where, "an array");
          write("[");
          for (let i = 0; i < n; i++) {
            if (i > 0) write(",");
            walk(read(v, i, `${where}[${i}]`), `${where}[${i}]`, depth + 1);
          }
          write("]");
        } else {
          let keys;
          try {
            keys = ownKeys(v);
          } catch (e) {
            throw unreadable(where, e);
          }
          write("{");
          let first = true;
          for (let i = 0; i < keys.length; i++) {
            const key = keys[i];
            const entry = read(v, key, `${where}.${key}`);
            if (entry === undefined) continue; // as JSON.stringify leaves it out
            write(first ? "" : ",");
            first = false;
            write(quote(key));
            write(":");
            walk(entry, `${where}.${key}`, depth + 1);
          }
          write("}");
        }
      } else {
        fail(where, "plain data (an object, array, string, finite number, boolean or null)", describe(v));
      }
    };
    walk(value, name, 0);
    return parts.join("");
  }

  function boolean(v, name) {
    if (typeof v !== "boolean") fail(name, "true or false", describe(v));
    return v;
  }

  // ---- the public functions (core-api.md), one per row of llmmathApi --------------------------

  /** Reads one parameter (or one field of an object parameter) as its row of the table says. */
  function readParameter(p, value) {
    if (p.optional && value === undefined && p.kind !== "object") return undefined;
    // an object within an options object (opts.devices): absent when undefined or null
    if (p.nested && p.optional && (value === undefined || value === null)) return undefined;
    const name = p.label ?? p.name;
    switch (p.kind) {
      case "number":
        return number(value, name);
      case "vector":
        return vector(value, name);
      case "matrix":
        return matrix(value, name);
      case "boolean":
        return boolean(value, name);
      case "choice":
        return optionalChoice(value, name, p.values);
      case "text":
        return text(value, name);
      case "json":
        return jsonText(value, name);
      case "object": {
        const o = options(value, name, p.keys, p.optional && !p.nested);
        const out = {};
        for (let i = 0; i < p.fields.length; i++)
          out[p.fields[i].name] = readParameter(p.fields[i], o[p.fields[i].name]);
        return out;
      }
      default:
        throw new ErrorConstructor(`llmmath: unknown kind of parameter ${p.kind}`); // a faulty table
    }
  }

  /** The public function of one row: every argument read into a snapshot, in order, then the call. */
  function publicFunction(row, internal) {
    const params = row.params;
    // An object's keys, once; an object among its fields is read the same way, named by its path
    // in messages (devices.count).
    const prepare = (p, prefix) => {
      p.keys = p.fields.map((f) => f.name);
      for (const f of p.fields) {
        if (prefix) f.label = prefix + f.name;
        if (f.kind !== "object") continue;
        f.nested = true;
        f.label = prefix + f.name;
        prepare(f, `${f.label}.`);
      }
    };
    for (let i = 0; i < params.length; i++) if (params[i].kind === "object") prepare(params[i], "");
    const name = row.name;
    return function (...args) {
      const snapshots = new Array(params.length);
      for (let i = 0; i < params.length; i++) snapshots[i] = readParameter(params[i], args[i]);
      return run(internal[name], ...snapshots);
    };
  }

  // ---- diagnostics: not functions of the core, so not in the table ---------------------------

  function diagnostics(internal) {
    return {
      memoryInUse() {
        return internal.memoryInUse();
      },
      memoryStats() {
        const s = internal.memoryStats();
        return {
          bytesInUse: s.bytesInUse,
          blocksInUse: s.blocksInUse,
          heapTop: s.heapTop,
          memoryBytes: HEAP8.buffer.byteLength,
        };
      },
    };
  }

  // The embind functions exist once the runtime has started (its constructors register them).
  // The public functions replace them just before the factory's promise resolves, in the same
  // turn, so no caller (nor Module.onRuntimeInitialized) ever sees the internal ones; the core's
  // limits and checks for this file are taken off the module object.
  /**
   * What llmmath_bindings.cpp registers for this file alone, beside the API.
   * @typedef {{ maxVectorLength: number, maxMatrixSide: number, maxTextBytes: number, maxJsonDepth: number,
   *   describeNumber: (x: number) => string,
   *   requireVectorLength: (n: number, name: string) => string | undefined,
   *   requireMatrixDims: (rows: number, cols: number, name: string) => string | undefined }} CorePolicy
   */
  const api = llmmathApi;
  const resolveReady = readyPromiseResolve;
  readyPromiseResolve = (module) => {
    const policy = /** @type {CorePolicy} */ (/** @type {unknown} */ (module));
    maxVectorLength = policy.maxVectorLength;
    maxMatrixSide = policy.maxMatrixSide;
    describeNumber = policy.describeNumber;
    requireVectorLength = policy.requireVectorLength;
    requireMatrixDims = policy.requireMatrixDims;
    maxTextBytes = policy.maxTextBytes;
    maxJsonDepth = policy.maxJsonDepth;
    for (const name of [
      "maxTextBytes",
      "maxJsonDepth",
      "maxVectorLength",
      "maxMatrixSide",
      "describeNumber",
      "requireVectorLength",
      "requireMatrixDims",
    ]) {
      delete module[name];
    }
    const internal = {};
    const functions = diagnostics(internal);
    for (let i = 0; i < api.length; i++) functions[api[i].name] = publicFunction(api[i], internal);
    for (const name of ownKeys(functions)) {
      internal[name] = module[name];
      module[name] = givingBack(functions[name]);
    }
    resolveReady(module);
  };
})();
