#include "llmmath/attention.hpp"

#include <cmath>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

void require_attention_dims(Eigen::Index nq, Eigen::Index d, Eigen::Index nk, Eigen::Index dk,
                            Eigen::Index nv, Eigen::Index dv) {
  require_matrix_dims(double(nq), double(d), "q");
  require_matrix_dims(double(nk), double(dk), "k");
  require_matrix_dims(double(nv), double(dv), "v");
  if (dk != d)
    fail("k", "a matrix with " + std::to_string(d) + " columns (d of q)",
         std::to_string(dk) + " columns");
  if (nv != nk)
    fail("v", "a matrix with " + std::to_string(nk) + " rows (one per key)",
         std::to_string(nv) + " rows");
  const double work = double(nq) * double(nk) * double(d + dv);
  if (!(work <= max_attention_work))
    fail("q, k, v", "at most 2^30 multiply-adds of work (nq·nk·(d + dv))", describe(work));
  if (!(double(nq) * double(nk) <= max_attention_scores))
    fail("k",
         "at most " + describe(std::floor(max_attention_scores / double(nq))) + " rows for " +
             std::to_string(nq) + " queries (nq·nk at most 2^22 = 4194304 scores)",
         std::to_string(nk) + " rows");
}

AttentionResult attention(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& K,
                          const Eigen::MatrixXd& V, const AttentionOptions& options) {
  require_attention_dims(Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(), V.cols());
  const Eigen::Index nq = Q.rows(), nk = K.rows(), d = Q.cols();
  require_finite(Q, "q");
  require_finite(K, "k");
  require_finite(V, "v");
  if (options.causal && nq > nk)
    fail("q", "at most as many rows as k (" + std::to_string(nk) + ") when causal",
         std::to_string(nq) + " rows");
  const double scale = options.scale.value_or(1.0 / std::sqrt(double(d)));
  require_finite(scale, "scale");

  AttentionResult r;
  r.scale = scale;
  // pass 1: scores (nq, nk) = scale · Q Kᵀ, reported before any mask
  r.scores = scale * (Q * K.transpose());
  require(r.scores.allFinite(), "q", "vectors whose scaled dot products with k are finite",
          "a score that overflows a double");

  // Eigen stores matrices column by column, so passes 2 and 3 sweep the columns (keys) and
  // update every row (query) at once: a row-by-row sweep would stride through memory, several
  // times slower at 2048 keys. Each row still sees its keys in order j = 0, 1, …, so every
  // maximum, sum and quotient is the same operation in the same order as row by row.

  // pass 2: which keys each query may see; query i sits at position nk − nq + i
  r.positions.resize(nq);
  for (Eigen::Index i = 0; i < nq; ++i) r.positions(i) = static_cast<int>(nk - nq + i);
  r.visible.resize(nq, nk);
  for (Eigen::Index j = 0; j < nk; ++j)
    for (Eigen::Index i = 0; i < nq; ++i) r.visible(i, j) = !options.causal || j <= r.positions(i);

  // pass 3: softmax over the visible scores only, shifted by the row maximum for stability;
  // hidden entries are left at exactly 0 rather than computed as exp(−inf).
  Eigen::VectorXd row_max = Eigen::VectorXd::Constant(nq, -INFINITY);
  for (Eigen::Index j = 0; j < nk; ++j)
    for (Eigen::Index i = 0; i < nq; ++i)
      if (r.visible(i, j)) row_max(i) = std::max(row_max(i), r.scores(i, j));
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(nq);
  r.weights = Eigen::MatrixXd::Zero(nq, nk);
  for (Eigen::Index j = 0; j < nk; ++j)
    for (Eigen::Index i = 0; i < nq; ++i)
      if (r.visible(i, j)) sum(i) += r.weights(i, j) = std::exp(r.scores(i, j) - row_max(i));
  // sum ≥ 1 in every row: its maximum contributes exp(0)
  for (Eigen::Index j = 0; j < nk; ++j)
    for (Eigen::Index i = 0; i < nq; ++i) r.weights(i, j) /= sum(i);

  // pass 4: output (nq, dv) = weights · V, convex combinations of V's rows; with entries of V
  // near the largest double, rounding can still carry one past it
  r.output = r.weights * V;
  require(r.output.allFinite(), "v", "values whose weighted averages are finite",
          "an average that overflows a double (entries near 1.8e308)");
  return r;
}

namespace {

// The largest distractor count: 2^53, beyond which counts are no longer whole doubles.
constexpr double max_distractors = 9007199254740992.0;

}  // namespace

ContextDilutionResult context_dilution(double a, double b, double n) {
  require_finite(a, "relevant_score");
  require_finite(b, "distractor_score");
  require_integer(n, "distractors", 0, max_distractors);
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

ContextDilutionSweep context_dilution_sweep(double a, double b,
                                            const Eigen::VectorXd& distractors) {
  require_finite(a, "relevant_score");
  require_finite(b, "distractor_score");
  require_sweep_length(distractors, "distractors");
  require_integers(distractors, "distractors", 0, max_distractors);
  const Eigen::Index m = distractors.size();
  ContextDilutionSweep r;
  r.distractors = distractors;
  r.relevant_weight.resize(m);
  r.distractor_weight.resize(m);
  r.distractor_mass.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const ContextDilutionResult p = context_dilution(a, b, distractors(i));
    r.relevant_weight(i) = p.relevant_weight;
    r.distractor_weight(i) = p.distractor_weight;
    r.distractor_mass(i) = p.distractor_mass;
  }
  return r;
}

}  // namespace llmmath
