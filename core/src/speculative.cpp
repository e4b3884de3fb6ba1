#include "llmmath/speculative.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "llmmath/check.hpp"
#include "llmmath/sampling.hpp"

namespace llmmath {

namespace {

// eq. 1, (1 − α^(γ+1)) / (1 − α), for α in [0, 1] and a whole γ ≥ 0. Numerator 1 − α^(γ+1):
// while α^(γ+1) ≤ 1/2 the difference loses nothing and is exact when the power is (α = 0.5,
// γ = 3 gives 0.9375 exactly). Above 1/2, as α → 1, the difference would cancel, so it is
// computed as −expm1((γ+1)·ln α) to full relative precision. γ = 0 is exactly one token and
// α = 1 the limit γ + 1. The denominator 1 − α is exact for α ≥ 1/2 (Sterbenz). The result
// never exceeds 1 / (1 − α): the numerator is at most 1 and rounding a quotient is monotone.
double expected_tokens(double alpha, double gamma, double* numerator) {
  if (alpha == 1) {
    *numerator = 0;
    return gamma + 1;
  }
  const double power = std::pow(alpha, gamma + 1);
  *numerator = power <= 0.5 ? 1 - power : -std::expm1((gamma + 1) * std::log(alpha));
  return gamma == 0 ? 1.0 : *numerator / (1 - alpha);
}

double expected_tokens(double alpha, double gamma) {
  double numerator = 0;
  return expected_tokens(alpha, gamma, &numerator);
}

void require_alpha(double alpha) {
  require_finite(alpha, "alpha");
  if (!(alpha >= 0 && alpha <= 1)) fail("alpha", "in [0, 1]", describe(alpha));
}

}  // namespace

SpeculativeResult speculative_decoding(double alpha, double gamma,
                                       std::optional<double> cost_ratio) {
  require_alpha(alpha);
  require_integer(gamma, "gamma", 0, max_draft_length);
  if (cost_ratio) {
    require_finite(*cost_ratio, "cost_ratio");
    if (!(*cost_ratio >= 0)) fail("cost_ratio", "a number ≥ 0", describe(*cost_ratio));
    if (!(*cost_ratio <= max_cost_ratio))
      fail("cost_ratio",
           "a number in [0, 1e300] (so the round cost " + api_name("gamma") + "·" +
               api_name("cost_ratio") + " + 1 stays finite)",
           describe(*cost_ratio));
  }
  // α = −0 is α = 0: +0 keeps −0 out of α^(γ+1) and α^j·(1 − α), which a page would show
  alpha += 0.0;

  SpeculativeResult r;
  r.all_accepted = std::pow(alpha, gamma + 1);
  r.denominator = 1 - alpha;
  r.expected_tokens = expected_tokens(alpha, gamma, &r.numerator);
  r.ceiling = alpha == 1 ? std::numeric_limits<double>::infinity() : 1 / (1 - alpha);
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

SpeculativeAlphaResult speculative_alpha(double mean_tokens, double gamma) {
  require_integer(gamma, "gamma", 1, max_draft_length);
  require_finite(mean_tokens, "mean_tokens");
  if (!(mean_tokens >= 1 && mean_tokens <= gamma + 1))
    fail("mean_tokens",
         "in [1, gamma + 1] = [1, " + describe(gamma + 1) + "] (one to gamma + 1 tokens per call)",
         describe(mean_tokens));

  SpeculativeAlphaResult r;
  // the ends exactly: no drafts accepted, or all of them
  if (mean_tokens == 1 || mean_tokens == gamma + 1) {
    r.alpha = mean_tokens == 1 ? 0.0 : 1.0;
    r.expected_tokens = expected_tokens(r.alpha, gamma);
    return r;
  }
  // Bisection keeps E(lo) < mean ≤ E(hi) and halves [lo, hi] until no double lies strictly
  // between: at most ~1075 steps (down to the subnormals when mean is next to 1), ~60 near 1/2.
  double lo = 0, hi = 1;
  for (;;) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (expected_tokens(mid, gamma) < mean_tokens ? lo : hi) = mid;
  }
  // of the two neighbours, the one whose eq. 1 lands nearer the mean (the lower on a tie)
  const double e_lo = expected_tokens(lo, gamma), e_hi = expected_tokens(hi, gamma);
  r.alpha = mean_tokens - e_lo <= e_hi - mean_tokens ? lo : hi;
  r.expected_tokens = r.alpha == lo ? e_lo : e_hi;
  return r;
}

SpeculativeMeasureResult speculative_measure(double alpha, double gamma, double rounds,
                                             double seed) {
  require_alpha(alpha);
  require_integer(gamma, "gamma", 1, max_draft_length);
  require_integer(rounds, "rounds", 1, max_speculative_rounds);
  if (!(rounds * gamma <= max_speculative_draws))
    fail("rounds",
         "at most 10^7 / gamma = " + describe(std::floor(max_speculative_draws / gamma)) +
             " (rounds·gamma ≤ 10^7 draft tokens)",
         describe(rounds));
  require_integer(seed, "seed", 0, 4294967295.0);  // 2^32 − 1, as sample()

  const auto g = static_cast<Eigen::Index>(gamma);
  const auto R = static_cast<std::int64_t>(rounds);
  SplitMix64 rng{static_cast<std::uint64_t>(seed)};
  std::int64_t checked = 0, accepted = 0;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(g) + 1, 0);
  for (std::int64_t t = 0; t < R; ++t) {
    // one round: drafts checked in order until the first rejection (u < α accepts, so α = 0
    // never accepts and α = 1 always does, since u < 1)
    Eigen::Index a = 0;
    while (a < g) {
      ++checked;
      if (!(rng.uniform() < alpha)) break;
      ++a;
    }
    accepted += a;
    ++counts[static_cast<std::size_t>(a)];  // a accepted drafts: a + 1 tokens
  }

