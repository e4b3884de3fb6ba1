// Copy as NumPy for Figures 2.1 and 2.2, <llm-sampling> (sampling.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt, pyList, pyStrings, SPLITMIX } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const st = r?.state ?? s;
  const probsGiven = st.probs.length > 0;
  const values = probsGiven ? st.probs : st.logits;
  const { temperature, topK, topP } = r?.opts ?? st;
  const draw = r ? r.draw : st.draws === "off" ? null : { seed: st.seed, count: st.count };
  return `# Sampling: temperature, then top-k, then top-p on the renormalised top-k distribution, then
# renormalisation (Holtzman et al. 2020). Core: core/include/llmmath/sampling.hpp.
${HEADER}${draw ? SPLITMIX : ""}
tokens = ${pyStrings(st.tokens)}
${probsGiven ? "p" : "z"} = np.array(${pyList(values)}, dtype=float)  # (n,) ${probsGiven ? "probabilities, treated as logits log p" : "logits"}
T, top_k, top_p = ${py(temperature)}, ${pyInt(topK)}, ${py(topP)}

n = len(${probsGiven ? "p" : "z"})
order = np.argsort(-${probsGiven ? "p" : "z"}, kind="stable")  # most probable first, ties by lower index
top = order[0]
# temperature: softmax(z / T), each weight relative to the top token's; T = 0 is greedy (one-hot)
if T == 0:
    w = np.zeros(n)
    w[top] = 1.0
${probsGiven
    ? `elif T == 1:
    w = p.copy()
else:
    w = (p / p[top]) ** (1 / T)  # exp((log p_i - log p_top) / T)`
    : `else:
    w = np.exp((z - z[top]) / T)`}
tempered = w / w.sum()
# top-k keeps the k most probable (k = 0, or at least n, keeps all), renormalised
k = n if top_k == 0 or top_k >= n else top_k
top_k_mass = sum(tempered[order[:k]])
top_k_probs = np.zeros(n)
top_k_probs[order[:k]] = tempered[order[:k]] / top_k_mass
cumulative = np.cumsum(top_k_probs[order])  # along the order; constant after the k-th
# top-p keeps the shortest prefix whose cumulative mass reaches top_p (within 1e-9, as the core)
m = k
if top_p < 1:
    m = 0
    while m < k - 1 and cumulative[m] < top_p - 1e-9:
        m += 1
    m += 1
while m > 1 and tempered[order[m - 1]] == 0:  # a token of probability 0 is never kept
    m -= 1
kept = order[:m]
kept_mass = sum(tempered[kept])
probs = np.zeros(n)
probs[kept] = tempered[kept] / kept_mass  # renormalised; removed tokens exactly 0

show("tempered", tempered)
show("order", order)
show("top_k_mass", top_k_mass)
show("cumulative", cumulative)
show("cutoff", m)
show("kept_mass", kept_mass)
show("probs", probs)
${draw ? `
# The draws: inverse CDF with the core's uniforms (SplitMix64, seed ${draw.seed}).
prompt, seed, count = ${JSON.stringify(String(st.prompt))}, ${pyInt(draw.seed)}, ${pyInt(draw.count)}
cdf = np.cumsum(probs)
last = np.flatnonzero(probs)[-1]  # trailing zeros are never drawn
u = splitmix64(seed)
draws = [min(int(np.searchsorted(cdf, next(u) * cdf[-1], side="right")), last) for _ in range(count)]
show("draws", draws)
for t in draws:
    print("   ", prompt + tokens[t])
` : ""}`;
};
