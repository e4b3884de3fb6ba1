"""Numeric precision: symmetric integer quantisation of a tensor, and SmoothQuant's migration
of scale from activation outliers to weights. Chapter 8, section 7; the core's is
core/include/llmmath/quantization.hpp.

Xiao et al. 2023, "SmoothQuant: Accurate and Efficient Post-Training Quantization for Large
Language Models", §4, eq. 4, with the clamps of their reference code (mit-han-lab/smoothquant,
smoothquant/smooth.py, smooth_ln_fcs: weight maxima, then scales, at least 1e-5).
"""
import numpy as np


def quantize(x, bits=8):
    """Symmetric per-tensor quantisation of x (any shape) to the levels −qmax … qmax,
    qmax = 2^(bits−1) − 1 (eq. 1): the scale Δ, the step between levels, is max|x| / qmax (1
    when x is all 0); levels rounded half to even (np.round) and clamped.
    """
    qmax = 2.0 ** (bits - 1) - 1
    amax = np.max(np.abs(x))
    scale = amax / qmax if amax > 0 else 1.0
    levels = np.clip(np.round(x / scale), -qmax, qmax) + 0.0  # + 0.0: no −0 level
    dequantized = levels * scale
    errors = x - dequantized  # each at most half the scale Δ
    return dict(scale=scale, qmax=qmax, levels=levels, dequantized=dequantized, errors=errors,
                max_abs_error=np.max(np.abs(errors)))


def smooth_quant(x_abs_max, w_abs_max, alpha=0.5):
    """SmoothQuant's per-channel factors (eq. 4) s_j = max|X_j|^α / max|W_j|^(1−α) from the
    activation and weight channel maxima (c,), and the maxima they leave, max|X_j| / s_j and
    max|W_j|·s_j, in long double. Weight maxima and scales are clamped at 1e-5 as in the
    reference code (and 0^0 = 1, as in torch), so all-zero channels get finite scales.
    """
    x = np.asarray(x_abs_max, dtype=np.longdouble)  # (c,)
    w = np.asarray(w_abs_max, dtype=np.longdouble)  # (c,)
    a = np.longdouble(alpha)
    floor = np.longdouble(1e-5)  # the double nearest 1e-5, as the core's constant
    s = np.maximum(x ** a / np.maximum(w, floor) ** (1 - a), floor)  # (c,)
    return dict(scales=s, x_abs_max=x / s, w_abs_max=w * s)


