"""ALiBi, attention with linear biases: instead of position embeddings, head k adds
−m_k·(i − j) to the score of query i for key j. Chapter 8, section 6; the core's is
core/include/llmmath/alibi.hpp.

Press et al. 2022, "Train Short, Test Long", §3; the slopes follow get_slopes in their
reference code (github.com/ofirpress/attention_with_linear_biases,
fairseq/models/transformer.py) with its floating-point steps: for h a power of two a start
2^(−8/h) times start**i, where the core computes 2^(−8k/h), so the two agree to a few units in
the last place, and exactly where the slopes are powers of two.
"""
import numpy as np


def power_of_two_slopes(h):
    """h a power of two: the geometric sequence whose start and ratio are both 2^(−8/h)."""
    start = 2.0 ** (-8.0 / h)
    return [start * start ** i for i in range(h)]


def alibi_slopes(h):
    """The h head slopes (h,): for h a power of two, power_of_two_slopes(h); otherwise those of
    p, the largest power of two below h, then every other slope of 2p, as many as are missing.
    """
    if h & (h - 1) == 0:
        return np.array(power_of_two_slopes(h))
    p = 1 << (h.bit_length() - 1)
    return np.concatenate([power_of_two_slopes(p), alibi_slopes(2 * p)[0::2][:h - p]])


def alibi_heads(h):
    """The slopes of h heads, their half-distances ln 2 / m (tokens over which e^(−m·δ)
    halves), and the steepest and gentlest heads as (head, slope, half-distance), each the
    first occurrence, heads numbered from 1.
    """
    slopes = alibi_slopes(h)  # (h,)
    half_distances = np.log(2.0) / slopes  # (h,) tokens
    steep, gentle = int(np.argmax(slopes)), int(np.argmin(slopes))
    return dict(slopes=slopes, half_distances=half_distances,
                steepest=(steep + 1, slopes[steep], half_distances[steep]),
                gentlest=(gentle + 1, slopes[gentle], half_distances[gentle]))


def alibi_decay(slope, count):
    """e^(−m·δ) for δ = 0 … count − 1, (count,): the factor the bias puts on a key's weight at
    distance δ, relative to the query's own position.
    """
    return np.exp(-slope * np.arange(count))


def alibi(slope, tokens=None):
    """One head of slope m: its half-distance ln 2 / m and, for a sequence of `tokens`, the
    bias (tokens, tokens) it adds to the causal scores, −m·(i − j) for key j ≤ query i and −∞
    (masked) after it, with its decay alibi_decay(m, tokens).
    """
    r = dict(half_distance=np.log(2.0) / slope)
    if tokens is None:
        return r
    i = np.arange(tokens)[:, None]  # (tokens, 1) queries
    j = np.arange(tokens)[None, :]  # (1, tokens) keys
    B = -slope * (i - j).astype(np.float64) + 0.0  # + 0.0: the diagonal is +0, not −0
    visible = j <= i
    return dict(r, visible=visible, bias=np.where(visible, B, -np.inf),
                relative_weight=alibi_decay(slope, tokens))


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for alibiSlopes and alibi, computed independently of the core by the
    functions above: the lines of tests/fixtures/alibi.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py alibi

    The slopes follow the algorithm of the ALiBi paper's reference code (Press et al. 2022,
    get_slopes in github.com/ofirpress/attention_with_linear_biases, fairseq/models/transformer.py)
    with its floating-point steps: for h a power of two, a start 2^(−8/h) times start**i, rather
    than the core's 2^(−8k/h), so the two agree to a few units in the last place, and exactly where
    the slopes are powers of two. The bias is built with NumPy broadcasting, the half-distance as
    ln 2 / slope. The steepest and gentlest heads of alibiHeads are NumPy's argmax and argmin of
    the reference slopes (first occurrence, 1-based), each written as [head, slope, half-distance].

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...'. Masked bias entries
    (j > i) are written as nan: null in JavaScript, −∞ in the core.
    """
    from fixture_format import value  # tests/fixtures/, make.py's folder

    lines = ["# alibi reference values: reference/alibi.py's fixture() "
             "(the paper's slope algorithm)"]
    for h in [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 100, 128, 255, 256,
              1000, 4095, 4096]:
        r = alibi_heads(h)
        lines.append(f"case slopes_{h}")
        lines += [value("heads", [[h]]), value("slopes", r["slopes"])]
        lines += [value(name, [r[name]]) for name in ["steepest", "gentlest"]]
    for slope, tokens in [(0.125, 6), (0.5, 4), (2 ** -0.5, 5), (1 / 256, 3), (3.0, 1)]:
        r = alibi(slope, tokens)
        lines.append(f"case bias_{slope:.6g}_{tokens}")
        lines += [value("slope", [[slope]]), value("tokens", [[tokens]]),
                  value("halfDistance", [[r["half_distance"]]]),
                  value("bias", np.where(r["visible"], r["bias"], np.nan)),
                  value("relativeWeight", r["relative_weight"])]
    return lines
