// Your model (model.hpp): reading a configuration as transformers does, and costing it.
//
// Reading: the text model is config.text_config when there is one. Each value is looked up by
// its names across families (GPT-2's n_layer, Falcon's n_head_kv), then the family's
// config-class default where transformers has one, each such default or derivation written down
// in `assumed`. Layer kinds follow transformers: layer_types when present, else the family's rule.
//
// Costing: every count is a whole number computed in 128-bit integers (layers ≤ 2^12, tokens ≤
// 2^30, batch ≤ 2^20 and an element count per token and layer ≤ 2^25 give at most 2^87) and
// converted to a double once; bytes are that double times the bytes per element.
#include "llmmath/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

__extension__ typedef __int128 Int;  // exact counts (see the top)
using json::Value;

double to_double(Int x) { return static_cast<double>(x); }
Int to_int(double x) { return static_cast<Int>(x); }

std::string whole(double x) {  // a whole number in a sentence, with thousands separators
  std::string digits = describe(x);
  if (digits.find_first_not_of("0123456789") != std::string::npos) return digits;
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// ---- reading a configuration ------------------------------------------------------------------

enum class Family {
  llama,
  mistral,
  mixtral,
  qwen2,
  qwen2_moe,
  qwen3,
  qwen3_moe,
  gemma,
  gemma2,
  gemma3,
  gpt_oss,
  deepseek,
  llama4,
  gpt2,
  falcon,
  other
};

Family family_of(const std::string& t) {
  if (t == "llama") return Family::llama;
  if (t == "mistral" || t == "ministral") return Family::mistral;
  if (t == "mixtral") return Family::mixtral;
  if (t == "qwen2") return Family::qwen2;
  if (t == "qwen2_moe") return Family::qwen2_moe;
  if (t == "qwen3") return Family::qwen3;
  if (t == "qwen3_moe") return Family::qwen3_moe;
  if (t == "gemma") return Family::gemma;
  if (t == "gemma2") return Family::gemma2;
  if (t == "gemma3" || t == "gemma3_text") return Family::gemma3;
  if (t == "gpt_oss") return Family::gpt_oss;
  if (t == "deepseek_v2" || t == "deepseek_v3") return Family::deepseek;
  if (t == "llama4" || t == "llama4_text") return Family::llama4;
  if (t == "gpt2") return Family::gpt2;
  if (t == "falcon" || t == "RefinedWeb" || t == "RefinedWebModel") return Family::falcon;
  return Family::other;
}

const char* family_name(Family f) {
  switch (f) {
    case Family::gemma: return "Gemma's";
    case Family::gemma2: return "Gemma 2's";
    case Family::gemma3: return "Gemma 3's";
    case Family::qwen3:
    case Family::qwen3_moe: return "Qwen3's";
    case Family::llama4: return "Llama 4's";
    case Family::mistral: return "Mistral's";
    case Family::qwen2:
    case Family::qwen2_moe: return "Qwen2's";
    default: return "the family's";
  }
}

/// One configuration object being read, with the path its fields are named by.
class Reader {
 public:
  Reader(const Value& text, const Value* outer, std::string path, ModelShape& shape)
      : text_(text), outer_(outer), path_(std::move(path)), shape_(shape) {}

  std::string name(std::string_view key) const { return path_ + "." + std::string(key); }

  /// The first of `keys` present and not null, or nullptr.
  const Value* find(std::initializer_list<std::string_view> keys,
                    std::string_view* which = nullptr) const {
    for (auto k : keys) {
      const Value* v = text_.find(k);
      if (v && !v->is_null()) {
        if (which) *which = k;
        return v;
      }
    }
    return nullptr;
  }
  bool has(std::string_view key) const { return text_.find(key) != nullptr; }
  const Value* outer(std::string_view key) const {
    if (!outer_) return nullptr;
    const Value* v = outer_->find(key);
    return v && !v->is_null() ? v : nullptr;
  }

  double integer(const Value& v, std::string_view key, double lo, double hi) const {
    const bool ok = v.type == Value::Type::number && std::isfinite(v.number) &&
                    v.number == std::floor(v.number) && v.number >= lo && v.number <= hi;
    if (!ok) {
      // not a number at all: said as core-api.md says it; a number out of range: with the range
      if (v.type != Value::Type::number)
        fail_key(name(key), lo == 1 ? "a positive integer" : "an integer", json::describe(v));
      const std::string expectation = lo == 1 ? "a positive integer (at most " + whole(hi) + ")"
                                              : "an integer in " + whole(lo) + " … " + whole(hi);
      fail_key(name(key), expectation, json::describe(v));
    }
    return v.number;
  }

  /// A count under one of `keys`, or `fallback` (with its sentence) when absent; absent without
  /// a fallback is an error.
  double count(std::initializer_list<std::string_view> keys, double hi,
               std::optional<double> fallback = std::nullopt, const std::string& why = "",
               double lo = 1) const {
    std::string_view which;
    if (const Value* v = find(keys, &which)) return integer(*v, which, lo, hi);
    if (!fallback) {
      fail_key(name(*keys.begin()), "present: a positive integer (at most " + whole(hi) + ")",
               "nothing (the field is missing)");
    }
    if (!why.empty()) shape_.assumed.push_back(why);
    return *fallback;
  }

  std::optional<bool> flag(std::string_view key) const {
    const Value* v = find({key});
    if (!v) return std::nullopt;
    if (v->type != Value::Type::boolean) fail_key(name(key), "true or false", json::describe(*v));
    return v->boolean;
  }

  std::string string(std::string_view key) const {
    const Value* v = find({key});
    if (!v) return "";
    if (v->type != Value::Type::string) fail_key(name(key), "a string", json::describe(*v));
    return v->string;
  }

  /// An array of whole numbers (mlp_only_layers, no_rope_layers), or nothing.
  std::optional<std::vector<double>> integers(std::string_view key, double lo, double hi) const {
    const Value* v = find({key});
    if (!v) return std::nullopt;
    if (v->type != Value::Type::array)
      fail_key(name(key), "an array of integers", json::describe(*v));
    std::vector<double> out;
    for (std::size_t i = 0; i < v->items.size(); ++i) {
      const Value& e = v->items[i];
      const bool ok = e.type == Value::Type::number && e.number == std::floor(e.number) &&
                      e.number >= lo && e.number <= hi;
      if (!ok) {
        fail_key(name(key) + "[" + std::to_string(i) + "]",
                 "an integer in " + whole(lo) + " … " + whole(hi), json::describe(e));
      }
      out.push_back(e.number);
    }
    return out;
  }

  const Value& text() const { return text_; }

 private:
  const Value& text_;
  const Value* outer_;
  std::string path_;
  ModelShape& shape_;
};

/// A family's config-class default for a required value, where transformers has one.
std::optional<double> family_default(Family f, std::string_view what) {
  if (f == Family::gemma3) {
    if (what == "vocab") return 262208;
    if (what == "hidden") return 2304;
    if (what == "intermediate") return 9216;
    if (what == "layers") return 26;
    if (what == "heads") return 8;
    if (what == "kv_heads") return 4;
    if (what == "max_context") return 131072;
    if (what == "window") return 4096;
  }
  if (f == Family::llama4) {
    if (what == "vocab") return 202048;
    if (what == "hidden") return 5120;
    if (what == "intermediate") return 8192;
    if (what == "layers") return 48;
    if (what == "heads") return 40;
    if (what == "kv_heads") return 8;
    if (what == "max_context") return 131072;
  }
  return std::nullopt;
}

std::string default_sentence(Family f, const char* key, double value) {
  return std::string(key) + " is not in the file: " + family_name(f) + " default, " + whole(value) +
         ".";
}

/// A required count: the file's, else the family's default, else an error.
double required(const Reader& r, Family f, std::initializer_list<std::string_view> keys,
                std::string_view what, double hi) {
  const auto d = family_default(f, what);
  const std::string key(*keys.begin());
  return r.count(keys, hi, d, d ? default_sentence(f, key.c_str(), *d) : "");
}

// Fields that would change the cost in ways this reader does not model: named, never ignored.
constexpr std::string_view unknown_attention_fields[] = {"attn_type_list",
                                                         "full_attn_idxs",
                                                         "hybrid_override_pattern",
                                                         "layers_block_type",
                                                         "linear_attn_config",
                                                         "layer_block_types",
                                                         "ssm_cfg",
                                                         "mamba_d_state",
                                                         "attention_layers",
                                                         "global_attn_every_n_layers",
                                                         "interleaved_sliding_window",
                                                         "attention_type"};

void read_layer_kinds(const Reader& r, Family f, ModelShape& s) {
  const auto layers = static_cast<std::size_t>(s.layers);
  s.layer_kinds.assign(layers, "full");
  std::optional<double> window;
  if (const Value* w = r.find({"sliding_window"}))
    window = r.integer(*w, "sliding_window", 1, max_model_context);
  if (const Value* c = r.find({"attention_chunk_size"}))
    s.chunk = r.integer(*c, "attention_chunk_size", 1, max_model_context);

  if (s.mla) {
    s.layer_kinds.assign(layers, "mla");
    return;
  }
  if (const Value* types = r.find({"layer_types"})) {
    if (types->type != Value::Type::array)
      fail_key(r.name("layer_types"), "an array of strings, one per layer", json::describe(*types));
    if (types->items.size() != layers) {
      fail_key(r.name("layer_types"), "one entry per layer (" + whole(s.layers) + ")",
               std::to_string(types->items.size()) + " entries");
    }
    for (std::size_t i = 0; i < layers; ++i) {
      const Value& t = types->items[i];
      const std::string entry = r.name("layer_types") + "[" + std::to_string(i) + "]";
      if (t.type != Value::Type::string) fail_key(entry, "a string", json::describe(t));
      if (t.string == "full_attention") {
        s.layer_kinds[i] = "full";
      } else if (t.string == "sliding_attention") {
        s.layer_kinds[i] = "sliding";
      } else if (t.string == "chunked_attention") {
        s.layer_kinds[i] = "chunked";
      } else {
        s.assumed.push_back("layer_types[" + std::to_string(i) + "] is \"" + t.string +
                            "\", a kind of layer this calculator does not know: costed as full "
                            "attention.");
      }
    }
  } else if (f == Family::gemma2) {
    for (std::size_t i = 0; i < layers; ++i) s.layer_kinds[i] = i % 2 == 0 ? "sliding" : "full";
    if (!window) {
      window = 4096;
      s.assumed.push_back("sliding_window is not in the file: Gemma 2's default, 4,096.");
    }
  } else if (f == Family::gemma3 || r.find({"sliding_window_pattern"})) {
    const double pattern =
        r.count({"sliding_window_pattern"}, max_model_layers, 6,
                f == Family::gemma3 ? "sliding_window_pattern is not in the file: Gemma 3's "
                                      "default, 6 (five sliding layers, then a full one)."
                                    : "");
    for (std::size_t i = 0; i < layers; ++i)
      s.layer_kinds[i] = std::fmod(static_cast<double>(i + 1), pattern) == 0 ? "full" : "sliding";
    if (!window && f == Family::gemma3) {
      window = 4096;
      s.assumed.push_back("sliding_window is not in the file: Gemma 3's default, 4,096.");
    }
  } else if (f == Family::qwen2 || f == Family::qwen2_moe || f == Family::qwen3 ||
             f == Family::qwen3_moe) {
    const bool use = r.flag("use_sliding_window").value_or(false);
    if (use) {
      const double from = r.count({"max_window_layers"}, max_model_layers, 28,
                                  "max_window_layers is not in the file: Qwen2's default, 28.", 0);
      for (std::size_t i = 0; i < layers; ++i)
        if (static_cast<double>(i) >= from) s.layer_kinds[i] = "sliding";
    } else if (window) {
      s.assumed.push_back("use_sliding_window is false: sliding_window (" + whole(*window) +
                          ") is not used, as in transformers; every layer attends to the whole "
                          "context.");
    }
  } else if (f == Family::llama4) {
    if (s.chunk) {
      auto rope = r.integers("no_rope_layers", 0, 1);
      if (rope && !rope->empty() && rope->size() < layers) {
        fail_key(r.name("no_rope_layers"), "one entry per layer (" + whole(s.layers) + ")",
                 std::to_string(rope->size()) + " entries");
      }
      if (!rope || rope->empty()) {
        rope.emplace();
        for (std::size_t i = 0; i < layers; ++i) rope->push_back((i + 1) % 4 != 0 ? 1 : 0);
        s.assumed.push_back(
            "no_rope_layers is not in the file: Llama 4's default, every fourth "
            "layer without RoPE (full attention), the others chunked.");
      }
      for (std::size_t i = 0; i < layers; ++i)
        s.layer_kinds[i] = (*rope)[i] != 0 ? "chunked" : "full";
    }
  } else if (window) {
    s.layer_kinds.assign(layers, "sliding");  // Mistral v0.1: a window on every layer
  } else if (f == Family::mistral && !r.has("sliding_window")) {
    window = 4096;
    s.layer_kinds.assign(layers, "sliding");
    s.assumed.push_back(
        "sliding_window is not in the file: Mistral's default, 4,096 on every "
        "layer (released Mistral v0.2 and later files say null: no window).");
  }

  const bool slides = std::count(s.layer_kinds.begin(), s.layer_kinds.end(), "sliding") > 0;
  const bool chunks = std::count(s.layer_kinds.begin(), s.layer_kinds.end(), "chunked") > 0;
  if (slides && !window) {
    fail_key(r.name("sliding_window"), "a positive integer when layers slide",
             r.has("sliding_window") ? "null" : "nothing (the field is missing)");
  }
  if (chunks && !s.chunk) {
    fail_key(r.name("attention_chunk_size"), "a positive integer when layers are chunked",
             "nothing (the field is missing)");
  }
  if (slides) s.window = *window;
  if (!chunks) s.chunk.reset();
}

void read_moe(const Reader& r, Family f, ModelShape& s) {
  std::string_view which;
  const Value* e = r.find({"n_routed_experts", "num_local_experts", "num_experts"}, &which);
  if (!e) return;
  const double experts = r.integer(*e, which, 0, max_model_experts);
  if (experts == 0) return;
  ModelMoe m;
  m.experts = experts;
  m.experts_per_token = r.count({"num_experts_per_tok", "experts_per_token"}, experts,
                                f == Family::llama4 ? std::optional<double>(1) : std::nullopt,
                                f == Family::llama4 ? "num_experts_per_tok is not in the file: "
                                                      "Llama 4's default, 1."
                                                    : "");
  const double file_width = s.intermediate;
  m.expert_width = r.count({"moe_intermediate_size"}, max_model_width, file_width);
  const auto layers = static_cast<std::size_t>(s.layers);
  std::vector<bool> moe(layers, true);
  if (f == Family::deepseek) {
    m.shared_experts = r.count({"n_shared_experts"}, 64, 0, "", 0);
    m.shared_width = m.shared_experts > 0 ? m.expert_width : 0;
    const double first = r.count({"first_k_dense_replace"}, max_model_layers, 0, "", 0);
    const double freq = r.count({"moe_layer_freq"}, max_model_layers, 1);
    for (std::size_t i = 0; i < layers; ++i)
      moe[i] = static_cast<double>(i) >= first && std::fmod(static_cast<double>(i), freq) == 0;
    m.router_bias = r.string("topk_method") == "noaux_tc";
  } else if (f == Family::qwen2_moe || f == Family::qwen3_moe) {
    const double step = r.count({"decoder_sparse_step"}, max_model_layers, 1);
    const auto only =
        r.integers("mlp_only_layers", 0, max_model_layers).value_or(std::vector<double>{});
    for (std::size_t i = 0; i < layers; ++i) {
      const bool dense = std::find(only.begin(), only.end(), static_cast<double>(i)) != only.end();
      moe[i] = !dense && std::fmod(static_cast<double>(i + 1), step) == 0;
    }
    if (f == Family::qwen2_moe) {
      m.shared_width = r.count({"shared_expert_intermediate_size"}, max_model_width, 0, "", 0);
      m.shared_experts = m.shared_width > 0 ? 1 : 0;
      m.shared_expert_gate = m.shared_width > 0;
    }
  } else if (f == Family::llama4) {
    m.shared_experts = 1;
    m.shared_width = m.expert_width;
    if (auto listed = r.integers("moe_layers", 0, max_model_layers - 1)) {
      moe.assign(layers, false);
      for (double i : *listed)
        if (i < s.layers) moe[static_cast<std::size_t>(i)] = true;
    } else {
      const double step = r.count({"interleave_moe_layer_step"}, max_model_layers, 1);
      for (std::size_t i = 0; i < layers; ++i)
        moe[i] = std::fmod(static_cast<double>(i + 1), step) == 0;
    }
    s.intermediate =
        r.count({"intermediate_size_mlp"}, max_model_width, 16384,
                "intermediate_size_mlp is not in the file: Llama 4's default, 16,384.");
  } else if (f == Family::gpt_oss) {
    m.router_bias = true;
  }
  m.moe_layers = static_cast<double>(std::count(moe.begin(), moe.end(), true));
  m.dense_layers = s.layers - m.moe_layers;
  s.moe = m;
}

// ---- how the file stores its weights ----------------------------------------------------------

double weights_bytes_of(const ModelShape& s, const ModelWeights& w);  // below, with the tensors

/// Whether any entry of a module list (modules_to_not_convert, ignore, llm_int8_skip_modules)
/// names a part of the layers, by a word of its module names.
bool names_part(const Value* list, std::initializer_list<std::string_view> words) {
  if (!list || list->type != Value::Type::array) return false;
  for (const Value& e : list->items) {
    if (e.type != Value::Type::string) continue;
    for (auto w : words)
      if (e.string.find(w) != std::string::npos) return true;
  }
  return false;
}

/// The 16-bit (or 32-bit) storage of the parameters a method leaves alone, from torch_dtype.
double dtype_bytes(const Reader& r, const Reader& outer, ModelShape& s, std::string& name) {
  std::string_view which;
  const Value* v = r.find({"torch_dtype", "dtype"}, &which);
  if (!v) v = outer.find({"torch_dtype", "dtype"}, &which);
  if (!v || (v->type == Value::Type::string && v->string == "auto")) {
    s.assumed.push_back("torch_dtype is not in the file: the weights are taken as bf16 (2 bytes).");
    name = "bf16";
    return 2;
  }
  if (v->type != Value::Type::string) fail_key(r.name(which), "a dtype name", json::describe(*v));
  const std::string& t = v->string;
  if (t == "float32" || t == "float") {
    name = "fp32";
    return 4;
  }
  if (t == "float16" || t == "half") {
    name = "fp16";
    return 2;
  }
  if (t == "bfloat16") {
    name = "bf16";
    return 2;
  }
  s.assumed.push_back("torch_dtype \"" + t +
                      "\" is not a dtype this calculator knows: taken as 2 bytes.");
  name = "bf16";
  return 2;
}

/// A number of a quantization_config, or `fallback`.
double qnumber(const Value& q, std::string_view key, double fallback) {
  const Value* v = q.find(key);
  return v && v->type == Value::Type::number && std::isfinite(v->number) ? v->number : fallback;
}
bool qflag(const Value& q, std::string_view key, bool fallback) {
  const Value* v = q.find(key);
  return v && v->type == Value::Type::boolean ? v->boolean : fallback;
}
std::string qstring(const Value& q, std::string_view key) {
  const Value* v = q.find(key);
  return v && v->type == Value::Type::string ? v->string : "";
}

std::string group_name(double g) {
  return g > 0 ? "-g" + whole(g) : g == 0 ? "-channel" : "-tensor";
}

/// shape.weights from torch_dtype and quantization_config (see model.hpp, ModelWeights).
ModelWeights read_weights(const Reader& r, const Reader& outer, ModelShape& s) {
  ModelWeights w;
  std::string rest;
  w.rest_bytes = dtype_bytes(r, outer, s, rest);
  const std::string kept = rest == "fp32" ? "32 bits" : "16 bits (" + rest + ")";
  const Value* q = outer.find({"quantization_config"});
  if (!q) q = r.find({"quantization_config"});
  if (!q || !q->is_object()) {
    w.format = rest;
    w.note = "torch_dtype: every parameter in " + rest + ".";
    return w;
  }
  const std::string method = qstring(*q, "quant_method");
  const Value* skip = q->find("modules_to_not_convert");
  if (!skip) skip = q->find("ignore");
  if (!skip) skip = q->find("llm_int8_skip_modules");
  const bool keeps_attention = names_part(skip, {"self_attn", "attn", "attention"});
  w.quantized = keeps_attention ? "mlp" : "linear";
  const std::string what =
      keeps_attention ? "the MLPs' and experts' matrices" : "every linear layer's matrix";
  if (method == "fp8") {
    const Value* block = q->find("weight_block_size");
    w.element_bits = 8;
    w.scale_bytes = 4;  // float32 scales (weight_scale_inv)
    if (block && block->type == Value::Type::array && !block->items.empty() &&
        block->items[0].type == Value::Type::number) {
      w.block_size = block->items[0].number;
      w.format = "fp8-block" + whole(w.block_size);
      w.note = "quantization_config fp8: " + what + " in FP8 (e4m3) with a float32 scale per " +
               whole(w.block_size) + " × " + whole(w.block_size) +
               " block; embeddings, LM head, norms and routers in " + kept + ".";
    } else {
      w.group_size = -1;
      w.format = "fp8";
      w.note = "quantization_config fp8: " + what +
               " in FP8 (e4m3) with one float32 scale each; embeddings, LM head, norms and "
               "routers in " +
               kept + ".";
    }
  } else if (method == "fbgemm_fp8") {
    // Meta's FP8 checkpoints (Llama 3.1 405B): a float32 scale per output row
    w.element_bits = 8;
    w.group_size = 0;
    w.scale_bytes = 4;
    w.format = "fp8-channel";
    w.note = "quantization_config fbgemm_fp8: " + what +
             " in FP8 with a float32 scale per row; embeddings, LM head, norms and routers in " +
             kept + ".";
  } else if (method == "mxfp4") {
    w.quantized = keeps_attention ? "experts" : "linear";
    w.element_bits = 4;
    w.scale_bytes = 1;  // an E8M0 exponent per 32 weights
    w.group_size = 32;
    w.format = keeps_attention ? "mxfp4+" + rest : "mxfp4";
    w.note = std::string("quantization_config mxfp4: ") +
             (keeps_attention ? "the routed experts' matrices" : what) +
             " in MXFP4 (4-bit values, one 8-bit scale per 32); attention, router, embeddings, "
             "LM head, biases and sinks in " +
             kept + ".";
  } else if (method == "awq" || method == "gptq") {
    w.element_bits = qnumber(*q, method == "awq" ? "bits" : "bits", 4);
    if (method == "awq" && q->find("w_bit")) w.element_bits = qnumber(*q, "w_bit", 4);
    w.group_size = qnumber(*q, "group_size", qnumber(*q, "q_group_size", 128));
    if (w.group_size < 0) w.group_size = 0;  // -1: one group per row
    w.scale_bytes = 2;                       // float16 scales
    const bool zero = method == "awq" ? qflag(*q, "zero_point", true) : true;
    w.zero_bytes = zero ? w.element_bits / 8 : 0;  // packed like the weights
    if (method == "gptq") w.index_bytes = 4;       // g_idx, int32 per input column
    w.format = method + "-int" + whole(w.element_bits) + group_name(w.group_size);
    w.note = "quantization_config " + method + ": " + what + " in " + whole(w.element_bits) +
             "-bit integers with a float16 scale and a packed zero point per " +
             (w.group_size > 0 ? whole(w.group_size) + " weights" : std::string("row")) +
             (method == "gptq" ? ", and an int32 group index per input column" : "") +
             "; embeddings, LM head and norms in " + kept + ".";
  } else if (method == "bitsandbytes") {
    if (qflag(*q, "load_in_8bit", false)) {
      w.element_bits = 8;
      w.group_size = 0;
      w.scale_bytes = 4;  // SCB, a float32 per row
      w.format = "bnb-int8";
      w.note = "quantization_config bitsandbytes 8-bit: " + what +
               " in int8 with a float32 scale per row; embeddings, LM head and norms in " + kept +
               ".";
    } else {
      const std::string kind =
          qstring(*q, "bnb_4bit_quant_type").empty() ? "fp4" : qstring(*q, "bnb_4bit_quant_type");
      const bool nested = qflag(*q, "bnb_4bit_use_double_quant", false);
      w.element_bits = 4;
      w.group_size = 64;
      // a float32 absmax per 64; double quantisation: 8 bits per 64 and a float32 per 256 blocks
      w.scale_bytes = nested ? 1 + 4.0 / 256 : 4;
      w.format = "bnb-" + kind + (nested ? "-dq" : "");
      w.note = "quantization_config bitsandbytes 4-bit " + kind + ": " + what +
               " in 4 bits with an absmax per 64" +
               (nested ? " (itself quantised to 8 bits)" : "") +
               "; embeddings, LM head and norms in " + kept + ".";
    }
  } else if (method == "compressed-tensors") {
    // the first config group's weights
    const Value* groups = q->find("config_groups");
    const Value* weights = nullptr;
    if (groups && groups->is_object() && !groups->members.empty()) {
      const Value& g = groups->members.front().second;
      weights = g.find("weights");
    }
    if (!weights || !weights->is_object()) {
      w.format = rest;
      s.assumed.push_back(
          "quantization_config compressed-tensors names no weights' scheme: taken as " + rest +
          ".");
      w.quantized = "none";
      w.note = "torch_dtype: every parameter in " + rest + ".";
      return w;
    }
    w.element_bits = qnumber(*weights, "num_bits", 8);
    const std::string type = qstring(*weights, "type");
    const std::string strategy = qstring(*weights, "strategy");
    const bool symmetric = qflag(*weights, "symmetric", true);
    // scales in the model's dtype (2 bytes) whatever the strategy; NVFP4 (4-bit floats in groups
    // of 16) an FP8 scale per group
    w.scale_bytes = type == "float" && w.element_bits == 4 ? 1 : 2;
    if (strategy == "tensor") {
      w.group_size = -1;
    } else if (strategy == "group" || strategy == "tensor_group") {
      w.group_size = qnumber(*weights, "group_size", 128);
    } else if (strategy == "block") {
      const Value* b = weights->find("block_structure");
      w.block_size =
          b && b->type == Value::Type::array && !b->items.empty() ? b->items[0].number : 128;
    } else {  // channel
      w.group_size = 0;
    }
    w.zero_bytes = symmetric ? 0 : w.element_bits / 8;  // packed like the weights
    // activation order by group keeps an int32 group index per input column
    const Value* order = weights->find("actorder");
    if (order && ((order->type == Value::Type::string && order->string == "group") ||
                  (order->type == Value::Type::boolean && order->boolean)))
      w.index_bytes = 4;
    const std::string base = (type == "float" ? "fp" : "int") + whole(w.element_bits);
    w.format =
        base + (w.block_size > 0 ? "-block" + whole(w.block_size) : group_name(w.group_size));
    w.note = "quantization_config compressed-tensors: " + what + " in " + base +
             (w.group_size == -1  ? " with one scale each"
              : w.group_size == 0 ? " with a scale per row"
              : w.block_size > 0  ? " with a scale per block"
                                  : " with a scale per " + whole(w.group_size) + " weights") +
             "; embeddings, LM head and norms in " + kept + ".";
  } else {
    w.quantized = "none";
    w.format = rest;
    s.assumed.push_back("quantization_config's quant_method \"" + method +
                        "\" is not a method this calculator knows: the weights are costed in " +
                        rest + ".");
    w.note = "torch_dtype: every parameter in " + rest + " (the quantisation not understood).";
  }
  if (!(w.element_bits > 0 && w.element_bits <= 32)) w.element_bits = 8;
  return w;
}

ModelShape read(const Value& config) {
  if (!config.is_object())
    fail_key("config", "an object (the contents of a config.json)", json::describe(config));
  ModelShape s;
  const Value* nested = config.find("text_config");
  if (nested && !nested->is_null() && !nested->is_object())
    fail_key("config.text_config", "an object (the language model's configuration)",
             json::describe(*nested));
  const bool multimodal = nested && nested->is_object();
  const Value& text = multimodal ? *nested : config;
  Reader r(text, multimodal ? &config : nullptr, multimodal ? "config.text_config" : "config", s);
  Reader outer(config, nullptr, "config", s);

  s.model_type = r.string("model_type");
  if (s.model_type.empty() && multimodal) {
    s.model_type = outer.string("model_type");
    if (!s.model_type.empty() && family_of(s.model_type + "_text") != Family::other)
      s.model_type += "_text";
  }
  const Family f = family_of(s.model_type);
  if (f == Family::other) {
    s.assumed.push_back((s.model_type.empty() ? std::string("model_type is not in the file")
                                              : "model_type \"" + s.model_type +
                                                    "\" is not a family this calculator knows") +
                        ": read as a Llama-like decoder (gated MLP, RMS norms, no biases).");
  }

  // sizes
  s.layers =
      required(r, f, {"num_hidden_layers", "n_layer", "num_layers"}, "layers", max_model_layers);
  s.hidden =
      required(r, f, {"hidden_size", "n_embd", "n_embed", "d_model"}, "hidden", max_model_hidden);
  s.heads = required(r, f, {"num_attention_heads", "n_head"}, "heads", max_model_heads);
  s.vocab = required(r, f, {"vocab_size"}, "vocab", max_model_vocab);

  // key-value heads
  {
    std::string_view which;
    const Value* kv = r.find({"num_key_value_heads", "n_head_kv", "num_kv_heads"}, &which);
    const bool new_arch = f == Family::falcon && r.flag("new_decoder_architecture").value_or(false);
    if (kv && (f != Family::falcon || new_arch || which == "n_head_kv")) {
      s.kv_heads = r.integer(*kv, which, 1, max_model_heads);
    } else if (f == Family::falcon && r.flag("multi_query").value_or(true) && !new_arch) {
      s.kv_heads = 1;
      if (!r.has("multi_query"))
        s.assumed.push_back(
            "multi_query is not in the file: Falcon's default, true (one key-value head).");
    } else if (const auto d = family_default(f, "kv_heads")) {
      s.kv_heads = *d;
      s.assumed.push_back(default_sentence(f, "num_key_value_heads", *d));
    } else {
      s.kv_heads = s.heads;
      if (f != Family::gpt2 && f != Family::falcon) {
        s.assumed.push_back(
            "num_key_value_heads is not in the file: every query head has its own "
            "keys and values (" +
            whole(s.heads) + ").");
      }
    }
    if (s.kv_heads > s.heads || std::fmod(s.heads, s.kv_heads) != 0) {
      fail_key(r.name(which.empty() ? "num_key_value_heads" : which),
               "a divisor of " + r.name("num_attention_heads") + " (" + whole(s.heads) + ")",
               whole(s.kv_heads));
    }
  }

  // the MLP's width
  if (f == Family::gpt2 || f == Family::falcon) {
    s.intermediate = r.count({"n_inner", "ffn_hidden_size"}, max_model_width, 4 * s.hidden);
  } else {
    s.intermediate = required(r, f, {"intermediate_size"}, "intermediate", max_model_width);
  }

  // latent attention
  if (r.find({"kv_lora_rank"})) {
    ModelMla m;
    m.kv_lora_rank = r.count({"kv_lora_rank"}, max_model_rank);
    if (const Value* q = r.find({"q_lora_rank"}))
      m.q_lora_rank = r.integer(*q, "q_lora_rank", 1, max_model_rank);
    m.qk_nope_head_dim = r.count({"qk_nope_head_dim"}, max_model_rank);
    m.qk_rope_head_dim = r.count({"qk_rope_head_dim"}, max_model_rank);
    m.v_head_dim = r.count({"v_head_dim"}, max_model_rank);
    s.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    s.v_head_dim = m.v_head_dim;
    s.mla = m;
  } else {
    const double dflt = f == Family::gemma || f == Family::gemma2 || f == Family::gemma3      ? 256
                        : f == Family::qwen3 || f == Family::qwen3_moe || f == Family::llama4 ? 128
                                                                                              : 0;
    if (const Value* hd = r.find({"head_dim"})) {
      s.head_dim = r.integer(*hd, "head_dim", 1, max_model_head_dim);
    } else if (dflt > 0) {
      s.head_dim = dflt;
      s.assumed.push_back(default_sentence(f, "head_dim", dflt));
    } else {
      if (std::fmod(s.hidden, s.heads) != 0) {
        fail_key(r.name("head_dim"),
                 "present when " + r.name("hidden_size") + " (" + whole(s.hidden) +
                     ") is not a multiple of the heads (" + whole(s.heads) + ")",
                 "nothing (the field is missing)");
      }
      s.head_dim = s.hidden / s.heads;
      if (s.head_dim > max_model_head_dim)
        fail_key(r.name("head_dim"), "at most 4,096 (hidden_size / num_attention_heads)",
                 whole(s.head_dim));
      if (f != Family::gpt2 && f != Family::falcon) {
        s.assumed.push_back(
            "head_dim is not in the file: hidden_size / num_attention_heads = " + whole(s.hidden) +
            " / " + whole(s.heads) + " = " + whole(s.head_dim) + ".");
      }
    }
    s.v_head_dim = s.head_dim;
  }

  // context
  {
    const double dflt = family_default(f, "max_context").value_or(f == Family::gpt2 ? 1024 : 2048);
    s.max_context =
        r.count({"max_position_embeddings", "n_positions", "n_ctx"}, max_model_context, dflt,
                "max_position_embeddings is not in the file: " + whole(dflt) + " assumed.");
  }

  read_moe(r, f, s);
  read_layer_kinds(r, f, s);

  // tied embeddings: the text part's, else the outer file's, else the family's
  {
    const bool dflt = f == Family::gpt2 || f == Family::falcon || f == Family::gemma ||
                      f == Family::gemma2 || f == Family::gemma3;
    std::optional<bool> tied = r.flag("tie_word_embeddings");
    if (!tied && multimodal) tied = outer.flag("tie_word_embeddings");
    if (!tied) {
      s.assumed.push_back(std::string("tie_word_embeddings is not in the file: ") + family_name(f) +
                          " default, " +
                          (dflt ? "true (the output projection is the embedding)."
                                : "false (the output projection has its own matrix)."));
    }
    s.tied_embeddings = tied.value_or(dflt);
  }

  // what the parameters are made of
  s.gated_mlp = f != Family::gpt2 && f != Family::falcon;
  if (f == Family::gpt2) {
    s.attention_bias = "qkvo";
    s.mlp_bias = true;
    s.norm_kind = "layer";
    s.position_embeddings = s.max_context;
  } else if (f == Family::falcon) {
    const bool bias = r.flag("bias").value_or(false);
    s.attention_bias = bias ? "qkvo" : "none";
    s.mlp_bias = bias;
    s.norm_kind = "layer";
    const bool new_arch = r.flag("new_decoder_architecture").value_or(false);
    const bool parallel = r.flag("parallel_attn").value_or(true);
    s.norms_per_layer = new_arch ? r.count({"num_ln_in_parallel_attn"}, 2, 2) : parallel ? 1 : 2;
  } else if (f == Family::qwen2 || f == Family::qwen2_moe) {
    s.attention_bias = "qkv";
  } else if (f == Family::gpt_oss) {
    s.attention_bias = r.flag("attention_bias").value_or(true) ? "qkvo" : "none";
    s.mlp_bias = true;
    s.attention_sinks = true;
  } else {
    s.attention_bias = r.flag("attention_bias").value_or(false) ? "qkvo" : "none";
    s.mlp_bias = r.flag("mlp_bias").value_or(false);
  }
  if (f == Family::gemma2 || f == Family::gemma3) s.norms_per_layer = 4;
  s.qk_norm = f == Family::qwen3 || f == Family::qwen3_moe || f == Family::gemma3;

  // what is in the file and not counted
  if (multimodal || outer.find({"vision_config"}) || outer.find({"audio_config"}))
    s.assumed.push_back("The file describes more than a language model: only the text model (" +
                        std::string(multimodal ? "text_config" : "its layers") +
                        ") is counted, not the vision or audio encoder.");
  if (const Value* mtp = r.find({"num_nextn_predict_layers"})) {
    const double n = r.integer(*mtp, "num_nextn_predict_layers", 0, max_model_layers);
    if (n > 0)
      s.assumed.push_back("num_nextn_predict_layers = " + whole(n) +
                          ": the multi-token prediction "
                          "layer is not counted (transformers does not load it).");
  }
  for (auto key : unknown_attention_fields) {
    if (r.find({key}) || (multimodal && outer.find({key})))
      s.assumed.push_back(std::string(key) +
                          " is in the file: this calculator does not model it; "
                          "its layers are costed as full attention.");
  }
  s.weights = read_weights(r, outer, s);
  s.weights.bytes = weights_bytes_of(s, s.weights);
  return s;
}

// ---- reading a shape back ---------------------------------------------------------------------

/// Reads each field of a struct from a caller's object by the name the caller gives the member
/// (`names`: the bindings' camelCase, as they wrote the shape), through the same for_each_field
/// list, so reading and writing cannot disagree. Its messages quote the keys as the caller's
/// object has them (fail_key); check_shape's name the fields in C++, marked.
class ShapeReader {
 public:
  ShapeReader(const Value& object, std::string path, FieldNames names)
      : object_(object), path_(std::move(path)), names_(names) {
    if (!object.is_object())
      fail_key(path_, "an object (as " + api_name("model_from_config") + " returns it)",
               json::describe(object));
  }

  template <class Struct>
  void fields(Struct& out) {
    // for_each_field hands each member as const; the object is ours and not const
    for_each_field(out, [this](const char* name, const auto& member) {
      this->read(name, const_cast<std::remove_const_t<std::remove_reference_t<decltype(member)>>&>(
                           member));
    });
  }

 private:
  const Value& object_;
  std::string path_;
  FieldNames names_;

  std::string key(const char* member) const { return names_(member); }

  const Value& get(const char* name, std::string& where) const {
    where = path_ + "." + key(name);
    const Value* v = object_.find(key(name));
    if (!v)
      fail_key(where, "present (a shape as " + api_name("model_from_config") + " returns it)",
               "nothing (the field is missing)");
    return *v;
  }

  void read(const char* name, double& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::number || !std::isfinite(v.number) ||
        v.number != std::floor(v.number) || v.number < 0)
      fail_key(where, "a whole number ≥ 0", json::describe(v));
    out = v.number;
  }
  void read(const char* name, bool& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::boolean) fail_key(where, "true or false", json::describe(v));
    out = v.boolean;
  }
  void read(const char* name, std::string& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::string) fail_key(where, "a string", json::describe(v));
    out = v.string;
  }
  void read(const char* name, std::vector<std::string>& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::array) fail_key(where, "an array of strings", json::describe(v));
    out.clear();
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (v.items[i].type != Value::Type::string)
        fail_key(where + "[" + std::to_string(i) + "]", "a string", json::describe(v.items[i]));
      out.push_back(v.items[i].string);
    }
  }
  /// The weights' storage: absent (a shape written before it was read from files) is bf16; its
  /// numbers are checked by check_weights, its bytes recomputed from them.
  void read(const char* name, ModelWeights& out) {
    const Value* v = object_.find(key(name));
    const std::string where = path_ + "." + key(name);
    if (!v || v->is_null()) {
      out = ModelWeights{};
      out.format = "bf16";
      out.note = "Every parameter in bf16 (the shape names no storage).";
      return;
    }
    if (!v->is_object())
      fail_key(where, "an object (as " + api_name("model_from_config") + " returns it)",
               json::describe(*v));
    for_each_field(out, [&](const char* field, const auto& member) {
      auto& m = const_cast<std::remove_const_t<std::remove_reference_t<decltype(member)>>&>(member);
      const std::string at = where + "." + key(field);
      const Value* f = v->find(key(field));
      if (!f)
        fail_key(at, "present (a shape as " + api_name("model_from_config") + " returns it)",
                 "nothing (the field is missing)");
      if constexpr (std::is_same_v<std::decay_t<decltype(m)>, std::string>) {
        if (f->type != Value::Type::string) fail_key(at, "a string", json::describe(*f));
        m = f->string;
      } else {
        if (f->type != Value::Type::number || !std::isfinite(f->number))
          fail_key(at, "a finite number", json::describe(*f));
        m = f->number;
      }
    });
  }
  template <class T>
  void read(const char* name, Nullable<T>& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.is_null()) {
      out.reset();
      return;
    }
    if constexpr (std::is_same_v<T, double>) {
      if (v.type != Value::Type::number || !std::isfinite(v.number) ||
          v.number != std::floor(v.number) || v.number < 1)
        fail_key(where, "a positive whole number or null", json::describe(v));
      out = v.number;
    } else {
      T nested;
      ShapeReader(v, where, names_).fields(nested);
      out = nested;
    }
  }
};

