// Copy as NumPy for Figure 9.1, <llm-diagnose> (diagnose.js): the small calculation of the
// scenario shown, once its mechanism is found (site/src/numpy.js says what every program
// does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt, pyList, pyStrings, SPLITMIX } from "../numpy.js";
import { stateKey } from "./attributes.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const id = r?.id;
  const scenario = DIAGNOSE[id];
  if (!scenario) throw new Error(`no NumPy program for the scenario ${id}`);
  const v = Object.fromEntries(Object.entries(scenario.inputs).map(([key, name]) => [key, s[stateKey(`${id}-${name}`)]]));
  return `# Scenario "${id}": its small calculation with the numbers in the figure.
${HEADER}${scenario.program(v)}`;
};

// The scenarios of the diagnosis figure (widgets/diagnose-scenarios.js): for each, its inputs
// (compute's key → the input's attribute name) and its calculation with their values.
const dilution = {
  inputs: { a: "relevant-score", b: "distractor-score", n: "distractors", trimmed: "trimmed" },
  program: (v) => `# Context dilution (section 1): one relevant key among n distractors, before and after trimming.
a, b, n, trimmed = ${py(v.a)}, ${py(v.b)}, ${pyInt(v.n)}, ${pyInt(v.trimmed)}
show("relevant_weight", np.exp(a) / (np.exp(a) + n * np.exp(b)))
show("relevant_weight_trimmed", np.exp(a) / (np.exp(a) + trimmed * np.exp(b)))
`,
};
const years = (tokens, seed) => ({
  inputs: { z1: "z1", z2: "z2", z3: "z3", T: "temperature" },
  program: (v) => `# Sampling (section 2): the year drawn at temperature T, ten seeded draws, and greedy decoding.
${SPLITMIX}
tokens = ${pyStrings(tokens)}
z = np.array(${pyList([v.z1, v.z2, v.z3])}, dtype=float)  # logits
T, seed = ${py(v.T)}, ${seed}
top = int(np.argmax(z))  # greedy (T = 0): the first of the largest logits
if T == 0:
    probs = np.zeros(len(z))
    probs[top] = 1.0
else:
    w = np.exp((z - z[top]) / T)  # softmax(z / T), relative to the top logit
    probs = w / w.sum()
cdf = np.cumsum(probs)
last = np.flatnonzero(probs)[-1]
u = splitmix64(seed)  # inverse CDF with the core's uniforms
draws = [min(int(np.searchsorted(cdf, next(u) * cdf[-1], side="right")), last) for _ in range(10)]
show("probs", probs)
show("draws", draws)
show("drawn", [tokens[t] for t in draws])
show("greedy_token", tokens[top])  # at T = 0 every run says this
`,
});
const cache = (shape) => ({
  inputs: { tokens: "tokens", batch: "batch", bytesPerValue: "bytes-per-value" },
  program: (v) => `# The key-value cache (section 4) of a model of ${shape.layers} layers, ${shape.kvHeads} key-value heads of dimension ${shape.headDim}.
n, b, p = ${pyInt(v.tokens)}, ${pyInt(v.batch)}, ${py(v.bytesPerValue)}
kv, d, layers = ${shape.kvHeads}, ${shape.headDim}, ${shape.layers}
num, den = p.as_integer_ratio()  # exact: the counts are Python integers
show("kv_bytes", 2 * b * n * kv * d * layers * num / den)
show("kv_bytes_per_token", 2 * kv * d * layers * num / den)
`,
});
const speculation = {
  inputs: { alpha: "alpha", gamma: "gamma", c: "cost-ratio" },
  program: (v) => `# Speculative decoding (section 5): eq. 1 and the walltime improvement.
alpha, gamma, c = ${py(v.alpha)}, ${pyInt(v.gamma)}, ${py(v.c)}
E = gamma + 1.0 if alpha == 1 else (1 - alpha ** (gamma + 1)) / (1 - alpha)
show("expected_tokens", E)
show("ceiling", np.inf if alpha == 1 else 1 / (1 - alpha))
show("speedup", E / (gamma * c + 1))
`,
};
const QUANTIZE = `qmax_of = lambda bits: 2.0 ** (bits - 1) - 1


def quantize(x, bits):
    """Symmetric per-tensor: step max|x| / qmax, levels rounded half to even and clamped."""
    qmax = qmax_of(bits)
    step = np.abs(x).max() / qmax if np.abs(x).max() > 0 else 1.0
    levels = np.clip(np.rint(x / step), -qmax, qmax) + 0.0
    return step, levels, np.abs(x - levels * step).max()
`;

