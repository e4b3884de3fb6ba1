// Copy as NumPy for Figure 6.1, <llm-alibi> (alibi.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
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
};
