// Where the chapter's definitions meet the common libraries': each test is one
// row of site/libraries.html, the table the embedding guide and the notebook carry, and checks the
// row's claim on the chapter's engine (dist/llmmath.js) with the library's own test inputs, or,
// where the library's tests draw random tensors, with a small implementation written here from the
// formula in its source. The library is Hugging Face transformers, read in the public code index
// (each file at the commit the index holds; the code here is ours, the facts theirs):
//   src/transformers/generation/logits_process.py       00857b6cf63a4fa05cbd9bdc8a4fd78b6168c5af
//     TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper
//   src/transformers/generation/utils.py                1097d4b3f8dd6440add50f87a2784b03cc0b4c85
//     _get_logits_processor: temperature, then top-k, then top-p; no top-k warper for top_k = 0,
//     none for top_p = 1; min_tokens_to_keep 1 when sampling without beams
//   tests/generation/test_logits_process.py             019af3ac65298aae51038a941c54a038a505bd57
//     test_temperature_dist_warper, test_top_k_dist_warper, test_top_p_dist_warper
//   src/transformers/models/llama/modeling_llama.py     002272831fba584eb30dca9729c1be456836960a
//     LlamaRotaryEmbedding, rotate_half, apply_rotary_pos_emb
//   src/transformers/models/bloom/modeling_bloom.py     0078a6cd96d5ab7c3c429b9fdc3fbc703d894dcc
//     build_alibi_tensor
//   src/transformers/models/mixtral/modeling_mixtral.py 00d4b3d2142cb4ced2f51b90614b5d26bc045015
//     load_balancing_loss_func
//   tests/models/mixtral/test_modeling_mixtral.py       79f1fc71ad1e0220e2b05723f5fd2e14bc270de5
//     test_load_balancing_loss
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { core, close, throwsNaming } = require("./core.js");

const ROOT = path.join(__dirname, "..", "..");

/** The rows the tests below check, by the table's data-check names. */
const checked = new Set();
/** A test of the table's row `name`. */
const row = (name, title, fn) => {
  checked.add(name);
  test(`${name}: ${title}`, fn);
};

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const softmax = (z) => {
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const s = sum(e);
  return e.map((v) => v / s);
};
/** The indices where `mask` is true, in order. */
const where = (mask) => mask.flatMap((on, i) => (on ? [i] : []));
/** The indices `result.probs` keeps (probability > 0), in order. */
const keptOf = (result) => where(result.probs.map((p) => p > 0));

// --- transformers' warpers, from logits_process.py ----------------------------------------------
/**
 * TopKLogitsWarper's kept tokens: every token whose score is at least the k-th largest, k raised to
 * min_tokens_to_keep and capped at the vocabulary.
 */
function hfTopK(scores, topK, minTokensToKeep = 1) {
  const k = Math.min(Math.max(topK, minTokensToKeep), scores.length);
  const kth = [...scores].sort((a, b) => b - a)[k - 1];
  return scores.map((s) => s >= kth);
}
/**
 * TopPLogitsWarper's kept tokens, in doubles: sorted by ascending score, the softmax summed up,
 * a token removed where the sum is at most 1 − top_p, the last min_tokens_to_keep always kept.
 */
function hfTopP(scores, topP, minTokensToKeep = 1) {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  const p = softmax(order.map((i) => scores[i]));
  const keep = scores.map(() => true);
  let cumulative = 0;
  order.forEach((i, r) => {
    cumulative += p[r];
    if (cumulative <= 1 - topP && r < order.length - minTokensToKeep) keep[i] = false;
  });
  return keep;
}

// --- the tests' inputs, from test_logits_process.py --------------------------------------------
// test_temperature_dist_warper: two rows of 20 scores 1/20, the second with a peak at 5 and a
// valley at 10.
const uniform20 = Array(20).fill(1 / 20);
const peaked20 = uniform20.map((v, i) => (i === 5 ? v + 0.1 : i === 10 ? v - 0.4 : v));
// test_top_k_dist_warper: the ramp 0 … 9, and the ramp with its first half raised by 10.
const ramp10 = Array.from({ length: 10 }, (_, i) => i);
const raisedRamp10 = ramp10.map((v, i) => (i < 5 ? v + 10 : v));
// test_top_p_dist_warper: two distributions given as log-probabilities, and the ramp −5 … 4, once
// as it is and once times 100.
const dists = [
  [0.3, 0.1, 0.1, 0.5],
  [0.15, 0.3, 0.3, 0.25],
];
const centredRamp = ramp10.map((v) => v - 5);
const steepRamp = centredRamp.map((v) => v * 100);

