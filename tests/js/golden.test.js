// Native and WebAssembly agree: every call of tests/fixtures/golden.json (written by the native
// build, tests/core/golden.cpp, and checked against it by CTest) gives the same result here.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core } = require("./core.js");

/** The functions dist/llmmath.d.ts declares on LLMMath (as declarations.test.js reads them). */
function apiFunctions() {
  const dts = fs.readFileSync(path.join(__dirname, "..", "..", "dist", "llmmath.d.ts"), "utf8");
  const body = dts.split("interface LLMMath {")[1].split("\n}\n")[0];
  return [...body.matchAll(/^ {2}(\w+)\(/gm)].map((match) => match[1]);
}

const golden = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "fixtures", "golden.json"), "utf8"),
  (key, value) => (value === "Infinity" ? Infinity : value === "-Infinity" ? -Infinity : value),
);

// Integers (sample draws, counts, indices) must match exactly. Other numbers may differ by the
// last bits: glibc's and musl's exp, log and pow are not all correctly rounded.
const RELATIVE = 1e-13;

function same(actual, expected, where) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => same(actual[i], e, `${where}[${i}]`));
  } else if (expected !== null && typeof expected === "object") {
    for (const key of Object.keys(expected)) same(actual[key], expected[key], `${where}.${key}`);
  } else if (typeof expected === "number" && Number.isFinite(expected) && !Number.isInteger(expected)) {
    const tol = RELATIVE * Math.max(1, Math.abs(expected));
    assert.ok(Math.abs(actual - expected) <= tol, `${where}: native ${expected}, wasm ${actual}`);
  } else {
    assert.equal(actual, expected, where);
  }
}

test(`the WebAssembly build reproduces the native golden file (${golden.length} calls)`, async () => {
  const m = await core();
  const functions = new Set(golden.map((g) => g.fn));
  for (const fn of functions) assert.equal(typeof m[fn], "function", `${fn} is exported`);
  golden.forEach((g, i) => same(m[g.fn](...g.args), g.result, `call ${i} ${g.fn}`));
});

test("the golden file calls every function of llmmath.d.ts but the diagnostics", () => {
  const called = new Set(golden.map((g) => g.fn));
  const diagnostics = ["memoryInUse", "memoryStats", "count_emval_handles"];
  const missing = apiFunctions().filter((fn) => !diagnostics.includes(fn) && !called.has(fn));
  assert.deepEqual(
    missing,
    [],
    "functions without a golden call (give each an example in its declaration, bindings/api/)",
  );
});
