# Figure 1.2 drawn with Matplotlib from the cell above (a, b, n, r): the relevant key's weight as
# the number of distractors grows, with the figure's n marked. The curve is SciPy's logistic
# function: e^a / (e^a + n·e^b) = expit(a − b − ln n), which takes n as a real number and so draws
# a smooth line on the log axis; the marked point is the cell's own result. The colours are the
# chapter's (site/src/tokens.js).
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter, LogLocator
from scipy.special import expit

ACCENT, ACCENT_2, RULE = "#1f5fbf", "#c2410c", "#d9d6cf"
ns = np.geomspace(1, 1e5, 400)  # distractors, the page's range

fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
ax.plot(ns, expit(a - b - np.log(ns)), color=ACCENT, linewidth=2, label="relevant key's weight")
weight = float(r["relevant_weight"])
ax.plot([n], [weight], "o", color=ACCENT_2, markersize=7, zorder=3,
        label=f"n = {n}: {weight:.1%}, the distractors {float(r['distractor_mass']):.1%}")
ax.set_xscale("log")
ax.xaxis.set_major_locator(LogLocator(base=10))
ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:.0%}"))
ax.set_xlim(1, 1e5)
ax.set_ylim(0, 1)
ax.grid(True, color=RULE, linewidth=0.8)
ax.set_xlabel("distractors n (log scale)")
ax.set_ylabel("relevant key's weight")
ax.legend(frameon=False)
ax.set_title(f"Figure 1.2  Context dilution: one key of score a = {a} among n of score b = {b}",
             fontsize=11)
plt.show()
