// Copy as NumPy for Figures 2.1 and 2.2, <llm-sampling> (sampling.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { program, py, pyInt, pyList, pyStrings } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const st = r?.state ?? s;
  const probsGiven = st.probs.length > 0;
  const { temperature, topK, topP } = r?.opts ?? st;
  const draw = r ? r.draw : st.draws === "off" ? null : { seed: st.seed, count: st.count };
  return program(
    `# Sampling: temperature, then top-k, then top-p on the renormalised top-k distribution, then
# renormalisation (Holtzman et al. 2020)${draw ? ", and seeded draws" : ""}. The functions are reference/sampling.py's,
# the code the core (core/include/llmmath/sampling.hpp) is tested against.`,
    draw ? ["sampling", "splitmix64", "sample"] : ["sampling"],
    `tokens = ${pyStrings(st.labels)}
${probsGiven ? `p = np.array(${pyList(st.probs)}, dtype=float)  # (n,) probabilities, treated as logits log p` : `z = np.array(${pyList(st.logits)}, dtype=float)  # (n,) logits`}
T, top_k, top_p = ${py(temperature)}, ${pyInt(topK)}, ${py(topP)}

r = sampling(${probsGiven ? "probs=p" : "logits=z"}, temperature=T, top_k=top_k, top_p=top_p)
for name in ["tempered", "order", "top_k_mass", "cumulative", "cutoff", "kept_mass", "probs"]:
    show(name, r[name])
${
  draw
    ? `
# The draws: inverse CDF with the core's uniforms (SplitMix64, seed ${draw.seed}).
prompt, seed, count = ${JSON.stringify(String(st.prompt))}, ${pyInt(draw.seed)}, ${pyInt(draw.count)}
u = splitmix64(seed)
draws = sample(r["probs"], [next(u) for _ in range(count)])
show("draws", draws)
for t in draws:
    print("   ", prompt + tokens[t])`
    : ""
}`,
  );
};
