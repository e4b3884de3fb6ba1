// Copy as NumPy for Figure 4.1, <llm-cost> (cost.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
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
};
