// Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with an optional causal mask,
// and the dilution of a relevant key's weight by irrelevant context.
// Chapter 8, section 1; tests in tests/core/test_attention.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "llmmath/fields.hpp"

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
  Eigen::VectorXi positions;  ///< (nq) position of query i in the key sequence: nk − nq + i
  Eigen::MatrixXd weights;    ///< (nq, nk) softmax over the visible scores; hidden entries are 0
  Eigen::MatrixXd output;     ///< (nq, dv) weights · V
  double scale = 0;           ///< the scale actually used
};

/// The fields of AttentionResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AttentionResult& r, Visit&& visit) {
  LLMMATH_FIELD(scores);
  LLMMATH_FIELD(weights);
  LLMMATH_FIELD(output);
  LLMMATH_FIELD(visible);
  LLMMATH_FIELD(positions);
  LLMMATH_FIELD(scale);
}

/// Scaled dot-product attention softmax(scale·Q·Kᵀ + mask)·V.
/// Q is (nq, d), K is (nk, d), V is (nk, dv). Under the causal mask query i sits at position
/// nk − nq + i, so with nq = nk it is position i and a single query after a cache of nk − 1
/// keys sees every key; key j is hidden when j is after that position. Hidden keys are
/// excluded before normalisation, so their weights are exactly 0. The softmax subtracts each
/// row's largest visible score first, so scores of ±1000 give no overflow.
/// Preconditions (std::invalid_argument naming q, k, v, or scale otherwise): non-empty finite
/// matrices within the size limits of check.hpp, matching d and nk, nq ≤ nk when causal,
/// nq·nk·(d + dv) ≤ 2^30 multiply-adds, nq·nk ≤ 2^22 scores, finite scale, finite scores and
/// a finite output (every result is then finite).
AttentionResult attention(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& K,
                          const Eigen::MatrixXd& V, const AttentionOptions& options = {});

/// The size preconditions of attention(), from the shapes alone: Q (nq, d), K (nk, dk) and
/// V (nv, dv) non-empty and within the matrix limits of check.hpp, dk = d, nv = nk, the work
/// within max_attention_work and nq·nk within max_attention_scores. attention() checks them
/// first; a caller holding only the shapes (the WebAssembly bindings, before they copy the
/// matrices into the heap) can check them before asking for any memory.
/// std::invalid_argument naming q, k or v otherwise.
void require_attention_dims(Eigen::Index nq, Eigen::Index d, Eigen::Index nk, Eigen::Index dk,
                            Eigen::Index nv, Eigen::Index dv);

/// Largest attention work accepted, nq·nk·(d + dv) multiply-adds.
constexpr double max_attention_work = 1073741824.0;  // 2^30

/// Largest number of scores nq·nk accepted: scores, weights and visible each hold nq·nk
/// entries, which a page receives as arrays of rows. 2^22 admits 2048 queries over 2048 keys;
/// the worst case within both limits (2048 × 2048 with d + dv = 256, 2^30 multiply-adds) takes
/// 0.8 s (median 0.9 s) through the JavaScript API on the reference machine (4096 × 4096, which
/// the side limit alone allowed, took 6 s and 540 MB).
constexpr double max_attention_scores = 4194304.0;  // 2^22

/// What one relevant key keeps when n distractor keys compete with it.
struct ContextDilutionResult {
  double relevant_weight = 0;    ///< e^a / (e^a + n·e^b)
  double distractor_weight = 0;  ///< e^b / (e^a + n·e^b), the weight of each distractor
  double distractor_mass = 0;    ///< n·e^b / (e^a + n·e^b) = 1 − relevant_weight
};

/// The fields of ContextDilutionResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const ContextDilutionResult& r, Visit&& visit) {
  LLMMATH_FIELD(relevant_weight);
  LLMMATH_FIELD(distractor_weight);
  LLMMATH_FIELD(distractor_mass);
}

/// Softmax weight of one relevant key with score a among n distractors with score b:
/// e^a / (e^a + n·e^b) = 1 / (1 + n·e^(b − a)), computed in that stable form.
/// a and b finite; n a whole number in [0, 2^53] (named as the API names them: relevant_score,
/// distractor_score, distractors).
ContextDilutionResult context_dilution(double a, double b, double n);

/// context_dilution() at several distractor counts, for the curve of figure 1.2: entry i of
/// each vector is context_dilution(a, b, distractors(i)).
struct ContextDilutionSweep {
  Eigen::VectorXd distractors;        ///< (points) the counts n, as given
  Eigen::VectorXd relevant_weight;    ///< (points) e^a / (e^a + n·e^b)
  Eigen::VectorXd distractor_weight;  ///< (points) e^b / (e^a + n·e^b)
  Eigen::VectorXd distractor_mass;    ///< (points) n·e^b / (e^a + n·e^b)
};

/// The fields of ContextDilutionSweep, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const ContextDilutionSweep& r, Visit&& visit) {
  LLMMATH_FIELD(distractors);
  LLMMATH_FIELD(relevant_weight);
  LLMMATH_FIELD(distractor_weight);
  LLMMATH_FIELD(distractor_mass);
}

/// context_dilution(a, b, n) for every n of `distractors` in one call. Preconditions
/// (std::invalid_argument naming relevant_score, distractor_score, distractors or distractors[i]):
/// those of context_dilution() for each entry, and 1 to max_sweep_points entries.
ContextDilutionSweep context_dilution_sweep(double a, double b, const Eigen::VectorXd& distractors);

}  // namespace llmmath