void require_whole(double x, const char* name, double lo, double hi) {
  require_integer(x, std::string("shape.") + name, lo, hi);
}

void check_shape(const ModelShape& s) {
  require_whole(s.layers, "layers", 1, max_model_layers);
  require_whole(s.hidden, "hidden", 1, max_model_hidden);
  require_whole(s.heads, "heads", 1, max_model_heads);
  require_whole(s.kv_heads, "kv_heads", 1, max_model_heads);
  require_whole(s.head_dim, "head_dim", 1, max_model_head_dim * 2);
  require_whole(s.v_head_dim, "v_head_dim", 1, max_model_head_dim);
  require_whole(s.intermediate, "intermediate", 0, max_model_width);
  require_whole(s.vocab, "vocab", 1, max_model_vocab);
  require_whole(s.max_context, "max_context", 1, max_model_context);
  require_whole(s.norms_per_layer, "norms_per_layer", 0, 8);
  require_whole(s.position_embeddings, "position_embeddings", 0, max_model_context);
  if (s.layer_kinds.size() != static_cast<std::size_t>(s.layers)) {
    fail("shape.layer_kinds", "one entry per layer (" + whole(s.layers) + ")",
         std::to_string(s.layer_kinds.size()) + " entries");
  }
  bool slides = false, chunks = false, latent = false;
  for (std::size_t i = 0; i < s.layer_kinds.size(); ++i) {
    const std::string& k = s.layer_kinds[i];
    if (k == "sliding")
      slides = true;
    else if (k == "chunked")
      chunks = true;
    else if (k == "mla")
      latent = true;
    else if (k != "full")
      fail("shape.layer_kinds[" + std::to_string(i) + "]",
           "\"full\", \"sliding\", \"chunked\" or \"mla\"", "\"" + k + "\"");
  }
  if (slides) {
    if (!s.window) fail("shape.window", "a positive whole number when layers slide", "null");
    require_whole(*s.window, "window", 1, max_model_context);
  }
  if (chunks) {
    if (!s.chunk) fail("shape.chunk", "a positive whole number when layers are chunked", "null");
    require_whole(*s.chunk, "chunk", 1, max_model_context);
  }
  if (latent && !s.mla)
    fail("shape.mla", "the latent attention's sizes when layers are \"mla\"", "null");
  if (s.mla) {
    require_whole(s.mla->kv_lora_rank, "mla.kv_lora_rank", 1, max_model_rank);
    if (s.mla->q_lora_rank)
      require_whole(*s.mla->q_lora_rank, "mla.q_lora_rank", 1, max_model_rank);
    require_whole(s.mla->qk_nope_head_dim, "mla.qk_nope_head_dim", 0, max_model_rank);
    require_whole(s.mla->qk_rope_head_dim, "mla.qk_rope_head_dim", 0, max_model_rank);
    require_whole(s.mla->v_head_dim, "mla.v_head_dim", 1, max_model_rank);
  }
  if (s.kv_heads > s.heads || std::fmod(s.heads, s.kv_heads) != 0)
    fail("shape.kv_heads", "a divisor of " + api_name("shape.heads") + " (" + whole(s.heads) + ")",
         whole(s.kv_heads));
  if (s.moe) {
    const ModelMoe& m = *s.moe;
    require_whole(m.experts, "moe.experts", 1, max_model_experts);
    require_whole(m.experts_per_token, "moe.experts_per_token", 1, m.experts);
    require_whole(m.shared_experts, "moe.shared_experts", 0, 64);
    require_whole(m.expert_width, "moe.expert_width", 1, max_model_width);
    require_whole(m.shared_width, "moe.shared_width", 0, max_model_width);
    require_whole(m.moe_layers, "moe.moe_layers", 0, s.layers);
    if (m.moe_layers + m.dense_layers != s.layers)
      fail("shape.moe.dense_layers",
           api_name("shape.layers") + " − " + api_name("shape.moe.moe_layers") + " (" +
               whole(s.layers - m.moe_layers) + ")",
           whole(m.dense_layers));
  }
  if (s.attention_bias != "none" && s.attention_bias != "qkv" && s.attention_bias != "qkvo")
    fail("shape.attention_bias", "\"none\", \"qkv\" or \"qkvo\"", "\"" + s.attention_bias + "\"");
  if (s.norm_kind != "rms" && s.norm_kind != "layer")
    fail("shape.norm_kind", "\"rms\" or \"layer\"", "\"" + s.norm_kind + "\"");
  const ModelWeights& w = s.weights;
  const std::string& q = w.quantized;
  if (q != "none" && q != "linear" && q != "mlp" && q != "experts")
    fail("shape.weights.quantized", "\"none\", \"linear\", \"mlp\" or \"experts\"",
         "\"" + q + "\"");
  if (!(w.element_bits > 0 && w.element_bits <= 32))
    fail("shape.weights.element_bits", "in (0, 32]", describe(w.element_bits));
  if (!(w.rest_bytes > 0 && w.rest_bytes <= max_model_element_bytes))
    fail("shape.weights.rest_bytes", "in (0, 64]", describe(w.rest_bytes));
  for (auto [value, name] : {std::pair{w.scale_bytes, "shape.weights.scale_bytes"},
                             std::pair{w.zero_bytes, "shape.weights.zero_bytes"},
                             std::pair{w.index_bytes, "shape.weights.index_bytes"}})
    if (!(value >= 0 && value <= max_model_element_bytes))
      fail(name, "in [0, 64]", describe(value));
  require_integer(w.group_size, "shape.weights.group_size", -1, max_model_width);
  require_integer(w.block_size, "shape.weights.block_size", 0, max_model_width);
}

