// quantization: symmetric integer quantisation of a tensor, and SmoothQuant's migration of scale
// from activations to weights (core/include/llmmath/quantization.hpp). The format is index.js's.
"use strict";

const values = [0.91, -3.3, 0.004, 2.5, -0.75, 12.8, 0, -12.8];
const x = [
  [0.4, -30, 0.2],
  [-0.7, 25, -0.3],
  [0.1, -28, 0.5],
];
const w = [
  [0.3, -0.2],
  [0.05, 0.04],
  [-0.6, 0.9],
];
const alpha = [0, 0.25, 0.5, 0.8, 1];

module.exports = {
  concept: "quantization",
  section: 7,
  functions: [
    {
      name: "smoothQuant",
      doc: `SmoothQuant's per-channel smoothing factors (Xiao et al. 2023, eq. 4):
s_j = xAbsMax_j^alpha / wAbsMax_j^(1 − alpha), and the maxima they leave. As in the
reference code (mit-han-lab/smoothquant, smooth.py), the weight maximum and then the scale
are clamped to at least 1e-5, so an all-zero channel is smoothed, not refused.
@param xAbsMax per-channel activation maxima, each 0 or in [1e-150, 1e150]
@param wAbsMax per-channel weight maxima, same length, each 0 or in [1e-150, 1e150]
@param alpha migration strength in [0, 1]; omitted or undefined means 0.5
At most 2^20 channels (worst case 0.15 s (median 0.2 s)).`,
      params: [
        { name: "xAbsMax", kind: "vector" },
        { name: "wAbsMax", kind: "vector" },
        { name: "alpha", kind: "number", optional: true },
      ],
      returns: "SmoothQuantResult",
      worst: [{ what: "2^20 channels", args: ({ vector }) => [vector(2 ** 20, () => 2), vector(2 ** 20, () => 0.5)] }],
      examples: [
        ...[0, 0.5].map((a) => [[8, 0, 3, 0], [0, 0.5, 1e-7, 0], a]),
        ...[0, 0.5, 0.85, 1].map((a) => [[8, 0.3, 1.7, 0.05], [0.5, 1.2, 0.2, 2], a]),
      ],
    },
    {
      name: "quantize",
      doc: `Symmetric per-tensor integer quantisation: scale = max|x| / (2^(bits−1) − 1) (1 when every
value is 0), levels rounded half to even and clamped to ±(2^(bits−1) − 1).
@param values finite numbers, at most 2^20 (worst case 0.1 s, median 0.15 s), largest
  magnitude 0 or in [1e-300, 1e300] (an entry above 1e300 is named: its dequantised value or
  error would overflow)`,
      params: [
        { name: "values", kind: "vector" },
        { name: "opts", kind: "object", type: "QuantizeOptions", optional: true },
      ],
      returns: "QuantizeResult",
      worst: [{ what: "2^20 values", args: ({ vector }) => [vector(2 ** 20)] }],
      examples: [2, 4, 8, 16].map((bits) => [values, { bits }]),
    },
    {
      name: "smoothQuantLayer",
      doc: `SmoothQuant on one linear layer Y = x·w (Xiao et al. 2023, §4): channel ranges, smoothing
factors, both sides quantised per tensor before and after smoothing, and the output error
of each. \`x\` is tokens×channels, \`w\` channels×outputs; every channel's largest magnitude 0
or in [1e-150, 1e150] (all-zero channels use smoothQuant's clamps); tokens·channels·outputs
≤ 2^24, and x, w and x·w at most 2^20 entries each (worst case, x 1024 × 1024 with
w 1024 × 16, 0.4 s). Errors name \`x\`, \`w\`, \`opts\`, \`alpha\`, \`bits\`.`,
      params: [
        { name: "x", kind: "matrix" },
        { name: "w", kind: "matrix" },
        { name: "opts", kind: "object", type: "SmoothQuantLayerOptions", optional: true },
      ],
      returns: "SmoothQuantLayerResult",
      worst: [
        {
          what: "x 1024 × 1024, w 1024 × 16 (2^20 entries, 2^24 multiply-adds)",
          args: ({ matrix }) => [matrix(1024, 1024), matrix(1024, 16)],
        },
      ],
      examples: [0, 0.5, 0.8].map((a) => [x, w, { alpha: a, bits: 6 }]),
    },
    {
      name: "smoothQuantLayerSweep",
      doc: `The largest quantisation error of the smoothed x and w at each α of \`opts.alpha\` (1 to 4096
values, with values·(x's entries + w's entries) ≤ 2^24), in one call: the curves of figure
7.1. x and w as smoothQuantLayer's. Errors name \`x\`, \`w\`, \`opts\`, \`alpha\`, \`alpha[i]\`, \`bits\`.`,
      params: [
        { name: "x", kind: "matrix" },
        { name: "w", kind: "matrix" },
        { name: "opts", kind: "object", type: "SmoothQuantLayerSweepOptions" },
      ],
      returns: "SmoothQuantLayerSweepResult",
      worst: [
        {
          what: "x and w 64 × 64 at 2048 values of α (2^24 entries quantised)",
          args: ({ matrix, vector }) => [matrix(64, 64), matrix(64, 64), { alpha: vector(2048, (i) => i / 2047) }],
        },
      ],
      examples: [6, 8].map((bits) => [x, w, { alpha, bits }]),
    },
  ],
  types: [
    {
      name: "SmoothQuantResult",
      fields: [
        {
          name: "scales",
          type: "number[]",
          doc: "s_j per channel: max(xAbsMax_j^α / max(wAbsMax_j, 1e-5)^(1−α), 1e-5).",
        },
        { name: "xAbsMax", type: "number[]", doc: "xAbsMax_j / s_j, the activation maxima after smoothing." },
        { name: "wAbsMax", type: "number[]", doc: "wAbsMax_j · s_j, the weight maxima after smoothing." },
      ],
    },
    {
      name: "QuantizeOptions",
      fields: [{ name: "bits", kind: "number", optional: true, doc: "Whole number in 2 … 16; default 8." }],
    },
    {
      name: "QuantizeResult",
      fields: [
        {
          name: "scale",
          type: "number",
          doc: "The scale Δ = max|x| / (2^(bits−1) − 1), 1 when every value is 0: the step between levels.",
        },
        {
          name: "levels",
          type: "number[]",
          doc: "round(x / scale), ties to even, in −qmax … qmax (whole numbers; 0, never −0).",
        },
        { name: "dequantized", type: "number[]", doc: "levels · scale." },
        { name: "maxAbsError", type: "number", doc: "max |x − dequantized|, at most scale / 2." },
        { name: "qmax", type: "number", doc: "2^(bits−1) − 1, the largest level (127 for 8 bits)." },
        { name: "errors", type: "number[]", doc: "x − dequantized per value." },
      ],
    },
    {
      name: "SmoothQuantLayerOptions",
      fields: [
        { name: "alpha", kind: "number", optional: true, doc: "Migration strength in [0, 1] (default 0.5)." },
        { name: "bits", kind: "number", optional: true, doc: "Integer width, 2 … 16 (default 8)." },
      ],
    },
    {
      name: "SmoothQuantLayerSweepOptions",
      fields: [
        { name: "alpha", kind: "vector", doc: "The migration strengths, 1 to 4096 of them, each in [0, 1]." },
        { name: "bits", kind: "number", optional: true, doc: "Integer width, 2 … 16 (default 8)." },
      ],
    },
    {
      name: "SmoothQuantLayerSweepResult",
      fields: [
        { name: "alpha", type: "number[]", doc: "The migration strengths, as given." },
        {
          name: "quantXSmoothedMaxAbsError",
          type: "number[]",
          doc: "Entry i: quantXSmoothed.maxAbsError of smoothQuantLayer at alpha[i].",
        },
        {
          name: "quantWSmoothedMaxAbsError",
          type: "number[]",
          doc: "Entry i: quantWSmoothed.maxAbsError of smoothQuantLayer at alpha[i].",
        },
      ],
    },
    {
      name: "SmoothQuantLayerResult",
      fields: [
        { name: "xAbsMax", type: "number[]", doc: "Per channel: max over tokens of |x|, and max over outputs of |w|." },
        { name: "wAbsMax", type: "number[]" },
        { name: "scales", type: "number[]", doc: "s_j = xAbsMax_j^α / wAbsMax_j^(1−α)." },
        { name: "xAbsMaxSmoothed", type: "number[]", doc: "xAbsMax / s and wAbsMax · s." },
        { name: "wAbsMaxSmoothed", type: "number[]" },
        {
          name: "xSmoothed",
          type: "number[][]",
          doc: "x·diag(s)⁻¹ (tokens×channels) and diag(s)·w (channels×outputs).",
        },
        { name: "wSmoothed", type: "number[][]" },
        {
          name: "quantX",
          type: "QuantizeResult",
          doc: "Each tensor quantised per tensor, flattened row by row (entry i·cols + j is (i, j)).",
        },
        { name: "quantW", type: "QuantizeResult" },
        { name: "quantXSmoothed", type: "QuantizeResult" },
        { name: "quantWSmoothed", type: "QuantizeResult" },
        {
          name: "xLevels",
          type: "number[]",
          doc: "Per channel of x: the largest |level| used, before and after smoothing.",
        },
        { name: "xLevelsSmoothed", type: "number[]" },
        {
          name: "largestChannel",
          type: "number",
          doc: "Channels with the largest and the smallest activation range (lowest index on ties).",
        },
        { name: "smallestChannel", type: "number" },
        {
          name: "y",
          type: "number[][]",
          doc: "x·w in full precision, from the quantised pair, and from the quantised smoothed pair.",
        },
        { name: "yQuantized", type: "number[][]" },
        { name: "yQuantizedSmoothed", type: "number[][]" },
        {
          name: "errorQuantized",
          type: "number",
          doc: "Largest |difference| from y of yQuantized and of yQuantizedSmoothed.",
        },
        { name: "errorQuantizedSmoothed", type: "number" },
        {
          name: "errorSmoothingAlone",
          type: "number",
          doc: "Largest |x·w − (x·diag(s)⁻¹)(diag(s)·w)|: rounding only.",
        },
      ],
    },
  ],
};
