"""Speculative decoding: a cheap draft model proposes γ tokens, the target model checks them
in one call and keeps the accepted prefix plus one token of its own. Chapter 8, section 5; the
core's is core/include/llmmath/speculative.hpp.

Leviathan et al. 2023, "Fast Inference from Transformers via Speculative Decoding", §3.1:
eq. 1 and the walltime improvement of Theorem 3.8. α is taken as the exact fraction its double
stands for and every sum and quotient is exact, rounded to a double once: near α = 1 the closed
form (1 − α^(γ+1)) / (1 − α) would cancel in double precision; the exact sum does not.
"""
from fractions import Fraction

from .sampling import splitmix64


def expected_tokens(alpha, gamma):
    """Eq. 1 before its closed form, exactly: 1 + α + … + α^γ tokens per target call, a
    Fraction (alpha a float or a Fraction, gamma a whole number ≥ 0).
    """
    a = Fraction(alpha)
    return sum(a ** j for j in range(gamma + 1))


def speculative_decoding(alpha, gamma, cost_ratio=None):
    """Tokens per target call (eq. 1), their ceiling 1 / (1 − α) as γ grows, the probability
    that a call yields j + 1 tokens (α^j·(1 − α), and α^γ for all γ accepted) and, given the
    cost ratio c of a draft step to a target step, the round cost γ·c + 1 and the walltime
    improvement E / (γ·c + 1) (Theorem 3.8).
    """
    a = Fraction(alpha)
    E = expected_tokens(a, gamma)
    r = dict(expected_tokens=float(E), ceiling=float("inf") if a == 1 else float(1 / (1 - a)),
             token_probs=[float(a ** j * (1 - a)) for j in range(gamma)] + [float(a ** gamma)])
    if cost_ratio is not None:
        round_cost = gamma * Fraction(cost_ratio) + 1
        r.update(round_cost=float(round_cost), speedup=float(E / round_cost))
    return r


def speculative_sweep(alpha, gammas, cost_ratio):
    """speculative_decoding() at each draft length of gammas, and the best of them: the first
    γ of the largest speedup (compared as rounded, as the core compares its doubles).
    """
    points = [speculative_decoding(alpha, g, cost_ratio) for g in gammas]
    speedup = [r["speedup"] for r in points]
    best = max(range(len(gammas)), key=lambda i: (speedup[i], -i))
    return dict(gamma=list(gammas), expected_tokens=[r["expected_tokens"] for r in points],
                round_cost=[r["round_cost"] for r in points], speedup=speedup,
                best_gamma=gammas[best], best_speedup=speedup[best])


def speculative_alpha(mean_tokens, gamma):
    """The α in [0, 1] at which eq. 1 gives mean_tokens per call (it grows strictly with α,
    from 1 to γ + 1): bisection in exact fractions, to 2^-60.
    """
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(60):
        mid = (lo + hi) / 2
        if expected_tokens(mid, gamma) < mean_tokens:
            lo = mid
        else:
            hi = mid
    alpha = float((lo + hi) / 2)
    return dict(alpha=alpha, expected_tokens=float(expected_tokens(alpha, gamma)))


