// The leak detector itself: memoryInUse() (bindings/wasm/memory.cpp counts every block the
// module allocates and frees) must move when memory is held, or the "no leaks" tests of every
// concept would pass whatever happened, as they did while it read mallinfo(), which is always 0
// in this Emscripten. Shown twice: with blocks held through the module's own _malloc, and with
// the test-only build llmmath-leaky.js, whose quantize() leaks 64 bytes per call, put through the
// same loop as quantize.test.js's leak test.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core, modulePath } = require("./core.js");

// The leaky build: LLMMATH_LEAKY_JS, or beside the module under test, or in build/wasm/.
// Built only when asked: cmake --build build/wasm --target llmmath_wasm_leaky
const leakyCandidates = [
  process.env.LLMMATH_LEAKY_JS,
  path.join(path.dirname(modulePath), "llmmath-leaky.js"),
  path.join(__dirname, "..", "..", "build", "wasm", "bindings", "wasm", "llmmath-leaky.js"),
].filter(Boolean);
const leakyPath = leakyCandidates.find((p) => fs.existsSync(p));

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

// quantize.test.js's leak test, as a function of the module: the heap bytes it gained.
function quantizeLeakLoop(m) {
  m.smoothQuant([8, 3], [0.5, 0.1]);
  m.quantize([1, -2, 3]);
  const heap = m.memoryInUse();
  for (let i = 0; i < 5000; i++) {
    m.quantize([i, -2.5, 0.1], { bits: 2 + (i % 15) });
    assert.throws(() => m.quantize([1, NaN], { bits: 8 }));
  }
  return m.memoryInUse() - heap;
}

test("the leak test sees nothing leak in the module under test", async () => {
  assert.equal(quantizeLeakLoop(await core()), 0);
});

test("the leak test fails on the test-only build that leaks 64 bytes per quantize()",
  { skip: leakyPath ? false : "llmmath-leaky.js is not built (cmake --build build/wasm --target llmmath_wasm_leaky)" },
  async () => {
    const createLeaky = require(leakyPath);
    const m = await createLeaky();
    const leaked = quantizeLeakLoop(m);
    assert.ok(leaked >= 5000 * 64, `the planted leak is seen: ${leaked} bytes after 5000 calls`);
    // and everything else about that build is the module as usual
    assert.deepEqual(m.quantize([127, 2.5]).levels, [127, 2]);
  });
