"""Your model: a Hugging Face config.json read as transformers reads it, and what the model
costs: the key-value cache for a batch at any context, the arithmetic of the next token, the
parameters and the bytes of the weights. Chapter 4; the core's is core/include/llmmath/model.hpp.

Written from the rules of the working spec (model-spec.md, "Reading a config" and "Parameters")
and transformers' configuration and modeling classes (field names, family defaults, which layers
slide, are chunked or keep a latent cache, which matrices carry biases and norms), independently
of the core. Every count is an exact Python integer; byte counts with a fractional element size
(int4: 0.5) are exact fractions, each turned into the nearest double once, as float() does.

Grouped-query attention (Ainslie et al. 2023); sliding windows (Mistral 7B, Jiang et al. 2023;
Gemma 2, 2024); chunked attention (Llama 4, 2025); multi-head latent attention (DeepSeek-V2,
2024, §2.1: a latent of kv_lora_rank plus one shared RoPE key of qk_rope_head_dim per token).
"""
from fractions import Fraction


def model_from_config(config):
    """The shape of the text model of a config.json (a dict, as json.load gives it): camelCase
    keys as the API's ModelShape, and 'assumed', a sentence per value not read from the file.
    """
    assumed = []
    outer = config
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    where = "config.text_config" if text is not outer else "config"
    family = text.get("model_type", "") or ""
    if text is not outer:
        assumed.append(f"The text model is {where} ({family or 'no model_type'}); the "
                       "vision or audio tower of the outer config is not counted.")

    def field(*names):
        # the first of the names present with a value that is not null
        for name in names:
            if text.get(name) is not None:
                return text[name]
        return None

    # config-class defaults of the families whose files leave fields out (transformers)
    defaults = {
        "gemma3_text": dict(vocab=262208, hidden=2304, intermediate=9216, layers=26, heads=8,
                            kv_heads=4, head_dim=256, max_context=131072, window=4096),
        "llama4_text": dict(vocab=202048, hidden=5120, intermediate=8192, layers=48, heads=40,
                            kv_heads=8, head_dim=128, max_context=131072),
    }.get(family, {})

    def required(value, key, name):
        if value is not None:
            return value
        if key in defaults:
            assumed.append(f"{where}.{name} is absent: {defaults[key]}, the {family} default.")
            return defaults[key]
        raise ValueError(f"{where}.{name} is missing")

    layers = required(field("num_hidden_layers", "n_layer"), "layers", "num_hidden_layers")
    hidden = required(field("hidden_size", "n_embd", "d_model"), "hidden", "hidden_size")
    heads = required(field("num_attention_heads", "n_head"), "heads", "num_attention_heads")
    vocab = required(field("vocab_size"), "vocab", "vocab_size")

    # key-value heads: the file's count, Falcon's multi-query flag, else the family default or heads
    kv_heads = field("num_key_value_heads", "n_head_kv", "num_kv_heads")
    if kv_heads is None and family == "falcon" and text.get("multi_query", True) \
            and not text.get("new_decoder_architecture", False):
        kv_heads = 1
        assumed.append(f"{where} has no KV-head count: multi_query means 1 key-value head.")
    if kv_heads is None:
        if "kv_heads" in defaults:
            kv_heads = defaults["kv_heads"]
            assumed.append(f"{where}.num_key_value_heads is absent: {kv_heads}, the {family} default.")
        else:
            kv_heads = heads
            assumed.append(f"{where}.num_key_value_heads is absent: as many as the query heads "
                           f"({heads}), multi-head attention.")

    # MLA (DeepSeek V2/V3): per-head query and key of nope + rope, values of v_head_dim
    mla = None
    if text.get("kv_lora_rank") is not None:
        mla = {"kvLoraRank": text["kv_lora_rank"], "qLoraRank": text.get("q_lora_rank"),
               "qkNopeHeadDim": text["qk_nope_head_dim"], "qkRopeHeadDim": text["qk_rope_head_dim"],
               "vHeadDim": text["v_head_dim"]}
        head_dim = mla["qkNopeHeadDim"] + mla["qkRopeHeadDim"]
        v_head_dim = mla["vHeadDim"]
    else:
        head_dim = field("head_dim")
        if head_dim is None:
            family_head_dim = {"gemma": 256, "gemma2": 256, "gemma3": 256, "gemma3_text": 256,
                               "qwen3": 128, "qwen3_moe": 128, "llama4": 128, "llama4_text": 128}
            if family in family_head_dim:
                head_dim = family_head_dim[family]
                assumed.append(f"{where}.head_dim is absent: {head_dim}, the {family} default.")
            else:
                head_dim = hidden // heads  # hidden_size / num_attention_heads
        v_head_dim = head_dim

    # the dense MLP's width: GPT-2's n_inner (null: 4·hidden), Falcon's ffn_hidden_size (4·hidden)
    if family == "gpt2":
        intermediate = text.get("n_inner") or 4 * hidden
    elif family == "falcon":
        intermediate = text.get("ffn_hidden_size") or 4 * hidden
    elif family in ("llama4", "llama4_text"):
        intermediate = field("intermediate_size_mlp") or 16384
    else:
        intermediate = required(field("intermediate_size"), "intermediate", "intermediate_size")

    # tied embeddings: the text config's, the outer config's, else the family's default
    tied_default = family in ("gpt2", "falcon") or family.startswith("gemma")
    tied = text.get("tie_word_embeddings", outer.get("tie_word_embeddings", tied_default))

    max_context = field("max_position_embeddings", "n_positions")
    if max_context is None:
        max_context = {"gpt2": 1024}.get(family, defaults.get("max_context", 2048))
        assumed.append(f"{where}.max_position_embeddings is absent: {max_context}.")

    # ---- which layers slide, are chunked, keep a latent: transformers' rule for each family
    window = text.get("sliding_window")
    if window is None and family == "mistral" and "sliding_window" not in text:
        window = 4096
        assumed.append(f"{where}.sliding_window is absent: 4096, the mistral default.")
    if window is None and "window" in defaults and "sliding_window" not in text:
        window = defaults["window"]
        assumed.append(f"{where}.sliding_window is absent: {window}, the {family} default.")
    if window is not None and window <= 0:
        raise ValueError(f"{where}.sliding_window must be positive, got {window}")
    chunk = text.get("attention_chunk_size")
    names = {"full_attention": "full", "sliding_attention": "sliding",
             "chunked_attention": "chunked"}
    if text.get("layer_types") is not None:
        kinds = []
        for name in text["layer_types"]:
            if name not in names:
                assumed.append(f"{where}.layer_types has \"{name}\": counted as full attention.")
            kinds.append(names.get(name, "full"))
        if len(kinds) != layers:
            raise ValueError(f"{where}.layer_types has {len(kinds)} entries for {layers} layers")
        if mla is not None:
            kinds = ["mla"] * layers
    elif mla is not None:
        kinds = ["mla"] * layers
    elif family == "gemma2":
        kinds = ["sliding" if i % 2 == 0 else "full" for i in range(layers)]
    elif family in ("gemma3", "gemma3_text"):
        pattern = text.get("sliding_window_pattern", 6)
        kinds = ["full" if (i + 1) % pattern == 0 else "sliding" for i in range(layers)]
    elif family in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe"):
        first = text.get("max_window_layers", layers)
        slides = bool(text.get("use_sliding_window", False)) and window is not None
        kinds = ["sliding" if slides and i >= first else "full" for i in range(layers)]
    elif family in ("llama4", "llama4_text"):
        if chunk is None and "attention_chunk_size" not in text:
            chunk = 8192
            assumed.append(f"{where}.attention_chunk_size is absent: 8192, the llama4 default.")
        rope = text.get("no_rope_layers") or [int((i + 1) % 4 != 0) for i in range(layers)]
        kinds = ["chunked" if chunk is not None and rope[i] else "full" for i in range(layers)]
    else:
        kinds = ["sliding" if window is not None else "full" for _ in range(layers)]
    if "sliding" in kinds and window is None:
        raise ValueError(f"{where}.sliding_window is missing but layers slide")
    window = window if "sliding" in kinds else None
    chunk = chunk if "chunked" in kinds else None

    # ---- mixture of experts: how many, how wide, in which layers
    moe = None
    experts = field("n_routed_experts", "num_local_experts", "num_experts")
    if family in ("llama4", "llama4_text") and experts is None:
        experts = 16
    if experts:
        per_token = field("num_experts_per_tok", "experts_per_token") or 1
        expert_width = field("moe_intermediate_size", "intermediate_size")
        shared, shared_width = 0, 0
        if text.get("n_shared_experts"):  # DeepSeek: one MLP of moe_intermediate_size per shared expert
            shared, shared_width = text["n_shared_experts"], text["moe_intermediate_size"]
        elif family in ("llama4", "llama4_text"):
            shared, shared_width = 1, field("intermediate_size") or 8192
        elif family == "qwen2_moe":
            shared, shared_width = 1, text["shared_expert_intermediate_size"]
        if family.startswith("deepseek"):
            first_dense = text.get("first_k_dense_replace", 0)
            every = text.get("moe_layer_freq", 1)
            has = [i >= first_dense and i % every == 0 for i in range(layers)]
        elif family in ("qwen2_moe", "qwen3_moe"):
            step = text.get("decoder_sparse_step", 1)
            dense_only = text.get("mlp_only_layers") or []
            has = [i not in dense_only and (i + 1) % step == 0 for i in range(layers)]
        elif family in ("llama4", "llama4_text"):
            step = text.get("interleave_moe_layer_step", 1)
            has = [(i + 1) % step == 0 for i in range(layers)]
        else:  # mixtral, gpt_oss: every layer
            has = [True] * layers
        router_bias = family == "gpt_oss" or (family == "deepseek_v3"
                                              and text.get("topk_method") == "noaux_tc")
        moe = {"experts": experts, "sharedExperts": shared, "expertsPerToken": per_token,
               "expertWidth": expert_width, "sharedWidth": shared_width, "moeLayers": sum(has),
               "denseLayers": layers - sum(has), "routerBias": router_bias}

    # ---- biases, norms and the other small tensors
    if family in ("gpt2", "gpt_oss") or text.get("attention_bias") is True \
            or (family == "falcon" and text.get("bias") is True):
        attention_bias = "qkvo"
    elif family in ("qwen2", "qwen2_moe"):
        attention_bias = "qkv"
    else:
        attention_bias = "none"
    mlp_bias = family in ("gpt2", "gpt_oss") or text.get("mlp_bias") is True \
        or (family == "falcon" and text.get("bias") is True)
    norm_kind = "layer" if family in ("gpt2", "falcon") else "rms"
    if family in ("gemma2", "gemma3", "gemma3_text"):
        norms = 4  # before and after attention, before and after the MLP
    elif family == "falcon" and text.get("parallel_attn", True) \
            and not text.get("new_decoder_architecture", False):
        norms = 1  # one LayerNorm feeds attention and MLP in parallel
    elif family == "falcon" and text.get("new_decoder_architecture", False):
        norms = text.get("num_ln_in_parallel_attn") or 2
    else:
        norms = 2
    qk_norm = family in ("qwen3", "qwen3_moe", "gemma3", "gemma3_text")

    if text.get("num_nextn_predict_layers"):
        assumed.append(f"{where}.num_nextn_predict_layers: {text['num_nextn_predict_layers']} "
                       "multi-token-prediction layer(s) not counted (transformers does not load them).")
    if outer.get("quantization_config") or text.get("quantization_config"):
        assumed.append("The file's quantization_config does not change the counts: weights bytes "
                       "use the chosen bytes per parameter.")

    return {
        "modelType": family, "layers": layers, "hidden": hidden, "heads": heads,
        "kvHeads": kv_heads, "headDim": head_dim, "vHeadDim": v_head_dim,
        "intermediate": intermediate, "vocab": vocab, "tiedEmbeddings": bool(tied),
        "maxContext": max_context, "layerKinds": kinds, "window": window, "chunk": chunk,
        "mla": mla, "moe": moe, "gatedMlp": family not in ("gpt2", "falcon"),
        "attentionBias": attention_bias, "mlpBias": mlp_bias, "normKind": norm_kind,
        "normsPerLayer": norms, "qkNorm": qk_norm, "attentionSinks": family == "gpt_oss",
        "positionEmbeddings": max_context if family == "gpt2" else 0, "assumed": assumed,
    }