row("temperature", "the logits divided by T, as their warper does; T = 0 is our greedy choice", async () => {
  const m = await core();
  for (const T of [0.5, 1.3]) {
    for (const [name, z] of [
      ["uniform", uniform20],
      ["peaked", peaked20],
    ]) {
      const r = m.sampling({ logits: z }, { temperature: T });
      close(r.probs, softmax(z.map((v) => v / T)), 1e-15, `${name} row at T ${T}`);
    }
  }
  // their assertions on the same rows: uniform stays uniform; the peak rises and the valley falls
  // below 1, the reverse above
  const at = (z, T) => m.sampling({ logits: z }, { temperature: T }).probs;
  close(at(uniform20, 0.5), at(uniform20, 1), 1e-15, "uniform at T 0.5");
  close(at(uniform20, 1.3), at(uniform20, 1), 1e-15, "uniform at T 1.3");
  const [base, sharp, smooth] = [1, 0.5, 1.3].map((T) => at(peaked20, T));
  assert.ok(Math.max(...sharp) > Math.max(...base) && Math.min(...sharp) < Math.min(...base), "sharper at 0.5");
  assert.ok(Math.max(...smooth) < Math.max(...base) && Math.min(...smooth) > Math.min(...base), "flatter at 1.3");
  // T = 0, which their warper refuses: all the mass on the argmax, the lower index on a tie
  assert.deepEqual(keptOf(m.sampling({ logits: peaked20 }, { temperature: 0 })), [5]);
  assert.deepEqual(keptOf(m.sampling({ logits: uniform20 }, { temperature: 0 })), [0]);
});

row("top-k", "the same tokens without a tie at the k-th; with one, they keep every tied token", async () => {
  const m = await core();
  // their first rows: no tie, the same three tokens
  for (const z of [ramp10, raisedRamp10]) {
    const ours = keptOf(m.sampling({ logits: z }, { topK: 3 }));
    assert.deepEqual(ours, where(hfTopK(z, 3)));
  }
  assert.deepEqual(keptOf(m.sampling({ logits: ramp10 }, { topK: 3 })), [7, 8, 9]);
  assert.deepEqual(keptOf(m.sampling({ logits: raisedRamp10 }, { topK: 3 })), [2, 3, 4]);
  // their safety check: top_k 1 raised to min_tokens_to_keep 3. On the ramp 0 … 4 both keep the
  // top three, as ours does with topK 3 (ours has no min_tokens_to_keep: topK is the count)
  const ramp5 = [0, 1, 2, 3, 4];
  assert.deepEqual(where(hfTopK(ramp5, 1, 3)), [2, 3, 4]);
  assert.deepEqual(keptOf(m.sampling({ logits: ramp5 }, { topK: 3 })), [2, 3, 4]);
  // On their uniform row every token ties with the third: they keep all five ("uniform dist is
  // not changed"), ours keeps three, by lower index. The difference is exactly the tokens tied
  // with the k-th that come after the first k.
  const uniform5 = Array(5).fill(1 / 5);
  const theirs = where(hfTopK(uniform5, 1, 3));
  const ours = keptOf(m.sampling({ logits: uniform5 }, { topK: 3 }));
  assert.deepEqual(theirs, [0, 1, 2, 3, 4]);
  assert.deepEqual(ours, [0, 1, 2]);
  assert.deepEqual(
    theirs.filter((i) => !ours.includes(i)),
    [3, 4],
  );
  // top_k = 0: their warper refuses it and generate() adds none; ours is off, all kept
  assert.deepEqual(keptOf(m.sampling({ logits: ramp5 }, { topK: 0 })), ramp5);
});

