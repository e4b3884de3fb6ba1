// Copy as NumPy for Figure 1.1, <llm-attention> (attention.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, py, pyMatrix, pyStrings } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s) =>
  program(
    `# Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with the figure's Q, K, V. The function
# is reference/attention.py's, the code the core (core/include/llmmath/attention.hpp) is tested against.`,
    ["attention"],
    `tokens = ${pyStrings(s.labels)}
Q = np.array(${pyMatrix(s.q)}, dtype=float)  # (n, d)
K = np.array(${pyMatrix(s.k)}, dtype=float)  # (n, d)
V = np.array(${pyMatrix(s.v)}, dtype=float)  # (n, dv)
causal = ${py(s.causal)}

r = attention(Q, K, V, causal)
for name in ["scale", "scores", "weights", "output"]:
    show(name, r[name])`,
  );
