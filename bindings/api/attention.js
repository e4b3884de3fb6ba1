// attention: scaled dot-product attention, and the dilution of a relevant key's weight by
// irrelevant context (core/include/llmmath/attention.hpp). The format is index.js's.
"use strict";

const q = [
  [0.3, -1.2, 2.5],
  [1.7, 0.4, -0.9],
  [-2.2, 1.1, 0.6],
  [0.8, 0.8, 0.8],
];
const k = [
  [1.5, -0.3, 0.2],
  [-0.7, 2.1, 1.3],
  [0.9, 0.9, -1.8],
  [2.4, -1.6, 0.5],
];
const v = [
  [1, 0],
  [0, 1],
  [0.5, -0.5],
  [-1, 2],
];
const scores = { relevantScore: 1.25, distractorScore: -0.5 };

module.exports = {
  concept: "attention",
  section: 1,
  functions: [
    {
      name: "attention",
      doc: `Scaled dot-product attention (Vaswani et al. 2017, eq. 1): softmax(scale·q·kᵀ + mask)·v.
\`q\` is nq×d, \`k\` is nk×d, \`v\` is nk×dv (at most 4096 per side). Under \`opts.causal\` query
i sits at position nk − nq + i and later keys get weight exactly 0.
Limits: nq·nk ≤ 2^22 scores (2048 queries over 2048 keys) and nq·nk·(d + dv) ≤ 2^30
multiply-adds; worst case (2048 × 2048, d + dv = 256) 0.8 s (median 0.9 s).
Errors name \`q\`, \`k\`, \`v\`, \`opts\`, \`causal\` or \`scale\` (\`v\` when an average of entries
near the largest double overflows).`,
      params: [
        { name: "q", kind: "matrix" },
        { name: "k", kind: "matrix" },
        { name: "v", kind: "matrix" },
        { name: "opts", kind: "object", type: "AttentionOptions", optional: true },
      ],
      returns: "AttentionResult",
      worst: [
        {
          what: "2048 × 2048 scores, d + dv = 256 (2^22 scores, 2^30 multiply-adds)",
          args: ({ matrix }) => {
            const q = matrix(2048, 1);
            return [q, q, matrix(2048, 255)];
          },
        },
        {
          what: "2048 × 2048 scores, d = dv = 128, causal",
          args: ({ matrix }) => {
            const q = matrix(2048, 128);
            return [q, q, q, { causal: true }];
          },
        },
      ],
      examples: [false, true].map((causal) => [q, k, v, { causal }]),
    },
    {
      name: "contextDilution",
      doc: `The softmax weight e^a / (e^a + n·e^b) that one relevant key (score a) keeps among n
distractors (score b). Errors name \`cfg\`, \`relevantScore\`, \`distractorScore\` or \`distractors\`.`,
      params: [{ name: "cfg", kind: "object", type: "ContextDilutionConfig" }],
      returns: "ContextDilutionResult",
      worst: [{ what: "one call", args: () => [{ relevantScore: 1, distractorScore: 0, distractors: 2 ** 53 }] }],
      examples: [0, 7, 12345].map((distractors) => [{ ...scores, distractors }]),
    },
    {
      name: "contextDilutionSweep",
      doc: `contextDilution at each count of \`distractors\` (1 to 4096 of them), in one call: the curve
of figure 1.2. Errors name \`cfg\`, \`relevantScore\`, \`distractorScore\`, \`distractors\` or the
entry \`distractors[i]\`.`,
      params: [{ name: "cfg", kind: "object", type: "ContextDilutionSweepConfig" }],
      returns: "ContextDilutionSweepResult",
      worst: [
        {
          what: "4096 counts up to 2^53",
          args: ({ vector }) => [
            { relevantScore: 1, distractorScore: 0, distractors: vector(4096, (i) => 2 ** (i % 54)) },
          ],
        },
      ],
      examples: [[{ ...scores, distractors: [0, 1, 7, 100, 12345, 2 ** 53] }]],
    },
  ],
  types: [
    {
      name: "AttentionOptions",
      fields: [
        {
          name: "causal",
          kind: "boolean",
          optional: true,
          doc: "Hide keys after each query's position (default false).",
        },
        {
          name: "scale",
          kind: "number",
          optional: true,
          doc: "Multiplier of the dot products, finite (default 1/sqrt(d)).",
        },
      ],
    },
    {
      name: "AttentionResult",
      fields: [
        { name: "scores", type: "number[][]", doc: "nq×nk: scale·(q_i·k_j), before any mask." },
        {
          name: "weights",
          type: "number[][]",
          doc: "nq×nk: softmax over the visible scores of each row; masked entries exactly 0.",
        },
        { name: "output", type: "number[][]", doc: "nq×dv: weights·v." },
        { name: "visible", type: "boolean[][]", doc: "nq×nk: true where key j is visible to query i." },
        { name: "positions", type: "number[]", doc: "Position of each query in the key sequence: nk − nq + i." },
        { name: "scale", type: "number", doc: "The scale used." },
      ],
    },
    {
      name: "ContextDilutionConfig",
      fields: [
        { name: "relevantScore", kind: "number" },
        { name: "distractorScore", kind: "number" },
        { name: "distractors", kind: "number", doc: "An integer ≥ 0." },
      ],
    },
    {
      name: "ContextDilutionSweepConfig",
      fields: [
        { name: "relevantScore", kind: "number" },
        { name: "distractorScore", kind: "number" },
        { name: "distractors", kind: "vector", doc: "The counts, 1 to 4096 of them, each an integer ≥ 0." },
      ],
    },
    {
      name: "ContextDilutionSweepResult",
      fields: [
        { name: "distractors", type: "number[]", doc: "The counts, as given." },
        { name: "relevantWeight", type: "number[]", doc: "Entry i: contextDilution at distractors[i]." },
        { name: "distractorWeight", type: "number[]" },
        { name: "distractorMass", type: "number[]" },
      ],
    },
    {
      name: "ContextDilutionResult",
      fields: [
        { name: "relevantWeight", type: "number", doc: "e^a / (e^a + n·e^b)." },
        { name: "distractorWeight", type: "number", doc: "e^b / (e^a + n·e^b), the weight of each distractor." },
        { name: "distractorMass", type: "number", doc: "n·e^b / (e^a + n·e^b) = 1 − relevantWeight." },
      ],
    },
  ],
};
