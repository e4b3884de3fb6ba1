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
    assert.fail("llmmath-leaky.js is not built, so the leak test cannot be seen to fail: ./build.sh test " +
      "builds it, or by hand after ./build.sh core: cmake --build build/wasm --target llmmath_wasm_leaky " +
      `(looked for ${leakyCandidates.join(", ")})`);
  }
  leakyInstance ??= require(leakyPath)();
  return leakyInstance;
}

// ---- arguments ---------------------------------------------------------------------------------

// Exercise 1 of attention.test.js.
const Q = [[1, 0], [0, 1], [1, 1]];
const K = [[1, 0], [0, 1], [3, 0]];
const V = [[1, 0], [0, 1], [0.5, 0.5]];
// moe.test.js's router logits and even router weights.
const L = [[1, 0, 2, 0.5], [0, 3, 1, 1], [2, 2, 0, -1]];
const even = [0.25, 0.25, 0.25, 0.25];
// rope.test.js's vector and frequencies.
const x = [1, 0, 1, 0];
const freqs = { freqs: [0.01, 0.0001] };
// cost.test.js's exercise.
const exercise = { tokens: 16, heads: 8, headDim: 32 };
// quantization.test.js's layer: the exercise's channel (ranges 8 and 0.5) beside one of ranges 2 and 2.
const X1 = [[8, -2]];
const W1 = [[0.5], [2]];

/** n entries of a smooth signal that changes with `seed`. */
const signal = (n, seed) => Array.from({ length: n }, (_, j) => Math.sin(seed + 1.7 * j));
/** A rows × cols matrix of such entries, each row a Float64Array when `typed`. */
const matrixOf = (rows, cols, seed, typed = false) =>
  Array.from({ length: rows }, (_, r) => {
    const row = signal(cols, seed + r * cols);
    return typed ? Float64Array.from(row) : row;
  });
/** The uniform distribution over n tokens, as a Float64Array. */
const uniform = (n) => new Float64Array(n).fill(1 / n);

// A caller's exception: the module must rethrow it as its own Error and hold nothing after it.
const boom = () => {
  throw new Error("a caller's getter throws");
};
/** A copy of `array` whose entry `index` is read through a getter that throws. */
const throwingEntry = (array, index) => Object.defineProperty([...array], index, { get: boom });
/** A copy of `object` whose property `key` is read through an enumerable getter that throws. */
const throwingKey = (object, key) => Object.defineProperty({ ...object }, key, { get: boom, enumerable: true });
/** An object or array whose every Proxy trap that reads throws. */
const throwingProxy = (target) => new Proxy(target, { get: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, has: boom });

// ---- the table -----------------------------------------------------------------------------------

