# Figure 7.1 drawn with Matplotlib from the cell above (X, W, bits, alpha, r and its
# smooth_quant_layer): each channel's range, max|X_j| of the activations and max|W_j| of the
# weights, as they are and after smoothing with the figure's α; and the largest quantisation error
# of the smoothed activations and weights for every α from 0 to 1, each from the cell's
# smooth_quant_layer(), the unsmoothed errors dashed. The colours are the chapter's
# (site/src/tokens.js). Exercise 7 asks for a smoothing factor: the bars are not labelled.
import matplotlib.pyplot as plt
import numpy as np

ACCENT, ACCENT_2, RULE = "#1f5fbf", "#c2410c", "#d9d6cf"
channels = np.arange(1, X.shape[1] + 1)
alphas = np.linspace(0, 1, 41)
swept = [smooth_quant_layer(X, W, a, bits) for a in alphas]

fig, (before, after, errors) = plt.subplots(1, 3, figsize=(7, 3.5), layout="constrained",
                                            gridspec_kw={"width_ratios": [1, 1, 1.4]})
for ax, xs, ws, title in [(before, r["x_abs_max"], r["w_abs_max"], "X and W as they are"),
                          (after, r["x_abs_max_smoothed"], r["w_abs_max_smoothed"],
                           f"Smoothed, α = {alpha}")]:
    ax.bar(channels - 0.2, xs, width=0.4, color=ACCENT, label=r"activations max$|X_j|$")
    ax.bar(channels + 0.2, ws, width=0.4, color=ACCENT_2, label=r"weights max$|W_j|$")
    ax.set_yscale("log")
    ax.set_xticks(channels, [f"ch {j}" for j in channels])
    ax.grid(True, axis="y", color=RULE, linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_title(title, fontsize=9)
low = min(np.min(r["w_abs_max"]), np.min(r["x_abs_max_smoothed"]), np.min(r["w_abs_max_smoothed"]))
high = max(np.max(r["x_abs_max"]), np.max(r["x_abs_max_smoothed"]), np.max(r["w_abs_max_smoothed"]))
for ax in (before, after):
    ax.set_ylim(low / 2, high * 3)
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:g}")
after.sharey(before)
after.tick_params(labelleft=False)
before.set_ylabel("channel range max|·| (log scale)")
before.legend(fontsize=7, frameon=False, loc="upper left")

for key, colour, label in [("quant_x_smoothed", ACCENT, "activations X/s"),
                           ("quant_w_smoothed", ACCENT_2, "weights s·W")]:
    errors.plot(alphas, [p[key]["max_abs_error"] for p in swept], color=colour, linewidth=2, label=label)
    errors.plot([alpha], [r[key]["max_abs_error"]], "o", color=colour, markersize=6, zorder=3)
errors.axhline(r["quant_x"]["max_abs_error"], color=ACCENT, linestyle="--", linewidth=1.2,
               label="X as it is")
errors.axhline(r["quant_w"]["max_abs_error"], color=ACCENT_2, linestyle="--", linewidth=1.2,
               label="W as it is")
errors.set_xlim(0, 1)
errors.set_ylim(0, max(r["quant_x"]["max_abs_error"], r["quant_w"]["max_abs_error"],
                       *(p[k]["max_abs_error"] for p in swept for k in ("quant_x_smoothed", "quant_w_smoothed"))) * 1.45)
errors.grid(True, color=RULE, linewidth=0.8)
errors.set_xlabel("migration strength α")
errors.set_ylabel("largest error |x − dequantised|")
errors.legend(fontsize=7, frameon=False, loc="upper right", ncol=2)
errors.set_title(f"Quantisation error, {bits} bits", fontsize=9)
fig.suptitle("Figure 7.1  Quantising a layer before and after smoothing (SmoothQuant)", fontsize=11)
plt.show()