def model_params(shape):
    """Every parameter of the text model, exactly, and its matrices: a dict of 'total',
    'active' (one token's: only its routed experts), 'embedding' (token and position tables),
    and 'matmul', the weights of the matrices one token multiplies by (the output projection
    included even when tied; no biases, norms, sinks or look-ups).
    """
    s = shape
    h, H, d, dv = s["hidden"], s["heads"], s["headDim"], s["vHeadDim"]
    q, kv = H * d, s["kvHeads"] * d

    # attention of one layer: its matrices, then its biases, q/k norms and sinks
    if s["mla"] is not None:
        m = s["mla"]
        r_q, r_kv, rope, nope = m["qLoraRank"], m["kvLoraRank"], m["qkRopeHeadDim"], m["qkNopeHeadDim"]
        attn_matrices = (h * r_q + r_q * H * d if r_q else h * H * d)  # queries, low-rank or not
        attn_matrices += h * (r_kv + rope) + r_kv * H * (nope + dv) + H * dv * h  # latent, up, out
        attn_small = (r_q or 0) + r_kv  # the RMS norms of the two latents
    else:
        attn_matrices = h * q + 2 * h * kv + q * h  # W_Q, W_K, W_V, W_O
        attn_small = {"none": 0, "qkv": q + 2 * kv, "qkvo": q + 2 * kv + h}[s["attentionBias"]]
    attn_small += 2 * d if s["qkNorm"] else 0
    attn_small += H if s["attentionSinks"] else 0

    def mlp(width):
        # (matrices, biases) of one MLP or expert of this width
        if s["gatedMlp"]:
            return 3 * h * width, (2 * width + h if s["mlpBias"] else 0)
        return 2 * h * width, (width + h if s["mlpBias"] else 0)

    norm = h * (2 if s["normKind"] == "layer" else 1)  # weight (and bias) of one norm
    # a layer with experts and one with a dense MLP: (parameters, idle experts', matrices)
    base = attn_matrices + attn_small + s["normsPerLayer"] * norm
    d_mat, d_bias = mlp(s["intermediate"])
    dense = (base + d_mat + d_bias, 0, attn_matrices + d_mat)
    moe, sparse, moe_layers = s["moe"], (0, 0, 0), 0
    if moe is not None:
        e_mat, e_bias = mlp(moe["expertWidth"])
        sh_mat, sh_bias = mlp(moe["sharedWidth"]) if moe["sharedExperts"] else (0, 0)
        router = h * moe["experts"]  # W_router, experts × hidden
        gate = h if s["modelType"] == "qwen2_moe" else 0  # the shared expert's sigmoid gate
        params = (base + moe["experts"] * (e_mat + e_bias)
                  + moe["sharedExperts"] * (sh_mat + sh_bias) + router + gate
                  + (moe["experts"] if moe["routerBias"] else 0))
        idle = (moe["experts"] - moe["expertsPerToken"]) * (e_mat + e_bias)
        matrices = (attn_matrices + moe["expertsPerToken"] * e_mat + moe["sharedExperts"] * sh_mat
                    + router + gate)
        sparse, moe_layers = (params, idle, matrices), moe["moeLayers"]
    dense_layers = s["layers"] - moe_layers
    total = dense_layers * dense[0] + moe_layers * sparse[0]
    active = total - moe_layers * sparse[1]
    matmul = dense_layers * dense[2] + moe_layers * sparse[2]
    embedding = s["vocab"] * h + s["positionEmbeddings"] * h
    head = 0 if s["tiedEmbeddings"] else s["vocab"] * h
    rest = norm + embedding + head  # the final norm, the tables, an untied output projection
    return {"total": total + rest, "active": active + rest, "embedding": embedding,
            "matmul": matmul + s["vocab"] * h}


