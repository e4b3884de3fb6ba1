// The golden file: what the native build returns for a fixed set of calls, written in the
// shape the JavaScript API returns, so that the Node tests can check that the WebAssembly
// build answers the same (tests/js/golden.test.js).
//
//   llmmath_golden FILE          writes the golden file
//   llmmath_golden --check FILE  exits 1 if FILE differs from what this build writes beyond the
//                                tolerance of the wasm check (first_difference)
//
// Numbers are written with 17 significant digits (they read back to the same double);
// ±Infinity, which JSON lacks, as the strings "Infinity" and "-Infinity".
#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "literals.hpp"
#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantization.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

std::string num(double x) {
  if (std::isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string vec(const VectorXd& x) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? "," : "") + num(x(i));
  return s + "]";
}

std::string mat(const MatrixXd& M) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < M.rows(); ++i) s += (i ? "," : "") + vec(M.row(i).transpose());
  return s + "]";
}

std::string ivec(const Eigen::VectorXi& x) { return vec(x.cast<double>()); }

std::string str(const std::string& s) { return "\"" + s + "\""; }

// The fields of an object: names and already-encoded values.
using Fields = std::vector<std::pair<const char*, std::string>>;

// {"k1":v1,"k2":v2,...} from already-encoded values.
std::string obj(const Fields& fields) {
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : fields) {
    s += (first ? "" : ",") + str(k) + ":" + v;
    first = false;
  }
  return s + "}";
}

struct Golden {
  std::vector<std::string> calls;
  /// One call: the JS function name, its argument list, and the fields of its result.
  void add(const char* fn, const std::string& args, const std::string& result) {
    calls.push_back(obj({{"fn", str(fn)}, {"args", args}, {"result", result}}));
  }
  std::string text() const {
    std::string s = "[\n";
    for (std::size_t i = 0; i < calls.size(); ++i) s += (i ? ",\n" : "") + calls[i];
    return s + "\n]\n";
  }
};

void attention_calls(Golden& g) {
  const MatrixXd Q = literals::mat({{0.3, -1.2, 2.5}, {1.7, 0.4, -0.9}, {-2.2, 1.1, 0.6}, {0.8, 0.8, 0.8}});
  const MatrixXd K = literals::mat({{1.5, -0.3, 0.2}, {-0.7, 2.1, 1.3}, {0.9, 0.9, -1.8}, {2.4, -1.6, 0.5}});
  const MatrixXd V = literals::mat({{1, 0}, {0, 1}, {0.5, -0.5}, {-1, 2}});
  for (bool causal : {false, true}) {
    llmmath::AttentionOptions o;
    o.causal = causal;
    const auto r = llmmath::attention(Q, K, V, o);
    g.add("attention", "[" + mat(Q) + "," + mat(K) + "," + mat(V) + "," +
                           obj({{"causal", causal ? "true" : "false"}}) + "]",
          obj({{"scores", mat(r.scores)}, {"weights", mat(r.weights)}, {"output", mat(r.output)}}));
  }
  for (double n : {0.0, 7.0, 12345.0}) {
    const auto r = llmmath::context_dilution(1.25, -0.5, n);
    g.add("contextDilution",
          "[" + obj({{"relevantScore", num(1.25)}, {"distractorScore", num(-0.5)}, {"distractors", num(n)}}) + "]",
          obj({{"relevantWeight", num(r.relevant_weight)}}));
  }
  const VectorXd n = literals::vec({0, 1, 7, 100, 12345, 9007199254740992.0});
  const auto d = llmmath::context_dilution_sweep(1.25, -0.5, n);
  g.add("contextDilutionSweep",
        "[" + obj({{"relevantScore", num(1.25)}, {"distractorScore", num(-0.5)}, {"distractors", vec(n)}}) + "]",
        obj({{"distractors", vec(d.distractors)}, {"relevantWeight", vec(d.relevant_weight)},
             {"distractorWeight", vec(d.distractor_weight)}, {"distractorMass", vec(d.distractor_mass)}}));
}

