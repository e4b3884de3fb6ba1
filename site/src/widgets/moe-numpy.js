// Copy as NumPy for Figure 8.1, <llm-moe> (moe.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, pyInt, pyMatrix, pyStrings } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s) =>
  program(
    `# Mixture of experts: top-k routing and the Switch Transformer load-balancing loss N·Σ f_i·p_i
# (Fedus et al. 2021, eq. 4). The function is reference/moe.py's, the code the core
# (core/include/llmmath/moe.hpp) is tested against.`,
    ["moe_route"],
    `tokens = ${pyStrings(s.labels)}
L = np.array(${pyMatrix(s.logits)}, dtype=float)  # (T, N) router logits
top_k = ${pyInt(s.topK)}

r = moe_route(L, top_k)
for name in ["probs", "assignments", "counts", "f", "p", "terms", "loss"]:
    show(name, r[name])`,
  );
