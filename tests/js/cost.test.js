// attentionCost and attentionCostSweep through dist/llmmath.js: the exercise, public models'
// KV caches, exact and correctly rounded counts and errors (leak.test.js shows that nothing
// leaks).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { core, close, throwsNaming } = require("./core.js");
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
    macsPerLayer: 131072, // QKᵀ and weights·V of the one layer
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
    m.attentionCost({ ...exercise, layers: 1, kvHeads: 8, batch: 1, kvBytesPerElement: 2 }),
    m.attentionCost(exercise),
  );
  assert.equal(m.attentionCost({ ...exercise, kvBytesPerElement: 0.5 }).kvBytes, 4096);
});

test("counts match exact integer arithmetic, correctly rounded above 2^53", async () => {
  const m = await core();
  for (const c of fixtures.load("cost.txt")) {
    const v = Object.fromEntries(Object.entries(c.values).map(([k, M]) => [k, M[0][0]]));
    const cfg = {
      tokens: v.tokens,
      heads: v.heads,
      headDim: v.headDim,
      layers: v.layers,
      kvHeads: v.kvHeads,
      batch: v.batch,
      kvBytesPerElement: v.kvBytesPerElement,
    };
    if ("hidden" in v)
      Object.assign(cfg, { hidden: v.hidden, intermediate: v.intermediate, gatedMlp: v.gatedMlp === 1 });
    const r = m.attentionCost(cfg);
    assert.equal("crossoverTokens" in r, "hidden" in v, `${c.name}: linear fields only with hidden`);
    for (const key of Object.keys(r)) {
      if (key === "attentionShare") {
        // two roundings to double, then a division: within 2 units in the last place
        close(r[key], v[key], 4.5e-16 * v[key], `${c.name} ${key}`);
      } else if (key === "macsPerLayer") {
        // not in the reference file: QKᵀ plus weights·V, twice a correctly rounded count, which
        // doubling keeps exact
        assert.equal(r[key], v.qkMacsPerLayer + v.avMacsPerLayer, `${c.name} ${key}`);
      } else {
        assert.equal(r[key], v[key], `${c.name} ${key}`); // exact: the exact value rounded once
      }
    }
  }
  // a tie: 2·4095³·131169 = 18014529407442750 lies halfway; the even neighbour is above
  const tie = m.attentionCost({ tokens: 131169, heads: 4095, headDim: 4095, batch: 4095 });
  assert.equal(tie.kvValuesPerLayer, 18014529407442752);
});

