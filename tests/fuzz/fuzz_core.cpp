// libFuzzer target: every public function of the core, driven with arbitrary shapes and values
// (Debian's clang, -fsanitize=fuzzer,address,undefined). The core's contract is that any input
// either returns a result or throws std::invalid_argument naming the argument: anything else (a
// crash, a sanitizer report, another exception, a hang) is a finding.
//
//   ./build.sh fuzz [seconds]   runs it, keeping its corpus in tests/fuzz/corpus/
//
// Each input is read by FuzzedDataProvider: the first choice picks the function, the rest of
// the bytes become its arguments. Values are drawn from a mix that reaches every branch of the
// preconditions: small whole numbers (counts, positions), moderate reals, any finite double,
// and the special values (±0, ±∞, NaN, the extremes and the smallest subnormal).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantization.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"

namespace {

using Limits = std::numeric_limits<double>;

double value(FuzzedDataProvider& in) {
  static constexpr double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, Limits::infinity(), -Limits::infinity(),
                                       Limits::quiet_NaN(), Limits::max(), Limits::lowest(), Limits::min(),
                                       Limits::denorm_min(), 1e-300, 1e300, 4096.0, 4097.0, 1048576.0,
                                       1073741824.0, 1073741825.0, 4294967296.0};
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: return in.ConsumeIntegralInRange<int>(-2, 24);
    case 1: return in.ConsumeFloatingPointInRange<double>(-20.0, 20.0);
    case 2: return in.ConsumeFloatingPoint<double>();
    case 3: return in.PickValueInArray(special);
    default: return in.ConsumeProbability<double>();
  }
}

// Shapes stay small (at most 12 a side, occasionally 0): the limits of large inputs are tested
// by the Catch2 and Node suites; here every iteration must be fast.
Eigen::Index size(FuzzedDataProvider& in, int max = 12) { return in.ConsumeIntegralInRange<int>(0, max); }

Eigen::VectorXd vec(FuzzedDataProvider& in, Eigen::Index n) {
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = value(in);
  return x;
}

Eigen::MatrixXd mat(FuzzedDataProvider& in, Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd M(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) M(i, j) = value(in);
  return M;
}

std::optional<double> maybe(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return value(in);
  return std::nullopt;
}

// The swept input of a sweep: usually a short vector from the bytes (occasionally empty), and
// now and then one value repeated at the limit of 4096 points or one past it.
Eigen::VectorXd points(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return Eigen::VectorXd::Constant(4096, value(in));
    case 1: return Eigen::VectorXd::Constant(4097, value(in));
    default: return vec(in, size(in));
  }
}

// attention_cost()'s configuration, every field from the bytes.
llmmath::AttentionCostConfig cost_config(FuzzedDataProvider& in) {
  llmmath::AttentionCostConfig c;
  c.tokens = value(in);
  c.heads = value(in);
  c.head_dim = value(in);
  c.layers = value(in);
  c.kv_heads = maybe(in);
  c.batch = value(in);
  c.bytes_per_value = value(in);
  c.d_model = maybe(in);
  c.ffn_dim = maybe(in);
  if (in.ConsumeBool()) c.gated = in.ConsumeBool();
  return c;
}

