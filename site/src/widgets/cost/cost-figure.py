# Figure 4.1 drawn with Matplotlib from the cell above (its inputs and attention_cost): for one
# layer, the scores (growing as n²) and the cached keys and values (growing as n) at every context
# length from 1 to 2^17 tokens, each from the cell's attention_cost(), on log axes, with the
# figure's context marked. The colours are the chapter's (site/src/tokens.js). Exercise 4 asks
# for a count: the marked points are not labelled with theirs.
import matplotlib.pyplot as plt
import numpy as np

ACCENT, ACCENT_2, RULE, MUTED = "#1f5fbf", "#c2410c", "#d9d6cf", "#5f6368"
contexts = sorted({int(t) for t in np.geomspace(1, 2**17, 200).round()})
swept = [attention_cost(t, heads, head_dim, layers, kv_heads, batch, kv_bytes_per_element) for t in contexts]

fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
for key, colour, label in [
    ("scores_per_layer", ACCENT, r"scores per layer, $b h n^2$"),
    ("kv_values_per_layer", ACCENT_2, r"cached keys and values per layer, $2 b n h_{kv} d$"),
]:
    ax.plot(contexts, [s[key] for s in swept], color=colour, linewidth=2, label=label)
    ax.plot([tokens], [r[key]], "o", color=colour, markersize=7, markeredgecolor="white", zorder=3)
ax.axvline(tokens, color=MUTED, linestyle=":", linewidth=1)
ax.text(tokens, 0.97, f" n = {tokens}", color=MUTED, fontsize=9, va="top",
        transform=ax.get_xaxis_transform())
ax.set_xscale("log", base=2)
ax.set_xticks([1, 16, 256, 4096, 65536], ["1", "16", "256", "4K", "64K"])
ax.set_yscale("log")
ax.set_xlim(1, 2**17)
ax.grid(True, color=RULE, linewidth=0.8)
ax.set_xlabel("context n, tokens (log scale)")
ax.set_ylabel("count per layer (log scale)")
ax.legend(frameon=False, fontsize=9)
ax.set_title(f"Figure 4.1  The cost of attention: h = {heads}, $h_{{kv}}$ = {kv_heads}, d = {head_dim}, "
             f"b = {batch}", fontsize=11)
plt.show()
