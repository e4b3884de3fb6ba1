// attentionCost through dist/llmmath.js: the exercise, public models' KV caches, exact and
// correctly rounded counts, errors, and no leaks.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, throwsNaming } = require("./core.js");
const fixtures = require("./fixtures.js");

// Exercise 4: 16 tokens, 8 heads of dimension 32.
const exercise = { tokens: 16, heads: 8, headDim: 32 };

test("exercise 4: 256 scores per head and 8,192 KV values per layer", async () => {
  const m = await core();
  const r = m.attentionCost(exercise);
  // exact integers: compared with ===
  assert.deepEqual(r, {
    scoresPerHead: 256,
    scoresPerLayer: 2048,
    kvValuesPerLayer: 8192,
    kvValues: 8192,
    kvBytes: 16384,
    kvBytesPerToken: 1024,
    qkMacsPerLayer: 65536,
    avMacsPerLayer: 65536,
    macs: 131072,
  });
  const d2 = m.attentionCost({ ...exercise, headDim: 64 });
  assert.equal(d2.scoresPerHead, r.scoresPerHead, "doubling d leaves the scores");
  assert.equal(d2.kvValuesPerLayer, 2 * r.kvValuesPerLayer, "and doubles the KV cache");
  assert.equal(d2.qkMacsPerLayer + d2.avMacsPerLayer, 2 * (r.qkMacsPerLayer + r.avMacsPerLayer));
});

test("KV cache per token: Llama-2-7B 524,288 bytes, Llama-3-8B with 8 KV heads 131,072", async () => {
  const m = await core();
  const llama2 = m.attentionCost({ tokens: 4096, heads: 32, headDim: 128, layers: 32 });
  assert.equal(llama2.kvBytesPerToken, 524288);
  assert.equal(llama2.kvBytes, 2 ** 31); // 2 GiB for the full 4k context
  const llama3 = m.attentionCost({ tokens: 8192, heads: 32, headDim: 128, layers: 32, kvHeads: 8 });
  assert.equal(llama3.kvBytesPerToken, 131072);
  assert.equal(llama3.kvBytes, 2 ** 30);
  const ungrouped = m.attentionCost({ tokens: 8192, heads: 32, headDim: 128, layers: 32 });
  assert.equal(ungrouped.kvBytes, 4 * llama3.kvBytes, "grouping shrinks the cache");
  assert.equal(ungrouped.macs, llama3.macs, "but not the arithmetic");
});

test("defaults: layers 1, kvHeads = heads, batch 1, 2 bytes per value", async () => {
  const m = await core();
  assert.deepEqual(
    m.attentionCost({ ...exercise, layers: 1, kvHeads: 8, batch: 1, bytesPerValue: 2 }),
    m.attentionCost(exercise),
  );
  assert.equal(m.attentionCost({ ...exercise, bytesPerValue: 0.5 }).kvBytes, 4096);
});

test("counts match exact integer arithmetic, correctly rounded above 2^53", async () => {
  const m = await core();
  for (const c of fixtures.load("cost.txt")) {
    const v = Object.fromEntries(Object.entries(c.values).map(([k, M]) => [k, M[0][0]]));
    const r = m.attentionCost({
      tokens: v.tokens, heads: v.heads, headDim: v.headDim, layers: v.layers,
      kvHeads: v.kvHeads, batch: v.batch, bytesPerValue: v.bytesPerValue,
    });
    for (const key of Object.keys(r)) assert.equal(r[key], v[key], `${c.name} ${key}`); // exact
  }
  // a tie: 2·4095³·131169 = 18014529407442750 lies halfway; the even neighbour is above
  const tie = m.attentionCost({ tokens: 131169, heads: 4095, headDim: 4095, batch: 4095 });
  assert.equal(tie.kvValuesPerLayer, 18014529407442752);
});

test("invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.attentionCost(exercise).kvValuesPerLayer, 8192);
  const cases = [
    [() => m.attentionCost(), "cfg", /an object, got undefined/],
    [() => m.attentionCost(null), "cfg", /got null/],
    [() => m.attentionCost({ heads: 8, headDim: 32 }), "tokens", /a number, got undefined/],
    [() => m.attentionCost({ ...exercise, tokens: "16" }), "tokens", /"16" \(a string\)/],
    [() => m.attentionCost({ ...exercise, tokens: 0 }), "tokens", /in \[1, 16777216\], got 0/],
    [() => m.attentionCost({ ...exercise, tokens: 2 ** 24 + 1 }), "tokens", /16777216/],
    [() => m.attentionCost({ ...exercise, heads: 2.5 }), "heads", /an integer, got 2.5/],
    [() => m.attentionCost({ ...exercise, headDim: NaN }), "headDim", /finite number, got NaN/],
    [() => m.attentionCost({ ...exercise, layers: null }), "layers", /got null/],
    [() => m.attentionCost({ ...exercise, layers: 5000 }), "layers", /\[1, 4096\]/],
    [() => m.attentionCost({ ...exercise, kvHeads: 3 }), "kvHeads", /divisor of heads \(8\)/],
    [() => m.attentionCost({ ...exercise, kvHeads: 16 }), "kvHeads", /\[1, 8\]/],
    [() => m.attentionCost({ ...exercise, batch: true }), "batch", /got true/],
    [() => m.attentionCost({ ...exercise, bytesPerValue: 0 }), "bytesPerValue", /\(0, 1024\]/],
    [() => m.attentionCost({ ...exercise, bytesPerValue: Infinity }), "bytesPerValue", /finite/],
    [() => m.attentionCost({ ...exercise, kv_heads: 2 }), "cfg", /unknown key "kv_heads"/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("no leaks: 10,000 calls, half of them errors, leave the heap and handles unchanged", async () => {
  const m = await core();
  m.attentionCost(exercise);
  const heap = m.memoryInUse();
  const handles = m.count_emval_handles();
  for (let i = 0; i < 5000; i++) {
    m.attentionCost({ ...exercise, tokens: i + 1, bytesPerValue: 0.5 });
    assert.throws(() => m.attentionCost({ ...exercise, kvHeads: i % 2 ? 3 : "8" }));
  }
  assert.equal(m.memoryInUse(), heap, "bytes allocated in the wasm heap");
  assert.equal(m.count_emval_handles(), handles, "live embind handles");
});
