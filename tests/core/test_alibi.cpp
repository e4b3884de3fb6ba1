// ALiBi (chapter section 6): the exercise, the paper's slopes for 8 and 16 heads, the slopes
// of reference/alibi.py's fixture() (the reference code's algorithm) for many head counts, the
// bias matrix, and every precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <utility>

#include "fixtures.hpp"
#include "llmmath/alibi.hpp"

using llmmath::alibi;
using llmmath::alibi_slopes;

TEST_CASE("exercise 6: slope 0.125 halves a key's weight about 5.5 tokens away",
          "[alibi][exercise]") {
  const auto r = alibi(0.125);
  CHECK(r.half_distance == Approx(5.545177444479562).epsilon(1e-15));  // ln 2 / 0.125 = 8 ln 2
  CHECK_FALSE(r.bias.has_value());                                     // no tokens, no matrix
  // each factor-of-two drop in slope doubles the half-distance (exactly: a power-of-two ratio)
  CHECK(alibi(0.0625).half_distance == 2 * r.half_distance);
  CHECK(alibi(0.25).half_distance == r.half_distance / 2);
}

TEST_CASE("at the half-distance the bias halves the weight", "[alibi][invariant]") {
  for (double slope : {1.0 / 256, 0.125, 0.7071, 3.0}) {
    const double h = alibi(slope).half_distance;
    CHECK(std::exp(-slope * h) == Approx(0.5).epsilon(1e-15));
  }
  const auto r = alibi(std::log(2.0) / 4, 9);  // half-distance 4 tokens
  CHECK(r.half_distance == Approx(4).epsilon(1e-15));
  CHECK((*r.relative_weight)(0) == 1.0);
  CHECK((*r.relative_weight)(4) == Approx(0.5).epsilon(1e-15));
  CHECK((*r.relative_weight)(8) == Approx(0.25).epsilon(1e-15));
}

TEST_CASE("the bias is −slope·(i − j) below the diagonal, +0 on it, masked above",
          "[alibi][invariant]") {
  const auto r = alibi(0.5, 4);
  REQUIRE(r.bias.has_value());
  const Eigen::MatrixXd& B = *r.bias;
  REQUIRE(B.rows() == 4);
  REQUIRE(B.cols() == 4);
  CHECK(B(3, 0) == -1.5);  // −0.5·3, exact
  CHECK(B(2, 1) == -0.5);
  for (Eigen::Index i = 0; i < 4; ++i) {
    CHECK(B(i, i) == 0.0);
    CHECK_FALSE(std::signbit(B(i, i)));  // +0, not −0
    for (Eigen::Index j = 0; j < 4; ++j) {
      CHECK(r.visible(i, j) == (j <= i));
      if (j > i) CHECK(B(i, j) == -INFINITY);  // the causal mask, ready to add to scores
    }
  }
  // one token: a single +0
  const auto one = alibi(3.0, 1);
  CHECK(one.bias->size() == 1);
  CHECK((*one.bias)(0, 0) == 0.0);
  CHECK_FALSE(std::signbit((*one.bias)(0, 0)));
}

TEST_CASE("slopes of the paper: 8 heads 1/2 … 1/256, 16 heads from 1/sqrt(2)",
          "[alibi][reference]") {
  const Eigen::VectorXd s8 = alibi_slopes(8);
  REQUIRE(s8.size() == 8);
  for (Eigen::Index k = 0; k < 8; ++k) CHECK(s8(k) == std::ldexp(1.0, -int(k) - 1));  // exact
  const Eigen::VectorXd s16 = alibi_slopes(16);
  CHECK(s16(0) == Approx(1 / std::sqrt(2.0)).epsilon(1e-15));
  for (Eigen::Index k = 0; k < 8; ++k) CHECK(s16(2 * k + 1) == s8(k));  // every other is 8's
  CHECK(alibi_slopes(1)(0) == 1.0 / 256);                               // 2^(−8/1)
}

