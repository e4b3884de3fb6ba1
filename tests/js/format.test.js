// The page's number formatting (site/src/format.js): what a reader sees of the core's numbers.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const format = import(pathToFileURL(path.join(__dirname, "..", "..", "site", "src", "format.js")).href);

test("fmt keeps whole numbers whole and trims only decimal zeros", async () => {
  const { fmt, pct, fmtVec } = await format;
  assert.equal(fmt(100, 0), "100");
  assert.equal(fmt(10, 2), "10");
  assert.equal(fmt(0.5), "0.5");
  assert.equal(fmt(0.70710678, 4), "0.7071");
  assert.equal(fmt(-2.5), "−2.5");
  assert.equal(fmt(0), "0");
  assert.equal(fmt(-1e-12), "−1e-12");
  assert.equal(fmt(Infinity), "∞");
  assert.equal(fmt(1234567), "1.235e+6");
  assert.equal(pct(1, 0), "100%");
  assert.equal(pct(0.42492, 1), "42.5%");
  assert.equal(fmtVec([1, 0, 0]), "(1, 0, 0)");
});

test("pct, fmtVec, fmtCount, fmtBytes and superscript write what the figures show", async () => {
  const { pct, fmtVec, fmtCount, fmtBytes, superscript } = await format;
  assert.equal(pct(0.4249), "42.5%");
  assert.equal(pct(0.4249, 2), "42.49%");
  assert.equal(pct(1), "100%");
  // a share under the decimals asked keeps two significant digits, not an exponent or 0%
  assert.equal(pct(0.00005, 1), "0.005%");
  assert.equal(pct(0.000049, 1), "0.0049%");
  assert.equal(pct(0.0004, 0), "0.04%");
  assert.equal(pct(-0.00005, 1), "−0.005%");
  assert.equal(pct(3.2e-11, 1), "3.2e−9%");
  assert.equal(pct(0, 1), "0%");
  assert.equal(fmtVec([1, -0.5, 0.70710678], 3), "(1, −0.5, 0.707)");
  // counts: separators below 10^digits, scientific notation with superscript exponents above
  assert.equal(fmtCount(8192), "8,192");
  assert.equal(fmtCount(1234.567), "1,234.57");
  assert.equal(fmtCount(2 ** 60), "1.153 × 10¹⁸");
  assert.equal(fmtCount(123456, 4), "1.235 × 10⁵");
  assert.equal(fmtCount(Infinity), "∞");
  // binary units, two significant decimals below 10, one below 100, none above
  assert.equal(fmtBytes(1), "1 byte");
  assert.equal(fmtBytes(512), "512 bytes");
  assert.equal(fmtBytes(16384), "16 KiB");
  assert.equal(fmtBytes(1536), "1.5 KiB");
  assert.equal(fmtBytes(2 ** 30), "1 GiB");
  assert.equal(fmtBytes(150 * 2 ** 20), "150 MiB");
  assert.equal(superscript(-3), "⁻³");
  assert.equal(superscript(18), "¹⁸");
});

// Axis helpers of site/src/kit/plot.js: screen mapping only, but a wrong tick misleads.
const plot = import(pathToFileURL(path.join(__dirname, "..", "..", "site", "src", "kit", "plot.js")).href);

test("niceScale rounds an axis out to steps of 1, 2, 2.5 or 5 times a power of ten", async () => {
  const { niceScale } = await plot;
  assert.deepEqual(niceScale(0, 1), { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  assert.deepEqual(niceScale(0, 0.6), { min: 0, max: 0.6, ticks: [0, 0.2, 0.4, 0.6] });
  assert.deepEqual(niceScale(-3.2, 7.9), { min: -5, max: 10, ticks: [-5, 0, 5, 10] });
  // a flat range is widened around its value, never a zero-width axis
  const flat = niceScale(2, 2);
  assert.ok(flat.min < 2 && flat.max > 2, JSON.stringify(flat));
  assert.deepEqual(niceScale(0, 0).ticks.includes(0), true);
  // ticks are exact decimals (no 0.30000000000000004), first and last at the limits
  for (const [lo, hi] of [
    [0, 0.3],
    [0.1, 0.7],
    [-1e-6, 3e-6],
    [0, 12345],
  ]) {
    const { min, max, ticks } = niceScale(lo, hi);
    assert.ok(min <= lo && max >= hi, `[${lo}, ${hi}] → [${min}, ${max}]`);
    assert.equal(ticks[0], Number(min.toPrecision(12)));
    assert.equal(ticks.at(-1), Number(max.toPrecision(12)));
    for (const t of ticks) assert.equal(t, Number(t.toPrecision(12)));
  }
});

test("niceTicks covers [0, max] with 1, 2 or 5 times a power of ten, and falls back for bad maxima", async () => {
  const { niceTicks } = await plot;
  assert.deepEqual(niceTicks(1), { max: 1, ticks: [0, 0.5, 1] });
  assert.deepEqual(niceTicks(0.7), { max: 0.8, ticks: [0, 0.2, 0.4, 0.6, 0.8] });
  assert.deepEqual(niceTicks(100), { max: 100, ticks: [0, 50, 100] });
  assert.deepEqual(niceTicks(0), { max: 1, ticks: [0, 0.5, 1] });
  assert.deepEqual(niceTicks(NaN), { max: 1, ticks: [0, 0.5, 1] });
  assert.deepEqual(niceTicks(Infinity), { max: 1, ticks: [0, 0.5, 1] });
});

test('grouped writes what toLocaleString("en") writes, without Intl, over 150,000 numbers', async () => {
  const { grouped, fmtCount } = await format;
  // A fixed list of edge cases, then seeded numbers from 1e-9 to 1e22 (a 32-bit LCG, reproducible).
  const xs = [
    0,
    -0,
    1,
    -1,
    12,
    999,
    1000,
    1234.567,
    -1234.5,
    0.005,
    1.005,
    9.9995,
    0.9999,
    99999.999,
    1e-7,
    -0.004,
    2 ** 30,
    2 ** 53,
    1e15 - 1,
    1e21,
    2 ** 70,
    0.1 + 0.2,
  ];
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let i = 0; i < 50000; i += 1)
    xs.push((next() - 0.5) * 10 ** (next() * 22), Math.round(next() * 1e9), next() * 10 ** (next() * 8 - 9));
  for (const x of xs) {
    for (const digits of [0, 2, 3]) {
      assert.equal(
        grouped(x, digits),
        x.toLocaleString("en", { maximumFractionDigits: digits }),
        `${x} at ${digits} decimals`,
      );
    }
  }
  assert.equal(grouped(1234567), "1,234,567");
  assert.equal(fmtCount(1234.567), "1,234.57");
});

test("fieldValue shows at most 15 significant digits, and an emptied field's NaN as nothing", async () => {
  const { fieldValue } = await format;
  assert.equal(fieldValue(0.1 + 0.2), "0.3");
  assert.equal(fieldValue(10000 ** -0.75), "0.001");
  assert.equal(fieldValue(-1 / 3), "-0.333333333333333");
  assert.equal(fieldValue(1e-300), "1e-300");
  assert.equal(fieldValue(123456789012345), "123456789012345");
  assert.equal(fieldValue(2), "2");
  assert.equal(fieldValue(NaN), "");
  assert.equal(fieldValue(Infinity), "Infinity");
});
