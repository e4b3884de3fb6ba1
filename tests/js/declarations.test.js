// dist/llmmath.d.ts stays in step with the module: it declares every exported function of the
// API and nothing the module lacks.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core } = require("./core.js");

test("llmmath.d.ts declares exactly the functions dist/llmmath.js exports", async () => {
  const m = await core();
  const dts = fs.readFileSync(path.join(__dirname, "..", "..", "dist", "llmmath.d.ts"), "utf8");
  const body = dts.split("interface LLMMath {")[1].split("\n}\n")[0];
  const declared = new Set([...body.matchAll(/^ {2}(\w+)\(/gm)].map((x) => x[1]));
  const api = ["attention", "contextDilution", "contextDilutionSweep", "sampling", "sample", "rope", "ropeScores",
    "attentionCost", "attentionCostSweep", "speculativeDecoding", "speculativeSweep", "speculativeAlpha",
    "speculativeMeasure", "alibiSlopes", "alibiHeads", "alibi", "smoothQuant", "quantize", "smoothQuantLayer",
    "smoothQuantLayerSweep", "moeLoadBalance", "moeRoute"];
  for (const fn of api) {
    assert.ok(declared.has(fn), `${fn} is declared`);
    assert.equal(typeof m[fn], "function", `${fn} is exported`);
  }
  for (const fn of declared) assert.equal(typeof m[fn], "function", `declared ${fn} exists`);
});
