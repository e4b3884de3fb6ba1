// The JavaScript API of core-api.md: one block per concept, each only translating plain JS
// values to the core's types and back (camelCase here, the core's snake_case inside).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include "convert.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/sampling.hpp"
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
    // topK is optional: the core's default applies when it is omitted, undefined or null
    const auto r = top_k.isUndefined() || top_k.isNull()
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
  js::register_function<&memory_in_use>("memoryInUse");
}
