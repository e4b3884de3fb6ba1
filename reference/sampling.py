"""Sampling: the distribution a sampler draws the next token from (temperature, top-k, top-p,
renormalisation) and seeded, replayable draws from it. Chapter 8, section 2; the core's is
core/include/llmmath/sampling.hpp.

Top-p (nucleus) sampling: Holtzman et al. 2020, "The Curious Case of Neural Text
Degeneration", §3.1, eq. 2. SplitMix64: Steele, Lea and Flood 2014, "Fast splittable
pseudorandom number generators", with the constants of Vigna's splitmix64.c.
"""
import numpy as np

# Top-p counts a boundary as reached within this, as the core does (probability_tolerance):
# decimal inputs such as 0.1 + 0.2 are off by ~1e-16.
PROBABILITY_TOLERANCE = 1e-9


def sampling(logits=None, probs=None, temperature=1.0, top_k=0, top_p=1.0):
    """Temperature, then top-k, then top-p on the renormalised top-k distribution, then
    renormalisation, straight from the definitions. Give logits (n,) or probs (n,), which are
    treated as logits log p. temperature T ≥ 0 (0 is greedy: one-hot on the top token);
    top_k 0 is off; top_p 1 is off. The softmax is taken in long double, a little more precise
    than the core's doubles, which it checks.
    """
    score = logits if probs is None else probs
    n = len(score)
    # pass 1: order (n,), most probable first; equal scores by lower index
    order = sorted(range(n), key=lambda i: (-score[i], i))
    if probs is None:
        z = np.asarray(score, dtype=np.longdouble)  # (n,) logits
    else:
        with np.errstate(divide="ignore"):
            z = np.log(np.asarray(score, dtype=np.longdouble))  # (n,) log p; log 0 = −∞
    # pass 2: tempered (n,) = softmax(z / T), shifted by the largest logit so nothing overflows
    if temperature == 0:
        tempered = np.zeros(n, dtype=np.longdouble)
        tempered[order[0]] = 1
    else:
        e = np.exp((z - z.max()) / np.longdouble(temperature))
        tempered = e / e.sum()
    # pass 3: top-k keeps order[:k] (k = 0, or k ≥ n, keeps all), renormalised to top_k_probs
    k = n if top_k == 0 or top_k >= n else top_k
    top = tempered[order[:k]]  # (k,) in order
    top_k_mass = top.sum()
    top_k_probs = np.zeros(n, dtype=np.longdouble)
    top_k_probs[order[:k]] = top / top_k_mass
    cumulative = np.cumsum(top_k_probs[order])  # (n,) along the order; constant after the k-th
    # pass 4: top-p keeps the shortest prefix whose cumulative mass reaches top_p
    m = k
    if top_p < 1:
        m = next((j + 1 for j in range(k) if cumulative[j] >= top_p - PROBABILITY_TOLERANCE), k)
    while m > 1 and tempered[order[m - 1]] == 0:  # a token of probability 0 is never kept
        m -= 1
    # pass 5: renormalise over the kept tokens; every other entry stays exactly 0
    kept = order[:m]
    kept_mass = tempered[kept].sum()
    final = np.zeros(n, dtype=np.longdouble)
    final[kept] = tempered[kept] / kept_mass
    return dict(probs=final, kept=kept, tempered=tempered, order=order, cumulative=cumulative,
                top_k_mass=top_k_mass, top_k_probs=top_k_probs, cutoff=m, kept_mass=kept_mass)


def splitmix64(seed):
    """The core's seeded generator (core/src/sampling.cpp), in Python integers: a 64-bit
    counter advanced by 2^64 / golden ratio and passed through a bijective mixer. Yields its
    uniforms: the top 53 bits of each output times 2^-53, a double in [0, 1), never 1.
    """
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        yield ((z ^ (z >> 31)) >> 11) * 2.0**-53