def kv_elements_per_token(shape, kind, mla_cache="latent"):
    """Values one layer of this kind caches per token: a key and a value per KV head, or
    MLA's latent (kv_lora_rank + qk_rope_head_dim) or its expanded per-head keys and values."""
    s = shape
    if kind == "mla":
        m = s["mla"]
        if mla_cache == "latent":
            return m["kvLoraRank"] + m["qkRopeHeadDim"]
        return s["heads"] * (m["qkNopeHeadDim"] + m["qkRopeHeadDim"]) + s["heads"] * m["vHeadDim"]
    return s["kvHeads"] * (s["headDim"] + s["vHeadDim"])


def tokens_held(shape, kind, tokens):
    """Tokens a layer of this kind keeps in its cache at this context length."""
    if kind == "sliding":
        return min(tokens, shape["window"])
    if kind == "chunked":
        return min(tokens, shape["chunk"])
    return tokens


def attention_flops_at(shape, tokens):
    """2·heads·(headDim + vHeadDim) per visible token and layer: the scores and the weighted
    values of one new token at position `tokens` (one sequence)."""
    s = shape
    per_token = 2 * s["heads"] * (s["headDim"] + s["vHeadDim"])
    total = 0
    for kind in s["layerKinds"]:
        if kind == "sliding":
            visible = min(tokens, s["window"])
        elif kind == "chunked":
            visible = (tokens - 1) % s["chunk"] + 1  # from the start of its chunk
        else:
            visible = tokens
        total += per_token * visible
    return total


