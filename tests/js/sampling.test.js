// sampling and sample through dist/llmmath.js: the exercise, greedy decoding, reference values
// and reference draws, and errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test("exercise 2: a token of probability 0.4 in a nucleus of mass 0.8 ends at 0.5", async () => {
  const m = await core();
  const r = m.sampling({ probs: [0.4, 0.4, 0.1, 0.1] }, { topP: 0.8 });
  assert.deepEqual(r.kept, [0, 1]); // 0.4 + 0.4 reaches 0.8: the boundary counts as reached
  assert.deepEqual(r.probs, [0.5, 0.5, 0, 0]); // exact: 0.4 / 0.8
  assert.equal(r.cutoff, 2);
  close(r.keptMass, 0.8, 1e-15, "keptMass");
  close(r.cumulative, [0.4, 0.8, 0.9, 1], 1e-15, "cumulative");
  assert.deepEqual(r.order, [0, 1, 2, 3]);
});

test("a top-p boundary exact in decimal counts as reached though binary sums fall short", async () => {
  const m = await core();
  // the three 0.3 tokens sum to 0.8999999999999999 < 0.9 in doubles; the 1e-9 tolerance
  // keeps three tokens, not four
  const r = m.sampling({ probs: [0.3, 0.3, 0.3, 0, 0.1] }, { topP: 0.9 });
  assert.ok(r.cumulative[2] < 0.9, `cumulative ${r.cumulative[2]} is below 0.9 in this build`);
  assert.deepEqual(r.kept, [0, 1, 2]);
  close(r.probs, [1 / 3, 1 / 3, 1 / 3, 0, 0], 1e-15, "probs");
});

test("temperature 0 is greedy: all mass on the argmax, the lowest index on ties", async () => {
  const m = await core();
  const r = m.sampling({ logits: [1, 5, 2, 5, -3] }, { temperature: 0, topK: 3, topP: 0.9 });
  assert.deepEqual(r.kept, [1]);
  assert.deepEqual(r.probs, [0, 1, 0, 0, 0]);
  assert.deepEqual(r.order, [1, 3, 2, 0, 4]);
  // greedy is repeatable, whatever the seed: the draws are all the argmax
  assert.deepEqual(m.sample(r.probs, { count: 5, seed: 99 }), [1, 1, 1, 1, 1]);
});

test("temperature 0 is defined as greedy; the limit T → 0 splits tied top logits instead", async () => {
  const m = await core();
  // T = 0: all the mass on the lower tied index, exactly
  assert.deepEqual(m.sampling({ logits: [2, 2, 1] }, { temperature: 0 }).probs, [1, 0, 0]);
  // a small T: the tied pair shares the mass equally; the third token keeps e^(−1/T) of each
  for (const T of [0.1, 0.01, 1e-6]) {
    const p = m.sampling({ logits: [2, 2, 1] }, { temperature: T }).probs;
    assert.equal(p[0], p[1], `T ${T}: equal halves`);
    close(p[0], 0.5, 3e-5, `T ${T}: half`); // e^(−10)/2 ≈ 2.3e-5 at T = 0.1
  }
});

test("defaults: temperature 1 with no filter is the softmax; opts may be omitted or null", async () => {
  const m = await core();
  const z = [Math.log(3), Math.log(2), 0];
  const r = m.sampling({ logits: z });
  close(r.probs, [1 / 2, 1 / 3, 1 / 6], 1e-15, "softmax of (ln 3, ln 2, 0)");
  assert.deepEqual(m.sampling({ logits: z }, undefined), r);
  assert.deepEqual(m.sampling({ logits: z }, null), r);
  assert.deepEqual(m.sampling({ logits: z }, {}), r);
  // temperature 1/2 squares the odds: (9, 4, 1) / 14
  close(m.sampling({ logits: z }, { temperature: 0.5 }).tempered, [9 / 14, 4 / 14, 1 / 14], 1e-15, "T = 1/2");
});

test("top-k then top-p on the renormalised top-k distribution", async () => {
  const m = await core();
  const z = [Math.log(3), Math.log(2), 0]; // (1/2, 1/3, 1/6)
  const k2 = m.sampling({ logits: z }, { topK: 2 });
  close(k2.probs, [0.6, 0.4, 0], 1e-15, "top-2");
  assert.equal(k2.probs[2], 0); // removed: exactly 0
  // 3/5 reaches topP 0.6 on the top-2 distribution; 1/2 would not on the original
  assert.deepEqual(m.sampling({ logits: z }, { topK: 2, topP: 0.6 }).kept, [0]);
  assert.deepEqual(m.sampling({ logits: z }, { topP: 0.6 }).kept, [0, 1]);
  assert.equal(m.sampling({ logits: z }, { topK: 100 }).cutoff, 3); // k > vocabulary keeps all
});

