// The module under test, dist/llmmath.js, loaded once per test file, and shared assertions.
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");

const createLLMMath = require(path.join(__dirname, "..", "..", "dist", "llmmath.js"));

let instance;
/** The module object; every test file shares one instance, as a page does. */
function core() {
  instance ??= createLLMMath();
  return instance;
}

/** |actual − expected| ≤ tol, elementwise over numbers, arrays and arrays of arrays. */
function close(actual, expected, tol, what = "value") {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${what}: expected an array, got ${actual}`);
    assert.equal(actual.length, expected.length, `${what}: length`);
    expected.forEach((e, i) => close(actual[i], e, tol, `${what}[${i}]`));
    return;
  }
  assert.ok(
    Math.abs(actual - expected) <= tol,
    `${what}: expected ${expected} ± ${tol}, got ${actual}`,
  );
}

/**
 * Calls `bad` and checks it throws an Error whose message starts with the parameter's name
 * (and matches `pattern` when given); then checks the module still answers `good` correctly.
 */
function throwsNaming(bad, param, good, pattern) {
  let error;
  try {
    bad();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `expected an Error naming ${param}, got ${error}`);
  assert.ok(
    error.message.startsWith(param + " ") || error.message.startsWith(param + "["),
    `message should name ${param}: "${error.message}"`,
  );
  if (pattern) assert.match(error.message, pattern);
  good();
}

module.exports = { core, close, throwsNaming };
