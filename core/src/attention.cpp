#include "llmmath/attention.hpp"

#include <cmath>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

AttentionResult attention(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& K,
                          const Eigen::MatrixXd& V, const AttentionOptions& options) {
  require_matrix_shape(Q, "q");
  require_matrix_shape(K, "k");
  require_matrix_shape(V, "v");
  const Eigen::Index nq = Q.rows(), nk = K.rows(), d = Q.cols(), dv = V.cols();
  require(K.cols() == d, "k", "a matrix with " + std::to_string(d) + " columns (d of q)",
          std::to_string(K.cols()) + " columns");
  require(V.rows() == nk, "v", "a matrix with " + std::to_string(nk) + " rows (one per key)",
          std::to_string(V.rows()) + " rows");
  const double work = double(nq) * double(nk) * double(d + dv);
  require(work <= max_attention_work, "q, k, v",
          "at most 2^30 multiply-adds of work (nq·nk·(d + dv))", describe(work));
  require_finite(Q, "q");
  require_finite(K, "k");
  require_finite(V, "v");
  require(!options.causal || nq <= nk, "q",
          "at most as many rows as k (" + std::to_string(nk) + ") when causal",
          std::to_string(nq) + " rows");
  const double scale = options.scale.value_or(1.0 / std::sqrt(double(d)));
  require_finite(scale, "scale");

  AttentionResult r;
  r.scale = scale;
  // pass 1: scores (nq, nk) = scale · Q Kᵀ, reported before any mask
  r.scores = scale * (Q * K.transpose());
  require(r.scores.allFinite(), "q", "vectors whose scaled dot products with k are finite",
          "a score that overflows a double");

  // pass 2: which keys each query may see; query i sits at position nk − nq + i
  r.position.resize(nq);
  r.visible.resize(nq, nk);
  for (Eigen::Index i = 0; i < nq; ++i) {
    r.position(i) = static_cast<int>(nk - nq + i);
    for (Eigen::Index j = 0; j < nk; ++j) r.visible(i, j) = !options.causal || j <= r.position(i);
  }

  // pass 3: softmax over the visible scores only, shifted by the row maximum for stability;
  // hidden entries are left at exactly 0 rather than computed as exp(−inf).
  r.weights = Eigen::MatrixXd::Zero(nq, nk);
  for (Eigen::Index i = 0; i < nq; ++i) {
    double row_max = -INFINITY;
    for (Eigen::Index j = 0; j < nk; ++j)
      if (r.visible(i, j)) row_max = std::max(row_max, r.scores(i, j));
    double sum = 0;
    for (Eigen::Index j = 0; j < nk; ++j)
      if (r.visible(i, j)) sum += r.weights(i, j) = std::exp(r.scores(i, j) - row_max);
    r.weights.row(i) /= sum;  // sum ≥ 1: the maximum contributes exp(0)
  }

  // pass 4: output (nq, dv) = weights · V
  r.output = r.weights * V;
  return r;
}

ContextDilutionResult context_dilution(double a, double b, double n) {
  require_finite(a, "relevantScore");
  require_finite(b, "distractorScore");
  require_integer(n, "distractors", 0, 9007199254740992.0);
  ContextDilutionResult r;
  if (n == 0) {
    r.relevant_weight = 1;
    return r;
  }
  // 1 / (1 + n·e^(b−a)) with n·e^(b−a) = e^(ln n + b − a): no overflow of e^a or e^b alone.
  const double t = std::exp(std::log(n) + b - a);
  r.relevant_weight = 1 / (1 + t);
  r.distractor_mass = t / (1 + t);
  if (std::isinf(t)) r.distractor_mass = 1;
  // each distractor: e^(b−a) / (1 + n·e^(b−a)) = 1 / (e^(a−b) + n)
  r.distractor_weight = 1 / (std::exp(a - b) + n);
  return r;
}

}  // namespace llmmath