test("sampling matches the NumPy reference values", async () => {
  const m = await core();
  let checked = 0;
  for (const c of fixtures.load("sampling.txt")) {
    const v = c.values;
    if (!v.tempered) continue;
    const input = v.inputProbs ? { probs: v.inputProbs[0] } : { logits: v.logits[0] };
    const r = m.sampling(input, {
      temperature: v.temperature[0][0],
      topK: v.topK[0][0],
      topP: v.topP[0][0],
    });
    // long-double reference; double sums of up to 200 terms and exps of arguments up to ~20
    close(r.tempered, v.tempered[0], 1e-14, `${c.name} tempered`);
    close(r.cumulative, v.cumulative[0], 1e-14, `${c.name} cumulative`);
    close(r.probs, v.probs[0], 1e-14, `${c.name} probs`);
    close(r.keptMass, v.keptMass[0][0], 1e-14, `${c.name} keptMass`);
    assert.deepEqual(r.order, v.order[0], `${c.name} order`);
    assert.deepEqual(r.kept, v.kept[0], `${c.name} kept`);
    assert.equal(r.cutoff, v.cutoff[0][0], `${c.name} cutoff`);
    close(sum(r.probs), 1, 1e-12, `${c.name} sum of probs`);
    checked++;
  }
  assert.equal(checked, 12);
});

test("sample reproduces the reference draws exactly, as the native build does", async () => {
  const m = await core();
  let checked = 0;
  for (const c of fixtures.load("sampling.txt")) {
    const v = c.values;
    if (!v.draws) continue;
    const draws = m.sample(v.probs[0], { count: v.count[0][0], seed: v.seed[0][0] });
    assert.deepEqual(draws, v.draws[0], c.name);
    checked++;
  }
  assert.equal(checked, 4);
});

test("the same seed gives the same draws, different seeds differ, zeros are never drawn", async () => {
  const m = await core();
  const p = [0, 0.25, 0, 0.75, 0, 0];
  const a = m.sample(p, { count: 1000, seed: 123 });
  assert.deepEqual(m.sample(p, { count: 1000, seed: 123 }), a);
  assert.notDeepEqual(m.sample(p, { count: 1000, seed: 124 }), a);
  assert.deepEqual(m.sample(p, { count: 10, seed: 123 }), a.slice(0, 10)); // one stream
  assert.ok(
    a.every((t) => t === 1 || t === 3),
    "only tokens of positive probability",
  );
  assert.ok(a.every(Number.isInteger));
  assert.equal(m.sample([1], { count: 1, seed: 4294967295 })[0], 0);
});

test("100,000 draws match the probabilities within 5 standard deviations", async () => {
  const m = await core();
  const p = [0.5, 0.2, 0.15, 0.1, 0.05, 0];
  const N = 100000;
  const draws = m.sample(p, { count: N, seed: 2026 });
  const freq = p.map(() => 0);
  for (const t of draws) freq[t] += 1 / N;
  p.forEach((pi, i) => {
    // binomial sd sqrt(p(1 − p)/N); a fair sampler misses 5 sd with probability ~6e-7
    close(freq[i], pi, 5 * Math.sqrt((pi * (1 - pi)) / N), `frequency of token ${i}`);
  });
  assert.equal(freq[5], 0);
});

