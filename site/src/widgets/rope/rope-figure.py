# Figure 3.1 drawn with Matplotlib from the cell above (q, k, m, n, r and its rope function): one
# dial per pair, the query's pair (blue) turned by m·θ_i and the key's (orange) by n·θ_i, dashed
# before turning; and the score for every offset m − n from −256 to 256 with the same q, k and
# frequencies, each from the cell's rope(), with the figure's offset marked. The colours are the
# chapter's (site/src/tokens.js). Exercise 3 asks for the score: the marked point is not labelled
# with it.
import matplotlib.pyplot as plt
import numpy as np

ACCENT, ACCENT_2, RULE = "#1f5fbf", "#c2410c", "#d9d6cf"
offsets = np.arange(-256, 257)
curve = [float(rope(q, k, o, 0, pairing, base, freqs)["scaled"]) for o in offsets]
dials = min(len(r["pairs"]), 4)  # the first pairs; the page has a dial for every one

fig = plt.figure(figsize=(7, 3.5), layout="constrained")
grid = fig.add_gridspec(dials, 2, width_ratios=[1, 3.2])
for i in range(dials):
    ax = fig.add_subplot(grid[i, 0])
    a, b = r["pairs"][i]
    ax.add_patch(plt.Circle((0, 0), 1, fill=False, color=RULE))
    for before, after, colour in [(q, r["q_rotated"], ACCENT), (k, r["k_rotated"], ACCENT_2)]:
        scale = max(np.hypot(before[a], before[b]), 1e-12)  # each pair drawn on the unit circle
        ax.plot([0, before[a] / scale], [0, before[b] / scale], color=colour, linestyle="--", linewidth=1)
        ax.plot([0, float(after[a]) / scale], [0, float(after[b]) / scale], color=colour, linewidth=2)
    ax.set_xlim(-1.15, 1.15)
    ax.set_ylim(-1.15, 1.15)
    ax.set_aspect("equal")
    ax.axis("off")
    q_angle, k_angle = r["angles"][i]
    ax.set_title(f"pair {i}, θ = {r['thetas'][i]:g}\nq {q_angle:.3g} rad, k {k_angle:.3g} rad", fontsize=8)
chart = fig.add_subplot(grid[:, 1])
chart.plot(offsets, curve, color=ACCENT, linewidth=2, label="the score at each offset")
chart.plot([r["offset"]], [float(r["scaled"])], "o", color=ACCENT_2, markersize=7, zorder=3,
           label=f"the figure's offset, m − n = {r['offset']}")
chart.axhline(0, color="black", linewidth=0.6)
chart.grid(True, color=RULE, linewidth=0.8)
chart.set_xlim(offsets[0], offsets[-1])
chart.set_xticks([-256, -128, 0, 128, 256])
chart.set_xlabel("offset m − n (query position minus key position, tokens)")
chart.set_ylabel(r"score $\tilde q\cdot\tilde k/\sqrt{d}$")
chart.legend(loc="lower center", fontsize=8, frameon=False)
fig.suptitle("Figure 3.1  Rotary embeddings: query (blue) and key (orange) pairs, and the score",
             fontsize=11)
plt.show()
