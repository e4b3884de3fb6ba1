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
        fail(name(key), lo == 1 ? "a positive integer" : "an integer", json::describe(v));
      const std::string expectation = lo == 1 ? "a positive integer (at most " + whole(hi) + ")"
                                              : "an integer in " + whole(lo) + " … " + whole(hi);
      fail(name(key), expectation, json::describe(v));
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
      fail(name(*keys.begin()), "present: a positive integer (at most " + whole(hi) + ")",
           "nothing (the field is missing)");
    }
    if (!why.empty()) shape_.assumed.push_back(why);
    return *fallback;
  }

  std::optional<bool> flag(std::string_view key) const {
    const Value* v = find({key});
    if (!v) return std::nullopt;
    if (v->type != Value::Type::boolean) fail(name(key), "true or false", json::describe(*v));
    return v->boolean;
  }

  std::string string(std::string_view key) const {
    const Value* v = find({key});
    if (!v) return "";
    if (v->type != Value::Type::string) fail(name(key), "a string", json::describe(*v));
    return v->string;
  }

  /// An array of whole numbers (mlp_only_layers, no_rope_layers), or nothing.
  std::optional<std::vector<double>> integers(std::string_view key, double lo, double hi) const {
    const Value* v = find({key});
    if (!v) return std::nullopt;
    if (v->type != Value::Type::array) fail(name(key), "an array of integers", json::describe(*v));
    std::vector<double> out;
    for (std::size_t i = 0; i < v->items.size(); ++i) {
      const Value& e = v->items[i];
      const bool ok = e.type == Value::Type::number && e.number == std::floor(e.number) &&
                      e.number >= lo && e.number <= hi;
      if (!ok) {
        fail(name(key) + "[" + std::to_string(i) + "]",
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
      fail(r.name("layer_types"), "an array of strings, one per layer", json::describe(*types));
    if (types->items.size() != layers) {
      fail(r.name("layer_types"), "one entry per layer (" + whole(s.layers) + ")",
           std::to_string(types->items.size()) + " entries");
    }
    for (std::size_t i = 0; i < layers; ++i) {
      const Value& t = types->items[i];
      const std::string entry = r.name("layer_types") + "[" + std::to_string(i) + "]";
      if (t.type != Value::Type::string) fail(entry, "a string", json::describe(t));
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
        fail(r.name("no_rope_layers"), "one entry per layer (" + whole(s.layers) + ")",
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
    fail(r.name("sliding_window"), "a positive integer when layers slide",
         r.has("sliding_window") ? "null" : "nothing (the field is missing)");
  }
  if (chunks && !s.chunk) {
    fail(r.name("attention_chunk_size"), "a positive integer when layers are chunked",
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

ModelShape read(const Value& config) {
  if (!config.is_object())
    fail("config", "an object (the contents of a config.json)", json::describe(config));
  ModelShape s;
  const Value* nested = config.find("text_config");
  if (nested && !nested->is_null() && !nested->is_object())
    fail("config.text_config", "an object (the language model's configuration)",
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
      fail(r.name(which.empty() ? "num_key_value_heads" : which),
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
        fail(r.name("head_dim"),
             "present when " + r.name("hidden_size") + " (" + whole(s.hidden) +
                 ") is not a multiple of the heads (" + whole(s.heads) + ")",
             "nothing (the field is missing)");
      }
      s.head_dim = s.hidden / s.heads;
      if (s.head_dim > max_model_head_dim)
        fail(r.name("head_dim"), "at most 4,096 (hidden_size / num_attention_heads)",
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
  if (outer.find({"quantization_config"}) || r.find({"quantization_config"}))
    s.assumed.push_back(
        "quantization_config: the file's weights are stored quantised; the weights' "
        "bytes here use the bytes per parameter you choose.");
  for (auto key : unknown_attention_fields) {
    if (r.find({key}) || (multimodal && outer.find({key})))
      s.assumed.push_back(std::string(key) +
                          " is in the file: this calculator does not model it; "
                          "its layers are costed as full attention.");
  }
  return s;
}

// ---- reading a shape back ---------------------------------------------------------------------

/// Reads each field of a struct from a JavaScript object by the field's camelCase name, as the
/// bindings wrote it (the same for_each_field list, so reading and writing cannot disagree).
class ShapeReader {
 public:
  ShapeReader(const Value& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object.is_object())
      fail(path_, "an object (as modelFromConfig returns it)", json::describe(object));
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

  std::string js_name(const char* snake) const {
    std::string out;
    for (const char* c = snake; *c; ++c) {
      if (*c == '_' && c[1] >= 'a' && c[1] <= 'z') {
        ++c;
        out += static_cast<char>(*c - 'a' + 'A');
      } else {
        out += *c;
      }
    }
    return out;
  }
  const Value& get(const char* name, std::string& where) const {
    where = path_ + "." + js_name(name);
    const Value* v = object_.find(js_name(name));
    if (!v)
      fail(where, "present (a shape as modelFromConfig returns it)",
           "nothing (the field is missing)");
    return *v;
  }

  void read(const char* name, double& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::number || !std::isfinite(v.number) ||
        v.number != std::floor(v.number) || v.number < 0)
      fail(where, "a whole number ≥ 0", json::describe(v));
    out = v.number;
  }
  void read(const char* name, bool& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::boolean) fail(where, "true or false", json::describe(v));
    out = v.boolean;
  }
  void read(const char* name, std::string& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::string) fail(where, "a string", json::describe(v));
    out = v.string;
  }
  void read(const char* name, std::vector<std::string>& out) {
    std::string where;
    const Value& v = get(name, where);
    if (v.type != Value::Type::array) fail(where, "an array of strings", json::describe(v));
    out.clear();
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (v.items[i].type != Value::Type::string)
        fail(where + "[" + std::to_string(i) + "]", "a string", json::describe(v.items[i]));
      out.push_back(v.items[i].string);
    }
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
        fail(where, "a positive whole number or null", json::describe(v));
      out = v.number;
    } else {
      T nested;
      ShapeReader(v, where).fields(nested);
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
  require_whole(s.kv_heads, "kvHeads", 1, max_model_heads);
  require_whole(s.head_dim, "headDim", 1, max_model_head_dim * 2);
  require_whole(s.v_head_dim, "vHeadDim", 1, max_model_head_dim);
  require_whole(s.intermediate, "intermediate", 0, max_model_width);
  require_whole(s.vocab, "vocab", 1, max_model_vocab);
  require_whole(s.max_context, "maxContext", 1, max_model_context);
  require_whole(s.norms_per_layer, "normsPerLayer", 0, 8);
  require_whole(s.position_embeddings, "positionEmbeddings", 0, max_model_context);
  if (s.layer_kinds.size() != static_cast<std::size_t>(s.layers)) {
    fail("shape.layerKinds", "one entry per layer (" + whole(s.layers) + ")",
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
      fail("shape.layerKinds[" + std::to_string(i) + "]",
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
    require_whole(s.mla->kv_lora_rank, "mla.kvLoraRank", 1, max_model_rank);
    if (s.mla->q_lora_rank) require_whole(*s.mla->q_lora_rank, "mla.qLoraRank", 1, max_model_rank);
    require_whole(s.mla->qk_nope_head_dim, "mla.qkNopeHeadDim", 0, max_model_rank);
    require_whole(s.mla->qk_rope_head_dim, "mla.qkRopeHeadDim", 0, max_model_rank);
    require_whole(s.mla->v_head_dim, "mla.vHeadDim", 1, max_model_rank);
  }
  if (s.kv_heads > s.heads || std::fmod(s.heads, s.kv_heads) != 0)
    fail("shape.kvHeads", "a divisor of shape.heads (" + whole(s.heads) + ")", whole(s.kv_heads));
  if (s.moe) {
    const ModelMoe& m = *s.moe;
    require_whole(m.experts, "moe.experts", 1, max_model_experts);
    require_whole(m.experts_per_token, "moe.expertsPerToken", 1, m.experts);
    require_whole(m.shared_experts, "moe.sharedExperts", 0, 64);
    require_whole(m.expert_width, "moe.expertWidth", 1, max_model_width);
    require_whole(m.shared_width, "moe.sharedWidth", 0, max_model_width);
    require_whole(m.moe_layers, "moe.moeLayers", 0, s.layers);
    if (m.moe_layers + m.dense_layers != s.layers)
      fail("shape.moe.denseLayers",
           "shape.layers − shape.moe.moeLayers (" + whole(s.layers - m.moe_layers) + ")",
           whole(m.dense_layers));
  }
  if (s.attention_bias != "none" && s.attention_bias != "qkv" && s.attention_bias != "qkvo")
    fail("shape.attentionBias", "\"none\", \"qkv\" or \"qkvo\"", "\"" + s.attention_bias + "\"");
  if (s.norm_kind != "rms" && s.norm_kind != "layer")
    fail("shape.normKind", "\"rms\" or \"layer\"", "\"" + s.norm_kind + "\"");
}

// ---- costing ----------------------------------------------------------------------------------

constexpr const char* kinds[] = {"full", "sliding", "chunked", "mla"};

struct Counts {
  Int layers[4] = {0, 0, 0, 0};
  Int elements[4] = {0, 0, 0, 0};  // cached elements per token and layer, by kind
  Int flops_per_key = 0;           // 2·heads·(d_qk + d_v), the same in every layer
};

int kind_index(const std::string& k) {
  for (int i = 0; i < 4; ++i)
    if (k == kinds[i]) return i;
  return 0;
}

Counts counts(const ModelShape& s, MlaCache cache) {
  Counts c;
  for (const auto& k : s.layer_kinds) ++c.layers[kind_index(k)];
  const Int kv = to_int(s.kv_heads), hd = to_int(s.head_dim), vd = to_int(s.v_head_dim),
            h = to_int(s.heads);
  for (int i = 0; i < 3; ++i) c.elements[i] = kv * (hd + vd);
  if (s.mla) {
    c.elements[3] = cache == MlaCache::latent
                        ? to_int(s.mla->kv_lora_rank + s.mla->qk_rope_head_dim)
                        : h * (hd + vd);
  }
  c.flops_per_key = 2 * h * (hd + vd);
  return c;
}

Int held(const ModelShape& s, int kind, Int tokens) {
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
    if (c.layers[k] > 0) n += c.layers[k] * c.elements[k] * held(s, k, tokens);
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

void check_options(const ModelCostOptions& o, bool sweep) {
  if (!sweep) require_integer(o.tokens, "opts.tokens", 1, max_model_context);
  require_integer(o.batch, "opts.batch", 1, max_model_batch);
  if (!(o.kv_bytes_per_element > 0 && o.kv_bytes_per_element <= max_model_element_bytes))
    fail("opts.kvBytesPerElement", "in (0, 64] (2 for bf16/fp16, 1 for fp8/int8, 0.5 for int4)",
         describe(o.kv_bytes_per_element));
  if (!(o.weight_bytes_per_param > 0 && o.weight_bytes_per_param <= max_model_element_bytes))
    fail("opts.weightBytesPerParam", "in (0, 64] (2 for bf16, 1 for fp8, 0.5 for 4-bit)",
         describe(o.weight_bytes_per_param));
  if (o.memory_bytes && !(*o.memory_bytes > 0 && std::isfinite(*o.memory_bytes)))
    fail("opts.memoryBytes", "a positive finite number of bytes", describe(*o.memory_bytes));
}

}  // namespace

ModelShape model_from_config(const json::Value& config) { return read(config); }

ModelShape model_from_config_text(std::string_view text) {
  json::Value config;
  json::parse(text, "config.json", config);
  return read(config);
}

ModelShape model_shape(const json::Value& shape) {
  ModelShape s;
  ShapeReader(shape, "shape").fields(s);
  check_shape(s);
  return s;
}

ModelCostResult model_cost(const ModelShape& s, const ModelCostOptions& o) {
  check_shape(s);
  check_options(o, false);
  const Counts c = counts(s, o.mla_cache);
  const Int t = to_int(o.tokens), b = to_int(o.batch);
  ModelCostResult r;

  // the cache
  Int per_token = 0;
  for (int k = 0; k < 4; ++k) {
    if (c.layers[k] == 0) continue;
    per_token += c.layers[k] * c.elements[k];
    ModelCostKind part;
    part.kind = kinds[k];
    part.layers = to_double(c.layers[k]);
    part.elements_per_token = to_double(c.elements[k]);
    part.tokens_held = to_double(held(s, k, t));
    part.bytes = bytes(c.layers[k] * c.elements[k] * held(s, k, t) * b, o.kv_bytes_per_element);
    r.by_kind.push_back(part);
  }
  r.kv_bytes = bytes(cached(s, c, t) * b, o.kv_bytes_per_element);
  r.kv_bytes_per_token = bytes(per_token, o.kv_bytes_per_element);

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
  r.weights_bytes = r.params.total * o.weight_bytes_per_param;

  if (o.memory_bytes) {
    const double memory = *o.memory_bytes;
    ModelFit fit;
    auto fits = [&](Int tokens, Int batch) {
      return r.weights_bytes + bytes(cached(s, c, tokens) * batch, o.kv_bytes_per_element) <=
             memory;
    };
    // the largest batch at `tokens`: the cache grows linearly with it
    Int lo = 0, hi = to_int(max_model_batch);
    while (lo < hi) {
      const Int mid = (lo + hi + 1) / 2;
      if (fits(t, mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    fit.max_batch = to_double(lo);
    fit.fits = fits(t, b);
    // the largest context at `batch`, up to the model's maximum: the cache grows with the context
    lo = 0;
    hi = to_int(s.max_context);
    while (lo < hi) {
      const Int mid = (lo + hi + 1) / 2;
      if (fits(mid, b))
        lo = mid;
      else
        hi = mid - 1;
    }
    if (lo == 0 && r.weights_bytes <= memory && fits(1, b)) lo = 1;
    fit.max_tokens = to_double(r.weights_bytes <= memory ? lo : 0);
    r.fit = fit;
  }
  return r;
}

ModelCostSweep model_cost_sweep(const ModelShape& s, const Eigen::VectorXd& tokens,
                                const ModelCostOptions& o) {
  check_shape(s);
  check_options(o, true);
  require_sweep_length(tokens, "opts.tokens");
  require_integers(tokens, "opts.tokens", 1, max_model_context);
  const Counts c = counts(s, o.mla_cache);
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
      part.bytes[i] = bytes(c.layers[k] * c.elements[k] * held(s, k, to_int(tokens[i])) * b,
                            o.kv_bytes_per_element);
    r.by_kind.push_back(std::move(part));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const Int t = to_int(tokens[i]);
    r.kv_bytes[i] = bytes(cached(s, c, t) * b, o.kv_bytes_per_element);
    r.attention_flops[i] = to_double(attention_flops(s, c, t));
  }
  return r;
}

}  // namespace llmmath
