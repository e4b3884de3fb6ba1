// Copy as NumPy for Figure 1.2, <llm-context-dilution> (dilution.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, py, pyInt } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const { relevantScore: a, distractorScore: b, distractors: n } = r?.cfg ?? s;
  return program(
    `# Context dilution: the weight one relevant key (score a) keeps among n distractors (score b). The
# function is reference/attention.py's, the code the core's contextDilution
# (core/include/llmmath/attention.hpp) is tested against.`,
    ["context_dilution"],
    `a, b, n = ${py(a)}, ${py(b)}, ${pyInt(n)}

r = context_dilution(a, b, n)
for name in ["relevant_weight", "distractor_mass", "distractor_weight"]:
    show(name, r[name])`,
  );
};
