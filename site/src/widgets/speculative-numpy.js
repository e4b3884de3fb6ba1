// Copy as NumPy for Figure 5.1, <llm-speculative> (speculative.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt, SPLITMIX } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const { alpha, gamma, costRatio } = r?.cfg ?? s;
  const rounds = r ? r.measure?.rounds : s.rounds;
  const seed = r ? r.measure?.seed : s.seed;
  const measured = gamma > 0;
  return `# Speculative decoding (Leviathan et al. 2023): eq. 1, its ceiling and the walltime improvement,
# then the simulated log the figure measures α back from. Core: core/include/llmmath/speculative.hpp.
${HEADER}${measured ? SPLITMIX : ""}
alpha, gamma, c = ${py(alpha)}, ${pyInt(gamma)}, ${py(costRatio)}


def expected_tokens(a, g):
    """Eq. 1: (1 - α^(γ+1)) / (1 - α) tokens per target call; γ + 1 at α = 1."""
    return g + 1.0 if a == 1 else (1 - a ** (g + 1)) / (1 - a)


token_probs = [alpha**j * (1 - alpha) for j in range(gamma)] + [alpha**gamma]  # j + 1 tokens
E = expected_tokens(alpha, gamma)
ceiling = np.inf if alpha == 1 else 1 / (1 - alpha)
round_cost = gamma * c + 1  # one target step plus γ draft steps
speedup = E / round_cost
gammas = np.arange(21)  # the chart's draft lengths
speedups = np.array([expected_tokens(alpha, g) / (g * c + 1) for g in gammas])
best = int(np.argmax(speedups))  # the first of the largest

show("token_probs", token_probs)
show("expected_tokens", E)
show("ceiling", ceiling)
show("round_cost", round_cost)
show("speedup", speedup)
show("best_gamma", best)
show("best_speedup", speedups[best])
${measured ? `
# The simulated log: ${rounds} target calls; each checked draft is accepted with probability α
# (uniform < α, uniforms from the core's SplitMix64, seed ${seed}); a call stops at its first rejection.
rounds, seed = ${pyInt(rounds)}, ${pyInt(seed)}
u = splitmix64(seed)
checked = accepted = 0
for _ in range(rounds):
    a = 0
    while a < gamma:
        checked += 1
        if not next(u) < alpha:
            break
        a += 1
    accepted += a
proposed, tokens = rounds * gamma, accepted + rounds


def alpha_from_mean(mean, g):
    """The α at which eq. 1 gives mean tokens per call: bisection down to neighbouring doubles."""
    if mean == 1 or mean == g + 1:
        return 0.0 if mean == 1 else 1.0
    lo, hi = 0.0, 1.0
    while lo < lo + (hi - lo) / 2 < hi:
        mid = lo + (hi - lo) / 2
        lo, hi = (mid, hi) if expected_tokens(mid, g) < mean else (lo, mid)
    return lo if mean - expected_tokens(lo, g) <= expected_tokens(hi, g) - mean else hi


mean_tokens = tokens / rounds
estimates = {"accepted_per_proposed": accepted / proposed,  # wrong: drafts after a rejection are never checked
             "accepted_per_checked": accepted / checked,
             "alpha_from_mean_tokens": alpha_from_mean(mean_tokens, gamma)}
show("log_proposed", proposed)
show("log_checked", checked)
show("log_accepted", accepted)
show("log_tokens", tokens)
show("mean_tokens", mean_tokens)
for name, a in estimates.items():
    show(name, a)
    show("expected_tokens_from_" + name, expected_tokens(a, gamma))
` : ""}`;
};
