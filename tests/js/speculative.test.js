// speculativeDecoding, speculativeSweep, speculativeAlpha and speculativeMeasure through
// dist/llmmath.js: the exercise, the limits, the paper's walltime improvement, exact sums and
// errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

test("exercise 5: alpha 0.5, gamma 3 → 1.875 tokens per call, ceiling 2", async () => {
  const m = await core();
  const r = m.speculativeDecoding({ alpha: 0.5, gamma: 3 });
  assert.equal(r.expectedTokens, 1.875); // 0.9375 / 0.5, exact in binary
  assert.equal(r.ceiling, 2);
  assert.ok(!("speedup" in r), "no costRatio, no speedup field");
  assert.deepEqual(r.tokenProbs, [0.5, 0.25, 0.125, 0.125]);
});

test("alpha 1 gives gamma + 1 tokens and an infinite ceiling; alpha 0 one token", async () => {
  const m = await core();
  const all = m.speculativeDecoding({ alpha: 1, gamma: 4, costRatio: 0.5 });
  assert.equal(all.expectedTokens, 5);
  assert.equal(all.ceiling, Infinity);
  close(all.speedup, 5 / 3, 4e-16, "5 / (4·0.5 + 1)");
  assert.equal(m.speculativeDecoding({ alpha: 0, gamma: 9 }).expectedTokens, 1);
  assert.equal(m.speculativeDecoding({ alpha: 0.9, gamma: 0 }).expectedTokens, 1);
});

test("expected tokens grow with gamma and never pass the ceiling", async () => {
  const m = await core();
  for (const alpha of [0.1, 0.5, 0.9, 0.999, 1 - 1e-12]) {
    let previous = 0;
    for (let gamma = 0; gamma <= 40; gamma++) {
      const r = m.speculativeDecoding({ alpha, gamma });
      assert.ok(r.expectedTokens <= r.ceiling, `alpha ${alpha}, gamma ${gamma}: below the ceiling`);
      assert.ok(r.expectedTokens >= previous, `alpha ${alpha}, gamma ${gamma}: not fewer`);
      previous = r.expectedTokens;
    }
  }
});

test("walltime improvement as in Leviathan et al. 2023", async () => {
  const m = await core();
  // Theorem 3.8: (1 − 0.8⁶) / ((1 − 0.8)(5·0.05 + 1)) = 2.951424
  close(m.speculativeDecoding({ alpha: 0.8, gamma: 5, costRatio: 0.05 }).speedup, 2.951424, 3e-15, "speedup");
  // Corollary 3.9: with gamma 1 the improvement is (1 + alpha) / (1 + c)
  for (const [alpha, c] of [
    [0.5, 0.1],
    [0.75, 0.2],
    [0.9, 0.05],
  ]) {
    close(
      m.speculativeDecoding({ alpha, gamma: 1, costRatio: c }).speedup,
      (1 + alpha) / (1 + c),
      3e-15,
      `alpha ${alpha}, c ${c}`,
    );
  }
});

test("speculativeDecoding matches exact sums, also next to alpha = 1", async () => {
  const m = await core();
  for (const c of fixtures.load("speculative.txt")) {
    const v = Object.fromEntries(Object.entries(c.values).map(([k, M]) => [k, M[0][0]]));
    const cfg = { alpha: v.alpha, gamma: v.gamma };
    if (!Number.isNaN(v.costRatio)) cfg.costRatio = v.costRatio;
    const r = m.speculativeDecoding(cfg);
    close(r.expectedTokens, v.expectedTokens, 1e-15 * v.expectedTokens, `${c.name} expectedTokens`);
    if (v.ceiling === Infinity) assert.equal(r.ceiling, Infinity);
    else close(r.ceiling, v.ceiling, 1e-15 * v.ceiling, `${c.name} ceiling`);
    if (Number.isNaN(v.speedup)) assert.equal(r.speedup, undefined);
    else close(r.speedup, v.speedup, 2e-15 * v.speedup, `${c.name} speedup`);
  }
});

