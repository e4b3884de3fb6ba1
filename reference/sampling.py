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