void sampling_calls(Golden& g) {
  const VectorXd z = literals::vec({2.0, 1.5, 0.3, -0.7, 1.5, -2.0, 0.9});
  struct Opts { double T, k, p; };
  for (const Opts o : {Opts{1, 0, 1}, Opts{0.7, 0, 0.9}, Opts{1.6, 4, 1}, Opts{0, 0, 1},
                       Opts{1.2, 5, 0.75}}) {
    llmmath::SamplingInput in;
    in.logits = z;
    llmmath::SamplingOptions options;
    options.temperature = o.T;
    options.top_k = o.k;
    options.top_p = o.p;
    const auto r = llmmath::sampling(in, options);
    g.add("sampling", "[" + obj({{"logits", vec(z)}}) + "," +
                          obj({{"temperature", num(o.T)}, {"topK", num(o.k)}, {"topP", num(o.p)}}) + "]",
          obj({{"probs", vec(r.probs)}, {"kept", ivec(r.kept)}, {"tempered", vec(r.tempered)},
               {"cumulative", vec(r.cumulative)}, {"cutoff", num(r.cutoff)},
               {"keptMass", num(r.kept_mass)}, {"topKMass", num(r.top_k_mass)},
               {"topKProbs", vec(r.top_k_probs)}}));
  }
  // draws: integers, which must agree exactly
  const VectorXd p = literals::vec({0.05, 0.3, 0, 0.25, 0.4, 0});
  for (double seed : {0.0, 1.0, 42.0, 4294967295.0}) {
    const auto draws = llmmath::sample(p, 200, seed);
    g.add("sample", "[" + vec(p) + "," + obj({{"count", num(200)}, {"seed", num(seed)}}) + "]",
          ivec(draws));
  }
}

void moe_calls(Golden& g) {
  const MatrixXd L = literals::mat({{1.2, -0.3, 0.8, 0.1}, {0.2, 2.2, -1.0, 0.4}, {-0.5, 0.3, 0.3, 1.9},
                             {2.5, 0.0, -0.2, 0.6}, {0.7, 0.7, 0.1, -1.3}});
  for (double k : {1.0, 2.0}) {
    const auto r = llmmath::moe_route(L, k);
    g.add("moeRoute", "[" + mat(L) + "," + num(k) + "]",
          obj({{"assignments", mat(r.assignments.cast<double>())}, {"f", vec(r.f)}, {"p", vec(r.p)},
               {"loss", num(r.loss)}, {"probs", mat(r.probs)}}));
  }
  const VectorXd f = literals::vec({0.4, 0.3, 0.2, 0.1}), pr = literals::vec({0.1, 0.2, 0.3, 0.4});
  g.add("moeLoadBalance", "[" + vec(f) + "," + vec(pr) + "]",
        obj({{"loss", num(llmmath::moe_load_balance(f, pr).loss)}}));
}

void rope_calls(Golden& g) {
  const VectorXd q = literals::vec({0.6, -1.1, 0.9, 0.2, -0.4, 1.3}), k = literals::vec({1.0, 0.5, -0.8, 0.7, 0.3, -0.2});
  for (const char* pairing : {"interleaved", "half"}) {
    llmmath::RopeOptions o;
    o.pairing = std::string(pairing) == "half" ? llmmath::RopePairing::half
                                               : llmmath::RopePairing::interleaved;
    o.base = 500;
    const auto r = llmmath::rope(q, k, 37, 12, o);
    g.add("rope", "[" + vec(q) + "," + vec(k) + ",37,12," +
                      obj({{"pairing", str(pairing)}, {"base", num(500)}}) + "]",
          obj({{"qRotated", vec(r.q_rotated)}, {"kRotated", vec(r.k_rotated)}, {"raw", num(r.raw)},
               {"scaled", num(r.scaled)}, {"offset", num(r.offset)}}));
  }
  const VectorXd offsets = literals::vec({-300, -3, 0, 1, 17, 2500});
  const auto scores = llmmath::rope_scores(q, k, offsets);
  g.add("ropeScores", "[" + vec(q) + "," + vec(k) + "," + vec(offsets) + "]",
        obj({{"raw", vec(scores.raw)}, {"scaled", vec(scores.scaled)}}));
}

