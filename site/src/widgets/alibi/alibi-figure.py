# Figure 6.1 drawn with Matplotlib from the cell above (heads, head, tokens, distance, h, m and its
# alibi functions): the slopes of all heads, the figure's head in full colour; that head's bias
# for a short sequence, shaded by the weight factor e^bias it causes, masked keys hatched; and the
# factor e^(−m·δ) against the distance δ, from the cell's alibi_decay(), with the evidence
# distance marked. The colours are the chapter's (site/src/tokens.js). Exercise 6 asks for the
# half-distance: it is not drawn (the page draws it once the exercise is answered).
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap

ACCENT, ACCENT_2, RULE, MASK = "#1f5fbf", "#c2410c", "#d9d6cf", "#6b6b6b"
heat = LinearSegmentedColormap.from_list("heat", ["#ffffff", ACCENT])
bias = alibi(m, tokens)
reach = max(2 * distance, 20)  # distances drawn
decay = alibi_decay(m, reach + 1)

fig, (slopes, grid, curve) = plt.subplots(1, 3, figsize=(7, 3.5), layout="constrained",
                                          gridspec_kw={"width_ratios": [1.1, 1.2, 1.5]})
numbers = np.arange(1, heads + 1)
slopes.bar(numbers, h["slopes"], color=[ACCENT if k == head else "#a5bfe5" for k in numbers])
slopes.set_xticks(numbers if heads <= 8 else numbers[::heads // 8])
slopes.set_xlabel("head k")
slopes.set_ylabel("slope m")
slopes.grid(True, axis="y", color=RULE, linewidth=0.8)
slopes.set_axisbelow(True)
slopes.set_title(f"{heads} heads; head {head}: m = {m:g}", fontsize=9)

factor = np.ma.masked_where(~bias["visible"], np.exp(bias["bias"]))
image = grid.imshow(factor, cmap=heat, vmin=0, vmax=1)
for i, j in zip(*np.nonzero(~bias["visible"])):
    grid.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                 edgecolor="#c8c8c8", linewidth=0))
ticks = np.arange(tokens)[:: max(1, tokens // 8)]
grid.set_xticks(ticks, ticks + 1)
grid.set_yticks(ticks, ticks + 1)
grid.set_xlabel("key j")
grid.set_ylabel("query i")
fig.colorbar(image, ax=grid, location="bottom", shrink=0.9, label=r"weight factor $e^{-m(i-j)}$")
grid.set_title("Bias −m·(i − j)", fontsize=9)

curve.plot(np.arange(reach + 1), decay, color=ACCENT, linewidth=2)
at = float(decay[distance])
curve.plot([distance], [at], "o", color=ACCENT_2, markersize=7, zorder=3)
curve.annotate(f"δ = {distance}: ×{at:.2g}", (distance, at), xytext=(0, 12), textcoords="offset points",
               ha="center", fontsize=8)
curve.set_xlim(0, reach)
curve.set_ylim(0, 1.05)
curve.grid(True, color=RULE, linewidth=0.8)
curve.set_xlabel("distance δ, tokens")
curve.set_ylabel(r"weight factor $e^{-m\delta}$")
curve.set_title("The factor against distance", fontsize=9)
fig.suptitle("Figure 6.1  ALiBi: head slopes, one head's bias, and its decay", fontsize=11)
plt.show()
