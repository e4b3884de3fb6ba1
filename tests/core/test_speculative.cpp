// Speculative decoding (chapter section 5): the exercise, the limits α = 0 and α = 1, the
// paper's walltime results, the invariants of a capped geometric count, the exact sums of
// tests/fixtures/make_speculative.py (also near α = 1), and every precondition.
#include <catch2/catch.hpp>
#include <cmath>

#include "fixtures.hpp"
#include "llmmath/speculative.hpp"

using llmmath::speculative_decoding;

TEST_CASE("exercise 5: alpha 0.5, gamma 3 gives 1.875 tokens per call, ceiling 2",
          "[speculative][exercise]") {
  const auto r = speculative_decoding(0.5, 3);
  CHECK(r.expected_tokens == 1.875);  // (1 − 0.5⁴)/(1 − 0.5) = 0.9375/0.5, exact in binary
  CHECK(r.ceiling == 2.0);            // 1/(1 − 0.5)
  CHECK_FALSE(r.speedup.has_value());  // no cost ratio, no speedup
  // 1, 2, 3 or 4 tokens with probabilities 1/2, 1/4, 1/8 and 1/8
  REQUIRE(r.token_probs.size() == 4);
  CHECK(r.token_probs(0) == 0.5);
  CHECK(r.token_probs(1) == 0.25);
  CHECK(r.token_probs(2) == 0.125);
  CHECK(r.token_probs(3) == 0.125);
}

TEST_CASE("the limits: alpha 0 gives one token, alpha 1 gives gamma + 1 and no ceiling",
          "[speculative]") {
  for (double gamma : {0.0, 1.0, 5.0, 1024.0}) {
    CHECK(speculative_decoding(0, gamma).expected_tokens == 1.0);
    CHECK(speculative_decoding(0, gamma).ceiling == 1.0);
    const auto all = speculative_decoding(1, gamma);
    CHECK(all.expected_tokens == gamma + 1);
    CHECK(std::isinf(all.ceiling));
    CHECK(all.token_probs(Eigen::Index(gamma)) == 1.0);  // every draft token accepted
  }
  // gamma 0 is ordinary decoding: exactly one token per call, whatever alpha
  CHECK(speculative_decoding(0.9, 0).expected_tokens == 1.0);
  CHECK(speculative_decoding(0.3, 0).expected_tokens == 1.0);
}

TEST_CASE("walltime improvement as in Leviathan et al. 2023", "[speculative][reference]") {
  SECTION("Theorem 3.8 by hand: alpha 0.8, gamma 5, c 0.05") {
    // (1 − 0.8⁶) / ((1 − 0.8)(5·0.05 + 1)) = 0.737856 / 0.25 = 2.951424
    const auto r = speculative_decoding(0.8, 5, 0.05);
    CHECK(r.expected_tokens == Approx(3.68928).epsilon(1e-15));
    CHECK(*r.speedup == Approx(2.951424).epsilon(1e-15));
  }
  SECTION("Corollary 3.9: with gamma 1 the improvement is (1 + alpha)/(1 + c)") {
    for (double alpha : {0.1, 0.5, 0.75, 0.9})
      for (double c : {0.0, 0.05, 0.2, 0.5}) {
        INFO("alpha " << alpha << ", c " << c);
        CHECK(*speculative_decoding(alpha, 1, c).speedup ==
              Approx((1 + alpha) / (1 + c)).epsilon(1e-15));
      }
  }
  SECTION("no improvement is possible when alpha ≤ c") {
    // Σ_{k≤γ} α^k ≤ 1 + γα ≤ 1 + γc for α ≤ c, so the factor never exceeds 1
    for (double alpha : {0.05, 0.2, 0.5})
      for (double gamma = 0; gamma <= 64; ++gamma)
        CHECK(*speculative_decoding(alpha, gamma, alpha).speedup <= 1.0 + 1e-15);
  }
  SECTION("a free draft (c = 0) gives the expected tokens as the improvement") {
    const auto r = speculative_decoding(0.7, 4, 0.0);
    CHECK(*r.speedup == r.expected_tokens);
  }
}

TEST_CASE("expected tokens never exceed the ceiling and grow with gamma",
          "[speculative][invariant]") {
  for (double alpha : {0.0, 0.1, 0.5, 0.9, 0.99, 0.999999, 1 - 1e-12, 1.0}) {
    INFO("alpha " << alpha);
    double previous = 0;
    for (double gamma = 0; gamma <= 1024; gamma += gamma < 16 ? 1 : 101) {
      const auto r = speculative_decoding(alpha, gamma);
      CHECK(r.expected_tokens <= r.ceiling);
      CHECK(r.expected_tokens <= gamma + 1);
      CHECK(r.expected_tokens >= 1);
      // strictly more while α^(γ+1) is still visible next to 1, never fewer
      if (alpha > 0 && std::pow(alpha, gamma + 1) > 1e-15) CHECK(r.expected_tokens > previous);
      CHECK(r.expected_tokens >= previous);
      previous = r.expected_tokens;
    }
  }
}

