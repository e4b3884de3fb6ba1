// smoothQuant, quantize, smoothQuantLayer and smoothQuantLayerSweep through dist/llmmath.js:
// the exercise, ties to even, the error bound, reference values and errors (leak.test.js shows
// that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

test("exercise 7: alpha 0.5, ranges 8 and 0.5 → s = 4, both ranges become 2", async () => {
  const m = await core();
  const r = m.smoothQuant([8], [0.5]);
  close(r.scales, [4], 1e-15, "s = √8 / √0.5"); // one rounding in each root
  close(r.xAbsMax, [2], 1e-15, "8 / 4");
  close(r.wAbsMax, [2], 1e-15, "0.5 · 4");
  assert.deepEqual(m.smoothQuant([8], [0.5], undefined), r);
  assert.deepEqual(m.smoothQuant([8], [0.5], 0.5), r);
});

test("SmoothQuant: the product of the two ranges is kept; alpha 0 and 1 are the extremes", async () => {
  const m = await core();
  const x = [0.5, 40, 2, 90];
  const w = [0.3, 0.05, 0.2, 0.1];
  for (const alpha of [0, 0.25, 0.75, 1]) {
    const r = m.smoothQuant(x, w, alpha);
    close(
      r.xAbsMax.map((xs, j) => xs * r.wAbsMax[j]),
      x.map((xj, j) => xj * w[j]),
      1e-13,
      `alpha ${alpha}`,
    );
  }
  close(m.smoothQuant(x, w, 0).wAbsMax, [1, 1, 1, 1], 1e-15, "alpha 0: weights end at 1");
  close(m.smoothQuant(x, w, 1).xAbsMax, [1, 1, 1, 1], 1e-15, "alpha 1: activations end at 1");
});

test("quantize: ties to even, never −0, default 8 bits", async () => {
  const m = await core();
  const r = m.quantize([127, 0.5, 1.5, 2.5, -2.5, -0.5, 3.5, -126.5]);
  assert.equal(r.scale, 1); // 127 / 127
  assert.equal(r.qmax, 127);
  assert.deepEqual(r.levels, [127, 0, 2, 2, -2, 0, 4, -126]); // strict: the −0.5 level is +0
  assert.equal(r.maxAbsError, 0.5);
  const tie = m.quantize([2, 1, -1], { bits: 2 });
  assert.equal(tie.scale, 2);
  assert.deepEqual(tie.levels, [1, 0, 0]);
  assert.deepEqual(m.quantize([0, 0, 0]), {
    scale: 1,
    levels: [0, 0, 0],
    dequantized: [0, 0, 0],
    maxAbsError: 0,
    qmax: 127,
    errors: [0, 0, 0],
  });
  assert.deepEqual(m.quantize([1, 2], null), m.quantize([1, 2], { bits: 8 }));
});

test("every error is at most half the scale", async () => {
  const m = await core();
  const x = Array.from({ length: 500 }, (_, i) => Math.sin(i * 1.7) * 3);
  x[42] = -40; // an outlier widens the scale for every value
  for (let bits = 2; bits <= 16; bits++) {
    const r = m.quantize(x, { bits });
    assert.equal(r.qmax, 2 ** (bits - 1) - 1);
    // x / scale rounds once before the level is chosen: 1e-15 of the largest magnitude
    assert.ok(r.maxAbsError <= r.scale / 2 + 40e-15, `bits ${bits}: ${r.maxAbsError} vs ${r.scale / 2}`);
    assert.ok(r.levels.every((l) => Number.isInteger(l) && Math.abs(l) <= r.qmax));
    assert.equal(r.levels[42], -r.qmax);
  }
});

test("quantize and smoothQuant match the NumPy reference values", async () => {
  const m = await core();
  for (const c of fixtures.load("quantization.txt")) {
    const v = c.values;
    if (v.values) {
      const r = m.quantize(v.values[0], { bits: v.bits[0][0] });
      assert.equal(r.scale, v.scale[0][0], `${c.name} scale`); // identical operations
      assert.deepEqual(r.levels, v.levels[0], `${c.name} levels`);
      assert.deepEqual(r.dequantized, v.dequantized[0], `${c.name} dequantized`);
      assert.equal(r.maxAbsError, v.maxAbsError[0][0], `${c.name} maxAbsError`);
    } else {
      const r = m.smoothQuant(v.xAbsMaxIn[0], v.wAbsMaxIn[0], v.alpha[0][0]);
      // double pow against long double: within 1e-15 relative
      for (const key of ["scales", "xAbsMax", "wAbsMax"]) {
        r[key].forEach((x, j) => close(x, v[key][0][j], 1e-15 * v[key][0][j], `${c.name} ${key}[${j}]`));
      }
    }
  }
});

