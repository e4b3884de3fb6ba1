// attention and contextDilution through dist/llmmath.js: the exercise, reference values and
// errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

// Exercise 1: three tokens; key 3 has the largest raw score for query 1 but is in its future.
const Q = [[1, 0], [0, 1], [1, 1]];
const K = [[1, 0], [0, 1], [3, 0]];
const V = [[1, 0], [0, 1], [0.5, 0.5]];

test("exercise 1: query 1 sees only key 1, weights (1, 0, 0), output V1 = (1, 0)", async () => {
  const m = await core();
  const r = m.attention(Q, K, V, { causal: true });
  assert.deepEqual(r.weights[0], [1, 0, 0]); // exact: masked before normalisation
  assert.deepEqual(r.output[0], [1, 0]);
  close(r.scores[0][2], 3 / Math.SQRT2, 1e-15, "raw score of the future key");
  assert.ok(r.scores[0][2] > r.scores[0][0], "the masked key had the largest raw score");
});

test("without the mask the future key takes most of the weight", async () => {
  const m = await core();
  const r = m.attention(Q, K, V);
  assert.ok(r.weights[0][2] > 0.5);
  close(r.weights[0].reduce((a, b) => a + b), 1, 1e-15, "row sum");
});

test("options may be omitted, undefined or null; scale overrides 1/sqrt(d)", async () => {
  const m = await core();
  const a = m.attention(Q, K, V);
  assert.deepEqual(m.attention(Q, K, V, undefined), a);
  assert.deepEqual(m.attention(Q, K, V, null), a);
  close(m.attention(Q, K, V, { scale: 1 }).scores[0][2], 3, 0, "scores with scale 1");
});

test("causal alignment: one query after a cache of keys sees every key", async () => {
  const m = await core();
  const r = m.attention([[1, 1]], K, V, { causal: true });
  assert.ok(r.weights[0].every((w) => w > 0));
  const two = m.attention([[1, 1], [0, 1]], K, V, { causal: true });
  assert.equal(two.weights[0][2], 0); // query 0 sits at position 1
});

test("scores of ±1000 give no NaN", async () => {
  const m = await core();
  const r = m.attention([[1000], [-1000]], [[1], [-1]], [[1, 0], [0, 1]], { scale: 1 });
  assert.deepEqual(r.weights, [[1, 0], [0, 1]]);
});

test("attention matches the NumPy reference values", async () => {
  const m = await core();
  for (const c of fixtures.load("attention.txt")) {
    if (!c.values.q) continue;
    const v = c.values;
    const opts = { causal: v.causal[0][0] === 1 };
    if (!Number.isNaN(v.scale[0][0])) opts.scale = v.scale[0][0];
    const r = m.attention(v.q, v.k, v.v, opts);
    // long-double reference; double sums of ≤16 terms of size ≤30
    close(r.scores, v.scores, 1e-12, `${c.name} scores`);
    close(r.weights, v.weights, 1e-12, `${c.name} weights`);
    close(r.output, v.output, 1e-12, `${c.name} output`);
  }
});

test("contextDilution matches hand values and the NumPy reference", async () => {
  const m = await core();
  close(m.contextDilution({ relevantScore: 0, distractorScore: 0, distractors: 3 }).relevantWeight,
    0.25, 1e-16, "four equal keys");
  assert.equal(m.contextDilution({ relevantScore: 1, distractorScore: 9, distractors: 0 }).relevantWeight, 1);
  for (const c of fixtures.load("attention.txt")) {
    if (!c.values.relevantWeight) continue;
    const v = c.values;
    const r = m.contextDilution({
      relevantScore: v.relevantScore[0][0],
      distractorScore: v.distractorScore[0][0],
      distractors: v.distractors[0][0],
    });
    close(r.relevantWeight, v.relevantWeight[0][0], 1e-13 * v.relevantWeight[0][0], c.name);
  }
});

test("invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.deepEqual(m.attention(Q, K, V, { causal: true }).output[0], [1, 0]);
  const cases = [
    [() => m.attention(), "q", /got undefined/],
    [() => m.attention(Q, K), "v", /got undefined/],
    [() => m.attention([], K, V), "q", /non-empty/],
    [() => m.attention([[1, "0"], [0, 1], [1, 1]], K, V), "q[0][1]", /a number, got "0" \(a string\)/],
    [() => m.attention(Q, [[1, 0], [0, 1], [3]], V), "k[2]", /ragged/],
    [() => m.attention(Q, K, [[1, 0], [0, 1]]), "v", /3 rows/],
    [() => m.attention(Q, [[1, 0, 0], [0, 1, 0], [3, 0, 0]], V), "k", /2 columns/],
    [() => m.attention(Q, K, [[NaN, 0], [0, 1], [1, 1]]), "v[0][0]", /finite number, got NaN/],
    [() => m.attention(Q, K, [[Infinity, 0], [0, 1], [1, 1]]), "v[0][0]", /got Infinity/],
    [() => m.attention(Q, K, V, { causal: 1 }), "causal", /true or false, got 1/],
    [() => m.attention(Q, K, V, { scale: null }), "scale", /a number, got null/],
    [() => m.attention(Q, K, V, { scale: "2" }), "scale", /a number/],
    [() => m.attention(Q, K, V, { casual: true }), "opts", /unknown key "casual"/],
    [() => m.attention(Q, K, V, 7), "opts", /an object/],
    [() => m.attention([[1, 0], [0, 1], [1, 1], [2, 2]], K, [[1, 0], [0, 1], [1, 1]], { causal: true }), "q", /when causal/],
    [() => m.attention(Array(5000).fill([1]), [[1]], [[1]]), "q", /4096/],
    [() => m.attention(Q, K, true), "v", /matrix/],
    [() => m.attention([[1e200, 1e200]], [[1e200, 1e200]], [[1]]), "q", /overflow/],
    [() => m.contextDilution({ relevantScore: 1, distractorScore: 0, distractors: 1.5 }), "distractors", /integer/],
    [() => m.contextDilution({ relevantScore: 1, distractorScore: 0 }), "distractors", /got undefined/],
    [() => m.contextDilution({ relevantScore: true, distractorScore: 0, distractors: 1 }), "relevantScore", /got true/],
    [() => m.contextDilution({ relevantScore: 1, distractorScore: -Infinity, distractors: 1 }), "distractorScore", /finite/],
    [() => m.contextDilution(null), "cfg", /an object/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});
