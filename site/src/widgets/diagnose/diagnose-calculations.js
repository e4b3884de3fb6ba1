// The calculations of Figure 9.1's scenarios, by name. A scenario (its data file in
// site/scenarios/, read by site/scenarios.mjs) names one as { "use": name, "with": arguments }:
// the figure calls calculations[use](core, values, models, with), where values are the scenario's
// inputs by key and models the real models' configurations by id (llmmath:model-presets, which
// diagnose.js passes in, so that this module stays plain code that Node can import). Each
// returns the calculation's lines, every number from the core.
//
// `calculationArgs` lists each calculation's arguments: site/scenarios.mjs checks a scenario's
// `with` against it, and that a `model`, `compared` or `device` names a real model or a device of
// Figure 4.2's picker. A scenario about a real model reads its committed config.json
// (data/models/) with the core, never a shape typed here.
import { h, sym } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, fmtRate, fmtSeconds, grouped, pct } from "../../format.js";
import { deviceById } from "../model/model-devices.js";

const int = (x) => grouped(x);
const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x)));
const strong = (...children) => h("strong", {}, ...children);

/** One relevant key among n distractors, before and after trimming (section 1). */
function dilution(core, v, { whole, trimmed }) {
  const before = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.n });
  const after = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.trimmed });
  return [
    [
      `${whole}: `,
      sym("w"),
      " = ",
      exp(v.a),
      " / (",
      exp(v.a),
      ` + ${int(v.n)}·`,
      exp(v.b),
      ") = ",
      strong(pct(before.relevantWeight, 2)),
    ],
    [`${trimmed} (${int(v.trimmed)} other tokens): `, strong(pct(after.relevantWeight, 2))],
  ];
}

/** The year a sampler draws at temperature T, ten seeded draws, and what greedy decoding says. */
function years(core, v, tokens, seed) {
  const logits = [v.z1, v.z2, v.z3];
  const r = core.sampling({ logits }, { temperature: v.T });
  const greedy = core.sampling({ logits }, { temperature: 0 });
  const draws = core.sample(r.probs, { count: 10, seed });
  return [
    [`At T = ${fmt(v.T)}: `, tokens.map((t, i) => `P(${t}) = ${pct(r.probs[i], 1)}`).join(", "), "."],
    [`Ten draws at T = ${fmt(v.T)} (seed ${seed}): `, strong(draws.map((i) => tokens[i]).join(", "))],
    [
      "At T = 0 (greedy) every run says “",
      strong(tokens[greedy.kept[0]]),
      "”: repeatable, and only as right as the most probable token.",
    ],
  ];
}

/** The key–value cache of `batch` sequences of a model's shape (section 4). */
function cache(core, v, shape) {
  const r = core.attentionCost({ ...shape, tokens: v.tokens, batch: v.batch, kvBytesPerElement: v.kvBytesPerElement });
  return [
    [
      "KV cache = 2 · ",
      `${int(v.batch)} · ${int(v.tokens)} · ${shape.kvHeads} · ${shape.headDim} · ${shape.layers} layers · ${fmt(v.kvBytesPerElement)} bytes = `,
      strong(fmtBytes(r.kvBytes)),
    ],
    [`Per token of one sequence: ${fmtBytes(r.kvBytesPerToken)}.`],
  ];
}

/** Bytes in a GiB: the scenarios' memory sizes are in GiB, as Figure 4.2 counts an accelerator's. */
const GIB = 2 ** 30;

/** A real model's name and shape, the core's reading of its committed config.json. */
function realModel(core, models, id) {
  const preset = models[id];
  if (!preset) throw new Error(`no configuration of the model ${id} among data/models`);
  return { name: preset.name, shape: core.modelFromConfigText(preset.text) };
}

/** The layers of one kind in a modelCost result (its byKind lists each kind present once). */
const ofKind = (r, kind) => r.byKind.find((k) => k.kind === kind);

/** Expected tokens per target call and the walltime improvement (section 5). */
function speculation(core, v) {
  const r = core.speculativeDecoding({ alpha: v.alpha, gamma: v.gamma, costRatio: v.c });
  return [
    [
      "Expected tokens per large-model call: (1 − α",
      h("sup", {}, "γ+1"),
      ") / (1 − α) = ",
      strong(fmt(r.expectedTokens, 3)),
      ` (ceiling ${fmt(r.ceiling, 3)} as γ grows).`,
    ],
    [
      "Walltime improvement (1 − α",
      h("sup", {}, "γ+1"),
      ") / ((1 − α)(γc + 1)) = ",
      strong(`${fmt(r.speedup, 3)}×`),
      " (below 1 means slower than without a draft).",
    ],
  ];
}