test("quantization: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => {
    close(m.smoothQuant([8], [0.5]).scales[0], 4, 1e-15, "s");
    assert.deepEqual(m.quantize([127, 2.5]).levels, [127, 2]);
  };
  const cases = [
    [() => m.smoothQuant(), "xAbsMax", /got undefined/],
    [() => m.smoothQuant([8]), "wAbsMax", /got undefined/],
    [() => m.smoothQuant([], []), "xAbsMax", /non-empty/],
    [() => m.smoothQuant([8, 2], [0.5]), "wAbsMax", /length 2/],
    [() => m.smoothQuant([8, "2"], [0.5, 1]), "xAbsMax[1]", /"2" \(a string\)/],
    [() => m.smoothQuant([8, -1], [0.5, 1]), "xAbsMax[1]", /≥ 0, got -1/],
    [() => m.smoothQuant([8], [-0.5]), "wAbsMax[0]", /≥ 0, got -0.5/],
    [() => m.smoothQuant([8], [1e-200]), "wAbsMax[0]", /0 or in \[1e-150, 1e150\]/],
    [() => m.smoothQuant([8], [NaN]), "wAbsMax[0]", /finite/],
    [() => m.smoothQuant([1e200], [1]), "xAbsMax[0]", /1e150/],
    [() => m.smoothQuant([8], [0.5], 1.5), "alpha", /\[0, 1\], got 1.5/],
    [() => m.smoothQuant([8], [0.5], "0.5"), "alpha", /a number/],
    [() => m.smoothQuant([8], [0.5], -Infinity), "alpha", /finite/],
    [() => m.quantize(), "values", /got undefined/],
    [() => m.quantize([]), "values", /non-empty/],
    [() => m.quantize([1, null]), "values[1]", /got null/],
    [() => m.smoothQuant([8], [0.5], null), "alpha", /a number, got null/],
    [() => m.quantize([1, Infinity]), "values[1]", /finite/],
    [() => m.quantize([1e-310]), "values", /1e-300/],
    [() => m.quantize([1], { bits: 1 }), "bits", /\[2, 16\], got 1/],
    [() => m.quantize([1], { bits: 17 }), "bits", /16/],
    [() => m.quantize([1], { bits: 4.5 }), "bits", /an integer/],
    [() => m.quantize([1], { bits: "8" }), "bits", /a number/],
    [() => m.quantize([1], { bit: 8 }), "opts", /unknown key "bit"/],
    [() => m.quantize([1], 8), "opts", /an object/],
    [() => m.quantize(new Array(2 ** 20 + 1).fill(1)), "values", /2\^20/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

// smoothQuantLayer: the exercise's channel (ranges 8 and 0.5) beside a channel of ranges 2 and 2.
const X1 = [[8, -2]];
const W1 = [[0.5], [2]];

test("smoothQuantLayer: s = 4 for the exercise's channel, X·W kept, each tensor quantized", async () => {
  const m = await core();
  const r = m.smoothQuantLayer(X1, W1);
  close(r.scales, [4, 1], 1e-15, "s");
  close(r.xSmoothed, [[2, -2]], 1e-15, "x / s");
  close(r.wSmoothed, [[2], [2]], 1e-15, "s · w");
  assert.deepEqual(r.y, [[0]]);
  assert.deepEqual(r.quantX.levels, [127, -32]); // 2 / (8/127) = 31.75
  assert.deepEqual(r.xLevels, [127, 32]);
  assert.deepEqual(r.xLevelsSmoothed, [127, 127]);
  assert.equal(r.largestChannel, 0);
  assert.equal(r.smallestChannel, 1);
  assert.ok(r.errorSmoothingAlone < 1e-15);
  assert.deepEqual(r.quantX, m.quantize([8, -2]), "the same as quantize() on the entries row by row");
});

test("smoothQuantLayer refuses bad input naming the parameter, and keeps working", async () => {
  const m = await core();
  const good = () => close(m.smoothQuantLayer(X1, W1, { alpha: 0.5, bits: 8 }).scales, [4, 1], 1e-15, "s");
  const cases = [
    [() => m.smoothQuantLayer(), "x", /got undefined/],
    [() => m.smoothQuantLayer(X1), "w", /got undefined/],
    [() => m.smoothQuantLayer(X1, [[0.5]]), "w", /2 rows/],
    [() => m.smoothQuantLayer([[8, 1e-200]], W1), "x", /column 1/],
    [() => m.smoothQuantLayer([[8, "2"]], W1), "x[0][1]", /a string/],
    [() => m.smoothQuantLayer(X1, W1, { alpha: 2 }), "alpha", /\[0, 1\]/],
    [() => m.smoothQuantLayer(X1, W1, { bits: 1 }), "bits", /\[2, 16\]/],
    [() => m.smoothQuantLayer(X1, W1, { alfa: 0.5 }), "opts", /unknown key "alfa"/],
    [() => m.smoothQuantLayer(X1, [[NaN], [2]]), "w[0][0]", /finite/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("smoothQuant clamps as the reference code: all-zero channels are smoothed, not refused", async () => {
  const m = await core();
  // mit-han-lab/smoothquant, smooth.py: weight maxima, then scales, at least 1e-5.
  // channel 0: max|W| = 0 is raised to 1e-5: s = √8 / √1e-5 ≈ 894.43, and the weights stay 0
  const r = m.smoothQuant([8, 2, 0], [0, 0.5, 0.5]);
  close(r.scales[0], Math.sqrt(8 / 1e-5), 1e-15 * 894.5, "s of the zero weight channel");
  assert.equal(r.wAbsMax[0], 0);
  close(r.xAbsMax[0], 8 / Math.sqrt(8 / 1e-5), 1e-17, "x / s");
  close(r.scales[1], 2, 1e-15, "an ordinary channel: no clamp"); // √2 / √0.5
  // channel 2: an all-zero activation channel, s = 0 raised to 1e-5
  assert.equal(r.scales[2], 1e-5);
  assert.equal(r.xAbsMax[2], 0);
  assert.equal(r.wAbsMax[2], 0.5 * 1e-5);
  // at alpha 0, 0^0 = 1 (as torch.pow): s = 1 / w
  assert.equal(m.smoothQuant([0], [0.5], 0).scales[0], 2);
  // a layer with a zero weight row and a zero activation column
  const layer = m.smoothQuantLayer(
    [
      [4, 0, -1],
      [-2, 0, 0.5],
    ],
    [
      [0.5, -0.25],
      [0.3, 0.2],
      [0, 0],
    ],
  );
  assert.equal(layer.scales[1], 1e-5);
  close(layer.scales[2], 1 / Math.sqrt(1e-5), 1e-15 * 316.3, "√1 / √1e-5");
  assert.ok(layer.errorSmoothingAlone < 1e-15, "smoothing keeps x·w");
});

test("smoothQuant matches the NumPy reference with the clamps, zero channels included", async () => {
  const m = await core();
  let zeroCases = 0;
  for (const c of fixtures.load("quantization.txt")) {
    if (!c.values.xAbsMaxIn) continue;
    const v = c.values;
    const r = m.smoothQuant(v.xAbsMaxIn[0], v.wAbsMaxIn[0], v.alpha[0][0]);
    for (const key of ["scales", "xAbsMax", "wAbsMax"])
      // double pow against long double: a few units in the last place, and 0 exactly 0
      v[key][0].forEach((x, j) => close(r[key][j], x, 1e-15 * Math.abs(x), `${c.name} ${key}[${j}]`));
    if (v.wAbsMaxIn[0].includes(0)) zeroCases++;
  }
  assert.ok(zeroCases >= 3, "the reference has cases with all-zero channels");
});

// ---- smoothQuantLayerSweep: figure 7.1's curves in one call ----

// The chapter's "outlier" example (site/src/widgets/quantization/quantization-presets.js): column 1 carries
// the outlier, with ranges 8 and 0.5 as in exercise 7.
const Xo = [
  [0.42, -8, 0.25, -0.9],
  [-0.81, 6.3, -0.33, 0.64],
  [0.27, -7.1, 0.5, -0.47],
  [1.0, 5.2, -0.18, 0.3],
  [-0.55, 7.6, 0.12, -1.1],
  [0.73, -4.4, -0.41, 0.86],
];
const Wo = [
  [0.31, -0.12, 0.22],
  [-0.5, 0.38, 0.07],
  [0.9, 0.55, -0.8],
  [0.14, -0.26, 0.35],
];

test("smoothQuantLayerSweep: one error per alpha on each side, each smoothQuantLayer's, to the bit", async () => {
  const m = await core();
  const alpha = [0, 0.25, 0.5, 0.75, 1];
  const r = m.smoothQuantLayerSweep(Xo, Wo, { alpha });
  assert.deepEqual(Object.keys(r).sort(), ["alpha", "quantWSmoothedMaxAbsError", "quantXSmoothedMaxAbsError"]);
  assert.deepEqual(r.alpha, alpha);
  for (const key of ["quantXSmoothedMaxAbsError", "quantWSmoothedMaxAbsError"])
    assert.equal(r[key].length, alpha.length, key);
  alpha.forEach((a, i) => {
    const p = m.smoothQuantLayer(Xo, Wo, { alpha: a }); // bits 8 in both by default
    assert.equal(r.quantXSmoothedMaxAbsError[i], p.quantXSmoothed.maxAbsError, `x at alpha ${a}`);
    assert.equal(r.quantWSmoothedMaxAbsError[i], p.quantWSmoothed.maxAbsError, `w at alpha ${a}`);
  });
  // the figure's curves: moving range to the weights lowers the x error and raises the w error
  r.quantXSmoothedMaxAbsError
    .slice(1)
    .forEach((e, i) => assert.ok(e < r.quantXSmoothedMaxAbsError[i], `x falls after alpha ${alpha[i]}`));
  r.quantWSmoothedMaxAbsError
    .slice(1)
    .forEach((e, i) => assert.ok(e > r.quantWSmoothedMaxAbsError[i], `w rises after alpha ${alpha[i]}`));
  // at alpha 1 every x channel's range is 1: the scale is 1/127, the error at most half of it
  assert.ok(r.quantXSmoothedMaxAbsError[4] <= (1 / 254) * (1 + 1e-15));
  // bits are passed on: 4 bits, scales 127/7 times coarser
  const four = m.smoothQuantLayerSweep(Xo, Wo, { alpha: [0.5], bits: 4 });
  assert.equal(
    four.quantXSmoothedMaxAbsError[0],
    m.smoothQuantLayer(Xo, Wo, { alpha: 0.5, bits: 4 }).quantXSmoothed.maxAbsError,
  );
});

test("smoothQuantLayerSweep takes Float64Array rows and alphas, with the same result", async () => {
  const m = await core();
  const alpha = [0, 0.5, 0.85, 1];
  assert.deepEqual(
    m.smoothQuantLayerSweep(
      Xo.map((r) => Float64Array.from(r)),
      Wo.map((r) => Float64Array.from(r)),
      { alpha: Float64Array.from(alpha), bits: 6 },
    ),
    m.smoothQuantLayerSweep(Xo, Wo, { alpha, bits: 6 }),
  );
});

test("smoothQuantLayerSweep refuses bad input by name, an entry as alpha[i], and keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.smoothQuantLayerSweep(X1, W1, { alpha: [1] }).quantXSmoothedMaxAbsError.length, 1);
  const cases = [
    [
      () => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5, 1.5] }),
      "alpha[1]",
      /^alpha\[1\] must be in \[0, 1\], got 1.5$/,
    ],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: [NaN] }), "alpha[0]", /finite number, got NaN/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5, "1"] }), "alpha[1]", /"1" \(a string\)/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: 0.5 }), "alpha", /an array of numbers, got 0.5/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: { 0: 0.5 } }), "alpha", /got an object/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: [] }), "alpha", /non-empty/],
    [
      () => m.smoothQuantLayerSweep(X1, W1, { alpha: new Array(4097).fill(0.5) }),
      "alpha",
      /at most 4096 entries \(points of a sweep\), got 4097/,
    ],
    [() => m.smoothQuantLayerSweep(X1, W1, {}), "alpha", /got undefined/],
    [() => m.smoothQuantLayerSweep(X1, W1), "opts", /an object, got undefined/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5], bits: 1 }), "bits", /\[2, 16\], got 1/],
    [() => m.smoothQuantLayerSweep(X1, W1, { alpha: [0.5], alfa: 0.5 }), "opts", /unknown key "alfa"/],
    [() => m.smoothQuantLayerSweep(X1, [[0.5]], { alpha: [0.5] }), "w", /2 rows/],
    [() => m.smoothQuantLayerSweep([[8, "2"]], W1, { alpha: [0.5] }), "x[0][1]", /a string/],
    [() => m.smoothQuantLayerSweep([[8, 1e-200]], W1, { alpha: [0.5] }), "x", /column 1/],
    [() => m.smoothQuantLayerSweep(X1, [[NaN], [2]], { alpha: [0.5] }), "w[0][0]", /finite/],
    // x 1024 × 1024, w 1024 × 1: 15 points fit in 2^24 quantised entries, 16 do not
    [
      () =>
        m.smoothQuantLayerSweep(
          Array.from({ length: 1024 }, () => new Float64Array(1024).fill(1)),
          Array.from({ length: 1024 }, () => [1]),
          { alpha: new Array(16).fill(0.5) },
        ),
      "alpha",
      /^alpha must be at most 15 values for these x and w \(2\^24 entries quantised over the sweep\), got 16 values$/,
    ],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});
