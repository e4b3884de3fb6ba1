"""Your model: a Hugging Face config.json read as transformers reads it, and what the model
costs: the key-value cache for a batch at any context, the arithmetic of the next token, the
parameters and the bytes of the weights as the file stores them, and the serving plan: the model
split over devices, its cache in pages, what fits and one decoding step. Chapter 4; the core's is
core/include/llmmath/model.hpp.

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
    keys as the API's ModelShape, 'weights' (weights_storage's scheme and 'bytes', every tensor
    of weight_tensors in it), and 'assumed', a sentence per value not read from the file.
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
    storage, said = weights_storage(outer)  # torch_dtype and quantization_config
    assumed += said

    shape = {
        "modelType": family, "layers": layers, "hidden": hidden, "heads": heads,
        "kvHeads": kv_heads, "headDim": head_dim, "vHeadDim": v_head_dim,
        "intermediate": intermediate, "vocab": vocab, "tiedEmbeddings": bool(tied),
        "maxContext": max_context, "layerKinds": kinds, "window": window, "chunk": chunk,
        "mla": mla, "moe": moe, "gatedMlp": family not in ("gpt2", "falcon"),
        "attentionBias": attention_bias, "mlpBias": mlp_bias, "normKind": norm_kind,
        "normsPerLayer": norms, "qkNorm": qk_norm, "attentionSinks": family == "gpt_oss",
        "positionEmbeddings": max_context if family == "gpt2" else 0, "assumed": assumed,
    }
    # the bytes of every tensor in the file's storage, scales and zero points included
    stored = sum(t["count"] * weight_tensor_bytes(t["rows"], t["cols"], t["role"], storage)
                 for t in weight_tensors(shape))
    shape["weights"] = dict(storage, bytes=float(stored))
    return shape


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


def weights_storage(config):
    """How the file stores its weights, read from torch_dtype (or dtype) and quantization_config,
    as transformers' quantizers and the engines' loaders read them: a dict of format, note,
    quantized ("none", "linear": every linear layer's matrix but the LM head, "mlp": the MLPs'
    and experts' only, "experts": the routed experts' only), elementBits, scaleBytes, zeroBytes,
    groupSize (weights along a row per scale; 0 one scale per row, -1 one per matrix), blockSize
    (> 0: one scale per block × block tile), indexBytes (per input column: GPTQ's g_idx) and
    restBytes (of every parameter left unquantised); and the sentences of what was assumed.

    Sources: the quantization_config each method writes (transformers' FP8, MXFP4, AWQ, GPTQ,
    bitsandbytes and compressed-tensors quantizers); DeepSeek-V3's 128 × 128 FP8 blocks with one
    fp32 scale each (DeepSeek-V3 report, §3.3); MXFP4's one 8-bit scale per 32 values (OCP
    Microscaling Formats v1.0); bitsandbytes' 64-value blocks and its double quantization of their
    fp32 absmax into 8 bits with one fp32 per 256 (Dettmers et al. 2023, QLoRA, §2).
    """
    assumed = []
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config

    # the dtype of every parameter that is not quantised: the text config's, else the outer one's
    dtype = None
    for part in (text, config):
        for key in ("torch_dtype", "dtype"):
            if dtype is None and part.get(key) is not None:
                dtype = part[key]
    dtypes = {"float32": (4, "fp32"), "float": (4, "fp32"), "float16": (2, "fp16"),
              "half": (2, "fp16"), "bfloat16": (2, "bf16")}
    if dtype is None or dtype == "auto":
        assumed.append("The file names no torch_dtype: its weights are taken as bf16.")
    elif dtype not in dtypes:
        assumed.append(f"The file's torch_dtype {dtype!r} is not a float type read here: its "
                       "weights are taken as bf16.")
    rest, rest_name = dtypes.get(dtype, (2, "bf16"))

    def whole(x):
        return int(x) if x == int(x) else x

    scheme = {"format": rest_name, "quantized": "none", "elementBits": 16, "scaleBytes": 0,
              "zeroBytes": 0, "groupSize": 0, "blockSize": 0, "indexBytes": 0, "restBytes": rest,
              "note": f"Every parameter in {rest_name}" + (
                  ", as torch_dtype says." if dtype in dtypes else " (assumed).")}
    q = config.get("quantization_config")
    if not isinstance(q, dict):
        q = text.get("quantization_config")
    if not isinstance(q, dict):
        return scheme, assumed

    method = q.get("quant_method")
    skip = q.get("modules_to_not_convert")
    if skip is None:
        skip = q.get("ignore")
    if skip is None:
        skip = q.get("llm_int8_skip_modules")
    keeps_attention = any(isinstance(m, str) and ("attn" in m or "attention" in m)
                          for m in (skip or []))
    quantized = "mlp" if keeps_attention else "linear"
    kept = "the attention, " if keeps_attention else ""

    def group_name(g):
        return "-channel" if g == 0 else f"-g{whole(g)}"

    if method == "fp8":
        block = q.get("weight_block_size")
        if block:
            b = block[0]
            scheme.update(format=f"fp8-block{whole(b)}", elementBits=8, scaleBytes=4, blockSize=b)
            how = f"8-bit values with one fp32 scale per {whole(b)} × {whole(b)} block"
        else:
            scheme.update(format="fp8", elementBits=8, scaleBytes=4, groupSize=-1)
            how = "8-bit values with one fp32 scale per matrix"
    elif method == "fbgemm_fp8":
        # Meta's FP8 checkpoints (fbgemm): a float32 weight_scale of [out, 1], a scale per row
        scheme.update(format="fp8-channel", elementBits=8, scaleBytes=4, groupSize=0)
        how = "8-bit values with one fp32 scale per row"
    elif method == "mxfp4":
        quantized = "experts" if keeps_attention else "linear"
        scheme.update(format=f"mxfp4+{rest_name}" if keeps_attention else "mxfp4",
                      elementBits=4, scaleBytes=1, groupSize=32)
        how = "4-bit values with one 8-bit scale per 32"
    elif method in ("awq", "gptq"):
        bits = q.get("bits")
        if method == "awq" and bits is None:
            bits = q.get("w_bit")
        bits = 4 if bits is None else bits
        g = q.get("group_size")
        if method == "awq" and g is None:
            g = q.get("q_group_size")
        g = 128 if g is None else g
        g = 0 if g == -1 else g
        if method == "awq":
            zero = Fraction(bits) / 8 if q.get("zero_point", True) else 0
            index = 0
        else:
            zero, index = Fraction(bits) / 8, 4
        scheme.update(format=f"{method}-int{whole(bits)}{group_name(g)}", elementBits=bits,
                      scaleBytes=2, zeroBytes=zero, groupSize=g, indexBytes=index)
        how = f"{whole(bits)}-bit values with a 16-bit scale " + \
              ("per row" if g == 0 else f"per {whole(g)} along a row")
    elif method == "bitsandbytes":
        if q.get("load_in_8bit"):
            scheme.update(format="bnb-int8", elementBits=8, scaleBytes=4, groupSize=0)
            how = "8-bit values with one fp32 scale per row"
        else:
            kind = q.get("bnb_4bit_quant_type") or "fp4"
            double = bool(q.get("bnb_4bit_use_double_quant"))
            scale = 1 + Fraction(4, 256) if double else 4
            scheme.update(format=f"bnb-{kind}" + ("-dq" if double else ""), elementBits=4,
                          scaleBytes=scale, groupSize=64)
            how = "4-bit values with one scale per 64" + (", double-quantised" if double else "")
    elif method == "compressed-tensors":
        groups = q.get("config_groups") or {}
        first = next(iter(groups.values()), {}) if isinstance(groups, dict) else {}
        w = (first or {}).get("weights") or {}
        bits = w.get("num_bits", 8)
        strategy = w.get("strategy") or "tensor"
        # compressed-tensors saves scales in the model's dtype, 2 bytes, whatever the strategy;
        # NVFP4 (4-bit floats in groups of 16) saves an FP8 scale per group
        scale = 1 if w.get("type") == "float" and bits == 4 else 2
        zero = 0 if w.get("symmetric", True) else Fraction(bits, 8)  # packed as the values are
        order = w.get("actorder")
        scheme.update(indexBytes=4 if order == "group" or order is True else 0)
        g, b = -1, 0
        if strategy in ("group", "tensor_group"):
            g = w.get("group_size") or 128
            suffix = f"-g{whole(g)}"
        elif strategy == "channel":
            g, suffix = 0, "-channel"
        elif strategy == "block":
            b = (w.get("block_structure") or [128])[0]
            g, suffix = 0, f"-block{whole(b)}"
        else:
            suffix = "-tensor"
        name = ("fp" if w.get("type") == "float" else "int") + f"{whole(bits)}{suffix}"
        scheme.update(format=name, elementBits=bits, scaleBytes=scale, zeroBytes=zero,
                      groupSize=g, blockSize=b)
        how = f"{whole(bits)}-bit values, scales per {strategy}"
    else:
        assumed.append(f"The file's quantization_config has quant_method {method!r}, not read "
                       f"here: its weights are taken as {rest_name}.")
        return scheme, assumed
    scheme["quantized"] = quantized
    scope = {"linear": "every linear layer's matrix", "mlp": "the MLPs' and experts' matrices",
             "experts": "the routed experts' matrices"}[quantized]
    scheme["note"] = (f"quantization_config ({method}): {scope} in {how}; {kept}the embedding, "
                      f"LM head, norms, routers and biases stay in {rest_name}.")
    return scheme, assumed


def weight_tensors(shape):
    """Every parameter of the model once, as the checkpoint's tensors, each a dict: name (its
    module, as Hugging Face checkpoints name it), rows (out) and cols (in), count (how many such
    tensors), role (attention, mlp, expert, embedding, head, router or vector), split (how tensor
    parallelism cuts it, as vLLM and SGLang do: "column" by output rows, "row" by input columns,
    "kv" by key-value heads, "vocab" by vocabulary rows, "replicated") and routed (a routed
    expert's tensor: read only when a token is sent to that expert). A vector of n values is
    [n, 1]. Σ rows·cols·count is model_params(shape)["total"], checked here.
    """
    s = shape
    d, h, L = s["hidden"], s["heads"], s["layers"]
    hd, dv = s["headDim"], s["vHeadDim"]
    kv = s["kvHeads"]
    out = []

    def add(name, rows, cols, count, role, split, routed=False):
        if rows and cols and count:
            out.append({"name": name, "rows": rows, "cols": cols, "count": count, "role": role,
                        "split": split, "routed": routed})

    # attention: separate projections (or DeepSeek's latent ones), biases, norms, sinks
    if s["mla"] is not None:
        m = s["mla"]
        qr, kvr, rope = m["qLoraRank"], m["kvLoraRank"], m["qkRopeHeadDim"]
        nope, v = m["qkNopeHeadDim"], m["vHeadDim"]
        if qr:
            add("self_attn.q_a_proj", qr, d, L, "attention", "replicated")
            add("self_attn.q_a_layernorm", qr, 1, L, "vector", "replicated")
            add("self_attn.q_b_proj", h * (nope + rope), qr, L, "attention", "column")
        else:
            add("self_attn.q_proj", h * (nope + rope), d, L, "attention", "column")
        add("self_attn.kv_a_proj_with_mqa", kvr + rope, d, L, "attention", "replicated")
        add("self_attn.kv_a_layernorm", kvr, 1, L, "vector", "replicated")
        add("self_attn.kv_b_proj", h * (nope + v), kvr, L, "attention", "column")
        add("self_attn.o_proj", d, h * v, L, "attention", "row")
    else:
        add("self_attn.q_proj", h * hd, d, L, "attention", "column")
        add("self_attn.k_proj", kv * hd, d, L, "attention", "kv")
        add("self_attn.v_proj", kv * hd, d, L, "attention", "kv")
        add("self_attn.o_proj", d, h * hd, L, "attention", "row")
        if s["attentionBias"] in ("qkv", "qkvo"):
            add("self_attn.q_proj.bias", h * hd, 1, L, "vector", "column")
            add("self_attn.k_proj.bias", kv * hd, 1, L, "vector", "kv")
            add("self_attn.v_proj.bias", kv * hd, 1, L, "vector", "kv")
        if s["attentionBias"] == "qkvo":
            add("self_attn.o_proj.bias", d, 1, L, "vector", "replicated")
    if s["qkNorm"]:
        add("self_attn.q_norm", hd, 1, L, "vector", "replicated")
        add("self_attn.k_norm", hd, 1, L, "vector", "replicated")
    if s["attentionSinks"]:
        add("self_attn.sinks", h, 1, L, "vector", "replicated")
    layer_norm = s["normKind"] == "layer"
    add("norms", d, 1, (L * s["normsPerLayer"] + 1) * (2 if layer_norm else 1), "vector",
        "replicated")

    def mlp(prefix, width, count, role, routed=False):
        if s["gatedMlp"]:
            add(prefix + ".gate_proj", width, d, count, role, "column", routed)
        add(prefix + ".up_proj", width, d, count, role, "column", routed)
        add(prefix + ".down_proj", d, width, count, role, "row", routed)
        if s["mlpBias"]:
            add(prefix + ".up_proj.bias", width, 1, count * (2 if s["gatedMlp"] else 1), "vector",
                "column", routed)
            add(prefix + ".down_proj.bias", d, 1, count, "vector", "replicated", routed)

    moe = s["moe"]
    mlp("mlp", s["intermediate"], moe["denseLayers"] if moe else L, "mlp")
    if moe:
        E, ML = moe["experts"], moe["moeLayers"]
        add("mlp.gate", E, d, ML, "router", "replicated")
        if moe["routerBias"]:
            # DeepSeek-V3 keeps its e_score_correction_bias in float32 (its safetensors)
            deepseek = s["modelType"].startswith("deepseek")
            add("mlp.gate.e_score_correction_bias" if deepseek else "mlp.router.bias", E, 1, ML,
                "vector32" if deepseek else "vector", "replicated")
        if s["modelType"] == "qwen2_moe":
            add("mlp.shared_expert_gate", 1, d, ML, "router", "replicated")
        mlp("mlp.experts", moe["expertWidth"], E * ML, "expert", routed=True)
        mlp("mlp.shared_experts", moe["sharedWidth"], moe["sharedExperts"] * ML, "mlp")

    add("embed_tokens", s["vocab"], d, 1, "embedding", "vocab")
    add("embed_positions", s["positionEmbeddings"], d, 1, "embedding", "replicated")
    if not s["tiedEmbeddings"]:
        add("lm_head", s["vocab"], d, 1, "head", "vocab")
    assert sum(t["rows"] * t["cols"] * t["count"] for t in out) == model_params(s)["total"]
    return out


def weight_tensor_bytes(rows, cols, role, scheme):
    """Bytes of one [rows, cols] tensor of this role stored as `scheme` (weights_storage's keys),
    exactly: a quantised matrix's values, its scales and zero points (one per block × block
    tile, per matrix, per row, or per group of a row), and GPTQ's index per input column; any
    other tensor at restBytes per parameter. Embeddings, the LM head, routers and vectors are
    never quantised."""
    w = scheme
    quantized = ((role == "expert" and w["quantized"] != "none")
                 or (role == "mlp" and w["quantized"] in ("linear", "mlp"))
                 or (role == "attention" and w["quantized"] == "linear"))
    if role == "vector32":
        return rows * cols * 4
    if not quantized:
        return rows * cols * Fraction(w["restBytes"])
    b, g = w["blockSize"], w["groupSize"]
    if b > 0:
        scales = -(-rows // b) * -(-cols // b)
    elif g == -1:
        scales = 1
    elif g == 0:
        scales = rows
    else:
        scales = rows * -(-cols // g)
    return (rows * cols * Fraction(w["elementBits"]) / 8
            + scales * (Fraction(w["scaleBytes"]) + Fraction(w["zeroBytes"]))
            + cols * Fraction(w["indexBytes"]))


def weights_format(name):
    """The scheme of a format the weights are converted to (modelCost's weightFormat): the linear
    layers' matrices in it, the embedding, LM head, norms and routers in 16 bits (fp32: 32)."""
    none = {"quantized": "none", "elementBits": 16, "scaleBytes": 0, "zeroBytes": 0,
            "groupSize": 0, "blockSize": 0, "indexBytes": 0, "restBytes": 2}
    quantized = {
        "fp32": dict(restBytes=4),
        "bf16": {},
        "fp16": {},
        "fp8": dict(quantized="linear", elementBits=8, groupSize=-1, scaleBytes=4),
        "int8": dict(quantized="linear", elementBits=8, groupSize=0, scaleBytes=2),
        "int4": dict(quantized="linear", elementBits=4, groupSize=128, scaleBytes=2, zeroBytes=2),
        "mxfp4": dict(quantized="linear", elementBits=4, groupSize=32, scaleBytes=1),
    }
    if name not in quantized:
        raise ValueError(f"weight_format must be one of file, {', '.join(quantized)}; got {name!r}")
    return dict(none, format=name, **quantized[name])


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


def model_cost(shape, tokens, batch=1, kv_bytes_per_element=2, weight_bytes_per_param=None,
               mla_cache="latent", memory_bytes=None, weight_format="file", tensor_parallel=None,
               sliding_cache="window", block_tokens=16, kv_budget_bytes=None, devices=None,
               memory_utilization=None, reserve_bytes=0):
    """The cache, the arithmetic and the weights of the model of `shape` (model_from_config's)
    at a context of `tokens` for `batch` sequences, and its serving plan: the model split over
    `tensor_parallel` devices as vLLM and SGLang split it (each matrix by its output rows or
    input columns, the key-value heads whole, replicated when there are more devices than heads;
    the embedding and LM head by vocabulary rows, padded to 64; vectors and routers replicated),
    `devices` = {count, memory_bytes, bandwidth, flops} holding count / tensor_parallel replicas,
    the cache in whole pages of `block_tokens` (vLLM's PagedAttention, Kwon et al. 2023), a KV
    budget, what fits in memory_utilization · memory − reserve_bytes per device, and one decoding
    step, from memory or from arithmetic (the roofline, Williams et al. 2009).

    Weights: weight_bytes_per_param (every parameter at that size), else weight_format, "file"
    (shape["weights"]) or one of weights_format's. sliding_cache "full": sliding and chunked
    layers keep every token. Counts are exact integers; bytes, seconds and the experts touched
    are exact fractions of their inputs' doubles, each rounded once to a double.
    """
    s = shape
    b_kv = Fraction(kv_bytes_per_element)
    if sliding_cache not in ("window", "full"):
        raise ValueError(f"sliding_cache must be \"window\" or \"full\", got {sliding_cache!r}")
    if not (isinstance(block_tokens, int) and 1 <= block_tokens <= 1024):
        raise ValueError(f"block_tokens must be a whole number from 1 to 1024, got {block_tokens}")
    if kv_budget_bytes is not None and not kv_budget_bytes > 0:
        raise ValueError(f"kv_budget_bytes must be positive, got {kv_budget_bytes}")
    if memory_utilization is not None and not 0 < memory_utilization <= 1:
        raise ValueError(f"memory_utilization must be in (0, 1], got {memory_utilization}")

    def held(kind, t):
        return t if sliding_cache == "full" else tokens_held(s, kind, t)

    def kv_bytes_exact(t, n):
        return sum(kv_elements_per_token(s, k, mla_cache) * held(k, t)
                   for k in s["layerKinds"]) * n * b_kv

    by_kind = []
    for kind in ("full", "sliding", "chunked", "mla"):
        count = s["layerKinds"].count(kind)
        if count:
            kept = held(kind, tokens)
            elements = kv_elements_per_token(s, kind, mla_cache) * kept * count * batch
            by_kind.append({"kind": kind, "layers": count, "tokensHeld": kept,
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

    # ---- the weights: how they are stored, and every tensor of them
    tensors = weight_tensors(s)
    if weight_bytes_per_param is not None:
        b_w = Fraction(weight_bytes_per_param)
        scheme = None
        shown = weight_bytes_per_param
        shown = int(shown) if shown == int(shown) else shown
        format_name = f"{shown} bytes per parameter"
    elif weight_format == "file":
        scheme = s["weights"]
        format_name = scheme["format"]
    else:
        scheme = weights_format(weight_format)
        format_name = weight_format

    def stored(rows, cols, role):
        if scheme is None:
            return rows * cols * b_w
        return weight_tensor_bytes(rows, cols, role, scheme)

    weights = sum(t["count"] * stored(t["rows"], t["cols"], t["role"]) for t in tensors)
    mxfp4 = scheme is not None and (scheme["elementBits"], scheme["groupSize"],
                                    scheme["scaleBytes"]) == (4, 32, 1)

    # ---- tensor parallelism: key-value heads, replicas, each device's share of the batch
    n_devices = devices["count"] if devices is not None else None
    tp = tensor_parallel if tensor_parallel is not None else (n_devices or 1)
    if not (isinstance(tp, int) and 1 <= tp <= 1024):
        raise ValueError(f"tensor_parallel must be a whole number from 1 to 1024, got {tp}")
    if tp > 1 and s["heads"] % tp:
        raise ValueError(f"tensor_parallel {tp} does not divide the {s['heads']} attention heads")
    kv = s["kvHeads"]
    if s["mla"] is not None:
        kv_dev = kv  # a latent cache is whole on every device
    elif kv % tp == 0:
        kv_dev = kv // tp
    elif tp % kv == 0:
        kv_dev = 1  # more devices than key-value heads: each head on tp / kv devices
    else:
        raise ValueError(f"tensor_parallel {tp} neither divides the {kv} key-value heads nor is "
                         "a multiple of them")
    if n_devices is not None and n_devices % tp:
        raise ValueError(f"devices count {n_devices} is not a multiple of tensor_parallel {tp}")
    replicas = n_devices // tp if n_devices is not None else 1
    b_dev = -(-batch // replicas)  # the sequences of the fullest replica

    def elements_on_device(kind):
        if kind == "mla":
            if mla_cache == "latent":
                return s["mla"]["kvLoraRank"] + s["mla"]["qkRopeHeadDim"]
            return s["heads"] // tp * (s["headDim"] + s["vHeadDim"])
        return kv_dev * (s["headDim"] + s["vHeadDim"])

    def device_cache(t, n, paged=True):
        # one device's cache for n sequences at t tokens: in whole pages of block_tokens
        total = 0
        for k in s["layerKinds"]:
            kept = held(k, t)
            if paged:
                kept = -(-kept // block_tokens) * block_tokens
            total += elements_on_device(k) * kept
        return total * n * b_kv

    def on_device(t):
        # a tensor's rows and cols on one device
        r, c = t["rows"], t["cols"]
        if t["split"] == "column":
            r = -(-r // tp)
        elif t["split"] == "row":
            c = -(-c // tp)
        elif t["split"] == "kv":
            r = r // kv * kv_dev
        elif t["split"] == "vocab":  # vLLM pads the vocabulary to 64 rows at any tp
            r = -(-(-(-r // 64) * 64) // tp)
        # vLLM's MXFP4 expert kernels (Triton on Hopper) keep a routed expert's width, the
        # gate/up rows and the down columns, padded up to a multiple of 256
        if weight_bytes_per_param is None and t["role"] == "expert" and mxfp4:
            if t["split"] == "column":
                r = -(-r // 256) * 256
            else:
                c = -(-c // 256) * 256
        return r, c

    device_tensors = [(t, *on_device(t)) for t in tensors]
    weights_dev = sum(t["count"] * stored(r, c, t["role"]) for t, r, c in device_tensors)
    dev_per_token = sum(elements_on_device(k) for k in s["layerKinds"]) * b_kv
    dev_kv = device_cache(tokens, b_dev)

    r = {
        "kv_bytes": float(kv_bytes_exact(tokens, batch)),
        "kv_bytes_per_token": float(per_token),
        "by_kind": by_kind,
        "attention_flops": float(attention_flops_at(s, tokens)),
        "linear_flops": float(linear),
        "crossover_tokens": crossover,
        "params": {"total": p["total"], "active": p["active"], "embedding": p["embedding"]},
        "weights_bytes": float(weights),
        "weights_format": format_name,
        "tensor_parallel": tp,
        "replicas": replicas,
        "beyond_context": tokens > s["maxContext"],
        "per_device": {"kv_heads": kv_dev, "kv_bytes_per_token": float(dev_per_token),
                       "kv_bytes": float(dev_kv), "weights_bytes": float(weights_dev)},
        "budget": None, "fit": None, "decode": None,
    }

    # ---- memory: what one device has for the weights and the cache
    usable = None
    if devices is not None or memory_bytes is not None:
        u = memory_utilization if memory_utilization is not None else (
            0.9 if devices is not None else 1)
        memory = devices["memory_bytes"] if devices is not None else memory_bytes
        usable = Fraction(u) * Fraction(memory) - Fraction(reserve_bytes)
    if kv_budget_bytes is not None or usable is not None:
        room = Fraction(kv_budget_bytes) if kv_budget_bytes is not None else max(
            Fraction(0), usable - weights_dev)
        # vLLM's KV cache manager (v1/core/kv_cache_utils.py): one page of block_tokens per layer;
        # when windowed layers sit beside full ones and keep only their window, its hybrid
        # allocator groups each kind's layers group_size at a time (the fewest of a kind, or the
        # most if that is under 1.5× the fewest), padding a kind's last group; a pool page serves
        # a whole group, and the log's "GPU KV cache size" is the pool split evenly over the groups
        counts = {k: s["layerKinds"].count(k) for k in set(s["layerKinds"])}
        group, groups = len(s["layerKinds"]), 1
        if len(counts) > 1 and sliding_cache == "window" and \
                len({elements_on_device(k) for k in counts}) == 1:
            fewest, most = min(counts.values()), max(counts.values())
            group = most if most < Fraction(3, 2) * fewest else fewest
            groups = sum(-(-n // group) for n in counts.values())
        if groups == 1:
            blocks = int(room // (block_tokens * dev_per_token))
        else:
            layer_page = block_tokens * elements_on_device(s["layerKinds"][0]) * b_kv
            blocks = int(room // (layer_page * group)) // groups
        r["budget"] = {"bytes": float(room), "blocks": blocks, "tokens": blocks * block_tokens}
    if usable is not None:
        room = usable - weights_dev
        one = device_cache(tokens, 1)
        # fits(tokens, B): ceil(B / replicas) sequences per device, ≤ room; B up to 2^20
        max_batch = min(int(room // one) * replicas, 2 ** 20) if room >= 0 else 0
        lo, hi = 0, s["maxContext"]  # the longest context that fits at `batch`
        if room < 0:
            hi = 0
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if device_cache(mid, b_dev) <= room else (lo, mid - 1)
        limited = "weights" if room < 0 else "context" if lo == s["maxContext"] else "cache"
        r["fit"] = {"fits": room >= 0 and dev_kv <= room, "max_batch": max_batch,
                    "max_tokens": lo, "spare_bytes": float(room - dev_kv), "limited_by": limited}

    # ---- one decoding step on one device of the fullest replica: bytes read, arithmetic
    if devices is not None and devices.get("bandwidth") is not None:
        moe = s["moe"]
        touched = 0
        if moe is not None:
            E, k = moe["experts"], moe["expertsPerToken"]
            touched = E * (1 - (1 - Fraction(k, E)) ** b_dev)  # even routing, b_dev tokens
        read = 0
        for t, rows, cols in device_tensors:
            one_tensor = stored(rows, cols, t["role"])
            if t["role"] == "embedding" and (t["name"] != "embed_tokens"
                                             or not s["tiedEmbeddings"]):
                one_tensor = one_tensor / rows * min(rows, b_dev)  # the rows looked up
            if t["routed"]:
                one_tensor = one_tensor * touched / moe["experts"]
            read += t["count"] * one_tensor
        step_bytes = read + device_cache(tokens, b_dev, paged=False)
        flops = Fraction((linear + attention_flops_at(s, tokens)) * b_dev, tp)
        memory_s = step_bytes / Fraction(devices["bandwidth"])
        compute_s = None
        if devices.get("flops") is not None:
            compute_s = flops / Fraction(devices["flops"])
        seconds = max(memory_s, compute_s) if compute_s is not None else memory_s
        r["decode"] = {
            "bytes_per_step": float(step_bytes), "weights_bytes_read": float(read),
            "experts_touched": float(touched), "flops_per_step": float(flops),
            "memory_seconds": float(memory_s),
            "compute_seconds": None if compute_s is None else float(compute_s),
            "seconds_per_step": float(seconds), "tokens_per_second": float(batch / seconds),
            "bound": "compute" if compute_s is not None and compute_s > memory_s else "memory",
        }
    return r


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for modelFromConfig and modelCost on the real config.json files of
    data/models/ (index.json lists them), computed independently of the core by the
    functions above, from the spec's rules and transformers' classes, in Python's exact integers
    and fractions: the lines of tests/fixtures/model.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py model

    Case names: <id>__t<tokens>__b<batch>__e<2·kvBytesPerElement>__<latent|expanded>, with <id>
    the model's id in index.json (its file: data/models/<id>.json). For each model:
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

    The fit is the serving plan's (modelCost's memoryBytes without devices: one device,
    utilization 1, no reserve, tensor parallelism 1): the cache in whole pages of 16 tokens.

    tests/fixtures/model_serving.txt: the serving plan (the options of the contract's "Serving
    plan"), the same functions, for every model of index.json. Case names and inputs:
      <id>__tp<tp>: tp 1, 2, 4, 8 (each the heads and key-value heads allow), devices {count tp,
        memory 80·2^30, bandwidth 3.35e12, flops 989e12}, tensorParallel not given (the devices'
        count), reserve 2·2^30, utilization default (0.9); tokens min(32768, maxContext),
        batch 8, kvBytesPerElement 2, weightFormat "file".
      <id>__fmt<name>: weightFormat fp32, bf16, fp16, fp8, int8, int4, mxfp4; tensorParallel 1,
        memoryBytes 24·2^30 (no devices); tokens 4096, batch 4, kvBytesPerElement 2.
      <id>__slidingfull__b<block>: slidingCache "full", blockTokens 16 and 32, kvBudgetBytes
        10·2^30, no memory; tokens 8192, batch 2, kvBytesPerElement 1.
      <id>__replicas: tensorParallel tp0 (the smallest legal tp ≥ 2, else 1), devices {count
        2·tp0, memory 48·2^30, bandwidth 8.64e11, no flops}, utilization 0.85; tokens 2048,
        batch 5 (3 sequences on the fullest replica).
      <id>__beyond: tokens maxContext + 1, batch 1, memoryBytes 80e9 (no devices).
    weightBytesPerParam is never given there (the weights are the format's or the file's), the
    MLA cache is latent throughout. Each case holds the inputs tokens, batch, kvBytesPerElement,
    weightFormat (file 0, fp32 1, bf16 2, fp16 3, fp8 4, int8 5, int4 6, mxfp4 7),
    tensorParallel, devicesCount, memoryBytes (the devices' or memoryBytes), bandwidth, flops,
    memoryUtilization, kvBudgetBytes (each -1 when not given), reserveBytes, slidingFull (0/1),
    blockTokens; the shape's weights: fileWeightsBytes, weightsQuantized (none 0, linear 1,
    mlp 2, experts 3), weightsElementBits, weightsScaleBytes, weightsZeroBytes,
    weightsGroupSize, weightsBlockSize, weightsIndexBytes, weightsRestBytes; and the outputs
    weightsBytes, kvBytes, beyondContext (0/1), replicas, perDeviceKvHeads,
    perDeviceKvBytesPerToken, perDeviceKvBytes, perDeviceWeightsBytes, budgetBytes,
    budgetBlocks, budgetTokens (-1 without a budget), fitFits (0/1), fitMaxBatch,
    fitMaxTokens, fitSpareBytes, fitLimitedBy (weights 0, cache 1, context 2; -1 without
    memory), decodeBytesPerStep, decodeWeightsBytesRead, decodeExpertsTouched,
    decodeFlopsPerStep, decodeMemorySeconds, decodeComputeSeconds (-1 without flops),
    decodeSecondsPerStep, decodeTokensPerSecond, decodeBound (memory 0, compute 1) (-1
    without a bandwidth). The weights' bytes are computed tensor by tensor (weight_tensors,
    weight_tensor_bytes), each tensor's scales and zero points counted from its own
    (per-device) rows and columns.

    Format as in fixture_format.py: 'case NAME' then 'name rows cols values...', all scalars.
    """
    import json
    import os

    from fixture_format import value  # tests/fixtures/, make.py's folder

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                          "models")
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    lines = ["# model reference values: reference/model.py's fixture() (exact integers)"]
    serving = ["# model serving-plan reference values: reference/model.py's fixture() "
               "(exact integers and fractions)"]
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
        serving += serving_cases(entry["id"], shape, value)
    return {"model.txt": lines, "model_serving.txt": serving}


def serving_cases(name, shape, value):
    """The lines of tests/fixtures/model_serving.txt for one model (fixture()'s docstring)."""
    formats = ["file", "fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4"]
    gib = 2 ** 30

    def legal(tp):
        try:
            model_cost(shape, 1, tensor_parallel=tp, weight_bytes_per_param=2)
            return True
        except ValueError:
            return False

    tps = [tp for tp in (1, 2, 4, 8) if legal(tp)]
    tp0 = next((tp for tp in range(2, 1025) if legal(tp)), 1)
    runs = []  # (case name, model_cost's keyword arguments)
    for tp in tps:
        runs.append((f"tp{tp}", dict(
            tokens=min(32768, shape["maxContext"]), batch=8, kv_bytes_per_element=2,
            devices={"count": tp, "memory_bytes": 80 * gib, "bandwidth": 3.35e12,
                     "flops": 989e12}, reserve_bytes=2 * gib)))
    for fmt in formats[1:]:
        runs.append((f"fmt{fmt}", dict(tokens=4096, batch=4, weight_format=fmt,
                                       tensor_parallel=1, memory_bytes=24 * gib)))
    for block in (16, 32):
        runs.append((f"slidingfull__b{block}", dict(
            tokens=8192, batch=2, kv_bytes_per_element=1, sliding_cache="full",
            block_tokens=block, kv_budget_bytes=10 * gib)))
    runs.append(("replicas", dict(
        tokens=2048, batch=5, tensor_parallel=tp0, memory_utilization=0.85,
        devices={"count": 2 * tp0, "memory_bytes": 48 * gib, "bandwidth": 8.64e11})))
    runs.append(("beyond", dict(tokens=shape["maxContext"] + 1, batch=1, memory_bytes=80e9)))

    w = shape["weights"]
    lines = []
    for suffix, kw in runs:
        try:
            r = model_cost(shape, **kw)
        except ValueError:
            continue  # a combination the model does not allow
        dev = kw.get("devices")

        def given(x):
            return -1 if x is None else x
        out = {
            "tokens": kw["tokens"], "batch": kw["batch"],
            "kvBytesPerElement": kw.get("kv_bytes_per_element", 2),
            "weightFormat": formats.index(kw.get("weight_format", "file")),
            "tensorParallel": given(kw.get("tensor_parallel")),
            "devicesCount": dev["count"] if dev else -1,
            "memoryBytes": dev["memory_bytes"] if dev else given(kw.get("memory_bytes")),
            "bandwidth": given(dev.get("bandwidth")) if dev else -1,
            "flops": given(dev.get("flops")) if dev else -1,
            "memoryUtilization": given(kw.get("memory_utilization")),
            "reserveBytes": kw.get("reserve_bytes", 0),
            "slidingFull": int(kw.get("sliding_cache") == "full"),
            "blockTokens": kw.get("block_tokens", 16),
            "kvBudgetBytes": given(kw.get("kv_budget_bytes")),
            "fileWeightsBytes": w["bytes"],
            "weightsQuantized": ["none", "linear", "mlp", "experts"].index(w["quantized"]),
            "weightsElementBits": w["elementBits"], "weightsScaleBytes": w["scaleBytes"],
            "weightsZeroBytes": w["zeroBytes"], "weightsGroupSize": w["groupSize"],
            "weightsBlockSize": w["blockSize"], "weightsIndexBytes": w["indexBytes"],
            "weightsRestBytes": w["restBytes"],
            "weightsBytes": r["weights_bytes"], "kvBytes": r["kv_bytes"],
            "beyondContext": int(r["beyond_context"]), "replicas": r["replicas"],
            "perDeviceKvHeads": r["per_device"]["kv_heads"],
            "perDeviceKvBytesPerToken": r["per_device"]["kv_bytes_per_token"],
            "perDeviceKvBytes": r["per_device"]["kv_bytes"],
            "perDeviceWeightsBytes": r["per_device"]["weights_bytes"],
        }
        b = r["budget"] or {}
        out.update({"budgetBytes": b.get("bytes", -1), "budgetBlocks": b.get("blocks", -1),
                    "budgetTokens": b.get("tokens", -1)})
        f = r["fit"]
        out.update({
            "fitFits": int(f["fits"]) if f else -1, "fitMaxBatch": f["max_batch"] if f else -1,
            "fitMaxTokens": f["max_tokens"] if f else -1,
            "fitSpareBytes": f["spare_bytes"] if f else -1,
            "fitLimitedBy": ["weights", "cache", "context"].index(f["limited_by"]) if f else -1,
        })
        d = r["decode"]
        keys = [("decodeBytesPerStep", "bytes_per_step"),
                ("decodeWeightsBytesRead", "weights_bytes_read"),
                ("decodeExpertsTouched", "experts_touched"),
                ("decodeFlopsPerStep", "flops_per_step"),
                ("decodeMemorySeconds", "memory_seconds"),
                ("decodeComputeSeconds", "compute_seconds"),
                ("decodeSecondsPerStep", "seconds_per_step"),
                ("decodeTokensPerSecond", "tokens_per_second")]
        out.update({key: given(d[k]) if d else -1 for key, k in keys})
        out["decodeBound"] = ["memory", "compute"].index(d["bound"]) if d else -1
        lines.append(f"case {name}__{suffix}")
        lines += [value(key, float(x)) for key, x in out.items()]
    return lines
