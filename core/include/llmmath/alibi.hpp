// ALiBi, attention with linear biases (Press et al. 2022): instead of position embeddings,
// each head adds −m·(i − j) to the score of query i for key j, a penalty growing linearly with
// distance, with a fixed head-specific slope m.
// Chapter 8, section 6; tests in tests/core/test_alibi.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

namespace llmmath {

/// Largest head count of alibi_slopes() (core-api.md limits).
constexpr double max_alibi_heads = 4096.0;

/// Largest sequence of alibi(), whose bias matrix then has 2^24 entries (core-api.md limits).
constexpr double max_alibi_tokens = 4096.0;

/// Smallest slope accepted by alibi(): ln 2 / slope stays a finite double (a subnormal slope
/// would overflow it).
constexpr double min_alibi_slope = 1e-300;

/// Largest slope accepted by alibi(): every bias −slope·(i − j) over 4096 tokens stays finite.
constexpr double max_alibi_slope = 1e300;

/// The h head slopes of ALiBi, as the paper's reference code computes them (Press et al. 2022,
/// §3 and its get_slopes): for h a power of two, slope_k = 2^(−8k/h), k = 1 … h, a geometric
/// sequence from 2^(−8/h) down to 2^(−8) (for 8 heads: 1/2, 1/4, …, 1/256); for other h, the
/// slopes of p, the largest power of two below h, followed by the first h − p of every other
/// slope of 2p (those at k = 1, 3, 5, …), which interleave between the first ones.
/// heads: a whole number in [1, 4096] (std::invalid_argument naming heads otherwise).
Eigen::VectorXd alibi_slopes(double heads);

/// One head's ALiBi penalty: its half-distance and, for a given length, its bias matrix.
struct AlibiResult {
  /// ln 2 / slope in tokens: at this distance the bias e^(−slope·distance) halves a key's
  /// softmax weight relative to a key at distance 0 (other things equal)
  double half_distance = 0;
  /// (tokens, tokens) −slope·(i − j) for j ≤ i (+0 on the diagonal, never −0), and −∞ for
  /// j > i, the causal mask, so it can be added to the scores as it is; only when tokens is
  /// given
  std::optional<Eigen::MatrixXd> bias;
  /// (tokens, tokens) true where j ≤ i, the entries the causal mask keeps
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> visible;
  /// (tokens) entry δ: e^(−slope·δ), the factor the bias multiplies a key's softmax weight by
  /// at distance δ relative to distance 0 (1/2 at the half-distance); only with tokens
  Eigen::VectorXd relative_weight;
};

/// ALiBi for one head of slope m (Press et al. 2022, §3: softmax(q_i·Kᵀ + m·[−(i−1), …, −1, 0])).
/// slope: a number in [1e-300, 1e300] (the contract's slope > 0, made finite-safe); tokens:
/// empty, or a whole number in [1, 4096].
/// Preconditions (std::invalid_argument naming slope or tokens otherwise): as above.
AlibiResult alibi(double slope, std::optional<double> tokens = std::nullopt);

/// (count) entry δ: e^(−slope·δ) for δ = 0 … count − 1, the factor ALiBi's bias multiplies a
/// key's softmax weight by at distance δ relative to distance 0, without building a bias
/// matrix (a page plotting the decay far out needs only this).
/// slope as in alibi(); count a whole number in [1, 2^20] (named "distances").
Eigen::VectorXd alibi_decay(double slope, double count);

}  // namespace llmmath
