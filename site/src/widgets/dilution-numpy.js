// Copy as NumPy for Figure 1.2, <llm-context-dilution> (dilution.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
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
};
