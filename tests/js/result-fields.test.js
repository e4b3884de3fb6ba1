// The result fields of dist/llmmath.d.ts stay in step with what the module returns: for every
// case of the golden file (tests/fixtures/golden.json, every public function on fixed inputs),
// the result has every field its declared interface requires, no field the interface lacks, and
// optional fields only where declared; nested results (alibiHeads' heads, smoothQuantLayer's
// quantised tensors) are checked against their own interfaces. declarations.test.js checks the
// function names; this file checks what they return.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core } = require("./core.js");

const root = path.join(__dirname, "..", "..");
const dts = fs.readFileSync(path.join(root, "dist", "llmmath.d.ts"), "utf8");
const golden = JSON.parse(fs.readFileSync(path.join(root, "tests", "fixtures", "golden.json"), "utf8"));

/** Removes /** … *\/ and // comments, so that only declarations remain. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

/** { functionName: returnType } from interface LLMMath. */
function returnTypes(text) {
  const body = text.split("interface LLMMath {")[1].split("\n}\n")[0];
  const out = {};
  for (const [, name, type] of withoutComments(body).matchAll(/^ {2}(\w+)\([^)]*(?:\([^)]*\)[^)]*)*\): ([^;]+);/gm))
    out[name] = type.trim();
  return out;
}

/** { InterfaceName: { field: { optional, type } } } for every interface but LLMMath. */
function interfaces(text) {
  const out = {};
  for (const [, name, body] of withoutComments(text).matchAll(/^interface (\w+) \{([\s\S]*?)^\}/gm)) {
    if (name === "LLMMath") continue;
    const fields = {};
    for (const [, field, optional, type] of body.matchAll(/^ {2}(\w+)(\?)?: ([^;]+);/gm)) {
      fields[field] = { optional: optional === "?", type: type.trim() };
    }
    out[name] = fields;
  }
  return out;
}

const declared = interfaces(dts);
const returns = returnTypes(dts);

/** The differences between `value` and the declaration of `type`, as readable strings. */
function mismatches(value, type, where) {
  if (type.endsWith("[]")) return Array.isArray(value) ? [] : [`${where} should be an array`];
  const fields = declared[type];
  if (!fields) return []; // number, Index and other plain types: the golden test checks values
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return [`${where} should be an object (${type})`];
  const problems = [];
  for (const [field, { optional, type: fieldType }] of Object.entries(fields)) {
    if (!(field in value)) {
      if (!optional) problems.push(`${where}.${field} is declared in ${type} but missing`);
      continue;
    }
    problems.push(...mismatches(value[field], fieldType, `${where}.${field}`));
  }
  for (const field of Object.keys(value)) {
    if (!(field in fields)) problems.push(`${where}.${field} is returned but not declared in ${type}`);
  }
  return problems;
}

test("the declarations parse: every function has a return type and every result interface fields", () => {
  assert.ok(Object.keys(returns).length >= 20, `return types found: ${Object.keys(returns).join(", ")}`);
  for (const [fn, type] of Object.entries(returns)) {
    const base = type.replace(/\[\]$/, "");
    assert.ok(
      type.endsWith("[]") || declared[base] || ["number", "Index"].includes(base),
      `${fn} returns ${type}, which is declared`,
    );
  }
});

test("every golden case returns exactly the fields its declared result type has", async () => {
  const m = await core();
  const checked = new Set();
  for (const { fn, args } of golden) {
    if (!(fn in returns)) continue;
    let result;
    try {
      result = m[fn](...args);
    } catch {
      continue; // an error case of the golden file: no result to check
    }
    checked.add(fn);
    assert.deepEqual(mismatches(result, returns[fn], fn), [], `${fn}(${JSON.stringify(args).slice(0, 80)})`);
  }
  // the diagnostics take no input and have no golden case: their result as it is now
  for (const fn of ["memoryStats"]) {
    assert.deepEqual(mismatches(m[fn](), returns[fn], fn), [], fn);
    checked.add(fn);
  }
  // every function with a result type of its own is covered
  const withInterface = Object.keys(returns).filter((fn) => declared[returns[fn]]);
  assert.deepEqual(
    withInterface.filter((fn) => !checked.has(fn)),
    [],
    "functions without a golden case",
  );
});

test("an undeclared or missing field is seen (the check itself can fail)", () => {
  const type = returns.contextDilution;
  const result = { relevantWeight: 0.5, distractorWeight: 0.25, distractorMass: 0.5 };
  assert.deepEqual(mismatches(result, type, "r"), []);
  assert.equal(mismatches({ ...result, extra: 1 }, type, "r").length, 1);
  const { distractorMass, ...missing } = result;
  assert.equal(typeof distractorMass, "number");
  assert.equal(mismatches(missing, type, "r").length, 1);
});
