// sampling: the distribution a sampler draws from, and seeded draws from it
// (core/include/llmmath/sampling.hpp). The format is index.js's.
"use strict";

const logits = [2, 1.5, 0.3, -0.7, 1.5, -2, 0.9];
const probs = [0.05, 0.3, 0, 0.25, 0.4, 0];

module.exports = {
  concept: "sampling",
  section: 2,
  functions: [
    {
      name: "sampling",
      doc: `The distribution a sampler draws the next token from: temperature, then top-k, then top-p
on the renormalised top-k distribution, then renormalisation (Holtzman et al. 2020).
Errors name \`input\`, \`logits\`, \`probs\`, \`opts\`, \`temperature\`, \`topK\` or \`topP\`.
@param input exactly one of \`logits\` (finite numbers) or \`probs\` (≥ 0, summing to 1 within
  1e-9, treated as logits = log p); at most 2^20 entries (worst case 0.2 s (median 0.3 s)).
@param opts omitted, undefined or null for all defaults.`,
      params: [
        {
          name: "input",
          kind: "object",
          type: "SamplingInput",
          fields: [
            { name: "logits", kind: "vector", optional: true },
            { name: "probs", kind: "vector", optional: true },
          ],
        },
        { name: "opts", kind: "object", type: "SamplingOptions", optional: true },
      ],
      returns: "SamplingResult",
      worst: [
        {
          what: "2^20 logits, temperature 0.7, topK 2^20, topP 0.9",
          args: ({ vector }) => [{ logits: vector(2 ** 20) }, { temperature: 0.7, topK: 2 ** 20, topP: 0.9 }],
        },
        {
          what: "2^20 probs, temperature 0.7",
          args: ({ uniform }) => [{ probs: uniform(2 ** 20) }, { temperature: 0.7 }],
        },
      ],
      examples: [
        [{ logits }, { temperature: 1, topK: 0, topP: 1 }],
        [{ logits }, { temperature: 0.7, topK: 0, topP: 0.9 }],
        [{ logits }, { temperature: 1.6, topK: 4, topP: 1 }],
        [{ logits }, { temperature: 0, topK: 0, topP: 1 }],
        [{ logits }, { temperature: 1.2, topK: 5, topP: 0.75 }],
      ],
    },
    {
      name: "sample",
      doc: `\`opts.count\` token indices drawn from \`probs\` by inverse CDF with uniforms from
SplitMix64 seeded with \`opts.seed\`: the same seed gives the same draws in every build.
A token of probability 0 is never drawn.
@param probs ≥ 0, summing to 1 within 1e-9, at most 2^20 entries.
Worst case (10^6 draws from 2^20 tokens) 0.3 s.
Errors name \`probs\`, \`opts\`, \`count\` or \`seed\`.`,
      params: [
        { name: "probs", kind: "vector" },
        { name: "opts", kind: "object", type: "SampleOptions" },
      ],
      returns: "Index[]",
      worst: [
        { what: "10^6 draws from 2^20 tokens", args: ({ uniform }) => [uniform(2 ** 20), { count: 1e6, seed: 1 }] },
      ],
      examples: [0, 1, 42, 4294967295].map((seed) => [probs, { count: 200, seed }]),
    },
  ],
  types: [
    {
      name: "SamplingInput",
      doc: "Logits or probabilities over the vocabulary, never both.",
      alias: "{ logits: Vector; probs?: undefined } | { probs: Vector; logits?: undefined }",
    },
    {
      name: "SamplingOptions",
      fields: [
        {
          name: "temperature",
          kind: "number",
          optional: true,
          doc: `≥ 0, finite; default 1. 0 is defined as greedy decoding: all mass on the argmax, the lowest
index among tied top logits. That is not the limit T → 0, which splits the mass equally
among tied top logits (logits [2, 2, 1]: T = 0 gives [1, 0, 0], T = 0.01 about [½, ½, 0]).`,
        },
        {
          name: "topK",
          kind: "number",
          optional: true,
          doc: "Integer ≥ 0; default 0 (off). Larger than the vocabulary keeps every token.",
        },
        {
          name: "topP",
          kind: "number",
          optional: true,
          doc: "In (0, 1]; default 1 (off). Compared with a tolerance of 1e-9.",
        },
      ],
    },
    {
      name: "SamplingResult",
      fields: [
        {
          name: "probs",
          type: "number[]",
          doc: "One entry per token: the final distribution, 0 for removed tokens, summing to 1.",
        },
        {
          name: "kept",
          type: "Index[]",
          doc: "Kept token indices, most probable first (ties by lower index); at least one.",
        },
        {
          name: "tempered",
          type: "number[]",
          doc: "softmax(logits / temperature) before any filter; one-hot on the argmax (lowest tied index) at temperature 0.",
        },
        {
          name: "order",
          type: "Index[]",
          doc: "Every token index by descending probability, ties by lower index; kept is its prefix.",
        },
        {
          name: "cumulative",
          type: "number[]",
          doc: `Cumulative mass along \`order\` of the distribution top-p cuts (the top-k distribution,
renormalised); constant after the k-th entry.`,
        },
        {
          name: "topKMass",
          type: "number",
          doc: "Tempered mass of the k most probable tokens (all of it, 1 up to rounding, with topK off).",
        },
        {
          name: "topKProbs",
          type: "number[]",
          doc: `One entry per token: the distribution top-p cuts, tempered / topKMass on the top-k tokens
and 0 elsewhere; \`cumulative\` is its running sum along \`order\`.`,
        },
        {
          name: "cutoff",
          type: "number",
          doc: "How many tokens top-k and top-p leave: kept = order.slice(0, cutoff).",
        },
        {
          name: "keptMass",
          type: "number",
          doc: "Tempered mass of the kept tokens before renormalising: probs[i] = tempered[i] / keptMass.",
        },
      ],
    },
    {
      name: "SampleOptions",
      fields: [
        { name: "count", kind: "number", fuzzMax: 64, doc: "Integer in [1, 10^6]." },
        { name: "seed", kind: "number", doc: "Integer in [0, 2^32)." },
      ],
    },
  ],
};
