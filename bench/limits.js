// The worst case of every function of dist/llmmath.js within its limits, timed through the
// public API: the figures documented beside each limit (core/include/llmmath/*.hpp and
// llmmath.d.ts). Each case runs in a fresh module, a few times; the minimum is the function's
// cost on a warm page, the median what a reader typically waits.
//
//   node bench/limits.js [case …]        LLMMATH_JS=… to time another build, REPS=… (default 5)
"use strict";
const path = require("node:path");

const modulePath = path.resolve(process.env.LLMMATH_JS || path.join(__dirname, "..", "dist", "llmmath.js"));
const createLLMMath = require(modulePath);
const REPS = Number(process.env.REPS || 5);

// Inputs: smooth, non-degenerate values, as Float64Array rows (the fastest input the API takes;
// plain arrays add about 10 ms per million entries).
const matrix = (rows, cols) =>
  Array.from({ length: rows }, (_, i) => Float64Array.from({ length: cols }, (_, j) => Math.sin(i * 7 + j)));
const vector = (n, f = (i) => Math.sin(i)) => Float64Array.from({ length: n }, (_, i) => f(i));
const uniform = (n) => vector(n, () => 1 / n);

// Each case: what it is, and a function of the module returning the call to time.
const cases = {
  attention: ["2048 × 2048 scores, d + dv = 256 (2^22 scores, 2^30 multiply-adds)",
    (m) => { const q = matrix(2048, 1), v = matrix(2048, 255); return () => m.attention(q, q, v); }],
  attentionCausal: ["2048 × 2048 scores, d = dv = 128, causal",
    (m) => { const q = matrix(2048, 128); return () => m.attention(q, q, q, { causal: true }); }],
  contextDilution: ["one call", (m) => () => m.contextDilution({ relevantScore: 1, distractorScore: 0, distractors: 2 ** 53 })],
  sampling: ["2^20 logits, temperature 0.7, topK 2^20, topP 0.9",
    (m) => { const z = vector(2 ** 20); return () => m.sampling({ logits: z }, { temperature: 0.7, topK: 2 ** 20, topP: 0.9 }); }],
  samplingProbs: ["2^20 probs, temperature 0.7", (m) => { const p = uniform(2 ** 20); return () => m.sampling({ probs: p }, { temperature: 0.7 }); }],
  sample: ["10^6 draws from 2^20 tokens", (m) => { const p = uniform(2 ** 20); return () => m.sample(p, { count: 1e6, seed: 1 }); }],
  moeLoadBalance: ["2^20 experts", (m) => { const f = uniform(2 ** 20); return () => m.moeLoadBalance(f, f); }],
  moeRoute: ["2048 tokens × 1024 experts (2^21), topK 1024", (m) => { const L = matrix(2048, 1024); return () => m.moeRoute(L, 1024); }],
  rope: ["d = 2^20", (m) => { const q = vector(2 ** 20); return () => m.rope(q, q, 3, 1); }],
  ropeScores: ["2^17 offsets of d = 128 (2^24 coordinates)", (m) => { const q = vector(128), o = vector(2 ** 17, (i) => i); return () => m.ropeScores(q, q, o); }],
  ropeScoresShort: ["2^20 offsets of d = 2", (m) => { const q = vector(2), o = vector(2 ** 20, (i) => i); return () => m.ropeScores(q, q, o); }],
  attentionCost: ["one call", (m) => () => m.attentionCost({ tokens: 2 ** 30, heads: 4096, headDim: 4096, dModel: 65536, ffnDim: 262144 })],
  speculativeDecoding: ["gamma 1024", (m) => () => m.speculativeDecoding({ alpha: 0.999, gamma: 1024, costRatio: 0.1 })],
  speculativeAlpha: ["gamma 1024, meanTokens next to 1 (the longest bisection)", (m) => () => m.speculativeAlpha({ meanTokens: 1 + 2 ** -52, gamma: 1024 })],
  speculativeMeasure: ["10^7 draft tokens (gamma 1024, alpha 1)", (m) => () => m.speculativeMeasure({ alpha: 1, gamma: 1024, rounds: 9765, seed: 1 })],
  alibiSlopes: ["4096 heads", (m) => () => m.alibiSlopes(4096)],
  alibiHeads: ["4096 heads", (m) => () => m.alibiHeads(4096)],
  alibi: ["4096 tokens (a 4096 × 4096 bias)", (m) => () => m.alibi({ slope: 1 / 256, tokens: 4096 })],
  alibiDistances: ["2^20 distances", (m) => () => m.alibi({ slope: 1 / 256, distances: 2 ** 20 })],
  smoothQuant: ["2^20 channels", (m) => { const x = vector(2 ** 20, () => 2), w = vector(2 ** 20, () => 0.5); return () => m.smoothQuant(x, w); }],
  quantize: ["2^20 values", (m) => { const x = vector(2 ** 20); return () => m.quantize(x); }],
  smoothQuantLayer: ["x 1024 × 1024, w 1024 × 16 (2^20 entries, 2^24 multiply-adds)",
    (m) => { const x = matrix(1024, 1024), w = matrix(1024, 16); return () => m.smoothQuantLayer(x, w); }],
};

async function time(name) {
  const [what, setup] = cases[name];
  const m = await createLLMMath();
  const call = setup(m);
  const before = m.memoryStats();
  const times = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    call();
    times.push(performance.now() - t0);
  }
  const after = m.memoryStats();
  times.sort((a, b) => a - b);
  return { name, what, min: times[0], median: times[REPS >> 1], max: times[REPS - 1],
    heapMiB: after.memoryBytes / 2 ** 20, leakedBytes: after.bytesInUse - before.bytesInUse };
}

(async () => {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(cases);
  console.log(`${modulePath}, ${REPS} calls each (ms)`);
  for (const name of names) {
    const r = await time(name);
    console.log(`${r.name.padEnd(20)} min ${r.min.toFixed(0).padStart(5)}  median ${r.median.toFixed(0).padStart(5)}  ` +
      `max ${r.max.toFixed(0).padStart(5)}  wasm memory ${r.heapMiB.toFixed(0).padStart(4)} MiB  leaked ${r.leakedBytes} B  ${r.what}`);
  }
})();
