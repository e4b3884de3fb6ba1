// Mixture of experts (chapter section 8): the exercise, the invariants of the load-balancing
// loss and of top-k routing, the reference values of reference/moe.py's fixture(), and every
// precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/moe.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;
using llmmath::moe_load_balance;
using llmmath::moe_route;

namespace {

using Ints = std::vector<int>;
using literals::mat;
using literals::vec;

Ints row_of(const Eigen::MatrixXi& A, Eigen::Index t) {
  Ints out;
  for (Eigen::Index j = 0; j < A.cols(); ++j) out.push_back(A(t, j));
  return out;
}

}  // namespace

TEST_CASE("exercise 8: traffic (0.5, 0.5, 0, 0) with even router weights gives loss 1",
          "[moe][exercise]") {
  // 4·(0.5·0.25 + 0.5·0.25 + 0 + 0) = 1, exactly in binary
  const auto r = moe_load_balance(vec({0.5, 0.5, 0, 0}), vec({0.25, 0.25, 0.25, 0.25}));
  CHECK(r.loss == 1.0);
  CHECK(r.terms(0) == 0.5);
  CHECK(r.terms(2) == 0.0);
}

TEST_CASE("even router weights give loss 1 whatever the traffic split", "[moe][invariant]") {
  for (int N : {2, 3, 4, 8, 64}) {
    const VectorXd p = VectorXd::Constant(N, 1.0 / N);
    VectorXd f = VectorXd::Random(N).cwiseAbs();
    f /= f.sum();
    INFO("N = " << N);
    CHECK(moe_load_balance(f, p).loss == Approx(1).epsilon(1e-14));  // N terms of rounding
    // and symmetrically, even traffic gives 1 whatever the router weights
    CHECK(moe_load_balance(p, f).loss == Approx(1).epsilon(1e-14));
  }
}

TEST_CASE("full collapse onto one expert gives loss N, the maximum", "[moe][invariant]") {
  for (int N : {2, 4, 16}) {
    VectorXd one_hot = VectorXd::Zero(N);
    one_hot(0) = 1;
    CHECK(moe_load_balance(one_hot, one_hot).loss == double(N));  // exact
  }
  // collapse of traffic alone, with some spread router mass, is between 1 and N
  const double partial = moe_load_balance(vec({1, 0, 0, 0}), vec({0.7, 0.1, 0.1, 0.1})).loss;
  CHECK(partial == Approx(2.8).epsilon(1e-15));
}

TEST_CASE("hand-computed routing: two tokens, three experts, top-1 and top-2", "[moe]") {
  // token 0 prefers expert 2, then 0; token 1 prefers expert 0, then 1
  const MatrixXd L = mat({{1, 0, 2}, {std::log(4.0), std::log(2.0), std::log(2.0)}});
  SECTION("top-1") {
    const auto r = moe_route(L);
    CHECK(row_of(r.assignments, 0) == Ints{2});
    CHECK(row_of(r.assignments, 1) == Ints{0});
    CHECK(r.f == vec({0.5, 0, 0.5}));  // counts (1, 0, 1) over 2 tokens, exact
    // token 1: softmax of (ln 4, ln 2, ln 2) = (1/2, 1/4, 1/4)
    CHECK(r.probs(1, 0) == Approx(0.5).epsilon(1e-15));
    CHECK(r.probs(1, 1) == Approx(0.25).epsilon(1e-15));
    const double e = std::exp(1.0);
    const VectorXd token0 = vec({e, 1, e * e}) / (e + 1 + e * e);
    CHECK(r.p(0) == Approx((token0(0) + 0.5) / 2).epsilon(1e-15));
    CHECK(r.p(2) == Approx((token0(2) + 0.25) / 2).epsilon(1e-15));
    CHECK(r.loss == Approx(3 * (0.5 * r.p(0) + 0.5 * r.p(2))).epsilon(1e-15));
  }
  SECTION("top-2: equal logits go to the lower index") {
    const auto r = moe_route(L, 2);
    CHECK(row_of(r.assignments, 0) == Ints{2, 0});
    CHECK(row_of(r.assignments, 1) == Ints{0, 1});  // experts 1 and 2 tie; 1 wins
    CHECK(r.counts(0) == 2);
    CHECK(r.f == vec({0.5, 0.25, 0.25}));  // 4 assignments
  }
}

