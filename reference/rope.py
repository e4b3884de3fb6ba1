"""Rotary position embedding, RoPE: pair i of a query or key vector is turned by its position
times the pair's frequency θ_i, so a rotated query and key score by their offset alone.
Chapter 8, section 3; the core's is core/include/llmmath/rope.hpp.

Su et al. 2021, "RoFormer: Enhanced Transformer with Rotary Position Embedding", eqs. 15, 16
and 34.
"""
import numpy as np


def rope_thetas(base, d):
    """θ_i = base^(−2i/d) for i = 0 … d/2 − 1 (eq. 15): (d/2,) radians per position."""
    i = np.arange(d // 2, dtype=np.float64)
    return np.float64(base) ** (-2.0 * i / d)


def rope_pairs(d, pairing):
    """The (d/2) index pairs (a, b) turned together: (2i, 2i + 1) "interleaved", as eq. 34 and
    RoFormer's code; (i, i + d/2) "half", as GPT-NeoX and Hugging Face's Llama.
    """
    return [(2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + d // 2) for i in range(d // 2)]


def rotation(pos, thetas, pairing):
    """R(pos), (d, d) with d = 2·len(thetas): the block rotation (eq. 34) that turns pair i
    anticlockwise by pos·θ_i, built whole, in long double. The angles are taken in double, as
    the definition's inputs are doubles.
    """
    d = 2 * len(thetas)
    R = np.zeros((d, d), dtype=np.longdouble)
    for i, (a, b) in enumerate(rope_pairs(d, pairing)):
        angle = np.longdouble(np.float64(pos) * np.float64(thetas[i]))
        c, s = np.cos(angle), np.sin(angle)
        R[a, a], R[a, b] = c, -s
        R[b, a], R[b, b] = s, c
    return R


def rope(q, k, m, n, pairing="interleaved", base=10000.0, freqs=None):
    """q (d,) at position m and k (d,) at position n, rotated, and their score, which depends
    on m − n alone (eq. 16). The frequencies are base^(−2i/d), or freqs (d/2,) when given.
    """
    d = len(q)
    thetas = rope_thetas(base, d) if freqs is None else np.asarray(freqs, dtype=np.float64)
    q_rotated = rotation(m, thetas, pairing) @ np.asarray(q, dtype=np.longdouble)  # (d,) R(m)·q
    k_rotated = rotation(n, thetas, pairing) @ np.asarray(k, dtype=np.longdouble)  # (d,) R(n)·k
    raw = q_rotated @ k_rotated
    pairs = rope_pairs(d, pairing)
    pair_scores = np.array([q_rotated[a] * k_rotated[a] + q_rotated[b] * k_rotated[b]
                            for a, b in pairs])  # (d/2,) each pair's part of raw
    return dict(q_rotated=q_rotated, k_rotated=k_rotated, raw=raw,
                scaled=raw / np.sqrt(np.longdouble(d)), offset=m - n, thetas=thetas,
                angles=np.stack([m * thetas, n * thetas], axis=1),  # (d/2, 2) radians
                pairs=np.array(pairs), pair_scores=pair_scores)
