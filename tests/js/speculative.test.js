// speculativeDecoding through dist/llmmath.js: the exercise, the limits, the paper's
// walltime improvement, exact sums, errors, and no leaks.
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
  for (const [alpha, c] of [[0.5, 0.1], [0.75, 0.2], [0.9, 0.05]]) {
    close(m.speculativeDecoding({ alpha, gamma: 1, costRatio: c }).speedup, (1 + alpha) / (1 + c), 3e-15, `alpha ${alpha}, c ${c}`);
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

test("invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
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

test("no leaks: 10,000 calls, half of them errors, leave the heap and handles unchanged", async () => {
  const m = await core();
  m.speculativeDecoding({ alpha: 0.5, gamma: 3, costRatio: 0.1 });
  const heap = m.memoryInUse();
  const handles = m.count_emval_handles();
  for (let i = 0; i < 5000; i++) {
    m.speculativeDecoding({ alpha: (i % 100) / 99, gamma: i % 17, costRatio: 0.05 });
    assert.throws(() => m.speculativeDecoding({ alpha: 0.5, gamma: i % 2 ? 0.5 : -2 }));
  }
  assert.equal(m.memoryInUse(), heap, "bytes allocated in the wasm heap");
  assert.equal(m.count_emval_handles(), handles, "live embind handles");
});
