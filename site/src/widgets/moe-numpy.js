// Copy as NumPy for Figure 8.1, <llm-moe> (moe.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, pyInt, pyMatrix, pyStrings } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s) => `# Mixture of experts: top-k routing and the Switch Transformer load-balancing loss N·Σ f_i·p_i
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
`;