TEST_CASE("slopes for a head count that is not a power of two", "[alibi]") {
  // 12 heads: the 8 slopes of 8 heads, then slopes 1, 3, 5, 7 of 16 heads
  const Eigen::VectorXd s = alibi_slopes(12);
  const Eigen::VectorXd s8 = alibi_slopes(8), s16 = alibi_slopes(16);
  REQUIRE(s.size() == 12);
  CHECK(s.head(8) == s8);
  for (Eigen::Index j = 0; j < 4; ++j) CHECK(s(8 + j) == s16(2 * j));
  // 3 heads: 1/16, 1/256, then 1/4
  const Eigen::VectorXd s3 = alibi_slopes(3);
  CHECK(s3(0) == 1.0 / 16);
  CHECK(s3(1) == 1.0 / 256);
  CHECK(s3(2) == 1.0 / 4);
}

TEST_CASE("slopes match the paper's reference algorithm for many head counts",
          "[alibi][reference]") {
  for (const auto& c : fixtures::load("alibi.txt")) {
    if (c.values.count("heads") == 0) continue;
    INFO("case " << c.name);
    const Eigen::VectorXd s = alibi_slopes(c.scalar("heads"));
    const Eigen::VectorXd expected = c["slopes"].row(0).transpose();
    REQUIRE(s.size() == expected.size());
    // the reference raises a rounded start = 2^(−8/h) to the power i, so slope k inherits
    // k times start's rounding (k·1.2e-16 relative, up to 5e-13 for 4096 heads), where the
    // core takes 2^(−8k/h) directly; both agree exactly on the powers of two of 8 heads
    for (Eigen::Index k = 0; k < s.size(); ++k)
      CHECK(s(k) == Approx(expected(k)).epsilon(1.2e-16 * double(k + 2)));
    // the core's powers of two are exact: 2^(−8k/h) with 8k/h a whole number
    const double h = c.scalar("heads");
    for (Eigen::Index k = 0; k < s.size() && h == std::exp2(std::floor(std::log2(h))); ++k)
      if (8 * (k + 1) % Eigen::Index(h) == 0)
        CHECK(s(k) == std::ldexp(1.0, -int(8 * (k + 1) / Eigen::Index(h))));
  }
}

TEST_CASE("alibi matches the NumPy reference values", "[alibi][reference]") {
  for (const auto& c : fixtures::load("alibi.txt")) {
    if (c.values.count("slope") == 0) continue;
    INFO("case " << c.name);
    const auto r = alibi(c.scalar("slope"), c.scalar("tokens"));
    CHECK(r.half_distance == Approx(c.scalar("halfDistance")).epsilon(1e-16));  // one division
    const Eigen::MatrixXd& expected = c["bias"];
    for (Eigen::Index i = 0; i < expected.rows(); ++i)
      for (Eigen::Index j = 0; j < expected.cols(); ++j) {
        if (std::isnan(expected(i, j)))  // masked in the reference
          CHECK_FALSE(r.visible(i, j));
        else
          CHECK((*r.bias)(i, j) == expected(i, j));  // one product each: exact agreement
      }
    const Eigen::VectorXd weights = c["relativeWeight"].row(0).transpose();
    CHECK((*r.relative_weight - weights).cwiseAbs().maxCoeff() <= 2e-16);  // exp, ≤ 1 ulp
  }
}

TEST_CASE("alibi refuses bad input with a message naming the parameter", "[alibi][errors]") {
  CHECK_THROWS_WITH(alibi_slopes(0), "heads must be an integer in [1, 4096], got 0");
  CHECK_THROWS_WITH(alibi_slopes(4097), "heads must be an integer in [1, 4096], got 4097");
  CHECK_THROWS_WITH(alibi_slopes(2.5), "heads must be an integer, got 2.5");
  CHECK_THROWS_WITH(alibi_slopes(NAN), "heads must be a finite number, got NaN");
  CHECK_THROWS_WITH(alibi_slopes(INFINITY), "heads must be a finite number, got Infinity");
  CHECK_THROWS_WITH(alibi(0), "slope must be a number > 0, got 0");
  CHECK_THROWS_WITH(alibi(-0.5), "slope must be a number > 0, got -0.5");
  CHECK_THROWS_WITH(alibi(INFINITY), "slope must be a finite number, got Infinity");
  CHECK_THROWS_WITH(alibi(1e-320), Catch::StartsWith("slope must be a number in [1e-300, 1e300]"));
  CHECK_THROWS_WITH(alibi(0.5, 0), "tokens must be an integer in [1, 4096], got 0");
  CHECK_THROWS_WITH(alibi(0.5, 4097), "tokens must be an integer in [1, 4096], got 4097");
  CHECK_THROWS_WITH(alibi(0.5, 1.5), "tokens must be an integer, got 1.5");
}