test("speculative: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.speculativeDecoding({ alpha: 0.5, gamma: 3 }).expectedTokens, 1.875);
  const cases = [
    [() => m.speculativeDecoding(), "cfg", /an object, got undefined/],
    [() => m.speculativeDecoding([0.5, 3]), "cfg", /an object, got an array/],
    [() => m.speculativeDecoding({ gamma: 3 }), "alpha", /got undefined/],
    [() => m.speculativeDecoding({ alpha: "0.5", gamma: 3 }), "alpha", /a number, got "0.5"/],
    [() => m.speculativeDecoding({ alpha: 1.5, gamma: 3 }), "alpha", /in \[0, 1\], got 1.5/],
    [() => m.speculativeDecoding({ alpha: NaN, gamma: 3 }), "alpha", /finite/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 2.5 }), "gamma", /an integer, got 2.5/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: -1 }), "gamma", /\[0, 1024\]/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 1025 }), "gamma", /1024/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: null }), "gamma", /got null/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 3, costRatio: -1 }), "costRatio", /≥ 0/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 3, costRatio: Infinity }), "costRatio", /finite/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 3, costRatio: false }), "costRatio", /got false/],
    [() => m.speculativeDecoding({ alpha: 0.5, gamma: 3, c: 0.1 }), "cfg", /unknown key "c"/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

// ---- measuring alpha ----

test("speculativeAlpha inverts eq. 1: 1.875 tokens per call at gamma 3 is alpha 0.5", async () => {
  const m = await core();
  const r = m.speculativeAlpha({ meanTokens: 1.875, gamma: 3 });
  close(r.alpha, 0.5, 1e-15, "alpha"); // eq. 1 is flat to one unit of 1.875 over a few doubles
  assert.equal(r.expectedTokens, 1.875);
  assert.equal(m.speculativeAlpha({ meanTokens: 1, gamma: 3 }).alpha, 0);
  assert.equal(m.speculativeAlpha({ meanTokens: 4, gamma: 3 }).alpha, 1);
  // the round trip alpha → eq. 1 → alpha, to the 1e-12 the core promises
  for (const gamma of [1, 3, 10, 1024]) {
    for (const alpha of [0, 0.01, 0.29, 0.5, 0.9, 0.999999, 1]) {
      const E = m.speculativeDecoding({ alpha, gamma }).expectedTokens;
      close(m.speculativeAlpha({ meanTokens: E, gamma }).alpha, alpha, 1e-12, `gamma ${gamma}, alpha ${alpha}`);
    }
  }
});

test("speculativeMeasure by hand: seed 0, alpha 0.5, gamma 3, four rounds", async () => {
  const m = await core();
  // SplitMix64 seed 0: uniforms 0.883 | 0.432 0.026 0.971 | 0.106 0.327 0.174 | 0.772, u < 0.5
  // accepts: rounds of 0, 2, 3 and 0 accepted drafts after 1, 3, 3 and 1 checked
  const r = m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4, seed: 0 });
  assert.equal(r.proposed, 12);
  assert.equal(r.checked, 8);
  assert.equal(r.accepted, 5);
  assert.equal(r.produced, 9);
  assert.equal(r.meanTokens, 2.25);
  assert.deepEqual(r.tokenCounts, [2, 0, 1, 1]);
  assert.equal(r.acceptedPerProposed, 5 / 12);
  assert.equal(r.acceptedPerChecked, 0.625);
  close(
    m.speculativeDecoding({ alpha: r.alphaFromMeanTokens, gamma: 3 }).expectedTokens,
    2.25,
    1e-15,
    "eq. 1 at the estimate",
  );
  assert.equal(r.expectedTokens, 1.875);
});

