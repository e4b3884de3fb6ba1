// Speculative decoding (Leviathan et al. 2023): a cheap draft model proposes gamma tokens, the
// target model checks them all in one call and keeps the accepted prefix plus one token of its
// own. With acceptance rate alpha, each target call yields a capped geometric number of tokens.
// Chapter 8, section 5; tests in tests/core/test_speculative.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

namespace llmmath {

/// Largest draft length accepted: 1024 tokens, far beyond useful drafts (the paper's best
/// settings are below 10), and the length of the token_probs a page draws.
constexpr double max_draft_length = 1024.0;

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

/// Expected tokens per target call of speculative decoding (Leviathan et al. 2023, eq. 1) and
/// its walltime improvement factor (Theorem 3.8) when a draft step costs c target steps.
/// alpha: acceptance rate in [0, 1] (the paper's α, E[β]); gamma: draft length, a whole
/// number in [0, 1024]; cost_ratio: c ≥ 0 and finite, or empty for no speedup.
/// Near α = 1 (once α^(γ+1) > 1/2) the numerator 1 − α^(γ+1) is computed as
/// −expm1((γ+1)·ln α), so it does not cancel; α = 1 is the limit γ + 1, not an error.
/// Preconditions (std::invalid_argument naming alpha, gamma or costRatio otherwise): as above.
SpeculativeResult speculative_decoding(double alpha, double gamma,
                                       std::optional<double> cost_ratio = std::nullopt);

}  // namespace llmmath
