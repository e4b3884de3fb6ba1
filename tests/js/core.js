// The module under test, loaded once per test file, and shared assertions. The module is
// dist/llmmath.js, or the file named by LLMMATH_JS (a build of one's own, before it is copied
// to dist/).
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");

const modulePath = path.resolve(process.env.LLMMATH_JS || path.join(__dirname, "..", "..", "dist", "llmmath.js"));
const createLLMMath = require(modulePath);

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
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: expected ${expected} ± ${tol}, got ${actual}`);
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

module.exports = { core, close, throwsNaming, createLLMMath, modulePath };