TEST_CASE(
    "routing invariants: probs rows, f and p each sum to 1 and experts are listed by probability",
    "[moe][invariant]") {
  const MatrixXd L = MatrixXd::Random(40, 6) * 3;
  for (int k = 1; k <= 6; ++k) {
    const auto r = moe_route(L, k);
    INFO("topK " << k);
    for (Eigen::Index t = 0; t < 40; ++t) {
      CHECK(r.probs.row(t).sum() == Approx(1).margin(1e-15));
      // listed most probable first, each expert at most once
      for (Eigen::Index j = 1; j < k; ++j) {
        CHECK(r.probs(t, r.assignments(t, j)) <= r.probs(t, r.assignments(t, j - 1)));
        CHECK(r.assignments(t, j) != r.assignments(t, j - 1));
      }
    }
    CHECK(r.counts.sum() == 40 * k);
    CHECK(r.f.sum() == Approx(1).margin(1e-15));
    CHECK(r.p.sum() == Approx(1).margin(1e-14));
    CHECK(r.terms.sum() == Approx(r.loss).epsilon(1e-15));
    CHECK(r.loss == Approx(moe_load_balance(r.f, r.p).loss).epsilon(1e-15));
  }
  // topK = experts: every expert gets every token, f is uniform, the loss is exactly even
  CHECK(moe_route(L, 6).loss == Approx(1).epsilon(1e-15));
}

TEST_CASE("router logits of ±1000 give no overflow", "[moe][invariant]") {
  const auto r = moe_route(mat({{1000, -1000, 999}}));
  CHECK(r.probs.allFinite());
  CHECK(r.probs(0, 1) == 0.0);
  CHECK(r.probs(0, 0) == Approx(1 / (1 + std::exp(-1.0))).epsilon(1e-15));
}

TEST_CASE("moeRoute and moeLoadBalance match the NumPy reference values", "[moe][reference]") {
  int routed = 0, balanced = 0;
  for (const auto& c : fixtures::load("moe.txt")) {
    INFO("case " << c.name);
    if (c.values.count("routerLogits")) {
      const auto r = moe_route(c["routerLogits"], c.scalar("topK"));
      // long-double reference; doubles over at most 20 tokens of 8 experts
      CHECK((r.probs - c["probs"]).cwiseAbs().maxCoeff() < 1e-15);
      CHECK((r.assignments.cast<double>() - c["assignments"]).cwiseAbs().maxCoeff() == 0);
      CHECK((r.counts.cast<double>() - c["counts"].row(0).transpose()).cwiseAbs().maxCoeff() == 0);
      CHECK((r.f - c["f"].row(0).transpose()).cwiseAbs().maxCoeff() < 1e-16);
      CHECK((r.p - c["p"].row(0).transpose()).cwiseAbs().maxCoeff() < 1e-15);
      CHECK(r.loss == Approx(c.scalar("loss")).epsilon(1e-14));
      ++routed;
    } else {
      const auto r = moe_load_balance(c["f"].row(0).transpose(), c["p"].row(0).transpose());
      CHECK(r.loss == Approx(c.scalar("loss")).epsilon(1e-14));
      ++balanced;
    }
  }
  CHECK(routed == 5);
  CHECK(balanced == 4);
}