/**
 * Every calculation a scenario can name, (core, values, models, args) → lines. The shared ones
 * above take their labels or fixed numbers from the scenario's `with`.
 */
export const calculations = {
  dilution: (core, v, _models, args) => dilution(core, v, args),
  years: (core, v, _models, { tokens, seed }) => years(core, v, tokens, seed),
  cache: (core, v, _models, { shape }) => cache(core, v, shape),
  speculation: (core, v) => speculation(core, v),
  "alibi-extremes"(core, v) {
    // The core finds the extremes by comparing every slope: for a head count that is not a
    // power of two they are not the first and the last head (12 heads: heads 9 and 8).
    const { steepest, gentlest } = core.alibiHeads(v.heads);
    const far = core.alibi({ slope: gentlest.slope, distances: v.distance + 1 }).relativeWeight[v.distance];
    return [
      [
        `Of ${v.heads} heads the steepest is head ${steepest.head} (`,
        sym("m"),
        ` = ${fmt(steepest.slope, 4)}): it halves a key's weight every `,
        strong(`${fmt(steepest.halfDistance, 2)} tokens`),
        ".",
      ],
      [
        `The gentlest is head ${gentlest.head} (`,
        sym("m"),
        ` = ${fmt(gentlest.slope, 6)}): it halves it every `,
        strong(`${fmt(gentlest.halfDistance, 1)} tokens`),
        ".",
      ],
      [
        `${int(v.distance)} tokens back, even the gentlest head scales the definition's weight by `,
        "e",
        h("sup", {}, `−m·${int(v.distance)}`),
        " = ",
        strong(fmt(far, 4)),
        " of what it would have next to the clause.",
      ],
    ];
  },
  "rope-slowest-pair"(core, v, _models, { headDim }) {
    const d = headDim;
    // Only the angles are read, so any query and key will do.
    const unit = Array.from({ length: d }, (_, i) => (i === 0 ? 1 : 0));
    const trained = core.rope(unit, unit, v.trained, 0, { base: v.base });
    const used = core.rope(unit, unit, v.offset, 0, { base: v.base });
    // θ_i = base^(−2i/d) falls with i for every base > 1: the last pair turns slowest.
    const slow = d / 2 - 1;
    return [
      [`With d = ${d} the slowest pair turns θ = `, strong(fmt(trained.thetas[slow], 7)), " radians per token."],
      [
        `At ${int(v.trained)} tokens, the trained length, it has turned `,
        strong(`${fmt(trained.angles[slow][0], 3)} radians`),
        ": the furthest training showed it.",
      ],
      [`At ${int(v.offset)} tokens back it turns `, strong(`${fmt(used.angles[slow][0], 3)} radians`), "."],
    ];
  },
  "sliding-layers"(core, v, models, { model }) {
    const { name, shape } = realModel(core, models, model);
    const opts = { tokens: v.tokens, kvBytesPerElement: 2, weightBytesPerParam: 2, memoryBytes: v.memory * GIB };
    const r = core.modelCost(shape, opts);
    // The same model if its sliding layers held every token: its own shape, every layer full.
    const every = core.modelCost({ ...shape, layerKinds: shape.layerKinds.map(() => "full") }, opts);
    // What each kind of layer holds at a context that reaches back to the line: a layer sees the
    // line when it holds every one of those tokens.
    const far = core.modelCost(shape, { tokens: v.back });
    const [full, sliding] = [ofKind(r, "full"), ofKind(r, "sliding")];
    const [farFull, farSliding] = [ofKind(far, "full"), ofKind(far, "sliding")];
    return [
      [
        `${name}, read from its config.json: ${int(shape.layers)} layers; ${int(sliding.layers)} sliding layers hold the last ${int(shape.window)} tokens, ${int(full.layers)} full layers every token; ${int(shape.kvHeads)} key–value heads of dimension ${int(shape.headDim)}.`,
      ],
      [
        `At ${int(v.tokens)} tokens, 2 bytes per value: the full layers' cache `,
        strong(fmtBytes(full.bytes)),
        ", the sliding layers' ",
        strong(fmtBytes(sliding.bytes)),
        "; in all ",
        strong(fmtBytes(r.kvBytes)),
        ". If the sliding layers held every token: ",
        strong(fmtBytes(every.kvBytes)),
        ".",
      ],
      [
        `In ${grouped(v.memory)} GiB beside the weights (${fmtBytes(r.weightsBytes)}), the model as it is fits a log of up to `,
        strong(int(r.fit.maxTokens)),
        " tokens; with every layer holding every token, up to ",
        strong(int(every.fit.maxTokens)),
        ".",
      ],
      [
        `A line ${int(v.back)} tokens from the end: each full layer holds the last `,
        strong(int(farFull.tokensHeld)),
        ` tokens, so all ${int(farFull.layers)} full layers see it; each sliding layer holds the last `,
        strong(int(farSliding.tokensHeld)),
        farSliding.tokensHeld === v.back
          ? `, so the ${int(farSliding.layers)} sliding layers see it too.`
          : `, so none of the ${int(farSliding.layers)} sliding layers does.`,
      ],
    ];
  },
  "latent-cache"(core, v, models, { model, compared }) {
    const { name, shape } = realModel(core, models, model);
    const gqa = realModel(core, models, compared);
    const opts = {
      tokens: v.tokens,
      kvBytesPerElement: v.kvBytesPerElement,
      weightBytesPerParam: 1,
      memoryBytes: v.memory * GIB,
    };
    // The engine keeps the latent (vLLM, SGLang); transformers' DeepSeek-V3 keeps every head's
    // keys and values, expanded from it.
    const engine = core.modelCost(shape, { ...opts, batch: v.batch, mlaCache: "latent" });
    const script = core.modelCost(shape, { ...opts, batch: 1, mlaCache: "expanded" });
    const other = core.modelCost(gqa.shape, { tokens: v.tokens, kvBytesPerElement: v.kvBytesPerElement });
    const m = shape.mla;
    const bytes = `${fmt(v.kvBytesPerElement)} byte${v.kvBytesPerElement === 1 ? "" : "s"}`;
    return [
      [
        `${name}, read from its config.json: ${int(shape.layers)} layers of latent attention. The engine keeps per token and layer the latent (${int(m.kvLoraRank)}) and the rotary key (${int(m.qkRopeHeadDim)}): ${int(shape.layers)} · (${int(m.kvLoraRank)} + ${int(m.qkRopeHeadDim)}) · ${bytes} = `,
        strong(fmtBytes(engine.kvBytesPerToken)),
        " per token.",
      ],
      [
        `The script keeps every head's keys and values: ${int(shape.layers)} · ${int(shape.heads)} · (${int(shape.headDim)} + ${int(shape.vHeadDim)}) · ${bytes} = `,
        strong(fmtBytes(script.kvBytesPerToken)),
        " per token.",
      ],
      [
        `In ${grouped(v.memory)} GiB beside the weights (${grouped(engine.params.total)} parameters at 1 byte: ${fmtBytes(engine.weightsBytes)}), the engine's ${int(v.batch)} sessions of ${int(v.tokens)} tokens keep `,
        strong(fmtBytes(engine.kvBytes)),
        ", and up to ",
        strong(int(engine.fit.maxBatch)),
        " such sessions fit.",
      ],
      [
        `The script's one session of ${int(v.tokens)} tokens would keep `,
        strong(fmtBytes(script.kvBytes)),
        "; one session fits up to ",
        strong(int(script.fit.maxTokens)),
        " tokens.",
      ],
      [
        `${gqa.name}, whose ${int(gqa.shape.heads)} query heads share ${int(gqa.shape.kvHeads)} key–value heads, keeps `,
        strong(fmtBytes(other.kvBytesPerToken)),
        ` per token with ${grouped(other.params.total)} parameters; ${name}'s latent, with ${grouped(engine.params.total)}, keeps less.`,
      ],
    ];
  },
  "expert-reads"(core, v, models, { model, device }) {
    const { name, shape } = realModel(core, models, model);
    const devices = {
      count: 1,
      memoryBytes: deviceById(device).memoryMiB * 2 ** 20,
      bandwidthBytesPerSecond: v.bandwidth * 1e9,
      flopsPerSecond: v.peak * 1e12,
    };
    // The decoding floor of one step (modelCost's decode): one developer's, then all of theirs.
    const alone = core.modelCost(shape, { tokens: v.tokens, batch: 1, devices });
    const all = core.modelCost(shape, { tokens: v.tokens, batch: v.users, devices });
    const [one, d] = [alone.decode, all.decode];
    const m = shape.moe;
    return [
      [
        `${name}, read from its config.json: ${int(m.experts)} experts in each of ${int(m.moeLayers)} layers, ${int(m.expertsPerToken)} per token; a token uses ${grouped(all.params.active)} of its ${grouped(all.params.total)} parameters, stored in ${fmtBytes(all.weightsBytes)} (${all.weightsFormat}).`,
      ],
      [
        `One developer: a step reads `,
        strong(fmtBytes(one.weightsBytesRead)),
        ` of weights (${fmt(one.expertsTouched, 1)} experts a layer) and ${fmtBytes(one.kvBytesRead)} of keys and values, ${fmtSeconds(one.memorySeconds)} at ${grouped(v.bandwidth)} GB/s: at most `,
        strong(`${fmtRate(one.tokensPerSecond)} tokens a second`),
        ".",
      ],
      [
        `${int(v.users)} developers: their tokens touch `,
        strong(`${fmt(d.expertsTouched, 1)} experts`),
        ` of each layer's ${int(m.experts)}, so a step reads ${fmtBytes(d.weightsBytesRead)} of weights and ${fmtBytes(d.kvBytesRead)} of keys and values, `,
        strong(fmtBytes(d.bytesPerStep)),
        ` in all; ${int(Math.round(d.bytesPerStep))} bytes ÷ ${grouped(v.bandwidth)} GB/s = ${fmtSeconds(d.memorySeconds)}.`,
      ],
      [
        `Its arithmetic, ${fmtCount(d.flopsPerStep, 4)} operations at ${grouped(v.peak)} TFLOPS, takes ${fmtSeconds(d.computeSeconds)}: the step is ${d.bound}-bound.`,
      ],
      [
        `The step writes one token for each developer, so each gets a token every ${fmtSeconds(d.secondsPerStep)}: at most `,
        strong(`${fmtRate(d.tokensPerSecond)} tokens a second`),
        ` for all ${int(v.users)} together.`,
      ],
    ];
  },
  "shared-scale"(core, v, _models, { others }) {
    const values = [v.outlier, ...others];
    const q = core.quantize(values, { bits: v.bits });
    const small = core.quantize(values.slice(1), { bits: v.bits });
    return [
      [
        `Values (${values.map((x) => fmt(x)).join(", ")}) at ${v.bits} bits: scale Δ `,
        strong(fmt(q.scale, 4)),
        `, levels (${q.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(q.maxAbsError, 4)}.`,
      ],
      [
        "Without the outlier the scale Δ would be ",
        strong(fmt(small.scale, 5)),
        ` and the largest error ${fmt(small.maxAbsError, 5)}.`,
      ],
    ];
  },
  "bit-widths"(core, v, _models, { others }) {
    const values = [v.largest, ...others];
    const q = core.quantize(values, { bits: v.bits });
    const before = core.quantize(values, { bits: v.before });
    return [
      [
        `Values (${values.map((x) => fmt(x)).join(", ")}) at ${v.bits} bits: levels −${q.qmax} … ${q.qmax}, scale Δ `,
        strong(fmt(q.scale, 4)),
        `, levels (${q.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(q.maxAbsError, 4)}.`,
      ],
      [
        `At ${v.before} bits: levels −${before.qmax} … ${before.qmax}, scale Δ `,
        strong(fmt(before.scale, 5)),
        `, levels (${before.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(before.maxAbsError, 5)}.`,
      ],
    ];
  },
};

/** Each calculation's arguments (the keys of a scenario's `with`), checked by site/scenarios.mjs. */
export const calculationArgs = {
  dilution: ["whole", "trimmed"],
  years: ["tokens", "seed"],
  cache: ["shape"],
  speculation: [],
  "alibi-extremes": [],
  "rope-slowest-pair": ["headDim"],
  "sliding-layers": ["model"],
  "latent-cache": ["model", "compared"],
  "expert-reads": ["model", "device"],
  "shared-scale": ["others"],
  "bit-widths": ["others"],
};
