# Figure 2.1 drawn with Matplotlib from the cell above (r, tokens, T, top_k, top_p, draws): the
# tokens most probable first, each with its probability after temperature (outlined) and its final
# probability (solid), the tokens top-k and top-p removed hatched in grey; beside them, each token's
# stretch of the cumulative mass, which the dashed top-p line cuts. Nothing is computed here. The
# colours are the chapter's (site/src/tokens.js). draw_distribution() draws Figure 2.2 too, the
# distribution of Exercise 2, further on.
from collections import Counter

import matplotlib.pyplot as plt
from matplotlib.patches import Patch

ACCENT, ACCENT_2, REMOVED, RULE = "#1f5fbf", "#c2410c", "#6b6b6b", "#d9d6cf"


def draw_distribution(r, tokens, T, top_p, labels="final"):
    """The bars and the cumulative mass of a sampling result r; each bar is labelled with its
    final probability (labels="final", kept tokens only) or its probability after temperature
    (labels="tempered", every token). Returns (fig, bars, mass)."""
    order, cutoff = r["order"], r["cutoff"]
    rows = range(len(order))  # row j is the j-th most probable token
    tempered = [float(r["tempered"][t]) for t in order]
    final = [float(r["probs"][t]) for t in order]
    cumulative = [float(c) for c in r["cumulative"]]
    fig, (bars, mass) = plt.subplots(1, 2, figsize=(7, 3.5), sharey=True, layout="constrained",
                                     gridspec_kw={"width_ratios": [3, 2]})
    for j in rows:
        kept = j < cutoff
        if kept:
            bars.barh(j, final[j], height=0.6, color=ACCENT)
            if labels == "final":
                bars.text(final[j] + 0.01, j, f"{final[j]:.3g}", va="center", fontsize=9)
        if labels == "tempered":
            bars.text(max(final[j], tempered[j]) + 0.01, j, f"{tempered[j]:.3g}", va="center",
                      fontsize=9, color="black" if kept else REMOVED)
        bars.barh(j, tempered[j], height=0.6, fill=False, edgecolor="black" if kept else REMOVED,
                  hatch=None if kept else "///", linewidth=1)
        start = cumulative[j - 1] if j else 0.0
        mass.plot([start, cumulative[j]], [j, j], color=ACCENT_2 if kept else REMOVED, linewidth=3,
                  solid_capstyle="butt")
        mass.plot([cumulative[j]], [j], "o", color=ACCENT_2 if kept else REMOVED, markersize=4)
    for ax in (bars, mass):
        if cutoff < len(order):
            ax.axhline(cutoff - 0.5, color=REMOVED, linestyle="--", linewidth=1)
        ax.grid(True, axis="x", color=RULE, linewidth=0.8)
        ax.set_axisbelow(True)
    if top_p < 1:
        mass.axvline(top_p, color=ACCENT_2, linestyle="--", linewidth=1.2)
        mass.text(top_p - 0.02, len(order) - 0.6, f"top-p {top_p}", color=ACCENT_2, fontsize=9,
                  ha="right")
    bars.set_yticks(list(rows), [tokens[t].strip() for t in order])
    for j, label in enumerate(bars.get_yticklabels()):
        label.set_color("black" if j < cutoff else REMOVED)
    bars.invert_yaxis()
    bars.set_xlim(0, 1)
    mass.set_xlim(0, 1.02)
    bars.set_xlabel("probability")
    mass.set_xlabel("cumulative mass, most probable first")
    bars.legend(handles=[Patch(fill=False, edgecolor="black", label=f"after temperature T = {T}"),
                         Patch(color=ACCENT, label="final: kept and renormalised"),
                         Patch(fill=False, edgecolor=REMOVED, hatch="///",
                               label="removed (top-k, top-p)")],
                loc="lower right", fontsize=8, frameon=False)
    return fig, bars, mass


fig, bars, mass = draw_distribution(r, tokens, T, top_p)
counts = Counter(tokens[t].strip() for t in draws)
mass.set_title(f"{len(draws)} draws: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()),
               fontsize=9)
fig.suptitle(f"Figure 2.1  From logits to draws (top-k {top_k or 'off'}, top-p {top_p})", fontsize=11)
plt.show()
