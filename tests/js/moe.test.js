// moeLoadBalance and moeRoute through dist/llmmath.js: the exercise, invariants, reference
// values and errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

const even = [0.25, 0.25, 0.25, 0.25];

test("exercise 8: traffic (0.5, 0.5, 0, 0) with even router weights gives loss 1", async () => {
  const m = await core();
  const r = m.moeLoadBalance([0.5, 0.5, 0, 0], even);
  assert.equal(r.loss, 1); // exact: 4·(0.125 + 0.125)
  assert.deepEqual(r.terms, [0.5, 0.5, 0, 0]);
});

test("even router weights give 1 for any traffic; full collapse gives N", async () => {
  const m = await core();
  for (const f of [
    [1, 0, 0, 0],
    [0.7, 0.1, 0.1, 0.1],
    [0.4, 0.3, 0.2, 0.1],
  ]) {
    close(m.moeLoadBalance(f, even).loss, 1, 1e-15, `f = ${f}`);
  }
  assert.equal(m.moeLoadBalance([1, 0, 0, 0], [1, 0, 0, 0]).loss, 4);
  close(m.moeLoadBalance([1, 0, 0, 0], [0.7, 0.1, 0.1, 0.1]).loss, 2.8, 1e-15, "collapse of traffic alone");
});

test("moeRoute: hand-computed top-1 and top-2 routing, ties to the lower index", async () => {
  const m = await core();
  const L = [
    [1, 0, 2],
    [Math.log(4), Math.log(2), Math.log(2)],
  ];
  const one = m.moeRoute(L);
  assert.deepEqual(one.assignments, [[2], [0]]);
  assert.deepEqual(one.f, [0.5, 0, 0.5]);
  close(one.probs[1], [0.5, 0.25, 0.25], 1e-15, "softmax of (ln 4, ln 2, ln 2)");
  close(one.loss, 3 * (0.5 * one.p[0] + 0.5 * one.p[2]), 1e-15, "loss");
  assert.deepEqual(m.moeRoute(L, undefined), one);
  const two = m.moeRoute(L, 2);
  assert.deepEqual(two.assignments, [
    [2, 0],
    [0, 1],
  ]); // experts 1 and 2 tie for token 1
  assert.deepEqual(two.counts, [2, 1, 1]);
  assert.deepEqual(two.f, [0.5, 0.25, 0.25]);
  // topK = experts sends every token everywhere: f is even, the loss is 1
  close(m.moeRoute(L, 3).loss, 1, 1e-15, "topK = experts");
});

test("moeRoute and moeLoadBalance match the NumPy reference values", async () => {
  const m = await core();
  let checked = 0;
  for (const c of fixtures.load("moe.txt")) {
    const v = c.values;
    if (v.routerLogits) {
      const r = m.moeRoute(v.routerLogits, v.topK[0][0]);
      // long-double reference; doubles over at most 20 tokens of 8 experts
      close(r.probs, v.probs, 1e-15, `${c.name} probs`);
      assert.deepEqual(r.assignments, v.assignments, `${c.name} assignments`);
      assert.deepEqual(r.counts, v.counts[0], `${c.name} counts`);
      close(r.f, v.f[0], 1e-16, `${c.name} f`);
      close(r.p, v.p[0], 1e-15, `${c.name} p`);
      close(r.loss, v.loss[0][0], 1e-14, `${c.name} loss`);
    } else {
      close(m.moeLoadBalance(v.f[0], v.p[0]).loss, v.loss[0][0], 1e-14, `${c.name} loss`);
    }
    checked++;
  }
  assert.equal(checked, 9);
});

test("moe: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.moeLoadBalance([0.5, 0.5, 0, 0], even).loss, 1);
  const L = [
    [1, 0, 2],
    [0, 3, 1],
  ];
  const goodRoute = () => assert.deepEqual(m.moeRoute(L).assignments, [[2], [1]]);
  const balanceCases = [
    [() => m.moeLoadBalance(), "f", /got undefined/],
    [() => m.moeLoadBalance(even), "p", /got undefined/],
    [() => m.moeLoadBalance([], even), "f", /non-empty/],
    [() => m.moeLoadBalance(even, [0.5, 0.5]), "p", /4 entries \(one per expert, like f\), got 2 entries/],
    [() => m.moeLoadBalance([0.5, 0.6, -0.1, 0], even), "f[2]", /non-negative number, got -0.1/],
    [() => m.moeLoadBalance(even, [0.25, 0.25, 0.25, 0.2]), "p", /summing to 1 within 1e-6/],
    [() => m.moeLoadBalance([0.5, NaN, 0.5, 0], even), "f[1]", /finite number, got NaN/],
    [() => m.moeLoadBalance(even, [0.25, 0.25, 0.25, Infinity]), "p[3]", /got Infinity/],
    [() => m.moeLoadBalance(["0.5", 0.5], [0.5, 0.5]), "f[0]", /a number, got "0.5" \(a string\)/],
    [() => m.moeLoadBalance([0.5, 0.5], [null, 1]), "p[0]", /got null/],
    [() => m.moeLoadBalance([0.5, 0.5], true), "p", /an array of numbers, got true/],
  ];
  for (const [bad, param, pattern] of balanceCases) throwsNaming(bad, param, good, pattern);
  const routeCases = [
    [() => m.moeRoute(), "routerLogits", /got undefined/],
    [() => m.moeRoute([]), "routerLogits", /non-empty/],
    [() => m.moeRoute([[1, 2], [3]]), "routerLogits[1]", /ragged/],
    [
      () =>
        m.moeRoute([
          [1, 2],
          [3, "4"],
        ]),
      "routerLogits[1][1]",
      /a number, got "4"/,
    ],
    [() => m.moeRoute([[1, -Infinity]]), "routerLogits[0][1]", /finite number, got -Infinity/],
    [() => m.moeRoute([[1, false]]), "routerLogits[0][1]", /got false/],
    [() => m.moeRoute(Array(5000).fill([1, 2])), "routerLogits", /4096/],
    [() => m.moeRoute(L, 0), "topK", /^topK must be an integer in \[1, 3\], got 0$/],
    [() => m.moeRoute(L, 4), "topK", /\[1, 3\], got 4/],
    [() => m.moeRoute(L, 1.5), "topK", /an integer, got 1.5/],
    [() => m.moeRoute(L, "2"), "topK", /a number, got "2"/],
    [() => m.moeRoute(L, true), "topK", /got true/],
    [() => m.moeRoute(L, NaN), "topK", /finite/],
    [() => m.moeRoute(L, null), "topK", /a number, got null/],
  ];
  for (const [bad, param, pattern] of routeCases) throwsNaming(bad, param, goodRoute, pattern);
});