// One row per public function: `valid` calls must return a result, `invalid` ones must throw an
// Error of the module's own ("<parameter> must be …"); each call is (m, i) => …, i the iteration.
// `iterations` gives every row about 2,500 calls, near 0.1 s: the counts are exact, so a call that
// leaks anything at all is seen, and the iterations only vary the shapes and options.
const table = [
  {
    name: "attention",
    iterations: 200,
    valid: [
      (m) => m.attention(Q, K, V, { causal: true }),
      (m) => m.attention(Q, K, V, null),
      (m, i) => m.attention([[1, 1]], K, V, { causal: true, scale: 0.25 * (1 + (i % 4)) }),
      (m, i) => {
        const n = 1 + (i % 4);
        const d = 1 + (i % 3);
        return m.attention(matrixOf(n, d, i, true), matrixOf(n + 1, d, i + 1), matrixOf(n + 1, 2, i + 2), { causal: i % 2 === 0 });
      },
    ],
    invalid: [
      (m) => m.attention(Q, K, [[1, 0], [0, 1], [NaN, 1]]),
      (m) => m.attention(Q, K, [[1, 0], [0, 1]]),
      (m) => m.attention(Q, [[1, 0], [0, 1], [3]], V),
      (m) => m.attention([[1, "0"], [0, 1], [1, 1]], K, V),
      (m) => m.attention(Q, K, V, { causal: 1 }),
      (m) => m.attention(Q, K, V, { casual: true }),
      (m) => m.attention([[1, 0], [0, 1], [1, 1], [2, 2]], K, [[1, 0], [0, 1], [1, 1]], { causal: true }),
      (m) => m.attention([[1e200, 1e200]], [[1e200, 1e200]], [[1]]),
      (m) => m.attention([[1, 0], throwingEntry([0, 1], 1), [1, 1]], K, V),
      (m) => m.attention(Q, K, V, throwingKey({}, "scale")),
    ],
  },
  {
    name: "contextDilution",
    iterations: 300,
    valid: [
      (m, i) => m.contextDilution({ relevantScore: i % 5, distractorScore: -(i % 3), distractors: i }),
      (m) => m.contextDilution({ relevantScore: 0, distractorScore: 0, distractors: 3 }),
    ],
    invalid: [
      (m) => m.contextDilution({ relevantScore: 1, distractorScore: 0, distractors: 1.5 }),
      (m) => m.contextDilution({ relevantScore: 1, distractorScore: 0, distractors: -1 }),
      (m) => m.contextDilution({ relevantScore: 1, distractorScore: 0 }),
      (m) => m.contextDilution({ relevantScore: true, distractorScore: 0, distractors: 1 }),
      (m) => m.contextDilution({ relevantScore: 1, distractorScore: -Infinity, distractors: 1 }),
      (m) => m.contextDilution({ relevantScore: NaN, distractorScore: 0, distractors: 1 }),
      (m) => m.contextDilution(null),
      (m) => m.contextDilution(throwingKey({ relevantScore: 1, distractorScore: 0 }, "distractors")),
      (m) => m.contextDilution(throwingProxy({})),
    ],
  },
  {
    name: "contextDilutionSweep",
    iterations: 200,
    valid: [
      (m, i) => m.contextDilutionSweep({ relevantScore: i % 5, distractorScore: -(i % 3), distractors: [0, 1, i, 2 ** 53] }),
      (m, i) => m.contextDilutionSweep({ relevantScore: 2, distractorScore: 0, distractors: Float64Array.from({ length: 1 + (i % 64) }, (_, n) => n * n) }),
      (m) => m.contextDilutionSweep({ relevantScore: 0, distractorScore: 0, distractors: new Float64Array(4096) }),
    ],
    invalid: [
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: [0, 1, 2.5] }),
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: [1, "2"] }),
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: [] }),
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: new Float64Array(4097) }),
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: 3 }),
      (m) => m.contextDilutionSweep({ relevantScore: NaN, distractorScore: 0, distractors: [1] }),
      (m) => m.contextDilutionSweep({ relevantScore: 1, distractorScore: 0, distractors: throwingEntry([1, 2, 3], 1) }),
      (m) => m.contextDilutionSweep(throwingKey({ relevantScore: 1, distractorScore: 0 }, "distractors")),
    ],
  },
  {
    name: "sampling",
    iterations: 200,
    valid: [
      (m) => m.sampling({ logits: [1.2, 0.3, -0.5, 2.0, 0.1] }, { temperature: 0.7, topK: 4, topP: 0.9 }),
      (m) => m.sampling({ probs: [0.2, 0.3, 0.5] }),
      (m, i) => m.sampling({ logits: Float64Array.from(signal(1 + (i % 50), i)) }, { temperature: i % 3, topK: i % 7 }),
      (m, i) => m.sampling({ probs: uniform(1 + (i % 20)) }, { topP: 0.5 }),
    ],
    invalid: [
      (m) => m.sampling({ logits: [1.2, 0.3, -0.5, 2.0, 0.1] }, { topP: 2 }),
      (m) => m.sampling({ probs: [0.5, 0.4] }),
      (m) => m.sampling({ logits: [1, NaN] }),
      (m) => m.sampling({ logits: [1, "2"] }),
      (m) => m.sampling({ logits: [] }),
      (m) => m.sampling({ logits: [1, 2], probs: [1, 0] }),
      (m) => m.sampling({ logits: [1, 2] }, { topK: 2.5 }),
      (m) => m.sampling({ logits: [1, 2] }, { top_p: 0.5 }),
      (m) => m.sampling({ logits: [1, 2] }, throwingKey({ topK: 1 }, "topP")),
      (m) => m.sampling({ logits: [1, 2] }, throwingProxy({})),
    ],
  },
  {
    name: "sample",
    iterations: 250,
    valid: [
      (m, i) => m.sample([0.2, 0.3, 0.5], { count: 10, seed: i }),
      (m, i) => m.sample(uniform(1 + (i % 50)), { count: 1 + (i % 100), seed: 2 ** 32 - 1 - i }),
      (m) => m.sample([1], { count: 1, seed: 0 }),
    ],
    invalid: [
      (m, i) => m.sample([0.2, 0.3, 0.5], { count: 10, seed: -i - 1 }),
      (m) => m.sample([0.5, 0.5], { count: 0, seed: 1 }),
      (m) => m.sample([0.5, 0.5], { count: 2.5, seed: 1 }),
      (m) => m.sample([0.5, 0.5], { count: 1, seed: NaN }),
      (m) => m.sample([0.5, 0.6], { count: 1, seed: 1 }),
      (m) => m.sample([0.5, 0.5]),
      (m) => m.sample([0.5, 0.5], { count: 1, seed: 1, n: 2 }),
      (m) => m.sample(throwingEntry([0.5, 0.5], 1), { count: 1, seed: 1 }),
      (m) => m.sample([0.5, 0.5], throwingKey({ count: 1 }, "seed")),
    ],
  },
  {
    name: "moeLoadBalance",
    iterations: 300,
    valid: [
      (m) => m.moeLoadBalance([0.5, 0.5, 0, 0], even),
      (m, i) => m.moeLoadBalance(uniform(1 + (i % 64)), uniform(1 + (i % 64))),
      (m) => m.moeLoadBalance([1], [1]),
    ],
    invalid: [
      (m) => m.moeLoadBalance([0.5, 0.5, 0, 0], [0.5, 0.5]),
      (m) => m.moeLoadBalance([0.5, 0.4], [0.5, 0.5]),
      (m) => m.moeLoadBalance(["0.5", 0.5], [0.5, 0.5]),
      (m) => m.moeLoadBalance([0.5, 0.5], [NaN, 1]),
      (m) => m.moeLoadBalance([0.5, 0.5], true),
      (m) => m.moeLoadBalance([], []),
      (m) => m.moeLoadBalance([0.5, 0.5], throwingEntry([0.5, 0.5], 0)),
    ],
  },
  {
    name: "moeRoute",
    iterations: 200,
    valid: [
      (m) => m.moeRoute(L, 2),
      (m) => m.moeRoute(L),
      (m, i) => m.moeRoute(matrixOf(1 + (i % 8), 4 + (i % 5), i, i % 2 === 0), 1 + (i % 4)),
    ],
    invalid: [
      (m) => m.moeRoute(L, 5),
      (m) => m.moeRoute(L, 0),
      (m) => m.moeRoute(L, NaN),
      (m) => m.moeRoute(L, "2"),
      (m) => m.moeRoute([[1, 2], [3]]),
      (m) => m.moeRoute([[1, -Infinity]]),
      (m) => m.moeRoute([]),
      (m) => m.moeRoute([[1, 2], throwingEntry([3, 4], 1)]),
      (m) => m.moeRoute(throwingProxy([[1, 2]])),
    ],
  },
  {
    name: "rope",
    iterations: 200,
    valid: [
      (m, i) => m.rope(x, x, i, 0, i % 2 ? freqs : { pairing: "half" }),
      (m, i) => {
        const d = 2 * (1 + (i % 8));
        return m.rope(signal(d, i), Float64Array.from(signal(d, i + 1)), i, -i, { base: 500, pairing: "interleaved" });
      },
      (m) => m.rope(x, [0.3, -1.2, 0.8, 0.5], 5, 2),
    ],
    invalid: [
      (m) => m.rope(x, x, 0, 0, { base: 0.5 }),
      (m) => m.rope(x, x, 0, 0, { freqs: [1, NaN] }),
      (m) => m.rope([1, 0, 1], [1, 0, 1], 0, 0),
      (m) => m.rope(x, [1, 0], 0, 0),
      (m) => m.rope(x, x, NaN, 0),
      (m) => m.rope(x, x, "2", 0),
      (m) => m.rope(x, x, 0, 0, { pairing: "rotate-half" }),
      (m) => m.rope(x, x, 0, 0, { base: 100, freqs: [0.1, 0.2] }),
      (m) => m.rope(x, x, 1e300, 0, { freqs: [1e10, 1] }),
      (m) => m.rope(x, throwingEntry(x, 3), 0, 0),
      (m) => m.rope(x, x, 0, 0, throwingKey({ pairing: "half" }, "base")),
    ],
  },
  {
    name: "ropeScores",
    iterations: 250,
    valid: [
      (m) => m.ropeScores(x, x, [-2, 0, 2], freqs),
      (m, i) => {
        const d = 2 * (1 + (i % 8));
        return m.ropeScores(signal(d, i), signal(d, i + 2), Float64Array.from(signal(1 + (i % 32), i)), { pairing: "half" });
      },
      (m, i) => m.ropeScores(x, x, [i]),
    ],
    invalid: [
      (m) => m.ropeScores(x, x),
      (m) => m.ropeScores(x, x, [1, "2"]),
      (m) => m.ropeScores(x, x, [Infinity]),
      (m) => m.ropeScores(x, x, []),
      (m) => m.ropeScores(x, x, [1], { base: 10, freqs: [1, 1] }),
      (m) => m.ropeScores([1, 0, 1], x, [1]),
      (m) => m.ropeScores(x, x, [1e300], { freqs: [1e10, 1] }),
      (m) => m.ropeScores(x, x, throwingEntry([0, 1, 2], 1)),
    ],
  },
  {
    name: "attentionCost",
    iterations: 200,
    valid: [
      (m, i) => m.attentionCost({ ...exercise, tokens: i + 1, bytesPerValue: 0.5 }),
      (m, i) => m.attentionCost({ tokens: 4096, heads: 32, headDim: 128, layers: 32, kvHeads: 8, dModel: 4096, ffnDim: 11008, gated: i % 2 === 0 }),
      (m, i) => m.attentionCost({ ...exercise, batch: 1 + (i % 16), kvHeads: 1 }),
    ],
    invalid: [
      (m) => m.attentionCost({ ...exercise, kvHeads: 3 }),
      (m) => m.attentionCost({ ...exercise, kvHeads: "8" }),
      (m) => m.attentionCost({ ...exercise, tokens: 2 ** 30 + 1 }),
      (m) => m.attentionCost({ ...exercise, heads: 2.5 }),
      (m) => m.attentionCost({ ...exercise, headDim: NaN }),
      (m) => m.attentionCost({ ...exercise, bytesPerValue: 0 }),
      (m) => m.attentionCost({ ...exercise, dModel: 256, ffnDim: 262145 }),
      (m) => m.attentionCost({ ...exercise, kv_heads: 2 }),
      (m) => m.attentionCost(throwingKey(exercise, "heads")),
      (m) => m.attentionCost(throwingProxy({ tokens: 1 })),
    ],
  },
  {
    name: "attentionCostSweep",
    iterations: 200,
    valid: [
      (m, i) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: [1, 16, i + 1], bytesPerValue: 0.5 }),
      (m, i) => m.attentionCostSweep({ heads: 32, headDim: 128, layers: 32, kvHeads: 8, dModel: 4096, ffnDim: 11008, gated: i % 2 === 0,
        tokens: Float64Array.from({ length: 1 + (i % 64) }, (_, n) => 2 ** (n % 31)) }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: new Float64Array(4096).fill(2 ** 30) }),
    ],
    invalid: [
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: [16, 2.5] }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: [0] }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: new Array(4097).fill(16) }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: 16 }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: [16], kvHeads: 3 }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: [16], dModel: 256 }),
      (m) => m.attentionCostSweep({ heads: 8, headDim: 32, tokens: throwingEntry([16, 32], 0) }),
      (m) => m.attentionCostSweep(throwingKey({ heads: 8, headDim: 32, tokens: [16] }, "layers")),
    ],
  },
  {
    name: "speculativeDecoding",
    iterations: 250,
    valid: [
      (m, i) => m.speculativeDecoding({ alpha: (i % 100) / 99, gamma: i % 17, costRatio: 0.05 }),
      (m) => m.speculativeDecoding({ alpha: 0.5, gamma: 3 }),
      (m) => m.speculativeDecoding({ alpha: 1, gamma: 4, costRatio: 0.5 }),
    ],
    invalid: [
      (m) => m.speculativeDecoding({ alpha: 0.5, gamma: 0.5 }),
      (m) => m.speculativeDecoding({ alpha: 0.5, gamma: -2 }),
      (m) => m.speculativeDecoding({ alpha: 1.5, gamma: 3 }),
      (m) => m.speculativeDecoding({ alpha: NaN, gamma: 3 }),
      (m) => m.speculativeDecoding([0.5, 3]),
      (m) => m.speculativeDecoding({ alpha: 0.5, gamma: 3, costRatio: Infinity }),
      (m) => m.speculativeDecoding({ alpha: 0.5, gamma: 3, c: 0.1 }),
      (m) => m.speculativeDecoding(throwingKey({ alpha: 0.5, gamma: 3 }, "costRatio")),
    ],
  },
  {
    name: "speculativeSweep",
    iterations: 200,
    valid: [
      (m, i) => m.speculativeSweep({ alpha: (i % 100) / 99, gamma: [0, 1, i % 17, 1024], costRatio: 0.05 }),
      (m, i) => m.speculativeSweep({ alpha: 0.8, gamma: Float64Array.from({ length: 1 + (i % 64) }, (_, g) => g) }),
      (m) => m.speculativeSweep({ alpha: 0, gamma: [5, 2, 7], costRatio: 0 }),
    ],
    invalid: [
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: [1, 2.5] }),
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: [1025] }),
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: new Array(4097).fill(1) }),
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: { 0: 1 } }),
      (m) => m.speculativeSweep({ alpha: 1.5, gamma: [3] }),
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: [3], costRatio: -1 }),
      (m) => m.speculativeSweep({ alpha: 0.5, gamma: throwingEntry([1, 2, 3], 2), costRatio: 0.1 }),
      (m) => m.speculativeSweep(throwingKey({ alpha: 0.5, gamma: [3] }, "costRatio")),
    ],
  },
  {
    name: "speculativeAlpha",
    iterations: 300,
    valid: [
      (m, i) => m.speculativeAlpha({ meanTokens: 1 + (i % 4), gamma: 3 }),
      (m, i) => m.speculativeAlpha({ meanTokens: 1.875, gamma: 1 + (i % 1024) }),
    ],
    invalid: [
      (m) => m.speculativeAlpha({ meanTokens: 0.5, gamma: 3 }),
      (m) => m.speculativeAlpha({ meanTokens: 4.5, gamma: 3 }),
      (m) => m.speculativeAlpha({ meanTokens: "2", gamma: 3 }),
      (m) => m.speculativeAlpha({ meanTokens: 2, gamma: 0 }),
      (m) => m.speculativeAlpha({ meanTokens: NaN, gamma: 3 }),
      (m) => m.speculativeAlpha({ meanTokens: 2, gamma: 3, alpha: 0.5 }),
      (m) => m.speculativeAlpha(),
      (m) => m.speculativeAlpha(throwingKey({ meanTokens: 2 }, "gamma")),
    ],
  },
  {
    name: "speculativeMeasure",
    iterations: 250,
    valid: [
      (m, i) => m.speculativeMeasure({ alpha: (i % 10) / 10, gamma: 1 + (i % 5), rounds: 20, seed: i }),
      (m) => m.speculativeMeasure({ alpha: 1, gamma: 4, rounds: 100, seed: 9 }),
    ],
    invalid: [
      (m) => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 0, seed: 0 }),
      (m) => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 2.5, seed: 0 }),
      (m) => m.speculativeMeasure({ alpha: 0.5, gamma: 20, rounds: 1e6, seed: 0 }),
      (m) => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4, seed: 2 ** 32 }),
      (m) => m.speculativeMeasure({ alpha: 1.5, gamma: 3, rounds: 4, seed: 0 }),
      (m) => m.speculativeMeasure({ alpha: NaN, gamma: 3, rounds: 4, seed: 0 }),
      (m) => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4 }),
      (m) => m.speculativeMeasure(throwingKey({ alpha: 0.5, gamma: 3, rounds: 4 }, "seed")),
    ],
  },
  {
    name: "alibiSlopes",
    iterations: 300,
    valid: [
      (m, i) => m.alibiSlopes(1 + (i % 64)),
      (m) => m.alibiSlopes(4096),
    ],
    // One number and nothing else is read: an object whose valueOf throws is refused by its type.
    invalid: [
      (m) => m.alibiSlopes(0),
      (m) => m.alibiSlopes(1.5),
      (m) => m.alibiSlopes(4097),
      (m) => m.alibiSlopes("8"),
      (m) => m.alibiSlopes(NaN),
      (m) => m.alibiSlopes(null),
      (m) => m.alibiSlopes({ valueOf: boom }),
    ],
  },
  {
    name: "alibiHeads",
    iterations: 300,
    valid: [
      (m, i) => m.alibiHeads(1 + (i % 64)),
      (m) => m.alibiHeads(12),
    ],
    invalid: [
      (m) => m.alibiHeads(0),
      (m) => m.alibiHeads(4097),
      (m) => m.alibiHeads(12.5),
      (m) => m.alibiHeads("12"),
      (m) => m.alibiHeads(),
      (m) => m.alibiHeads(-Infinity),
    ],
  },
  {
    name: "alibi",
    iterations: 250,
    valid: [
      (m, i) => m.alibi({ slope: 1 / (1 + (i % 8)), tokens: 1 + (i % 6) }),
      (m, i) => m.alibi({ slope: 0.125, distances: 1 + (i % 600) }),
      (m) => m.alibi({ slope: 0.125 }),
    ],
    invalid: [
      (m) => m.alibi({ slope: -1, tokens: 9000 }),
      (m) => m.alibi({ slope: 0.5, tokens: 9000 }),
      (m) => m.alibi({ slope: 0 }),
      (m) => m.alibi({ slope: Infinity }),
      (m) => m.alibi({ slope: 1e-320 }),
      (m) => m.alibi({ slope: 0.5, tokens: 1.5 }),
      (m) => m.alibi({ slope: 0.5, distances: "9" }),
      (m) => m.alibi({ slope: 0.5, heads: 8 }),
      (m) => m.alibi(throwingKey({ slope: 0.5 }, "tokens")),
    ],
  },
  {
    name: "smoothQuant",
    iterations: 250,
    valid: [
      (m, i) => m.smoothQuant([8, 1 + i], [0.5, 0.1], (i % 11) / 10),
      (m) => m.smoothQuant([8, 2, 0], [0, 0.5, 0.5]),
      (m, i) => m.smoothQuant(new Float64Array(1 + (i % 64)).fill(3), new Float64Array(1 + (i % 64)).fill(0.25), undefined),
    ],
    invalid: [
      (m) => m.smoothQuant([8, -1], [0.5, 1]),
      (m) => m.smoothQuant([8, 2], [0.5]),
      (m) => m.smoothQuant([8], [NaN]),
      (m) => m.smoothQuant([8], [1e-200]),
      (m) => m.smoothQuant([8], [0.5], 1.5),
      (m) => m.smoothQuant([8], [0.5], "0.5"),
      (m) => m.smoothQuant([], []),
      (m) => m.smoothQuant(throwingEntry([8, 2], 1), [0.5, 0.5]),
    ],
  },
  {
    name: "quantize",
    iterations: 250,
    valid: [
      (m, i) => m.quantize([i, -2.5, 0.1], { bits: 2 + (i % 15) }),
      (m) => m.quantize([0, 0, 0]),
      (m, i) => m.quantize(Float64Array.from(signal(1 + (i % 64), i)), null),
    ],
    invalid: [
      (m) => m.quantize([1, NaN], { bits: 8 }),
      (m) => m.quantize([1e-310]),
      (m) => m.quantize([1], { bits: 17 }),
      (m) => m.quantize([1], { bits: 4.5 }),
      (m) => m.quantize([1], { bit: 8 }),
      (m) => m.quantize([1], 8),
      (m) => m.quantize([]),
      (m) => m.quantize(throwingEntry([1, 2, 3], 2)),
      (m) => m.quantize(throwingProxy([1])),
    ],
  },
  {
    name: "smoothQuantLayer",
    iterations: 200,
    valid: [
      (m, i) => m.smoothQuantLayer(X1, W1, { alpha: (i % 11) / 10 }),
      (m) => m.smoothQuantLayer([[4, 0, -1], [-2, 0, 0.5]], [[0.5, -0.25], [0.3, 0.2], [0, 0]]),
      (m, i) => {
        const channels = 1 + (i % 6);
        return m.smoothQuantLayer(matrixOf(1 + (i % 4), channels, i, true), matrixOf(channels, 1 + (i % 3), i + 1), { bits: 2 + (i % 15) });
      },
    ],
    invalid: [
      (m) => m.smoothQuantLayer([[8, 1e-200]], W1),
      (m) => m.smoothQuantLayer(X1, [[0.5]]),
      (m) => m.smoothQuantLayer([[8, "2"]], W1),
      (m) => m.smoothQuantLayer(X1, [[NaN], [2]]),
      (m) => m.smoothQuantLayer(X1, W1, { alpha: 2 }),
      (m) => m.smoothQuantLayer(X1, W1, { bits: 1 }),
      (m) => m.smoothQuantLayer(X1, W1, { alfa: 0.5 }),
      (m) => m.smoothQuantLayer([throwingEntry([8, -2], 0)], W1),
      (m) => m.smoothQuantLayer(X1, W1, throwingKey({ alpha: 0.5 }, "bits")),
    ],
  },
  {
    name: "smoothQuantLayerSweep",
    iterations: 200,
    valid: [
      (m, i) => m.smoothQuantLayerSweep(X1, W1, { alpha: [0, (i % 11) / 10, 1] }),
      (m, i) => {
        const channels = 1 + (i % 6);
        return m.smoothQuantLayerSweep(matrixOf(1 + (i % 4), channels, i, true), matrixOf(channels, 1 + (i % 3), i + 1),
          { alpha: Float64Array.from({ length: 1 + (i % 32) }, (_, a) => a / 31), bits: 2 + (i % 15) });
      },
      (m) => m.smoothQuantLayerSweep([[4, 0, -1], [-2, 0, 0.5]], [[0.5, -0.25], [0.3, 0.2], [0, 0]], { alpha: [0.5] }),
    ],
    invalid: [
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5, 1.5] }),
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: [NaN] }),
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: [] }),
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: 0.5 }),
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5], bits: 1 }),
      (m) => m.smoothQuantLayerSweep(X1, W1),
      (m) => m.smoothQuantLayerSweep(X1, [[0.5]], { alpha: [0.5] }),
      (m) => m.smoothQuantLayerSweep([[8, 1e-200]], W1, { alpha: [0.5] }),
      (m) => m.smoothQuantLayerSweep(X1, W1, { alpha: throwingEntry([0, 0.5, 1], 1) }),
      (m) => m.smoothQuantLayerSweep(X1, W1, throwingKey({ alpha: [0.5] }, "bits")),
    ],
  },
];