// ---- costing ----------------------------------------------------------------------------------

constexpr const char* kinds[] = {"full", "sliding", "chunked", "mla"};

struct Counts {
  Int layers[4] = {0, 0, 0, 0};
  Int elements[4] = {0, 0, 0, 0};  // cached elements per token and layer, by kind
  Int flops_per_key = 0;           // 2·heads·(d_qk + d_v), the same in every layer
  bool every_token = false;        // sliding and chunked layers keep every token (slidingCache)
};

int kind_index(const std::string& k) {
  for (int i = 0; i < 4; ++i)
    if (k == kinds[i]) return i;
  return 0;
}

/// The cache's counts of the whole model, or of one device holding kv_heads key-value heads and
/// heads query heads (a latent cache is whole on every device).
Counts counts(const ModelShape& s, MlaCache cache, SlidingCache sliding = SlidingCache::window,
              std::optional<Int> kv_heads = std::nullopt, std::optional<Int> heads = std::nullopt) {
  Counts c;
  c.every_token = sliding == SlidingCache::full;
  for (const auto& k : s.layer_kinds) ++c.layers[kind_index(k)];
  const Int kv = kv_heads.value_or(to_int(s.kv_heads)), hd = to_int(s.head_dim),
            vd = to_int(s.v_head_dim), h = heads.value_or(to_int(s.heads));
  for (int i = 0; i < 3; ++i) c.elements[i] = kv * (hd + vd);
  if (s.mla) {
    c.elements[3] = cache == MlaCache::latent
                        ? to_int(s.mla->kv_lora_rank + s.mla->qk_rope_head_dim)
                        : h * (hd + vd);
  }
  c.flops_per_key = 2 * h * (hd + vd);
  return c;
}