def speculative_measure(alpha, gamma, rounds, seed):
    """A seeded simulation of `rounds` target calls under eq. 1's model (§3.1: each draft is
    accepted independently with probability α): the drafts are checked in order, one uniform
    of splitmix64(seed) each, accepted while u < α; a call ends at its first rejection. What a
    practitioner logs, and three estimates of α from it: accepted per proposed (wrong: the
    drafts after a rejection are never checked), accepted per checked, and α solved from the
    mean tokens per call.
    """
    u = splitmix64(seed)
    checked = accepted = 0
    counts = [0] * (gamma + 1)  # (γ + 1,) entry j: the calls that yielded j + 1 tokens
    for _ in range(rounds):
        a = 0
        while a < gamma:
            checked += 1
            if not next(u) < alpha:
                break
            a += 1
        accepted += a
        counts[a] += 1
    proposed, produced = rounds * gamma, accepted + rounds  # each call adds one token of its own
    estimates = dict(
        accepted_per_proposed=accepted / proposed,  # Python's int / int: correctly rounded
        accepted_per_checked=accepted / checked,
        alpha_from_mean_tokens=speculative_alpha(Fraction(produced, rounds), gamma)["alpha"])
    return dict(
        rounds=rounds, proposed=proposed, checked=checked, accepted=accepted, produced=produced,
        mean_tokens=produced / rounds, token_counts=counts, **estimates,
        expected_tokens=float(expected_tokens(alpha, gamma)),
        expected_tokens_per_proposed=float(expected_tokens(estimates["accepted_per_proposed"], gamma)),
        expected_tokens_per_checked=float(expected_tokens(estimates["accepted_per_checked"], gamma)),
        expected_tokens_from_mean_tokens=float(expected_tokens(estimates["alpha_from_mean_tokens"], gamma)))


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for speculativeDecoding and speculativeMeasure, computed independently of
    the core with Python's exact fractions by the functions above: the lines of two files,
    {"speculative.txt": …, "speculative_measure.txt": …}.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py speculative

    alpha is taken as the exact fraction its double stands for; the expected number of tokens is the
    exact sum 1 + alpha + ... + alpha^gamma (Leviathan et al. 2023, eq. 1, before its closed form),
    the ceiling 1 / (1 - alpha) and the walltime improvement (Theorem 3.8) the exact quotient; each
    is rounded to a double once. Near alpha = 1 the closed form would cancel in double precision;
    the exact sum does not.

    speculative_measure.txt: the seeded simulation of speculativeMeasure, replayed with the
    project's SplitMix64 written out in Python integers (constants of Vigna's splitmix64.c;
    reference/sampling.py): one 64-bit output per checked draft, u = (output >> 11)·2^-53, the draft
    accepted when u < alpha, the round over at the first rejection. The counts are integers; the
    ratios are Python's correctly rounded int / int; alpha from the mean tokens per call is found by
    bisection in exact fractions on the sum 1 + a + ... + a^gamma, to 2^-60.

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...', all scalars;
    costRatio and speedup are nan when the cost ratio is not given; the ceiling at alpha = 1 is
    written Infinity, which C's strtod and JavaScript's Number both read.
    """
    from fixture_format import camel, value  # tests/fixtures/, make.py's folder

    lines = ["# speculativeDecoding reference values: reference/speculative.py's fixture() "
             "(exact fractions)"]
    cases = [
        (0.5, 3, None), (0.5, 3, 0.0), (0.0, 5, 0.1), (0.3, 1, 0.05), (0.6, 2, 0.1),
        (0.75, 7, 0.05), (0.8, 5, 0.02), (0.9, 10, 0.1), (0.99, 100, 0.01), (0.999, 1024, 0.001),
        (1 - 1e-9, 3, 0.2), (1 - 2 ** -52, 7, None), (1 - 2 ** -30, 1024, 1.0), (1.0, 4, 0.5),
        (0.2, 0, 3.0), (0.9, 0, None),
    ]
    for i, (alpha, gamma, c) in enumerate(cases):
        r = speculative_decoding(alpha, gamma, c)
        lines.append(f"case spec_{i}")
        for key, x in [("alpha", alpha), ("gamma", gamma),
                       ("costRatio", float("nan") if c is None else c),
                       ("expectedTokens", r["expected_tokens"]), ("ceiling", r["ceiling"]),
                       ("speedup", r.get("speedup", float("nan")))]:
            lines.append(value(key, x))
    files = {"speculative.txt": lines}

    lines = ["# speculativeMeasure reference simulations: reference/speculative.py's fixture() "
             "(SplitMix64 in Python integers, exact fractions)"]
    for i, (alpha, gamma, rounds, seed) in enumerate([
        (0.5, 3, 4, 0), (0.5, 3, 2000, 1), (0.8, 5, 1500, 42), (0.3, 1, 999, 7),
        (0.95, 10, 300, 4294967295), (0.0, 2, 50, 3), (1.0, 4, 50, 3),
    ]):
        lines.append(f"case measure_{i}")
        for key, x in [("alpha", alpha), ("gamma", gamma), ("rounds", rounds), ("seed", seed)]:
            lines.append(value(key, x))
        r = speculative_measure(alpha, gamma, rounds, seed)
        for key in ["checked", "accepted", "produced", "token_counts", "accepted_per_proposed",
                    "accepted_per_checked", "alpha_from_mean_tokens"]:
            lines.append(value(camel(key), r[key]))
    files["speculative_measure.txt"] = lines
    return files
