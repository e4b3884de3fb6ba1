// rope: rotary position embedding of a query and a key, and the score at many offsets
// (core/include/llmmath/rope.hpp). The format is index.js's.
"use strict";

const q = [0.6, -1.1, 0.9, 0.2, -0.4, 1.3];
const k = [1, 0.5, -0.8, 0.7, 0.3, -0.2];

module.exports = {
  concept: "rope",
  section: 3,
  functions: [
    {
      name: "rope",
      doc: `Rotary position embedding (Su et al. 2021, RoFormer, eq. 34) of query \`q\` at position \`m\`
and key \`k\` at position \`n\`: pair i of each vector turns anticlockwise by pos·θ_i, so
\`raw\` depends only on m − n. \`q\` and \`k\` have the same even length d ≥ 2 (at most 2^20;
worst case 0.5 s (median 0.6 s)); \`m\` and \`n\` are finite positions (integers in practice).`,
      params: [
        { name: "q", kind: "vector" },
        { name: "k", kind: "vector" },
        { name: "m", kind: "number" },
        { name: "n", kind: "number" },
        { name: "opts", kind: "object", type: "RopeOptions", optional: true },
      ],
      returns: "RopeResult",
      worst: [
        {
          what: "d = 2^20",
          args: ({ vector }) => {
            const q = vector(2 ** 20);
            return [q, q, 3, 1];
          },
        },
      ],
      examples: ["interleaved", "half"].map((pairing) => [q, k, 37, 12, { pairing, base: 500 }]),
    },
    {
      name: "ropeScores",
      doc: `rope() at many offsets in one call: the query at position offsets[t], the key at 0, for
plotting the score against relative position; each entry equals rope()'s exactly. At most
2^20 offsets and 2^24 / d of them (worst case, 2^17 offsets of d = 128, 0.3 s (median 0.4 s)).
Errors name \`q\`, \`k\`, \`offsets\` (\`offsets[t]\` when its angles overflow), \`opts\`,
\`pairing\`, \`base\` or \`freqs\`.`,
      params: [
        { name: "q", kind: "vector" },
        { name: "k", kind: "vector" },
        { name: "offsets", kind: "vector" },
        { name: "opts", kind: "object", type: "RopeOptions", optional: true },
      ],
      returns: "RopeScoresResult",
      worst: [
        {
          what: "2^17 offsets of d = 128 (2^24 coordinates)",
          args: ({ vector }) => {
            const q = vector(128);
            return [q, q, vector(2 ** 17, (i) => i)];
          },
        },
        {
          what: "2^20 offsets of d = 2",
          args: ({ vector }) => {
            const q = vector(2);
            return [q, q, vector(2 ** 20, (i) => i)];
          },
        },
      ],
      examples: [[q, k, [-300, -3, 0, 1, 17, 2500]]],
    },
  ],
  types: [
    {
      name: "RopeOptions",
      doc: "Options of rope(); give `base` or `freqs`, not both.",
      fields: [
        {
          name: "pairing",
          kind: "choice",
          optional: true,
          values: ["interleaved", "half"],
          doc: `Which coordinates form pair i: (x[2i], x[2i+1]) for "interleaved" (RoFormer's eq. 34, the
default) or (x[i], x[i + d/2]) for "half" (GPT-NeoX and Hugging Face Llama code).`,
        },
        { name: "base", kind: "number", optional: true, doc: "θ_i = base^(−2i/d); finite and > 1; default 10000." },
        {
          name: "freqs",
          kind: "vector",
          optional: true,
          doc: "The d/2 frequencies θ_i in radians per position, finite, instead of `base`.",
        },
      ],
    },
    {
      name: "RopeResult",
      fields: [
        { name: "qRotated", type: "number[]", doc: "The rotated query R(m)·q, length d." },
        { name: "kRotated", type: "number[]", doc: "The rotated key R(n)·k, length d." },
        {
          name: "raw",
          type: "number",
          doc: "qRotated · kRotated, computed as R(m − n)q · k, so it depends only on m − n, bitwise.",
        },
        { name: "scaled", type: "number", doc: "raw / sqrt(d)." },
        { name: "offset", type: "number", doc: "m − n: the offset, the one thing raw depends on." },
        { name: "thetas", type: "number[]", doc: "θ_i in radians per position, length d/2." },
        {
          name: "angles",
          type: "number[][]",
          doc: "d/2 rows [m·θ_i, n·θ_i]: the angles, in radians, by which pair i of q and of k turn.",
        },
        { name: "pairs", type: "number[][]", doc: "d/2 rows [a, b]: the indices of the two coordinates of pair i." },
        {
          name: "pairScores",
          type: "number[]",
          doc: "Pair i's part of raw (the dot product of its rotated coordinates, computed from the offset); they sum to raw.",
        },
      ],
    },
    {
      name: "RopeScoresResult",
      fields: [
        { name: "raw", type: "number[]", doc: "Per offset δ: R(δ)q · k, what qRotated · kRotated is at that offset." },
        { name: "scaled", type: "number[]", doc: "Per offset: raw / sqrt(d)." },
      ],
    },
  ],
};
