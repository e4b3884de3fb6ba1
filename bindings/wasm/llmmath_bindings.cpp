// The core behind the JavaScript API of core-api.md: one block per concept, each only
// translating the boundary's snapshots (boundary.js) to the core's types and the result back
// (camelCase keys here, the core's snake_case inside).
//
// Every function here is internal: boundary.js calls it with snapshots it built (Float64Array
// vectors, { rows, cols, values } matrices, and an options object holding only known keys whose
// values it checked), and replaces it on the module object by the public function of the same
// name. Each takes a `sink` last and returns undefined, handing the result to the sink, or the
// message of the core's error as a string.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "convert.hpp"
#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantization.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"
#include "memory.hpp"

using emscripten::val;
namespace js = llmmath::js;

namespace {

// ---- attention -----------------------------------------------------------------------------

val attention(val q, val k, val v, val opts, val sink) {
  return js::guarded([&] {
    llmmath::AttentionOptions options;
    if (const val c = opts[js::key("causal")]; !c.isUndefined()) options.causal = c.as<bool>();
    options.scale = js::optional_number(opts[js::key("scale")]);
    const js::Shape Q = js::shape(q), K = js::shape(k), V = js::shape(v);
    // sizes first, so that a refused call never asks the heap for its matrices
    llmmath::require_attention_shapes(Q.rows, Q.cols, K.rows, K.cols, V.rows, V.cols);
    const auto r = llmmath::attention(js::matrix(q), js::matrix(k), js::matrix(v), options);
    js::Result out;
    out.set("scores", r.scores);
    out.set("weights", r.weights);
    out.set("output", r.output);
    out.set("visible", r.visible);
    out.set("positions", r.positions);
    out.set("scale", r.scale);
    out.send(sink);
  });
}

val context_dilution(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::context_dilution(cfg[js::key("relevantScore")].as<double>(),
                                             cfg[js::key("distractorScore")].as<double>(),
                                             cfg[js::key("distractors")].as<double>());
    js::Result out;
    out.set("relevantWeight", r.relevant_weight);
    out.set("distractorWeight", r.distractor_weight);
    out.set("distractorMass", r.distractor_mass);
    out.send(sink);
  });
}

val context_dilution_sweep(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::context_dilution_sweep(cfg[js::key("relevantScore")].as<double>(),
                                                   cfg[js::key("distractorScore")].as<double>(),
                                                   js::vector(cfg[js::key("distractors")]));
    js::Result out;
    out.set("distractors", r.distractors);
    out.set("relevantWeight", r.relevant_weight);
    out.set("distractorWeight", r.distractor_weight);
    out.set("distractorMass", r.distractor_mass);
    out.send(sink);
  });
}

// ---- sampling ------------------------------------------------------------------------------

val sampling(val input, val opts, val sink) {
  return js::guarded([&] {
    llmmath::SamplingInput source;
    if (const val z = input[js::key("logits")]; !z.isUndefined()) source.logits = js::vector(z);
    if (const val p = input[js::key("probs")]; !p.isUndefined()) source.probs = js::vector(p);
    llmmath::SamplingOptions options;
    options.temperature = js::optional_number(opts[js::key("temperature")]).value_or(options.temperature);
    options.top_k = js::optional_number(opts[js::key("topK")]).value_or(options.top_k);
    options.top_p = js::optional_number(opts[js::key("topP")]).value_or(options.top_p);
    const auto r = llmmath::sampling(source, options);
    js::Result out;
    out.set("probs", r.probs);
    out.set("kept", r.kept);
    out.set("tempered", r.tempered);
    out.set("order", r.order);
    out.set("cumulative", r.cumulative);
    out.set("topKMass", r.top_k_mass);
    out.set("topKProbs", r.top_k_probs);
    out.set("cutoff", double(r.cutoff));
    out.set("keptMass", r.kept_mass);
    out.send(sink);
  });
}

val sample(val probs, val opts, val sink) {
  return js::guarded([&] {
    const Eigen::VectorXi draws = llmmath::sample(js::vector(probs), opts[js::key("count")].as<double>(),
                                                  opts[js::key("seed")].as<double>());
    js::Result::send(sink, draws);
  });
}

