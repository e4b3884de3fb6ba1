// Mixture of experts: top-k routing of tokens to experts and the Switch Transformer auxiliary
// load-balancing loss (Fedus et al. 2021, §2.2, eqs. 4–6).
// Chapter 8, section 8; tests in tests/core/test_moe.cpp.
#pragma once

#include <Eigen/Core>

#include "llmmath/fields.hpp"

namespace llmmath {

/// The auxiliary loss and how each expert contributes to it.
struct MoeLoadBalanceResult {
  /// N·Σ f_i·p_i, without the paper's coefficient α. 1 when either f or p is uniform
  /// (Σ f_i/N = 1/N), N when all traffic and all router mass sit on one expert.
  double loss = 0;
  /// (N) N·f_i·p_i, expert i's share of the loss; sums to loss.
  Eigen::VectorXd terms;
};

/// The fields of MoeLoadBalanceResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const MoeLoadBalanceResult& r, Visit&& visit) {
  LLMMATH_FIELD(loss);
  LLMMATH_FIELD(terms);
}

/// Tolerance of the "sums to 1" check of f and p: looser than for token probabilities
/// because fractions of traffic are typically typed or copied as short decimals.
constexpr double moe_fraction_tolerance = 1e-6;

/// Switch Transformer load-balancing loss without α (Fedus et al. 2021, eq. 4):
/// loss = N·Σ_i f_i·p_i over N experts.
/// f (N): fraction of tokens dispatched to each expert (eq. 5); p (N): mean router probability
/// of each expert (eq. 6). Preconditions (std::invalid_argument naming f or p): non-empty, at
/// most 2^20 entries, equal lengths, finite entries ≥ 0, each summing to 1 within 1e-6.
MoeLoadBalanceResult moe_load_balance(const Eigen::VectorXd& f, const Eigen::VectorXd& p);

/// Routing of a batch of tokens and the statistics the auxiliary loss is built from.
struct MoeRouteResult {
  /// (tokens, experts) router probabilities: softmax of each token's row of logits.
  Eigen::MatrixXd probs;
  /// (tokens, topK) the experts of each token, most probable first.
  Eigen::MatrixXi assignments;
  /// (experts) how many of the tokens·topK assignments each expert received.
  Eigen::VectorXi counts;
  /// (experts) counts / (tokens·topK): the share of assignments, summing to 1 (eq. 5).
  Eigen::VectorXd f;
  /// (experts) mean router probability per expert over the tokens (eq. 6).
  Eigen::VectorXd p;
  /// N·Σ f_i·p_i as in moe_load_balance().
  double loss = 0;
  /// (experts) N·f_i·p_i, each expert's share of the loss.
  Eigen::VectorXd terms;
};

/// The fields of MoeRouteResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const MoeRouteResult& r, Visit&& visit) {
  LLMMATH_FIELD(assignments);
  LLMMATH_FIELD(f);
  LLMMATH_FIELD(p);
  LLMMATH_FIELD(loss);
  LLMMATH_FIELD(probs);
  LLMMATH_FIELD(counts);
  LLMMATH_FIELD(terms);
}

/// Routes each token to its top_k most probable experts (Switch Transformer: top_k = 1;
/// Shazeer et al. 2017 use k > 1) and evaluates the load-balancing loss of that routing.
/// Experts are ranked by logit, which orders the probabilities exactly (an exp that rounds two
/// different logits to one probability does not reorder them); equal logits go to the lower
/// index. The softmax subtracts each row's maximum first.
/// router_logits (tokens, experts): non-empty, finite, within the matrix limits of check.hpp
/// and tokens·experts ≤ 2^21, named "router_logits"; top_k a whole number in [1, experts],
/// named "top_k".
MoeRouteResult moe_route(const Eigen::MatrixXd& router_logits, double top_k = 1);

/// Largest tokens·experts of moe_route(): probs holds that many entries and assignments up to
/// as many. The worst case, 2^21 entries with topK = experts (2048 tokens × 1024 experts),
/// takes 0.3 s through the JavaScript API on the reference machine (4096 × 4096, which the
/// side limit alone allowed, took 7.9 s).
constexpr double max_router_logits = 2097152.0;  // 2^21

/// The size preconditions of moe_route() from the shape of router_logits alone (tokens,
/// experts): within the matrix limits of check.hpp and tokens·experts ≤ 2^21. moe_route()
/// checks them first; the WebAssembly bindings check them before they copy the matrix into the
/// heap. std::invalid_argument naming router_logits otherwise.
void require_router_logits_dims(Eigen::Index tokens, Eigen::Index experts);

}  // namespace llmmath