Int held(const ModelShape& s, const Counts& c, int kind, Int tokens) {
  if (c.every_token) return tokens;
  if (kind == 1) return std::min(tokens, to_int(*s.window));
  if (kind == 2) return std::min(tokens, to_int(*s.chunk));
  return tokens;
}

Int visible(const ModelShape& s, int kind, Int tokens) {
  if (kind == 1) return std::min(tokens, to_int(*s.window));
  if (kind == 2) {
    const Int chunk = to_int(*s.chunk);
    return (tokens - 1) % chunk + 1;
  }
  return tokens;
}

Int attention_flops(const ModelShape& s, const Counts& c, Int tokens) {
  Int keys = 0;
  for (int k = 0; k < 4; ++k)
    if (c.layers[k] > 0) keys += c.layers[k] * visible(s, k, tokens);
  return c.flops_per_key * keys;
}

/// Elements cached for one sequence at `tokens`, all layers.
Int cached(const ModelShape& s, const Counts& c, Int tokens) {
  Int n = 0;
  for (int k = 0; k < 4; ++k)
    if (c.layers[k] > 0) n += c.layers[k] * c.elements[k] * held(s, c, k, tokens);
  return n;
}

double bytes(Int elements, double per_element) { return to_double(elements) * per_element; }

struct Weights {
  Int total = 0, active = 0, embedding = 0, matmul_active = 0;
};

