// ALiBi, attention with linear biases (Press et al. 2022): instead of position embeddings,
// each head adds −m·(i − j) to the score of query i for key j, a penalty growing linearly with
// distance, with a fixed head-specific slope m.
// Chapter 8, section 6; tests in tests/core/test_alibi.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "llmmath/fields.hpp"

namespace llmmath {

/// Largest head count of alibi_slopes() (core-api.md limits).
constexpr double max_alibi_heads = 4096.0;

/// Largest sequence of alibi(), whose bias matrix then has 2^24 entries (core-api.md limits).
/// 4096 tokens take 0.6 s (median 0.7 s) through the JavaScript API on the reference machine,
/// most of it building the 2^24-entry array of rows the page receives, and leave the
/// WebAssembly memory at 160 MiB.
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
/// slope of 2p (those at k = 1, 3, 5, …), appended after them: their values fall between the
/// first ones, but their head numbers come last (12 heads: 2^(−1), …, 2^(−8), then 2^(−0.5),
/// 2^(−1.5), 2^(−2.5), 2^(−3.5)).
/// heads: a whole number in [1, 4096] (std::invalid_argument naming heads otherwise).
Eigen::VectorXd alibi_slopes(double heads);

/// One head of alibi_heads(): its 1-based number, slope and half-distance.
struct AlibiHead {
  int head = 0;              ///< 1-based head number (the k of slope_k), as a page shows it
  double slope = 0;          ///< m, the head's slope
  double half_distance = 0;  ///< ln 2 / m in tokens, as alibi() computes it
};

/// The fields of AlibiHead, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AlibiHead& r, Visit&& visit) {
  LLMMATH_FIELD(head);
  LLMMATH_FIELD(slope);
  LLMMATH_FIELD(half_distance);
}

/// Every head of an h-head ALiBi model and its two extremes.
struct AlibiHeadsResult {
  Eigen::VectorXd slopes;          ///< (h) alibi_slopes(h)
  Eigen::VectorXd half_distances;  ///< (h) ln 2 / slope_k, in tokens
  /// The largest slope (shortest half-distance). Not slope_1 unless h is a power of two: the
  /// appended slopes of 2p heads start at 2^(−8/(2p)), above the first head's 2^(−8/p).
  AlibiHead steepest;
  /// The smallest slope, 2^(−8), always head p (the largest power of two ≤ h); not the last
  /// head unless h is a power of two (12 heads: head 8, half-distance 256·ln 2 ≈ 177.4 tokens).
  AlibiHead gentlest;
};

/// The fields of AlibiHeadsResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AlibiHeadsResult& r, Visit&& visit) {
  LLMMATH_FIELD(slopes);
  LLMMATH_FIELD(half_distances);
  LLMMATH_FIELD(steepest);
  LLMMATH_FIELD(gentlest);
}

/// The slopes of an h-head model with their half-distances and the steepest and gentlest
/// head found by comparing every slope, so that no caller takes the first and the last slope
/// for the extremes (true only for a power of two). Equal slopes never occur (the appended
/// slopes are odd powers of 2^(−4/p), the first ones even powers); the lower head would win.
/// heads: as alibi_slopes() (std::invalid_argument naming heads otherwise).
AlibiHeadsResult alibi_heads(double heads);

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
  /// entry δ: e^(−slope·δ), the factor the bias multiplies a key's softmax weight by at
  /// distance δ relative to distance 0 (1/2 at the half-distance): `distances` entries when
  /// distances is given, else one per token when tokens is, else absent
  std::optional<Eigen::VectorXd> relative_weight;
};

/// The fields of AlibiResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AlibiResult& r, Visit&& visit) {
  LLMMATH_FIELD(half_distance);
  LLMMATH_MASKED_FIELD(bias, visible);
  LLMMATH_FIELD(relative_weight);
}

/// ALiBi for one head of slope m (Press et al. 2022, §3: softmax(q_i·Kᵀ + m·[−(i−1), …, −1, 0])).
/// slope: a number in [1e-300, 1e300] (the contract's slope > 0, made finite-safe); tokens:
/// empty, or a whole number in [1, 4096]; distances: empty, or a whole number in [1, 2^20], the
/// length of relative_weight (a page plotting the decay beyond the bias map's tokens).
/// Preconditions (std::invalid_argument naming slope, tokens or distances otherwise): as above.
AlibiResult alibi(double slope, std::optional<double> tokens = std::nullopt,
                  std::optional<double> distances = std::nullopt);

/// (count) entry δ: e^(−slope·δ) for δ = 0 … count − 1, the factor ALiBi's bias multiplies a
/// key's softmax weight by at distance δ relative to distance 0, without building a bias
/// matrix (a page plotting the decay far out needs only this).
/// slope as in alibi(); count a whole number in [1, 2^20] (named "distances").
Eigen::VectorXd alibi_decay(double slope, double count);

}  // namespace llmmath
