"""What attention costs as the context grows: scores, the key-value cache and multiply-adds,
and the linear layers beside them. Chapter 8, section 4; the core's is
core/include/llmmath/cost.hpp.

Grouped-query attention (Ainslie et al. 2023) shares each key and value head among
heads / kv_heads query heads; kv_heads = 1 is multi-query attention (Shazeer 2019).
"""
from fractions import Fraction


def attention_cost(tokens, heads, head_dim, layers=1, kv_heads=None, batch=1,
                   bytes_per_value=2.0, d_model=None, ffn_dim=None, gated=False):
    """Every count exactly, in Python integers (which have no size limit; NumPy's int64 would
    overflow past 2^63), and bytes_per_value as the exact fraction its double stands for;
    each converted to the nearest double once, ties to even, as float() of an int or a
    Fraction does. With d_model and ffn_dim, the linear layers too: their multiply-adds, the
    context length at which attention's equal them, and attention's share of a layer.
    """
    kv_heads = heads if kv_heads is None else kv_heads
    b = Fraction(bytes_per_value)
    kv_per_layer = 2 * batch * tokens * kv_heads * head_dim  # one key and one value per token and kv head
    qk_macs = batch * heads * tokens * tokens * head_dim  # Q·Kᵀ, the full square; weights·V the same
    r = {
        "scores_per_head": float(tokens * tokens),
        "scores_per_layer": float(batch * heads * tokens * tokens),
        "kv_values_per_layer": float(kv_per_layer),
        "kv_values": float(kv_per_layer * layers),
        "kv_bytes": float(kv_per_layer * layers * b),
        "kv_bytes_per_token": float(2 * kv_heads * head_dim * layers * b),
        "qk_macs_per_layer": float(qk_macs),
        "av_macs_per_layer": float(qk_macs),
        "macs_per_layer": float(2 * qk_macs),
        "macs": float(2 * qk_macs * layers),
    }
    if d_model is not None:
        # per token: Q and O map d_model to heads·head_dim and back, K and V to kv_heads·head_dim;
        # the feed-forward has 3 matrices d_model × ffn_dim when gated, else 2
        projection = d_model * head_dim * (2 * heads + 2 * kv_heads)
        ffn = (3 if gated else 2) * d_model * ffn_dim
        attention_macs = 2 * heads * head_dim * tokens  # QK + AV per token, the full square
        r.update({
            "projection_macs_per_layer": float(batch * tokens * projection),
            "ffn_macs_per_layer": float(batch * tokens * ffn),
            "linear_macs_per_layer": float(batch * tokens * (projection + ffn)),
            # 2·h·n·d_head per token = the linear layers' per token at this n
            "crossover_tokens": float(Fraction(projection + ffn, 2 * heads * head_dim)),
            "attention_share": float(Fraction(attention_macs, attention_macs + projection + ffn)),
        })
    return r