  SpeculativeMeasureResult r;
  r.rounds = rounds;
  r.proposed = rounds * gamma;  // ≤ 10^7: exact
  r.checked = double(checked);
  r.accepted = double(accepted);
  r.produced = double(accepted + R);
  r.mean_tokens = r.produced / rounds;
  r.token_counts.resize(g + 1);
  for (Eigen::Index j = 0; j <= g; ++j) r.token_counts(j) = double(counts[std::size_t(j)]);
  r.accepted_per_proposed = r.accepted / r.proposed;
  r.accepted_per_checked = r.accepted / r.checked;  // checked ≥ rounds ≥ 1, as γ ≥ 1
  r.alpha_from_mean_tokens = speculative_alpha(r.mean_tokens, gamma).alpha;
  r.expected_tokens = expected_tokens(alpha, gamma);
  r.expected_tokens_per_proposed = expected_tokens(r.accepted_per_proposed, gamma);
  r.expected_tokens_per_checked = expected_tokens(r.accepted_per_checked, gamma);
  r.expected_tokens_from_mean_tokens = expected_tokens(r.alpha_from_mean_tokens, gamma);
  return r;
}

SpeculativeSweep speculative_sweep(double alpha, const Eigen::VectorXd& gamma,
                                   std::optional<double> cost_ratio) {
  require_alpha(alpha);
  require_sweep_length(gamma, "gamma");
  require_integers(gamma, "gamma", 0, max_draft_length);
  const Eigen::Index m = gamma.size();
  SpeculativeSweep r;
  r.gamma = gamma;
  r.expected_tokens.resize(m);
  if (cost_ratio) {
    r.round_cost = Eigen::VectorXd(m);
    r.speedup = Eigen::VectorXd(m);
  }
  for (Eigen::Index i = 0; i < m; ++i) {
    // one point of speculative_decoding(), which also checks cost_ratio (on the first point)
    const SpeculativeResult p = speculative_decoding(alpha, gamma(i), cost_ratio);
    r.expected_tokens(i) = p.expected_tokens;
    if (!cost_ratio) continue;
    (*r.round_cost)(i) = *p.round_cost;
    (*r.speedup)(i) = *p.speedup;
    if (!r.best_speedup || *p.speedup > *r.best_speedup) {  // strictly larger: first on a tie
      r.best_gamma = gamma(i);
      r.best_speedup = p.speedup;
    }
  }
  return r;
}

}  // namespace llmmath