Int mlp(const ModelShape& s, Int width, bool with_bias) {
  const Int d = to_int(s.hidden);
  Int p = (s.gated_mlp ? 3 : 2) * d * width;
  if (with_bias) p += (s.gated_mlp ? 2 * width : width) + d;
  return p;
}

Weights weights(const ModelShape& s) {
  Weights w;
  const Int d = to_int(s.hidden), h = to_int(s.heads), kv = to_int(s.kv_heads),
            hd = to_int(s.head_dim), L = to_int(s.layers), V = to_int(s.vocab);
  // attention, per layer
  Int attention = 0, attention_matmul = 0;
  if (s.mla) {
    const ModelMla& m = *s.mla;
    const Int kvr = to_int(m.kv_lora_rank), rope = to_int(m.qk_rope_head_dim),
              nope = to_int(m.qk_nope_head_dim), v = to_int(m.v_head_dim);
    Int q = 0;
    if (m.q_lora_rank) {
      const Int qr = to_int(*m.q_lora_rank);
      q = d * qr + qr * h * (nope + rope);
      attention += qr;  // q_a_layernorm
    } else {
      q = d * h * (nope + rope);
    }
    attention_matmul = q + d * (kvr + rope) + kvr * h * (nope + v) + h * v * d;
    attention += kvr;  // kv_a_layernorm
  } else {
    const Int q = h * hd, k = kv * hd;
    attention_matmul = d * q + 2 * d * k + q * d;
    if (s.attention_bias == "qkv") attention += q + 2 * k;
    if (s.attention_bias == "qkvo") attention += q + 2 * k + d;
    if (s.qk_norm) attention += 2 * hd;
  }
  attention += attention_matmul;
  if (s.attention_sinks) attention += h;
  const Int norm = (s.norm_kind == "layer" ? 2 : 1) * d;
  const Int per_layer_fixed = attention + to_int(s.norms_per_layer) * norm;

  Int mlps = 0, mlps_active = 0, mlps_matmul_active = 0;
  const Int dense_layers = s.moe ? to_int(s.moe->dense_layers) : L;
  const Int dense = mlp(s, to_int(s.intermediate), s.mlp_bias);
  mlps += dense_layers * dense;
  mlps_active += dense_layers * dense;
  mlps_matmul_active += dense_layers * mlp(s, to_int(s.intermediate), false);
  if (s.moe) {
    const ModelMoe& m = *s.moe;
    const Int E = to_int(m.experts), k = to_int(m.experts_per_token), ML = to_int(m.moe_layers);
    const Int expert = mlp(s, to_int(m.expert_width), s.mlp_bias);
    const Int shared = to_int(m.shared_experts) * mlp(s, to_int(m.shared_width), s.mlp_bias);
    const Int router = d * E + (m.router_bias ? E : 0) + (m.shared_expert_gate ? d : 0);
    mlps += ML * (E * expert + shared + router);
    mlps_active += ML * (k * expert + shared + router);
    mlps_matmul_active += ML * (k * mlp(s, to_int(m.expert_width), false) +
                                to_int(m.shared_experts) * mlp(s, to_int(m.shared_width), false) +
                                d * E + (m.shared_expert_gate ? d : 0));
  }
  w.embedding = V * d + to_int(s.position_embeddings) * d;
  const Int output = s.tied_embeddings ? 0 : V * d;
  const Int common = w.embedding + output + norm /* the final norm */ + L * per_layer_fixed;
  w.total = common + mlps;
  w.active = common + mlps_active;
  w.matmul_active = L * attention_matmul + mlps_matmul_active +
                    V * d;  // the output projection runs even when tied
  return w;
}