def model_cost(shape, tokens, batch=1, kv_bytes_per_element=2, weight_bytes_per_param=2,
               mla_cache="latent", memory_bytes=None):
    """The cache, the arithmetic and the weights of the model of `shape` (model_from_config's)
    at a context of `tokens` for `batch` sequences. Counts are exact integers; bytes are exact
    fractions of the element sizes' doubles, each rounded once to a double."""
    s = shape
    b_kv, b_w = Fraction(kv_bytes_per_element), Fraction(weight_bytes_per_param)

    def kv_bytes_exact(t, n):
        return sum(kv_elements_per_token(s, k, mla_cache) * tokens_held(s, k, t)
                   for k in s["layerKinds"]) * n * b_kv

    by_kind = []
    for kind in ("full", "sliding", "chunked", "mla"):
        count = s["layerKinds"].count(kind)
        if count:
            held = tokens_held(s, kind, tokens)
            elements = kv_elements_per_token(s, kind, mla_cache) * held * count * batch
            by_kind.append({"kind": kind, "layers": count, "tokensHeld": held,
                            "bytes": float(elements * b_kv)})
    per_token = sum(kv_elements_per_token(s, k, mla_cache) for k in s["layerKinds"]) * b_kv

    p = model_params(s)
    linear = 2 * p["matmul"]
    # the smallest context in 1 … maxContext whose next token's attention reaches the linear
    # layers': nondecreasing within each chunk (a chunked layer starts over at a chunk's start)
    crossover = None
    step = s["chunk"] or s["maxContext"]
    start = 1
    while start <= s["maxContext"] and crossover is None:
        end = min(start + step - 1 - (start - 1) % step, s["maxContext"])
        if attention_flops_at(s, end) >= linear:
            lo, hi = start, end
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if attention_flops_at(s, mid) >= linear else (mid + 1, hi)
            crossover = lo
        start = end + 1

    weights = p["total"] * b_w
    r = {
        "kv_bytes": float(kv_bytes_exact(tokens, batch)),
        "kv_bytes_per_token": float(per_token),
        "by_kind": by_kind,
        "attention_flops": float(attention_flops_at(s, tokens)),
        "linear_flops": float(linear),
        "crossover_tokens": crossover,
        "params": {"total": p["total"], "active": p["active"], "embedding": p["embedding"]},
        "weights_bytes": float(weights),
    }
    if memory_bytes is not None:
        room = Fraction(memory_bytes) - weights
        one = kv_bytes_exact(tokens, 1)
        max_batch = int(room // one) if room >= 0 else 0
        lo, hi = 0, s["maxContext"]  # the longest context that fits at `batch`
        if room < 0:
            hi = 0
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if kv_bytes_exact(mid, batch) <= room else (lo, mid - 1)
        # the core reports a batch of at most 2^20, the largest it costs
        r["fit"] = {"fits": room >= 0 and kv_bytes_exact(tokens, batch) <= room,
                    "max_batch": min(max_batch, 2 ** 20), "max_tokens": lo}
    return r


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for modelFromConfig and modelCost on the real config.json files of
    tests/fixtures/models/ (index.json lists them), computed independently of the core by the
    functions above, from the spec's rules and transformers' classes, in Python's exact integers
    and fractions: the lines of tests/fixtures/model.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py model

    Case names: <id>__t<tokens>__b<batch>__e<2·kvBytesPerElement>__<latent|expanded>, with <id>
    the model's id in index.json (its file: tests/fixtures/models/<id>.json). For each model:
    tokens 1, 4096, 32768, its maxContext and 2^30, window + 1 and chunk + 1 where the model has
    them, each at batch 1 and 2 bytes per element; then 4096 tokens at batch 8 and 1 byte; the
    DeepSeek models also with the expanded MLA cache. weightBytesPerParam is 2 throughout.
    The 4096-token batch-1 case also holds memoryBytes (80e9) and fitMaxBatch, fitMaxTokens.

    Each case holds the inputs tokens, batch, kvBytesPerElement, mlaCacheExpanded (0 or 1) and
    the outputs kvBytes, kvBytesPerToken, attentionFlops, linearFlops, crossoverTokens (-1 when
    absent), paramsTotal, paramsActive, paramsEmbedding, weightsBytes, and the shape's scalars
    layers, hidden, heads, kvHeads, headDim, vHeadDim, fullLayers, slidingLayers, chunkedLayers,
    mlaLayers, window (-1 if null), chunk (-1 if null). Every count is exact and rounded once to
    a double; values above 2^53 are that double.

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...', all scalars.
    """
    import json
    import os

    from fixture_format import value  # tests/fixtures/, make.py's folder

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests",
                          "fixtures", "models")
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    lines = ["# model reference values: reference/model.py's fixture() (exact integers)"]
    for entry in index:
        with open(os.path.join(folder, entry["file"])) as f:
            shape = model_from_config(json.load(f))
        lengths = [1, 4096, 32768, shape["maxContext"], 2 ** 30]
        lengths += [x + 1 for x in (shape["window"], shape["chunk"]) if x is not None]
        runs = [(t, 1, 2, "latent") for t in sorted(set(lengths))] + [(4096, 8, 1, "latent")]
        if shape["mla"] is not None:
            runs += [(t, b, e, "expanded") for t, b, e, _ in runs]
        kinds = shape["layerKinds"]
        for tokens, batch, elem, mla_cache in runs:
            fit = 80e9 if (tokens, batch, elem) == (4096, 1, 2) else None
            r = model_cost(shape, tokens, batch, elem, 2, mla_cache, fit)
            name = f"{entry['id']}__t{tokens}__b{batch}__e{int(elem * 2)}__{mla_cache}"
            out = {
                "tokens": tokens, "batch": batch, "kvBytesPerElement": elem,
                "mlaCacheExpanded": int(mla_cache == "expanded"),
                "kvBytes": r["kv_bytes"], "kvBytesPerToken": r["kv_bytes_per_token"],
                "attentionFlops": r["attention_flops"], "linearFlops": r["linear_flops"],
                "crossoverTokens": -1 if r["crossover_tokens"] is None else r["crossover_tokens"],
                "paramsTotal": r["params"]["total"], "paramsActive": r["params"]["active"],
                "paramsEmbedding": r["params"]["embedding"], "weightsBytes": r["weights_bytes"],
                "layers": shape["layers"], "hidden": shape["hidden"], "heads": shape["heads"],
                "kvHeads": shape["kvHeads"], "headDim": shape["headDim"],
                "vHeadDim": shape["vHeadDim"], "fullLayers": kinds.count("full"),
                "slidingLayers": kinds.count("sliding"), "chunkedLayers": kinds.count("chunked"),
                "mlaLayers": kinds.count("mla"),
                "window": -1 if shape["window"] is None else shape["window"],
                "chunk": -1 if shape["chunk"] is None else shape["chunk"],
            }
            if fit is not None:
                out.update({"memoryBytes": fit, "fitMaxBatch": r["fit"]["max_batch"],
                            "fitMaxTokens": r["fit"]["max_tokens"]})
            lines.append(f"case {name}")
            lines += [value(key, float(x)) for key, x in out.items()]
    return lines