// ---- moe -----------------------------------------------------------------------------------

val moe_load_balance(val f, val p, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::moe_load_balance(js::vector(f), js::vector(p));
    js::Result out;
    out.set("loss", r.loss);
    out.set("terms", r.terms);
    out.send(sink);
  });
}

val moe_route(val router_logits, val top_k, val sink) {
  return js::guarded([&] {
    const js::Shape L = js::shape(router_logits);
    llmmath::require_router_logits_shape(L.rows, L.cols);
    const auto r = llmmath::moe_route(js::matrix(router_logits),
                                      js::optional_number(top_k).value_or(1));
    js::Result out;
    out.set("assignments", r.assignments);
    out.set("f", r.f);
    out.set("p", r.p);
    out.set("loss", r.loss);
    out.set("probs", r.probs);
    out.set("counts", r.counts);
    out.set("terms", r.terms);
    out.send(sink);
  });
}

// ---- rope ----------------------------------------------------------------------------------

// rope's options: pairing (0 interleaved, 1 half, as the boundary maps the names), base, freqs.
llmmath::RopeOptions rope_options(const val& opts) {
  llmmath::RopeOptions options;
  if (js::optional_number(opts[js::key("pairing")]).value_or(0) == 1)
    options.pairing = llmmath::RopePairing::half;
  options.base = js::optional_number(opts[js::key("base")]);
  if (const val f = opts[js::key("freqs")]; !f.isUndefined()) options.freqs = js::vector(f);
  return options;
}

val rope(val q, val k, val m, val n, val opts, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::rope(js::vector(q), js::vector(k), m.as<double>(), n.as<double>(),
                                 rope_options(opts));
    js::Result out;
    out.set("qRotated", r.q_rotated);
    out.set("kRotated", r.k_rotated);
    out.set("raw", r.raw);
    out.set("scaled", r.scaled);
    out.set("offset", r.offset);
    out.set("thetas", r.thetas);
    out.set("angles", r.angles);
    out.set("pairs", r.pairs);
    out.set("pairScores", r.pair_scores);
    out.send(sink);
  });
}

val rope_scores(val q, val k, val offsets, val opts, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::rope_scores(js::vector(q), js::vector(k), js::vector(offsets),
                                        rope_options(opts));
    js::Result out;
    out.set("raw", r.raw);
    out.set("scaled", r.scaled);
    out.send(sink);
  });
}

// ---- cost ----------------------------------------------------------------------------------

// attentionCost's cfg (tokens apart) as the core's config.
llmmath::AttentionCostConfig cost_config(const val& cfg) {
  llmmath::AttentionCostConfig config;
  config.heads = cfg[js::key("heads")].as<double>();
  config.head_dim = cfg[js::key("headDim")].as<double>();
  config.layers = js::optional_number(cfg[js::key("layers")]).value_or(config.layers);
  config.kv_heads = js::optional_number(cfg[js::key("kvHeads")]);
  config.batch = js::optional_number(cfg[js::key("batch")]).value_or(config.batch);
  config.bytes_per_value =
      js::optional_number(cfg[js::key("bytesPerValue")]).value_or(config.bytes_per_value);
  config.d_model = js::optional_number(cfg[js::key("dModel")]);
  config.ffn_dim = js::optional_number(cfg[js::key("ffnDim")]);
  if (const val g = cfg[js::key("gated")]; !g.isUndefined()) config.gated = g.as<bool>();
  return config;
}

