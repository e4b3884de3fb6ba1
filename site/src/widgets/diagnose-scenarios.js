// The diagnosis figure's scenarios: one per symptom, data and core calls only. Each has a story
// as a reader meets it, the mechanism, the section whose calculation applies, a few inputs the
// reader may change, compute(core, inputs) returning the calculation's lines (every number from
// the core), the assumptions it makes, and the check to run.
//
// An input: { key (its name in compute's argument), name (kebab-case; the figure's attribute is
// "<scenario id>-<name>"), type ("number" unless "integer"), label, min, max, step, value (the
// default), doc (one sentence for the course authors' guide) }.
import { h, sym } from "../dom.js";
import { fmt, fmtBytes, pct } from "../format.js";

const int = (x) => x.toLocaleString("en");
const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x)));

export const scenarios = [
  {
    id: "missing-context",
    symptom: "Missing context",
    story: "A support assistant answers a refund question wrongly. The refund policy was there, one paragraph inside a long manual pasted ahead of the question.",
    mechanism: "Attention mixes what is in the window, and every irrelevant token takes a share of the softmax. One relevant key among thousands of distractors keeps little weight, even when it scores higher than each of them.",
    section: "attention",
    inputs: [
      { key: "a", name: "relevant-score", label: "relevant key's score a", min: -5, max: 15, step: 0.5, value: 4,
        doc: "Missing context: the relevant key's score a." },
      { key: "b", name: "distractor-score", label: "distractor score b", min: -5, max: 15, step: 0.5, value: 0,
        doc: "Missing context: the score b of every distractor token." },
      { key: "n", name: "distractors", type: "integer", label: "distractor tokens n", min: 0, max: 1000000, step: 1, value: 5000,
        doc: "Missing context: the number n of distractor tokens with the whole manual." },
      { key: "trimmed", name: "trimmed", type: "integer", label: "after trimming to n", min: 0, max: 1000000, step: 1, value: 50,
        doc: "Missing context: the number of distractor tokens left after trimming." },
    ],
    compute(core, v) {
      const before = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.n });
      const after = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.trimmed });
      return [
        ["With the whole manual: ", sym("w"), " = ", exp(v.a), " / (", exp(v.a), ` + ${int(v.n)}·`, exp(v.b), ") = ", h("strong", {}, pct(before.relevantWeight, 2))],
        [`With the context trimmed to ${int(v.trimmed)} other tokens: `, h("strong", {}, pct(after.relevantWeight, 2))],
      ];
    },
    assumptions: "One head and all distractors scoring alike; a trained model separates relevant text better than this, so the numbers show the direction, not the size, of the effect.",
    check: "Supply the needed paragraph directly, or cut what is irrelevant, and ask again; then compare the answer with the policy itself.",
  },
  {
    id: "sampled-wording",
    symptom: "Different sampled wording",
    story: "Two colleagues ask the same question and get answers worded differently; one gives the year of a treaty as 1920, the other as 1919.",
    mechanism: "The model gives a distribution over next tokens and the sampler draws from it. At temperature T, a token other than the most probable one is drawn with the probability that remains.",
    section: "sampling",
    inputs: [
      { key: "z1", name: "z1", label: "logit of “1919”", min: -5, max: 10, step: 0.1, value: 2.2,
        doc: "Different sampled wording: the logit of the token “1919”." },
      { key: "z2", name: "z2", label: "logit of “1920”", min: -5, max: 10, step: 0.1, value: 1.6,
        doc: "Different sampled wording: the logit of the token “1920”." },
      { key: "z3", name: "z3", label: "logit of “1918”", min: -5, max: 10, step: 0.1, value: 0.4,
        doc: "Different sampled wording: the logit of the token “1918”." },
      { key: "T", name: "temperature", label: "temperature T", min: 0, max: 3, step: 0.1, value: 0.8,
        doc: "Different sampled wording: the sampling temperature T (0 is greedy)." },
    ],
    compute(core, v) {
      const tokens = ["1919", "1920", "1918"];
      const r = core.sampling({ logits: [v.z1, v.z2, v.z3] }, { temperature: v.T });
      const greedy = core.sampling({ logits: [v.z1, v.z2, v.z3] }, { temperature: 0 });
      const draws = core.sample(r.probs, { count: 10, seed: 7 });
      return [
        [`At T = ${fmt(v.T)}: `, tokens.map((t, i) => `P(${t}) = ${pct(r.probs[i], 1)}`).join(", "), "."],
        ["Ten draws (seed 7): ", h("strong", {}, draws.map((i) => tokens[i]).join(", "))],
        ["At T = 0 every draw is “", h("strong", {}, tokens[greedy.kept[0]]), "”: repeatable, but only as right as the most probable token."],
      ];
    },
    assumptions: "Only the year token differs; in a longer answer small differences early change everything after them.",
    check: "Compare the answers with the source, not with each other. Sample several times to see the spread; a low temperature makes the answer repeatable, not verified.",
  },
  {
    id: "position",
    symptom: "Positional relationships",
    story: "Reading a long contract, the model attributes an obligation to the wrong party: the right party was named thousands of tokens earlier.",
    mechanism: "With ALiBi, a head multiplies a key's weight by e^(−m·distance). Each head halves a key's weight every ln 2 / m tokens, so even the most far-sighted head barely sees keys many half-distances back.",
    section: "alibi",
    inputs: [
      { key: "heads", name: "heads", type: "integer", label: "attention heads", min: 1, max: 64, step: 1, value: 8,
        doc: "Positional relationships: the number of attention heads whose ALiBi slopes are compared." },
    ],
    compute(core, v) {
      const slopes = core.alibiSlopes(v.heads);
      const near = core.alibi({ slope: slopes[0] }).halfDistance;
      const far = core.alibi({ slope: slopes[slopes.length - 1] }).halfDistance;
      return [
        [`Slopes of ${v.heads} heads run from ${fmt(slopes[0], 4)} to ${fmt(slopes[slopes.length - 1], 6)}.`],
        ["The steepest head halves a key's weight every ", h("strong", {}, `${fmt(near, 2)} tokens`), "; the gentlest every ", h("strong", {}, `${fmt(far, 1)} tokens`), "."],
      ];
    },
    assumptions: "ALiBi's fixed slopes (Press et al., 2022); models with rotary positions decay differently, and learned attention can still reach far when the content matches strongly.",
    check: "Restate the needed fact next to the question (or ask the model to quote the clause it relies on) and see whether the answer changes.",
  },
  {
    id: "memory",
    symptom: "Memory cost",
    story: "A team serving Llama-3-8B (32 layers, 32 query heads, 8 key–value heads of dimension 128) at 32k tokens for 16 users at once runs out of GPU memory.",
    mechanism: "Every token of every sequence keeps a key and a value per KV head per layer. The cache grows linearly with context and batch, on top of the weights.",
    section: "cost",
    inputs: [
      { key: "tokens", name: "tokens", type: "integer", label: "context tokens", min: 1, max: 1048576, step: 1, value: 32768,
        doc: "Memory cost: the context length in tokens of each sequence." },
      { key: "batch", name: "batch", type: "integer", label: "sequences at once", min: 1, max: 4096, step: 1, value: 16,
        doc: "Memory cost: the number of sequences served at once." },
      { key: "bytesPerValue", name: "bytes-per-value", label: "bytes per value", min: 0.5, max: 4, step: 0.5, value: 2,
        doc: "Memory cost: the bytes each cached key or value takes (2 for 16-bit, 1 for 8-bit)." },
    ],
    compute(core, v) {
      const cfg = { tokens: v.tokens, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: v.batch, bytesPerValue: v.bytesPerValue };
      const r = core.attentionCost(cfg);
      return [
        ["KV cache = 2 · ", `${int(v.batch)} · ${int(v.tokens)} · 8 · 128 · 32 layers · ${fmt(v.bytesPerValue)} bytes = `, h("strong", {}, fmtBytes(r.kvBytes))],
        [`Per token of one sequence: ${fmtBytes(r.kvBytesPerToken)}.`],
      ];
    },
    assumptions: "The full context is cached for every sequence, stored at the stated precision; weights, activations and fragmentation come on top.",
    check: "Compute the cache before deploying. Halve it by a shorter context, a smaller batch, or 8-bit cache values, and measure memory again.",
  },
  {
    id: "speed",
    symptom: "Speed",
    story: "Generation is too slow. A small draft model agrees with the large model on 60% of tokens and costs 1/20 of a large-model step.",
    mechanism: "Speculative decoding lets the draft propose γ tokens that the large model checks in one call; with acceptance rate α each call yields (1 − α^(γ+1))/(1 − α) tokens on average.",
    section: "speculative",
    inputs: [
      { key: "alpha", name: "alpha", label: "acceptance rate α", min: 0, max: 1, step: 0.01, value: 0.6,
        doc: "Speed: the rate α at which the large model accepts a drafted token." },
      { key: "gamma", name: "gamma", type: "integer", label: "draft length γ", min: 0, max: 32, step: 1, value: 4,
        doc: "Speed: the number γ of tokens the draft model proposes per large-model call." },
      { key: "c", name: "cost-ratio", label: "cost ratio c", min: 0, max: 1, step: 0.01, value: 0.05,
        doc: "Speed: the cost c of one draft step relative to one large-model step." },
    ],
    compute(core, v) {
      const r = core.speculativeDecoding({ alpha: v.alpha, gamma: v.gamma, costRatio: v.c });
      return [
        ["Expected tokens per large-model call: ", h("strong", {}, fmt(r.expectedTokens, 3)), ` (ceiling ${fmt(r.ceiling, 3)} as γ grows).`],
        ["Walltime improvement ", `(1 − α^(γ+1)) / ((1 − α)(γc + 1)) = `, h("strong", {}, `${fmt(r.speedup, 3)}×`)],
      ];
    },
    assumptions: "Acceptances independent from token to token at a constant rate α, and the large model's call costing the same for γ + 1 tokens as for one (Leviathan et al., 2023).",
    check: "Measure the acceptance rate on your own prompts before adopting a draft model; below α ≈ c nothing is gained.",
  },
  {
    id: "precision",
    symptom: "Numeric precision",
    story: "After 8-bit quantisation a model's answers get worse. One activation channel reaches 60 while the others stay below 1.",
    mechanism: "Symmetric quantisation uses one step for the whole tensor, set by its largest magnitude. An outlier makes the step coarse, and small values round to a few levels or to zero.",
    section: "quantization",
    inputs: [
      { key: "outlier", name: "outlier", label: "outlier magnitude", min: 1, max: 200, step: 1, value: 60,
        doc: "Numeric precision: the magnitude of the outlier activation." },
      { key: "bits", name: "bits", type: "integer", label: "bits", min: 2, max: 16, step: 1, value: 8,
        doc: "Numeric precision: the number of bits of the symmetric quantisation." },
    ],
    compute(core, v) {
      const values = [v.outlier, 0.82, -0.37, 0.15, -0.06];
      const q = core.quantize(values, { bits: v.bits });
      const small = core.quantize(values.slice(1), { bits: v.bits });
      return [
        [`Values (${values.map((x) => fmt(x)).join(", ")}) at ${v.bits} bits: step `, h("strong", {}, fmt(q.scale, 4)), `, levels (${q.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(q.maxAbsError, 4)}.`],
        ["Without the outlier the step would be ", h("strong", {}, fmt(small.scale, 5)), ` and the largest error ${fmt(small.maxAbsError, 5)}.`],
      ];
    },
    assumptions: "Per-tensor symmetric quantisation with round-to-nearest; per-channel scales or keeping outliers in higher precision change the picture.",
    check: "Compare quantised and full-precision outputs on your own data, look for outlier channels, and try SmoothQuant's migration of scale into the weights.",
  },
];
