// alibi: the head slopes of attention with linear biases and one head's bias and reach
// (core/include/llmmath/alibi.hpp). The format is index.js's.
"use strict";

module.exports = {
  concept: "alibi",
  section: 6,
  functions: [
    {
      name: "alibiSlopes",
      doc: `The ALiBi head slopes (Press et al. 2022, as its reference code computes them): for h a
power of two, 2^(−8k/h) for k = 1 … h (8 heads: 1/2 … 1/256); otherwise the slopes of the
largest power of two p below h followed by every other slope of 2p, h − p of them.
@param heads whole number in 1 … 4096 (under a millisecond)
@returns heads slopes, the first head's (largest) first`,
      params: [{ name: "heads", kind: "number" }],
      returns: "number[]",
      worst: [{ what: "4096 heads", args: () => [4096] }],
      examples: [[8], [12], [100]],
    },
    {
      name: "alibiHeads",
      doc: `Every head of an h-head ALiBi model with its half-distance, and the steepest and gentlest
head found by comparing all slopes: they are the first and the last head only when h is a
power of two (12 heads: steepest head 9, slope 2^−0.5; gentlest head 8, slope 2^−8,
half-distance ≈ 177.4 tokens). Head numbers are 1-based.
@param heads whole number in 1 … 4096`,
      params: [{ name: "heads", kind: "number" }],
      returns: "AlibiHeadsResult",
      worst: [{ what: "4096 heads", args: () => [4096] }],
      examples: [[12], [40], [64]],
    },
    {
      name: "alibi",
      doc: `One ALiBi head of slope m (Press et al. 2022, §3): the distance ln 2 / m at which the bias
halves a key's softmax weight and, with \`tokens\`, the bias matrix −m·(i − j). Worst case,
4096 tokens (a 4096 × 4096 bias, 2^24 entries), 0.6 s (median 0.7 s); 2^20 distances 50 ms.`,
      params: [{ name: "cfg", kind: "object", type: "AlibiConfig" }],
      returns: "AlibiResult",
      worst: [
        { what: "4096 tokens (a 4096 × 4096 bias)", args: () => [{ slope: 1 / 256, tokens: 4096 }] },
        { what: "2^20 distances", args: () => [{ slope: 1 / 256, distances: 2 ** 20 }] },
      ],
      examples: [[{ slope: 0.03, distances: 50 }], [{ slope: 0.0625, tokens: 5 }]],
    },
  ],
  types: [
    {
      name: "AlibiHead",
      fields: [
        { name: "head", type: "number", doc: "1-based head number, the k of slope_k." },
        { name: "slope", type: "number", doc: "The head's slope m." },
        { name: "halfDistance", type: "number", doc: "ln 2 / m, in tokens." },
      ],
    },
    {
      name: "AlibiHeadsResult",
      fields: [
        { name: "slopes", type: "number[]", doc: "alibiSlopes(heads), in head order." },
        { name: "halfDistances", type: "number[]", doc: "ln 2 / slope per head, in tokens." },
        {
          name: "steepest",
          type: "AlibiHead",
          doc: "The largest slope (shortest half-distance); head 1 only for a power of two.",
        },
        {
          name: "gentlest",
          type: "AlibiHead",
          doc: "The smallest slope, 2^−8 (half-distance 256·ln 2 ≈ 177.4); the last head only for a power of two.",
        },
      ],
    },
    {
      name: "AlibiConfig",
      fields: [
        {
          name: "slope",
          kind: "number",
          doc: "The head's slope m, in [1e-300, 1e300] (> 0, bounded so every result is finite).",
        },
        {
          name: "tokens",
          kind: "number",
          optional: true,
          fuzzMax: 40,
          doc: "Sequence length for the bias matrix, whole number in 1 … 4096.",
        },
        {
          name: "distances",
          fuzzMax: 100,
          kind: "number",
          optional: true,
          doc: "How many distances (0 … distances − 1) relativeWeight covers, 1 … 2^20, without a bias.",
        },
      ],
    },
    {
      name: "AlibiResult",
      fields: [
        {
          name: "halfDistance",
          type: "number",
          doc: "ln 2 / slope, in tokens: where the bias halves a key's weight relative to distance 0.",
        },
        {
          name: "bias",
          type: "(number | null)[][]",
          optional: true,
          doc: `tokens × tokens, present only with tokens: −slope·(i − j) for key j ≤ query i (0 on the
diagonal, never −0) and null for j > i, masked.`,
        },
        {
          name: "relativeWeight",
          type: "number[]",
          optional: true,
          doc: `Present with distances (that many entries) or tokens (one per token); entry δ is
e^(−slope·δ), the factor by which the bias scales a key's softmax weight at distance δ
relative to distance 0.`,
        },
      ],
    },
  ],
};