val attention_cost(val cfg, val sink) {
  return js::guarded([&] {
    llmmath::AttentionCostConfig config = cost_config(cfg);
    config.tokens = cfg[js::key("tokens")].as<double>();
    const auto r = llmmath::attention_cost(config);
    js::Result out;
    out.set("scoresPerHead", r.scores_per_head);
    out.set("scoresPerLayer", r.scores_per_layer);
    out.set("kvValuesPerLayer", r.kv_values_per_layer);
    out.set("kvValues", r.kv_values);
    out.set("kvBytes", r.kv_bytes);
    out.set("kvBytesPerToken", r.kv_bytes_per_token);
    out.set("qkMacsPerLayer", r.qk_macs_per_layer);
    out.set("avMacsPerLayer", r.av_macs_per_layer);
    out.set("macsPerLayer", r.macs_per_layer);
    out.set("macs", r.macs);
    if (r.linear_macs_per_layer) {
      out.set("projectionMacsPerLayer", *r.projection_macs_per_layer);
      out.set("ffnMacsPerLayer", *r.ffn_macs_per_layer);
      out.set("linearMacsPerLayer", *r.linear_macs_per_layer);
      out.set("crossoverTokens", *r.crossover_tokens);
      out.set("attentionShare", *r.attention_share);
    }
    out.send(sink);
  });
}

val attention_cost_sweep(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::attention_cost_sweep(cost_config(cfg), js::vector(cfg[js::key("tokens")]));
    js::Result out;
    out.set("tokens", r.tokens);
    out.set("scoresPerLayer", r.scores_per_layer);
    out.set("kvValuesPerLayer", r.kv_values_per_layer);
    out.set("kvBytes", r.kv_bytes);
    out.set("macsPerLayer", r.macs_per_layer);
    if (r.linear_macs_per_layer) out.set("linearMacsPerLayer", *r.linear_macs_per_layer);
    out.send(sink);
  });
}

// ---- speculative ---------------------------------------------------------------------------

val speculative_decoding(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::speculative_decoding(cfg[js::key("alpha")].as<double>(),
                                                 cfg[js::key("gamma")].as<double>(),
                                                 js::optional_number(cfg[js::key("costRatio")]));
    js::Result out;
    out.set("expectedTokens", r.expected_tokens);
    out.set("ceiling", r.ceiling);
    if (r.speedup) out.set("speedup", *r.speedup);
    out.set("allAccepted", r.all_accepted);
    out.set("numerator", r.numerator);
    out.set("denominator", r.denominator);
    if (r.round_cost) out.set("roundCost", *r.round_cost);
    out.set("tokenProbs", r.token_probs);
    out.send(sink);
  });
}

val speculative_sweep(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::speculative_sweep(cfg[js::key("alpha")].as<double>(), js::vector(cfg[js::key("gamma")]),
                                              js::optional_number(cfg[js::key("costRatio")]));
    js::Result out;
    out.set("gamma", r.gamma);
    out.set("expectedTokens", r.expected_tokens);
    if (r.round_cost) out.set("roundCost", *r.round_cost);
    if (r.speedup) out.set("speedup", *r.speedup);
    if (r.best_gamma) out.set("bestGamma", *r.best_gamma);
    if (r.best_speedup) out.set("bestSpeedup", *r.best_speedup);
    out.send(sink);
  });
}

val speculative_alpha(val cfg, val sink) {
  return js::guarded([&] {
    const auto r =
        llmmath::speculative_alpha(cfg[js::key("meanTokens")].as<double>(), cfg[js::key("gamma")].as<double>());
    js::Result out;
    out.set("alpha", r.alpha);
    out.set("expectedTokens", r.expected_tokens);
    out.send(sink);
  });
}

val speculative_measure(val cfg, val sink) {
  return js::guarded([&] {
    const auto r =
        llmmath::speculative_measure(cfg[js::key("alpha")].as<double>(), cfg[js::key("gamma")].as<double>(),
                                     cfg[js::key("rounds")].as<double>(), cfg[js::key("seed")].as<double>());
    js::Result out;
    out.set("rounds", r.rounds);
    out.set("proposed", r.proposed);
    out.set("checked", r.checked);
    out.set("accepted", r.accepted);
    out.set("tokens", r.tokens);
    out.set("meanTokens", r.mean_tokens);
    out.set("tokenCounts", r.token_counts);
    out.set("acceptedPerProposed", r.accepted_per_proposed);
    out.set("acceptedPerChecked", r.accepted_per_checked);
    out.set("alphaFromMeanTokens", r.alpha_from_mean_tokens);
    out.set("expectedTokens", r.expected_tokens);
    out.set("expectedTokensPerProposed", r.expected_tokens_per_proposed);
    out.set("expectedTokensPerChecked", r.expected_tokens_per_checked);
    out.set("expectedTokensFromMeanTokens", r.expected_tokens_from_mean_tokens);
    out.send(sink);
  });
}