test("sampling: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () =>
    assert.deepEqual(m.sampling({ probs: [0.4, 0.4, 0.1, 0.1] }, { topP: 0.8 }).probs, [0.5, 0.5, 0, 0]);
  const goodDraws = () => assert.deepEqual(m.sample([0, 1], { count: 3, seed: 5 }), [1, 1, 1]);
  const z = [1, 2, 3];
  const big = new Array(2 ** 20 + 1).fill(0);
  const samplingCases = [
    [() => m.sampling(), "input", /an object, got undefined/],
    [() => m.sampling([1, 2]), "input", /an object, got an array/],
    [() => m.sampling({}), "input", /got neither/],
    [() => m.sampling({ logits: z, probs: [1, 0, 0] }), "input", /got both/],
    [() => m.sampling({ logit: z }), "input", /unknown key "logit"/],
    [
      () => m.sampling({ logits: [1, 2, Infinity] }),
      "logits[2]",
      /^logits\[2\] must be a finite number, got Infinity$/,
    ],
    [() => m.sampling({ logits: [1, NaN] }), "logits[1]", /finite number, got NaN/],
    [() => m.sampling({ logits: [1, "2"] }), "logits[1]", /a number, got "2" \(a string\)/],
    [() => m.sampling({ logits: [true, 2] }), "logits[0]", /got true/],
    [() => m.sampling({ logits: [1, null] }), "logits[1]", /got null/],
    [() => m.sampling({ logits: [] }), "logits", /non-empty/],
    [() => m.sampling({ logits: big }), "logits", /2\^20/],
    [() => m.sampling({ logits: null }), "logits", /an array of numbers, got null/],
    [() => m.sampling({ probs: [0.5, -0.1, 0.6] }), "probs[1]", /non-negative/],
    [() => m.sampling({ probs: [0.5, 0.4] }), "probs", /summing to 1 within 1e-9, got a sum of 0.9/],
    [() => m.sampling({ logits: z }, { topP: 1.5 }), "topP", /^topP must be in \(0, 1\], got 1.5$/],
    [() => m.sampling({ logits: z }, { topP: 0 }), "topP", /\(0, 1\]/],
    [() => m.sampling({ logits: z }, { topP: "0.5" }), "topP", /a number/],
    [() => m.sampling({ logits: z }, { topK: 2.5 }), "topK", /an integer, got 2.5/],
    [() => m.sampling({ logits: z }, { topK: -1 }), "topK", /≥ 0/],
    [() => m.sampling({ logits: z }, { temperature: -1 }), "temperature", /≥ 0/],
    [() => m.sampling({ logits: z }, { temperature: Infinity }), "temperature", /finite/],
    [() => m.sampling({ logits: z }, { temperature: null }), "temperature", /got null/],
    [() => m.sampling({ logits: z }, { top_p: 0.5 }), "opts", /unknown key "top_p"/],
    [() => m.sampling({ logits: z }, 0.5), "opts", /an object/],
  ];
  for (const [bad, param, pattern] of samplingCases) throwsNaming(bad, param, good, pattern);
  const sampleCases = [
    [() => m.sample(), "probs", /got undefined/],
    [() => m.sample([0.5, 0.5]), "opts", /an object, got undefined/],
    [() => m.sample([0.5, 0.5], { seed: 1 }), "count", /a number, got undefined/],
    [() => m.sample([0.5, 0.5], { count: 0, seed: 1 }), "count", /\[1, 1000000\], got 0/],
    [() => m.sample([0.5, 0.5], { count: 1e6 + 1, seed: 1 }), "count", /1000000/],
    [() => m.sample([0.5, 0.5], { count: 2.5, seed: 1 }), "count", /an integer, got 2.5/],
    [() => m.sample([0.5, 0.5], { count: "10", seed: 1 }), "count", /a number/],
    [() => m.sample([0.5, 0.5], { count: 1 }), "seed", /got undefined/],
    [() => m.sample([0.5, 0.5], { count: 1, seed: -1 }), "seed", /\[0, 4294967295\], got -1/],
    [() => m.sample([0.5, 0.5], { count: 1, seed: 2 ** 32 }), "seed", /got 4294967296/],
    [() => m.sample([0.5, 0.5], { count: 1, seed: true }), "seed", /got true/],
    [() => m.sample([0.5, 0.5], { count: 1, seed: NaN }), "seed", /finite/],
    [() => m.sample([0.5, 0.5], { count: 1, seed: 1, n: 2 }), "opts", /unknown key "n"/],
    [() => m.sample([0.5, 0.6], { count: 1, seed: 1 }), "probs", /summing to 1/],
    [() => m.sample([0.5, -Infinity], { count: 1, seed: 1 }), "probs[1]", /finite/],
  ];
  for (const [bad, param, pattern] of sampleCases) throwsNaming(bad, param, goodDraws, pattern);
});

test("topKMass and topKProbs: the top-k distribution top-p cuts, cumulative its running sum", async () => {
  const m = await core();
  // (1/2, 1/3, 1/6) with top-k 2: 5/6 of the mass kept, renormalised to (3/5, 2/5, 0)
  const z = [Math.log(3), Math.log(2), 0];
  const r = m.sampling({ logits: z }, { topK: 2 });
  assert.equal(typeof r.topKMass, "number");
  assert.ok(Array.isArray(r.topKProbs) && r.topKProbs.length === 3, "one entry per token");
  close(r.topKMass, 5 / 6, 1e-15, "topKMass"); // exp, and sums of two or three terms
  close(r.topKProbs, [0.6, 0.4, 0], 1e-15, "topKProbs");
  assert.equal(r.topKProbs[2], 0, "outside the top k: exactly 0");
  // the definitions, on a larger case: tempered / topKMass on the top k, cumulative along order
  const logits = Array.from({ length: 40 }, (_, i) => Math.sin(1.7 * i) * 3);
  for (const [temperature, topK] of [
    [1, 0],
    [0.7, 5],
    [1.6, 39],
    [0, 3],
  ]) {
    const s = m.sampling({ logits }, { temperature, topK, topP: 0.9 });
    const k = topK === 0 ? logits.length : topK;
    let running = 0;
    s.order.forEach((i, j) => {
      if (j < k) {
        assert.equal(s.topKProbs[i], s.tempered[i] / s.topKMass, `T ${temperature}, k ${topK}: token ${i}`); // one division
        running += s.topKProbs[i];
      } else {
        assert.equal(s.topKProbs[i], 0, `T ${temperature}, k ${topK}: token ${i} is outside the top k`);
      }
      assert.equal(s.cumulative[j], running, `T ${temperature}, k ${topK}: cumulative[${j}]`); // the same sums in order
    });
  }
  // top-k off: all of the mass, 1 within (2n − 1)·2^-53 = 1.0e-15 for five tokens
  close(m.sampling({ logits: [2, 1.5, 0.3, -0.7, -2] }).topKMass, 1, 1e-15, "topKMass with top-k off");
  assert.equal(m.sampling({ logits: [1, 5, 2] }, { temperature: 0 }).topKMass, 1, "greedy: exactly 1");
});
