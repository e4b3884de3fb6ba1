// The chapter's exercise answers (1 to 8, and 4b after 4) as plain text, for readers whose browser runs no scripts.
// exerciseAnswers(core) takes the loaded core (`await require("../dist/llmmath.js")()`) and
// answers each exercise for the inputs its text states (site/sections/0[1-8]-*.html, the
// <div class="exercise">), in the words of ../shared/spec/chapter.md's answers. The inputs are
// the literals below; every number an answer states comes from a core call and passes through
// the page's formatter (site/src/format.js).

import { readFileSync } from "node:fs";
import { fmt as fmtNumber, fmtCount, fmtSeconds, superscript } from "./src/format.js";
import { deviceById, servingDevices } from "./src/widgets/model/model-devices.js";

// ---- The exercises' inputs, as the exercise texts state them ----

/** Exercise 1: three tokens (rows), the causal mask on. */
const ATTENTION = {
  q: [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  k: [
    [1, 0],
    [0, 1],
    [3, 0],
  ],
  v: [
    [1, 0],
    [0, 1],
    [0.5, 0.5],
  ],
  causal: true,
};

/** Exercise 2: four tokens given as probabilities, "blue" first; temperature 1, top-k off, top-p 0.8. */
const SAMPLING = { probs: [0.4, 0.4, 0.1, 0.1], first: "blue", temperature: 1, topK: 0, topP: 0.8 };

/** Exercise 3: d = 4, frequencies given directly, q = k = (1, 0, 1, 0), the query two positions after the key. */
const ROPE = { q: [1, 0, 1, 0], k: [1, 0, 1, 0], m: 2, n: 0, freqs: [0.01, 0.0001] };

/** Exercise 4: one layer, 8 heads of dimension 32 with their own keys and values, one sequence of 16 tokens. */
const COST = { tokens: 16, heads: 8, headDim: 32, layers: 1, kvHeads: 8, batch: 1 };

/**
 * Exercise 4b: Llama 3.1 8B as its committed config.json states it (bf16), one H100 SXM of Figure
 * 4.2's picker, one sequence of 4,096 tokens.
 */
const DECODE = { model: "llama-3.1-8b", device: "h100-sxm", tokens: 4096, batch: 1, batched: 8 };

/** Exercise 5: acceptance rate α = 0.5, draft length γ = 3. */
const SPECULATIVE = { alpha: 0.5, gamma: 3 };

/** Exercise 6: one ALiBi head of slope 0.125 (head 3 of 8). */
const ALIBI = { slope: 0.125 };

/** Exercise 7: channel 2, activation range 8, weight range 0.5, α = 0.5. */
const QUANTIZATION = { channel: 2, xAbsMax: 8, wAbsMax: 0.5, alpha: 0.5 };

/**
 * Exercise 8: traffic split f over N = 4 experts and even router weights p; `other` is the
 * different split the answer compares with (all traffic on expert 1).
 */
const MOE = { f: [0.5, 0.5, 0, 0], p: [0.25, 0.25, 0.25, 0.25], other: [1, 0, 0, 0] };

// ---- Formatting: the page's one formatter (site/src/format.js) ----

/** A number as the page writes it, with thousands separated for whole numbers of 1,000 or more. */
function fmt(x, digits = 4) {
  return Number.isInteger(x) && Math.abs(x) >= 1000 ? fmtCount(x) : fmtNumber(x, digits);
}

/** A vector as "(a, b, c)". */
function vec(xs, digits = 4) {
  return "(" + Array.from(xs, (x) => fmt(x, digits)).join(", ") + ")";
}

/** "1", "1 and 2", "1, 2 and 3" (1-based labels of 0-based indices). */
function list(indices) {
  const labels = indices.map((i) => String(i + 1));
  return labels.length < 2 ? labels.join("") : labels.slice(0, -1).join(", ") + " and " + labels.at(-1);
}

// ---- The answers ----

function attention(core) {
  const { q, k, v, causal } = ATTENTION;
  const r = core.attention(q, k, v, { causal });
  const w = r.weights[0],
    scores = r.scores[0],
    visible = r.visible[0];
  const seen = visible.flatMap((on, j) => (on ? [j] : []));
  const hidden = visible.flatMap((on, j) => (on ? [] : [j]));
  const top = hidden.reduce((best, j) => (best < 0 || scores[j] > scores[best] ? j : best), -1);
  const keys = seen.length === 1 ? `only key ${list(seen)}` : `keys ${list(seen)}`;
  const output = seen.length === 1 ? `V${list(seen)} = ${vec(r.output[0])}` : vec(r.output[0]);
  return (
    `Exercise 1: under the causal mask query 1 sits at position 1 and sees ${keys}, so its weights ` +
    `are ${vec(w)} and its output is ${output}. Key ${top + 1} has the largest raw score, ` +
    `${fmt(scores[top])} against ${seen.map((j) => `${fmt(scores[j])} for key ${j + 1}`).join(", ")}, ` +
    `but it lies in the future and is masked before normalisation, so its weight is exactly ` +
    `${fmt(w[top])} and it contributes nothing to the output.`
  );
}

function sampling(core) {
  const { probs, first, temperature, topK, topP } = SAMPLING;
  const r = core.sampling({ probs }, { temperature, topK, topP });
  const reach = r.cumulative[r.cutoff - 1];
  const added = r.kept.map((i) => fmt(r.tempered[i])).join(" + ");
  return (
    `Exercise 2: sorted most probable first, the cumulative probability first reaches top-p = ` +
    `${fmt(topP)} with tokens ${list(r.kept)} (${added} = ${fmt(reach)}), so they form the nucleus, ` +
    `which retains mass ${fmt(r.keptMass)}, and “${first}” is sampled with probability ` +
    `${fmt(r.tempered[0])}/${fmt(r.keptMass)} = ${fmt(r.probs[0])}. That number is how often ` +
    `the sampler picks “${first}” among the retained tokens, not evidence that it is true: ` +
    `nothing in the calculation consults a fact.`
  );
}

function rope(core) {
  const { q, k, m, n, freqs } = ROPE;
  const r = core.rope(q, k, m, n, { freqs });
  // With the key at position 0 its pairs do not turn, so the query's angles are the angle gaps.
  const gaps = r.angles.map(([a]) => fmt(a));
  return (
    `Exercise 3: with the query at position ${fmt(m)} and the key at ${fmt(n)}, the query's ` +
    `pairs turn ${gaps.join(" and ")} rad further than the key's, and as every pair is (1, 0) the raw ` +
    `score is ${gaps.map((g) => `cos(${g})`).join(" + ")} ≈ ${fmt(r.raw)}; divided by ` +
    `√${fmt(q.length)} it is ≈ ${fmt(r.scaled)}. Only the offset matters: moving both positions ` +
    `by the same amount leaves every angle gap, and so the score, unchanged.`
  );
}

function cost(core) {
  const now = core.attentionCost(COST);
  const doubledHeadDim = 2 * COST.headDim;
  const doubled = core.attentionCost({ ...COST, headDim: doubledHeadDim });
  const { tokens: n, kvHeads, headDim: d } = COST;
  return (
    `Exercise 4: each head scores every query against every key, ${fmt(n)}² = ` +
    `${fmt(now.scoresPerHead)} scores, and the layer caches one key and one value per token and ` +
    `head, 2·${fmt(n)}·${fmt(kvHeads)}·${fmt(d)} = ${fmt(now.kvValuesPerLayer)} values. Doubling ` +
    `the head dimension to ${fmt(doubledHeadDim)} leaves the scores at ${fmt(doubled.scoresPerHead)} ` +
    `per head (a score is one number however long the vectors), doubles the cache to ` +
    `${fmt(doubled.kvValuesPerLayer)} values and doubles the QK plus AV multiply-adds from ` +
    `${fmt(now.macs)} to ${fmt(doubled.macs)}.`
  );
}

function decode(core) {
  const text = readFileSync(new URL(`../data/models/${DECODE.model}.json`, import.meta.url), "utf8");
  const device = deviceById(DECODE.device);
  const shape = core.modelFromConfigText(text);
  const devices = servingDevices(device);
  const d = core.modelCost(shape, { tokens: DECODE.tokens, batch: DECODE.batch, devices }).decode;
  const b = core.modelCost(shape, { tokens: DECODE.tokens, batch: DECODE.batched, devices }).decode;
  return (
    `Exercise 4b: each step reads every weight once, but of the input embedding only the row of ` +
    `its token: ${fmtCount(d.weightsBytesRead)} bytes; and the cache of ${fmt(DECODE.tokens)} tokens, ` +
    `${fmtCount(d.kvBytesRead)} bytes. ${fmtCount(d.bytesPerStep)} bytes ÷ ${fmtCount(device.bandwidthGBs)} GB/s = ` +
    `${fmtSeconds(d.memorySeconds)} a step (the arithmetic alone would take ${fmtSeconds(d.computeSeconds)}: ` +
    `${d.bound}-bound), so at most ${fmt(d.tokensPerSecond, 1)} tokens a second. With ${fmt(DECODE.batched)} ` +
    `sequences a step reads the weights once and ${fmt(DECODE.batched)} caches, ${fmtCount(b.bytesPerStep)} bytes, ` +
    `${fmtSeconds(b.secondsPerStep)} a step for ${fmt(DECODE.batched)} tokens: ${fmt(b.tokensPerSecond, 1)} tokens a ` +
    `second in all.`
  );
}

function speculative(core) {
  const { alpha, gamma } = SPECULATIVE;
  const r = core.speculativeDecoding({ alpha, gamma });
  const a = fmt(alpha);
  // tokenProbs has γ + 1 entries, one per possible number of tokens a call yields.
  return (
    `Exercise 5: with α = ${a} and γ = ${fmt(gamma)} a target call yields ` +
    `(1 − ${a}${superscript(r.tokenProbs.length)})/(1 − ${a}) = ${fmt(r.numerator)}/${fmt(r.denominator)} = ` +
    `${fmt(r.expectedTokens)} tokens on average; as γ grows α^(γ+1) vanishes and the average ` +
    `approaches the ceiling 1/(1 − ${a}) = ${fmt(r.ceiling)}, because the target still stops at the ` +
    `first rejected token.`
  );
}

function alibi(core) {
  const { slope } = ALIBI;
  const r = core.alibi({ slope });
  const ln2 = core.alibi({ slope: 1 }).halfDistance; // ln 2 / 1
  const halvedSlope = slope / 2;
  const halved = core.alibi({ slope: halvedSlope });
  return (
    `Exercise 6: the bias −m·δ on a key at distance δ multiplies its weight by e^(−m·δ) ` +
    `relative to distance 0, ` +
    `which is ½ at δ = ln 2 / m ≈ ${fmt(ln2)}/${fmt(slope)} ≈ ${fmt(r.halfDistance)} tokens, ` +
    `about ${fmt(r.halfDistance, 1)}. Each time the slope is halved the distance doubles ` +
    `(slope ${fmt(halvedSlope)} gives ≈ ${fmt(halved.halfDistance)} tokens), because it is ` +
    `inversely proportional to the slope.`
  );
}

function quantization(core) {
  const { channel, xAbsMax, wAbsMax, alpha } = QUANTIZATION;
  const r = core.smoothQuant([xAbsMax], [wAbsMax], alpha);
  const x = fmt(xAbsMax),
    w = fmt(wAbsMax),
    s = fmt(r.scales[0]);
  const factor = alpha === 0.5 ? `√${x}/√${w}` : `${x}^${fmt(alpha)}/${w}^(1 − ${fmt(alpha)})`;
  return (
    `Exercise 7: with α = ${fmt(alpha)} the smoothing factor is s${sub(channel)} = ${factor} = ` +
    `${s}, so channel ${fmt(channel)}'s activation range becomes ${x}/${s} = ${fmt(r.xAbsMax[0])} ` +
    `and its weight range ${w}·${s} = ${fmt(r.wAbsMax[0])}. The product XW is unchanged, because the ` +
    `channel of X is divided by exactly what the matching row of W is multiplied by.`
  );
}

const SUBSCRIPTS = ["₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"];
/** A whole number ≥ 0 as subscript digits: 2 → "₂". */
function sub(k) {
  return [...String(k)].map((ch) => SUBSCRIPTS[Number(ch)]).join("");
}

function moe(core) {
  const { f, p, other } = MOE;
  const N = f.length;
  const r = core.moeLoadBalance(f, p);
  const alt = core.moeLoadBalance(other, p);
  // Experts without traffic add 0 to the sum; leave them out, as one would by hand.
  const sum = (fs) => fs.flatMap((x, i) => (x > 0 ? [`${fmt(x)}·${fmt(p[i])}`] : [])).join(" + ");
  return (
    `Exercise 8: with f = ${vec(f)} and even router weights p = ${fmt(p[0])} over N = ${fmt(N)} ` +
    `experts the loss is ${fmt(N)}·(${sum(f)}) = ${fmt(r.loss)}. A different split does not change ` +
    `it (all traffic on expert 1 gives ${fmt(N)}·(${sum(other)}) = ${fmt(alt.loss)}), because with ` +
    `even router weights N·Σ fᵢ·(1/N) = Σ fᵢ = 1 whatever the split, which is why the penalty acts ` +
    `through both f and p.`
  );
}

// Each exercise by its name: 1 to 8 as numbers, the one added after exercise 4 as "4b", so that
// the others keep the numbers the chapter and its tests give them.
const SECTIONS = [
  [1, "attention", attention],
  [2, "sampling", sampling],
  [3, "rope", rope],
  [4, "cost", cost],
  ["4b", "cost", decode],
  [5, "speculative", speculative],
  [6, "alibi", alibi],
  [7, "quantization", quantization],
  [8, "moe", moe],
];

/**
 * The exercise answers, in the chapter's order, as
 * { exercise: n (or "4b"), section: "<section id>", text: "<plain-text answer>" }.
 * @param core the loaded module object of dist/llmmath.js
 */
export function exerciseAnswers(core) {
  return SECTIONS.map(([exercise, section, answer]) => ({ exercise, section, text: answer(core) }));
}