// ---- alibi ---------------------------------------------------------------------------------

val alibi_slopes(val heads, val sink) {
  return js::guarded([&] {
    js::Result::send(sink, llmmath::alibi_slopes(heads.as<double>()));
  });
}

// One head of alibiHeads as a nested object.
void set_head(js::Result& out, const llmmath::AlibiHead& h) {
  out.set("head", double(h.head));
  out.set("slope", h.slope);
  out.set("halfDistance", h.half_distance);
}

val alibi_heads(val heads, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::alibi_heads(heads.as<double>());
    js::Result out, steepest, gentlest;
    set_head(steepest, r.steepest);
    set_head(gentlest, r.gentlest);
    out.set("slopes", r.slopes);
    out.set("halfDistances", r.half_distances);
    out.set("steepest", steepest);
    out.set("gentlest", gentlest);
    out.send(sink);
  });
}

val alibi(val cfg, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::alibi(cfg[js::key("slope")].as<double>(),
                                  js::optional_number(cfg[js::key("tokens")]),
                                  js::optional_number(cfg[js::key("distances")]));
    js::Result out;
    out.set("halfDistance", r.half_distance);
    if (r.bias) out.set("bias", *r.bias, r.visible);
    if (r.relative_weight.size() > 0) out.set("relativeWeight", r.relative_weight);
    out.send(sink);
  });
}

// ---- quantization --------------------------------------------------------------------------

val smooth_quant(val x_abs_max, val w_abs_max, val alpha, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::smooth_quant(
        js::vector(x_abs_max), js::vector(w_abs_max),
        js::optional_number(alpha).value_or(llmmath::default_smooth_quant_alpha));
    js::Result out;
    out.set("scales", r.scales);
    out.set("xAbsMax", r.x_abs_max);
    out.set("wAbsMax", r.w_abs_max);
    out.send(sink);
  });
}

// One quantised tensor (flattened row by row) into `out`.
void set_quantized(js::Result& out, const llmmath::QuantizeResult& q) {
  out.set("scale", q.scale);
  out.set("qmax", q.qmax);
  out.set("levels", q.levels);
  out.set("dequantized", q.dequantized);
  out.set("errors", q.errors);
  out.set("maxAbsError", q.max_abs_error);
}

val quantize(val values, val opts, val sink) {
  return js::guarded([&] {
    const auto r = llmmath::quantize(
        js::vector(values),
        js::optional_number(opts[js::key("bits")]).value_or(llmmath::default_quantize_bits));
    js::plant_leak();  // a no-op except in the test-only leaky build (memory.hpp)
    js::Result out;
    out.set("scale", r.scale);
    out.set("levels", r.levels);
    out.set("dequantized", r.dequantized);
    out.set("maxAbsError", r.max_abs_error);
    out.set("qmax", r.qmax);
    out.set("errors", r.errors);
    out.send(sink);
  });
}

