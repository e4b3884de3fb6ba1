#include "llmmath/speculative.hpp"

#include <cmath>
#include <limits>

#include "llmmath/check.hpp"

namespace llmmath {

SpeculativeResult speculative_decoding(double alpha, double gamma,
                                       std::optional<double> cost_ratio) {
  require_finite(alpha, "alpha");
  require(alpha >= 0 && alpha <= 1, "alpha", "in [0, 1]", describe(alpha));
  require_integer(gamma, "gamma", 0, max_draft_length);
  if (cost_ratio) {
    require_finite(*cost_ratio, "costRatio");
    require(*cost_ratio >= 0, "costRatio", "a number ≥ 0", describe(*cost_ratio));
  }

  SpeculativeResult r;
  r.all_accepted = std::pow(alpha, gamma + 1);
  r.denominator = 1 - alpha;
  r.numerator = 1 - r.all_accepted;
  if (alpha == 1) {
    // Every draft token is accepted: γ + 1 tokens per call, without bound as γ grows.
    r.expected_tokens = gamma + 1;
    r.ceiling = std::numeric_limits<double>::infinity();
  } else {
    // Numerator 1 − α^(γ+1). While α^(γ+1) ≤ 1/2 the difference loses nothing and is exact
    // when the power is (α = 0.5, γ = 3 gives 0.9375 exactly). Above 1/2, as α → 1, the
    // difference would cancel, so it is computed as −expm1((γ+1)·ln α) to full relative
    // precision. γ = 0 is exactly one token. The denominator 1 − α is exact for α ≥ 1/2
    // (Sterbenz). The result never exceeds the ceiling: the numerator is at most 1 and
    // rounding a quotient is monotone.
    const double power = std::pow(alpha, gamma + 1);
    const double numerator =
        power <= 0.5 ? 1 - power : -std::expm1((gamma + 1) * std::log(alpha));
    r.numerator = numerator;
    r.expected_tokens = gamma == 0 ? 1.0 : numerator / (1 - alpha);
    r.ceiling = 1 / (1 - alpha);
  }
  if (cost_ratio) {
    r.round_cost = gamma * *cost_ratio + 1;
    r.speedup = r.expected_tokens / *r.round_cost;
  }

  // The number of tokens per call is 1 + (accepted draft tokens), capped at γ + 1.
  const auto g = static_cast<Eigen::Index>(gamma);
  r.token_probs.resize(g + 1);
  double alpha_j = 1;  // α^j, built by repeated multiplication (j ≤ 1024 factors)
  for (Eigen::Index j = 0; j < g; ++j) {
    r.token_probs(j) = alpha_j * (1 - alpha);
    alpha_j *= alpha;
  }
  r.token_probs(g) = alpha_j;
  return r;
}

}  // namespace llmmath