// ---- the weights tensor by tensor, as engines split them --------------------------------------
//
// Every parameter of weights() again, as tensors [rows (out), cols (in)] with what each is (which
// a quantisation method may touch) and how tensor parallelism splits it (vLLM's and SGLang's
// column- and row-parallel layers; the vocabulary split by rows, padded to 64 per device's share;
// key-value projections by heads, replicated when devices outnumber heads; the rest replicated).

// vector32: a vector a checkpoint keeps in float32 whatever its dtype (DeepSeek-V3's
// e_score_correction_bias)
enum class Role { attention, mlp, expert, embedding, head, router, vector, vector32 };
enum class Split { column, row, kv, vocab, replicated };

struct Tensor {
  Int rows, cols, count;
  Role role;
  Split split;
  bool routed = false;  // a routed expert's matrix or bias
};

std::vector<Tensor> tensors(const ModelShape& s) {
  std::vector<Tensor> t;
  const Int d = to_int(s.hidden), h = to_int(s.heads), kv = to_int(s.kv_heads),
            hd = to_int(s.head_dim), L = to_int(s.layers), V = to_int(s.vocab);
  bool routed = false;
  auto add = [&](Int rows, Int cols, Int count, Role role, Split split) {
    if (rows > 0 && cols > 0 && count > 0) t.push_back({rows, cols, count, role, split, routed});
  };
  auto vec = [&](Int n, Int count, Split split) { add(n, 1, count, Role::vector, split); };
  // attention
  if (s.mla) {
    const ModelMla& m = *s.mla;
    const Int kvr = to_int(m.kv_lora_rank), rope = to_int(m.qk_rope_head_dim),
              nope = to_int(m.qk_nope_head_dim), v = to_int(m.v_head_dim);
    if (m.q_lora_rank) {
      const Int qr = to_int(*m.q_lora_rank);
      add(qr, d, L, Role::attention, Split::replicated);  // q_a_proj
      vec(qr, L, Split::replicated);                      // q_a_layernorm
      add(h * (nope + rope), qr, L, Role::attention, Split::column);
    } else {
      add(h * (nope + rope), d, L, Role::attention, Split::column);
    }
    add(kvr + rope, d, L, Role::attention, Split::replicated);  // kv_a_proj_with_mqa
    vec(kvr, L, Split::replicated);                             // kv_a_layernorm
    add(h * (nope + v), kvr, L, Role::attention, Split::column);
    add(d, h * v, L, Role::attention, Split::row);
  } else {
    add(h * hd, d, L, Role::attention, Split::column);
    add(kv * hd, d, 2 * L, Role::attention, Split::kv);
    add(d, h * hd, L, Role::attention, Split::row);
    if (s.attention_bias != "none") {
      vec(h * hd, L, Split::column);
      vec(kv * hd, 2 * L, Split::kv);
      if (s.attention_bias == "qkvo") vec(d, L, Split::replicated);
    }
    if (s.qk_norm) vec(hd, 2 * L, Split::replicated);
  }
  if (s.attention_sinks) vec(h, L, Split::replicated);
  // norms: a weight, and a bias for a LayerNorm
  const Int per_norm = s.norm_kind == "layer" ? 2 : 1;
  vec(d, (L * to_int(s.norms_per_layer) + 1) * per_norm, Split::replicated);
  // MLPs: gate and up split by columns, down by rows; a bias of a row-parallel layer replicated
  auto mlp = [&](Int width, Int count, Role role) {
    add(width, d, (s.gated_mlp ? 2 : 1) * count, role, Split::column);
    add(d, width, count, role, Split::row);
    if (s.mlp_bias) {
      vec(width, (s.gated_mlp ? 2 : 1) * count, Split::column);
      vec(d, count, Split::replicated);
    }
  };
  const Int dense_layers = s.moe ? to_int(s.moe->dense_layers) : L;
  mlp(to_int(s.intermediate), dense_layers, Role::mlp);
  if (s.moe) {
    const ModelMoe& m = *s.moe;
    const Int E = to_int(m.experts), ML = to_int(m.moe_layers);
    add(E, d, ML, Role::router, Split::replicated);
    if (m.router_bias) {
      const bool fp32 = s.model_type.rfind("deepseek", 0) == 0;
      add(E, 1, ML, fp32 ? Role::vector32 : Role::vector, Split::replicated);
    }
    if (m.shared_expert_gate) add(1, d, ML, Role::router, Split::replicated);
    routed = true;
    mlp(to_int(m.expert_width), E * ML, Role::expert);
    routed = false;
    mlp(to_int(m.shared_width), to_int(m.shared_experts) * ML, Role::mlp);
  }
  add(V, d, 1, Role::embedding, Split::vocab);
  add(to_int(s.position_embeddings), d, 1, Role::embedding, Split::replicated);
  if (!s.tied_embeddings) add(V, d, 1, Role::head, Split::vocab);
  return t;
}

bool quantized(const ModelWeights& w, Role role) {
  if (role == Role::expert) return w.quantized != "none";
  if (role == Role::mlp) return w.quantized == "linear" || w.quantized == "mlp";
  if (role == Role::attention) return w.quantized == "linear";
  return false;
}

/// Bytes of one tensor of rows × cols in the storage w (scales, zero points and indices included).
double tensor_bytes(const ModelWeights& w, Role role, Int rows, Int cols) {
  if (role == Role::vector32) return to_double(rows * cols) * 4;
  if (!quantized(w, role)) return to_double(rows * cols) * w.rest_bytes;
  double bytes = to_double(rows * cols) * w.element_bits / 8;
  Int scales;
  if (w.block_size > 0) {
    const Int b = to_int(w.block_size);
    scales = ((rows + b - 1) / b) * ((cols + b - 1) / b);
  } else if (w.group_size < 0) {
    scales = 1;
  } else if (w.group_size == 0) {
    scales = rows;
  } else {
    const Int g = to_int(w.group_size);
    scales = rows * ((cols + g - 1) / g);
  }
  bytes += to_double(scales) * (w.scale_bytes + w.zero_bytes);
  bytes += to_double(cols) * w.index_bytes;
  return bytes;
}

/// One device's rows and columns of a tensor under tensor parallelism tp with kv_dev key-value
/// heads each.
std::pair<Int, Int> device_dims(const ModelShape& s, const Tensor& t, Int tp, Int kv_dev) {
  auto share = [tp](Int n) { return (n + tp - 1) / tp; };
  switch (t.split) {
    case Split::column: return {share(t.rows), t.cols};
    case Split::row: return {t.rows, share(t.cols)};
    case Split::kv: return {t.rows / to_int(s.kv_heads) * kv_dev, t.cols};
    case Split::vocab: {
      const Int padded = (t.rows + 63) / 64 * 64;  // vLLM's vocabulary padding, at any tp
      return {share(padded), t.cols};
    }
    case Split::replicated: break;
  }
  return {t.rows, t.cols};
}

double weights_bytes_of(const ModelShape& s, const ModelWeights& w) {
  double bytes = 0;
  for (const Tensor& t : tensors(s))
    bytes += to_double(t.count) * tensor_bytes(w, t.role, t.rows, t.cols);
  return bytes;
}

/// A format named by modelCost's weightFormat (model_weight_formats), applied to every linear
/// layer's matrix; the rest in 16 bits (fp32: everything in 32).
ModelWeights named_format(const std::string& name) {
  ModelWeights w;
  w.format = name;
  if (name == "fp32" || name == "bf16" || name == "fp16") {
    w.rest_bytes = name == "fp32" ? 4 : 2;
    w.note = "Every parameter in " + name + ".";
    return w;
  }
  w.quantized = "linear";
  if (name == "fp8") {
    w.element_bits = 8;
    w.group_size = -1;
    w.scale_bytes = 4;
    w.note =
        "Every linear layer's matrix in FP8 with one float32 scale (as an engine quantises "
        "a 16-bit checkpoint when loading it); embeddings, LM head, norms and routers in 16 "
        "bits.";
  } else if (name == "int8") {
    w.element_bits = 8;
    w.group_size = 0;
    w.scale_bytes = 2;
    w.note =
        "Every linear layer's matrix in int8 with a 16-bit scale per row; embeddings, LM "
        "head, norms and routers in 16 bits.";
  } else if (name == "int4") {
    w.element_bits = 4;
    w.group_size = 128;
    w.scale_bytes = 2;
    w.zero_bytes = 2;
    w.note =
        "Every linear layer's matrix in 4-bit integers with a 16-bit scale and zero point per "
        "128 weights; embeddings, LM head, norms and routers in 16 bits.";
  } else {  // mxfp4
    w.element_bits = 4;
    w.group_size = 32;
    w.scale_bytes = 1;
    w.note =
        "Every linear layer's matrix in MXFP4 (4-bit values, one 8-bit scale per 32); "
        "embeddings, LM head, norms and routers in 16 bits.";
  }
  return w;
}

void require_positive(double x, const char* name, const char* what) {
  if (!(x > 0 && std::isfinite(x))) fail(name, what, describe(x));
}

void check_options(const ModelCostOptions& o, bool sweep) {
  if (!sweep) require_integer(o.tokens, "opts.tokens", 1, max_model_context);
  require_integer(o.batch, "opts.batch", 1, max_model_batch);
  if (!(o.kv_bytes_per_element > 0 && o.kv_bytes_per_element <= max_model_element_bytes))
    fail("opts.kv_bytes_per_element", "in (0, 64] (2 for bf16/fp16, 1 for fp8/int8, 0.5 for int4)",
         describe(o.kv_bytes_per_element));
  if (o.weight_bytes_per_param &&
      !(*o.weight_bytes_per_param > 0 && *o.weight_bytes_per_param <= max_model_element_bytes))
    fail("opts.weight_bytes_per_param", "in (0, 64] (2 for bf16, 1 for fp8, 0.5 for 4-bit)",
         describe(*o.weight_bytes_per_param));
  if (std::find(std::begin(model_weight_formats), std::end(model_weight_formats),
                o.weight_format) == std::end(model_weight_formats))
    fail("opts.weight_format",
         "\"file\", \"fp32\", \"bf16\", \"fp16\", \"fp8\", \"int8\", \"int4\" or \"mxfp4\"",
         "\"" + o.weight_format + "\"");
  if (o.memory_bytes)
    require_positive(*o.memory_bytes, "opts.memory_bytes", "a positive finite number of bytes");
  if (o.tensor_parallel)
    require_integer(*o.tensor_parallel, "opts.tensor_parallel", 0, max_model_devices);
  require_integer(o.block_tokens, "opts.block_tokens", 1, max_model_block_tokens);
  if (o.kv_budget_bytes)
    require_positive(*o.kv_budget_bytes, "opts.kv_budget_bytes",
                     "a positive finite number of bytes");
  if (o.devices) {
    const ModelDevices& d = *o.devices;
    require_integer(d.count, "opts.devices.count", 1, max_model_devices);
    require_positive(d.memory_bytes, "opts.devices.memory_bytes",
                     "a positive finite number of bytes");
    if (d.bandwidth_bytes_per_second)
      require_positive(*d.bandwidth_bytes_per_second, "opts.devices.bandwidth_bytes_per_second",
                       "a positive finite number of bytes per second");
    if (d.flops_per_second)
      require_positive(*d.flops_per_second, "opts.devices.flops_per_second",
                       "a positive finite number of operations per second");
    if (o.memory_bytes)
      fail("opts.memory_bytes",
           "absent when " + api_name("opts.devices") + " is given (each device's memory is " +
               api_name("devices.memory_bytes") + ")",
           describe(*o.memory_bytes));
  }
  if (o.memory_utilization && !(*o.memory_utilization > 0 && *o.memory_utilization <= 1))
    fail("opts.memory_utilization", "in (0, 1] (vLLM's default 0.9)",
         describe(*o.memory_utilization));
  if (!(o.reserve_bytes >= 0 && std::isfinite(o.reserve_bytes)))
    fail("opts.reserve_bytes", "a finite number of bytes ≥ 0", describe(o.reserve_bytes));
}

