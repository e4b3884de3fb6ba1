// cost: what attention costs as the context grows, scores, key-value cache and multiply-adds
// (core/include/llmmath/cost.hpp). The format is index.js's.
"use strict";

const sweep = { heads: 32, headDim: 128, layers: 32, kvHeads: 8, batch: 3, kvBytesPerElement: 0.5 };
const tokens = [1, 512, 4096, 131072, 131169, 2 ** 30];

module.exports = {
  concept: "cost",
  section: 4,
  functions: [
    {
      name: "attentionCost",
      doc: `Counts of attention over \`tokens\` tokens and the size of its key-value cache
(core/include/llmmath/cost.hpp). Every count is exact below 2^53 and the correctly rounded
double above.`,
      params: [{ name: "cfg", kind: "object", type: "AttentionCostConfig" }],
      returns: "AttentionCostResult",
      worst: [
        {
          what: "one call",
          args: () => [
            { tokens: 2 ** 30, heads: 4096, headDim: 4096, batch: 2 ** 20, hidden: 2 ** 20, intermediate: 2 ** 22 },
          ],
        },
      ],
      examples: [
        [{ tokens: 131072, heads: 64, headDim: 128, layers: 80, kvHeads: 8, batch: 16, kvBytesPerElement: 0.5 }],
        [
          {
            tokens: 4096,
            heads: 32,
            headDim: 128,
            layers: 32,
            kvHeads: 32,
            hidden: 4096,
            intermediate: 11008,
            gatedMlp: true,
          },
        ],
        // the former names, still read
        [{ tokens: 4096, heads: 32, headDim: 128, bytesPerValue: 1, dModel: 4096, ffnDim: 11008, gated: true }],
        [
          {
            tokens: 2 ** 30,
            heads: 32,
            headDim: 128,
            layers: 32,
            kvHeads: 8,
            hidden: 4096,
            intermediate: 11008,
            gatedMlp: false,
          },
        ],
      ],
    },
    {
      name: "attentionCostSweep",
      doc: `attentionCost at each context length of \`tokens\` (1 to 4096 of them), the rest of \`cfg\`
fixed, in one call: the curves of figure 4.1. Errors as attentionCost's, an entry named
\`tokens[i]\`.`,
      params: [
        { name: "cfg", kind: "object", type: "AttentionCostSweepConfig", like: "AttentionCostConfig", swept: "tokens" },
      ],
      returns: "AttentionCostSweepResult",
      worst: [
        {
          what: "4096 lengths up to 2^30, with the linear layers",
          args: ({ vector }) => [
            {
              heads: 4096,
              headDim: 4096,
              batch: 2 ** 20,
              hidden: 2 ** 20,
              intermediate: 2 ** 22,
              tokens: vector(4096, (i) => 1 + i * 262144),
            },
          ],
        },
      ],
      examples: [[{ ...sweep, tokens }], [{ ...sweep, tokens, hidden: 4096, intermediate: 14336, gatedMlp: true }]],
    },
  ],
  types: [
    {
      name: "AttentionCostConfig",
      fields: [
        { name: "tokens", kind: "number", doc: "Sequence length n, whole number in 1 … 2^30." },
        { name: "heads", kind: "number", doc: "Query heads per layer, whole number in 1 … 4096." },
        { name: "headDim", kind: "number", doc: "Dimension of each head, whole number in 1 … 4096." },
        { name: "layers", kind: "number", optional: true, doc: "Layers, whole number in 1 … 4096; default 1." },
        {
          name: "kvHeads",
          kind: "number",
          optional: true,
          doc: `Key-value heads per layer, a divisor of \`heads\` (grouped-query attention, Ainslie et al.
2023; 1 is multi-query attention); default \`heads\`.`,
        },
        {
          name: "batch",
          kind: "number",
          optional: true,
          doc: "Sequences processed together, whole number in 1 … 1048576 (2^20); default 1.",
        },
        {
          name: "kvBytesPerElement",
          kind: "number",
          optional: true,
          doc: "Bytes per cached value in (0, 64]: 2 for fp16 (default), 1 for int8, 0.5 for 4-bit.",
        },
        {
          name: "hidden",
          kind: "number",
          optional: true,
          doc: `Model width d_model (a config.json's hidden_size), whole number in 1 … 1048576 (2^20). With
intermediate, the result also counts the linear layers and the crossover; give both or neither.`,
        },
        {
          name: "intermediate",
          kind: "number",
          optional: true,
          doc: "Feed-forward size d_ff (intermediate_size), whole number in 1 … 4194304 (2^22); given with hidden.",
        },
        {
          name: "gatedMlp",
          kind: "boolean",
          optional: true,
          doc: `Gated feed-forward (SwiGLU, as in Llama: 3 matrices, 3·hidden·intermediate per token)
instead of the two-matrix one (GPT-2: 2·hidden·intermediate); default false; only with hidden and
intermediate.`,
        },
        // The former names of the four above, from before the model's sizes had one vocabulary
        // (modelFromConfig's): still read, so that pages written for them keep working.
        {
          name: "bytesPerValue",
          kind: "number",
          optional: true,
          doc: "@deprecated The former name of kvBytesPerElement.",
        },
        { name: "dModel", kind: "number", optional: true, doc: "@deprecated The former name of hidden." },
        { name: "ffnDim", kind: "number", optional: true, doc: "@deprecated The former name of intermediate." },
        { name: "gated", kind: "boolean", optional: true, doc: "@deprecated The former name of gatedMlp." },
      ],
    },
    {
      name: "AttentionCostSweepConfig",
      doc: "attentionCost's cfg with `tokens` an array of context lengths (1 to 4096 of them).",
      alias: 'Omit<AttentionCostConfig, "tokens"> & { tokens: Vector }',
    },
    {
      name: "AttentionCostSweepResult",
      fields: [
        { name: "tokens", type: "number[]", doc: "The context lengths, as given." },
        { name: "scoresPerLayer", type: "number[]", doc: "Entry i: attentionCost's count at tokens[i]." },
        { name: "kvValuesPerLayer", type: "number[]" },
        { name: "kvBytes", type: "number[]" },
        { name: "macsPerLayer", type: "number[]" },
        { name: "linearMacsPerLayer", type: "number[]", optional: true, doc: "With hidden and intermediate only." },
      ],
    },
    {
      name: "AttentionCostResult",
      fields: [
        { name: "scoresPerHead", type: "number", doc: "tokens², one score per (query, key) pair." },
        { name: "scoresPerLayer", type: "number", doc: "batch·heads·tokens²." },
        {
          name: "kvValuesPerLayer",
          type: "number",
          doc: "2·batch·tokens·kvHeads·headDim: one key and one value per KV head and token.",
        },
        { name: "kvValues", type: "number", doc: "kvValuesPerLayer·layers." },
        { name: "kvBytes", type: "number", doc: "kvValues·kvBytesPerElement." },
        {
          name: "kvBytesPerToken",
          type: "number",
          doc: "2·kvHeads·headDim·layers·kvBytesPerElement: the cache one more token of one sequence adds.",
        },
        {
          name: "qkMacsPerLayer",
          type: "number",
          doc: "batch·heads·tokens²·headDim multiply-adds of Q·Kᵀ (full square, no causal saving).",
        },
        {
          name: "avMacsPerLayer",
          type: "number",
          doc: "batch·heads·tokens²·headDim multiply-adds of weights·V (full square).",
        },
        {
          name: "macsPerLayer",
          type: "number",
          doc: "qkMacsPerLayer + avMacsPerLayer: one layer's multiply-adds of attention.",
        },
        { name: "macs", type: "number", doc: "macsPerLayer·layers." },
        {
          name: "projectionMacsPerLayer",
          type: "number",
          optional: true,
          doc: `With hidden and intermediate only. Q, K, V and O projections per layer for batch·tokens tokens:
batch·tokens·hidden·headDim·(2·heads + 2·kvHeads) multiply-adds.`,
        },
        {
          name: "ffnMacsPerLayer",
          type: "number",
          optional: true,
          doc: "With hidden and intermediate only: batch·tokens·hidden·intermediate·(3 if gatedMlp, else 2).",
        },
        {
          name: "linearMacsPerLayer",
          type: "number",
          optional: true,
          doc: "With hidden and intermediate only: projectionMacsPerLayer + ffnMacsPerLayer, linear in tokens.",
        },
        {
          name: "crossoverTokens",
          type: "number",
          optional: true,
          doc: `With hidden and intermediate only: the token count n at which qkMacsPerLayer + avMacsPerLayer
(2·heads·n²·headDim per sequence, full square) equals linearMacsPerLayer; independent of
tokens and batch. Llama-2-7B (hidden 4096, 32 heads of 128, intermediate 11008, gated): 24,704.`,
        },
        {
          name: "attentionShare",
          type: "number",
          optional: true,
          doc: `With hidden and intermediate only: (qk + av) / (qk + av + linear) per layer at \`tokens\`, attention's
share of the multiply-adds (below ½ before the crossover, above it after).`,
        },
      ],
    },
  ],
};