void run(FuzzedDataProvider& in) {
  using namespace llmmath;
  switch (in.ConsumeIntegralInRange<int>(0, 23)) {
    case 0: {
      const Eigen::Index nq = size(in), nk = size(in), d = size(in, 6), dv = size(in, 6);
      AttentionOptions o;
      o.causal = in.ConsumeBool();
      o.scale = maybe(in);
      attention(mat(in, nq, d), mat(in, nk, in.ConsumeBool() ? d : size(in, 6)), mat(in, nk, dv), o);
      break;
    }
    case 1: context_dilution(value(in), value(in), value(in)); break;
    case 2: {
      SamplingInput input;
      const Eigen::Index n = size(in);
      if (in.ConsumeBool()) input.logits = vec(in, n);
      if (in.ConsumeBool()) input.probs = vec(in, n);
      SamplingOptions o;
      o.temperature = value(in);
      o.top_k = value(in);
      o.top_p = value(in);
      sampling(input, o);
      break;
    }
    case 3: {
      const Eigen::Index n = size(in);
      sample(vec(in, n), vec(in, size(in)));
      break;
    }
    case 4: {
      const Eigen::Index n = size(in);
      const Eigen::VectorXd p = vec(in, n);
      // Counts are kept small: a legal count of 2^20 draws is correct but slow here.
      sample(p, in.ConsumeIntegralInRange<int>(-1, 64), value(in));
      break;
    }
    case 5:
    case 6: {
      const Eigen::Index d = size(in, 8);
      RopeOptions o;
      o.pairing = in.ConsumeBool() ? RopePairing::half : RopePairing::interleaved;
      if (in.ConsumeBool()) o.base = value(in);
      if (in.ConsumeBool()) o.freqs = vec(in, in.ConsumeBool() ? d / 2 : size(in, 5));
      const Eigen::VectorXd q = vec(in, d), k = vec(in, in.ConsumeBool() ? d : size(in, 8));
      if (in.ConsumeBool()) rope(q, k, value(in), value(in), o);
      else rope_scores(q, k, vec(in, size(in)), o);
      break;
    }
    case 7: attention_cost(cost_config(in)); break;
    case 8: speculative_decoding(value(in), value(in), maybe(in)); break;
    case 9: speculative_alpha(value(in), value(in)); break;
    case 10: {
      // Rounds are kept small for speed; their limit is tested elsewhere.
      speculative_measure(value(in), in.ConsumeIntegralInRange<int>(-1, 40), in.ConsumeIntegralInRange<int>(-1, 200), value(in));
      break;
    }
    case 11: alibi_slopes(value(in)); break;
    case 12: alibi_heads(value(in)); break;
    case 13: {
      const double slope = value(in);
      if (in.ConsumeBool()) alibi(slope, static_cast<double>(in.ConsumeIntegralInRange<int>(-1, 40)));
      else if (in.ConsumeBool()) alibi(slope);
      else alibi_decay(slope, static_cast<double>(in.ConsumeIntegralInRange<int>(-1, 100)));
      break;
    }
    case 14: {
      const Eigen::Index c = size(in);
      smooth_quant(vec(in, c), vec(in, in.ConsumeBool() ? c : size(in)), value(in));
      break;
    }
    case 15: quantize(vec(in, size(in, 16)), value(in)); break;
    case 16: {
      const Eigen::Index t = size(in, 6), c = size(in, 6), o = size(in, 6);
      smooth_quant_layer(mat(in, t, c), mat(in, in.ConsumeBool() ? c : size(in, 6), o), value(in), value(in));
      break;
    }
    case 17: {
      const Eigen::Index e = size(in);
      moe_load_balance(vec(in, e), vec(in, in.ConsumeBool() ? e : size(in)));
      break;
    }
    // the sweeps: one input swept over points(), the others as in the scalar function's case
    case 19: context_dilution_sweep(value(in), value(in), points(in)); break;
    case 20: {
      const AttentionCostConfig c = cost_config(in);  // its tokens is not read
      attention_cost_sweep(c, points(in));
      break;
    }
    case 21: speculative_sweep(value(in), points(in), maybe(in)); break;
    case 22: {
      const Eigen::Index t = size(in, 6), c = size(in, 6), o = size(in, 6);
      const Eigen::MatrixXd X = mat(in, t, c), W = mat(in, in.ConsumeBool() ? c : size(in, 6), o);
      smooth_quant_layer_sweep(X, W, points(in), value(in));
      break;
    }
    default: {
      const Eigen::Index t = size(in), e = size(in, 8);
      moe_route(mat(in, t, e), value(in));
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  try {
    run(in);
  } catch (const std::invalid_argument&) {
    // The documented answer to bad input.
  }
  return 0;
}
