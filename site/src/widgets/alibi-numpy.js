// Copy as NumPy for Figure 6.1, <llm-alibi> (alibi.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const { heads, head, tokens, distance } = r?.inputs ?? s;
  return program(
    `# ALiBi (Press et al. 2022): head k adds -m_k·(i - j) to query i's score for key j. The functions
# are reference/alibi.py's, the code the core (core/include/llmmath/alibi.hpp) is tested against.`,
    ["alibi_heads", "alibi", "alibi_decay"],
    `heads, head, tokens, distance = ${[heads, head, tokens, distance].map(pyInt).join(", ")}

h = alibi_heads(heads)
for name in ["slopes", "half_distances"]:
    show(name, h[name])
m = h["slopes"][head - 1]  # the figure's head
show("slope", m)
show("half_distance", h["half_distances"][head - 1])
show("bias", alibi(m, tokens)["bias"])
show("weight_factor", alibi_decay(m, distance + 1)[distance])  # at the evidence's distance δ
show("half_distance_halved", alibi(m / 2)["half_distance"])`,
  );
};
