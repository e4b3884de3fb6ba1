# Figure 5.1 drawn with Matplotlib from the cell above (alpha, gamma, c, r, sweep, log): for every
# draft length, the expected tokens per target call, approaching the dashed ceiling 1/(1 − α), and
# the walltime improvement, with the figure's γ marked and the best one drawn; beside it, how many
# tokens one call yields at the figure's γ, and how often the simulated log's calls yielded each.
# Nothing is computed here. The colours are the chapter's (site/src/tokens.js). Exercise 5 asks
# for the mean tokens per call: the marked point is not labelled with it.
import matplotlib.pyplot as plt
import numpy as np

ACCENT, ACCENT_2, RULE, MUTED = "#1f5fbf", "#c2410c", "#d9d6cf", "#5f6368"
at = sweep["gamma"].index(gamma)

fig, (chart, calls) = plt.subplots(1, 2, figsize=(7, 3.5), layout="constrained",
                                   gridspec_kw={"width_ratios": [3, 2]})
chart.plot(sweep["gamma"], sweep["expected_tokens"], color=ACCENT, linewidth=2, marker="o",
           markersize=3, label="expected tokens per target call")
chart.plot(sweep["gamma"], sweep["speedup"], color=ACCENT_2, linewidth=2, marker="s", markersize=3,
           label="walltime improvement, ×")
chart.axhline(r["ceiling"], color="black", linestyle="--", linewidth=1, label="ceiling 1/(1 − α)")
chart.axvline(sweep["best_gamma"], color=ACCENT_2, linestyle=":", linewidth=1.2,
              label=f"best draft length, γ = {sweep['best_gamma']}")
chart.plot([gamma], [sweep["expected_tokens"][at]], "o", color=ACCENT, markersize=8,
           markeredgecolor="white", zorder=3)
chart.plot([gamma], [sweep["speedup"][at]], "s", color=ACCENT_2, markersize=8, markeredgecolor="white",
           zorder=3)
chart.set_xlim(sweep["gamma"][0], sweep["gamma"][-1])
chart.xaxis.get_major_locator().set_params(integer=True)
chart.set_ylim(0, max(r["ceiling"], max(sweep["speedup"])) * 1.3)
chart.grid(True, color=RULE, linewidth=0.8)
chart.set_xlabel("draft length γ, tokens")
chart.set_ylabel("tokens per call; improvement ×")
chart.legend(fontsize=8, frameon=False, loc="lower right")
chart.set_title(f"α = {alpha}, c = {c}; γ = {gamma} marked", fontsize=10)

produced = np.arange(1, gamma + 2)
calls.bar(produced, r["token_probs"], color=ACCENT, width=0.6, label="probability, eq. 1's model")
calls.plot(produced, np.array(log["token_counts"]) / log["rounds"], "D", color=ACCENT_2, markersize=6,
           label=f"share of {log['rounds']:,} simulated calls")
calls.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
calls.set_xticks(produced)
calls.grid(True, axis="y", color=RULE, linewidth=0.8)
calls.set_axisbelow(True)
calls.set_xlabel("tokens from one target call")
calls.set_ylabel("share of calls")
calls.set_ylim(0, max(r["token_probs"]) * 1.45)
calls.legend(fontsize=8, frameon=False, loc="upper right")
calls.set_title(f"One target call at γ = {gamma}", fontsize=10)
fig.suptitle("Figure 5.1  Speculative decoding", fontsize=11)
plt.show()