test("cost: invalid calls throw an Error naming the parameter, and the module keeps working", async () => {
  const m = await core();
  const good = () => assert.equal(m.attentionCost(exercise).kvValuesPerLayer, 8192);
  const cases = [
    [() => m.attentionCost(), "cfg", /an object, got undefined/],
    [() => m.attentionCost(null), "cfg", /got null/],
    [() => m.attentionCost({ heads: 8, headDim: 32 }), "tokens", /a number, got undefined/],
    [() => m.attentionCost({ ...exercise, tokens: "16" }), "tokens", /"16" \(a string\)/],
    [() => m.attentionCost({ ...exercise, tokens: 0 }), "tokens", /in \[1, 1073741824\], got 0/],
    [() => m.attentionCost({ ...exercise, tokens: 2 ** 30 + 1 }), "tokens", /1073741824\], got 1073741825/],
    [
      () => m.attentionCost({ ...exercise, hidden: 256 }),
      "intermediate",
      /when hidden or gatedMlp is given, got undefined/,
    ],
    [() => m.attentionCost({ ...exercise, intermediate: 1024 }), "hidden", /when intermediate or gatedMlp is given/],
    [() => m.attentionCost({ ...exercise, gatedMlp: true }), "hidden", /got undefined/],
    [
      () => m.attentionCost({ ...exercise, hidden: 256, intermediate: 1024, gatedMlp: 1 }),
      "gatedMlp",
      /true or false, got 1/,
    ],
    [() => m.attentionCost({ ...exercise, hidden: 2 ** 20 + 1, intermediate: 1024 }), "hidden", /\[1, 1048576\]/],
    [() => m.attentionCost({ ...exercise, hidden: 256, intermediate: 2 ** 22 + 1 }), "intermediate", /\[1, 4194304\]/],
    [() => m.attentionCost({ ...exercise, batch: 2 ** 20 + 1 }), "batch", /\[1, 1048576\]/],
    [() => m.attentionCost({ ...exercise, hidden: "256", intermediate: 1024 }), "hidden", /a string/],
    [() => m.attentionCost({ ...exercise, heads: 2.5 }), "heads", /an integer, got 2.5/],
    [() => m.attentionCost({ ...exercise, headDim: NaN }), "headDim", /finite number, got NaN/],
    [() => m.attentionCost({ ...exercise, layers: null }), "layers", /got null/],
    [() => m.attentionCost({ ...exercise, layers: 5000 }), "layers", /\[1, 4096\]/],
    [() => m.attentionCost({ ...exercise, kvHeads: 3 }), "kvHeads", /divisor of heads \(8\)/],
    [() => m.attentionCost({ ...exercise, kvHeads: 16 }), "kvHeads", /\[1, 8\]/],
    [() => m.attentionCost({ ...exercise, batch: true }), "batch", /got true/],
    [() => m.attentionCost({ ...exercise, kvBytesPerElement: 0 }), "kvBytesPerElement", /\(0, 64\]/],
    [() => m.attentionCost({ ...exercise, kvBytesPerElement: Infinity }), "kvBytesPerElement", /finite/],
    [() => m.attentionCost({ ...exercise, kv_heads: 2 }), "cfg", /unknown key "kv_heads"/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});

test("cost: the former names of the model's sizes (dModel, ffnDim, gated, bytesPerValue) are still read, and refused beside their names", async () => {
  const m = await core();
  const now = { ...exercise, hidden: 256, intermediate: 1024, gatedMlp: true, kvBytesPerElement: 0.5 };
  const before = { ...exercise, dModel: 256, ffnDim: 1024, gated: true, bytesPerValue: 0.5 };
  const r = m.attentionCost(now);
  assert.equal(r.linearMacsPerLayer, 16 * 256 * (32 * (2 * 8 + 2 * 8) + 3 * 1024));
  assert.equal(r.kvBytes, 4096);
  assert.deepEqual(m.attentionCost(before), r);
  assert.deepEqual(
    m.attentionCostSweep({ ...before, tokens: [16, 64] }),
    m.attentionCostSweep({ ...now, tokens: [16, 64] }),
  );
  // one of each pair by the old name, the other by the new
  assert.deepEqual(
    m.attentionCost({ ...exercise, dModel: 256, intermediate: 1024, gated: true, kvBytesPerElement: 0.5 }),
    r,
  );
  const good = () => assert.equal(m.attentionCost(exercise).kvValuesPerLayer, 8192);
  for (const [name, former, value] of [
    ["hidden", "dModel", 256],
    ["intermediate", "ffnDim", 1024],
    ["gatedMlp", "gated", true],
    ["kvBytesPerElement", "bytesPerValue", 1],
  ]) {
    const both = { ...now, [name]: value, [former]: value };
    throwsNaming(
      () => m.attentionCost(both),
      name,
      good,
      new RegExp(`given once: ${former} is its former name, got both`),
    );
  }
});

// BigInt arithmetic, an independent exact reference: Number(bigint) rounds to nearest, ties to even.
const exact = (...factors) => Number(factors.reduce((a, b) => a * BigInt(b), 1n));

test("2^30 tokens are accepted with exact counts; 2^30 + 1 is refused", async () => {
  const m = await core();
  const n = 2 ** 30;
  const cfg = { tokens: n, heads: 32, headDim: 128, layers: 32, kvHeads: 8 };
  const r = m.attentionCost(cfg);
  assert.equal(r.scoresPerHead, exact(n, n)); // 2^60
  assert.equal(r.scoresPerLayer, exact(32, n, n));
  assert.equal(r.kvValuesPerLayer, exact(2, n, 8, 128));
  assert.equal(r.kvBytes, exact(2, n, 8, 128, 32, 2)); // 128 TiB
  assert.equal(r.qkMacsPerLayer, exact(32, n, n, 128));
  assert.equal(r.macs, exact(2, 32, n, n, 128, 32));
  // odd sizes at the limits, where every bit counts: correctly rounded, as BigInt rounds
  const odd = { tokens: n - 1, heads: 4095, headDim: 4093, layers: 4091, kvHeads: 35, batch: 4087 };
  const o = m.attentionCost(odd);
  assert.equal(o.scoresPerHead, exact(n - 1, n - 1));
  assert.equal(o.scoresPerLayer, exact(4087, 4095, n - 1, n - 1));
  assert.equal(o.kvValues, exact(2, 4087, n - 1, 35, 4093, 4091));
  assert.equal(o.macs, exact(2, 4087, 4095, n - 1, n - 1, 4093, 4091));
  assert.throws(
    () => m.attentionCost({ ...cfg, tokens: n + 1 }),
    /tokens must be an integer in \[1, 1073741824\], got 1073741825/,
  );
  // the old limit, 2^24, is no longer one
  assert.equal(m.attentionCost({ ...cfg, tokens: 2 ** 24 + 1 }).scoresPerHead, exact(2 ** 24 + 1, 2 ** 24 + 1));
});

test("Llama-2-7B: attention's square matches the linear layers at 24,704 tokens", async () => {
  const m = await core();
  // config.json of meta-llama/Llama-2-7b-hf: hidden_size 4096, 32 heads of 128,
  // intermediate_size 11008, SwiGLU (gated: 3 matrices)
  const llama2 = {
    tokens: 4096,
    heads: 32,
    headDim: 128,
    layers: 32,
    hidden: 4096,
    intermediate: 11008,
    gatedMlp: true,
  };
  const r = m.attentionCost(llama2);
  assert.equal(r.projectionMacsPerLayer, 4096 * 4 * 4096 * 4096); // Q, K, V, O
  assert.equal(r.ffnMacsPerLayer, 4096 * 3 * 4096 * 11008);
  assert.equal(r.linearMacsPerLayer, r.projectionMacsPerLayer + r.ffnMacsPerLayer);
  assert.equal(r.crossoverTokens, 24704); // 202,375,168 / (2·32·128)
  close(r.attentionShare, 33554432 / (33554432 + 202375168), 1e-16, "share at 4096 tokens");
  const at = m.attentionCost({ ...llama2, tokens: 24704 });
  assert.equal(at.attentionShare, 0.5);
  assert.equal(at.qkMacsPerLayer + at.avMacsPerLayer, at.linearMacsPerLayer);
  assert.ok(m.attentionCost({ ...llama2, tokens: 100000 }).attentionShare > 0.5);
  // GPT-2 small has two feed-forward matrices: 768·64·48 + 2·768·3072 over 1536 = 4608 tokens
  const gpt2 = { tokens: 1024, heads: 12, headDim: 64, hidden: 768, intermediate: 3072 };
  assert.equal(m.attentionCost(gpt2).crossoverTokens, 4608);
  assert.equal(m.attentionCost({ ...gpt2, gatedMlp: false }).crossoverTokens, 4608);
  assert.equal(m.attentionCost({ ...gpt2, gatedMlp: true }).crossoverTokens, 6144);
  // grouped K and V shrink the projections too (Llama-3-8B: 8 KV heads, ffn 14336)
  assert.equal(m.attentionCost({ ...llama2, kvHeads: 8, intermediate: 14336 }).crossoverTokens, 26624);
  // no hidden and intermediate, no linear fields
  assert.ok(!("linearMacsPerLayer" in m.attentionCost(exercise)));
});

// ---- attentionCostSweep: figure 4.1's curves in one call ----

test("attentionCostSweep: arrays per context length; linearMacsPerLayer only with hidden and intermediate", async () => {
  const m = await core();
  const tokens = [16, 32, 64];
  const r = m.attentionCostSweep({ ...exercise, tokens });
  assert.deepEqual(Object.keys(r).sort(), ["kvBytes", "kvValuesPerLayer", "macsPerLayer", "scoresPerLayer", "tokens"]);
  // the exercise's model at 16, 32 and 64 tokens: exact integers, compared with ===
  assert.deepEqual(r, {
    tokens,
    scoresPerLayer: [2048, 8192, 32768], // 8·n²
    kvValuesPerLayer: [8192, 16384, 32768], // 2·n·8·32
    kvBytes: [16384, 32768, 65536], // fp16
    macsPerLayer: [131072, 524288, 2097152], // 2·8·n²·32
  });
  const llama2 = { heads: 32, headDim: 128, layers: 32, hidden: 4096, intermediate: 11008, gatedMlp: true };
  const linear = m.attentionCostSweep({ ...llama2, tokens: [4096, 24704, 2 ** 30] });
  assert.ok(Array.isArray(linear.linearMacsPerLayer) && linear.linearMacsPerLayer.length === 3);
  // at 24,704 tokens attention's square equals the linear layers (the crossover)
  assert.equal(linear.macsPerLayer[1], linear.linearMacsPerLayer[1]);
  // each entry is attentionCost's count at that length, to the bit
  [4096, 24704, 2 ** 30].forEach((n, i) => {
    const p = m.attentionCost({ ...llama2, tokens: n });
    assert.deepEqual(
      [
        linear.scoresPerLayer[i],
        linear.kvValuesPerLayer[i],
        linear.kvBytes[i],
        linear.macsPerLayer[i],
        linear.linearMacsPerLayer[i],
      ],
      [p.scoresPerLayer, p.kvValuesPerLayer, p.kvBytes, p.macsPerLayer, p.linearMacsPerLayer],
      `tokens ${n}`,
    );
  });
  // doubling n: scores and multiply-adds ×4, the cache ×2 (exact, also past 2^53)
  const d = m.attentionCostSweep({ ...llama2, kvHeads: 8, tokens: [2 ** 29, 2 ** 30] });
  assert.equal(d.scoresPerLayer[1], 4 * d.scoresPerLayer[0]);
  assert.equal(d.macsPerLayer[1], 4 * d.macsPerLayer[0]);
  assert.equal(d.kvBytes[1], 2 * d.kvBytes[0]);
});

test("attentionCost's macsPerLayer is qkMacsPerLayer + avMacsPerLayer, and macs is it times the layers", async () => {
  const m = await core();
  const r = m.attentionCost({ tokens: 4096, heads: 32, headDim: 128, layers: 32, kvHeads: 8 });
  assert.equal(r.macsPerLayer, r.qkMacsPerLayer + r.avMacsPerLayer);
  assert.equal(r.macs, r.macsPerLayer * 32); // 2^41 · 32: exact
});

test("attentionCostSweep takes a Float64Array of lengths, with the same result", async () => {
  const m = await core();
  const cfg = { heads: 32, headDim: 128, layers: 32, kvHeads: 8, hidden: 4096, intermediate: 14336, gatedMlp: true };
  const tokens = [1, 512, 131169, 2 ** 30];
  assert.deepEqual(
    m.attentionCostSweep({ ...cfg, tokens: Float64Array.from(tokens) }),
    m.attentionCostSweep({ ...cfg, tokens }),
  );
});

test("attentionCostSweep refuses bad input by name, an entry as tokens[i], and keeps working", async () => {
  const m = await core();
  const ok = { heads: 8, headDim: 32 };
  const good = () => assert.deepEqual(m.attentionCostSweep({ ...ok, tokens: [16] }).macsPerLayer, [131072]);
  const cases = [
    [
      () => m.attentionCostSweep({ ...ok, tokens: [16, 2.5] }),
      "tokens[1]",
      /^tokens\[1\] must be an integer, got 2.5$/,
    ],
    [() => m.attentionCostSweep({ ...ok, tokens: [0] }), "tokens[0]", /\[1, 1073741824\], got 0$/],
    [() => m.attentionCostSweep({ ...ok, tokens: [1, 2, 2 ** 30 + 1] }), "tokens[2]", /got 1073741825$/],
    [() => m.attentionCostSweep({ ...ok, tokens: [16, "32"] }), "tokens[1]", /"32" \(a string\)/],
    [() => m.attentionCostSweep({ ...ok, tokens: 16 }), "tokens", /an array of numbers, got 16/],
    [() => m.attentionCostSweep({ ...ok, tokens: { length: 1, 0: 16 } }), "tokens", /got an object/],
    [() => m.attentionCostSweep({ ...ok, tokens: [] }), "tokens", /non-empty/],
    [
      () => m.attentionCostSweep({ ...ok, tokens: new Array(4097).fill(16) }),
      "tokens",
      /at most 4096 entries \(points of a sweep\), got 4097/,
    ],
    [() => m.attentionCostSweep({ ...ok }), "tokens", /got undefined/],
    [() => m.attentionCostSweep({ ...ok, tokens: [16], heads: 2.5 }), "heads", /an integer, got 2.5/],
    [() => m.attentionCostSweep({ ...ok, tokens: [16], kvHeads: 3 }), "kvHeads", /divisor of heads \(8\)/],
    [
      () => m.attentionCostSweep({ ...ok, tokens: [16], hidden: 256 }),
      "intermediate",
      /when hidden or gatedMlp is given/,
    ],
    [() => m.attentionCostSweep({ ...ok, tokens: [16], gatedMlp: "yes" }), "gatedMlp", /true or false/],
    [() => m.attentionCostSweep({ ...ok, tokens: [16], kvBytesPerElement: 0 }), "kvBytesPerElement", /\(0, 64\]/],
    [() => m.attentionCostSweep({ ...ok, tokens: [16], token: [16] }), "cfg", /unknown key "token"/],
    [() => m.attentionCostSweep(null), "cfg", /got null/],
  ];
  for (const [bad, param, pattern] of cases) throwsNaming(bad, param, good, pattern);
});
