// rope through dist/llmmath.js: the exercise, relative offsets only, reference values and
// errors (leak.test.js shows that nothing leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

// Exercise 3: d = 4, pair frequencies 0.01 and 0.0001, query and key (1, 0, 1, 0), two apart.
const x = [1, 0, 1, 0];
const freqs = { freqs: [0.01, 0.0001] };

test("exercise 3: raw cos(0.02) + cos(0.0002) ≈ 1.9997999867, scaled ≈ 0.9998999933", async () => {
  const m = await core();
  const r = m.rope(x, x, 2, 0, freqs);
  close(r.raw, Math.cos(0.02) + Math.cos(0.0002), 4e-16, "raw");
  close(r.raw, 1.9997999867, 5e-11, "raw to the seed's 10 decimals");
  close(r.scaled, 0.9998999933, 5e-11, "scaled");
  assert.equal(r.scaled, r.raw / 2); // sqrt(4) = 2 exactly
  close(r.pairScores, [Math.cos(0.02), Math.cos(0.0002)], 2e-16, "one cosine per pair");
  assert.deepEqual(r.angles, [
    [0.02, 0],
    [0.0002, 0],
  ]);
  assert.deepEqual(r.thetas, [0.01, 0.0001]);
  assert.deepEqual(r.kRotated, x); // position 0 does not turn
  assert.deepEqual(r.pairs, [
    [0, 1],
    [2, 3],
  ]);
});

test("the same offset anywhere gives the same score; rotation keeps the norm", async () => {
  const m = await core();
  const q = [0.3, -1.2, 0.8, 0.5, -0.7, 1.1, 0.2, -0.4];
  const k = [1.0, 0.4, -0.6, 0.9, 0.1, -1.3, 0.7, 0.2];
  const norm = (v) => Math.hypot(...v);
  for (const pairing of ["interleaved", "half"]) {
    const at = (a, b) => m.rope(q, k, a, b, { pairing });
    const reference = at(5, 2).raw;
    // angles up to ~1e3 rad round to ~1e-13; scores of size ~3
    for (const shift of [-40, 1, 17, 1000]) close(at(5 + shift, 2 + shift).raw, reference, 1e-12, `shift ${shift}`);
    assert.ok(Math.abs(at(6, 2).raw - reference) > 1e-6, "another offset, another score");
    const r = at(37, -11);
    close(norm(r.qRotated), norm(q), 1e-14, "|R(m) q|");
    close(norm(r.kRotated), norm(k), 1e-14, "|R(n) k|");
  }
});

test("pairings, default base and options that may be omitted", async () => {
  const m = await core();
  const quarter = Math.PI / 2;
  const v = [1, 2, 3, 4];
  close(m.rope(v, v, 1, 0, { freqs: [quarter, 0] }).qRotated, [-2, 1, 3, 4], 1e-15, "interleaved turns (1, 2)");
  close(
    m.rope(v, v, 1, 0, { freqs: [quarter, 0], pairing: "half" }).qRotated,
    [-3, 2, 1, 4],
    1e-15,
    "half turns (1, 3)",
  );
  assert.deepEqual(m.rope(v, v, 1, 0, { pairing: "half" }).pairs, [
    [0, 2],
    [1, 3],
  ]);
  const d = m.rope(v, v, 3, 1);
  close(d.thetas, [1, 0.01], 1e-17, "10000^(−2i/4)");
  assert.deepEqual(m.rope(v, v, 3, 1, undefined), d);
  assert.deepEqual(m.rope(v, v, 3, 1, null), d);
  assert.deepEqual(m.rope(v, v, 3, 1, { base: 10000 }), d);
  assert.deepEqual(m.rope(v, v, 3, 1, {}), d);
});

test("rope matches the NumPy reference values", async () => {
  const m = await core();
  for (const c of fixtures.load("rope.txt")) {
    const v = c.values;
    const opts = { pairing: v.pairing[0][0] === 0 ? "interleaved" : "half" };
    if (Number.isNaN(v.base[0][0])) opts.freqs = v.freqs[0];
    else opts.base = v.base[0][0];
    const [pos, key] = [v.m[0][0], v.n[0][0]];
    const r = m.rope(v.q[0], v.k[0], pos, key, opts);
    // θ_i may differ from NumPy's by one unit in the last place (≤ 2e-17 for θ ≤ 1/8), which
    // moves each angle by up to |pos|·2e-17 rad; cos, sin and the rotation round within 1e-14 of
    // the largest coordinate (the cases reach 1e248, so relative to it)
    const size = (x) => Math.max(1, ...x.map(Math.abs));
    close(r.qRotated, v.qRotated[0], (1e-14 + 2e-17 * Math.abs(pos)) * size(v.q[0]), `${c.name} qRotated`);
    close(r.kRotated, v.kRotated[0], (1e-14 + 2e-17 * Math.abs(key)) * size(v.k[0]), `${c.name} kRotated`);
    // Both take raw from the offset, R(m − n)q · k: as in tests/core/test_rope.cpp, pair i's
    // turned terms T_i round by 2e-15 and the sum by d·1.2e-16 of them, and an angle off by
    // |m − n|·2e-17 moves the pair by that times (|q_a| + |q_b|)(|k_a| + |k_b|)
    const [q, k, d] = [v.q[0].map(Math.abs), v.k[0].map(Math.abs), v.q[0].length];
    let tolerance = 0;
    r.pairs.forEach(([a, b], i) => {
      const phi = r.offset * r.thetas[i];
      const [cos, sin] = [Math.abs(Math.cos(phi)), Math.abs(Math.sin(phi))];
      const terms = (q[a] * cos + q[b] * sin) * k[a] + (q[a] * sin + q[b] * cos) * k[b];
      tolerance += (2e-15 + d * 1.2e-16) * terms + 2e-17 * Math.abs(r.offset) * (q[a] + q[b]) * (k[a] + k[b]);
    });
    close(r.raw, v.raw[0][0], tolerance, `${c.name} raw`);
  }
});

