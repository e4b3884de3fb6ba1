// Figure 9.1, <llm-diagnose> (diagnose.js), as the pages, the build and the tests know it (see
// figures.js): its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyInt, pyList, pyStrings } from "../numpy.js";
import { stateKey } from "./attributes.js";

export const diagnose = {
  tag: "llm-diagnose",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "diagnose.js",
  id: "diagnose-figure",
  section: "diagnose",
  // Download SVG and PNG: the scenario's title and story, and its calculation once found.
  picture: [".diagnose-title", ".diagnose-story", ".diagnose-lines"],
  // Copy as NumPy (takeaway.js): a Python program of the small calculation of the scenario shown,
  // once its mechanism is found, for the widget's state and result (site/src/numpy.js says what
  // every program does). Its scenarios are keyed here by id (DIAGNOSE, below), beside
  // diagnose-scenarios.js's.
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const id = r?.id;
  const scenario = DIAGNOSE[id];
  if (!scenario) throw new Error(`no NumPy program for the scenario ${id}`);
  const v = Object.fromEntries(
    Object.entries(scenario.inputs).map(([key, name]) => [key, s[stateKey(`${id}-${name}`)]]),
  );
  return program(
    `# Scenario "${id}": ${scenario.title}
# With the figure's numbers; the functions are reference/${scenario.module}.py's, the code the core is tested against.`,
    scenario.uses,
    scenario.driver(v),
  );
}

// The scenarios of the diagnosis figure (widgets/diagnose-scenarios.js): for each, its inputs
// (compute's key → the input's attribute name), the reference functions its calculation calls
// and the driver that calls them with the inputs' values.
const dilution = {
  inputs: { a: "relevant-score", b: "distractor-score", n: "distractors", trimmed: "trimmed" },
  title: "Context dilution (section 1): one relevant key among n distractors, before and after trimming.",
  module: "attention",
  uses: ["context_dilution"],
  driver: (v) => `a, b, n, trimmed = ${py(v.a)}, ${py(v.b)}, ${pyInt(v.n)}, ${pyInt(v.trimmed)}
show("relevant_weight", context_dilution(a, b, n)["relevant_weight"])
show("relevant_weight_trimmed", context_dilution(a, b, trimmed)["relevant_weight"])`,
};
const years = (tokens, seed) => ({
  inputs: { z1: "z1", z2: "z2", z3: "z3", T: "temperature" },
  title: "Sampling (section 2): the year drawn at temperature T, ten seeded draws, and greedy decoding.",
  module: "sampling",
  uses: ["sampling", "splitmix64", "sample"],
  driver: (v) => `tokens = ${pyStrings(tokens)}
z = np.array(${pyList([v.z1, v.z2, v.z3])}, dtype=float)  # logits
T, seed = ${py(v.T)}, ${seed}
probs = sampling(logits=z, temperature=T)["probs"]
u = splitmix64(seed)  # inverse CDF with the core's uniforms
draws = sample(probs, [next(u) for _ in range(10)])
show("probs", probs)
show("draws", draws)
show("drawn", [tokens[t] for t in draws])
greedy = sampling(logits=z, temperature=0)["kept"][0]  # at T = 0 every run says this
show("greedy_token", tokens[greedy])`,
});
const cache = (shape) => ({
  inputs: { tokens: "tokens", batch: "batch", bytesPerValue: "bytes-per-value" },
  title: `The key-value cache (section 4) of a model of ${shape.layers} layers, ${shape.kvHeads} key-value heads of dimension ${shape.headDim}.`,
  module: "cost",
  uses: ["attention_cost"],
  driver: (v) => `tokens, batch, bytes_per_value = ${pyInt(v.tokens)}, ${pyInt(v.batch)}, ${py(v.bytesPerValue)}
r = attention_cost(tokens, heads=${shape.heads}, head_dim=${shape.headDim}, layers=${shape.layers}, kv_heads=${shape.kvHeads}, batch=batch,
                   bytes_per_value=bytes_per_value)
for name in ["kv_bytes", "kv_bytes_per_token"]:
    show(name, r[name])`,
});
const speculation = {
  inputs: { alpha: "alpha", gamma: "gamma", c: "cost-ratio" },
  title: "Speculative decoding (section 5): eq. 1 and the walltime improvement.",
  module: "speculative",
  uses: ["speculative_decoding"],
  driver: (v) => `alpha, gamma, c = ${py(v.alpha)}, ${pyInt(v.gamma)}, ${py(v.c)}
r = speculative_decoding(alpha, gamma, c)
for name in ["expected_tokens", "ceiling", "speedup"]:
    show(name, r[name])`,
};