row("top-p", "the same nucleus and probabilities on their inputs; min_tokens_to_keep and p = 0 differ", async () => {
  const m = await core();
  // their expected rows, [[0.3, 0, 0, 0.5], [0, 0.3, 0.3, 0.25]], renormalised: the kept tokens'
  // probabilities over their sum
  const expected = [
    [0.3, 0, 0, 0.5],
    [0, 0.3, 0.3, 0.25],
  ];
  dists.forEach((p, i) => {
    const r = m.sampling({ probs: p }, { topP: 0.8 });
    const s = sum(expected[i]);
    close(
      r.probs,
      expected[i].map((v) => v / s),
      1e-15,
      `row ${i}`,
    );
  });
  // Their first row sits on the boundary: 0.5 + 0.3 is exactly 0.8 in decimal. Their rule keeps
  // two tokens in float32, as their test expects, but the same rule in doubles keeps a third
  // (0.1 + 0.1 is above 1 − 0.8 there); ours counts the boundary as reached in any precision.
  assert.deepEqual(where(hfTopP(dists[0].map(Math.log), 0.8)), [0, 2, 3]);
  assert.deepEqual(keptOf(m.sampling({ probs: dists[0] }, { topP: 0.8 })), [0, 3]);
  // their ramps with top_p 0.9 and min_tokens_to_keep 2: three tokens on the gentle ramp and two
  // on the steep one; ours keeps three and one, as their rule does with min_tokens_to_keep 1
  const counts = [centredRamp, steepRamp].map((z) => keptOf(m.sampling({ logits: z }, { topP: 0.9 })).length);
  assert.deepEqual(counts, [3, 1]);
  assert.deepEqual(
    [centredRamp, steepRamp].map((z) => where(hfTopP(z, 0.9, 2)).length),
    [3, 2],
  );
  assert.deepEqual(
    [centredRamp, steepRamp].map((z) => where(hfTopP(z, 0.9, 1)).length),
    [3, 1],
  );
  // top_p = 0: their warper keeps min_tokens_to_keep tokens, the most probable; ours refuses it
  assert.deepEqual(where(hfTopP(centredRamp, 0)), [9]);
  throwsNaming(
    () => m.sampling({ logits: centredRamp }, { topP: 0 }),
    "topP",
    () => assert.deepEqual(keptOf(m.sampling({ logits: centredRamp }, { topP: 1e-9 })), [9]),
  );
});

row("top-p", "in the same order as generate(): temperature, top-k, then top-p on what top-k kept", async () => {
  const m = await core();
  // generate()'s order, with their warpers written above, against ours on logits with no tie and
  // no boundary near a rounding
  const z = [2.1, -0.4, 1.3, 0.2, 3.05, -1.7, 0.9, 1.85, -0.15, 0.55];
  const T = 0.8;
  const scaled = z.map((v) => v / T);
  const afterK = hfTopK(scaled, 5);
  const filtered = scaled.map((v, i) => (afterK[i] ? v : -Infinity));
  const afterP = hfTopP(filtered, 0.85);
  const kept = where(afterP.map((on, i) => on && afterK[i]));
  const theirs = softmax(scaled.map((v, i) => (kept.includes(i) ? v : -Infinity)));
  const r = m.sampling({ logits: z }, { temperature: T, topK: 5, topP: 0.85 });
  assert.deepEqual(keptOf(r), kept);
  close(r.probs, theirs, 1e-15, "probabilities");
});

// --- RoPE, from modeling_llama.py ---------------------------------------------------------------
/**
 * Llama's rotary embedding of `x` at position `pos`: inv_freq = 1 / base^(2i/d), the angles
 * repeated over both halves (emb = cat(freqs, freqs)), and x·cos + rotate_half(x)·sin with
 * rotate_half(x) = cat(−x[d/2:], x[:d/2]).
 */
function llamaRope(x, pos, base = 10000) {
  const d = x.length;
  const h = d / 2;
  const invFreq = Array.from({ length: h }, (_, i) => 1 / base ** ((2 * i) / d));
  const emb = [...invFreq, ...invFreq].map((f) => pos * f);
  const rotated = [...x.slice(h).map((v) => -v), ...x.slice(0, h)];
  return x.map((v, j) => v * Math.cos(emb[j]) + rotated[j] * Math.sin(emb[j]));
}
/** The reordering from our interleaved layout to the halves: even coordinates first, then odd. */
const evensFirst = (x) => [...x.filter((_, i) => i % 2 === 0), ...x.filter((_, i) => i % 2 === 1)];

row("rope", 'Llama\'s rotate_half is pairing "half"; interleaved is it after evens-first reordering', async () => {
  const m = await core();
  const q = [0.3, -1.2, 0.8, 0.05, -0.6, 1.4, 0.25, -0.9];
  const k = [-0.7, 0.4, 1.1, -0.2, 0.35, -1.05, 0.6, 0.15];
  for (const [mPos, nPos, base] of [
    [5, 2, 10000],
    [37, 0, 10000],
    [1000, 999, 500000],
  ]) {
    const half = m.rope(q, k, mPos, nPos, { pairing: "half", base });
    close(half.qRotated, llamaRope(q, mPos, base), 1e-12, `q at ${mPos}, base ${base}`);
    close(half.kRotated, llamaRope(k, nPos, base), 1e-12, `k at ${nPos}, base ${base}`);
    // the default pairs (x[2i], x[2i+1]); reordered evens first, they are Llama's pairs
    const inter = m.rope(q, k, mPos, nPos, { base });
    close(evensFirst(inter.qRotated), llamaRope(evensFirst(q), mPos, base), 1e-12, "interleaved q, reordered");
    close(evensFirst(inter.kRotated), llamaRope(evensFirst(k), nPos, base), 1e-12, "interleaved k, reordered");
    // so a score is the same when query and key are both reordered
    close(inter.raw, m.rope(evensFirst(q), evensFirst(k), mPos, nPos, { pairing: "half", base }).raw, 1e-12, "raw");
  }
});