TEST_CASE("moeLoadBalance and moeRoute refuse bad input with a message naming the parameter",
          "[moe][errors]") {
  const VectorXd even = VectorXd::Constant(4, 0.25);
  SECTION("moeLoadBalance") {
    CHECK_THROWS_WITH(moe_load_balance(VectorXd(0), even),
                      "f must be a non-empty array, got an empty one");
    CHECK_THROWS_WITH(moe_load_balance(even, vec({0.5, 0.5})),
                      "p must be an array of 4 entries (one per expert, like f), got 2 entries");
    CHECK_THROWS_WITH(moe_load_balance(vec({0.5, 0.6, -0.1, 0}), even),
                      "f[2] must be a non-negative number, got -0.1");
    CHECK_THROWS_WITH(moe_load_balance(even, vec({0.25, 0.25, 0.25, 0.2})),
                      "p must be an array summing to 1 within 1e-6, got a sum of 0.95");
    CHECK_THROWS_WITH(moe_load_balance(vec({0.5, NAN, 0.5, 0}), even),
                      "f[1] must be a finite number, got NaN");
    CHECK_THROWS_WITH(moe_load_balance(even, vec({0.25, 0.25, 0.25, INFINITY})),
                      "p[3] must be a finite number, got Infinity");
    // within the tolerance passes: fractions typed with six decimals
    CHECK(moe_load_balance(vec({0.333333, 0.333333, 0.333334}), vec({1, 0, 0})).loss ==
          Approx(0.999999).epsilon(1e-12));
  }
  SECTION("moeRoute") {
    const MatrixXd L = MatrixXd::Zero(3, 4);
    CHECK_THROWS_WITH(moe_route(MatrixXd(0, 4)),
                      Catch::StartsWith("router_logits must be a non-empty"));
    CHECK_THROWS_WITH(moe_route(MatrixXd::Zero(5000, 2)), Catch::Contains("4096"));
    MatrixXd bad = L;
    bad(2, 1) = -INFINITY;
    CHECK_THROWS_WITH(moe_route(bad), "router_logits[2][1] must be a finite number, got -Infinity");
    CHECK_THROWS_WITH(moe_route(L, 5), "top_k must be an integer in [1, 4], got 5");
    CHECK_THROWS_WITH(moe_route(L, 0), "top_k must be an integer in [1, 4], got 0");
    CHECK_THROWS_WITH(moe_route(L, 1.5), "top_k must be an integer, got 1.5");
    CHECK_THROWS_WITH(moe_route(L, NAN), "top_k must be a finite number, got NaN");
  }
}

TEST_CASE("moeRoute refuses more than 2^21 router logits, from the shape alone", "[moe][limits]") {
  // 4096 × 4096 passed the side limit and took 7.9 s through the JS API
  CHECK_THROWS_WITH(llmmath::require_router_logits_dims(4096, 4096),
                    "router_logits must be at most 2^21 = 2097152 entries (tokens·experts), got "
                    "4096x4096");
  CHECK_THROWS_WITH(moe_route(MatrixXd::Zero(4096, 1024)),
                    Catch::StartsWith("router_logits must be at most 2^21"));
  CHECK_NOTHROW(llmmath::require_router_logits_dims(2048, 1024));
  CHECK_THROWS_WITH(llmmath::require_router_logits_dims(5000, 2), Catch::Contains("4096"));
}

TEST_CASE("the full sort (topK near experts) and the partial sort rank experts alike",
          "[moe][invariant]") {
  // ties everywhere: logits from a few values, so the lower index must win each tie
  MatrixXd L(6, 9);
  for (Eigen::Index i = 0; i < L.size(); ++i) L(i) = double((i * 7) % 4);
  const auto all = moe_route(L, 9);  // std::sort
  const auto few = moe_route(L, 3);  // std::partial_sort
  CHECK(few.assignments == all.assignments.leftCols(3));
  for (Eigen::Index t = 0; t < 6; ++t)
    for (Eigen::Index j = 1; j < 9; ++j) {
      const int a = all.assignments(t, j - 1), b = all.assignments(t, j);
      CHECK((L(t, a) > L(t, b) || (L(t, a) == L(t, b) && a < b)));
    }
}