// ---- the loop ------------------------------------------------------------------------------------

/** Iterations run before the measure starts, so that one-time allocations are not counted. */
const WARM_UP = 20;

/**
 * One pass over a row's calls at iteration i: the valid ones return a result, the invalid ones
 * throw an Error whose message names a parameter (a mistake in the test's own arguments, a
 * TypeError of its own, would not pass for a refusal).
 */
function runRow(m, row, i) {
  for (const call of row.valid) {
    const result = call(m, i);
    if (typeof result !== "object" || result === null) assert.fail(`${row.name}: ${call} at i = ${i} returned ${result}`);
  }
  for (const call of row.invalid) {
    let error;
    try {
      call(m, i);
    } catch (e) {
      error = e;
    }
    if (!(error instanceof Error) || !/^\S+ must /.test(error.message)) {
      assert.fail(`${row.name}: ${call} at i = ${i} should throw an Error naming a parameter, ${error === undefined ? "it returned" : `it threw ${error}`}`);
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

test("the table has one row for every public function of the module and of llmmath.d.ts", async () => {
  const m = await core();
  const dts = fs.readFileSync(path.join(__dirname, "..", "..", "dist", "llmmath.d.ts"), "utf8");
  const body = dts.split("interface LLMMath {")[1].split("\n}\n")[0];
  const declared = [...body.matchAll(/^ {2}(\w+)\(/gm)].map((match) => match[1]);
  // the measures themselves are not rows: the loop calls them around every row
  const diagnostics = ["memoryInUse", "memoryStats", "count_emval_handles"];
  const rows = table.map((row) => row.name);
  assert.deepEqual([...rows].sort(), declared.filter((name) => !diagnostics.includes(name)).sort());
  for (const name of rows) assert.equal(typeof m[name], "function", `${name} is exported`);
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
  assert.deepEqual(others, Object.fromEntries(Object.keys(others).map((name) => [name, nothing])),
    "every row but quantize leaves nothing behind");
  const calls = iterations * table.find((r) => r.name === "quantize").valid.length;
  assert.ok(quantize.bytes >= calls * 64, `quantize: ${quantize.bytes} bytes after ${calls} valid calls`);
  assert.deepEqual([quantize.blocks, quantize.handles], [calls, 0], "quantize: one block per valid call, no handle");
});