/// floor(a / b) for a ≥ 0 and b > 0, exact at the boundary (a double quotient may round up).
Int floor_div(double a, double b) {
  if (!(a > 0)) return 0;
  const double q = std::floor(a / b);
  if (q >= 1e30) return to_int(1e30);
  Int n = to_int(q);
  while (n > 0 && to_double(n) * b > a) --n;
  while (to_double(n + 1) * b <= a) ++n;
  return n;
}

/// The model on its devices: how its weights are stored, how it is split, and what each device
/// holds (model_cost and the sweep's decoding floor share it).
struct Plan {
  const ModelShape* s = nullptr;
  ModelWeights format;
  bool per_param = false;  // weightBytesPerParam: every parameter at per_param_bytes
  double per_param_bytes = 0;
  Int tp = 1, kv_dev = 1, replicas = 1, batch = 1, block = 16;
  double e = 2;                   // bytes per cached element
  Counts cd;                      // one device's cache
  double kv_bytes_per_token = 0;  // one token in every layer, on one device
  std::vector<Tensor> parts;
  double weights_dev = 0;

  double tensor_bytes_dev(const Tensor& x) const {
    auto [rows, cols] = device_dims(*s, x, tp, kv_dev);
    // vLLM's MXFP4 kernels (Triton on Hopper) hold a routed expert's width padded to a multiple of
    // 256 on each device: gpt-oss's 2,880 as 3,072 (its load logs: 13.47 GiB for gpt-oss-20b)
    if (!per_param && x.role == Role::expert && format.element_bits == 4 &&
        format.group_size == 32 && format.scale_bytes == 1) {
      Int& width = x.split == Split::column ? rows : cols;
      width = (width + 255) / 256 * 256;
    }
    return to_double(x.count) * (per_param ? to_double(rows * cols) * per_param_bytes
                                           : tensor_bytes(format, x.role, rows, cols));
  }
  /// One device's cache for n sequences at `tokens`, in whole pages (paged) or as held.
  double device_kv(Int tokens, Int n, bool paged) const {
    Int elements = 0;
    for (int k = 0; k < 4; ++k) {
      if (cd.layers[k] == 0) continue;
      Int kept = held(*s, cd, k, tokens);
      if (paged) kept = (kept + block - 1) / block * block;
      elements += cd.layers[k] * cd.elements[k] * kept;
    }
    return bytes(elements * n, e);
  }
};

Plan make_plan(const ModelShape& s, const ModelCostOptions& o) {
  Plan p;
  p.s = &s;
  // the weights' storage: every parameter at one size, a named format, or the file's
  p.format = s.weights;
  if (o.weight_bytes_per_param) {
    p.per_param = true;
    p.per_param_bytes = *o.weight_bytes_per_param;
    p.format = ModelWeights{};
    p.format.rest_bytes = p.per_param_bytes;
    p.format.format = describe(p.per_param_bytes) + " bytes per parameter";
  } else if (o.weight_format != "file") {
    p.format = named_format(o.weight_format);
  }
  // tensor parallelism: key-value heads per device, as vLLM and SGLang split them
  p.tp = to_int(o.tensor_parallel.value_or(o.devices ? o.devices->count : 1));
  const Int kv = to_int(s.kv_heads), h = to_int(s.heads);
  if (p.tp == 0) {
    // as many devices as the model's heads allow: the largest size dividing the device count
    // whose split of the query heads, and of the key-value heads, is whole
    const Int count = o.devices ? to_int(o.devices->count) : 1;
    for (Int n = count; n >= 1; --n)
      if (count % n == 0 && h % n == 0 && (s.mla || kv % n == 0 || n % kv == 0)) {
        p.tp = n;
        break;
      }
  }
  if (p.tp > 1 && h % p.tp != 0)
    fail("opts.tensor_parallel",
         "a divisor of the model's query heads (" + whole(s.heads) + "), as engines split them",
         whole(to_double(p.tp)));
  p.kv_dev = kv;
  if (!s.mla) {
    if (kv % p.tp == 0)
      p.kv_dev = kv / p.tp;
    else if (p.tp % kv == 0)
      p.kv_dev = 1;  // each device keeps a copy of its one head
    else
      fail("opts.tensor_parallel",
           "a divisor or a multiple of the model's key-value heads (" + whole(s.kv_heads) + ")",
           whole(to_double(p.tp)));
  }
  if (o.devices && to_int(o.devices->count) % p.tp != 0)
    fail("opts.devices.count",
         "a multiple of " + api_name("opts.tensor_parallel") + " (" + whole(to_double(p.tp)) + ")",
         whole(o.devices->count));
  p.replicas = o.devices ? to_int(o.devices->count) / p.tp : 1;
  p.batch = (to_int(o.batch) + p.replicas - 1) / p.replicas;
  p.block = to_int(o.block_tokens);
  p.e = o.kv_bytes_per_element;
  p.cd = counts(s, o.mla_cache, o.sliding_cache, p.kv_dev, h / p.tp);
  Int per_token = 0;
  for (int k = 0; k < 4; ++k) per_token += p.cd.layers[k] * p.cd.elements[k];
  p.kv_bytes_per_token = bytes(per_token, p.e);
  p.parts = tensors(s);
  for (const Tensor& x : p.parts) p.weights_dev += p.tensor_bytes_dev(x);
  return p;
}

/// One decoding step of the fullest replica's p.batch sequences at `tokens`, on one device.
ModelDecode decode_at(const Plan& p, const ModelCostOptions& o, double linear_flops,
                      double attention_flops, Int tokens) {
  const ModelShape& s = *p.s;
  ModelDecode d;
  double touched = 0, read = 0;
  if (s.moe) {
    const double E = s.moe->experts, k = s.moe->experts_per_token;
    touched = E * (1 - std::pow(1 - k / E, to_double(p.batch)));
    d.experts_touched = touched;
  }
  for (const Tensor& x : p.parts) {
    double part = p.tensor_bytes_dev(x);
    // the input embedding and a position table are looked up, a row per sequence
    if (x.role == Role::embedding && (!s.tied_embeddings || x.split == Split::replicated)) {
      const Int rows = device_dims(s, x, p.tp, p.kv_dev).first;
      part = part / to_double(rows) * to_double(std::min(rows, p.batch));
    }
    if (x.routed) part *= touched / s.moe->experts;
    read += part;
  }
  d.weights_bytes_read = read;
  d.kv_bytes_read = p.device_kv(tokens, p.batch, false);
  d.bytes_per_step = read + d.kv_bytes_read;
  d.flops_per_step = (linear_flops + attention_flops) * to_double(p.batch) / to_double(p.tp);
  d.memory_seconds = d.bytes_per_step / *o.devices->bandwidth_bytes_per_second;
  d.seconds_per_step = d.memory_seconds;
  d.bound = "memory";
  if (o.devices->flops_per_second) {
    d.compute_seconds = d.flops_per_step / *o.devices->flops_per_second;
    if (*d.compute_seconds > d.memory_seconds) {
      d.seconds_per_step = *d.compute_seconds;
      d.bound = "compute";
    }
  }
  d.tokens_per_second = o.batch / d.seconds_per_step;
  return d;
}
}  // namespace

ModelShape model_from_config(const json::Value& config) { return read(config); }

ModelShape model_from_config_text(std::string_view text) {
  json::Value config;
  json::parse(text, "config.json", config);
  return read(config);
}

ModelShape model_shape(const json::Value& shape, FieldNames names) {
  ModelShape s;
  ShapeReader(shape, "shape", names).fields(s);
  check_shape(s);
  s.weights.bytes = weights_bytes_of(s, s.weights);
  return s;
}