def smooth_quant_layer(X, W, alpha=0.5, bits=8):
    """SmoothQuant on one linear layer Y = X·W (§4, eqs. 3–4), X (t, c) activations and W (c, o)
    weights: X·diag(s)⁻¹ and diag(s)·W give the same product in exact arithmetic, and after
    smoothing both quantise (per tensor) with a smaller error on Y. The smoothed tensors are
    formed in double from the scales rounded to double, as the core holds them.
    """
    x_abs_max = np.abs(X).max(axis=0)  # (c,) per channel: the columns of X
    w_abs_max = np.abs(W).max(axis=1)  # (c,) per channel: the rows of W
    s = smooth_quant(x_abs_max, w_abs_max, alpha)["scales"].astype(np.float64)  # (c,)
    X_s = X * (1 / s)  # (t, c) X·diag(s)⁻¹, multiplied by 1/s as the core does
    W_s = s[:, None] * W  # (c, o) diag(s)·W
    quant_x, quant_w = quantize(X, bits), quantize(W, bits)
    quant_x_smoothed, quant_w_smoothed = quantize(X_s, bits), quantize(W_s, bits)
    Y = X @ W  # (t, o) in full precision
    Y_q = quant_x["dequantized"] @ quant_w["dequantized"]
    Y_qs = quant_x_smoothed["dequantized"] @ quant_w_smoothed["dequantized"]
    return dict(
        x_abs_max=x_abs_max, w_abs_max=w_abs_max, scales=s,
        x_abs_max_smoothed=x_abs_max / s, w_abs_max_smoothed=w_abs_max * s,
        x_smoothed=X_s, w_smoothed=W_s,
        quant_x=quant_x, quant_w=quant_w,
        quant_x_smoothed=quant_x_smoothed, quant_w_smoothed=quant_w_smoothed,
        x_levels=np.abs(quant_x["levels"]).max(axis=0),  # (c,) largest |level| per channel
        x_levels_smoothed=np.abs(quant_x_smoothed["levels"]).max(axis=0),
        largest_channel=int(np.argmax(x_abs_max)), smallest_channel=int(np.argmin(x_abs_max)),
        y=Y, y_quantized=Y_q, y_quantized_smoothed=Y_qs,
        error_quantized=np.abs(Y - Y_q).max(),
        error_quantized_smoothed=np.abs(Y - Y_qs).max(),
        error_smoothing_alone=np.abs(Y - X_s @ W_s).max())  # rounding only


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for quantize and smoothQuant, computed independently of the core with NumPy
    (Debian's python3-numpy) by the functions above: the lines of tests/fixtures/quantization.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py quantization

    quantize uses np.round, which rounds halves to even, and np.clip; smoothQuant evaluates
    x**alpha / w**(1 - alpha) in long double, with the clamps of the reference implementation
    (mit-han-lab/smoothquant, smoothquant/smooth.py: weight maxima, then scales, at least 1e-5;
    0**0 = 1 as in torch), so all-zero channels have finite scales.

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...'; vectors are 1×n
    rows. smoothQuant's inputs are called xAbsMaxIn and wAbsMaxIn, because its results reuse the
    names xAbsMax and wAbsMax.
    """
    from fixture_format import value  # tests/fixtures/, make.py's folder

    rng = np.random.default_rng(20260831)
    lines = ["# quantization reference values: reference/quantization.py's fixture() (NumPy)"]
    normal = rng.normal(size=64)
    with_outlier = rng.normal(size=64)
    with_outlier[17] = 60.0  # one outlier channel, as in the activations SmoothQuant targets
    cases = [
        ("normal_8bit", normal, 8),
        ("normal_4bit", normal, 4),
        ("normal_2bit", normal, 2),
        ("normal_16bit", normal, 16),
        ("outlier_8bit", with_outlier, 8),
        ("outlier_4bit", with_outlier, 4),
        ("ties_8bit", np.array([127.0, 0.5, 1.5, 2.5, -2.5, -0.5, 3.5, -126.5]), 8),
        ("all_zero", np.zeros(5), 8),
        ("single_negative", np.array([-3.0]), 3),
    ]
    for name, x, bits in cases:
        r = quantize(x, bits)
        lines.append(f"case {name}")
        lines += [value("values", x), value("bits", [[bits]]), value("scale", [[r["scale"]]]),
                  value("levels", r["levels"]), value("dequantized", r["dequantized"]),
                  value("maxAbsError", [[r["max_abs_error"]]])]
    # smoothQuant: activation maxima with outlier channels, ordinary weight maxima.
    x_max = np.abs(rng.normal(size=12)) + 0.1
    x_max[[2, 9]] = [45.0, 80.0]
    w_max = np.abs(rng.normal(scale=0.2, size=12)) + 0.01
    zero_x = np.array([8.0, 0.0, 3.0, 2e-6, 5.0, 0.0])
    zero_w = np.array([0.0, 0.5, 1e-7, 0.0, 0.3, 0.0])
    for name, x, w, alpha in [
        ("smooth_exercise", np.array([8.0]), np.array([0.5]), 0.5),
        ("smooth_outliers_half", x_max, w_max, 0.5),
        ("smooth_outliers_075", x_max, w_max, 0.75),
        ("smooth_alpha_0", x_max, w_max, 0.0),
        ("smooth_alpha_1", x_max, w_max, 1.0),
        # all-zero channels and a weight maximum below the clamp: refused before, clamped now
        ("smooth_zero_channels_half", zero_x, zero_w, 0.5),
        ("smooth_zero_channels_0", zero_x, zero_w, 0.0),
        ("smooth_zero_channels_085", zero_x, zero_w, 0.85),
    ]:
        r = smooth_quant(x, w, alpha)
        lines.append(f"case {name}")
        lines += [value("xAbsMaxIn", x), value("wAbsMaxIn", w), value("alpha", [[alpha]]),
                  value("scales", r["scales"]), value("xAbsMax", r["x_abs_max"]),
                  value("wAbsMax", r["w_abs_max"])]
    return lines
