// The core behind each function of the JavaScript API (bindings/api/<concept>.js declares them),
// written once for every binding that calls it: the WebAssembly module (bindings/wasm/, through
// boundary.js) and the native caller of the golden file, the benchmark and the fuzz target
// (bindings/native/). An adapter only translates: it reads its arguments, in the binding's own
// value type V, into the core's types, calls the core and returns the core's result struct,
// which the binding hands on field by field (for_each_field, llmmath/fields.hpp). Every
// mathematical precondition is the core's.
//
// What an adapter may assume of its arguments is what boundary.js guarantees in the browser:
// each has the kind its declaration names (a number, a vector, a matrix, a boolean, an object of
// known keys, a choice as its index) or is absent. Read<V> is how a binding reads them:
//   Read<V>::field(object, "snake_name")   a field of an options or config object; the binding
//                                          derives the JavaScript name (snakeName) mechanically
//   present (an optional object given), number, optional_number, optional_boolean, vector,
//   optional_vector, matrix, shape, choice, text (a string: a "text" argument as given, a "json"
//   one as the JSON text the binding wrote)
// Names inside are the core's (snake_case); the JavaScript name of each function is derived from
// its adapter's name the same way (attention_cost → attentionCost).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>

#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/check.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/json.hpp"
#include "llmmath/model.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantization.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"

