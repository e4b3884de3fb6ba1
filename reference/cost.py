"""What attention costs as the context grows: scores, the key-value cache and multiply-adds,
and the linear layers beside them. Chapter 8, section 4; the core's is
core/include/llmmath/cost.hpp.

Grouped-query attention (Ainslie et al. 2023) shares each key and value head among
heads / kv_heads query heads; kv_heads = 1 is multi-query attention (Shazeer 2019).
"""
from fractions import Fraction


def attention_cost(tokens, heads, head_dim, layers=1, kv_heads=None, batch=1,
                   kv_bytes_per_element=2.0, hidden=None, intermediate=None, gated_mlp=False):
    """Every count exactly, in Python integers (which have no size limit; NumPy's int64 would
    overflow past 2^63), and kv_bytes_per_element as the exact fraction its double stands for;
    each converted to the nearest double once, ties to even, as float() of an int or a
    Fraction does. With hidden (d_model) and intermediate (d_ff), the linear layers too: their
    multiply-adds, the context length at which attention's equal them, and attention's share of
    a layer.
    """
    kv_heads = heads if kv_heads is None else kv_heads
    b = Fraction(kv_bytes_per_element)
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
    if hidden is not None:
        # per token: Q and O map hidden to heads·head_dim and back, K and V to kv_heads·head_dim;
        # the feed-forward has 3 matrices hidden × intermediate when gated, else 2
        projection = hidden * head_dim * (2 * heads + 2 * kv_heads)
        ffn = (3 if gated_mlp else 2) * hidden * intermediate
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


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for attentionCost, computed independently of the core with Python's exact
    integers and fractions by the functions above: the lines of tests/fixtures/cost.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py cost

    Every count is computed exactly (Python integers have no size limit; kvBytesPerElement is taken as
    the exact fraction its double stands for) and converted to the nearest double once, with ties to
    even, as float() of an int or Fraction does. The cases near the input limits have results far
    above 2^53, where a product of doubles would round at every step.

    With hidden, intermediate and gatedMlp (1 or 0), a case also has the linear layers' counts, the crossover
    token count (the exact fraction C / (2·heads·headDim), rounded once) and attention's share of a
    layer's multiply-adds (the exact fraction, rounded once).

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...', all scalars.
    """
    from fixture_format import camel, value  # tests/fixtures/, make.py's folder

    lines = ["# attentionCost reference values: reference/cost.py's fixture() (exact integers)"]
    cases = [
        # name, tokens, heads, headDim, layers, kvHeads, batch, kvBytesPerElement
        ("exercise", 16, 8, 32, 1, 8, 1, 2.0),
        ("exercise_double_head_dim", 16, 8, 64, 1, 8, 1, 2.0),
        # public model cards: layers, heads, KV heads, head dimension
        ("llama2_7b_4k", 4096, 32, 128, 32, 32, 1, 2.0),
        ("llama3_8b_8k", 8192, 32, 128, 32, 8, 1, 2.0),
        ("llama3_70b_8k_batch8", 8192, 64, 128, 80, 8, 8, 2.0),
        ("multi_query_int4", 2048, 16, 64, 24, 1, 4, 0.5),
        ("odd_bytes", 100000, 40, 128, 40, 8, 3, 0.5625),
        ("all_limits_third_byte", 2 ** 24, 4096, 4096, 4096, 4096, 4096, 0.3),
        ("near_limits_odd", 2 ** 24 - 1, 4095, 4093, 4091, 35, 4087, 64 - 2 ** -47),
        ("subnormal_bytes", 3, 3, 3, 1, 1, 1, 5e-324),
        ("rounding_of_bytes", 2 ** 24 - 3, 4093, 4079, 4057, 4093, 4051, 0.1),
        # up to 2^30 tokens: a cache of up to 2^79 values times a 53-bit significand, > 2^128
        ("tokens_2_30_llama3_8b", 2 ** 30, 32, 128, 32, 8, 1, 2.0),
        ("all_limits_2_30_third_byte", 2 ** 30, 4096, 4096, 4096, 4096, 4096, 0.3),
        ("near_limits_2_30_odd", 2 ** 30 - 1, 4095, 4093, 4091, 35, 4087, 64 - 2 ** -47),
        ("rounding_of_bytes_2_30", 2 ** 30 - 3, 4093, 4079, 4057, 4093, 4051, 0.1),
        # kvBytes = N·b with N·M > 2^128 whose bits above the lowest 64 are exactly a tie
        # with an even kept part, and whose lowest 64 bits are not zero: correctly rounded up,
        # where rounding the top bits alone (ties to even) would round down (found by a
        # random search over the inputs)
        ("sticky_tie_above_2_128", 852317040, 3799, 3354, 3516, 3799, 984481, 24.378091054322795),
        # a batch up to 2^20 (modelCost's limit): counts up to 2^117, a cache up to 2^87 values
        ("all_limits_batch_2_20", 2 ** 30, 4096, 4096, 4096, 4096, 2 ** 20, 0.3),
        ("near_limits_batch_odd", 2 ** 30 - 1, 4095, 4093, 4091, 35, 2 ** 20 - 1, 64 - 2 ** -47),
    ]
    # with the linear layers: hidden, intermediate, gatedMlp (published configs)
    linear = {
        "llama2_7b_4k": (4096, 11008, True),
        "llama3_8b_8k": (4096, 14336, True),
        "all_limits_2_30_third_byte": (65536, 262144, True),
        "near_limits_2_30_odd": (65535, 262143, False),
        # the width and the feed-forward size at modelCost's limits, 2^20 and 2^22
        "all_limits_batch_2_20": (2 ** 20, 2 ** 22, True),
        "near_limits_batch_odd": (2 ** 20 - 1, 2 ** 22 - 1, False),
    }
    cases.append(("gpt2_small_1k", 1024, 12, 64, 12, 12, 1, 2.0))
    linear["gpt2_small_1k"] = (768, 3072, False)
    for name, tokens, heads, head_dim, layers, kv_heads, batch, bpv in cases:
        lines.append(f"case {name}")
        inputs = {"tokens": tokens, "heads": heads, "headDim": head_dim, "layers": layers,
                  "kvHeads": kv_heads, "batch": batch, "kvBytesPerElement": bpv}
        hidden, intermediate, gated_mlp = linear.get(name, (None, None, False))
        if hidden is not None:
            inputs.update({"hidden": hidden, "intermediate": intermediate, "gatedMlp": int(gated_mlp)})
        r = attention_cost(tokens, heads, head_dim, layers, kv_heads, batch, bpv, hidden,
                           intermediate, gated_mlp)
        # macsPerLayer is qkMacsPerLayer + avMacsPerLayer, which tests/js/cost.test.js checks
        outputs = {camel(key): x for key, x in r.items() if key != "macs_per_layer"}
        for key, x in list(inputs.items()) + list(outputs.items()):
            lines.append(value(key, x))
    return lines
