// Copy as NumPy for Figure 1.1, <llm-attention> (attention.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyMatrix, pyStrings } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s) => `# Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with the figure's Q, K, V.
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
`;
