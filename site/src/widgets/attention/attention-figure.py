# Figure 1.1 drawn with Matplotlib from the cell above (r, tokens, causal): the scores before the
# mask and the weights after the mask and the softmax, as the page's two tables. A masked cell is
# hatched: its score is kept, in grey, and its weight is 0. Nothing is computed here. The colours
# are the chapter's (site/src/tokens.js): its heat-map blue, at half strength under the scores so
# that their text stays legible.
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap

ACCENT, MASK = "#1f5fbf", "#6b6b6b"
heat = LinearSegmentedColormap.from_list("heat", ["#ffffff", ACCENT])
half = LinearSegmentedColormap.from_list("half", ["#ffffff", "#8fafdf"])  # the accent at 50%
labels = [t.strip() for t in tokens]
hidden = ~r["visible"]  # (n, n) the keys in each query's future
scores = r["scores"].astype(float)
weights = r["weights"].astype(float)

fig, (left, right) = plt.subplots(1, 2, figsize=(7, 3.5), layout="constrained")
shown = np.ma.masked_where(hidden, scores)
fig.colorbar(left.imshow(shown, cmap=half), ax=left, shrink=0.75, aspect=15, label="score q·k/√d")
fig.colorbar(right.imshow(np.ma.masked_where(hidden, weights), cmap=heat, vmin=0, vmax=1), ax=right,
             shrink=0.75, aspect=15, label="weight")
for ax, title in [(left, "Scores, before the mask"), (right, "Weights, after the softmax")]:
    for i, j in zip(*hidden.nonzero()):
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                   edgecolor="#c8c8c8", linewidth=0))
    ax.set_title(title, fontsize=10)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("key")
    ax.set_ylabel("query")
for i in range(len(labels)):
    for j in range(len(labels)):
        left.text(j, i, f"{scores[i, j]:.3g}", ha="center", va="center", fontsize=9,
                  color=MASK if hidden[i, j] else "black")
fig.suptitle("Figure 1.1  Scaled dot-product attention" + (", causal mask" if causal else ""), fontsize=11)
plt.show()
