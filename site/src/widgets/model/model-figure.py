# Figure 4.2 drawn with Matplotlib from the cell above (shape, r and its tokens_held): the
# key-value cache against the context, one area per kind of layer (full, sliding, chunked, latent),
# each kind's bytes per token held at the figure's context times the tokens it holds at every
# other; and one device's memory as the engine may use it, split into the weights, the cache at
# the figure's context and what is left. The colours are the chapter's (site/src/tokens.js, and the
# figure's own for chunked and latent layers). Exercise 4b asks for the decoding speed, which is
# not drawn.
import matplotlib.pyplot as plt
import numpy as np

ACCENT, ACCENT_2, RULE, MUTED = "#1f5fbf", "#c2410c", "#d9d6cf", "#5f6368"
KINDS = {"full": ACCENT, "sliding": ACCENT_2, "chunked": "#7c3aed", "mla": "#15803d"}
GIB = 2**30


def size(b):
    """Bytes as the page writes them: KiB, MiB or GiB, three figures."""
    unit = next((u for u in (3, 2, 1) if b >= 1024**u), 1)
    return f"{b / 1024**unit:.3g} {'KMG'[unit - 1]}iB"


context = np.unique(np.geomspace(1, shape["maxContext"], 300).round().astype(int))
at = int(round(r["kv_bytes"] / r["kv_bytes_per_token"]))  # the figure's context, for one sequence

fig, (cache, memory) = plt.subplots(1, 2, figsize=(7, 3.5), layout="constrained",
                                    gridspec_kw={"width_ratios": [3, 2]})
below = np.zeros(len(context))
for part in r["by_kind"]:
    per_token = part["bytes"] / part["tokensHeld"]  # bytes per token held, all layers of the kind
    held = np.array([tokens_held(shape, part["kind"], int(t)) for t in context])
    cache.fill_between(context, below, below + per_token * held, color=KINDS[part["kind"]], alpha=0.6,
                       linewidth=0, label=f"{part['kind']}: {part['layers']} layers")
    below = below + per_token * held
cache.plot(context, below, color="black", linewidth=1, label="whole cache")
cache.plot([at], [r["kv_bytes"]], "o", color="black", markersize=6, zorder=3)
cache.annotate(f"{size(r['kv_bytes'])} at {at:,} tokens", (at, r["kv_bytes"]),
               xytext=(-8, 8), textcoords="offset points", ha="right", fontsize=8)
cache.set_xscale("log", base=2)
cache.set_yscale("log", base=2)
cache.set_xlim(1, shape["maxContext"])
cache.set_ylim(below[0], below[-1] * 2)
cache.set_xticks([1, 64, 4096, 2**17], ["1", "64", "4K", "128K"])
cache.yaxis.set_major_formatter(lambda y, _: size(y))
cache.grid(True, color=RULE, linewidth=0.8)
cache.set_xlabel("context, tokens (log scale)")
cache.set_ylabel("key-value cache (log scale)")
cache.legend(fontsize=8, frameon=False, loc="lower right")
cache.set_title("The key-value cache", fontsize=10)

device = r["per_device"]
parts = [(device["weights_bytes"], ACCENT, "weights"),
         (device["kv_bytes"], ACCENT_2, f"cache, {at:,} tokens"),
         (r["fit"]["spare_bytes"], "#ffffff", "spare")]
start = 0.0
for part, colour, label in parts:
    memory.bar(0, part / GIB, bottom=start / GIB, width=0.6, color=colour, edgecolor="black",
               linewidth=0.8, label=f"{label}: {size(part)}")
    start += part
memory.axhline(start / GIB, color=MUTED, linestyle="--", linewidth=1)
memory.text(0.5, start / GIB * 1.02, f"usable: {size(start)}", va="bottom", ha="center", fontsize=8,
            color=MUTED)
memory.set_xlim(-0.5, 1.5)
memory.set_ylim(0, start / GIB * 1.45)
handles, labels = memory.get_legend_handles_labels()
memory.legend(handles[::-1], labels[::-1], fontsize=8, frameon=False, loc="upper center")  # as stacked
memory.set_xticks([])
memory.set_ylabel("GiB")
fits = "fits" if r["fit"]["fits"] else "does not fit"
memory.set_title(f"One device: it {fits}", fontsize=10)
fig.suptitle(f"Figure 4.2  Your model: {shape['modelType']}, {shape['layers']} layers, "
             f"{r['params']['total'] / 1e9:.3g} billion parameters", fontsize=11)
plt.show()
