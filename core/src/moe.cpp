#include "llmmath/moe.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// N·f_i·p_i per expert and their sum (eq. 4 without α), for already validated f and p.
MoeLoadBalanceResult load_balance(const Eigen::VectorXd& f, const Eigen::VectorXd& p) {
  MoeLoadBalanceResult r;
  r.terms = double(f.size()) * f.cwiseProduct(p);
  r.loss = r.terms.sum();
  return r;
}

}  // namespace

MoeLoadBalanceResult moe_load_balance(const Eigen::VectorXd& f, const Eigen::VectorXd& p) {
  require_distribution(f, "f", moe_fraction_tolerance);
  require_distribution(p, "p", moe_fraction_tolerance);
  if (p.size() != f.size())
    fail("p", "an array of " + std::to_string(f.size()) + " entries (one per expert, like f)",
         std::to_string(p.size()) + " entries");
  return load_balance(f, p);
}

void require_router_logits_dims(Eigen::Index tokens, Eigen::Index experts) {
  require_matrix_dims(double(tokens), double(experts), "router_logits");
  if (!(double(tokens) * double(experts) <= max_router_logits))
    fail("router_logits", "at most 2^21 = 2097152 entries (tokens·experts)",
         std::to_string(tokens) + "x" + std::to_string(experts));
}

MoeRouteResult moe_route(const Eigen::MatrixXd& router_logits, double top_k) {
  require_router_logits_dims(router_logits.rows(), router_logits.cols());
  require_finite(router_logits, "router_logits");
  const Eigen::Index tokens = router_logits.rows(), experts = router_logits.cols();
  require_integer(top_k, "top_k", 1, double(experts));
  const Eigen::Index k = Eigen::Index(top_k);
  const Eigen::MatrixXd& L = router_logits;

  MoeRouteResult r;
  // pass 1: router probabilities (tokens, experts), a softmax per row shifted by its maximum
  r.probs = (L.colwise() - L.rowwise().maxCoeff()).array().exp().matrix();
  r.probs.array().colwise() /= r.probs.rowwise().sum().array();

  // pass 2: each token's top-k experts by descending logit, equal logits by lower index. The
  // order is strict and total, so every sorting algorithm gives the same ranking: a full sort
  // when most experts are kept (partial_sort's heap is slower there), partial_sort otherwise.
  // The token's logits are copied to a contiguous row first (L is stored column by column).
  r.assignments.resize(tokens, k);
  r.counts = Eigen::VectorXi::Zero(experts);
  std::vector<int> rank(static_cast<std::size_t>(experts));
  std::vector<double> row(static_cast<std::size_t>(experts));
  const auto before = [&](int a, int b) {
    return row[std::size_t(a)] > row[std::size_t(b)] ||
           (row[std::size_t(a)] == row[std::size_t(b)] && a < b);
  };
  for (Eigen::Index t = 0; t < tokens; ++t) {
    for (Eigen::Index e = 0; e < experts; ++e) row[std::size_t(e)] = L(t, e);
    std::iota(rank.begin(), rank.end(), 0);
    if (2 * k >= experts)
      std::sort(rank.begin(), rank.end(), before);
    else
      std::partial_sort(rank.begin(), rank.begin() + k, rank.end(), before);
    for (Eigen::Index j = 0; j < k; ++j) {
      r.assignments(t, j) = rank[std::size_t(j)];
      ++r.counts(rank[std::size_t(j)]);
    }
  }

  // pass 3: f (eq. 5) and p (eq. 6), then the loss (eq. 4)
  r.f = r.counts.cast<double>() / (double(tokens) * double(k));
  r.p = r.probs.colwise().mean().transpose();
  const MoeLoadBalanceResult balance = load_balance(r.f, r.p);
  r.loss = balance.loss;
  r.terms = balance.terms;
  return r;
}

}  // namespace llmmath