def sample(probs, u):
    """Inverse CDF: for each uniform u_t in [0, 1), the first token whose running sum of probs
    (n,) exceeds u_t·Σp. A token of probability 0 owns an empty interval and is never drawn;
    a draw past the last interval goes to the last token of positive probability. The sums
    are taken left to right in double, as a sampler must to be reproducible.
    """
    p = np.asarray(probs, dtype=np.float64)  # (n,)
    cdf = np.cumsum(p)  # (n,) running sums, left to right
    last = int(np.flatnonzero(p > 0)[-1])  # trailing zeros are never drawn
    return [min(int(np.searchsorted(cdf, u_t * cdf[-1], side="right")), last) for u_t in u]


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for sampling and sample, computed independently of the core with NumPy
    (Debian's python3-numpy) and Python integers by the functions above: the lines of
    tests/fixtures/sampling.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py sampling

    Format: as in fixture_format.py ('case NAME', then 'name rows cols numbers...'). Sampling cases
    hold one input, 'logits' or 'inputProbs' (1 x n), the options 'temperature', 'topK', 'topP', and
    the expected 'tempered', 'order', 'cumulative', 'cutoff', 'keptMass', 'probs', 'kept'. Draw
    cases hold 'probs', 'seed', 'count' and the expected 'draws'; the case 'splitmix_seed_42' holds
    the first uniforms of SplitMix64 seeded with 42.
    """
    from itertools import islice
    from fixture_format import camel, value  # tests/fixtures/, make.py's folder

    rng = np.random.default_rng(20260830)
    lines = ["# sampling reference values: reference/sampling.py's fixture() (NumPy)"]

    def dirichlet_with_zeros(n, zeros):
        p = rng.dirichlet(np.ones(n))
        p[list(zeros)] = 0
        return p / p.sum()

    cases = [
        # name, input, is_probs, temperature, topK, topP
        ("logits_plain", rng.normal(size=8) * 2, False, 1.0, 0, 1.0),
        ("logits_cold_topk", rng.normal(size=10) * 2, False, 0.7, 5, 1.0),
        ("logits_hot_topp", rng.normal(size=12) * 2, False, 1.5, 0, 0.9),
        ("logits_topk_then_topp", rng.normal(size=16), False, 0.8, 6, 0.75),
        ("logits_greedy", rng.normal(size=9), False, 0.0, 0, 1.0),
        ("logits_ties", np.array([1.0, 3.0, 2.0, 3.0, 2.0, -1.0, 3.0]), False, 1.3, 4, 0.7),
        ("logits_large_vocab", rng.normal(size=200) * 1.5, False, 1.2, 40, 0.6),
        ("logits_huge_scores", np.array([1000.0, 998.0, -1000.0, 999.5]), False, 1.0, 0, 0.95),
        ("probs_zeros_hot", dirichlet_with_zeros(10, [2, 7, 9]), True, 2.0, 0, 0.95),
        ("probs_zeros_cold_topk", dirichlet_with_zeros(10, [0, 5]), True, 0.6, 7, 0.8),
        ("probs_identity", dirichlet_with_zeros(6, []), True, 1.0, 0, 1.0),
        ("probs_topk_over_vocab", dirichlet_with_zeros(5, [4]), True, 1.0, 50, 0.5),
    ]
    for name, x, is_probs, T, top_k, top_p in cases:
        r = sampling(**{"probs" if is_probs else "logits": list(x)}, temperature=T, top_k=top_k,
                     top_p=top_p)
        lines.append(f"case {name}")
        lines.append(value("inputProbs" if is_probs else "logits", [x]))
        lines += [value("temperature", [[T]]), value("topK", [[top_k]]), value("topP", [[top_p]])]
        for key in ["tempered", "order", "cumulative", "cutoff", "kept_mass", "probs", "kept"]:
            lines.append(value(camel(key), [r[key]]))

    lines.append("case splitmix_seed_42")
    lines.append(value("uniforms", [list(islice(splitmix64(42), 8))]))
    draw_cases = [
        ("draws_seed_0", [0.5, 0.25, 0.125, 0.125], 0, 40),
        ("draws_zero_inside", [0.0, 0.3, 0.0, 0.45, 0.25, 0.0], 1, 60),
        ("draws_max_seed", list(dirichlet_with_zeros(12, [3, 11])), 4294967295, 60),
        ("draws_decimals", [0.1, 0.2, 0.3, 0.4], 20260830, 60),
    ]
    for name, p, seed, count in draw_cases:
        lines.append(f"case {name}")
        lines += [value("probs", [p]), value("seed", [[seed]]), value("count", [[count]])]
        lines.append(value("draws", [sample(p, islice(splitmix64(seed), count))]))

    return lines
