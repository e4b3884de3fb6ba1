// alibiSlopes and alibi through dist/llmmath.js: the exercise, the paper's slopes, the bias
// matrix with null for masked entries, reference values and errors (leak.test.js shows that
// nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

test("exercise 6: slope 0.125 → half-distance ln 2 / 0.125 ≈ 5.545 tokens", async () => {
  const m = await core();
  const r = m.alibi({ slope: 0.125 });
  close(r.halfDistance, 8 * Math.LN2, 1e-15, "halfDistance");
  assert.deepEqual(Object.keys(r), ["halfDistance"], "no tokens: no bias field");
  // each factor-of-two drop in slope doubles the half-distance (exactly)
  assert.equal(m.alibi({ slope: 0.0625 }).halfDistance, 2 * r.halfDistance);
  assert.equal(m.alibi({ slope: 0.03125 }).halfDistance, 4 * r.halfDistance);
});

test("slopes: 8 heads 1/2 … 1/256; 12 heads add every other slope of 16", async () => {
  const m = await core();
  assert.deepEqual(m.alibiSlopes(8), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
  assert.deepEqual(m.alibiSlopes(1), [1 / 256]);
  assert.deepEqual(m.alibiSlopes(3), [1 / 16, 1 / 256, 1 / 4]);
  const s16 = m.alibiSlopes(16);
  const s12 = m.alibiSlopes(12);
  assert.deepEqual(s12.slice(0, 8), m.alibiSlopes(8));
  assert.deepEqual(s12.slice(8), [s16[0], s16[2], s16[4], s16[6]]);
  close(s16[0], Math.SQRT1_2, 1e-16, "16 heads start at 1/sqrt(2)");
});

test("the bias: −slope·(i − j) below the diagonal, +0 on it, null above", async () => {
  const m = await core();
  const r = m.alibi({ slope: 0.5, tokens: 4 });
  assert.deepEqual(r.bias, [
    [0, null, null, null],
    [-0.5, 0, null, null],
    [-1, -0.5, 0, null],
    [-1.5, -1, -0.5, 0],
  ]); // deepStrictEqual tells +0 from −0, so the diagonal is +0
  close(r.relativeWeight, [1, Math.exp(-0.5), Math.exp(-1), Math.exp(-1.5)], 2e-16, "e^(−slope·δ)");
  const half = m.alibi({ slope: Math.LN2 / 3, tokens: 7 });
  close(half.relativeWeight[3], 0.5, 1e-15, "the weight halves at the half-distance, 3 tokens");
  close(half.relativeWeight[6], 0.25, 1e-15, "and quarters at twice it");
});

test("slopes and bias match the reference values", async () => {
  const m = await core();
  for (const c of fixtures.load("alibi.txt")) {
    const v = c.values;
    if (v.heads) {
      const s = m.alibiSlopes(v.heads[0][0]);
      // the reference raises a rounded start to the power i: k units of its rounding apart
      s.forEach((x, k) => close(x, v.slopes[0][k], 1.2e-16 * (k + 2) * x, `${c.name}[${k}]`));
    } else {
      const r = m.alibi({ slope: v.slope[0][0], tokens: v.tokens[0][0] });
      close(r.halfDistance, v.halfDistance[0][0], 1e-16 * r.halfDistance, `${c.name} halfDistance`);
      const expected = v.bias.map((row) => row.map((x) => (Number.isNaN(x) ? null : x)));
      assert.deepEqual(r.bias, expected, `${c.name} bias`); // one product each: identical
      close(r.relativeWeight, v.relativeWeight[0], 2e-16, `${c.name} relativeWeight`);
    }
  }
});

test("the largest sequence, 4096 tokens, is accepted", async () => {
  const m = await core();
  const r = m.alibi({ slope: 1 / 256, tokens: 4096 });
  assert.equal(r.bias.length, 4096);
  assert.equal(r.bias[4095][0], -4095 / 256);
  assert.equal(r.bias[0][4095], null);
});

test("alibi: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => {
    assert.equal(m.alibiSlopes(8)[7], 1 / 256);
    assert.deepEqual(m.alibi({ slope: 0.5, tokens: 2 }).bias, [
      [0, null],
      [-0.5, 0],
    ]);
  };
  const cases = [
    [() => m.alibiSlopes(), "heads", /a number, got undefined/],
    [() => m.alibiSlopes("8"), "heads", /got "8" \(a string\)/],
    [() => m.alibiSlopes(0), "heads", /\[1, 4096\], got 0/],
    [() => m.alibiSlopes(4097), "heads", /4096/],
    [() => m.alibiSlopes(2.5), "heads", /an integer, got 2.5/],
    [() => m.alibiSlopes(NaN), "heads", /finite/],
    [() => m.alibiSlopes(null), "heads", /got null/],
    [() => m.alibi(), "cfg", /an object, got undefined/],
    [() => m.alibi({}), "slope", /got undefined/],
    [() => m.alibi({ slope: 0 }), "slope", /> 0, got 0/],
    [() => m.alibi({ slope: -0.125 }), "slope", /> 0/],
    [() => m.alibi({ slope: Infinity }), "slope", /finite/],
    [() => m.alibi({ slope: true }), "slope", /got true/],
    [() => m.alibi({ slope: 1e-320 }), "slope", /1e-300/],
    [() => m.alibi({ slope: 0.5, tokens: 0 }), "tokens", /\[1, 4096\], got 0/],
    [() => m.alibi({ slope: 0.5, tokens: 4097 }), "tokens", /4096/],
    [() => m.alibi({ slope: 0.5, tokens: 1.5 }), "tokens", /an integer/],
    [() => m.alibi({ slope: 0.5, tokens: null }), "tokens", /got null/],
    [() => m.alibi({ slope: 0.5, heads: 8 }), "cfg", /unknown key "heads"/],
    [() => m.alibi({ slope: 0.5, distances: 0 }), "distances", /\[1, 1048576\], got 0/],
    [() => m.alibi({ slope: 0.5, distances: "9" }), "distances", /a number/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("alibi with distances gives the decay without a bias matrix", async () => {
  const m = await core();
  const r = m.alibi({ slope: 0.125, distances: 600 });
  assert.equal(r.bias, undefined);
  assert.equal(r.relativeWeight.length, 600);
  close(r.relativeWeight[8], Math.exp(-1), 1e-16, "e^(−0.125·8)");
  assert.deepEqual(m.alibi({ slope: 0.125, tokens: 12 }).relativeWeight, r.relativeWeight.slice(0, 12));
});

test("alibiHeads at 12 heads: the gentlest is head 8 (2^-8, ≈177.4 tokens), not the last (7.8)", async () => {
  const m = await core();
  const r = m.alibiHeads(12);
  assert.deepEqual(r.slopes, m.alibiSlopes(12));
  assert.deepEqual(r.gentlest.head, 8);
  assert.equal(r.gentlest.slope, 1 / 256); // exact
  close(r.gentlest.halfDistance, 256 * Math.LN2, 3e-14, "256 ln 2"); // one division: ≤ 1 ulp
  close(r.gentlest.halfDistance, 177.4, 0.05, "≈ 177.4 tokens");
  close(r.halfDistances[11], 7.84, 0.005, "the last head halves every 7.8 tokens: not the gentlest");
  assert.equal(r.steepest.head, 9); // 2^-0.5, the first appended slope
  close(r.steepest.slope, Math.SQRT1_2, 1e-16, "2^-0.5");
  close(r.steepest.halfDistance, Math.LN2 * Math.SQRT2, 2e-16, "ln 2 · √2");
});

test("alibiHeads at 40 heads: gentlest head 32 (≈177.4, the last shows 2.5), steepest head 33", async () => {
  const m = await core();
  const r = m.alibiHeads(40);
  assert.equal(r.gentlest.head, 32);
  assert.equal(r.gentlest.slope, 1 / 256);
  close(r.gentlest.halfDistance, 177.4, 0.05, "≈ 177.4 tokens");
  close(r.halfDistances[39], 2.5, 0.05, "the last head");
  assert.equal(r.steepest.head, 33);
  close(r.steepest.slope, 2 ** -0.125, 1e-16, "2^(−8/64)");
});

test("alibiHeads for a power of two: the first head is the steepest and the last the gentlest", async () => {
  const m = await core();
  for (const h of [1, 2, 8, 64]) {
    const r = m.alibiHeads(h);
    assert.equal(r.steepest.head, 1, `${h} heads: steepest`);
    assert.equal(r.gentlest.head, h, `${h} heads: gentlest`);
    assert.equal(r.gentlest.slope, 1 / 256);
  }
  // every head count 1 … 64: the extremes are the largest and smallest slopes
  for (let h = 1; h <= 64; h++) {
    const r = m.alibiHeads(h);
    assert.equal(r.steepest.slope, Math.max(...r.slopes), `${h} heads: steepest slope`);
    assert.equal(r.gentlest.slope, Math.min(...r.slopes), `${h} heads: gentlest slope`);
    assert.equal(r.slopes[r.steepest.head - 1], r.steepest.slope, `${h} heads: 1-based`);
    assert.equal(r.halfDistances[r.gentlest.head - 1], r.gentlest.halfDistance);
  }
});

test("alibiHeads matches the extremes of the reference slopes, and refuses bad heads", async () => {
  const m = await core();
  for (const c of fixtures.load("alibi.txt")) {
    if (!c.values.steepest) continue;
    const r = m.alibiHeads(c.values.heads[0][0]);
    for (const name of ["steepest", "gentlest"]) {
      const [head, slope, half] = c.values[name][0];
      assert.equal(r[name].head, head, `${c.name} ${name} head`);
      // the reference's slopes carry up to k·1.2e-16 of rounding (k the head number)
      close(r[name].slope, slope, 1.2e-16 * (head + 2) * slope, `${c.name} ${name} slope`);
      close(r[name].halfDistance, half, 1.2e-16 * (head + 3) * half, `${c.name} ${name} half-distance`);
    }
  }
  const good = () => assert.equal(m.alibiHeads(12).gentlest.head, 8);
  throwsNaming(() => m.alibiHeads(), "heads", good, /a number, got undefined/);
  throwsNaming(() => m.alibiHeads(0), "heads", good, /\[1, 4096\], got 0/);
  throwsNaming(() => m.alibiHeads(12.5), "heads", good, /an integer, got 12.5/);
  throwsNaming(() => m.alibiHeads("12"), "heads", good, /a string/);
});
