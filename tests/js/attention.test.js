// attention, contextDilution and contextDilutionSweep through dist/llmmath.js: the exercise,
// reference values and errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

// Exercise 1: three tokens; key 3 has the largest raw score for query 1 but is in its future.
const Q = [
  [1, 0],
  [0, 1],
  [1, 1],
];
const K = [
  [1, 0],
  [0, 1],
  [3, 0],
];
const V = [
  [1, 0],
  [0, 1],
  [0.5, 0.5],
];

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
  close(
    r.weights[0].reduce((a, b) => a + b),
    1,
    1e-15,
    "row sum",
  );
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
  const two = m.attention(
    [
      [1, 1],
      [0, 1],
    ],
    K,
    V,
    { causal: true },
  );
  assert.equal(two.weights[0][2], 0); // query 0 sits at position 1
});

test("scores of ±1000 give no NaN", async () => {
  const m = await core();
  const r = m.attention(
    [[1000], [-1000]],
    [[1], [-1]],
    [
      [1, 0],
      [0, 1],
    ],
    { scale: 1 },
  );
  assert.deepEqual(r.weights, [
    [1, 0],
    [0, 1],
  ]);
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
  close(
    m.contextDilution({ relevantScore: 0, distractorScore: 0, distractors: 3 }).relevantWeight,
    0.25,
    1e-16,
    "four equal keys",
  );
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

test("attention: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.deepEqual(m.attention(Q, K, V, { causal: true }).output[0], [1, 0]);
  const cases = [
    [() => m.attention(), "q", /got undefined/],
    [() => m.attention(Q, K), "v", /got undefined/],
    [() => m.attention([], K, V), "q", /non-empty/],
    [
      () =>
        m.attention(
          [
            [1, "0"],
            [0, 1],
            [1, 1],
          ],
          K,
          V,
        ),
      "q[0][1]",
      /a number, got "0" \(a string\)/,
    ],
    [() => m.attention(Q, [[1, 0], [0, 1], [3]], V), "k[2]", /ragged/],
    [
      () =>
        m.attention(Q, K, [
          [1, 0],
          [0, 1],
        ]),
      "v",
      /3 rows/,
    ],
    [
      () =>
        m.attention(
          Q,
          [
            [1, 0, 0],
            [0, 1, 0],
            [3, 0, 0],
          ],
          V,
        ),
      "k",
      /2 columns/,
    ],
    [
      () =>
        m.attention(Q, K, [
          [NaN, 0],
          [0, 1],
          [1, 1],
        ]),
      "v[0][0]",
      /finite number, got NaN/,
    ],
    [
      () =>
        m.attention(Q, K, [
          [Infinity, 0],
          [0, 1],
          [1, 1],
        ]),
      "v[0][0]",
      /got Infinity/,
    ],
    [() => m.attention(Q, K, V, { causal: 1 }), "causal", /true or false, got 1/],
    [() => m.attention(Q, K, V, { scale: null }), "scale", /a number, got null/],
    [() => m.attention(Q, K, V, { scale: "2" }), "scale", /a number/],
    [() => m.attention(Q, K, V, { casual: true }), "opts", /unknown key "casual"/],
    [() => m.attention(Q, K, V, 7), "opts", /an object/],
    [
      () =>
        m.attention(
          [
            [1, 0],
            [0, 1],
            [1, 1],
            [2, 2],
          ],
          K,
          [
            [1, 0],
            [0, 1],
            [1, 1],
          ],
          { causal: true },
        ),
      "q",
      /when causal/,
    ],
    [() => m.attention(Array(5000).fill([1]), [[1]], [[1]]), "q", /4096/],
    [() => m.attention(Q, K, true), "v", /matrix/],
    [() => m.attention([[1e200, 1e200]], [[1e200, 1e200]], [[1]]), "q", /overflow/],
    [() => m.contextDilution({ relevantScore: 1, distractorScore: 0, distractors: 1.5 }), "distractors", /integer/],
    [() => m.contextDilution({ relevantScore: 1, distractorScore: 0 }), "distractors", /got undefined/],
    [() => m.contextDilution({ relevantScore: true, distractorScore: 0, distractors: 1 }), "relevantScore", /got true/],
    [
      () => m.contextDilution({ relevantScore: 1, distractorScore: -Infinity, distractors: 1 }),
      "distractorScore",
      /finite/,
    ],
    [() => m.contextDilution(null), "cfg", /an object/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

// ---- contextDilutionSweep: figure 1.2's curve in one call ----

test("contextDilutionSweep: arrays of the given length, each entry contextDilution at that count", async () => {
  const m = await core();
  const distractors = [0, 1, 3, 10, 100, 2 ** 53];
  const cfg = { relevantScore: 2, distractorScore: 0, distractors };
  const r = m.contextDilutionSweep(cfg);
  assert.deepEqual(Object.keys(r).sort(), ["distractorMass", "distractorWeight", "distractors", "relevantWeight"]);
  assert.deepEqual(r.distractors, distractors, "the counts, as given");
  for (const key of ["relevantWeight", "distractorWeight", "distractorMass"]) {
    assert.ok(Array.isArray(r[key]), `${key} is an array`);
    assert.equal(r[key].length, distractors.length, `${key}: one entry per count`);
  }
  distractors.forEach((n, i) => {
    const p = m.contextDilution({ relevantScore: 2, distractorScore: 0, distractors: n });
    // exact: the core's sweep calls the same function at each point
    assert.equal(r.relevantWeight[i], p.relevantWeight, `relevantWeight at ${n}`);
  });
  // the chapter's picture: a = b gives 1/(n + 1) (n = 3: a quarter); n = 0 keeps everything
  const even = m.contextDilutionSweep({ relevantScore: 0, distractorScore: 0, distractors: [0, 1, 3] });
  assert.equal(even.relevantWeight[0], 1);
  // exp(log n) is n to a few units, which moves 1 / (1 + n) by under 1e-16 (7e-17 at n = 3)
  close(even.relevantWeight, [1, 0.5, 0.25], 1e-16, "1 / (n + 1)");
  // e^2 / (e^2 + 10) = 0.4249 at ten distractors; the weight falls at every step of the curve
  close(
    m.contextDilutionSweep({ ...cfg, distractors: [10] }).relevantWeight[0],
    Math.exp(2) / (Math.exp(2) + 10),
    1e-15,
    "e² / (e² + 10)",
  );
  r.relevantWeight
    .slice(1)
    .forEach((w, i) => assert.ok(w < r.relevantWeight[i], `falls from ${distractors[i]} to ${distractors[i + 1]}`));
});

test("contextDilutionSweep takes a Float64Array of counts, with the same result", async () => {
  const m = await core();
  const cfg = { relevantScore: 1.25, distractorScore: -0.5, distractors: [0, 7, 12345] };
  assert.deepEqual(
    m.contextDilutionSweep({ ...cfg, distractors: Float64Array.from(cfg.distractors) }),
    m.contextDilutionSweep(cfg),
  );
});

test("contextDilutionSweep refuses bad input by name, an entry as distractors[i], and keeps working", async () => {
  const m = await core();
  const ok = { relevantScore: 1, distractorScore: 0 };
  const good = () =>
    assert.deepEqual(
      m.contextDilutionSweep({ relevantScore: 0, distractorScore: 0, distractors: [0, 1] }).relevantWeight,
      [1, 0.5],
    );
  const cases = [
    [
      () => m.contextDilutionSweep({ ...ok, distractors: [0, 1, 2.5] }),
      "distractors[2]",
      /^distractors\[2\] must be an integer, got 2.5$/,
    ],
    [
      () => m.contextDilutionSweep({ ...ok, distractors: [4, -1] }),
      "distractors[1]",
      /\[0, 9007199254740992\], got -1$/,
    ],
    [() => m.contextDilutionSweep({ ...ok, distractors: [NaN] }), "distractors[0]", /finite number, got NaN/],
    [
      () => m.contextDilutionSweep({ ...ok, distractors: [1, "2"] }),
      "distractors[1]",
      /a number, got "2" \(a string\)/,
    ],
    [() => m.contextDilutionSweep({ ...ok, distractors: [1, null] }), "distractors[1]", /got null/],
    [
      () => m.contextDilutionSweep({ ...ok, distractors: { 0: 1, length: 1 } }),
      "distractors",
      /an array of numbers, got an object/,
    ],
    [() => m.contextDilutionSweep({ ...ok, distractors: 7 }), "distractors", /an array of numbers, got 7/],
    [() => m.contextDilutionSweep({ ...ok }), "distractors", /got undefined/],
    [() => m.contextDilutionSweep({ ...ok, distractors: [] }), "distractors", /non-empty array, got an empty one/],
    [
      () => m.contextDilutionSweep({ ...ok, distractors: new Array(4097).fill(1) }),
      "distractors",
      /^distractors must be at most 4096 entries \(points of a sweep\), got 4097 entries$/,
    ],
    [() => m.contextDilutionSweep({ ...ok, distractors: new Float64Array(4097) }), "distractors", /4096/],
    [
      () => m.contextDilutionSweep({ relevantScore: "1", distractorScore: 0, distractors: [1] }),
      "relevantScore",
      /a string/,
    ],
    [
      () => m.contextDilutionSweep({ relevantScore: 1, distractorScore: Infinity, distractors: [1] }),
      "distractorScore",
      /finite/,
    ],
    [() => m.contextDilutionSweep({ ...ok, distractors: [1], n: 2 }), "cfg", /unknown key "n"/],
    [() => m.contextDilutionSweep([1, 0, [1]]), "cfg", /an object, got an array/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
  // 4096 counts, the limit, pass
  assert.equal(m.contextDilutionSweep({ ...ok, distractors: new Float64Array(4096) }).relevantWeight.length, 4096);
});