val smooth_quant_layer(val x, val w, val opts, val sink) {
  return js::guarded([&] {
    const js::Shape X = js::shape(x), W = js::shape(w);
    llmmath::require_smooth_quant_layer_shapes(X.rows, X.cols, W.rows, W.cols);
    const auto r = llmmath::smooth_quant_layer(
        js::matrix(x), js::matrix(w),
        js::optional_number(opts[js::key("alpha")]).value_or(llmmath::default_smooth_quant_alpha),
        js::optional_number(opts[js::key("bits")]).value_or(llmmath::default_quantize_bits));
    js::Result out, quant_x, quant_w, quant_x_smoothed, quant_w_smoothed;
    set_quantized(quant_x, r.quant_x);
    set_quantized(quant_w, r.quant_w);
    set_quantized(quant_x_smoothed, r.quant_x_smoothed);
    set_quantized(quant_w_smoothed, r.quant_w_smoothed);
    out.set("xAbsMax", r.x_abs_max);
    out.set("wAbsMax", r.w_abs_max);
    out.set("scales", r.smoothing.scales);
    out.set("xAbsMaxSmoothed", r.smoothing.x_abs_max);
    out.set("wAbsMaxSmoothed", r.smoothing.w_abs_max);
    out.set("xSmoothed", r.x_smoothed);
    out.set("wSmoothed", r.w_smoothed);
    out.set("quantX", quant_x);
    out.set("quantW", quant_w);
    out.set("quantXSmoothed", quant_x_smoothed);
    out.set("quantWSmoothed", quant_w_smoothed);
    out.set("xLevels", r.x_levels);
    out.set("xLevelsSmoothed", r.x_levels_smoothed);
    out.set("largestChannel", double(r.largest_channel));
    out.set("smallestChannel", double(r.smallest_channel));
    out.set("y", r.y);
    out.set("yQuantized", r.y_quantized);
    out.set("yQuantizedSmoothed", r.y_quantized_smoothed);
    out.set("errorQuantized", r.error_quantized);
    out.set("errorQuantizedSmoothed", r.error_quantized_smoothed);
    out.set("errorSmoothingAlone", r.error_smoothing_alone);
    out.send(sink);
  });
}

val smooth_quant_layer_sweep(val x, val w, val opts, val sink) {
  return js::guarded([&] {
    const js::Shape X = js::shape(x), W = js::shape(w);
    llmmath::require_smooth_quant_layer_shapes(X.rows, X.cols, W.rows, W.cols);
    const auto r = llmmath::smooth_quant_layer_sweep(
        js::matrix(x), js::matrix(w), js::vector(opts[js::key("alpha")]),
        js::optional_number(opts[js::key("bits")]).value_or(llmmath::default_quantize_bits));
    js::Result out;
    out.set("alpha", r.alpha);
    out.set("quantXSmoothedMaxAbsError", r.quant_x_smoothed_max_abs_error);
    out.set("quantWSmoothedMaxAbsError", r.quant_w_smoothed_max_abs_error);
    out.send(sink);
  });
}

// ---- diagnostics ---------------------------------------------------------------------------

// What the heap holds now (memory.hpp): the leak tests compare it before and after many calls.
val memory_stats() {
  const js::HeapStats s = js::heap_stats();
  val out = val::object();
  out.set("bytesInUse", s.bytes_in_use);
  out.set("blocksInUse", s.blocks_in_use);
  out.set("heapTop", s.heap_top);
  return out;
}

double memory_in_use() { return js::heap_stats().bytes_in_use; }

}  // namespace

EMSCRIPTEN_BINDINGS(llmmath) {
  using emscripten::function;
  function("attention", &attention);
  function("contextDilution", &context_dilution);
  function("contextDilutionSweep", &context_dilution_sweep);
  function("sampling", &sampling);
  function("sample", &sample);
  function("moeLoadBalance", &moe_load_balance);
  function("moeRoute", &moe_route);
  function("rope", &rope);
  function("ropeScores", &rope_scores);
  function("attentionCost", &attention_cost);
  function("attentionCostSweep", &attention_cost_sweep);
  function("speculativeDecoding", &speculative_decoding);
  function("speculativeSweep", &speculative_sweep);
  function("speculativeAlpha", &speculative_alpha);
  function("speculativeMeasure", &speculative_measure);
  function("alibiSlopes", &alibi_slopes);
  function("alibiHeads", &alibi_heads);
  function("alibi", &alibi);
  function("smoothQuant", &smooth_quant);
  function("quantize", &quantize);
  function("smoothQuantLayer", &smooth_quant_layer);
  function("smoothQuantLayerSweep", &smooth_quant_layer_sweep);
  function("memoryStats", &memory_stats);
  function("memoryInUse", &memory_in_use);
}