namespace llmmath::api {

/// The JavaScript name of a C++ name: snake_case to camelCase (top_k_mass → topKMass,
/// attention_cost → attentionCost), the one rename across the wall, for every binding.
inline std::string camel_case(std::string_view snake) {
  std::string out;
  for (std::size_t i = 0; i < snake.size(); ++i) {
    if (snake[i] == '_' && i + 1 < snake.size() && snake[i + 1] >= 'a' && snake[i + 1] <= 'z')
      out += static_cast<char>(snake[++i] - 'a' + 'A');
    else
      out += snake[i];
  }
  return out;
}
/// The same for a name given as a C string (a FieldNames, llmmath/model.hpp).
inline std::string camel_case(const char* snake) { return camel_case(std::string_view(snake)); }

/// Text of the core (a message, a note, any string of a result) as a JavaScript caller reads
/// it: each name of the API the core marked (llmmath/check.hpp) camelCased and its marks
/// removed, nothing else touched, so a config.json's num_key_value_heads stays as it is.
/// Text without a mark, most strings of a result, is copied as it is.
inline std::string js_text(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open; (open = text.find(name_mark, at)) != std::string_view::npos;) {
    const std::size_t close = text.find(name_mark, open + 1);
    if (close == std::string_view::npos) break;  // never: the core writes marks in pairs
    out.append(text, at, open - at);
    out += camel_case(text.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out.append(text, at, std::string_view::npos);
}

/// A failed check's message as a JavaScript caller reads it.
inline std::string js_message(const InvalidArgument& e) { return js_text(e.marked()); }

/// How a binding reads its value type V; each binding specialises it.
template <class V>
struct Read;

/// A matrix argument's shape, read before its entries (so that the core refuses an oversized one
/// before it is copied).
struct Dims {
  Eigen::Index rows = 0;
  Eigen::Index cols = 0;
};

// ---- attention -------------------------------------------------------------------------------

template <class V>
AttentionResult attention(const V& q, const V& k, const V& v, const V& opts) {
  using R = Read<V>;
  AttentionOptions options;
  options.causal = R::optional_boolean(R::field(opts, "causal")).value_or(options.causal);
  options.scale = R::optional_number(R::field(opts, "scale"));
  const auto Q = R::dims(q), K = R::dims(k), Vs = R::dims(v);
  // sizes first, so that a refused call never asks the heap for its matrices
  require_attention_dims(Q.rows, Q.cols, K.rows, K.cols, Vs.rows, Vs.cols);
  return llmmath::attention(R::matrix(q), R::matrix(k), R::matrix(v), options);
}

template <class V>
ContextDilutionResult context_dilution(const V& cfg) {
  using R = Read<V>;
  return llmmath::context_dilution(R::number(R::field(cfg, "relevant_score")),
                                   R::number(R::field(cfg, "distractor_score")),
                                   R::number(R::field(cfg, "distractors")));
}

template <class V>
ContextDilutionSweep context_dilution_sweep(const V& cfg) {
  using R = Read<V>;
  return llmmath::context_dilution_sweep(R::number(R::field(cfg, "relevant_score")),
                                         R::number(R::field(cfg, "distractor_score")),
                                         R::vector(R::field(cfg, "distractors")));
}

// ---- sampling --------------------------------------------------------------------------------

template <class V>
SamplingResult sampling(const V& input, const V& opts) {
  using R = Read<V>;
  SamplingInput source;
  source.logits = R::optional_vector(R::field(input, "logits"));
  source.probs = R::optional_vector(R::field(input, "probs"));
  SamplingOptions options;
  options.temperature =
      R::optional_number(R::field(opts, "temperature")).value_or(options.temperature);
  options.top_k = R::optional_number(R::field(opts, "top_k")).value_or(options.top_k);
  options.top_p = R::optional_number(R::field(opts, "top_p")).value_or(options.top_p);
  return llmmath::sampling(source, options);
}

template <class V>
Eigen::VectorXi sample(const V& probs, const V& opts) {
  using R = Read<V>;
  return llmmath::sample(R::vector(probs), R::number(R::field(opts, "count")),
                         R::number(R::field(opts, "seed")));
}

// ---- moe -------------------------------------------------------------------------------------

template <class V>
MoeLoadBalanceResult moe_load_balance(const V& f, const V& p) {
  using R = Read<V>;
  return llmmath::moe_load_balance(R::vector(f), R::vector(p));
}

template <class V>
MoeRouteResult moe_route(const V& router_logits, const V& top_k) {
  using R = Read<V>;
  const auto L = R::dims(router_logits);
  require_router_logits_dims(L.rows, L.cols);
  return llmmath::moe_route(R::matrix(router_logits), R::optional_number(top_k).value_or(1));
}

// ---- rope ------------------------------------------------------------------------------------

template <class V>
RopeOptions rope_options(const V& opts) {
  using R = Read<V>;
  RopeOptions options;
  static constexpr const char* pairings[] = {"interleaved", "half"};  // RopePairing's order
  if (R::choice(R::field(opts, "pairing"), pairings).value_or(0) == 1)
    options.pairing = RopePairing::half;
  options.base = R::optional_number(R::field(opts, "base"));
  options.freqs = R::optional_vector(R::field(opts, "freqs"));
  return options;
}

template <class V>
RopeResult rope(const V& q, const V& k, const V& m, const V& n, const V& opts) {
  using R = Read<V>;
  return llmmath::rope(R::vector(q), R::vector(k), R::number(m), R::number(n), rope_options(opts));
}

template <class V>
RopeScoresResult rope_scores(const V& q, const V& k, const V& offsets, const V& opts) {
  using R = Read<V>;
  return llmmath::rope_scores(R::vector(q), R::vector(k), R::vector(offsets), rope_options(opts));
}

// ---- cost ------------------------------------------------------------------------------------

/// A field of `object` that was renamed: by its name or, for a caller written before the
/// rename, by its former name; both at once is refused, naming both. It returns what
/// Read<V>::field returns: a reference into the native Json object (no copy of a nested value),
/// a JavaScript value handle in WebAssembly.
template <class V>
auto renamed(const V& object, const char* name, const char* former)
    -> decltype(Read<V>::field(object, name)) {
  using R = Read<V>;
  decltype(auto) now = R::field(object, name);
  decltype(auto) before = R::field(object, former);
  if (!R::present(before)) return now;
  if (R::present(now))
    fail(name, "given once: " + api_name(former) + " is its former name", "both");
  return before;
}

/// attention_cost's config, tokens apart (a number for the one, a vector for the sweep). Its
/// model's sizes are named as modelFromConfig names them (hidden, intermediate, gatedMlp,
/// kvBytesPerElement); their former names (dModel, ffnDim, gated, bytesPerValue) are read too.
template <class V>
AttentionCostConfig cost_config(const V& cfg) {
  using R = Read<V>;
  AttentionCostConfig c;
  c.heads = R::number(R::field(cfg, "heads"));
  c.head_dim = R::number(R::field(cfg, "head_dim"));
  c.layers = R::optional_number(R::field(cfg, "layers")).value_or(c.layers);
  c.kv_heads = R::optional_number(R::field(cfg, "kv_heads"));
  c.batch = R::optional_number(R::field(cfg, "batch")).value_or(c.batch);
  c.kv_bytes_per_element =
      R::optional_number(renamed(cfg, "kv_bytes_per_element", "bytes_per_value"))
          .value_or(c.kv_bytes_per_element);
  c.hidden = R::optional_number(renamed(cfg, "hidden", "d_model"));
  c.intermediate = R::optional_number(renamed(cfg, "intermediate", "ffn_dim"));
  c.gated_mlp = R::optional_boolean(renamed(cfg, "gated_mlp", "gated"));
  return c;
}

template <class V>
AttentionCostResult attention_cost(const V& cfg) {
  using R = Read<V>;
  AttentionCostConfig c = cost_config(cfg);
  c.tokens = R::number(R::field(cfg, "tokens"));
  return llmmath::attention_cost(c);
}

template <class V>
AttentionCostSweep attention_cost_sweep(const V& cfg) {
  using R = Read<V>;
  return llmmath::attention_cost_sweep(cost_config(cfg), R::vector(R::field(cfg, "tokens")));
}

// ---- speculative -----------------------------------------------------------------------------

template <class V>
SpeculativeResult speculative_decoding(const V& cfg) {
  using R = Read<V>;
  return llmmath::speculative_decoding(R::number(R::field(cfg, "alpha")),
                                       R::number(R::field(cfg, "gamma")),
                                       R::optional_number(R::field(cfg, "cost_ratio")));
}

template <class V>
SpeculativeSweep speculative_sweep(const V& cfg) {
  using R = Read<V>;
  return llmmath::speculative_sweep(R::number(R::field(cfg, "alpha")),
                                    R::vector(R::field(cfg, "gamma")),
                                    R::optional_number(R::field(cfg, "cost_ratio")));
}

template <class V>
SpeculativeAlphaResult speculative_alpha(const V& cfg) {
  using R = Read<V>;
  return llmmath::speculative_alpha(R::number(R::field(cfg, "mean_tokens")),
                                    R::number(R::field(cfg, "gamma")));
}

template <class V>
SpeculativeMeasureResult speculative_measure(const V& cfg) {
  using R = Read<V>;
  return llmmath::speculative_measure(
      R::number(R::field(cfg, "alpha")), R::number(R::field(cfg, "gamma")),
      R::number(R::field(cfg, "rounds")), R::number(R::field(cfg, "seed")));
}

// ---- alibi -----------------------------------------------------------------------------------

template <class V>
Eigen::VectorXd alibi_slopes(const V& heads) {
  return llmmath::alibi_slopes(Read<V>::number(heads));
}

template <class V>
AlibiHeadsResult alibi_heads(const V& heads) {
  return llmmath::alibi_heads(Read<V>::number(heads));
}

template <class V>
AlibiResult alibi(const V& cfg) {
  using R = Read<V>;
  return llmmath::alibi(R::number(R::field(cfg, "slope")),
                        R::optional_number(R::field(cfg, "tokens")),
                        R::optional_number(R::field(cfg, "distances")));
}

// ---- quantization ----------------------------------------------------------------------------

template <class V>
SmoothQuantResult smooth_quant(const V& x_abs_max, const V& w_abs_max, const V& alpha) {
  using R = Read<V>;
  return llmmath::smooth_quant(R::vector(x_abs_max), R::vector(w_abs_max),
                               R::optional_number(alpha).value_or(default_smooth_quant_alpha));
}

template <class V>
QuantizeResult quantize(const V& values, const V& opts) {
  using R = Read<V>;
  return llmmath::quantize(
      R::vector(values),
      R::optional_number(R::field(opts, "bits")).value_or(default_quantize_bits));
}

template <class V>
SmoothQuantLayerResult smooth_quant_layer(const V& x, const V& w, const V& opts) {
  using R = Read<V>;
  const auto X = R::dims(x), W = R::dims(w);
  require_smooth_quant_layer_dims(X.rows, X.cols, W.rows, W.cols);
  return llmmath::smooth_quant_layer(
      R::matrix(x), R::matrix(w),
      R::optional_number(R::field(opts, "alpha")).value_or(default_smooth_quant_alpha),
      R::optional_number(R::field(opts, "bits")).value_or(default_quantize_bits));
}

template <class V>
SmoothQuantLayerSweep smooth_quant_layer_sweep(const V& x, const V& w, const V& opts) {
  using R = Read<V>;
  const auto X = R::dims(x), W = R::dims(w);
  require_smooth_quant_layer_dims(X.rows, X.cols, W.rows, W.cols);
  return llmmath::smooth_quant_layer_sweep(
      R::matrix(x), R::matrix(w), R::vector(R::field(opts, "alpha")),
      R::optional_number(R::field(opts, "bits")).value_or(default_quantize_bits));
}

// ---- model -----------------------------------------------------------------------------------

template <class V>
ModelShape model_from_config(const V& config) {
  // the binding wrote the caller's object as JSON text; it is read back as the object it was
  return llmmath::model_from_config(json::parse(Read<V>::text(config), "config"));
}

template <class V>
ModelShape model_from_config_text(const V& text) {
  return llmmath::model_from_config_text(Read<V>::text(text));
}

/// modelCost's options, tokens apart (a number for the one, a vector for the sweep).
template <class V>
ModelCostOptions model_cost_options(const V& opts) {
  using R = Read<V>;
  ModelCostOptions o;
  o.batch = R::optional_number(R::field(opts, "batch")).value_or(o.batch);
  o.kv_bytes_per_element =
      R::optional_number(R::field(opts, "kv_bytes_per_element")).value_or(o.kv_bytes_per_element);
  o.weight_bytes_per_param = R::optional_number(R::field(opts, "weight_bytes_per_param"));
  if (auto k = R::choice(R::field(opts, "weight_format"), model_weight_formats))
    o.weight_format = model_weight_formats[*k];
  static constexpr const char* caches[] = {"latent", "expanded"};  // MlaCache's order
  if (R::choice(R::field(opts, "mla_cache"), caches).value_or(0) == 1)
    o.mla_cache = MlaCache::expanded;
  o.memory_bytes = R::optional_number(R::field(opts, "memory_bytes"));
  o.tensor_parallel = R::optional_number(R::field(opts, "tensor_parallel"));
  static constexpr const char* sliding[] = {"window", "full"};  // SlidingCache's order
  if (R::choice(R::field(opts, "sliding_cache"), sliding).value_or(0) == 1)
    o.sliding_cache = SlidingCache::full;
  o.block_tokens = R::optional_number(R::field(opts, "block_tokens")).value_or(o.block_tokens);
  o.kv_budget_bytes = R::optional_number(R::field(opts, "kv_budget_bytes"));
  if (R::present(R::field(opts, "devices"))) {
    const auto devices = R::field(opts, "devices");
    ModelDevices d;
    d.count = R::optional_number(R::field(devices, "count")).value_or(d.count);
    d.memory_bytes = R::number(R::field(devices, "memory_bytes"));
    d.bandwidth_bytes_per_second =
        R::optional_number(R::field(devices, "bandwidth_bytes_per_second"));
    d.flops_per_second = R::optional_number(R::field(devices, "flops_per_second"));
    o.devices = d;
  }
  o.memory_utilization = R::optional_number(R::field(opts, "memory_utilization"));
  o.reserve_bytes = R::optional_number(R::field(opts, "reserve_bytes")).value_or(o.reserve_bytes);
  return o;
}

template <class V>
ModelCostResult model_cost(const V& shape, const V& opts) {
  using R = Read<V>;
  const ModelShape s = llmmath::model_shape(json::parse(R::text(shape), "shape"), camel_case);
  ModelCostOptions o = model_cost_options(opts);
  o.tokens = R::number(R::field(opts, "tokens"));
  return llmmath::model_cost(s, o);
}

template <class V>
ModelCostSweep model_cost_sweep(const V& shape, const V& opts) {
  using R = Read<V>;
  const ModelShape s = llmmath::model_shape(json::parse(R::text(shape), "shape"), camel_case);
  return llmmath::model_cost_sweep(s, R::vector(R::field(opts, "tokens")),
                                   model_cost_options(opts));
}

}  // namespace llmmath::api

/// Every function of the API as X(adapter, arity), in the order of bindings/api/index.js: the one
/// list the bindings register (arity: the adapter's arguments, as the declaration's params).
#define LLMMATH_API_FUNCTIONS(X) \
  X(attention, 4)                \
  X(context_dilution, 1)         \
  X(context_dilution_sweep, 1)   \
  X(sampling, 2)                 \
  X(sample, 2)                   \
  X(moe_load_balance, 2)         \
  X(moe_route, 2)                \
  X(rope, 5)                     \
  X(rope_scores, 4)              \
  X(attention_cost, 1)           \
  X(attention_cost_sweep, 1)     \
  X(model_from_config, 1)        \
  X(model_from_config_text, 1)   \
  X(model_cost, 2)               \
  X(model_cost_sweep, 2)         \
  X(speculative_decoding, 1)     \
  X(speculative_sweep, 1)        \
  X(speculative_alpha, 1)        \
  X(speculative_measure, 1)      \
  X(alibi_slopes, 1)             \
  X(alibi_heads, 1)              \
  X(alibi, 1)                    \
  X(smooth_quant, 3)             \
  X(quantize, 2)                 \
  X(smooth_quant_layer, 3)       \
  X(smooth_quant_layer_sweep, 3)
