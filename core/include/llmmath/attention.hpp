// Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with an optional causal mask,
// and the dilution of a relevant key's weight by irrelevant context.
// Chapter 8, section 1; tests in tests/core/test_attention.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

namespace llmmath {

/// Options of attention(). Defaults are the textbook ones.
struct AttentionOptions {
  /// Mask keys that come after the query's position (decoder / autoregressive attention).
  bool causal = false;
  /// Multiplier of the dot products; empty means 1/sqrt(d), which keeps the scores' variance
  /// near 1 for unit-variance q and k so the softmax does not saturate (Vaswani et al. §3.2.1).
  std::optional<double> scale;
};

/// Every intermediate step a reader is shown, not only the output.
struct AttentionResult {
  Eigen::MatrixXd scores;  ///< (nq, nk) scale·(q_i·k_j), before any mask
  /// (nq, nk) true where key j is visible to query i (all true without the causal mask)
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> visible;
  Eigen::VectorXi position;  ///< (nq) position of query i in the key sequence: nk − nq + i
  Eigen::MatrixXd weights;   ///< (nq, nk) softmax over the visible scores; hidden entries are 0
  Eigen::MatrixXd output;    ///< (nq, dv) weights · V
  double scale = 0;          ///< the scale actually used
};

/// Scaled dot-product attention softmax(scale·Q·Kᵀ + mask)·V.
/// Q is (nq, d), K is (nk, d), V is (nk, dv). Under the causal mask query i sits at position
/// nk − nq + i, so with nq = nk it is position i and a single query after a cache of nk − 1
/// keys sees every key; key j is hidden when j is after that position. Hidden keys are
/// excluded before normalisation, so their weights are exactly 0. The softmax subtracts each
/// row's largest visible score first, so scores of ±1000 give no overflow.
/// Preconditions (std::invalid_argument naming q, k, v, or scale otherwise): non-empty finite
/// matrices within the size limits of check.hpp, matching d and nk, nq ≤ nk when causal,
/// nq·nk·(d + dv) ≤ 2^30 multiply-adds, finite scale, and finite scores.
AttentionResult attention(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& K,
                          const Eigen::MatrixXd& V, const AttentionOptions& options = {});

/// Largest attention work accepted, nq·nk·(d + dv) multiply-adds: about a second in a page.
constexpr double max_attention_work = 1073741824.0;  // 2^30

/// What one relevant key keeps when n distractor keys compete with it.
struct ContextDilutionResult {
  double relevant_weight = 0;    ///< e^a / (e^a + n·e^b)
  double distractor_weight = 0;  ///< e^b / (e^a + n·e^b), the weight of each distractor
  double distractor_mass = 0;    ///< n·e^b / (e^a + n·e^b) = 1 − relevant_weight
};

/// Softmax weight of one relevant key with score a among n distractors with score b:
/// e^a / (e^a + n·e^b) = 1 / (1 + n·e^(b − a)), computed in that stable form.
/// a and b finite; n a whole number in [0, 2^53] (named as in the JS API: relevantScore,
/// distractorScore, distractors).
ContextDilutionResult context_dilution(double a, double b, double n);

}  // namespace llmmath
