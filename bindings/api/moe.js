// moe: top-k routing of tokens to experts and the Switch Transformer load-balancing loss
// (core/include/llmmath/moe.hpp). The format is index.js's.
"use strict";

const routerLogits = [
  [1.2, -0.3, 0.8, 0.1],
  [0.2, 2.2, -1, 0.4],
  [-0.5, 0.3, 0.3, 1.9],
  [2.5, 0, -0.2, 0.6],
  [0.7, 0.7, 0.1, -1.3],
];

module.exports = {
  concept: "moe",
  section: 8,
  functions: [
    {
      name: "moeLoadBalance",
      doc: `Switch Transformer load-balancing loss without its coefficient α (Fedus et al. 2021,
eq. 4): N·Σ f_i·p_i over N experts. 1 when either f or p is uniform, N at full collapse.
@param f fraction of tokens dispatched to each expert: ≥ 0, summing to 1 within 1e-6.
@param p mean router probability of each expert: same length as f, ≥ 0, summing to 1
  within 1e-6. At most 2^20 experts (worst case 40 ms).`,
      params: [
        { name: "f", kind: "vector" },
        { name: "p", kind: "vector" },
      ],
      returns: "MoeLoadBalanceResult",
      worst: [
        {
          what: "2^20 experts",
          args: ({ uniform }) => {
            const f = uniform(2 ** 20);
            return [f, f];
          },
        },
      ],
      examples: [
        [
          [0.4, 0.3, 0.2, 0.1],
          [0.1, 0.2, 0.3, 0.4],
        ],
      ],
    },
    {
      name: "moeRoute",
      doc: `Routes each token to its topK most probable experts (softmax per token; equal
probabilities go to the lower index) and evaluates the load-balancing loss.
@param routerLogits tokens×experts, finite, at most 4096 per side and 2^21 entries (worst
  case, 2048 × 1024 with topK 1024, 0.3 s).
@param topK integer in 1 … experts; omitted or undefined means 1.`,
      params: [
        { name: "routerLogits", kind: "matrix" },
        { name: "topK", kind: "number", optional: true },
      ],
      returns: "MoeRouteResult",
      worst: [
        { what: "2048 tokens × 1024 experts (2^21), topK 1024", args: ({ matrix }) => [matrix(2048, 1024), 1024] },
      ],
      examples: [1, 2].map((topK) => [routerLogits, topK]),
    },
  ],
  types: [
    {
      name: "MoeLoadBalanceResult",
      fields: [
        { name: "loss", type: "number", doc: "N·Σ f_i·p_i." },
        { name: "terms", type: "number[]", doc: "N·f_i·p_i per expert, summing to loss." },
      ],
    },
    {
      name: "MoeRouteResult",
      fields: [
        { name: "assignments", type: "Index[][]", doc: "tokens×topK: each token's experts, most probable first." },
        { name: "f", type: "number[]", doc: "Per expert: assignments received / (tokens·topK); sums to 1." },
        { name: "p", type: "number[]", doc: "Per expert: mean router probability over the tokens; sums to 1." },
        { name: "loss", type: "number", doc: "N·Σ f_i·p_i, as moeLoadBalance(f, p)." },
        { name: "probs", type: "number[][]", doc: "tokens×experts router probabilities, a softmax per token." },
        { name: "counts", type: "number[]", doc: "Per expert: how many of the tokens·topK assignments it received." },
        { name: "terms", type: "number[]", doc: "N·f_i·p_i per expert, summing to loss." },
      ],
    },
  ],
};
