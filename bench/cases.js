// The inputs bench/api.js times through the public API and bench/native.cpp through the core's
// C++ API: written once, here, and sent to the native program as JSON, so both sides compute on
// the same numbers (JSON carries every double exactly: JavaScript writes the shortest string
// that reads back to the same double, and strtod reads it back).
//
// Two sizes:
//   - widget size: what the reader's figures pass by default (their default preset in
//     site/src/widgets/*-presets.js, imported from there so that the benchmark follows the site,
//     and the defaults declared in site/src/widgets/*.js). One case per public function, 18 in
//     all; each call takes microseconds, so a timing covers many calls.
//   - large: the sizes of issue 10 (attention 512 × 64 and 2048 × 64; sampling over 50,257,
//     128,256 and 2^20 logits; quantize 2^20; moeRoute 4096 × 64), also passed as Float64Arrays.
//
// cases(m) needs the module: a few widget inputs are results of the core, as in the figures
// (the probabilities sample() draws from are sampling()'s, moeLoadBalance's fractions are
// moeRoute's), so they are computed here once and then fixed.
"use strict";
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const widgets = path.join(__dirname, "..", "site", "src", "widgets");
const presets = (file) => import(pathToFileURL(path.join(widgets, file)).href);

// Issue 10's budgets of the wasm / native ratio: 2× at widget size; 1.3× for the three large
// cases of issue 9; the other large cases have none (reported only).
const WIDGET_BUDGET = 2;
const LARGE_BUDGET = 1.3;

// Large inputs, smooth and non-degenerate as in bench/limits.js: sin of the index.
const vector = (n) => Array.from({ length: n }, (_, i) => Math.sin(i));
const matrix = (rows, cols) =>
  Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => Math.sin(7 * i + j)));

/** Every case: { name, fn, size, what, args (as a page passes them), budget (or null) }. */
async function cases(m) {
  const { attentionPresets } = await presets("attention-presets.js");
  const { samplingPresets } = await presets("sampling-presets.js");
  const { moePresets } = await presets("moe-presets.js");
  const { ropePresets } = await presets("rope-presets.js");
  const { costPresets } = await presets("cost-presets.js");
  const { quantizationPresets } = await presets("quantization-presets.js");

  // The figures' default presets and settings (the `default:` of each attribute).
  const att = attentionPresets.exercise;
  const smp = samplingPresets.australia;
  const samplingOpts = { temperature: smp.temperature, topK: smp.topK, topP: smp.topP };
  const moe = moePresets.between;
  const rope = ropePresets.exercise;
  const ropeOpts = { pairing: rope.pairing, freqs: rope.freqs };
  const ropeOffsets = Array.from({ length: 2 * rope.range + 1 }, (_, i) => i - rope.range);
  const c = costPresets.exercise;
  // The cost figure leaves dModel and ffnDim out when both are 0 (cost.js, linearInputs).
  const cost = { tokens: c.tokens, heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim, layers: c.layers, batch: 1, bytesPerValue: 2 };
  const spec = { alpha: 0.5, gamma: 3, costRatio: 0.1 };
  const alibiHeads = 8, alibiHead = 3, alibiTokens = 8;
  const q = quantizationPresets.outlier;

  // Inputs that are the core's own results in the figures.
  const probs = m.sampling({ logits: smp.values }, samplingOpts).probs;
  const route = m.moeRoute(moe.logits, 1);
  const even = m.moeRoute([Array(route.f.length).fill(0)], 1).p;
  const slope = m.alibiSlopes(alibiHeads)[alibiHead - 1];
  const layer = m.smoothQuantLayer(q.X, q.W, { alpha: 0.5, bits: 8 });
  const meanTokens = m.speculativeDecoding(spec).expectedTokens;

  const widget = (name, fn, what, ...args) => ({ name, fn, size: "widget", what, args, budget: WIDGET_BUDGET });
  const large = (name, fn, what, budget, ...args) => ({ name, fn, size: "large", what, args, budget });
  return [
    widget("attention", "attention", `preset exercise: ${att.Q.length} × ${att.Q[0].length}, causal`, att.Q, att.K, att.V, { causal: att.causal }),
    widget("contextDilution", "contextDilution", "a 2, b 0, n 10", { relevantScore: 2, distractorScore: 0, distractors: 10 }),
    widget("sampling", "sampling", `preset australia: ${smp.values.length} logits, top-p ${smp.topP}`, { logits: smp.values }, samplingOpts),
    widget("sample", "sample", `${probs.length} probs, 10 draws`, probs, { count: 10, seed: 42 }),
    widget("moeLoadBalance", "moeLoadBalance", `${route.f.length} experts (preset between against an even router)`, route.f, even),
    widget("moeRoute", "moeRoute", `preset between: ${moe.logits.length} tokens × ${moe.logits[0].length} experts, top-1`, moe.logits, 1),
    widget("rope", "rope", `preset exercise: d ${rope.d}, m ${rope.m}, n ${rope.n}, 2 freqs`, rope.q, rope.k, rope.m, rope.n, ropeOpts),
    widget("ropeScores", "ropeScores", `preset exercise: d ${rope.d}, ${ropeOffsets.length} offsets`, rope.q, rope.k, ropeOffsets, ropeOpts),
    widget("attentionCost", "attentionCost", "preset exercise (16 tokens, 8 heads, d 32, 1 layer)", cost),
    widget("speculativeDecoding", "speculativeDecoding", "alpha 0.5, gamma 3, c 0.1", spec),
    widget("speculativeAlpha", "speculativeAlpha", "gamma 3, meanTokens of alpha 0.5", { meanTokens, gamma: 3 }),
    widget("speculativeMeasure", "speculativeMeasure", "alpha 0.5, gamma 3, 10,000 rounds", { alpha: 0.5, gamma: 3, rounds: 10000, seed: 1 }),
    widget("alibiSlopes", "alibiSlopes", `${alibiHeads} heads`, alibiHeads),
    widget("alibiHeads", "alibiHeads", `${alibiHeads} heads`, alibiHeads),
    widget("alibi", "alibi", `head ${alibiHead} of ${alibiHeads}, ${alibiTokens} × ${alibiTokens} bias`, { slope, tokens: alibiTokens }),
    widget("smoothQuant", "smoothQuant", `preset outlier: ${layer.xAbsMax.length} channels`, layer.xAbsMax, layer.wAbsMax, 0.5),
    widget("quantize", "quantize", "5 values, 8 bits (diagnose: one loud channel)", [60, 0.82, -0.37, 0.15, -0.06], { bits: 8 }),
    widget("smoothQuantLayer", "smoothQuantLayer", `preset outlier: x ${q.X.length} × ${q.X[0].length}, w ${q.W.length} × ${q.W[0].length}`, q.X, q.W, { alpha: 0.5, bits: 8 }),

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
