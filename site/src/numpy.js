// "Copy as NumPy": for each figure, a short Python 3 program that recomputes the figure's numbers
// from its current inputs with NumPy alone, so that a reader can check them in a notebook. This
// file writes program text: it formats the inputs as Python literals and never computes a number
// of the chapter itself (the programs do, and the figure's own numbers come from the core).
//
// Every program prints one line per quantity, `name = value`, the value as Python writes a float
// or a (nested) list of them at full precision: the figure rounds for display, the program does
// not. The formulas follow the core (core/include/llmmath/<concept>.hpp) step by step, including
// its tie rules, tolerances and clamps, so the printed numbers agree with the figure's to the last
// digits (floating-point summation order aside); tests/browser/takeaway.test.js runs every program
// and compares.

/** A number as a Python literal that reads back as the same double. */
export function py(x) {
  if (typeof x === "boolean") return x ? "True" : "False";
  if (Number.isNaN(x)) return "float('nan')";
  if (!Number.isFinite(x)) return x > 0 ? "float('inf')" : "-float('inf')";
  // JavaScript's shortest round-trip form is also Python's (1e+21 reads as a float in both).
  return Object.is(x, -0) ? "0.0" : String(x);
}

/** A whole number as a Python int (exact at any size the figures allow). */
const pyInt = (x) => (Number.isSafeInteger(x) ? String(x) : py(x));
/** A list of numbers, a matrix (list of rows) or a list of strings as Python literals. */
const pyList = (xs) => `[${xs.map(py).join(", ")}]`;
const pyMatrix = (M) => `[${M.map(pyList).join(",\n     ")}]`;
const pyStrings = (xs) => `[${xs.map((s) => JSON.stringify(String(s))).join(", ")}]`;

const HEADER = `import numpy as np


def show(name, x):
    """One quantity per line, at full precision: name = value."""
    print(name, "=", repr(np.asarray(x).tolist()))
`;

// SplitMix64 as the core's (core/src/sampling.cpp), yielding uniforms k·2^-53 in [0, 1).
const SPLITMIX = `
def splitmix64(seed):
    """The core's generator: SplitMix64, uniforms from its top 53 bits."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        yield ((z ^ (z >> 31)) >> 11) * 2.0**-53
`;

/** The program for a figure: `tag` its element name, `state` and `result` the widget's. */
export function numpySnippet(tag, state, result) {
  const write = SNIPPETS[tag];
  if (!write) throw new Error(`no NumPy program for <${tag}>`);
  return write(state, result).replace(/^\n+/, "");
}