TEST_CASE("token counts per call form a capped geometric distribution whose mean is eq. 1",
          "[speculative][invariant]") {
  for (double alpha : {0.0, 0.3, 0.5, 0.8, 0.97, 1.0})
    for (double gamma : {0.0, 1.0, 3.0, 10.0, 200.0}) {
      INFO("alpha " << alpha << ", gamma " << gamma);
      const auto r = speculative_decoding(alpha, gamma);
      REQUIRE(r.token_probs.size() == Eigen::Index(gamma) + 1);
      CHECK((r.token_probs.array() >= 0).all());
      // sums of up to 201 terms below 1: rounding stays below 1e-13
      CHECK(r.token_probs.sum() == Approx(1).margin(1e-13));
      const Eigen::VectorXd tokens = Eigen::VectorXd::LinSpaced(r.token_probs.size(), 1,
                                                                double(r.token_probs.size()));
      CHECK(r.token_probs.dot(tokens) == Approx(r.expected_tokens).epsilon(1e-13));
    }
}

TEST_CASE("speculativeDecoding matches exact sums, also next to alpha = 1",
          "[speculative][reference]") {
  for (const auto& c : fixtures::load("speculative.txt")) {
    INFO("case " << c.name);
    const double cost = c.scalar("costRatio");
    const auto r = std::isnan(cost) ? speculative_decoding(c.scalar("alpha"), c.scalar("gamma"))
                                    : speculative_decoding(c.scalar("alpha"), c.scalar("gamma"),
                                                           cost);
    // the reference is the exact sum rounded once; the closed form with expm1 and log keeps
    // a few units in the last place (1e-15 relative), where the plain closed form would lose
    // about 8 digits at alpha = 1 − 1e-9
    CHECK(r.expected_tokens == Approx(c.scalar("expectedTokens")).epsilon(1e-15));
    if (std::isinf(c.scalar("ceiling")))
      CHECK(std::isinf(r.ceiling));
    else
      CHECK(r.ceiling == Approx(c.scalar("ceiling")).epsilon(1e-15));
    CHECK(r.speedup.has_value() == !std::isnan(cost));
    if (r.speedup) CHECK(*r.speedup == Approx(c.scalar("speedup")).epsilon(2e-15));
  }
}

TEST_CASE("speculativeDecoding refuses bad input with a message naming the parameter",
          "[speculative][errors]") {
  CHECK_THROWS_WITH(speculative_decoding(-0.1, 3), "alpha must be in [0, 1], got -0.1");
  CHECK_THROWS_WITH(speculative_decoding(1.5, 3), "alpha must be in [0, 1], got 1.5");
  CHECK_THROWS_WITH(speculative_decoding(NAN, 3), "alpha must be a finite number, got NaN");
  CHECK_THROWS_WITH(speculative_decoding(0.5, 2.5), "gamma must be an integer, got 2.5");
  CHECK_THROWS_WITH(speculative_decoding(0.5, -1), "gamma must be an integer in [0, 1024], got -1");
  CHECK_THROWS_WITH(speculative_decoding(0.5, 1025),
                    "gamma must be an integer in [0, 1024], got 1025");
  CHECK_THROWS_WITH(speculative_decoding(0.5, INFINITY),
                    "gamma must be a finite number, got Infinity");
  CHECK_THROWS_WITH(speculative_decoding(0.5, 3, -0.5), "costRatio must be a number ≥ 0, got -0.5");
  CHECK_THROWS_WITH(speculative_decoding(0.5, 3, INFINITY),
                    "costRatio must be a finite number, got Infinity");
}

TEST_CASE("speculative decoding returns eq. 1's parts: 0.9375 / 0.5 for the exercise",
          "[speculative][exercise]") {
  const auto r = llmmath::speculative_decoding(0.5, 3, 0.1);
  CHECK(r.all_accepted == 0.0625);  // exact: a power of two
  CHECK(r.numerator == 0.9375);
  CHECK(r.denominator == 0.5);
  CHECK(r.expected_tokens == r.numerator / r.denominator);
  REQUIRE(r.round_cost.has_value());
  CHECK(*r.round_cost == Approx(1.3).epsilon(1e-15));  // 3·0.1 + 1
  CHECK(*r.speedup == Approx(1.875 / 1.3).epsilon(1e-15));
  CHECK_FALSE(llmmath::speculative_decoding(0.5, 3).round_cost.has_value());
}