ModelCostResult model_cost(const ModelShape& s, const ModelCostOptions& o) {
  check_shape(s);
  check_options(o, false);
  const Counts c = counts(s, o.mla_cache, o.sliding_cache);
  const Int t = to_int(o.tokens), b = to_int(o.batch);
  const double e = o.kv_bytes_per_element;
  ModelCostResult r;

  // the cache of the whole model
  Int per_token = 0;
  for (int k = 0; k < 4; ++k) {
    if (c.layers[k] == 0) continue;
    per_token += c.layers[k] * c.elements[k];
    ModelCostKind part;
    part.kind = kinds[k];
    part.layers = to_double(c.layers[k]);
    part.elements_per_token = to_double(c.elements[k]);
    part.tokens_held = to_double(held(s, c, k, t));
    part.bytes = bytes(c.layers[k] * c.elements[k] * held(s, c, k, t) * b, e);
    r.by_kind.push_back(part);
  }
  r.kv_bytes = bytes(cached(s, c, t) * b, e);
  r.kv_bytes_per_token = bytes(per_token, e);
  r.beyond_context = o.tokens > s.max_context;
  if (r.beyond_context)
    r.notes.push_back("The context, " + whole(o.tokens) + " tokens, is past the model's " +
                      whole(s.max_context) +
                      " (max_position_embeddings): costed, but the model was not trained for it.");
  if (c.layers[1] + c.layers[2] > 0)
    r.notes.push_back(o.sliding_cache == SlidingCache::window
                          ? "Sliding and chunked layers keep only their window or chunk "
                            "(" +
                                api_name("sliding_cache") +
                                " \"window\"), as engines that evict do."
                          : "Every layer keeps every token (" + api_name("sliding_cache") +
                                " \"full\"), as engines without window eviction do.");

  // arithmetic
  const Weights w = weights(s);
  r.attention_flops = to_double(attention_flops(s, c, t));
  const Int linear = 2 * w.matmul_active;
  r.linear_flops = to_double(linear);
  {
    // the first context where attention ≥ linear: attention grows with the context, except that a
    // chunked layer starts again at each chunk, so it is searched at chunk ends first
    const Int max = to_int(s.max_context);
    auto reaches = [&](Int tokens) { return attention_flops(s, c, tokens) >= linear; };
    Int lo = 1, hi = max;
    if (c.layers[2] > 0) {
      const Int chunk = to_int(*s.chunk);
      auto end_of = [&](Int period) { return std::min(max, (period + 1) * chunk); };
      Int plo = 0, phi = (max - 1) / chunk;  // periods 0 … phi
      if (reaches(end_of(phi))) {
        while (plo < phi) {
          const Int mid = (plo + phi) / 2;
          if (reaches(end_of(mid)))
            phi = mid;
          else
            plo = mid + 1;
        }
        lo = plo * chunk + 1;
        hi = end_of(plo);
      } else {
        lo = max + 1;
      }
    }
    if (lo <= hi && reaches(hi)) {
      while (lo < hi) {
        const Int mid = (lo + hi) / 2;
        if (reaches(mid))
          hi = mid;
        else
          lo = mid + 1;
      }
      r.crossover_tokens = to_double(lo);
    }
  }

  r.params.total = to_double(w.total);
  r.params.active = to_double(w.active);
  r.params.embedding = to_double(w.embedding);

  const Plan plan = make_plan(s, o);
  r.weights_format = plan.format.format;
  r.weights_bytes =
      plan.per_param ? r.params.total * plan.per_param_bytes : weights_bytes_of(s, plan.format);
  const Int tp = plan.tp, kv = to_int(s.kv_heads), replicas = plan.replicas;
  r.tensor_parallel = to_double(tp);
  r.replicas = to_double(replicas);
  const Int b_dev = (b + replicas - 1) / replicas;  // the sequences of the fullest replica
  const double weights_dev = plan.weights_dev;
  auto device_kv = [&](Int tokens, Int n, bool paged) { return plan.device_kv(tokens, n, paged); };
  r.per_device.sequences = to_double(b_dev);
  r.per_device.kv_heads = to_double(s.mla ? kv : plan.kv_dev);
  r.per_device.kv_bytes_per_token = plan.kv_bytes_per_token;
  r.per_device.kv_bytes = device_kv(t, b_dev, true);
  r.per_device.weights_bytes = weights_dev;
  if (o.tensor_parallel == 0.0 && o.devices && o.devices->count > 1)
    r.notes.push_back(api_name("tensor_parallel") + " 0: the model split over " +
                      whole(to_double(tp)) + " of the " + whole(o.devices->count) +
                      " devices, as many as its heads allow" +
                      (replicas > 1 ? ", in " + whole(to_double(replicas)) + " copies." : "."));
  if (s.moe && plan.format.element_bits == 4 && plan.format.group_size == 32 &&
      plan.format.scale_bytes == 1 && !o.weight_bytes_per_param &&
      (to_int(s.moe->expert_width) + tp - 1) / tp % 256 != 0)
    r.notes.push_back(
        "The experts in MXFP4 are held as vLLM's kernels hold them, each expert's width "
        "padded to a multiple of 256 on each device: the device holds more than the "
        "file's share.");
  if (tp > 1 && s.mla)
    r.notes.push_back(
        "A latent (MLA) cache is whole on every device: tensor parallelism does "
        "not divide it.");
  if (tp > 1 && !s.mla && tp > kv)
    r.notes.push_back("More devices (" + whole(to_double(tp)) + ") than key-value heads (" +
                      whole(s.kv_heads) +
                      "): each device keeps a copy of one head's keys and "
                      "values.");

  // the memory: each device holds its weights, its cache in whole pages, and the reserve
  const bool memory = o.devices || o.memory_bytes;
  const double u = o.memory_utilization.value_or(o.devices ? 0.9 : 1);
  const double usable =
      memory ? u * (o.devices ? o.devices->memory_bytes : *o.memory_bytes) - o.reserve_bytes : 0;
  if (o.devices && !o.memory_utilization)
    r.notes.push_back(
        api_name("memory_utilization") +
        " is not given: the engine takes 0.9 of each device's memory (vLLM's default).");
  if (o.kv_budget_bytes || memory) {
    ModelBudget budget;
    budget.bytes = o.kv_budget_bytes ? *o.kv_budget_bytes : std::max(0.0, usable - weights_dev);
    // vLLM's hybrid allocator, where windowed layers sit beside full ones and are kept as windows:
    // the layers of each kind are grouped G at a time (G the fewest of a kind, or the most when
    // that is under 1.5 times the fewest), a kind's last group padded to G; each page of the pool
    // serves the G layers of one group, and the tokens reported are the pool shared equally by
    // the groups. One kind (or every token kept) is one group of every layer: the plain division.
    const Counts& cd = plan.cd;
    Int kinds_present = 0, fewest = 0, most = 0, layers = 0;
    bool same_page = true;
    for (int k = 0; k < 4; ++k) {
      if (cd.layers[k] == 0) continue;
      ++kinds_present;
      fewest = fewest == 0 ? cd.layers[k] : std::min(fewest, cd.layers[k]);
      most = std::max(most, cd.layers[k]);
      layers += cd.layers[k];
      for (int j = 0; j < k; ++j)
        if (cd.layers[j] > 0 && cd.elements[j] != cd.elements[k]) same_page = false;
    }
    Int group = layers, groups = 1;
    if (kinds_present > 1 && o.sliding_cache == SlidingCache::window && same_page) {
      group = 2 * most < 3 * fewest ? most : fewest;
      groups = 0;
      for (int k = 0; k < 4; ++k) groups += (cd.layers[k] + group - 1) / group;
      r.notes.push_back("The engine's pool, as vLLM's hybrid allocator keeps it: " +
                        whole(to_double(groups)) + " groups of " + whole(to_double(group)) +
                        " layers (each kind's last group padded), a page serving one group.");
    }
    const double layer_page = o.block_tokens * r.per_device.kv_bytes_per_token / to_double(layers);
    const Int pool = floor_div(budget.bytes, layer_page * to_double(group));
    budget.blocks = to_double(pool / groups);
    budget.tokens = budget.blocks * o.block_tokens;
    r.budget = budget;
  }
  if (memory) {
    ModelFit fit;
    auto fits = [&](Int tokens, Int sequences) {
      const Int n = (sequences + replicas - 1) / replicas;
      return weights_dev + device_kv(tokens, n, true) <= usable;
    };
    const bool weights_fit = weights_dev <= usable;
    // the largest batch at `tokens`: the cache grows with it
    Int lo = 0, hi = weights_fit ? to_int(max_model_batch) : 0;
    while (lo < hi) {
      const Int mid = (lo + hi + 1) / 2;
      if (fits(t, mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    fit.max_batch = to_double(lo);
    fit.fits = fits(t, b);
    // the longest context at `batch`, up to the model's maximum
    lo = 0;
    hi = weights_fit ? to_int(s.max_context) : 0;
    while (lo < hi) {
      const Int mid = (lo + hi + 1) / 2;
      if (fits(mid, b))
        lo = mid;
      else
        hi = mid - 1;
    }
    fit.max_tokens = to_double(lo);
    fit.usable_bytes = usable;
    fit.spare_bytes = usable - weights_dev - device_kv(t, b_dev, true);
    fit.limited_by = !weights_fit                      ? "weights"
                     : fit.max_tokens == s.max_context ? "context"
                                                       : "cache";
    // the fewest devices over which the weights fit: the tensor-parallel sizes the heads allow
    for (Int n = 1; n <= to_int(max_model_devices) && !fit.devices_needed; ++n) {
      const bool legal = to_int(s.heads) % n == 0 && (s.mla || kv % n == 0 || n % kv == 0);
      if (!legal) continue;
      ModelCostOptions split = o;
      split.tensor_parallel = to_double(n);
      split.devices.reset();
      if (make_plan(s, split).weights_dev <= usable) fit.devices_needed = to_double(n);
    }
    r.fit = fit;
  }

  // one decoding step: the memory it reads and the arithmetic it does, on one device
  if (o.devices && o.devices->bandwidth_bytes_per_second) {
    r.decode = decode_at(plan, o, r.linear_flops, r.attention_flops, t);
    r.notes.push_back(
        "The decoding floor reads each weight once per step (the input embedding "
        "only a row per sequence) and the whole cache; the arithmetic is 2 per "
        "weight a token multiplies plus attention.");
    if (s.moe)
      r.notes.push_back("Under even routing a step of " + whole(to_double(b_dev)) +
                        " sequences touches E·(1 − (1 − k/E)^b) of the " + whole(s.moe->experts) +
                        " experts of each MoE layer.");
    if (tp > 1 || replicas > 1) r.notes.push_back("Communication between devices is not counted.");
  }
  return r;
}

ModelCostSweep model_cost_sweep(const ModelShape& s, const Eigen::VectorXd& tokens,
                                const ModelCostOptions& o) {
  check_shape(s);
  check_options(o, true);
  require_sweep_length(tokens, "opts.tokens");
  require_integers(tokens, "opts.tokens", 1, max_model_context);
  const Counts c = counts(s, o.mla_cache, o.sliding_cache);
  const Int b = to_int(o.batch);
  const Eigen::Index n = tokens.size();
  ModelCostSweep r;
  r.tokens = tokens;
  r.kv_bytes.resize(n);
  r.attention_flops.resize(n);
  for (int k = 0; k < 4; ++k) {
    if (c.layers[k] == 0) continue;
    ModelSweepKind part;
    part.kind = kinds[k];
    part.layers = to_double(c.layers[k]);
    part.bytes.resize(n);
    for (Eigen::Index i = 0; i < n; ++i)
      part.bytes[i] = bytes(c.layers[k] * c.elements[k] * held(s, c, k, to_int(tokens[i])) * b,
                            o.kv_bytes_per_element);
    r.by_kind.push_back(std::move(part));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const Int t = to_int(tokens[i]);
    r.kv_bytes[i] = bytes(cached(s, c, t) * b, o.kv_bytes_per_element);
    r.attention_flops[i] = to_double(attention_flops(s, c, t));
  }
  if (o.devices && o.devices->bandwidth_bytes_per_second) {
    const Plan plan = make_plan(s, o);
    const double linear = to_double(2 * weights(s).matmul_active);
    Eigen::VectorXd speed(n);
    for (Eigen::Index i = 0; i < n; ++i)
      speed[i] =
          decode_at(plan, o, linear, r.attention_flops[i], to_int(tokens[i])).tokens_per_second;
    r.tokens_per_second = speed;
  }
  return r;
}

}  // namespace llmmath
