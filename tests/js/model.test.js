// modelCost's serving plan through dist/llmmath.js: the devices object read at the boundary (an
// object within the options, named by its path in messages, absent when undefined or null), the
// weight formats by name, and a real file's plan (the numbers themselves are the Catch2 tests').
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core, throwsNaming } = require("./core.js");

const models = path.join(__dirname, "..", "..", "data", "models");
const read = (m, file) => m.modelFromConfigText(fs.readFileSync(path.join(models, file), "utf8"));
const H100 = { count: 1, memoryBytes: 80 * 2 ** 30, bandwidthBytesPerSecond: 3.35e12 };

test("devices is read as an object of its own: its fields named devices.<field> in messages", async () => {
  const m = await core();
  const shape = read(m, "llama-3.1-8b.json");
  const good = () => m.modelCost(shape, { tokens: 16, devices: H100 });
  throwsNaming(() => m.modelCost(shape, { tokens: 16, devices: { ...H100, count: "2" } }), "devices.count", good);
  throwsNaming(
    () => m.modelCost(shape, { tokens: 16, devices: { ...H100, memoryBytes: undefined } }),
    "devices.memoryBytes",
    good,
  );
  throwsNaming(
    () => m.modelCost(shape, { tokens: 16, devices: { ...H100, gpu: "H100" } }),
    "devices",
    good,
    /unknown key "gpu"/,
  );
  throwsNaming(() => m.modelCost(shape, { tokens: 16, devices: 80 }), "devices", good, /an object/);
  throwsNaming(() => m.modelCost(shape, { tokens: 16, devices: { ...H100, count: 0 } }), "opts.devices.count", good);
  // absent, undefined or null: no fit, no decode
  for (const devices of [undefined, null]) {
    const r = m.modelCost(shape, { tokens: 16, devices });
    assert.equal(r.fit, undefined);
    assert.equal(r.decode, undefined);
  }
  const r = good();
  assert.equal(r.fit.limitedBy, "context");
  assert.equal(r.decode.bound, "memory");
  assert.equal(r.perDevice.kvHeads, 8);
});

test("a weight format by name; a name the core does not know is refused", async () => {
  const m = await core();
  const shape = read(m, "llama-3.1-8b.json");
  const bf16 = m.modelCost(shape, { tokens: 1 });
  assert.equal(bf16.weightsFormat, "bf16");
  assert.equal(bf16.weightsBytes, 2 * bf16.params.total);
  const int4 = m.modelCost(shape, { tokens: 1, weightFormat: "int4" });
  assert.equal(int4.weightsFormat, "int4");
  // the 7 billion weights of the linear layers at 4 bits and a 4-byte scale and zero per 128 (3.7 GB);
  // the 1 billion of the embedding and LM head stay at 16 bits (2.1 GB): 36 % of bf16, not 25 %
  assert.ok(int4.weightsBytes > 0.33 * bf16.weightsBytes && int4.weightsBytes < 0.4 * bf16.weightsBytes);
  throwsNaming(
    () => m.modelCost(shape, { tokens: 1, weightFormat: "fp6" }),
    "weightFormat",
    () => m.modelCost(shape, { tokens: 1 }),
  );
});

test("the file's format travels in the shape and back: a shape handed back keeps it", async () => {
  const m = await core();
  const v3 = read(m, "deepseek-v3.json");
  assert.equal(v3.weights.format, "fp8-block128");
  const again = m.modelCost(JSON.parse(JSON.stringify(v3)), { tokens: 1 });
  assert.equal(again.weightsBytes, v3.weights.bytes);
  // a shape without weights (written by hand before they were read) is bf16: 2 bytes a parameter,
  // except the routers' correction biases (one per expert in each MoE layer), which DeepSeek's
  // checkpoints keep in float32 whatever their dtype: 2 bytes more each
  const { weights, ...old } = v3;
  assert.ok(weights);
  const biases = v3.moe.experts * v3.moe.moeLayers;
  assert.equal(biases, 256 * 58);
  assert.equal(m.modelCost(old, { tokens: 1 }).weightsBytes, 2 * again.params.total + 2 * biases);
});

test("DeepSeek-V3 on 8 × H200: a latent cache whole on each device, the weights split", async () => {
  const m = await core();
  const v3 = read(m, "deepseek-v3.json");
  const H200 = { count: 8, memoryBytes: 141e9, bandwidthBytesPerSecond: 4.8e12 };
  const r = m.modelCost(v3, { tokens: 32768, batch: 8, devices: H200 });
  assert.equal(r.tensorParallel, 8);
  assert.equal(r.perDevice.kvBytesPerToken, 576 * 61 * 2);
  assert.ok(r.fit.fits);
  assert.ok(r.perDevice.weightsBytes > r.weightsBytes / 8);
  assert.ok(r.decode.expertsTouched > 8 && r.decode.expertsTouched < 64);
});