void alibi_calls(Golden& g) {
  g.add("alibi", "[" + obj({{"slope", num(0.03)}, {"distances", num(50)}}) + "]",
        obj({{"halfDistance", num(llmmath::alibi(0.03).half_distance)},
             {"relativeWeight", vec(llmmath::alibi_decay(0.03, 50))}}));
  for (double h : {8.0, 12.0, 100.0}) g.add("alibiSlopes", "[" + num(h) + "]", vec(llmmath::alibi_slopes(h)));
  const auto head = [](const llmmath::AlibiHead& x) {
    return obj({{"head", num(x.head)}, {"slope", num(x.slope)}, {"halfDistance", num(x.half_distance)}});
  };
  for (double h : {12.0, 40.0, 64.0}) {
    const auto r = llmmath::alibi_heads(h);
    g.add("alibiHeads", "[" + num(h) + "]",
          obj({{"halfDistances", vec(r.half_distances)}, {"steepest", head(r.steepest)},
               {"gentlest", head(r.gentlest)}}));
  }
  const auto a = llmmath::alibi(0.0625, 5.0);
  std::string bias = "[";
  for (Eigen::Index i = 0; i < a.bias->rows(); ++i) {
    bias += std::string(i ? "," : "") + "[";
    for (Eigen::Index j = 0; j < a.bias->cols(); ++j)
      bias += std::string(j ? "," : "") + (j <= i ? num((*a.bias)(i, j)) : "null");
    bias += "]";
  }
  g.add("alibi", "[" + obj({{"slope", num(0.0625)}, {"tokens", num(5)}}) + "]",
        obj({{"halfDistance", num(a.half_distance)}, {"bias", bias + "]"}}));
}

void cost_calls(Golden& g) {
  llmmath::AttentionCostConfig c;
  c.tokens = 131072;
  c.heads = 64;
  c.head_dim = 128;
  c.layers = 80;
  c.kv_heads = 8;
  c.batch = 16;
  c.bytes_per_value = 0.5;
  const auto r = llmmath::attention_cost(c);
  g.add("attentionCost",
        "[" + obj({{"tokens", num(c.tokens)}, {"heads", num(c.heads)}, {"headDim", num(c.head_dim)},
                   {"layers", num(c.layers)}, {"kvHeads", num(*c.kv_heads)}, {"batch", num(c.batch)},
                   {"bytesPerValue", num(c.bytes_per_value)}}) + "]",
        obj({{"scoresPerHead", num(r.scores_per_head)}, {"scoresPerLayer", num(r.scores_per_layer)},
             {"kvValuesPerLayer", num(r.kv_values_per_layer)}, {"kvValues", num(r.kv_values)},
             {"kvBytes", num(r.kv_bytes)}, {"qkMacsPerLayer", num(r.qk_macs_per_layer)},
             {"avMacsPerLayer", num(r.av_macs_per_layer)}, {"macsPerLayer", num(r.macs_per_layer)}}));
  for (const auto& [tokens, kv, gated] : {std::tuple{4096.0, 32.0, true}, std::tuple{1073741824.0, 8.0, false}}) {
    llmmath::AttentionCostConfig l;
    l.tokens = tokens;
    l.heads = 32;
    l.head_dim = 128;
    l.layers = 32;
    l.kv_heads = kv;
    l.d_model = 4096;
    l.ffn_dim = 11008;
    l.gated = gated;
    const auto x = llmmath::attention_cost(l);
    g.add("attentionCost",
          "[" + obj({{"tokens", num(l.tokens)}, {"heads", num(l.heads)}, {"headDim", num(l.head_dim)},
                     {"layers", num(l.layers)}, {"kvHeads", num(kv)}, {"dModel", num(*l.d_model)},
                     {"ffnDim", num(*l.ffn_dim)}, {"gated", gated ? "true" : "false"}}) + "]",
          obj({{"scoresPerHead", num(x.scores_per_head)}, {"kvBytes", num(x.kv_bytes)},
               {"macs", num(x.macs)}, {"macsPerLayer", num(x.macs_per_layer)},
               {"projectionMacsPerLayer", num(*x.projection_macs_per_layer)},
               {"ffnMacsPerLayer", num(*x.ffn_macs_per_layer)},
               {"linearMacsPerLayer", num(*x.linear_macs_per_layer)},
               {"crossoverTokens", num(*x.crossover_tokens)}, {"attentionShare", num(*x.attention_share)}}));
  }
  // the sweeps: counts past 2^53 (correctly rounded), with and without the linear layers
  const VectorXd tokens = literals::vec({1, 512, 4096, 131072, 131169, 1073741824.0});
  for (const bool linear : {false, true}) {
    llmmath::AttentionCostConfig l;
    l.heads = 32;
    l.head_dim = 128;
    l.layers = 32;
    l.kv_heads = 8;
    l.batch = 3;
    l.bytes_per_value = 0.5;
    Fields args = {{"heads", num(l.heads)}, {"headDim", num(l.head_dim)}, {"layers", num(l.layers)},
                   {"kvHeads", num(*l.kv_heads)}, {"batch", num(l.batch)},
                   {"bytesPerValue", num(l.bytes_per_value)}, {"tokens", vec(tokens)}};
    if (linear) {
      l.d_model = 4096;
      l.ffn_dim = 14336;
      l.gated = true;
      args.insert(args.end(), {{"dModel", num(*l.d_model)}, {"ffnDim", num(*l.ffn_dim)}, {"gated", "true"}});
    }
    const auto x = llmmath::attention_cost_sweep(l, tokens);
    Fields result = {{"tokens", vec(x.tokens)}, {"scoresPerLayer", vec(x.scores_per_layer)},
                     {"kvValuesPerLayer", vec(x.kv_values_per_layer)}, {"kvBytes", vec(x.kv_bytes)},
                     {"macsPerLayer", vec(x.macs_per_layer)}};
    if (linear) result.emplace_back("linearMacsPerLayer", vec(*x.linear_macs_per_layer));
    g.add("attentionCostSweep", "[" + obj(args) + "]", obj(result));
  }
}

