// Speculative decoding (Leviathan et al. 2023): a cheap draft model proposes gamma tokens, the
// target model checks them all in one call and keeps the accepted prefix plus one token of its
// own. With acceptance rate alpha, each target call yields a capped geometric number of tokens.
// Chapter 8, section 5; tests in tests/core/test_speculative.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "llmmath/fields.hpp"

namespace llmmath {

/// Largest draft length accepted: 1024 tokens, far beyond useful drafts (the paper's best
/// settings are below 10), and the length of the token_probs a page draws.
constexpr double max_draft_length = 1024.0;

/// Largest cost ratio c accepted: γ·c + 1 ≤ 1024·1e300 + 1 stays finite (a c of 1e308 would
/// make the round cost infinite and the speedup 0), far beyond any real draft (c < 1).
constexpr double max_cost_ratio = 1e300;

/// Tokens per target call and, given the cost ratio, the walltime improvement.
struct SpeculativeResult {
  /// E[tokens per target call] = (1 − α^(γ+1)) / (1 − α) (Leviathan et al. 2023, eq. 1);
  /// γ + 1 at α = 1
  double expected_tokens = 0;
  /// 1 / (1 − α), the limit of expected_tokens as γ grows; +Infinity at α = 1
  double ceiling = 0;
  /// α^(γ+1), the term eq. 1 subtracts from 1
  double all_accepted = 0;
  /// 1 − α^(γ+1), eq. 1's numerator (0 at α = 1, where the limit γ + 1 is used instead)
  double numerator = 0;
  /// 1 − α, eq. 1's denominator
  double denominator = 0;
  /// γ·c + 1: the cost of one draft-and-verify round in target steps; present with c
  std::optional<double> round_cost;
  /// expected_tokens / (γ·c + 1), the expected walltime improvement factor (Theorem 3.8);
  /// present only when the cost ratio c is given
  std::optional<double> speedup;
  /// (γ + 1) entry j: the probability that one target call yields exactly j + 1 tokens,
  /// α^j·(1 − α) for j < γ and α^γ for j = γ (§3.1); it sums to 1 and its mean is
  /// expected_tokens
  Eigen::VectorXd token_probs;
};

/// The fields of SpeculativeResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SpeculativeResult& r, Visit&& visit) {
  LLMMATH_FIELD(expected_tokens);
  LLMMATH_FIELD(ceiling);
  LLMMATH_FIELD(speedup);
  LLMMATH_FIELD(all_accepted);
  LLMMATH_FIELD(numerator);
  LLMMATH_FIELD(denominator);
  LLMMATH_FIELD(round_cost);
  LLMMATH_FIELD(token_probs);
}

/// Expected tokens per target call of speculative decoding (Leviathan et al. 2023, eq. 1) and
/// its walltime improvement factor (Theorem 3.8) when a draft step costs c target steps.
/// alpha: acceptance rate in [0, 1] (the paper's α, E[β]); gamma: draft length, a whole
/// number in [0, 1024]; cost_ratio: c in [0, 1e300], or empty for no speedup. Every result is
/// finite except ceiling at α = 1, and none is −0 (α = −0 is taken as 0).
/// Near α = 1 (once α^(γ+1) > 1/2) the numerator 1 − α^(γ+1) is computed as
/// −expm1((γ+1)·ln α), so it does not cancel; α = 1 is the limit γ + 1, not an error.
/// Preconditions (std::invalid_argument naming alpha, gamma or cost_ratio otherwise): as above.
SpeculativeResult speculative_decoding(double alpha, double gamma,
                                       std::optional<double> cost_ratio = std::nullopt);

/// speculative_decoding() at one α over several draft lengths, for the curves of figure 5.1,
/// and the draft length the figure recommends.
struct SpeculativeSweep {
  Eigen::VectorXd gamma;            ///< (points) the draft lengths, as given
  Eigen::VectorXd expected_tokens;  ///< (points) eq. 1 at each γ
  /// (points) γ·c + 1 at each γ; present with the cost ratio c
  std::optional<Eigen::VectorXd> round_cost;
  /// (points) expected_tokens / (γ·c + 1) at each γ; present with c
  std::optional<Eigen::VectorXd> speedup;
  /// With c: the γ of the sweep with the largest speedup, the first of the given order on a
  /// tie (with γ ascending, the shortest draft: the cheaper one to run)
  std::optional<double> best_gamma;
  std::optional<double> best_speedup;  ///< the speedup at best_gamma
};

/// The fields of SpeculativeSweep, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SpeculativeSweep& r, Visit&& visit) {
  LLMMATH_FIELD(gamma);
  LLMMATH_FIELD(expected_tokens);
  LLMMATH_FIELD(round_cost);
  LLMMATH_FIELD(speedup);
  LLMMATH_FIELD(best_gamma);
  LLMMATH_FIELD(best_speedup);
}

/// speculative_decoding(alpha, γ, cost_ratio) for every γ of `gamma`, in one call.
/// Preconditions (std::invalid_argument naming alpha, gamma, gamma[i] or cost_ratio): those of
/// speculative_decoding() for each γ, and 1 to max_sweep_points draft lengths.
SpeculativeSweep speculative_sweep(double alpha, const Eigen::VectorXd& gamma,
                                   std::optional<double> cost_ratio = std::nullopt);

