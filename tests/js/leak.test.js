// No leaks, for every public function, in one table: each row holds a few valid calls (shapes
// and options varied by the iteration number) and a few invalid ones (bad types, NaN, wrong
// shapes, out-of-range options, unknown keys, a caller's getter or Proxy trap that throws), and
// one loop puts every row through thousands of calls, asserting that the heap's bytes and
// blocks and the live embind handles end where they started. The rows carry over the calls of
// the "no leaks" tests each concept file had before.
//
// The measure itself must be able to fail: memoryInUse() (bindings/wasm/memory.cpp counts every
// block the module allocates and frees) is shown to move when blocks are held, and the table is
// put through the test-only build llmmath-leaky.js, whose quantize() leaks 64 bytes per call:
// the quantize row must see it, and no other row.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core, modulePath } = require("./core.js");
const { functions, diagnostics, typed, refusedCalls } = require("./api.js");

// The leaky build: LLMMATH_LEAKY_JS, or beside the module under test, or in build/wasm/.
// ./build.sh test builds it; by hand: cmake --build build/wasm --target llmmath_wasm_leaky
const leakyCandidates = [
  process.env.LLMMATH_LEAKY_JS,
  path.join(path.dirname(modulePath), "llmmath-leaky.js"),
  path.join(__dirname, "..", "..", "build", "wasm", "bindings", "wasm", "llmmath-leaky.js"),
].filter(Boolean);
const leakyPath = leakyCandidates.find((p) => fs.existsSync(p));

let leakyInstance;
/** The leaky build's module object, shared by the tests that use it; fails when it is not built. */
function leaky() {
  if (!leakyPath) {
    assert.fail(
      "llmmath-leaky.js is not built, so the leak test cannot be seen to fail: ./build.sh test " +
        "builds it, or by hand after ./build.sh core: cmake --build build/wasm --target llmmath_wasm_leaky " +
        `(looked for ${leakyCandidates.join(", ")})`,
    );
  }
  leakyInstance ??= require(leakyPath)();
  return leakyInstance;
}

// ---- the table -----------------------------------------------------------------------------------

// One row per function of the API's declarations (bindings/api/, through tests/js/api.js): its
// examples, plain and with typed arrays, must return a result; its first example with one
// argument faulted at a time (the wrong type, NaN, an empty or ragged array, an unknown key, a
// caller's getter or Proxy trap that throws) must throw an Error of the module's own
// ("<parameter> must be …"). A NaN or a ragged row reaches the core or the copy into the heap,
// so refusals are exercised on both sides of the wall. `iterations` gives every row about 2,500
// calls: the counts are exact, so a call that leaks anything at all is seen.
const table = functions.map((f) => {
  const call = (args) => (m) => m[f.name](...args);
  const valid = [...f.examples.map(call), ...f.examples.map((args) => call(typed(f, args)))];
  const invalid = refusedCalls(f).map(call);
  return { name: f.name, iterations: Math.ceil(2500 / (valid.length + invalid.length)), valid, invalid };
});

// ---- the loop ------------------------------------------------------------------------------------

/** Iterations run before the measure starts, so that one-time allocations are not counted. */
const WARM_UP = 20;

/**
 * One pass over a row's calls at iteration i: the valid ones return a result, the invalid ones
 * throw an Error whose message names a parameter or the line and column of a fault of JSON (a mistake in the test's own arguments, a
 * TypeError of its own, would not pass for a refusal).
 */
function runRow(m, row, i) {
  for (const call of row.valid) {
    const result = call(m, i);
    if (typeof result !== "object" || result === null)
      assert.fail(`${row.name}: ${call} at i = ${i} returned ${result}`);
  }
  for (const call of row.invalid) {
    let error;
    try {
      call(m, i);
    } catch (e) {
      error = e;
    }
    // a parameter's rule, or where the core's JSON parser stopped in a config's text
    if (
      !(error instanceof Error) ||
      !/^(\S+ must |config\.json, line \d+, column \d+: expected )/.test(error.message)
    ) {
      assert.fail(
        `${row.name}: ${call} at i = ${i} should throw an Error naming a parameter, ${error === undefined ? "it returned" : `it threw ${error}`}`,
      );
    }
  }
}

