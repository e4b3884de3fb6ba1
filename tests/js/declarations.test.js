// The API is declared once (bindings/api/<concept>.js) and the module, its TypeScript
// declarations and the boundary's table are made from that: dist/llmmath.d.ts is what
// bindings/api/generate.js writes now, it declares exactly the declared functions, and the module
// exports each of them and none of the core's policy functions that boundary.js takes for itself.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { core } = require("./core.js");
const { functions, diagnostics } = require("./api.js");

const root = path.join(__dirname, "..", "..");
const dts = fs.readFileSync(path.join(root, "dist", "llmmath.d.ts"), "utf8");

test("dist/llmmath.d.ts is what bindings/api/generate.js writes from the declarations now", () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-api-"));
  try {
    execFileSync(process.execPath, [path.join(root, "bindings", "api", "generate.js"), out]);
    assert.equal(fs.readFileSync(path.join(out, "llmmath.d.ts"), "utf8"), dts, "rebuild: ./build.sh core");
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test("llmmath.d.ts declares exactly the declared functions and the diagnostics, and the module exports them", async () => {
  const m = await core();
  const body = dts.split("interface LLMMath {")[1].split("\n}\n")[0];
  const declared = [...body.matchAll(/^ {2}(\w+)\(/gm)].map((x) => x[1]);
  assert.deepEqual(declared, [...functions.map((f) => f.name), ...diagnostics]);
  for (const fn of declared) assert.equal(typeof m[fn], "function", `${fn} is exported`);
});

test("the core's limits and checks that boundary.js reads are not left on the module object", async () => {
  const m = await core();
  for (const name of [
    "maxVectorLength",
    "maxMatrixSide",
    "describeNumber",
    "requireVectorLength",
    "requireMatrixDims",
  ]) {
    assert.equal(m[name], undefined, `${name} is the boundary's, not the API's`);
  }
});

test("every declared function has a unique name, examples, and parameters of known kinds", () => {
  const kinds = new Set(["number", "vector", "matrix", "boolean", "choice", "object", "text", "json"]);
  assert.equal(new Set(functions.map((f) => f.name)).size, functions.length);
  for (const f of functions) {
    assert.ok(f.examples.length >= 1, `${f.name} has an example`);
    for (const p of f.params) assert.ok(kinds.has(p.kind), `${f.name}'s ${p.name} has a known kind`);
  }
});