test("over 200,000 rounds at alpha 0.5, gamma 3: accepted/proposed ≈ 0.29, the other two ≈ 0.5", async () => {
  const m = await core();
  const R = 200000;
  const r = m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: R, seed: 1 });
  // per round: A accepted drafts, 0..3 with probabilities 1/2, 1/4, 1/8, 1/8: E[A] = 0.875,
  // Var(A) = E[A²] − 0.875² = 1.875 − 0.765625 = 1.109375; C checked drafts, E[C] = 1.75.
  // Tolerances: 5 standard deviations over R rounds (the delta method for the ratios); the
  // seed is fixed, so the checks are deterministic.
  const sdMean = Math.sqrt(1.109375 / R);
  close(r.meanTokens, 1.875, 5 * sdMean, "mean tokens per call");
  close(r.acceptedPerProposed, 0.875 / 3, (5 * sdMean) / 3, "accepted / proposed: 0.2917, not alpha");
  // Var(A − αC) over the four outcomes (A, C) = (0, 1), (1, 2), (2, 3), (3, 3)
  const varRatio = 0.5 * 0.25 + 0.25 * 0 + 0.125 * 0.25 + 0.125 * 2.25;
  close(r.acceptedPerChecked, 0.5, (5 * Math.sqrt(varRatio / R)) / 1.75, "accepted / checked");
  close(r.alphaFromMeanTokens, 0.5, (5 * sdMean) / 2.75, "alpha from tokens per call (dE/dα = 2.75)");
  // eq. 1 fed with the naive ratio predicts 1.40 tokens per call instead of 1.875
  close(m.speculativeDecoding({ alpha: r.acceptedPerProposed, gamma: 3 }).expectedTokens, 1.4, 0.01, "1.40");
});

test("speculativeMeasure: the same seed gives the same counts; counts agree with each other", async () => {
  const m = await core();
  const a = m.speculativeMeasure({ alpha: 0.6, gamma: 4, rounds: 10000, seed: 42 });
  assert.deepEqual(m.speculativeMeasure({ alpha: 0.6, gamma: 4, rounds: 10000, seed: 42 }), a);
  assert.notDeepEqual(
    m.speculativeMeasure({ alpha: 0.6, gamma: 4, rounds: 10000, seed: 43 }).tokenCounts,
    a.tokenCounts,
  );
  assert.equal(a.produced, a.accepted + a.rounds);
  assert.equal(
    a.tokenCounts.reduce((x, y) => x + y, 0),
    a.rounds,
  );
  assert.equal(a.checked, a.accepted + a.rounds - a.tokenCounts[4]);
  assert.ok(a.accepted <= a.checked && a.checked <= a.proposed);
  const all = m.speculativeMeasure({ alpha: 1, gamma: 4, rounds: 100, seed: 9 });
  assert.deepEqual([all.acceptedPerChecked, all.acceptedPerProposed, all.alphaFromMeanTokens], [1, 1, 1]);
});

test("speculativeMeasure reproduces the Python reference simulation exactly", async () => {
  const m = await core();
  const cases = fixtures.load("speculative_measure.txt");
  assert.ok(cases.length >= 4);
  for (const c of cases) {
    const v = Object.fromEntries(
      Object.entries(c.values).map(([k, M]) => [k, M.length === 1 && M[0].length === 1 ? M[0][0] : M[0]]),
    );
    const r = m.speculativeMeasure({ alpha: v.alpha, gamma: v.gamma, rounds: v.rounds, seed: v.seed });
    for (const key of ["checked", "accepted", "produced", "acceptedPerProposed", "acceptedPerChecked"]) {
      assert.equal(r[key], v[key], `${c.name} ${key}`); // integers and quotients rounded once
    }
    assert.deepEqual(r.tokenCounts, Array.isArray(v.tokenCounts) ? v.tokenCounts : [v.tokenCounts]);
    close(r.alphaFromMeanTokens, v.alphaFromMeanTokens, 1e-12, `${c.name} alpha from mean tokens`);
  }
});