// --- ALiBi, from modeling_bloom.py -------------------------------------------------------------
/**
 * build_alibi_tensor's slopes: for the power of two p at or below n, (2^(−8/p))^k for k = 1 … p;
 * then (2^(−4/p))^k for odd k, as many as the heads left over.
 */
function bloomSlopes(n) {
  const p = 2 ** Math.floor(Math.log2(n));
  const base = 2 ** -(2 ** -(Math.log2(p) - 3));
  const slopes = Array.from({ length: p }, (_, k) => base ** (k + 1));
  if (p !== n) {
    const extraBase = 2 ** -(2 ** -(Math.log2(2 * p) - 3));
    const left = Math.min(p, n - p);
    for (let k = 1; k < 2 * left; k += 2) slopes.push(extraBase ** k);
  }
  return slopes;
}

row("alibi", "our bias rows differ from BLOOM's m·j by a constant per row; softmax is the same", async () => {
  const m = await core();
  // the slopes, for head counts that are and are not powers of two (BLOOM-176B has 112 heads)
  for (let n = 1; n <= 128; n++) {
    const ours = m.alibiSlopes(n);
    const theirs = bloomSlopes(n);
    assert.equal(ours.length, theirs.length);
    ours.forEach((s, i) => close(s / theirs[i], 1, 1e-14, `slope ${i} of ${n} heads`));
  }
  // BLOOM adds m·j to a query's score for key j, one row for all queries (arange of the key
  // positions, the causal mask applied apart); ours adds −m·(i − j) for j ≤ i
  const tokens = 7;
  const scores = Array.from({ length: tokens }, (_, i) =>
    Array.from({ length: tokens }, (_, j) => Math.sin(1.7 * i + 0.9 * j) * 2),
  );
  for (const slope of m.alibiSlopes(8)) {
    const { bias } = m.alibi({ slope, tokens });
    for (let i = 0; i < tokens; i++) {
      const keys = Array.from({ length: i + 1 }, (_, j) => j);
      assert.ok(
        bias[i].slice(i + 1).every((b) => b === null),
        "keys after the query are masked",
      );
      const bloom = keys.map((j) => slope * j);
      // the difference is −m·i whatever the key: a constant of the row
      keys.forEach((j) => close(bias[i][j] - bloom[j], -slope * i, 1e-12, `row ${i}, key ${j}`));
      close(
        softmax(keys.map((j) => scores[i][j] + bias[i][j])),
        softmax(keys.map((j) => scores[i][j] + bloom[j])),
        1e-12,
        `softmax of row ${i}, slope ${slope}`,
      );
    }
  }
});

// --- the load-balancing loss, from modeling_mixtral.py -----------------------------------------
/**
 * load_balancing_loss_func without an attention mask: the layers' router logits concatenated,
 * softmax per row, each row's top_k experts one-hot (top_k × experts), their mean over the rows
 * (tokens_per_expert, top_k × experts), the mean router probability per expert, and
 * experts · Σ tokens_per_expert · router_prob.
 */
function mixtralLoss(routerLogits, experts, topK) {
  const probs = routerLogits.map(softmax);
  const tokensPerExpert = Array.from({ length: topK }, () => Array(experts).fill(0));
  for (const p of probs) {
    const chosen = p
      .map((v, e) => [v, e])
      .sort((a, b) => b[0] - a[0])
      .slice(0, topK);
    chosen.forEach(([, e], s) => (tokensPerExpert[s][e] += 1 / probs.length));
  }
  const routerProb = Array.from({ length: experts }, (_, e) => sum(probs.map((p) => p[e])) / probs.length);
  return experts * sum(tokensPerExpert.flatMap((r) => r.map((f, e) => f * routerProb[e])));
}
/** Numbers in [−1, 1) from a seed: a small linear congruential generator, the same every run. */
function uniforms(seed, count) {
  let s = seed >>> 0;
  return Array.from({ length: count }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  });
}
/** A rows × experts matrix of router logits in [−scale, scale). */
const routerLogits = (seed, rows, experts, scale) => {
  const u = uniforms(seed, rows * experts);
  return Array.from({ length: rows }, (_, t) => u.slice(t * experts, (t + 1) * experts).map((v) => v * scale));
};

