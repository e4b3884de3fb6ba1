// speculative: the tokens per target call of speculative decoding, its speedup, and α measured
// back (core/include/llmmath/speculative.hpp). The format is index.js's.
"use strict";

const gamma = [0, 1, 2, 3, 5, 8, 13, 1024];

module.exports = {
  concept: "speculative",
  section: 5,
  functions: [
    {
      name: "speculativeDecoding",
      doc: `Speculative decoding (Leviathan et al. 2023): expected tokens per target call, eq. 1, its
limit as gamma grows and, when \`costRatio\` is given, the walltime improvement (Theorem 3.8).`,
      params: [{ name: "cfg", kind: "object", type: "SpeculativeConfig" }],
      returns: "SpeculativeResult",
      worst: [{ what: "gamma 1024", args: () => [{ alpha: 0.999, gamma: 1024, costRatio: 0.1 }] }],
      examples: [0, 0.6, 0.999999, 1].map((alpha) => [{ alpha, gamma: 5, costRatio: 0.05 }]),
    },
    {
      name: "speculativeSweep",
      doc: `speculativeDecoding at each draft length of \`gamma\` (1 to 4096 of them), in one call: the
curves of figure 5.1 and, with \`costRatio\`, the draft length with the largest speedup.
Errors name \`cfg\`, \`alpha\`, \`gamma\`, the entry \`gamma[i]\` or \`costRatio\`.`,
      params: [{ name: "cfg", kind: "object", type: "SpeculativeSweepConfig" }],
      returns: "SpeculativeSweepResult",
      worst: [
        {
          what: "4096 draft lengths up to 1024, with costRatio",
          args: ({ vector }) => [{ alpha: 0.999, gamma: vector(4096, (i) => i % 1025), costRatio: 0.1 }],
        },
      ],
      examples: [
        [{ alpha: 0.8, gamma, costRatio: 0.05 }],
        [{ alpha: 0.999999, gamma, costRatio: 0.05 }],
        [{ alpha: 0.6, gamma }],
      ],
    },
    {
      name: "speculativeAlpha",
      doc: `The inverse of eq. 1: the acceptance rate α at which gamma drafts per call give
\`meanTokens\` tokens per target call on average (eq. 1 grows strictly with α, so it is
unique), to within 1e-12. meanTokens 1 gives α = 0, gamma + 1 gives α = 1.
Errors name \`cfg\`, \`meanTokens\` or \`gamma\`.`,
      params: [{ name: "cfg", kind: "object", type: "SpeculativeAlphaConfig" }],
      returns: "SpeculativeAlphaResult",
      worst: [
        {
          what: "gamma 1024, meanTokens next to 1 (the longest bisection)",
          args: () => [{ meanTokens: 1 + 2 ** -52, gamma: 1024 }],
        },
      ],
      examples: [
        [{ meanTokens: 1.875, gamma: 3 }],
        [{ meanTokens: 2.25, gamma: 3 }],
        [{ meanTokens: 1, gamma: 5 }],
        [{ meanTokens: 700, gamma: 1024 }],
      ],
    },
    {
      name: "speculativeMeasure",
      doc: `A seeded simulation of \`rounds\` rounds of speculative decoding in which each checked draft
is accepted with probability alpha and a round stops at its first rejection, returning the
counts a practitioner logs and three estimates of α: accepted / proposed (wrong: it also
counts drafts never checked; ≈ 0.29 at α 0.5, γ 3), accepted / checked (≈ α) and α solved
from the mean tokens per call (≈ α). The same seed gives the same counts in every build
(SplitMix64, as \`sample\`). At most 10^7 draft tokens (worst case 20 ms).
Errors name \`cfg\`, \`alpha\`, \`gamma\`, \`rounds\` or \`seed\`.`,
      params: [{ name: "cfg", kind: "object", type: "SpeculativeMeasureConfig" }],
      returns: "SpeculativeMeasureResult",
      worst: [
        {
          what: "10^7 draft tokens (gamma 1024, alpha 1)",
          args: () => [{ alpha: 1, gamma: 1024, rounds: 9765, seed: 1 }],
        },
      ],
      examples: [
        [{ alpha: 0.5, gamma: 3, rounds: 10000, seed: 0 }],
        [{ alpha: 0.8, gamma: 5, rounds: 2000, seed: 4294967295 }],
        [{ alpha: 0.3, gamma: 1, rounds: 777, seed: 42 }],
      ],
    },
  ],
  types: [
    {
      name: "SpeculativeConfig",
      fields: [
        { name: "alpha", kind: "number", doc: "Acceptance rate α in [0, 1] (−0 is 0)." },
        { name: "gamma", kind: "number", doc: "Draft length γ, whole number in 0 … 1024." },
        {
          name: "costRatio",
          kind: "number",
          optional: true,
          doc: `Cost of a draft step over a target step, c in [0, 1e300] (so γ·c + 1 stays finite);
without it there is no speedup.`,
        },
      ],
    },
    {
      name: "SpeculativeResult",
      fields: [
        { name: "expectedTokens", type: "number", doc: "(1 − α^(γ+1)) / (1 − α), or γ + 1 at α = 1." },
        { name: "ceiling", type: "number", doc: "1 / (1 − α), the limit as γ grows; Infinity at α = 1." },
        {
          name: "speedup",
          type: "number",
          optional: true,
          doc: "expectedTokens / (γ·c + 1); present only when costRatio is given.",
        },
        {
          name: "tokenProbs",
          type: "number[]",
          doc: `γ + 1 entries: entry j is the probability that one target call yields exactly j + 1
tokens, α^j·(1 − α) for j < γ and α^γ for j = γ. Sums to 1; its mean is expectedTokens.`,
        },
        {
          name: "allAccepted",
          type: "number",
          doc: "α^(γ+1), the term eq. 1 subtracts from 1 (0.0625 for α 0.5, γ 3).",
        },
        {
          name: "numerator",
          type: "number",
          doc: "1 − α^(γ+1), eq. 1's numerator (0.9375 for α 0.5, γ 3); 0 at α = 1.",
        },
        { name: "denominator", type: "number", doc: "1 − α, eq. 1's denominator." },
        {
          name: "roundCost",
          type: "number",
          optional: true,
          doc: "γ·c + 1, the cost of one round in target steps; present only with costRatio.",
        },
      ],
    },
    {
      name: "SpeculativeSweepConfig",
      fields: [
        { name: "alpha", kind: "number", doc: "Acceptance rate α in [0, 1]." },
        {
          name: "gamma",
          kind: "vector",
          doc: "The draft lengths, 1 to 4096 of them, each a whole number in 0 … 1024.",
        },
        {
          name: "costRatio",
          kind: "number",
          optional: true,
          doc: "As speculativeDecoding's; the speedups and the best γ need it.",
        },
      ],
    },
    {
      name: "SpeculativeSweepResult",
      fields: [
        { name: "gamma", type: "number[]", doc: "The draft lengths, as given." },
        { name: "expectedTokens", type: "number[]", doc: "Entry i: eq. 1 at gamma[i]." },
        { name: "roundCost", type: "number[]", optional: true, doc: "With costRatio: γ·c + 1 at each γ." },
        {
          name: "speedup",
          type: "number[]",
          optional: true,
          doc: "With costRatio: expectedTokens / roundCost at each γ.",
        },
        {
          name: "bestGamma",
          type: "number",
          optional: true,
          doc: "With costRatio: the γ with the largest speedup, the first of the given order on a tie.",
        },
        { name: "bestSpeedup", type: "number", optional: true, doc: "With costRatio: the speedup at bestGamma." },
      ],
    },
    {
      name: "SpeculativeAlphaConfig",
      fields: [
        { name: "meanTokens", kind: "number", doc: "Mean tokens per target call, in [1, gamma + 1]." },
        { name: "gamma", kind: "number", doc: "Draft length γ, whole number in 1 … 1024." },
      ],
    },
    {
      name: "SpeculativeAlphaResult",
      fields: [
        {
          name: "alpha",
          type: "number",
          doc: "α in [0, 1] with (1 − α^(γ+1)) / (1 − α) = meanTokens, to within 1e-12.",
        },
        {
          name: "expectedTokens",
          type: "number",
          doc: "eq. 1 at that α: meanTokens again, up to rounding (the check).",
        },
      ],
    },
    {
      name: "SpeculativeMeasureConfig",
      fields: [
        {
          name: "alpha",
          kind: "number",
          doc: "The true acceptance rate α in [0, 1]: each checked draft is accepted with it.",
        },
        { name: "gamma", kind: "number", fuzzMax: 40, doc: "Draft length γ, whole number in 1 … 1024." },
        {
          name: "rounds",
          kind: "number",
          fuzzMax: 200,
          doc: "Rounds (target calls) to simulate, whole number in 1 … 10^6, with rounds·gamma ≤ 10^7.",
        },
        { name: "seed", kind: "number", doc: "Integer in [0, 2^32)." },
      ],
    },
    {
      name: "SpeculativeMeasureResult",
      fields: [
        { name: "rounds", type: "number", doc: "Target calls simulated, one per round." },
        { name: "proposed", type: "number", doc: "Draft tokens proposed: rounds·gamma." },
        {
          name: "checked",
          type: "number",
          doc: "Draft tokens the target actually checked: a round stops at its first rejection.",
        },
        { name: "accepted", type: "number", doc: "Draft tokens accepted." },
        {
          name: "produced",
          type: "number",
          doc: "Tokens produced: accepted + rounds (each call adds one token of the target's own).",
        },
        { name: "meanTokens", type: "number", doc: "produced / rounds; its expectation is expectedTokens." },
        {
          name: "tokenCounts",
          type: "number[]",
          doc: "gamma + 1 entries: entry j counts the rounds that produced j + 1 tokens.",
        },
        {
          name: "acceptedPerProposed",
          type: "number",
          doc: "accepted / proposed: does NOT measure α (expectation (α + … + α^γ)/γ, 0.29 at α 0.5, γ 3).",
        },
        { name: "acceptedPerChecked", type: "number", doc: "accepted / checked: measures α." },
        {
          name: "alphaFromMeanTokens",
          type: "number",
          doc: "speculativeAlpha({ meanTokens, gamma }).alpha: measures α.",
        },
        { name: "expectedTokens", type: "number", doc: "eq. 1 at the true α." },
        {
          name: "expectedTokensPerProposed",
          type: "number",
          doc: "eq. 1 at acceptedPerProposed: the tokens per call the naive estimate predicts (too few).",
        },
        { name: "expectedTokensPerChecked", type: "number", doc: "eq. 1 at acceptedPerChecked." },
        {
          name: "expectedTokensFromMeanTokens",
          type: "number",
          doc: "eq. 1 at alphaFromMeanTokens: meanTokens again, up to the bisection's tolerance.",
        },
      ],
    },
  ],
};