const SNIPPETS = {
  "llm-attention": (s) => `# Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with the figure's Q, K, V.
# Core: core/include/llmmath/attention.hpp.
${HEADER}
tokens = ${pyStrings(s.tokens)}
Q = np.array(${pyMatrix(s.q)}, dtype=float)  # (n, d)
K = np.array(${pyMatrix(s.k)}, dtype=float)  # (n, d)
V = np.array(${pyMatrix(s.v)}, dtype=float)  # (n, dv)
causal = ${py(s.causal)}

n, d = Q.shape
scale = 1 / np.sqrt(d)
S = scale * (Q @ K.T)  # (n, n) scores, before the mask
# the causal mask: query i sees keys 0 … i; masked keys are left out before the softmax
visible = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
row_max = np.where(visible, S, -np.inf).max(axis=1, keepdims=True)
E = np.where(visible, np.exp(S - row_max), 0.0)  # stable softmax: shifted by the row maximum
W = E / E.sum(axis=1, keepdims=True)  # (n, n) weights, masked entries exactly 0
O = W @ V  # (n, dv) outputs

show("scale", scale)
show("scores", S)
show("weights", W)
show("output", O)
`,

  "llm-context-dilution": (s, r) => {
    const { relevantScore: a, distractorScore: b, distractors: n } = r?.cfg ?? s;
    return `# Context dilution: the weight one relevant key (score a) keeps among n distractors (score b).
# Core: contextDilution, core/include/llmmath/attention.hpp.
${HEADER}
a, b, n = ${py(a)}, ${py(b)}, ${pyInt(n)}

relevant_weight = np.exp(a) / (np.exp(a) + n * np.exp(b))
distractor_mass = n * np.exp(b) / (np.exp(a) + n * np.exp(b))
# each distractor's weight (0 when there are none)
distractor_weight = np.exp(b) / (np.exp(a) + n * np.exp(b)) if n > 0 else 0.0

show("relevant_weight", relevant_weight)
show("distractor_mass", distractor_mass)
show("distractor_weight", distractor_weight)
`;
  },

  "llm-sampling": (s, r) => {
    const st = r?.state ?? s;
    const probsGiven = st.probs.length > 0;
    const values = probsGiven ? st.probs : st.logits;
    const { temperature, topK, topP } = r?.opts ?? st;
    const draw = r ? r.draw : st.draws === "off" ? null : { seed: st.seed, count: st.count };
    return `# Sampling: temperature, then top-k, then top-p on the renormalised top-k distribution, then
# renormalisation (Holtzman et al. 2020). Core: core/include/llmmath/sampling.hpp.
${HEADER}${draw ? SPLITMIX : ""}
tokens = ${pyStrings(st.tokens)}
${probsGiven ? "p" : "z"} = np.array(${pyList(values)}, dtype=float)  # (n,) ${probsGiven ? "probabilities, treated as logits log p" : "logits"}
T, top_k, top_p = ${py(temperature)}, ${pyInt(topK)}, ${py(topP)}

n = len(${probsGiven ? "p" : "z"})
order = np.argsort(-${probsGiven ? "p" : "z"}, kind="stable")  # most probable first, ties by lower index
top = order[0]
# temperature: softmax(z / T), each weight relative to the top token's; T = 0 is greedy (one-hot)
if T == 0:
    w = np.zeros(n)
    w[top] = 1.0
${probsGiven
    ? `elif T == 1:
    w = p.copy()
else:
    w = (p / p[top]) ** (1 / T)  # exp((log p_i - log p_top) / T)`
    : `else:
    w = np.exp((z - z[top]) / T)`}
tempered = w / w.sum()
# top-k keeps the k most probable (k = 0, or at least n, keeps all), renormalised
k = n if top_k == 0 or top_k >= n else top_k
top_k_mass = sum(tempered[order[:k]])
top_k_probs = np.zeros(n)
top_k_probs[order[:k]] = tempered[order[:k]] / top_k_mass
cumulative = np.cumsum(top_k_probs[order])  # along the order; constant after the k-th
# top-p keeps the shortest prefix whose cumulative mass reaches top_p (within 1e-9, as the core)
m = k
if top_p < 1:
    m = 0
    while m < k - 1 and cumulative[m] < top_p - 1e-9:
        m += 1
    m += 1
while m > 1 and tempered[order[m - 1]] == 0:  # a token of probability 0 is never kept
    m -= 1
kept = order[:m]
kept_mass = sum(tempered[kept])
probs = np.zeros(n)
probs[kept] = tempered[kept] / kept_mass  # renormalised; removed tokens exactly 0

show("tempered", tempered)
show("order", order)
show("top_k_mass", top_k_mass)
show("cumulative", cumulative)
show("cutoff", m)
show("kept_mass", kept_mass)
show("probs", probs)
${draw ? `
# The draws: inverse CDF with the core's uniforms (SplitMix64, seed ${draw.seed}).
prompt, seed, count = ${JSON.stringify(String(st.prompt))}, ${pyInt(draw.seed)}, ${pyInt(draw.count)}
cdf = np.cumsum(probs)
last = np.flatnonzero(probs)[-1]  # trailing zeros are never drawn
u = splitmix64(seed)
draws = [min(int(np.searchsorted(cdf, next(u) * cdf[-1], side="right")), last) for _ in range(count)]
show("draws", draws)
for t in draws:
    print("   ", prompt + tokens[t])
` : ""}`;
  },

  "llm-rope": (s, r) => {
    const st = r?.state ?? s;
    const interleaved = st.pairing === "interleaved";
    return `# Rotary position embedding (Su et al. 2021, RoFormer): pair i of q and k turns by pos·θ_i.
# Core: core/include/llmmath/rope.hpp.
${HEADER}
q = np.array(${pyList(st.q)}, dtype=float)  # (d,)
k = np.array(${pyList(st.k)}, dtype=float)  # (d,)
m, n = ${pyInt(st.m)}, ${pyInt(st.n)}  # positions of the query and the key

d = len(q)
${st.useFreqs
    ? `theta = np.array(${pyList(st.freqs)}, dtype=float)  # (d/2,) given, radians per position`
    : `base = ${py(st.base)}
theta = base ** (-2 * np.arange(d // 2) / d)  # (d/2,) θ_i = base^(-2i/d)`}
# ${interleaved ? "interleaved pairs (x[2i], x[2i+1]), as RoFormer and Meta's Llama" : "halves (x[i], x[i+d/2]), as GPT-NeoX and Hugging Face Llama"}
pairs = [${interleaved ? "(2 * i, 2 * i + 1)" : "(i, i + d // 2)"} for i in range(d // 2)]


def rotate(x, pos):
    """Each pair (x_a, x_b) turned anticlockwise by pos·θ_i."""
    out = x.copy()
    for i, (a, b) in enumerate(pairs):
        c, s = np.cos(pos * theta[i]), np.sin(pos * theta[i])
        out[a], out[b] = x[a] * c - x[b] * s, x[a] * s + x[b] * c
    return out


q_rot, k_rot = rotate(q, m), rotate(k, n)
pair_scores = [q_rot[a] * k_rot[a] + q_rot[b] * k_rot[b] for a, b in pairs]
raw = q_rot @ k_rot
scaled = raw / np.sqrt(d)
# only the offset counts: the query at m - n and the key at 0 give the same score
raw_at_offset = rotate(q, m - n) @ rotate(k, 0)

show("thetas", theta)
show("angles", np.stack([m * theta, n * theta], axis=1))  # (d/2, 2): query, key
show("q_rotated", q_rot)
show("k_rotated", k_rot)
show("pair_scores", pair_scores)
show("raw", raw)
show("scaled", scaled)
show("raw_at_offset", raw_at_offset)
`;
  },

  "llm-cost": (s, r) => {
    const c = r?.cfg ?? s;
    const linear = Boolean(c.dModel || c.ffnDim);
    return `# What attention costs: scores, the key-value cache and multiply-adds (core/include/llmmath/cost.hpp).
# Counts are Python integers, exact at any size (NumPy's int64 would overflow past 2^63); only
# the bytes are a float, correctly rounded as the core's.
${HEADER}
n, h, kv, d, L, b = ${[c.tokens, c.heads, c.kvHeads, c.headDim, c.layers, c.batch].map(pyInt).join(", ")}  # tokens, heads, key-value heads, head dim, layers, batch
p = ${py(c.bytesPerValue)}  # bytes per cached value
num, den = p.as_integer_ratio()  # p as an exact fraction

scores_per_head = n**2
scores_per_layer = b * h * n**2
kv_values_per_layer = 2 * b * n * kv * d  # one key and one value of length d per token and kv head
kv_values = kv_values_per_layer * L
kv_bytes = kv_values * num / den  # int / int: correctly rounded
kv_bytes_per_token = 2 * kv * d * L * num / den
qk_macs_per_layer = b * h * n**2 * d  # Q K^T; A V costs the same
macs_per_layer = 2 * qk_macs_per_layer
macs = macs_per_layer * L

for name in ["scores_per_head", "scores_per_layer", "kv_values_per_layer", "kv_values", "kv_bytes",
             "kv_bytes_per_token", "qk_macs_per_layer", "macs_per_layer", "macs"]:
    print(name, "=", globals()[name])
${linear ? `
# The linear layers, per token: Q and O (h heads each), K and V (kv heads each), feed-forward.
d_model, d_ff, gated = ${pyInt(c.dModel)}, ${pyInt(c.ffnDim)}, ${py(Boolean(c.gated))}
projection_per_token = d_model * d * (2 * h + 2 * kv)
ffn_per_token = (3 if gated else 2) * d_model * d_ff
linear_per_token = projection_per_token + ffn_per_token
projection_macs_per_layer = b * n * projection_per_token
ffn_macs_per_layer = b * n * ffn_per_token
linear_macs_per_layer = b * n * linear_per_token
crossover_tokens = linear_per_token / (2 * h * d)  # 2·h·n²·d = n·(linear per token)
attention_share = 2 * h * d * n / (2 * h * d * n + linear_per_token)

for name in ["projection_macs_per_layer", "ffn_macs_per_layer", "linear_macs_per_layer",
             "crossover_tokens", "attention_share"]:
    print(name, "=", globals()[name])
` : ""}`;
  },

  "llm-speculative": (s, r) => {
    const { alpha, gamma, costRatio } = r?.cfg ?? s;
    const rounds = r ? r.measure?.rounds : s.rounds;
    const seed = r ? r.measure?.seed : s.seed;
    const measured = gamma > 0;
    return `# Speculative decoding (Leviathan et al. 2023): eq. 1, its ceiling and the walltime improvement,
# then the simulated log the figure measures α back from. Core: core/include/llmmath/speculative.hpp.
${HEADER}${measured ? SPLITMIX : ""}
alpha, gamma, c = ${py(alpha)}, ${pyInt(gamma)}, ${py(costRatio)}


def expected_tokens(a, g):
    """Eq. 1: (1 - α^(γ+1)) / (1 - α) tokens per target call; γ + 1 at α = 1."""
    return g + 1.0 if a == 1 else (1 - a ** (g + 1)) / (1 - a)


token_probs = [alpha**j * (1 - alpha) for j in range(gamma)] + [alpha**gamma]  # j + 1 tokens
E = expected_tokens(alpha, gamma)
ceiling = np.inf if alpha == 1 else 1 / (1 - alpha)
round_cost = gamma * c + 1  # one target step plus γ draft steps
speedup = E / round_cost
gammas = np.arange(21)  # the chart's draft lengths
speedups = np.array([expected_tokens(alpha, g) / (g * c + 1) for g in gammas])
best = int(np.argmax(speedups))  # the first of the largest

show("token_probs", token_probs)
show("expected_tokens", E)
show("ceiling", ceiling)
show("round_cost", round_cost)
show("speedup", speedup)
show("best_gamma", best)
show("best_speedup", speedups[best])
${measured ? `
# The simulated log: ${rounds} target calls; each checked draft is accepted with probability α
# (uniform < α, uniforms from the core's SplitMix64, seed ${seed}); a call stops at its first rejection.
rounds, seed = ${pyInt(rounds)}, ${pyInt(seed)}
u = splitmix64(seed)
checked = accepted = 0
for _ in range(rounds):
    a = 0
    while a < gamma:
        checked += 1
        if not next(u) < alpha:
            break
        a += 1
    accepted += a
proposed, tokens = rounds * gamma, accepted + rounds


def alpha_from_mean(mean, g):
    """The α at which eq. 1 gives mean tokens per call: bisection down to neighbouring doubles."""
    if mean == 1 or mean == g + 1:
        return 0.0 if mean == 1 else 1.0
    lo, hi = 0.0, 1.0
    while lo < lo + (hi - lo) / 2 < hi:
        mid = lo + (hi - lo) / 2
        lo, hi = (mid, hi) if expected_tokens(mid, g) < mean else (lo, mid)
    return lo if mean - expected_tokens(lo, g) <= expected_tokens(hi, g) - mean else hi


mean_tokens = tokens / rounds
estimates = {"accepted_per_proposed": accepted / proposed,  # wrong: drafts after a rejection are never checked
             "accepted_per_checked": accepted / checked,
             "alpha_from_mean_tokens": alpha_from_mean(mean_tokens, gamma)}
show("log_proposed", proposed)
show("log_checked", checked)
show("log_accepted", accepted)
show("log_tokens", tokens)
show("mean_tokens", mean_tokens)
for name, a in estimates.items():
    show(name, a)
    show("expected_tokens_from_" + name, expected_tokens(a, gamma))
` : ""}`;
  },

  "llm-alibi": (s, r) => {
    const { heads, head, tokens, distance } = r?.inputs ?? s;
    return `# ALiBi (Press et al. 2022): head k adds -m_k·(i - j) to query i's score for key j.
# Core: core/include/llmmath/alibi.hpp.
${HEADER}
heads, head, tokens, distance = ${[heads, head, tokens, distance].map(pyInt).join(", ")}

p = 1
while 2 * p <= heads:  # the largest power of two ≤ heads
    p *= 2
# 2^(-8k/p) for k = 1 … p, then every other slope of 2p heads (k = 1, 3, 5, …) for the rest
slopes = np.concatenate([np.exp2(-8.0 * np.arange(1, p + 1) / p),
                         np.exp2(-8.0 * np.arange(1, 2 * (heads - p), 2) / (2 * p))])
half_distances = np.log(2.0) / slopes  # e^(-m·δ) = 1/2 at δ = ln 2 / m
m = slopes[head - 1]
i, j = np.indices((tokens, tokens))
bias = np.where(j <= i, m * (j - i), -np.inf)  # (tokens, tokens); keys after the query masked

show("slopes", slopes)
show("half_distances", half_distances)
show("slope", m)
show("half_distance", half_distances[head - 1])
show("bias", bias)
show("weight_factor", np.exp(-m * distance))  # at the evidence's distance δ
show("half_distance_halved", np.log(2.0) / (m / 2))
`;
  },

  "llm-quantization": (s, r) => {
    const bits = r?.bits ?? s.bits, alpha = r?.alpha ?? s.alpha;
    return `# SmoothQuant (Xiao et al. 2023) on one linear layer Y = X W, with symmetric per-tensor integer
# quantisation. Core: core/include/llmmath/quantization.hpp.
${HEADER}
X = np.array(${pyMatrix(s.x)}, dtype=float)  # (tokens, channels) activations
W = np.array(${pyMatrix(s.w)}, dtype=float)  # (channels, outputs) weights
bits, alpha = ${pyInt(bits)}, ${py(alpha)}
qmax = 2.0 ** (bits - 1) - 1


def quantize(x):
    """Step Δ = max|x| / qmax (1 when x is all 0); levels rounded half to even and clamped."""
    top = np.abs(x).max()
    step = top / qmax if top > 0 else 1.0
    levels = np.clip(np.rint(x / step), -qmax, qmax) + 0.0  # + 0.0: no -0 level
    return step, levels, levels * step


x_abs_max = np.abs(X).max(axis=0)  # (c,) per channel: columns of X
w_abs_max = np.abs(W).max(axis=1)  # (c,) per channel: rows of W
# s_j = max|X_j|^α / max|W_j|^(1-α), with the reference code's clamps at 1e-5
s = np.maximum(x_abs_max**alpha / np.maximum(w_abs_max, 1e-5) ** (1 - alpha), 1e-5)
Xs = X * (1 / s)  # X·diag(s)^-1 (multiplied by 1/s, as the core does)
Ws = s[:, None] * W  # diag(s)·W

step_x, lx, dx = quantize(X)
step_w, lw, dw = quantize(W)
step_xs, lxs, dxs = quantize(Xs)
step_ws, lws, dws = quantize(Ws)
Y = X @ W

show("x_abs_max", x_abs_max)
show("w_abs_max", w_abs_max)
show("scales", s)
show("x_abs_max_smoothed", x_abs_max / s)
show("w_abs_max_smoothed", w_abs_max * s)
show("step_x", step_x)
show("step_w", step_w)
show("step_x_smoothed", step_xs)
show("step_w_smoothed", step_ws)
show("x_levels", lx)
show("x_smoothed_levels", lxs)
show("x_levels_per_channel", np.abs(lx).max(axis=0))
show("x_smoothed_levels_per_channel", np.abs(lxs).max(axis=0))
show("max_error_x", np.abs(X - dx).max())
show("max_error_w", np.abs(W - dw).max())
show("max_error_x_smoothed", np.abs(Xs - dxs).max())
show("max_error_w_smoothed", np.abs(Ws - dws).max())
show("output_error_quantized", np.abs(Y - dx @ dw).max())
show("output_error_quantized_smoothed", np.abs(Y - dxs @ dws).max())
show("output_error_smoothing_alone", np.abs(Y - Xs @ Ws).max())  # rounding only
`;
  },

  "llm-moe": (s) => `# Mixture of experts: top-k routing and the Switch Transformer load-balancing loss N·Σ f_i·p_i
# (Fedus et al. 2021, eq. 4). Core: core/include/llmmath/moe.hpp.
${HEADER}
tokens = ${pyStrings(s.tokens)}
L = np.array(${pyMatrix(s.logits)}, dtype=float)  # (T, N) router logits
top_k = ${pyInt(s.topK)}

T, N = L.shape
probs = np.exp(L - L.max(axis=1, keepdims=True))  # softmax per token, shifted by its maximum
probs /= probs.sum(axis=1, keepdims=True)
assignments = np.argsort(-L, axis=1, kind="stable")[:, :top_k]  # by descending logit, ties to the lower expert
counts = np.bincount(assignments.ravel(), minlength=N)
f = counts / (T * top_k)  # fraction of the assignments each expert receives
p = probs.mean(axis=0)  # mean router probability of each expert
terms = N * (f * p)

show("probs", probs)
show("assignments", assignments)
show("counts", counts)
show("f", f)
show("p", p)
show("terms", terms)
show("loss", terms.sum())
`,

  "llm-diagnose": (s, r) => {
    const id = r?.id;
    const scenario = DIAGNOSE[id];
    if (!scenario) throw new Error(`no NumPy program for the scenario ${id}`);
    const v = Object.fromEntries(Object.entries(scenario.inputs).map(([key, name]) => [key, s[stateKey(`${id}-${name}`)]]));
    return `# Scenario "${id}": its small calculation with the numbers in the figure.
${HEADER}${scenario.program(v)}`;
  },
};

const stateKey = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

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