/// The acceptance rate that eq. 1 maps to a measured mean: α from tokens per target call.
struct SpeculativeAlphaResult {
  /// α in [0, 1] with (1 − α^(γ+1)) / (1 − α) = mean_tokens, to within 1e-12 (bisection)
  double alpha = 0;
  /// eq. 1 at the solved α, which reproduces mean_tokens up to rounding: the check
  double expected_tokens = 0;
};

/// The fields of SpeculativeAlphaResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SpeculativeAlphaResult& r, Visit&& visit) {
  LLMMATH_FIELD(alpha);
  LLMMATH_FIELD(expected_tokens);
}

/// The inverse of eq. 1 (Leviathan et al. 2023): the acceptance rate α at which γ drafts per
/// call give mean_tokens tokens per target call on average. eq. 1 grows strictly with α on
/// [0, 1], from 1 to γ + 1, so there is exactly one such α; it is found by bisection of
/// speculative_decoding()'s own expected_tokens until the bracket is two neighbouring doubles
/// (about 60 halvings), well within the 1e-12 the round trip α → eq. 1 → α is tested to.
/// mean_tokens: a number in [1, γ + 1] (1 gives α = 0, γ + 1 gives α = 1); gamma: a whole
/// number in [1, 1024] (with γ = 0 every call yields one token, whatever α).
/// Preconditions (std::invalid_argument naming mean_tokens or gamma otherwise): as above.
SpeculativeAlphaResult speculative_alpha(double mean_tokens, double gamma);

/// Largest `rounds` of speculative_measure(): a million target calls, as sample()'s count.
constexpr double max_speculative_rounds = 1e6;

/// Largest rounds·γ of speculative_measure(): at most 10^7 uniform draws, 20 ms through the
/// JavaScript API on the reference machine.
constexpr double max_speculative_draws = 1e7;

/// What a practitioner logs over many rounds of speculative decoding, and three estimates of
/// α from those logs, of which only the last two measure α under the model of eq. 1.
struct SpeculativeMeasureResult {
  double rounds = 0;    ///< target calls simulated, one per round
  double proposed = 0;  ///< draft tokens proposed: rounds·γ
  /// draft tokens the target actually checked: each round stops at its first rejection, so
  /// the drafts after it are never checked (E = rounds·(1 − α^γ)/(1 − α))
  double checked = 0;
  double accepted = 0;  ///< draft tokens accepted (E = rounds·(α + α² + … + α^γ))
  /// tokens produced: accepted + rounds, since each call adds one token of the target's own
  /// (the correction after a rejection, or the bonus token when all γ are accepted)
  double produced = 0;
  double mean_tokens = 0;  ///< produced / rounds, whose expectation is eq. 1
  /// (γ + 1) entry j: the rounds that produced j + 1 tokens (compare token_probs · rounds)
  Eigen::VectorXd token_counts;
  /// accepted / proposed: the naive estimate, which does NOT measure α: its expectation is
  /// (α + … + α^γ) / γ, 0.2917 at α = 0.5, γ = 3
  double accepted_per_proposed = 0;
  /// accepted / checked: each checked draft is accepted with probability α, so this is α's
  /// natural estimate (the ratio of the two expectations is exactly α)
  double accepted_per_checked = 0;
  /// speculative_alpha(mean_tokens, γ): α solved from the mean tokens per call
  double alpha_from_mean_tokens = 0;
  /// eq. 1 at the true α, the mean_tokens to expect
  double expected_tokens = 0;
  /// eq. 1 at each estimate: the tokens per call a practitioner would predict from it (the
  /// naive estimate predicts too few; the other two reproduce the log's mean)
  double expected_tokens_per_proposed = 0;      ///< at accepted_per_proposed
  double expected_tokens_per_checked = 0;       ///< at accepted_per_checked
  double expected_tokens_from_mean_tokens = 0;  ///< at alpha_from_mean_tokens
};

/// The fields of SpeculativeMeasureResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SpeculativeMeasureResult& r, Visit&& visit) {
  LLMMATH_FIELD(rounds);
  LLMMATH_FIELD(proposed);
  LLMMATH_FIELD(checked);
  LLMMATH_FIELD(accepted);
  LLMMATH_FIELD(produced);
  LLMMATH_FIELD(mean_tokens);
  LLMMATH_FIELD(token_counts);
  LLMMATH_FIELD(accepted_per_proposed);
  LLMMATH_FIELD(accepted_per_checked);
  LLMMATH_FIELD(alpha_from_mean_tokens);
  LLMMATH_FIELD(expected_tokens);
  LLMMATH_FIELD(expected_tokens_per_proposed);
  LLMMATH_FIELD(expected_tokens_per_checked);
  LLMMATH_FIELD(expected_tokens_from_mean_tokens);
}

/// A seeded simulation of `rounds` rounds of speculative decoding under the model of eq. 1
/// (Leviathan et al. 2023, §3.1: each draft token is accepted independently with probability
/// α): in each round the drafts are checked in order, draft i accepted when the next uniform
/// u of SplitMix64 (seeded with `seed`, one 64-bit output per checked draft) is below α, and
/// the round ends at the first rejection. The same seed gives the same counts in every build.
/// alpha in [0, 1]; gamma a whole number in [1, 1024]; rounds a whole number in [1, 10^6] with
/// rounds·γ ≤ 10^7; seed a whole number in [0, 2^32).
/// Preconditions (std::invalid_argument naming alpha, gamma, rounds or seed otherwise).
SpeculativeMeasureResult speculative_measure(double alpha, double gamma, double rounds,
                                             double seed);

}  // namespace llmmath