TEST_CASE("alibi_decay gives e^(−m·δ) without a bias matrix, and agrees with alibi()",
          "[alibi][decay]") {
  const auto w = llmmath::alibi_decay(0.125, 100);
  REQUIRE(w.size() == 100);
  CHECK(w(0) == 1.0);
  // halved at the half-distance ln 2 / m ≈ 5.545: δ = 5 above 1/2, δ = 6 below
  CHECK(w(5) > 0.5);
  CHECK(w(6) < 0.5);
  CHECK(w(8) == Approx(std::exp(-1.0)).epsilon(1e-15));  // 0.125 · 8 = 1
  const auto r = llmmath::alibi(0.125, 12.0);
  CHECK((*r.relative_weight - w.head(12)).cwiseAbs().maxCoeff() == 0.0);
  CHECK_THROWS_WITH(llmmath::alibi_decay(0.125, 0), Catch::StartsWith("distances"));
  CHECK_THROWS_WITH(llmmath::alibi_decay(0.125, 2.5), Catch::StartsWith("distances"));
  CHECK_THROWS_WITH(llmmath::alibi_decay(-1, 10), Catch::StartsWith("slope"));
}

TEST_CASE("alibi with distances: the decay over that many distances, beside the bias of tokens",
          "[alibi][decay]") {
  const auto w = llmmath::alibi_decay(0.125, 300);
  // distances alone: the decay, no matrix
  const auto far = alibi(0.125, std::nullopt, 300.0);
  CHECK_FALSE(far.bias.has_value());
  CHECK(*far.relative_weight == w);  // the same computation, bit for bit
  // tokens and distances: the bias of 6 tokens, the decay over 300 distances
  const auto both = alibi(0.125, 6.0, 300.0);
  REQUIRE(both.bias.has_value());
  CHECK(both.bias->rows() == 6);
  CHECK(*both.relative_weight == w);
  // neither: only the half-distance
  CHECK_FALSE(alibi(0.125).relative_weight.has_value());
  CHECK_THROWS_WITH(alibi(0.125, 6.0, 0.0), Catch::StartsWith("distances must be"));
  CHECK_THROWS_WITH(alibi(0.125, 6.0, 2.5), Catch::StartsWith("distances must be"));
  // tokens is checked before distances, as the parameters are ordered
  CHECK_THROWS_WITH(alibi(0.125, 0.0, 0.0), Catch::StartsWith("tokens must be"));
}

TEST_CASE("alibi_heads at 12 heads: the gentlest head is head 8 (2^-8, ~177 tokens), not the last",
          "[alibi][heads]") {
  const auto r = llmmath::alibi_heads(12);
  REQUIRE(r.slopes.size() == 12);
  CHECK(r.slopes == alibi_slopes(12));
  CHECK(r.gentlest.head == 8);
  CHECK(r.gentlest.slope == 1.0 / 256);  // 2^(−8), exact
  // 256·ln 2 = 177.445678…, one division as in alibi(): a unit in the last place at most
  CHECK(r.gentlest.half_distance == Approx(256 * std::log(2.0)).epsilon(2e-16));
  CHECK(r.gentlest.half_distance == Approx(177.4).margin(0.05));
  // the last head, which a first/last reading takes for the gentlest, halves every 7.8 tokens
  CHECK(r.half_distances(11) == Approx(std::log(2.0) / std::exp2(-3.5)).epsilon(2e-16));
  CHECK(r.half_distances(11) < 8);
  CHECK(r.steepest.head == 9);  // 2^(−0.5), the first appended slope, above head 1's 2^(−1)
  CHECK(r.steepest.slope == Approx(std::sqrt(0.5)).epsilon(1e-16));
  CHECK(r.steepest.half_distance == Approx(std::log(2.0) * std::sqrt(2.0)).epsilon(2e-16));
}