void speculative_calls(Golden& g) {
  for (double alpha : {0.0, 0.6, 0.999999, 1.0}) {
    const auto s = llmmath::speculative_decoding(alpha, 5, 0.05);
    g.add("speculativeDecoding",
          "[" + obj({{"alpha", num(alpha)}, {"gamma", num(5)}, {"costRatio", num(0.05)}}) + "]",
          obj({{"expectedTokens", num(s.expected_tokens)}, {"ceiling", num(s.ceiling)},
               {"speedup", num(*s.speedup)}, {"numerator", num(s.numerator)}}));
  }
  const VectorXd gammas = literals::vec({0, 1, 2, 3, 5, 8, 13, 1024});
  for (const double alpha : {0.8, 0.999999}) {
    const auto s = llmmath::speculative_sweep(alpha, gammas, 0.05);
    g.add("speculativeSweep",
          "[" + obj({{"alpha", num(alpha)}, {"gamma", vec(gammas)}, {"costRatio", num(0.05)}}) + "]",
          obj({{"gamma", vec(s.gamma)}, {"expectedTokens", vec(s.expected_tokens)},
               {"roundCost", vec(*s.round_cost)}, {"speedup", vec(*s.speedup)},
               {"bestGamma", num(*s.best_gamma)}, {"bestSpeedup", num(*s.best_speedup)}}));
  }
  const auto e = llmmath::speculative_sweep(0.6, gammas);  // no cost ratio: eq. 1 alone
  g.add("speculativeSweep", "[" + obj({{"alpha", num(0.6)}, {"gamma", vec(gammas)}}) + "]",
        obj({{"gamma", vec(e.gamma)}, {"expectedTokens", vec(e.expected_tokens)}}));
  for (const auto& [mean, gamma] : {std::pair{1.875, 3.0}, std::pair{2.25, 3.0}, std::pair{1.0, 5.0},
                                    std::pair{700.0, 1024.0}}) {
    const auto r = llmmath::speculative_alpha(mean, gamma);
    g.add("speculativeAlpha", "[" + obj({{"meanTokens", num(mean)}, {"gamma", num(gamma)}}) + "]",
          obj({{"alpha", num(r.alpha)}, {"expectedTokens", num(r.expected_tokens)}}));
  }
  // counts: integers, which must agree exactly, native and WebAssembly
  for (const auto& [alpha, gamma, rounds, seed] :
       {std::tuple{0.5, 3.0, 10000.0, 0.0}, std::tuple{0.8, 5.0, 2000.0, 4294967295.0},
        std::tuple{0.3, 1.0, 777.0, 42.0}}) {
    const auto r = llmmath::speculative_measure(alpha, gamma, rounds, seed);
    g.add("speculativeMeasure",
          "[" + obj({{"alpha", num(alpha)}, {"gamma", num(gamma)}, {"rounds", num(rounds)},
                     {"seed", num(seed)}}) + "]",
          obj({{"proposed", num(r.proposed)}, {"checked", num(r.checked)}, {"accepted", num(r.accepted)},
               {"tokens", num(r.tokens)}, {"tokenCounts", vec(r.token_counts)},
               {"acceptedPerProposed", num(r.accepted_per_proposed)},
               {"acceptedPerChecked", num(r.accepted_per_checked)},
               {"alphaFromMeanTokens", num(r.alpha_from_mean_tokens)},
               {"expectedTokens", num(r.expected_tokens)},
               {"expectedTokensPerProposed", num(r.expected_tokens_per_proposed)},
               {"expectedTokensPerChecked", num(r.expected_tokens_per_checked)},
               {"expectedTokensFromMeanTokens", num(r.expected_tokens_from_mean_tokens)}}));
  }
}

