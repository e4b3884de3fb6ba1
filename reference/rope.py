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
    on m − n alone (eq. 16) and is computed from it. The frequencies are base^(−2i/d), or freqs
    (d/2,) when given.
    """
    d = len(q)
    thetas = rope_thetas(base, d) if freqs is None else np.asarray(freqs, dtype=np.float64)
    q_rotated = rotation(m, thetas, pairing) @ np.asarray(q, dtype=np.longdouble)  # (d,) R(m)·q
    k_rotated = rotation(n, thetas, pairing) @ np.asarray(k, dtype=np.longdouble)  # (d,) R(n)·k
    # The score from the offset: R(m)q · R(n)k = R(m − n)q · k (eq. 16), so its rounding does
    # not depend on where the pair sits, whatever the magnitudes of q and k.
    q_offset = rotation(m - n, thetas, pairing) @ np.asarray(q, dtype=np.longdouble)  # (d,)
    k_long = np.asarray(k, dtype=np.longdouble)
    raw = q_offset @ k_long
    pairs = rope_pairs(d, pairing)
    pair_scores = np.array([q_offset[a] * k_long[a] + q_offset[b] * k_long[b]
                            for a, b in pairs])  # (d/2,) each pair's part of raw
    return dict(q_rotated=q_rotated, k_rotated=k_rotated, raw=raw,
                scaled=raw / np.sqrt(np.longdouble(d)), offset=m - n, thetas=thetas,
                angles=np.stack([m * thetas, n * thetas], axis=1),  # (d/2, 2) radians
                pairs=np.array(pairs), pair_scores=pair_scores)


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for rope, computed independently of the core with NumPy (Debian's
    python3-numpy) by the functions above: the lines of tests/fixtures/rope.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py rope

    Where the core rotates each pair in a loop, the reference builds the whole d×d rotation matrix
    R(pos) (block-diagonal 2×2 rotations, permuted for the "half" pairing) and multiplies, in long
    double. The frequencies and the angles pos·θ_i are taken in double, as the definition's inputs
    are doubles; everything after that is long double. The score is R(m − n)q · k, as the core's
    (eq. 16): the two extreme cases, magnitudes 1e58 and 1e248, are what the product of the two
    rotated vectors got wrong.

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...'. Vectors are 1×d
    rows; 'pairing' is 0 for interleaved and 1 for half; 'base' is nan when freqs are given.
    """
    from fixture_format import value  # tests/fixtures/, make.py's folder

    rng = np.random.default_rng(20260830)
    lines = ["# rope reference values: reference/rope.py's fixture() (NumPy, long double)"]
    # name, d, m, n, pairing, base (None when freqs), freqs, q and k (None: random)
    cases = [
        ("exercise", 4, 2, 0, "interleaved", None, [0.01, 0.0001], [1, 0, 1, 0], [1, 0, 1, 0]),
        ("exercise_shifted", 4, 7, 5, "interleaved", None, [0.01, 0.0001], [1, 0, 1, 0],
         [1, 0, 1, 0]),
        ("interleaved_d8", 8, 5, 2, "interleaved", 10000.0, None, None, None),
        ("half_d8", 8, 5, 2, "half", 10000.0, None, None, None),
        ("llama3_base_half_d64", 64, 1000, 3, "half", 500000.0, None, None, None),
        ("small_base_negative_position", 2, -3, 4, "interleaved", 10.0, None, None, None),
        ("fractional_positions_freqs", 16, 0.5, 2.25, "half", None, "random", None, None),
        ("long_offset_d128", 128, 4095, 0, "interleaved", 10000.0, None, None, None),
        # a case that once failed: magnitudes 1e58 and 1e248 whose rotated terms cancel unless the score is
        # taken from the offset; the same score at equal positions and two further apart
        ("extreme_magnitudes_equal_positions", 4, 1, 1, "interleaved", 10000.0, None,
         [1.5, -1.26e58, 1.5, 1.5], [1.43e248, 0, 0, 4]),
        ("extreme_magnitudes_offset", 4, 1003, 1000, "interleaved", 10000.0, None,
         [1.5, -1.26e58, 1.5, 1.5], [1.43e248, 0, 0, 4]),
    ]
    for name, d, m, n, pairing, base, freqs, q, k in cases:
        if freqs == "random":
            freqs = rng.uniform(-2, 2, size=d // 2)
        q = rng.normal(size=d) if q is None else np.asarray(q, dtype=np.float64)
        k = rng.normal(size=d) if k is None else np.asarray(k, dtype=np.float64)
        r = rope(q, k, m, n, pairing, base=base, freqs=freqs)
        lines.append(f"case {name}")
        lines += [value("q", q), value("k", k), value("m", [[m]]), value("n", [[n]]),
                  value("pairing", [[0 if pairing == "interleaved" else 1]]),
                  value("base", [[np.nan if base is None else base]])]
        if base is None:
            lines.append(value("freqs", r["thetas"]))
        lines += [value("thetas", r["thetas"]), value("qRotated", r["q_rotated"]),
                  value("kRotated", r["k_rotated"]), value("raw", [[r["raw"]]]),
                  value("scaled", [[r["scaled"]]])]
    return lines