const DIAGNOSE = {
  "refund-policy": dilution,
  warranty: dilution,
  treaty: years(["1919", "1920", "1918"], 7),
  eiffel: years(["1887", "1889", "1888"], 11),
  contract: {
    inputs: { heads: "heads", distance: "distance" },
    title: "ALiBi (section 6): the steepest and the gentlest head, and the gentlest head's factor far back.",
    module: "alibi",
    uses: ["alibi_heads", "alibi_decay"],
    driver: (v) => `heads, distance = ${pyInt(v.heads)}, ${pyInt(v.distance)}
h = alibi_heads(heads)
for name in ["steepest", "gentlest"]:
    head, slope, half_distance = h[name]
    show(name + "_head", head)
    show(name + "_slope", slope)
    show(name + "_half_distance", half_distance)
show("far_weight_factor", alibi_decay(h["gentlest"][1], distance + 1)[distance])`,
  },
  "long-report": {
    inputs: { trained: "trained-length", offset: "offset", base: "base" },
    title: "Rotary embeddings (section 3): how far the slowest pair of a head of dimension 128 turns.",
    module: "rope",
    uses: ["rope"],
    driver: (v) => `trained, offset, base, d = ${pyInt(v.trained)}, ${pyInt(v.offset)}, ${py(v.base)}, 128
unit = np.eye(d)[0]  # any q and k: only the angles are asked for
at_trained, at_offset = rope(unit, unit, trained, 0, base=base), rope(unit, unit, offset, 0, base=base)
show("slowest_theta", at_trained["thetas"][-1])  # θ_i = base^(-2i/d): the last pair is the slowest
show("angle_at_trained_length", at_trained["angles"][-1][0])
show("angle_at_offset", at_offset["angles"][-1][0])`,
  },
  serving: cache({ heads: 32, kvHeads: 8, headDim: 128, layers: 32 }),
  batch: cache({ heads: 32, kvHeads: 32, headDim: 128, layers: 32 }),
  "slow-chat": speculation,
  "slow-draft": speculation,
  outlier: {
    inputs: { outlier: "outlier", bits: "bits" },
    title: "Quantisation (section 7): one outlier sets the scale Δ for every value.",
    module: "quantization",
    uses: ["quantize"],
    driver: (v) => `bits = ${pyInt(v.bits)}
values = np.array(${pyList([v.outlier, 0.82, -0.37, 0.15, -0.06])}, dtype=float)
q = quantize(values, bits)
show("scale", q["scale"])
show("levels", q["levels"])
show("max_error", q["max_abs_error"])
q = quantize(values[1:], bits)  # without the outlier
show("scale_without_outlier", q["scale"])
show("max_error_without_outlier", q["max_abs_error"])`,
  },
  "four-bit": {
    inputs: { largest: "largest", bits: "bits", before: "before-bits" },
    title: "Quantisation (section 7): a row of weights at two bit widths.",
    module: "quantization",
    uses: ["quantize"],
    driver: (v) => `bits, before = ${pyInt(v.bits)}, ${pyInt(v.before)}
values = np.array(${pyList([v.largest, 0.04, -0.03, 0.02, -0.01])}, dtype=float)
for prefix, b in [("", bits), ("before_", before)]:
    q = quantize(values, b)
    show(prefix + "qmax", q["qmax"])
    show(prefix + "scale", q["scale"])
    show(prefix + "levels", q["levels"])
    show(prefix + "max_error", q["max_abs_error"])`,
  },
};
