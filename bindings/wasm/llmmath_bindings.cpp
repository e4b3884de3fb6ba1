// The JavaScript API of core-api.md: one block per concept, each only translating plain JS
// values to the core's types and back (camelCase here, the core's snake_case inside).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include "convert.hpp"
#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantize.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"
#include "register.hpp"

using emscripten::val;
namespace js = llmmath::js;

namespace {

// ---- attention -----------------------------------------------------------------------------

val attention(val q, val k, val v, val opts) {
  return js::guarded([&] {
    const val o = js::object(opts, "opts", {"causal", "scale"}, true);
    llmmath::AttentionOptions options;
    if (auto c = js::field(o, "causal")) options.causal = js::boolean(*c, "causal");
    if (auto s = js::field(o, "scale")) options.scale = js::number(*s, "scale");
    const auto r = llmmath::attention(js::matrix(q, "q"), js::matrix(k, "k"),
                                      js::matrix(v, "v"), options);
    val out = val::object();
    out.set("scores", js::to_js(r.scores));
    out.set("weights", js::to_js(r.weights));
    out.set("output", js::to_js(r.output));
    out.set("visible", js::to_js(r.visible));
    out.set("positions", js::to_js(r.position));
    out.set("scale", r.scale);
    return out;
  });
}

val context_dilution(val cfg) {
  return js::guarded([&] {
    const val c =
        js::object(cfg, "cfg", {"relevantScore", "distractorScore", "distractors"}, false);
    const auto r = llmmath::context_dilution(js::number(c["relevantScore"], "relevantScore"),
                                             js::number(c["distractorScore"], "distractorScore"),
                                             js::number(c["distractors"], "distractors"));
    val out = val::object();
    out.set("relevantWeight", r.relevant_weight);
    out.set("distractorWeight", r.distractor_weight);
    out.set("distractorMass", r.distractor_mass);
    return out;
  });
}

// ---- sampling ------------------------------------------------------------------------------

val sampling(val input, val opts) {
  return js::guarded([&] {
    const val in = js::object(input, "input", {"logits", "probs"}, false);
    llmmath::SamplingInput source;
    if (auto z = js::field(in, "logits")) source.logits = js::vector(*z, "logits");
    if (auto p = js::field(in, "probs")) source.probs = js::vector(*p, "probs");
    const val o = js::object(opts, "opts", {"temperature", "topK", "topP"}, true);
    llmmath::SamplingOptions options;
    if (auto t = js::field(o, "temperature")) options.temperature = js::number(*t, "temperature");
    if (auto k = js::field(o, "topK")) options.top_k = js::number(*k, "topK");
    if (auto p = js::field(o, "topP")) options.top_p = js::number(*p, "topP");
    const auto r = llmmath::sampling(source, options);
    val out = val::object();
    out.set("probs", js::to_js(r.probs));
    out.set("kept", js::to_js(r.kept));
    out.set("tempered", js::to_js(r.tempered));
    out.set("order", js::to_js(r.order));
    out.set("cumulative", js::to_js(r.cumulative));
    out.set("cutoff", r.cutoff);
    out.set("keptMass", r.kept_mass);
    return out;
  });
}

val sample(val probs, val opts) {
  return js::guarded([&] {
    const Eigen::VectorXd p = js::vector(probs, "probs");
    const val o = js::object(opts, "opts", {"count", "seed"}, false);
    const double count = js::number(o["count"], "count");
    const double seed = js::number(o["seed"], "seed");
    return js::to_js(llmmath::sample(p, count, seed));
  });
}

// ---- moe -----------------------------------------------------------------------------------

val moe_load_balance(val f, val p) {
  return js::guarded([&] {
    const Eigen::VectorXd fractions = js::vector(f, "f");
    const auto r = llmmath::moe_load_balance(fractions, js::vector(p, "p"));
    val out = val::object();
    out.set("loss", r.loss);
    out.set("terms", js::to_js(r.terms));
    return out;
  });
}

val moe_route(val router_logits, val top_k) {
  return js::guarded([&] {
    const Eigen::MatrixXd L = js::matrix(router_logits, "routerLogits");
    // topK is optional: omitted or undefined means the core's default (null is not a number)
    const auto r = top_k.isUndefined()
                       ? llmmath::moe_route(L)
                       : llmmath::moe_route(L, js::number(top_k, "topK"));
    val out = val::object();
    // expert indices are whole numbers, exact as JS numbers
    out.set("assignments", js::to_js(Eigen::MatrixXd(r.assignments.cast<double>())));
    out.set("f", js::to_js(r.f));
    out.set("p", js::to_js(r.p));
    out.set("loss", r.loss);
    out.set("probs", js::to_js(r.probs));
    out.set("counts", js::to_js(r.counts));
    out.set("terms", js::to_js(r.terms));
    return out;
  });
}

// ---- rope ----------------------------------------------------------------------------------

// rope's options object: pairing, base or freqs.
llmmath::RopeOptions rope_options(const val& opts) {
  const val o = js::object(opts, "opts", {"pairing", "base", "freqs"}, true);
  llmmath::RopeOptions options;
  if (auto p = js::field(o, "pairing"))
    options.pairing = js::choice(*p, "pairing", {"interleaved", "half"}) == 0
                          ? llmmath::RopePairing::interleaved
                          : llmmath::RopePairing::half;
  if (auto b = js::field(o, "base")) options.base = js::number(*b, "base");
  if (auto f = js::field(o, "freqs")) options.freqs = js::vector(*f, "freqs");
  return options;
}

val rope(val q, val k, val m, val n, val opts) {
  return js::guarded([&] {
    const Eigen::VectorXd Q = js::vector(q, "q");
    const Eigen::VectorXd K = js::vector(k, "k");
    const double pos_m = js::number(m, "m");
    const double pos_n = js::number(n, "n");
    const llmmath::RopeOptions options = rope_options(opts);
    const auto r = llmmath::rope(Q, K, pos_m, pos_n, options);
    val out = val::object();
    out.set("qRotated", js::to_js(r.q_rotated));
    out.set("kRotated", js::to_js(r.k_rotated));
    out.set("raw", r.raw);
    out.set("scaled", r.scaled);
    out.set("thetas", js::to_js(r.thetas));
    out.set("angles", js::to_js(r.angles));
    out.set("pairs", js::to_js(r.pairs));
    out.set("pairScores", js::to_js(r.pair_scores));
    return out;
  });
}

val rope_scores(val q, val k, val offsets, val opts) {
  return js::guarded([&] {
    const Eigen::VectorXd Q = js::vector(q, "q");
    const Eigen::VectorXd K = js::vector(k, "k");
    const Eigen::VectorXd o = js::vector(offsets, "offsets");
    const auto r = llmmath::rope_scores(Q, K, o, rope_options(opts));
    val out = val::object();
    out.set("raw", js::to_js(r.raw));
    out.set("scaled", js::to_js(r.scaled));
    return out;
  });
}

// ---- cost ----------------------------------------------------------------------------------

val attention_cost(val cfg) {
  return js::guarded([&] {
    const val c = js::object(
        cfg, "cfg",
        {"tokens", "heads", "headDim", "layers", "kvHeads", "batch", "bytesPerValue", "dModel",
         "ffnDim", "gated"},
        false);
    llmmath::AttentionCostConfig config;
    config.tokens = js::number(c["tokens"], "tokens");
    config.heads = js::number(c["heads"], "heads");
    config.head_dim = js::number(c["headDim"], "headDim");
    if (auto x = js::field(c, "layers")) config.layers = js::number(*x, "layers");
    if (auto x = js::field(c, "kvHeads")) config.kv_heads = js::number(*x, "kvHeads");
    if (auto x = js::field(c, "batch")) config.batch = js::number(*x, "batch");
    if (auto x = js::field(c, "bytesPerValue"))
      config.bytes_per_value = js::number(*x, "bytesPerValue");
    if (auto x = js::field(c, "dModel")) config.d_model = js::number(*x, "dModel");
    if (auto x = js::field(c, "ffnDim")) config.ffn_dim = js::number(*x, "ffnDim");
    if (auto x = js::field(c, "gated")) config.gated = js::boolean(*x, "gated");
    const auto r = llmmath::attention_cost(config);
    val out = val::object();
    out.set("scoresPerHead", r.scores_per_head);
    out.set("scoresPerLayer", r.scores_per_layer);
    out.set("kvValuesPerLayer", r.kv_values_per_layer);
    out.set("kvValues", r.kv_values);
    out.set("kvBytes", r.kv_bytes);
    out.set("kvBytesPerToken", r.kv_bytes_per_token);
    out.set("qkMacsPerLayer", r.qk_macs_per_layer);
    out.set("avMacsPerLayer", r.av_macs_per_layer);
    out.set("macs", r.macs);
    if (r.linear_macs_per_layer) {
      out.set("projectionMacsPerLayer", *r.projection_macs_per_layer);
      out.set("ffnMacsPerLayer", *r.ffn_macs_per_layer);
      out.set("linearMacsPerLayer", *r.linear_macs_per_layer);
      out.set("crossoverTokens", *r.crossover_tokens);
      out.set("attentionShare", *r.attention_share);
    }
    return out;
  });
}

// ---- speculative ---------------------------------------------------------------------------

val speculative_decoding(val cfg) {
  return js::guarded([&] {
    const val c = js::object(cfg, "cfg", {"alpha", "gamma", "costRatio"}, false);
    const double alpha = js::number(c["alpha"], "alpha");
    const double gamma = js::number(c["gamma"], "gamma");
    std::optional<double> cost_ratio;
    if (auto x = js::field(c, "costRatio")) cost_ratio = js::number(*x, "costRatio");
    const auto r = llmmath::speculative_decoding(alpha, gamma, cost_ratio);
    val out = val::object();
    out.set("expectedTokens", r.expected_tokens);
    out.set("ceiling", r.ceiling);
    if (r.speedup) out.set("speedup", *r.speedup);
    out.set("allAccepted", r.all_accepted);
    out.set("numerator", r.numerator);
    out.set("denominator", r.denominator);
    if (r.round_cost) out.set("roundCost", *r.round_cost);
    out.set("tokenProbs", js::to_js(r.token_probs));
    return out;
  });
}

val speculative_alpha(val cfg) {
  return js::guarded([&] {
    const val c = js::object(cfg, "cfg", {"meanTokens", "gamma"}, false);
    const double mean_tokens = js::number(c["meanTokens"], "meanTokens");
    const auto r = llmmath::speculative_alpha(mean_tokens, js::number(c["gamma"], "gamma"));
    val out = val::object();
    out.set("alpha", r.alpha);
    out.set("expectedTokens", r.expected_tokens);
    return out;
  });
}

val speculative_measure(val cfg) {
  return js::guarded([&] {
    const val c = js::object(cfg, "cfg", {"alpha", "gamma", "rounds", "seed"}, false);
    const double alpha = js::number(c["alpha"], "alpha");
    const double gamma = js::number(c["gamma"], "gamma");
    const double rounds = js::number(c["rounds"], "rounds");
    const auto r = llmmath::speculative_measure(alpha, gamma, rounds, js::number(c["seed"], "seed"));
    val out = val::object();
    out.set("rounds", r.rounds);
    out.set("proposed", r.proposed);
    out.set("checked", r.checked);
    out.set("accepted", r.accepted);
    out.set("tokens", r.tokens);
    out.set("meanTokens", r.mean_tokens);
    out.set("tokenCounts", js::to_js(r.token_counts));
    out.set("acceptedPerProposed", r.accepted_per_proposed);
    out.set("acceptedPerChecked", r.accepted_per_checked);
    out.set("alphaFromMeanTokens", r.alpha_from_mean_tokens);
    out.set("expectedTokens", r.expected_tokens);
    return out;
  });
}

// ---- alibi ---------------------------------------------------------------------------------

val alibi_slopes(val heads) {
  return js::guarded([&] { return js::to_js(llmmath::alibi_slopes(js::number(heads, "heads"))); });
}

namespace alibi_head {

// One head of alibiHeads as a plain object.
val to_js(const llmmath::AlibiHead& h) {
  val out = val::object();
  out.set("head", h.head);
  out.set("slope", h.slope);
  out.set("halfDistance", h.half_distance);
  return out;
}

}  // namespace alibi_head

val alibi_heads(val heads) {
  return js::guarded([&] {
    const auto r = llmmath::alibi_heads(js::number(heads, "heads"));
    val out = val::object();
    out.set("slopes", js::to_js(r.slopes));
    out.set("halfDistances", js::to_js(r.half_distances));
    out.set("steepest", alibi_head::to_js(r.steepest));
    out.set("gentlest", alibi_head::to_js(r.gentlest));
    return out;
  });
}

val alibi(val cfg) {
  return js::guarded([&] {
    const val c = js::object(cfg, "cfg", {"slope", "tokens", "distances"}, false);
    const double slope = js::number(c["slope"], "slope");
    std::optional<double> tokens;
    if (auto x = js::field(c, "tokens")) tokens = js::number(*x, "tokens");
    std::optional<double> distances;
    if (auto x = js::field(c, "distances")) distances = js::number(*x, "distances");
    const auto r = llmmath::alibi(slope, tokens);
    val out = val::object();
    out.set("halfDistance", r.half_distance);
    if (r.bias) out.set("bias", js::to_js(*r.bias, r.visible));
    // relativeWeight: `distances` entries when asked for, else one per token of the bias
    if (distances)
      out.set("relativeWeight", js::to_js(llmmath::alibi_decay(slope, *distances)));
    else if (r.bias)
      out.set("relativeWeight", js::to_js(r.relative_weight));
    return out;
  });
}

// ---- quantize ------------------------------------------------------------------------------

val smooth_quant(val x_abs_max, val w_abs_max, val alpha) {
  return js::guarded([&] {
    const Eigen::VectorXd x = js::vector(x_abs_max, "xAbsMax");
    const Eigen::VectorXd w = js::vector(w_abs_max, "wAbsMax");
    // alpha is optional: omitted or undefined means the core's default (null is not a number)
    const double a = alpha.isUndefined() ? llmmath::default_smooth_quant_alpha
                                                           : js::number(alpha, "alpha");
    const auto r = llmmath::smooth_quant(x, w, a);
    val out = val::object();
    out.set("scales", js::to_js(r.scales));
    out.set("xAbsMax", js::to_js(r.x_abs_max));
    out.set("wAbsMax", js::to_js(r.w_abs_max));
    return out;
  });
}

val quantize(val values, val opts) {
  return js::guarded([&] {
    const Eigen::VectorXd x = js::vector(values, "values");
    const val o = js::object(opts, "opts", {"bits"}, true);
    double bits = llmmath::default_quantize_bits;
    if (auto b = js::field(o, "bits")) bits = js::number(*b, "bits");
    const auto r = llmmath::quantize(x, bits);
    val out = val::object();
    out.set("scale", r.scale);
    out.set("levels", js::to_js(r.levels));
    out.set("dequantized", js::to_js(r.dequantized));
    out.set("maxAbsError", r.max_abs_error);
    out.set("qmax", r.qmax);
    out.set("errors", js::to_js(r.errors));
    return out;
  });
}

namespace quantized {

// One quantised tensor as a plain object (flattened row by row).
val to_js(const llmmath::QuantizeResult& q) {
  val out = val::object();
  out.set("scale", q.scale);
  out.set("qmax", q.qmax);
  out.set("levels", js::to_js(q.levels));
  out.set("dequantized", js::to_js(q.dequantized));
  out.set("errors", js::to_js(q.errors));
  out.set("maxAbsError", q.max_abs_error);
  return out;
}

}  // namespace quantized

val smooth_quant_layer(val x, val w, val opts) {
  return js::guarded([&] {
    const Eigen::MatrixXd X = js::matrix(x, "x");
    const Eigen::MatrixXd W = js::matrix(w, "w");
    const val o = js::object(opts, "opts", {"alpha", "bits"}, true);
    double alpha = llmmath::default_smooth_quant_alpha, bits = llmmath::default_quantize_bits;
    if (auto a = js::field(o, "alpha")) alpha = js::number(*a, "alpha");
    if (auto b = js::field(o, "bits")) bits = js::number(*b, "bits");
    const auto r = llmmath::smooth_quant_layer(X, W, alpha, bits);
    val out = val::object();
    out.set("xAbsMax", js::to_js(r.x_abs_max));
    out.set("wAbsMax", js::to_js(r.w_abs_max));
    out.set("scales", js::to_js(r.smoothing.scales));
    out.set("xAbsMaxSmoothed", js::to_js(r.smoothing.x_abs_max));
    out.set("wAbsMaxSmoothed", js::to_js(r.smoothing.w_abs_max));
    out.set("xSmoothed", js::to_js(r.x_smoothed));
    out.set("wSmoothed", js::to_js(r.w_smoothed));
    out.set("quantX", quantized::to_js(r.x_plain));
    out.set("quantW", quantized::to_js(r.w_plain));
    out.set("quantXSmoothed", quantized::to_js(r.x_smooth));
    out.set("quantWSmoothed", quantized::to_js(r.w_smooth));
    out.set("xLevels", js::to_js(r.x_levels_plain));
    out.set("xLevelsSmoothed", js::to_js(r.x_levels_smooth));
    out.set("largestChannel", r.largest_channel);
    out.set("smallestChannel", r.smallest_channel);
    out.set("y", js::to_js(r.y));
    out.set("yQuantized", js::to_js(r.y_plain));
    out.set("yQuantizedSmoothed", js::to_js(r.y_smooth));
    out.set("errorQuantized", r.error_plain);
    out.set("errorQuantizedSmoothed", r.error_smooth);
    out.set("errorSmoothingAlone", r.error_identity);
    return out;
  });
}

// ---- diagnostics ---------------------------------------------------------------------------

// Bytes of the wasm heap currently allocated by malloc: the leak tests compare it before and
// after thousands of calls.
val memory_in_use() { return val(static_cast<double>(mallinfo().uordblks)); }

}  // namespace

EMSCRIPTEN_BINDINGS(llmmath) {
  js::register_function<&attention>("attention");
  js::register_function<&context_dilution>("contextDilution");
  js::register_function<&sampling>("sampling");
  js::register_function<&sample>("sample");
  js::register_function<&moe_load_balance>("moeLoadBalance");
  js::register_function<&moe_route>("moeRoute");
  js::register_function<&rope>("rope");
  js::register_function<&rope_scores>("ropeScores");
  js::register_function<&attention_cost>("attentionCost");
  js::register_function<&speculative_decoding>("speculativeDecoding");
  js::register_function<&speculative_alpha>("speculativeAlpha");
  js::register_function<&speculative_measure>("speculativeMeasure");
  js::register_function<&alibi_slopes>("alibiSlopes");
  js::register_function<&alibi_heads>("alibiHeads");
  js::register_function<&alibi>("alibi");
  js::register_function<&smooth_quant>("smoothQuant");
  js::register_function<&quantize>("quantize");
  js::register_function<&smooth_quant_layer>("smoothQuantLayer");
  js::register_function<&memory_in_use>("memoryInUse");
}