const DIAGNOSE = {
  "refund-policy": dilution,
  warranty: dilution,
  treaty: years(["1919", "1920", "1918"], 7),
  eiffel: years(["1887", "1889", "1888"], 11),
  contract: {
    inputs: { heads: "heads", distance: "distance" },
    program: (v) => `# ALiBi (section 6): the steepest and the gentlest head, and the gentlest head's factor far back.
heads, distance = ${pyInt(v.heads)}, ${pyInt(v.distance)}
p = 1
while 2 * p <= heads:
    p *= 2
slopes = np.concatenate([np.exp2(-8.0 * np.arange(1, p + 1) / p),
                         np.exp2(-8.0 * np.arange(1, 2 * (heads - p), 2) / (2 * p))])
steep, gentle = int(np.argmax(slopes)), int(np.argmin(slopes))  # first occurrences
show("steepest_head", steep + 1)
show("steepest_slope", slopes[steep])
show("steepest_half_distance", np.log(2.0) / slopes[steep])
show("gentlest_head", gentle + 1)
show("gentlest_slope", slopes[gentle])
show("gentlest_half_distance", np.log(2.0) / slopes[gentle])
show("far_weight_factor", np.exp(-slopes[gentle] * distance))
`,
  },
  "long-report": {
    inputs: { trained: "trained-length", offset: "offset", base: "base" },
    program: (v) => `# Rotary embeddings (section 3): how far the slowest pair of a head of dimension 128 turns.
trained, offset, base, d = ${pyInt(v.trained)}, ${pyInt(v.offset)}, ${py(v.base)}, 128
theta = base ** (-2 * np.arange(d // 2) / d)  # θ_i = base^(-2i/d); the last pair is the slowest
show("slowest_theta", theta[-1])
show("angle_at_trained_length", trained * theta[-1])
show("angle_at_offset", offset * theta[-1])
`,
  },
  serving: cache({ heads: 32, kvHeads: 8, headDim: 128, layers: 32 }),
  batch: cache({ heads: 32, kvHeads: 32, headDim: 128, layers: 32 }),
  "slow-chat": speculation,
  "slow-draft": speculation,
  outlier: {
    inputs: { outlier: "outlier", bits: "bits" },
    program: (v) => `# Quantisation (section 7): one outlier sets the step for every value.
${QUANTIZE}
bits = ${pyInt(v.bits)}
values = np.array(${pyList([v.outlier, 0.82, -0.37, 0.15, -0.06])}, dtype=float)
step, levels, error = quantize(values, bits)
show("step", step)
show("levels", levels)
show("max_error", error)
step_small, _, error_small = quantize(values[1:], bits)  # without the outlier
show("step_without_outlier", step_small)
show("max_error_without_outlier", error_small)
`,
  },
  "four-bit": {
    inputs: { largest: "largest", bits: "bits", before: "before-bits" },
    program: (v) => `# Quantisation (section 7): a row of weights at two bit widths.
${QUANTIZE}
bits, before = ${pyInt(v.bits)}, ${pyInt(v.before)}
values = np.array(${pyList([v.largest, 0.04, -0.03, 0.02, -0.01])}, dtype=float)
for name, b in [("", bits), ("before_", before)]:
    step, levels, error = quantize(values, b)
    show(name + "qmax", qmax_of(b))
    show(name + "step", step)
    show(name + "levels", levels)
    show(name + "max_error", error)
`,
  },
};