/**
 * Warms the row up, then runs its calls `iterations` times and returns what they left behind:
 * heap bytes, heap blocks and live embind handles, each after minus before.
 */
function leakLoop(m, row, iterations) {
  for (let i = 0; i < WARM_UP; i++) runRow(m, row, i);
  const bytes = m.memoryInUse();
  const blocks = m.memoryStats().blocksInUse;
  const handles = m.count_emval_handles();
  for (let i = 0; i < iterations; i++) runRow(m, row, i);
  return {
    bytes: m.memoryInUse() - bytes,
    blocks: m.memoryStats().blocksInUse - blocks,
    handles: m.count_emval_handles() - handles,
  };
}

const nothing = { bytes: 0, blocks: 0, handles: 0 };

// ---- the tests -----------------------------------------------------------------------------------

test("memoryInUse() counts blocks held in the heap and returns to its value when they are freed", async () => {
  const m = await core();
  const before = m.memoryInUse();
  const stats = m.memoryStats();
  const blocks = [1000, 64, 1 << 20].map((n) => m._malloc(n));
  assert.ok(m.memoryInUse() >= before + 1000 + 64 + (1 << 20), `held: ${m.memoryInUse() - before} bytes`);
  assert.equal(m.memoryStats().blocksInUse, stats.blocksInUse + 3);
  blocks.forEach((p) => m._free(p));
  assert.equal(m.memoryInUse(), before);
  assert.equal(m.memoryStats().blocksInUse, stats.blocksInUse);
});

test("the table has a row for every declared function, each with a few valid and a few refused calls", async () => {
  const m = await core();
  const rows = table.map((row) => row.name);
  for (const name of rows) assert.equal(typeof m[name], "function", `${name} is exported`);
  for (const name of diagnostics) assert.ok(!rows.includes(name), `${name} measures; it is not a row`);
  for (const row of table) {
    assert.ok(row.valid.length >= 2 && row.invalid.length >= 5, `${row.name}: a few valid and a few invalid calls`);
  }
});

for (const row of table) {
  const calls = row.iterations * (row.valid.length + row.invalid.length);
  test(`no leaks: ${row.name}, ${calls} calls of which ${row.iterations * row.invalid.length} throw, leaves heap bytes, blocks and handles unchanged`, async () => {
    assert.deepEqual(leakLoop(await core(), row, row.iterations), nothing);
  });
}

test("the quantize row fails on the test-only build that leaks 64 bytes per quantize()", async () => {
  const m = await leaky();
  const row = table.find((r) => r.name === "quantize");
  const leaked = leakLoop(m, row, row.iterations);
  // each valid call leaks one block of at least 64 bytes; a refused call stops before the leak
  const calls = row.iterations * row.valid.length;
  assert.ok(leaked.bytes >= calls * 64, `the planted leak is seen: ${leaked.bytes} bytes after ${calls} valid calls`);
  assert.equal(leaked.blocks, calls, "one block per valid call");
  assert.equal(leaked.handles, 0, "the planted leak holds no embind handle");
  // and everything else about that build is the module as usual
  assert.deepEqual(m.quantize([127, 2.5]).levels, [127, 2]);
});

test("on the leaky build the table attributes the leak to quantize alone", async () => {
  const m = await leaky();
  // smoothQuantLayer quantises through the core (llmmath::smooth_quant_layer), not through the
  // quantize() binding where the leak is planted, so it must stay at 0 like every other row.
  // 50 iterations of each row: enough for a leak on every call, as planted; the rows' own tests
  // above run their full iterations on the module under test.
  const iterations = 50;
  const seen = Object.fromEntries(table.map((row) => [row.name, leakLoop(m, row, iterations)]));
  const { quantize, ...others } = seen;
  assert.deepEqual(
    others,
    Object.fromEntries(Object.keys(others).map((name) => [name, nothing])),
    "every row but quantize leaves nothing behind",
  );
  const calls = iterations * table.find((r) => r.name === "quantize").valid.length;
  assert.ok(quantize.bytes >= calls * 64, `quantize: ${quantize.bytes} bytes after ${calls} valid calls`);
  assert.deepEqual([quantize.blocks, quantize.handles], [calls, 0], "quantize: one block per valid call, no handle");
});
