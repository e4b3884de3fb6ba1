// Copy as NumPy for Figure 7.1, <llm-quantization> (quantization.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt, pyMatrix } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const bits = r?.bits ?? s.bits, alpha = r?.alpha ?? s.alpha;
  return `# SmoothQuant (Xiao et al. 2023) on one linear layer Y = X W, with symmetric per-tensor integer
# quantisation. Core: core/include/llmmath/quantization.hpp.
${HEADER}
X = np.array(${pyMatrix(s.x)}, dtype=float)  # (tokens, channels) activations
W = np.array(${pyMatrix(s.w)}, dtype=float)  # (channels, outputs) weights
bits, alpha = ${pyInt(bits)}, ${py(alpha)}
qmax = 2.0 ** (bits - 1) - 1


def quantize(x):
    """Step Δ = max|x| / qmax (1 when x is all 0); levels rounded half to even and clamped."""
    top = np.abs(x).max()
    step = top / qmax if top > 0 else 1.0
    levels = np.clip(np.rint(x / step), -qmax, qmax) + 0.0  # + 0.0: no -0 level
    return step, levels, levels * step


x_abs_max = np.abs(X).max(axis=0)  # (c,) per channel: columns of X
w_abs_max = np.abs(W).max(axis=1)  # (c,) per channel: rows of W
# s_j = max|X_j|^α / max|W_j|^(1-α), with the reference code's clamps at 1e-5
s = np.maximum(x_abs_max**alpha / np.maximum(w_abs_max, 1e-5) ** (1 - alpha), 1e-5)
Xs = X * (1 / s)  # X·diag(s)^-1 (multiplied by 1/s, as the core does)
Ws = s[:, None] * W  # diag(s)·W

step_x, lx, dx = quantize(X)
step_w, lw, dw = quantize(W)
step_xs, lxs, dxs = quantize(Xs)
step_ws, lws, dws = quantize(Ws)
Y = X @ W

show("x_abs_max", x_abs_max)
show("w_abs_max", w_abs_max)
show("scales", s)
show("x_abs_max_smoothed", x_abs_max / s)
show("w_abs_max_smoothed", w_abs_max * s)
show("step_x", step_x)
show("step_w", step_w)
show("step_x_smoothed", step_xs)
show("step_w_smoothed", step_ws)
show("x_levels", lx)
show("x_smoothed_levels", lxs)
show("x_levels_per_channel", np.abs(lx).max(axis=0))
show("x_smoothed_levels_per_channel", np.abs(lxs).max(axis=0))
show("max_error_x", np.abs(X - dx).max())
show("max_error_w", np.abs(W - dw).max())
show("max_error_x_smoothed", np.abs(Xs - dxs).max())
show("max_error_w_smoothed", np.abs(Ws - dws).max())
show("output_error_quantized", np.abs(Y - dx @ dw).max())
show("output_error_quantized_smoothed", np.abs(Y - dxs @ dws).max())
show("output_error_smoothing_alone", np.abs(Y - Xs @ Ws).max())  # rounding only
`;
};