test("rope: the raw score and the pair scores are the same bits when both positions shift, at extreme magnitudes", async () => {
  const m = await core();
  const q = [1.5, -1.26e58, 1.5, 1.5];
  const k = [1.43e248, 0, 0, 4];
  const at0 = m.rope(q, k, 0, 0);
  close(at0.raw, 1.5 * 1.43e248, 1.43e248 * 1e-15, "q·k"); // nothing turns: 2.145e248 and 6
  for (const shift of [1, -1, 1000, 2 ** 40]) {
    const r = m.rope(q, k, shift, shift);
    assert.equal(r.raw, at0.raw, `raw at m = n = ${shift}`);
    assert.deepEqual(r.pairScores, at0.pairScores, `pairScores at m = n = ${shift}`);
    // offset 3, and the same three apart from the shifted positions
    assert.equal(m.rope(q, k, shift + 3, shift).raw, m.rope(q, k, 3, 0).raw, `raw at offset 3 from ${shift}`);
  }
});

test("rope: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => close(m.rope(x, x, 7, 5, freqs).raw, Math.cos(0.02) + Math.cos(0.0002), 1e-15, "raw");
  const cases = [
    [() => m.rope(), "q", /got undefined/],
    [() => m.rope(x, x, 2), "n", /a number, got undefined/],
    [() => m.rope([], x, 0, 0), "q", /non-empty/],
    [() => m.rope([1, 0, 1], [1, 0, 1], 0, 0), "q", /even length/],
    [() => m.rope(x, [1, 0], 0, 0), "k", /length 4/],
    [() => m.rope(x, [1, "0", 1, 0], 0, 0), "k[1]", /"0" \(a string\)/],
    [() => m.rope(x, x, NaN, 0), "m", /finite number, got NaN/],
    [() => m.rope(x, x, 0, -Infinity), "n", /got -Infinity/],
    [() => m.rope(x, x, null, 0), "m", /got null/],
    [() => m.rope(x, x, true, 0), "m", /got true/],
    [() => m.rope(x, x, "2", 0), "m", /a number, got "2"/],
    [() => m.rope(x, x, 0, 0, { base: 1 }), "base", /greater than 1, got 1/],
    [() => m.rope(x, x, 0, 0, { base: Infinity }), "base", /finite/],
    [() => m.rope(x, x, 0, 0, { freqs: [0.1] }), "freqs", /length 2/],
    [() => m.rope(x, x, 0, 0, { freqs: [0.1, NaN] }), "freqs[1]", /finite/],
    [() => m.rope(x, x, 0, 0, { base: 100, freqs: [0.1, 0.2] }), "opts", /not both/],
    [() => m.rope(x, x, 0, 0, { pairing: "rotate-half" }), "pairing", /"interleaved" or "half"/],
    [() => m.rope(x, x, 0, 0, { pairing: 1 }), "pairing", /got 1/],
    [() => m.rope(x, x, 0, 0, { Base: 10 }), "opts", /unknown key "Base"/],
    [() => m.rope(x, x, 0, 0, 5), "opts", /an object/],
    [() => m.rope(x, x, 1e300, 0, { freqs: [1e10, 1] }), "m", /angles/],
    [() => m.rope(new Array(2 ** 20 + 2).fill(0), x, 0, 0), "q", /2\^20/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("ropeScores gives rope's score at every offset in one call, and names bad offsets", async () => {
  const m = await core();
  const q = [1, 0, 1, 0];
  const opts = { freqs: [0.01, 0.0001] };
  const r = m.ropeScores(q, q, [-2, 0, 2], opts);
  close(r.raw, [Math.cos(0.02) + Math.cos(0.0002), 2, Math.cos(0.02) + Math.cos(0.0002)], 1e-15, "raw");
  close(r.scaled[2], m.rope(q, q, 2, 0, opts).scaled, 0, "scaled equals rope()");
  const good = () => close(m.ropeScores(q, q, [2], opts).raw[0], 1.9997999867, 1e-10, "exercise");
  throwsNaming(() => m.ropeScores(q, q), "offsets", good, /got undefined/);
  throwsNaming(() => m.ropeScores(q, q, [1, "2"]), "offsets[1]", good, /a string/);
  throwsNaming(() => m.ropeScores(q, q, [Infinity]), "offsets[0]", good, /finite/);
  throwsNaming(() => m.ropeScores(q, q, []), "offsets", good, /non-empty/);
  throwsNaming(() => m.ropeScores(q, q, [1], { base: 10, freqs: [1, 1] }), "opts", good, /not both/);
});
