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
