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