test("speculativeAlpha and speculativeMeasure refuse bad input by name, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4, seed: 0 }).checked, 8);
  const cases = [
    [() => m.speculativeAlpha(), "cfg", /an object, got undefined/],
    [() => m.speculativeAlpha({ meanTokens: 0.5, gamma: 3 }), "meanTokens", /\[1, gamma \+ 1\] = \[1, 4\]/],
    [() => m.speculativeAlpha({ meanTokens: 4.5, gamma: 3 }), "meanTokens", /got 4.5/],
    [() => m.speculativeAlpha({ meanTokens: "2", gamma: 3 }), "meanTokens", /a string/],
    [() => m.speculativeAlpha({ meanTokens: 2, gamma: 0 }), "gamma", /\[1, 1024\], got 0/],
    [() => m.speculativeAlpha({ meanTokens: 2, gamma: 3, alpha: 0.5 }), "cfg", /unknown key "alpha"/],
    [() => m.speculativeMeasure({ gamma: 3, rounds: 4, seed: 0 }), "alpha", /got undefined/],
    [() => m.speculativeMeasure({ alpha: 0.5, gamma: 0, rounds: 4, seed: 0 }), "gamma", /\[1, 1024\]/],
    [() => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 0, seed: 0 }), "rounds", /\[1, 1000000\], got 0/],
    [() => m.speculativeMeasure({ alpha: 0.5, gamma: 20, rounds: 1e6, seed: 0 }), "rounds", /10\^7/],
    [() => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4 }), "seed", /got undefined/],
    [() => m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4, seed: 2 ** 32 }), "seed", /4294967295/],
    [() => m.speculativeMeasure({ alpha: 1.5, gamma: 3, rounds: 4, seed: 0 }), "alpha", /\[0, 1\]/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

// ---- speculativeSweep: figure 5.1's curves in one call ----

test("speculativeSweep: arrays per draft length; roundCost, speedup and the best gamma only with costRatio", async () => {
  const m = await core();
  const gamma = [0, 1, 2, 3, 4];
  const withoutCostRatio = m.speculativeSweep({ alpha: 0.5, gamma });
  assert.deepEqual(Object.keys(withoutCostRatio).sort(), ["expectedTokens", "gamma"], "no cost ratio: eq. 1 alone");
  assert.deepEqual(withoutCostRatio.gamma, gamma);
  // eq. 1 at alpha 0.5: 1, 1.5, 1.75, 1.875, 1.9375, each exact in binary
  assert.deepEqual(withoutCostRatio.expectedTokens, [1, 1.5, 1.75, 1.875, 1.9375]);
  const r = m.speculativeSweep({ alpha: 0.5, gamma, costRatio: 0.1 });
  assert.deepEqual(Object.keys(r).sort(), [
    "bestGamma",
    "bestSpeedup",
    "expectedTokens",
    "gamma",
    "roundCost",
    "speedup",
  ]);
  for (const key of ["roundCost", "speedup"]) assert.equal(r[key].length, gamma.length, `${key}: one entry per gamma`);
  assert.equal(typeof r.bestGamma, "number");
  // the exercise's alpha with c = 0.1: 1.75 / 1.2 at gamma 2 beats 1.875 / 1.3 at gamma 3
  assert.equal(r.bestGamma, 2);
  close(r.bestSpeedup, 1.75 / 1.2, 2.3e-16, "1.4583"); // (2·0.1 + 1) and the quotient: one unit at most
  gamma.forEach((g, i) => {
    const p = m.speculativeDecoding({ alpha: 0.5, gamma: g, costRatio: 0.1 });
    // exact: the core's sweep calls speculativeDecoding's code at each point
    assert.deepEqual(
      [r.expectedTokens[i], r.roundCost[i], r.speedup[i]],
      [p.expectedTokens, p.roundCost, p.speedup],
      `gamma ${g}`,
    );
  });
  assert.equal(r.bestSpeedup, Math.max(...r.speedup));
});

test("speculativeSweep's best gamma is the first of the given order on a tie", async () => {
  const m = await core();
  // alpha 0 and c 0: every speedup is exactly 1, so the first gamma given is the answer
  const tie = m.speculativeSweep({ alpha: 0, gamma: [5, 2, 7], costRatio: 0 });
  assert.deepEqual(tie.speedup, [1, 1, 1]);
  assert.equal(tie.bestGamma, 5);
  // alpha 1 and c 1: (gamma + 1) / (gamma + 1), again all exactly 1
  assert.equal(m.speculativeSweep({ alpha: 1, gamma: [3, 1, 8], costRatio: 1 }).bestGamma, 3);
  // the paper's alpha 0.8, c 0.05 over 0 … 20: best at 8
  assert.equal(
    m.speculativeSweep({ alpha: 0.8, gamma: Array.from({ length: 21 }, (_, g) => g), costRatio: 0.05 }).bestGamma,
    8,
  );
});

test("speculativeSweep takes a Float64Array of draft lengths, with the same result", async () => {
  const m = await core();
  const gamma = [0, 1, 5, 1024];
  assert.deepEqual(
    m.speculativeSweep({ alpha: 0.8, gamma: Float64Array.from(gamma), costRatio: 0.05 }),
    m.speculativeSweep({ alpha: 0.8, gamma, costRatio: 0.05 }),
  );
});

test("speculativeSweep refuses bad input by name, an entry as gamma[i], and keeps working", async () => {
  const m = await core();
  const good = () => assert.deepEqual(m.speculativeSweep({ alpha: 0.5, gamma: [1, 3] }).expectedTokens, [1.5, 1.875]);
  const cases = [
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [1, 2.5] }), "gamma[1]", /^gamma\[1\] must be an integer, got 2.5$/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [1, 2, 1025] }), "gamma[2]", /\[0, 1024\], got 1025$/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [-1] }), "gamma[0]", /got -1$/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [3, "4"] }), "gamma[1]", /"4" \(a string\)/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: 3 }), "gamma", /an array of numbers, got 3/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: { 0: 3 } }), "gamma", /got an object/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [] }), "gamma", /non-empty/],
    [
      () => m.speculativeSweep({ alpha: 0.5, gamma: new Array(4097).fill(1) }),
      "gamma",
      /at most 4096 entries \(points of a sweep\), got 4097/,
    ],
    [() => m.speculativeSweep({ alpha: 1.5, gamma: [3] }), "alpha", /\[0, 1\], got 1.5/],
    [() => m.speculativeSweep({ gamma: [3] }), "alpha", /got undefined/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [3], costRatio: -1 }), "costRatio", /≥ 0/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [3], costRatio: "0.1" }), "costRatio", /a string/],
    [() => m.speculativeSweep({ alpha: 0.5, gamma: [3], c: 0.1 }), "cfg", /unknown key "c"/],
    [() => m.speculativeSweep(), "cfg", /an object, got undefined/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("speculativeMeasure predicts tokens per call from each estimate: the naive one too few", async () => {
  const m = await core();
  const r = m.speculativeMeasure({ alpha: 0.5, gamma: 3, rounds: 4, seed: 0 });
  // the hand-worked case: accepted/checked 0.625 predicts (1 − 0.625⁴) / 0.375 = 2.259765625 exactly
  assert.equal(r.expectedTokensPerChecked, 2.259765625);
  close(r.expectedTokensPerProposed, 2873 / 1728, 1e-15, "eq. 1 at 5/12"); // 1 + 5/12 + 25/144 + 125/1728
  close(r.expectedTokensFromMeanTokens, 2.25, 1e-15, "the mean again"); // bisection to neighbouring doubles
  for (const [alpha, gamma, rounds, seed] of [
    [0.5, 3, 10000, 0],
    [0.8, 5, 2000, 2 ** 32 - 1],
    [0.999, 1024, 2000, 3],
  ]) {
    const s = m.speculativeMeasure({ alpha, gamma, rounds, seed });
    const at = (a) => m.speculativeDecoding({ alpha: a, gamma }).expectedTokens;
    // exact: the same code at the same alpha and gamma
    assert.equal(s.expectedTokensPerProposed, at(s.acceptedPerProposed));
    assert.equal(s.expectedTokensPerChecked, at(s.acceptedPerChecked));
    assert.equal(s.expectedTokensFromMeanTokens, at(s.alphaFromMeanTokens));
    // half a unit of alpha times eq. 1's slope (≤ γ(γ+1)/2 = 524,800): below 6e-11
    close(s.expectedTokensFromMeanTokens, s.meanTokens, 1e-9, `alpha ${alpha}, gamma ${gamma}: from the mean`);
    assert.ok(s.expectedTokensPerProposed < s.meanTokens, "the naive estimate predicts too few");
  }
});