void quantization_calls(Golden& g) {
  const VectorXd x = literals::vec({8.0, 0.3, 1.7, 0.05}), w = literals::vec({0.5, 1.2, 0.2, 2.0});
  const VectorXd zx = literals::vec({8.0, 0.0, 3.0, 0.0}), zw = literals::vec({0.0, 0.5, 1e-7, 0.0});
  for (double alpha : {0.0, 0.5}) {  // all-zero channels: the reference code's clamps
    const auto r = llmmath::smooth_quant(zx, zw, alpha);
    g.add("smoothQuant", "[" + vec(zx) + "," + vec(zw) + "," + num(alpha) + "]",
          obj({{"scales", vec(r.scales)}, {"xAbsMax", vec(r.x_abs_max)}, {"wAbsMax", vec(r.w_abs_max)}}));
  }
  for (double alpha : {0.0, 0.5, 0.85, 1.0}) {
    const auto r = llmmath::smooth_quant(x, w, alpha);
    g.add("smoothQuant", "[" + vec(x) + "," + vec(w) + "," + num(alpha) + "]",
          obj({{"scales", vec(r.scales)}, {"xAbsMax", vec(r.x_abs_max)}, {"wAbsMax", vec(r.w_abs_max)}}));
  }
  const MatrixXd X = literals::mat({{0.4, -30, 0.2}, {-0.7, 25, -0.3}, {0.1, -28, 0.5}});
  const MatrixXd W = literals::mat({{0.3, -0.2}, {0.05, 0.04}, {-0.6, 0.9}});
  for (double alpha : {0.0, 0.5, 0.8}) {
    const auto r = llmmath::smooth_quant_layer(X, W, alpha, 6);
    g.add("smoothQuantLayer",
          "[" + mat(X) + "," + mat(W) + "," + obj({{"alpha", num(alpha)}, {"bits", num(6)}}) + "]",
          obj({{"scales", vec(r.smoothing.scales)}, {"xSmoothed", mat(r.x_smoothed)},
               {"quantXSmoothed", obj({{"levels", vec(r.quant_x_smoothed.levels)}, {"scale", num(r.quant_x_smoothed.scale)}})},
               {"yQuantizedSmoothed", mat(r.y_quantized_smoothed)}, {"errorQuantized", num(r.error_quantized)},
               {"errorQuantizedSmoothed", num(r.error_quantized_smoothed)}}));
  }
  const VectorXd alphas = literals::vec({0, 0.25, 0.5, 0.8, 1});
  for (double bits : {6.0, 8.0}) {
    const auto r = llmmath::smooth_quant_layer_sweep(X, W, alphas, bits);
    g.add("smoothQuantLayerSweep",
          "[" + mat(X) + "," + mat(W) + "," + obj({{"alpha", vec(alphas)}, {"bits", num(bits)}}) + "]",
          obj({{"alpha", vec(r.alpha)}, {"quantXSmoothedMaxAbsError", vec(r.quant_x_smoothed_max_abs_error)},
               {"quantWSmoothedMaxAbsError", vec(r.quant_w_smoothed_max_abs_error)}}));
  }
  const VectorXd v = literals::vec({0.91, -3.3, 0.004, 2.5, -0.75, 12.8, 0.0, -12.8});
  for (double bits : {2.0, 4.0, 8.0, 16.0}) {
    const auto r = llmmath::quantize(v, bits);
    g.add("quantize", "[" + vec(v) + "," + obj({{"bits", num(bits)}}) + "]",
          obj({{"scale", num(r.scale)}, {"levels", vec(r.levels)}, {"dequantized", vec(r.dequantized)},
               {"maxAbsError", num(r.max_abs_error)}}));
  }
}