TEST_CASE("alibi_heads at 40 heads: gentlest head 32, steepest head 33", "[alibi][heads]") {
  const auto r = llmmath::alibi_heads(40);
  CHECK(r.gentlest.head == 32);
  CHECK(r.gentlest.slope == 1.0 / 256);
  CHECK(r.gentlest.half_distance == Approx(177.4).margin(0.05));
  CHECK(r.half_distances(39) == Approx(2.5).margin(0.05));  // the last head: 2^(−3.875)
  CHECK(r.steepest.head == 33);
  CHECK(r.steepest.slope == Approx(std::exp2(-0.125)).epsilon(1e-16));  // 2^(−8/64)
}

TEST_CASE("alibi_heads for a power of two: the extremes are the first and last heads",
          "[alibi][heads]") {
  for (double h : {1.0, 2.0, 8.0, 64.0, 4096.0}) {
    INFO("heads " << h);
    const auto r = llmmath::alibi_heads(h);
    CHECK(r.steepest.head == 1);
    CHECK(r.gentlest.head == int(h));
    CHECK(r.steepest.slope == std::exp2(-8 / h));
    CHECK(r.gentlest.slope == 1.0 / 256);
  }
  const auto eight = llmmath::alibi_heads(8);
  CHECK(eight.steepest.slope == 0.5);
  CHECK(eight.steepest.half_distance == Approx(2 * std::log(2.0)).epsilon(2e-16));
}

TEST_CASE("alibi_heads picks the largest and smallest slope for every head count to 4096",
          "[alibi][heads][invariant]") {
  for (int h = 1; h <= 4096; ++h) {
    const auto r = llmmath::alibi_heads(h);
    const Eigen::VectorXd& s = r.slopes;
    // the gentlest slope is always 2^(−8), at head p, the largest power of two ≤ h
    int p = 1;
    while (2 * p <= h) p *= 2;
    const bool ok_gentle =
        r.gentlest.head == p && r.gentlest.slope == 1.0 / 256 && r.gentlest.slope == s.minCoeff();
    // the steepest is head 1 for a power of two, else head p + 1 (2^(−4/p))
    const int steep = h == p ? 1 : p + 1;
    const bool ok_steep = r.steepest.head == steep && r.steepest.slope == s.maxCoeff() &&
                          r.steepest.slope == s(steep - 1);
    const bool ok_half = r.half_distances.size() == h &&
                         r.steepest.half_distance == r.half_distances(steep - 1) &&
                         r.gentlest.half_distance == r.half_distances(p - 1);
    if (!(ok_gentle && ok_steep && ok_half)) {  // one CHECK per failing h, not 4096 × 8
      INFO("heads " << h);
      CHECK(ok_gentle);
      CHECK(ok_steep);
      CHECK(ok_half);
    }
  }
  CHECK_THROWS_WITH(llmmath::alibi_heads(0), "heads must be an integer in [1, 4096], got 0");
  CHECK_THROWS_WITH(llmmath::alibi_heads(12.5), "heads must be an integer, got 12.5");
}

TEST_CASE("alibi_heads matches the extremes of the reference slopes", "[alibi][heads][reference]") {
  for (const auto& c : fixtures::load("alibi.txt")) {
    if (c.values.count("steepest") == 0) continue;
    INFO("case " << c.name);
    const auto r = llmmath::alibi_heads(c.scalar("heads"));
    for (const auto& [mine, name] :
         {std::pair{r.steepest, "steepest"}, std::pair{r.gentlest, "gentlest"}}) {
      INFO(name);
      const Eigen::MatrixXd& ref = c[name];
      CHECK(mine.head == int(ref(0, 0)));  // the same head
      // the reference's slopes carry up to k·1.2e-16 of rounding (see the test above)
      CHECK(mine.slope == Approx(ref(0, 1)).epsilon(1.2e-16 * (ref(0, 0) + 2)));
      CHECK(mine.half_distance == Approx(ref(0, 2)).epsilon(1.2e-16 * (ref(0, 0) + 3)));
    }
  }
}
