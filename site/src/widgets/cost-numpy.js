// Copy as NumPy for Figure 4.1, <llm-cost> (cost.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, py, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const c = r?.cfg ?? s;
  const linear = Boolean(c.dModel || c.ffnDim);
  return program(
    `# What attention costs: scores, the key-value cache and multiply-adds${linear ? ", beside the linear layers" : ""}. The
# function is reference/cost.py's, the code the core (core/include/llmmath/cost.hpp) is tested against.`,
    ["attention_cost"],
    `tokens, heads, kv_heads, head_dim, layers, batch = ${[c.tokens, c.heads, c.kvHeads, c.headDim, c.layers, c.batch].map(pyInt).join(", ")}
bytes_per_value = ${py(c.bytesPerValue)}
${
  linear
    ? `d_model, ffn_dim, gated = ${pyInt(c.dModel)}, ${pyInt(c.ffnDim)}, ${py(Boolean(c.gated))}
`
    : ""
}
r = attention_cost(tokens, heads, head_dim, layers, kv_heads, batch, bytes_per_value${linear ? ", d_model, ffn_dim, gated" : ""})
for name, x in r.items():
    show(name, x)`,
  );
};