// The golden file's tolerance, the same as tests/js/golden.test.js applies to the wasm build:
// integers (draws, counts, indices) exactly, other numbers within 1e-13 relative, because glibc's,
// musl's and Emscripten's exp, log and pow are not all correctly rounded, so another machine's
// native build may differ from the committed file in the last bits.
constexpr double golden_relative_tolerance = 1e-13;

// Where `committed` and `written` differ beyond that tolerance ("" if nowhere). Both texts come
// from this program's writer, so they agree character for character outside numbers; each
// number is read whole (strtod) from both at the same place and compared.
std::string first_difference(const std::string& committed, const std::string& written) {
  std::size_t i = 0, j = 0;
  const auto starts_number = [](const std::string& s, std::size_t k) {
    return k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == '-');
  };
  while (i < committed.size() && j < written.size()) {
    if (starts_number(committed, i) && starts_number(written, j)) {
      char* end_c = nullptr;
      char* end_w = nullptr;
      const double e = std::strtod(committed.c_str() + i, &end_c);
      const double a = std::strtod(written.c_str() + j, &end_w);
      const bool whole = e == std::floor(e) && std::fabs(e) < 9007199254740992.0;
      const double tolerance = whole ? 0 : golden_relative_tolerance * std::fmax(1, std::fabs(e));
      if (!(std::fabs(a - e) <= tolerance))
        return "at character " + std::to_string(i) + ": " + num(e) + " committed, " + num(a) + " now";
      i = std::size_t(end_c - committed.c_str());
      j = std::size_t(end_w - written.c_str());
      continue;
    }
    if (committed[i] != written[j]) return "at character " + std::to_string(i);
    ++i;
    ++j;
  }
  return i == committed.size() && j == written.size() ? "" : "the lengths differ";
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::cerr << "usage: llmmath_golden FILE | llmmath_golden --check FILE\n";
    return 2;
  }
  Golden g;
  attention_calls(g);
  sampling_calls(g);
  moe_calls(g);
  rope_calls(g);
  alibi_calls(g);
  cost_calls(g);
  speculative_calls(g);
  quantization_calls(g);
  const std::string file = argv[argc - 1];
  if (check) {
    std::ifstream in(file);
    std::stringstream committed;
    committed << in.rdbuf();
    if (const std::string where = first_difference(committed.str(), g.text()); !where.empty()) {
      std::cerr << file << " is not what this build writes (" << where << "): regenerate it with "
                << "build/native/tests/core/llmmath_golden " << file << "\n";
      return 1;
    }
    std::cout << file << " matches the native build (" << g.calls.size() << " calls)\n";
    return 0;
  }
  std::ofstream(file) << g.text();
  std::cout << "wrote " << g.calls.size() << " calls to " << file << "\n";
  return 0;
}