row("moe", "Mixtral's loss is exactly top_k times ours; on their test's routing, theirs is top_k", async () => {
  const m = await core();
  // Their test: 8 experts, top_k 2, two layers of 91 tokens (a batch of 13 × 7), a router fresh
  // from initialisation, nearly even, and the loss asserted to be 2 within rtol = atol = 1e-2.
  // Their router is random; this one is of the same shape and size, from a fixed seed.
  const logits = routerLogits(41, 2 * 91, 8, 0.1);
  const theirs = mixtralLoss(logits, 8, 2);
  const ours = m.moeRoute(logits, 2).loss;
  close(theirs, 2, 1e-2 + 2 * 1e-2, "their expected value, with their tolerance");
  close(theirs, 2 * ours, 1e-12, "theirs = top_k × ours");
  // An uneven router, where the relation is not an accident of balance, for top_k 1 to 4: f
  // counts a token top_k times in both, but ours divides by tokens·top_k and theirs by tokens.
  const skewed = routerLogits(7, 12, 6, 3);
  for (let topK = 1; topK <= 4; topK++) {
    const r = m.moeRoute(skewed, topK);
    close(mixtralLoss(skewed, 6, topK), topK * r.loss, 1e-12, `top_k ${topK}`);
    close(sum(r.f), 1, 1e-12, `our f sums to 1 at top_k ${topK}`);
  }
});

// --- the table ---------------------------------------------------------------------------------
test("the table has a row for each check here, each linked to its section of the chapter", () => {
  const html = fs.readFileSync(path.join(ROOT, "site", "libraries.html"), "utf8");
  const rows = [...html.matchAll(/<tr data-check="([\w-]+)">([\s\S]*?)<\/tr>/g)];
  assert.ok(rows.length >= 5 && rows.length <= 7, `five to seven rows, not ${rows.length}`);
  assert.deepEqual(new Set(rows.map((r) => r[1])), checked);
  const sections = fs
    .readdirSync(path.join(ROOT, "site", "sections"))
    .map((f) => fs.readFileSync(path.join(ROOT, "site", "sections", f), "utf8"))
    .join("\n");
  for (const [, name, cells] of rows) {
    const link = /<a href="reader\.html#([\w-]+)">/.exec(cells);
    assert.ok(link, `row ${name} links to the chapter`);
    assert.ok(sections.includes(`id="${link[1]}"`), `row ${name}: #${link[1]} is a section's id`);
  }
  // a heading, a paragraph and one table with the five columns
  assert.match(html, /<h2\b[^>]*>From this chapter to your library<\/h2>/);
  assert.equal(html.match(/<table\b/g).length, 1);
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(html)[1];
  assert.deepEqual(
    [...head.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((h) => h[1]),
    ["topic", "this chapter", "library", "difference and why", "checked by"],
  );
});

/** The number of rows of site/libraries.html. */
const tableRows = () =>
  [...fs.readFileSync(path.join(ROOT, "site", "libraries.html"), "utf8").matchAll(/<tr data-check="[\w-]+">/g)].length;

test("the built guide carries the table, its formulas typeset", () => {
  const guide = fs.readFileSync(path.join(ROOT, "dist", "embed-guide.html"), "utf8");
  const section = /<section id="libraries"[\s\S]*?<\/section>/.exec(guide)?.[0];
  assert.ok(section, "dist/embed-guide.html has the section");
  assert.equal([...section.matchAll(/<tr data-check=/g)].length, tableRows());
  assert.ok(!/\\\(|\\\[/.test(section), "every formula is typeset");
  assert.match(section, /<math\b/);
});

test("the built notebook carries the table as a Markdown table, each row linked to the chapter", () => {
  const notebook = JSON.parse(fs.readFileSync(path.join(ROOT, "dist", "attention-and-transformers.ipynb"), "utf8"));
  const text = (s) => (Array.isArray(s) ? s.join("") : s);
  const cell = notebook.cells.find(
    (c) => c.cell_type === "markdown" && text(c.source).startsWith("## From this chapter to your library\n"),
  );
  assert.ok(cell, "the notebook has the table's cell");
  const table = text(cell.source)
    .split("\n")
    .filter((l) => l.startsWith("| "));
  assert.equal(table[0], "| topic | this chapter | library | difference and why | checked by |");
  assert.equal(table[1], "| --- | --- | --- | --- | --- |");
  assert.equal(table.length, 2 + tableRows());
  for (const line of table.slice(2)) assert.match(line, /^\| \[[^\]]+\]\(reader\.html#[\w-]+\) \| /);
});
