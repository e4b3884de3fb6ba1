# Figure 8.1 drawn with Matplotlib from the cell above (tokens, L, top_k, r): each token's router
# probabilities over the experts, the experts it is dispatched to outlined; and each expert's
# share of the traffic f_i beside its mean router probability p_i, the even share 1/N dashed.
# Nothing is computed here. The colours are the chapter's (site/src/tokens.js).
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap

ACCENT, ACCENT_2, RULE = "#1f5fbf", "#c2410c", "#d9d6cf"
heat = LinearSegmentedColormap.from_list("half", ["#ffffff", "#8fafdf"])  # the accent at 50%
count, experts = L.shape
names = [f"E{e + 1}" for e in range(experts)]
probs = r["probs"].astype(float)

fig, (routing, load) = plt.subplots(1, 2, figsize=(7, 3.5), layout="constrained",
                                    gridspec_kw={"width_ratios": [1, 1.3]})
routing.imshow(probs, cmap=heat, vmin=0, vmax=1, aspect="auto")
for t in range(count):
    for e in range(experts):
        routing.text(e, t, f"{probs[t, e]:.2f}", ha="center", va="center", fontsize=7.5)
    for e in r["assignments"][t]:
        routing.add_patch(plt.Rectangle((e - 0.5, t - 0.5), 1, 1, fill=False, edgecolor="black",
                                        linewidth=1.8))
routing.set_xticks(range(experts), names)
routing.set_yticks(range(count), tokens)
routing.set_xlabel("expert")
routing.set_title(f"Router probabilities; outlined: top-{top_k}", fontsize=9)

at = np.arange(experts)
load.bar(at - 0.2, r["f"].astype(float), width=0.4, color=ACCENT, label="f: share of the traffic")
load.bar(at + 0.2, r["p"].astype(float), width=0.4, color=ACCENT_2, label="p: mean router probability")
load.axhline(1 / experts, color=ACCENT_2, linestyle="--", linewidth=1.2, label="even share 1/N")
load.set_xticks(at, names)
load.set_xlabel("expert")
load.set_ylabel("share")
load.set_ylim(0, max(r["f"].max(), r["p"].max()) * 1.35)
load.grid(True, axis="y", color=RULE, linewidth=0.8)
load.set_axisbelow(True)
load.legend(fontsize=8, frameon=False, loc="upper right")
load.set_title(f"Load-balancing loss N·Σ f·p = {float(r['loss']):.4f}", fontsize=9)
fig.suptitle(f"Figure 8.1  Routing {count} tokens to {experts} experts", fontsize=11)
plt.show()
