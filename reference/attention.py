"""Scaled dot-product attention with an optional causal mask, and the dilution of a relevant
key's weight by irrelevant context. Chapter 8, section 1; the core's is
core/include/llmmath/attention.hpp.

Vaswani et al. 2017, "Attention Is All You Need", §3.2.1, eq. 1.
"""
import numpy as np


def softmax_rows(S, visible):
    """Softmax of each row of S (nq, nk) over its visible entries only (visible: (nq, nk)
    booleans): hidden entries are left out before normalisation and are exactly 0 after. Each
    row is shifted by its largest visible score, which leaves the softmax unchanged and keeps
    exp from overflowing.
    """
    W = np.zeros_like(S)  # (nq, nk)
    for i in range(S.shape[0]):
        s = S[i][visible[i]]  # (visible keys,)
        e = np.exp(s - s.max())
        W[i][visible[i]] = e / e.sum()
    return W


def attention(Q, K, V, causal=False, scale=None):
    """softmax(scale·Q·Kᵀ + mask)·V (Vaswani et al. 2017, eq. 1) for Q (nq, d), K (nk, d) and
    V (nk, dv). scale None is 1/√d, which keeps the scores' variance near 1 for unit-variance
    q and k (§3.2.1). Under the causal mask query i sits at position nk − nq + i and sees the
    keys up to it. In long double, a little more precise than the core's doubles, which it
    checks.
    """
    nq, d = Q.shape
    nk = K.shape[0]
    if scale is None:
        scale = 1.0 / np.sqrt(d)
    S = scale * (Q.astype(np.longdouble) @ K.T.astype(np.longdouble))  # (nq, nk) scores, before the mask
    positions = nk - nq + np.arange(nq)  # (nq,) each query's position among the keys
    visible = np.ones((nq, nk), dtype=bool)  # (nq, nk)
    if causal:
        visible = np.arange(nk)[None, :] <= positions[:, None]
    W = softmax_rows(S, visible)  # (nq, nk) weights; each row sums to 1
    O = W @ V.astype(np.longdouble)  # (nq, dv) outputs
    return dict(scores=S, weights=W, output=O, visible=visible, positions=positions, scale=scale)


def context_dilution(a, b, n):
    """What one relevant key of score a keeps among n distractor keys of score b: the softmax
    over the n + 1 scores, straight from the definition, in long double.
    """
    e_a, e_b = np.exp(np.longdouble(a)), np.exp(np.longdouble(b))
    relevant_weight = e_a / (e_a + n * e_b)
    distractor_mass = n * e_b / (e_a + n * e_b)
    distractor_weight = e_b / (e_a + n * e_b) if n > 0 else np.longdouble(0)  # each distractor's
    return dict(relevant_weight=relevant_weight, distractor_weight=distractor_weight,
                distractor_mass=distractor_mass)


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for attention and contextDilution, computed independently of the core with
    NumPy (Debian's python3-numpy) by the functions above: the lines of
    tests/fixtures/attention.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py attention

    Format: fixture_format.py (read by tests/core/fixtures.hpp and tests/js/fixtures.js).
    """
    from fixture_format import value  # tests/fixtures/, make.py's folder

    rng = np.random.default_rng(20260829)
    lines = ["# attention reference values: reference/attention.py's fixture() (NumPy)"]
    cases = [
        ("square_full", 4, 4, 3, 2, False, None),
        ("square_causal", 5, 5, 4, 3, True, None),
        ("fewer_queries_causal", 2, 6, 8, 4, True, None),
        ("custom_scale", 3, 3, 2, 2, False, 0.25),
        ("wide_values", 3, 7, 16, 5, False, None),
    ]
    for name, nq, nk, d, dv, causal, scale in cases:
        Q = rng.normal(size=(nq, d)) * 2
        K = rng.normal(size=(nk, d)) * 2
        V = rng.normal(size=(nk, dv))
        r = attention(Q, K, V, causal, scale)
        lines.append(f"case {name}")
        lines += [value("q", Q), value("k", K), value("v", V), value("causal", [[1 if causal else 0]])]
        lines.append(value("scale", [[np.nan if scale is None else scale]]))
        lines += [value(key, r[key]) for key in ["scores", "weights", "output"]]
    for i, (a, b, n) in enumerate([(2.0, 0.0, 10), (5.0, 1.0, 1000), (0.0, 0.0, 3),
                                   (1.5, -0.5, 0), (30.0, 10.0, 100000)]):
        lines.append(f"case dilution_{i}")
        lines += [value("relevantScore", [[a]]), value("distractorScore", [[b]]),
                  value("distractors", [[n]]),
                  value("relevantWeight", [[context_dilution(a, b, n)["relevant_weight"]]])]
    return lines
