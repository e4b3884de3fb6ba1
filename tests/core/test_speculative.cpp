// Speculative decoding (chapter section 5): the exercise, the limits α = 0 and α = 1, the
// paper's walltime results, the invariants of a capped geometric count, the exact sums of
// reference/speculative.py's fixture() (also near α = 1), and every precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/speculative.hpp"

using llmmath::speculative_decoding;

TEST_CASE("exercise 5: alpha 0.5, gamma 3 gives 1.875 tokens per call, ceiling 2",
          "[speculative][exercise]") {
  const auto r = speculative_decoding(0.5, 3);
  CHECK(r.expected_tokens == 1.875);   // (1 − 0.5⁴)/(1 − 0.5) = 0.9375/0.5, exact in binary
  CHECK(r.ceiling == 2.0);             // 1/(1 − 0.5)
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
      const Eigen::VectorXd tokens =
          Eigen::VectorXd::LinSpaced(r.token_probs.size(), 1, double(r.token_probs.size()));
      CHECK(r.token_probs.dot(tokens) == Approx(r.expected_tokens).epsilon(1e-13));
    }
}

TEST_CASE("speculativeDecoding matches exact sums, also next to alpha = 1",
          "[speculative][reference]") {
  for (const auto& c : fixtures::load("speculative.txt")) {
    INFO("case " << c.name);
    const double cost = c.scalar("costRatio");
    const auto r = std::isnan(cost)
                       ? speculative_decoding(c.scalar("alpha"), c.scalar("gamma"))
                       : speculative_decoding(c.scalar("alpha"), c.scalar("gamma"), cost);
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
  CHECK_THROWS_WITH(speculative_decoding(0.5, 3, -0.5),
                    "cost_ratio must be a number ≥ 0, got -0.5");
  CHECK_THROWS_WITH(speculative_decoding(0.5, 3, INFINITY),
                    "cost_ratio must be a finite number, got Infinity");
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

// ---- measuring alpha: the inverse of eq. 1 and a seeded simulation -------------------------

namespace {

// The distribution of one round under eq. 1's model: a accepted drafts with probability
// α^a·(1 − α) for a < γ and α^γ for a = γ; the drafts checked are a + 1, or γ when all pass.
struct RoundMoments {
  double accepted = 0, checked = 0;  // E[A], E[C]
  double var_accepted = 0;           // Var(A) = Var(tokens per call)
  double var_ratio = 0;              // Var(A − α·C), for the delta method of A/C
};

RoundMoments round_moments(double alpha, int gamma) {
  RoundMoments m;
  double ea2 = 0, er2 = 0;
  for (int a = 0; a <= gamma; ++a) {
    const double p = a < gamma ? std::pow(alpha, a) * (1 - alpha) : std::pow(alpha, gamma);
    const double c = a < gamma ? a + 1 : gamma;
    m.accepted += p * a;
    m.checked += p * c;
    ea2 += p * a * a;
    er2 += p * (a - alpha * c) * (a - alpha * c);  // E[A − αC] = 0, so this is the variance
  }
  m.var_accepted = ea2 - m.accepted * m.accepted;
  m.var_ratio = er2;
  return m;
}

}  // namespace

TEST_CASE("speculative_alpha inverts eq. 1: 1.875 tokens per call at gamma 3 is alpha 0.5",
          "[speculative][measure][exercise]") {
  const auto r = llmmath::speculative_alpha(1.875, 3);
  // E is flat to within one unit of 1.875 over a few doubles around 0.5: any of them is right
  CHECK(r.alpha == Approx(0.5).margin(1e-15));
  CHECK(r.expected_tokens == 1.875);
  // the ends exactly: one token per call is alpha 0, gamma + 1 tokens is alpha 1
  CHECK(llmmath::speculative_alpha(1, 3).alpha == 0.0);
  CHECK(llmmath::speculative_alpha(4, 3).alpha == 1.0);
  // gamma 1: E = 1 + alpha, so the inverse is mean − 1
  CHECK(llmmath::speculative_alpha(1.25, 1).alpha == Approx(0.25).margin(1e-16));
}

TEST_CASE("speculative_alpha round-trips alpha → eq. 1 → alpha to 1e-12",
          "[speculative][measure][invariant]") {
  for (double gamma : {1.0, 2.0, 3.0, 5.0, 10.0, 100.0, 1024.0})
    for (double alpha : {0.0, 1e-9, 0.01, 0.1, 0.29, 0.5, 0.8, 0.9, 0.99, 0.999999, 1.0}) {
      INFO("gamma " << gamma << ", alpha " << alpha);
      const double E = speculative_decoding(alpha, gamma).expected_tokens;
      const auto r = llmmath::speculative_alpha(E, gamma);
      // the brief's 1e-12; the bisection ends next to the root, typically within 1e-16
      CHECK(r.alpha == Approx(alpha).margin(1e-12));
      CHECK(r.expected_tokens == Approx(E).epsilon(1e-15));
    }
  // monotone: more tokens per call means a larger alpha
  double previous = -1;
  for (double mean = 1; mean <= 6; mean += 0.125) {
    const double a = llmmath::speculative_alpha(mean, 5).alpha;
    CHECK(a > previous);
    previous = a;
  }
}

TEST_CASE("speculative_alpha refuses bad input with a message naming the parameter",
          "[speculative][measure][errors]") {
  CHECK_THROWS_WITH(llmmath::speculative_alpha(0.5, 3),
                    Catch::StartsWith("mean_tokens must be in [1, gamma + 1] = [1, 4]") &&
                        Catch::EndsWith("got 0.5"));
  CHECK_THROWS_WITH(llmmath::speculative_alpha(4.5, 3), Catch::EndsWith("got 4.5"));
  CHECK_THROWS_WITH(llmmath::speculative_alpha(NAN, 3),
                    "mean_tokens must be a finite number, got NaN");
  CHECK_THROWS_WITH(llmmath::speculative_alpha(1, 0),
                    "gamma must be an integer in [1, 1024], got 0");
  CHECK_THROWS_WITH(llmmath::speculative_alpha(2, 1.5), "gamma must be an integer, got 1.5");
}

TEST_CASE("speculative_measure by hand: seed 0, alpha 0.5, gamma 3, four rounds",
          "[speculative][measure][exercise]") {
  // SplitMix64 seed 0 gives the uniforms 0.883, 0.432, 0.026, 0.971, 0.106, 0.327, 0.174,
  // 0.772, … (top 53 bits of 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, …); u < 0.5 accepts:
  //   round 1: 0.883 rejected                          0 accepted, 1 checked, 1 token
  //   round 2: 0.432, 0.026 accepted, 0.971 rejected   2 accepted, 3 checked, 3 tokens
  //   round 3: 0.106, 0.327, 0.174 accepted            3 accepted, 3 checked, 4 tokens
  //   round 4: 0.772 rejected                          0 accepted, 1 checked, 1 token
  const auto r = llmmath::speculative_measure(0.5, 3, 4, 0);
  CHECK(r.rounds == 4);
  CHECK(r.proposed == 12);
  CHECK(r.checked == 8);  // the four drafts after the two rejections were never checked
  CHECK(r.accepted == 5);
  CHECK(r.produced == 9);
  CHECK(r.mean_tokens == 2.25);
  CHECK(r.token_counts == Eigen::Vector4d(2, 0, 1, 1));
  CHECK(r.accepted_per_proposed == 5.0 / 12);
  CHECK(r.accepted_per_checked == 0.625);
  // 1 + α + α² + α³ = 2.25 at α = 0.6221…: the estimate agrees with eq. 1
  CHECK(speculative_decoding(r.alpha_from_mean_tokens, 3).expected_tokens ==
        Approx(2.25).epsilon(1e-15));
  CHECK(r.expected_tokens == 1.875);
}

TEST_CASE("speculative_measure at alpha 0 and 1: every estimate is exact",
          "[speculative][measure]") {
  const auto none = llmmath::speculative_measure(0, 4, 1000, 7);
  CHECK(none.accepted == 0);
  CHECK(none.checked == 1000);  // one draft checked and rejected per round
  CHECK(none.produced == 1000);
  CHECK(none.accepted_per_checked == 0.0);
  CHECK(none.alpha_from_mean_tokens == 0.0);
  const auto all = llmmath::speculative_measure(1, 4, 1000, 7);
  CHECK(all.accepted == 4000);
  CHECK(all.checked == 4000);
  CHECK(all.produced == 5000);  // γ + 1 per round
  CHECK(all.accepted_per_proposed == 1.0);
  CHECK(all.accepted_per_checked == 1.0);
  CHECK(all.alpha_from_mean_tokens == 1.0);
}

TEST_CASE("speculative_measure's counts are consistent for every seed",
          "[speculative][measure][invariant]") {
  for (double alpha : {0.1, 0.5, 0.9})
    for (double gamma : {1.0, 3.0, 8.0})
      for (double seed : {0.0, 1.0, 12345.0, 4294967295.0}) {
        INFO("alpha " << alpha << ", gamma " << gamma << ", seed " << seed);
        const auto r = llmmath::speculative_measure(alpha, gamma, 500, seed);
        CHECK(r.proposed == 500 * gamma);
        CHECK(r.accepted <= r.checked);
        CHECK(r.checked <= r.proposed);
        CHECK(r.produced == r.accepted + r.rounds);
        REQUIRE(r.token_counts.size() == Eigen::Index(gamma) + 1);
        CHECK(r.token_counts.sum() == r.rounds);
        const Eigen::VectorXd tokens =
            Eigen::VectorXd::LinSpaced(r.token_counts.size(), 1, gamma + 1);
        CHECK(r.token_counts.dot(tokens) == r.produced);
        // every round that stopped at a rejection checked one draft more than it accepted
        CHECK(r.checked == r.accepted + r.rounds - r.token_counts(Eigen::Index(gamma)));
        CHECK(r.alpha_from_mean_tokens == llmmath::speculative_alpha(r.mean_tokens, gamma).alpha);
      }
}

TEST_CASE("the same seed gives the same counts, and different seeds differ",
          "[speculative][measure]") {
  const auto a = llmmath::speculative_measure(0.6, 4, 10000, 42);
  const auto b = llmmath::speculative_measure(0.6, 4, 10000, 42);
  CHECK(a.checked == b.checked);
  CHECK(a.accepted == b.accepted);
  CHECK(a.token_counts == b.token_counts);
  const auto c = llmmath::speculative_measure(0.6, 4, 10000, 43);
  CHECK(c.token_counts != a.token_counts);
}

TEST_CASE(
    "over many rounds accepted/checked and alpha from tokens per call measure alpha, "
    "accepted/proposed does not",
    "[speculative][measure][invariant]") {
  struct Case {
    double alpha, gamma, seed;
  };
  for (const Case k : {Case{0.5, 3, 1}, Case{0.8, 5, 2}, Case{0.2, 8, 3}, Case{0.95, 2, 4}}) {
    INFO("alpha " << k.alpha << ", gamma " << k.gamma);
    const double R = 200000;
    const auto r = llmmath::speculative_measure(k.alpha, k.gamma, R, k.seed);
    const RoundMoments m = round_moments(k.alpha, int(k.gamma));
    // Tolerances: 5 standard deviations of each estimate over R independent rounds (delta
    // method for the ratios). The seeds are fixed, so the checks are deterministic; 5σ is
    // what a correct simulation passes for all but about 1 seed in 1.7 million.
    const double sd_mean = std::sqrt(m.var_accepted / R);
    CHECK(r.mean_tokens == Approx(1 + m.accepted).margin(5 * sd_mean));
    CHECK(r.mean_tokens == Approx(r.expected_tokens).margin(5 * sd_mean));
    // naive: its expectation is E[A]/γ, (α + … + α^γ)/γ, not α
    CHECK(r.accepted_per_proposed == Approx(m.accepted / k.gamma).margin(5 * sd_mean / k.gamma));
    const double sd_ratio = std::sqrt(m.var_ratio / R) / m.checked;
    CHECK(r.accepted_per_checked == Approx(k.alpha).margin(5 * sd_ratio));
    // α from the mean: the mean's deviation divided by dE/dα = Σ k·α^(k−1)
    double slope = 0;
    for (int j = 1; j <= int(k.gamma); ++j) slope += j * std::pow(k.alpha, j - 1);
    CHECK(r.alpha_from_mean_tokens == Approx(k.alpha).margin(5 * sd_mean / slope));
  }
  // the chapter's case: the naive ratio expects 0.875 / 3 = 0.2917 at α = 0.5, γ = 3, and
  // eq. 1 fed with it predicts 1.40 tokens per call instead of 1.875
  const auto naive = round_moments(0.5, 3);
  CHECK(naive.accepted / 3 == Approx(0.2916666666666667).epsilon(1e-15));
  CHECK(speculative_decoding(naive.accepted / 3, 3).expected_tokens == Approx(1.40).margin(0.005));
}

TEST_CASE("speculative_measure matches the reference simulation of reference/speculative.py",
          "[speculative][measure][reference]") {
  int cases = 0;
  for (const auto& c : fixtures::load("speculative_measure.txt")) {
    INFO("case " << c.name);
    const auto r = llmmath::speculative_measure(c.scalar("alpha"), c.scalar("gamma"),
                                                c.scalar("rounds"), c.scalar("seed"));
    // counts: integers, identical
    CHECK(r.checked == c.scalar("checked"));
    CHECK(r.accepted == c.scalar("accepted"));
    CHECK(r.produced == c.scalar("produced"));
    CHECK(r.token_counts == Eigen::VectorXd(c["tokenCounts"].row(0).transpose()));
    // estimates: the reference's exact quotients rounded once, and α solved in exact
    // fractions by bisection to 1e-15
    CHECK(r.accepted_per_proposed == c.scalar("acceptedPerProposed"));
    CHECK(r.accepted_per_checked == c.scalar("acceptedPerChecked"));
    CHECK(r.alpha_from_mean_tokens == Approx(c.scalar("alphaFromMeanTokens")).margin(1e-12));
    ++cases;
  }
  CHECK(cases >= 4);
}

TEST_CASE("speculative_measure refuses bad input with a message naming the parameter",
          "[speculative][measure][errors]") {
  CHECK_THROWS_WITH(llmmath::speculative_measure(1.5, 3, 10, 0),
                    "alpha must be in [0, 1], got 1.5");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 0, 10, 0),
                    "gamma must be an integer in [1, 1024], got 0");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 3, 0, 0),
                    "rounds must be an integer in [1, 1000000], got 0");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 3, 2.5, 0),
                    "rounds must be an integer, got 2.5");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 20, 1e6, 0),
                    "rounds must be at most 10^7 / gamma = 500000 (rounds·gamma ≤ 10^7 draft "
                    "tokens), got 1000000");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 3, 10, -1),
                    "seed must be an integer in [0, 4294967295], got -1");
  CHECK_THROWS_WITH(llmmath::speculative_measure(0.5, 3, 10, 4294967296.0),
                    "seed must be an integer in [0, 4294967295], got 4294967296");
}

TEST_CASE("costRatio is at most 1e300, so the round cost stays finite, and alpha −0 gives no −0",
          "[speculative][limits]") {
  // costRatio 1e308 gave an infinite round cost and a speedup of 0
  CHECK_THROWS_WITH(
      speculative_decoding(0.5, 1024, 1e308),
      "cost_ratio must be a number in [0, 1e300] (so the round cost gamma·cost_ratio + 1 "
      "stays finite), got 1e+308");
  const auto r = speculative_decoding(0.5, 1024, 1e300);
  CHECK(std::isfinite(*r.round_cost));
  CHECK(*r.speedup > 0);
  // alpha −0 is alpha 0: α^(γ+1) and α^j·(1 − α) were −0 for odd powers
  const auto z = speculative_decoding(-0.0, 3, 0.5);
  CHECK_FALSE(std::signbit(z.all_accepted));
  for (Eigen::Index j = 0; j < z.token_probs.size(); ++j)
    CHECK_FALSE(std::signbit(z.token_probs(j)));
  CHECK(z.token_probs == speculative_decoding(0.0, 3, 0.5).token_probs);
}

// ---- speculativeDecoding swept over the draft length (figure 5.1) --------------------------

namespace {

// The first index of the largest entry: the argmax the figure marks, first of the given order
// on a tie (the rule speculative_sweep() documents), computed here independently.
Eigen::Index first_argmax(const Eigen::VectorXd& x) {
  Eigen::Index best = 0;
  for (Eigen::Index i = 1; i < x.size(); ++i)
    if (x(i) > x(best)) best = i;
  return best;
}

}  // namespace

TEST_CASE("speculativeSweep gives speculative_decoding at every draft length, bit for bit",
          "[speculative][sweep]") {
  // the draft lengths: 0 (ordinary decoding), small ones, the largest, a repeat, out of order
  const Eigen::VectorXd gamma = literals::vec({0, 1, 2, 3, 5, 10, 100, 1024, 3, 7, 0});
  for (double alpha : {0.0, -0.0, 1e-9, 0.3, 0.5, 0.8, 0.999999, 1 - 1e-12, 1.0}) {
    for (const std::optional<double> c :
         {std::optional<double>{}, std::optional<double>{0.0}, std::optional<double>{0.05},
          std::optional<double>{1.0}, std::optional<double>{1e300}}) {
      INFO("alpha " << alpha << ", costRatio " << (c ? std::to_string(*c) : "none"));
      const auto r = llmmath::speculative_sweep(alpha, gamma, c);
      CHECK(r.gamma == gamma);  // the draft lengths, as given
      REQUIRE(r.expected_tokens.size() == gamma.size());
      // the cost-dependent fields exist exactly when the cost ratio is given
      REQUIRE(r.round_cost.has_value() == c.has_value());
      REQUIRE(r.speedup.has_value() == c.has_value());
      REQUIRE(r.best_gamma.has_value() == c.has_value());
      REQUIRE(r.best_speedup.has_value() == c.has_value());
      for (Eigen::Index i = 0; i < gamma.size(); ++i) {
        INFO("gamma " << gamma(i));
        const auto p = speculative_decoding(alpha, gamma(i), c);
        // tolerance 0: the sweep calls speculative_decoding() at each point
        CHECK(r.expected_tokens(i) == p.expected_tokens);
        if (!c) continue;
        CHECK((*r.round_cost)(i) == *p.round_cost);
        CHECK((*r.speedup)(i) == *p.speedup);
      }
      if (!c) continue;
      const Eigen::Index best = first_argmax(*r.speedup);
      CHECK(*r.best_gamma == gamma(best));
      CHECK(*r.best_speedup == (*r.speedup)(best));
      CHECK(*r.best_speedup == r.speedup->maxCoeff());
    }
  }
}

TEST_CASE("speculativeSweep by hand: alpha 0.5, c 0.1 is best at gamma 2 with 1.75 / 1.2",
          "[speculative][sweep][exercise]") {
  const auto r = llmmath::speculative_sweep(0.5, literals::vec({1, 2, 3, 4}), 0.1);
  // eq. 1: 1.5, 1.75, 1.875, 1.9375, each exact in binary (powers of 1/2 below 1/2)
  CHECK(r.expected_tokens == literals::vec({1.5, 1.75, 1.875, 1.9375}));
  // γ·0.1 + 1 rounds once: 1.1, 1.2, 1.3, 1.4 to within a unit in the last place
  CHECK((*r.round_cost)(1) == Approx(1.2).epsilon(2.3e-16));
  // speedups 1.3636, 1.4583, 1.4423, 1.3839: the draft of 2 is the best
  CHECK(*r.best_gamma == 2);
  CHECK(*r.best_speedup == Approx(1.75 / 1.2).epsilon(4.5e-16));  // two roundings
  CHECK((*r.speedup)(2) < *r.best_speedup);
  // the paper's Theorem 3.8 setting, α 0.8 and c 0.05, over γ = 0 … 20: best at γ = 8
  const auto paper = llmmath::speculative_sweep(0.8, Eigen::VectorXd::LinSpaced(21, 0, 20), 0.05);
  CHECK(*paper.best_gamma == 8);
  CHECK(*paper.best_speedup == Approx(3.0920795428571433).epsilon(1e-15));  // double pow vs. Python
}

TEST_CASE("speculativeSweep's best gamma is the first of the given order on a tie",
          "[speculative][sweep][invariant]") {
  using literals::vec;
  // α 0, c 0: one token per call for one unit of cost, whatever γ: every speedup is exactly 1
  const auto free_nothing = llmmath::speculative_sweep(0, vec({5, 2, 7}), 0.0);
  CHECK(*free_nothing.speedup == vec({1, 1, 1}));
  CHECK(*free_nothing.best_gamma == 5);  // the first given, not the shortest (2) or the last (7)
  CHECK(*free_nothing.best_speedup == 1.0);
  // α 1, c 1: γ + 1 tokens for γ + 1 units of cost: again exactly 1 for every γ
  const auto even = llmmath::speculative_sweep(1, vec({3, 1, 8}), 1.0);
  CHECK(*even.speedup == vec({1, 1, 1}));
  CHECK(*even.best_gamma == 3);
  // (α 1 with c 0 is no tie: the speedup is γ + 1, largest at the longest draft)
  const auto free_all = llmmath::speculative_sweep(1, vec({1, 5, 3}), 0.0);
  CHECK(*free_all.speedup == vec({2, 6, 4}));
  CHECK(*free_all.best_gamma == 5);
  // α 0 with a cost: 1 / (γ·c + 1) falls with γ, so no drafting (γ = 0) is best wherever it is
  const auto none = llmmath::speculative_sweep(0, vec({4, 0, 2}), 0.5);
  CHECK(*none.best_gamma == 0);
  CHECK(*none.best_speedup == 1.0);
  // a repeated γ ties with itself: the first of the two is reported, with the same speedup
  const auto twice = llmmath::speculative_sweep(0.5, vec({2, 2, 1}), 0.1);
  CHECK(*twice.best_gamma == 2);
  CHECK(*twice.best_speedup == (*twice.speedup)(0));
}

TEST_CASE("speculativeSweep: expected tokens rise with gamma, up to the ceiling",
          "[speculative][sweep][invariant]") {
  const Eigen::VectorXd gamma = Eigen::VectorXd::LinSpaced(1025, 0, 1024);
  for (double alpha : {0.1, 0.5, 0.9, 0.999999, 1.0}) {
    INFO("alpha " << alpha);
    const auto r = llmmath::speculative_sweep(alpha, gamma);
    const double ceiling = speculative_decoding(alpha, 0).ceiling;
    for (Eigen::Index i = 1; i < gamma.size(); ++i) {
      // one more draft adds α^γ tokens: strictly more while that step is above 1e-14 of the
      // value (45 units in its last place; each value is within a few), never fewer, never
      // past 1/(1 − α)
      const bool visible = std::pow(alpha, gamma(i)) > 1e-14 * r.expected_tokens(i);
      if (visible && !(r.expected_tokens(i) > r.expected_tokens(i - 1)))
        FAIL("expected tokens did not rise from gamma " << gamma(i - 1) << " to " << gamma(i));
      if (!(r.expected_tokens(i) >= r.expected_tokens(i - 1)))
        FAIL("expected tokens fell from gamma " << gamma(i - 1) << " to " << gamma(i));
      if (!(r.expected_tokens(i) <= ceiling)) FAIL("above the ceiling at gamma " << gamma(i));
    }
  }
}

TEST_CASE("speculativeSweep refuses bad input, naming the array, its entry or the other parameter",
          "[speculative][sweep][errors]") {
  using literals::vec;
  using llmmath::speculative_sweep;
  CHECK_THROWS_WITH(speculative_sweep(0.5, Eigen::VectorXd(0)),
                    "gamma must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(speculative_sweep(0.5, Eigen::VectorXd::Zero(4097), 0.1),
                    "gamma must be at most 4096 entries (points of a sweep), got 4097 entries");
  CHECK_NOTHROW(speculative_sweep(0.5, Eigen::VectorXd::Zero(4096), 0.1));  // the limit itself
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({1, 2.5})), "gamma[1] must be an integer, got 2.5");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({1, 2, -1})),
                    "gamma[2] must be an integer in [0, 1024], got -1");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({1025})),
                    "gamma[0] must be an integer in [0, 1024], got 1025");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({3, NAN})),
                    "gamma[1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({INFINITY})),
                    "gamma[0] must be a finite number, got Infinity");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({0, 0.5, 2000})), Catch::StartsWith("gamma[1] "));
  CHECK_THROWS_WITH(speculative_sweep(1.5, vec({3})), "alpha must be in [0, 1], got 1.5");
  CHECK_THROWS_WITH(speculative_sweep(-0.1, vec({3})), "alpha must be in [0, 1], got -0.1");
  CHECK_THROWS_WITH(speculative_sweep(NAN, vec({3})), "alpha must be a finite number, got NaN");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({3, 4}), -0.5),
                    "cost_ratio must be a number ≥ 0, got -0.5");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({3}), INFINITY),
                    "cost_ratio must be a finite number, got Infinity");
  CHECK_THROWS_WITH(speculative_sweep(0.5, vec({1024}), 1e308),
                    Catch::StartsWith("cost_ratio must be a number in [0, 1e300]"));
}

TEST_CASE("speculative_measure predicts tokens per call from each estimate with eq. 1",
          "[speculative][measure][invariant]") {
  SECTION("by hand: seed 0, alpha 0.5, gamma 3, four rounds") {
    const auto r = llmmath::speculative_measure(0.5, 3, 4, 0);
    // accepted/checked 0.625: (1 − 0.625⁴) / 0.375 = 0.847412109375 / 0.375 = 2.259765625, exact
    CHECK(r.expected_tokens_per_checked == 2.259765625);
    // accepted/proposed 5/12: 1 + 5/12 + 25/144 + 125/1728 = 2873/1728, fewer than the 2.25 seen
    CHECK(r.expected_tokens_per_proposed == Approx(2873.0 / 1728).epsilon(1e-15));
    CHECK(r.expected_tokens_per_proposed < r.mean_tokens);
    // α from the mean reproduces the mean: 2.25 (bisection to neighbouring doubles)
    CHECK(r.expected_tokens_from_mean_tokens == Approx(2.25).epsilon(1e-15));
  }
  SECTION("each equals speculative_decoding at its estimate, for every seed") {
    struct Case {
      double alpha, gamma, rounds, seed;
    };
    for (const Case k :
         {Case{0.5, 3, 4, 0}, Case{0.5, 3, 10000, 1}, Case{0.8, 5, 2000, 4294967295.0},
          Case{0.3, 1, 777, 42}, Case{0.95, 2, 500, 4}, Case{0, 4, 100, 7}, Case{1, 4, 100, 7},
          Case{0.999, 1024, 2000, 3}, Case{0.2, 40, 1000, 9}}) {
      INFO("alpha " << k.alpha << ", gamma " << k.gamma << ", rounds " << k.rounds);
      const auto r = llmmath::speculative_measure(k.alpha, k.gamma, k.rounds, k.seed);
      // tolerance 0: both evaluate eq. 1 by the same code at the same α and γ
      CHECK(r.expected_tokens_per_proposed ==
            speculative_decoding(r.accepted_per_proposed, k.gamma).expected_tokens);
      CHECK(r.expected_tokens_per_checked ==
            speculative_decoding(r.accepted_per_checked, k.gamma).expected_tokens);
      CHECK(r.expected_tokens_from_mean_tokens ==
            speculative_decoding(r.alpha_from_mean_tokens, k.gamma).expected_tokens);
      CHECK(r.expected_tokens == speculative_decoding(k.alpha, k.gamma).expected_tokens);
      // the bisection stops at neighbouring doubles around the root and keeps the nearer, so
      // eq. 1 misses the mean by at most half its change over one unit of α (≤ 1.1e-16 near 1)
      // times its slope Σ k·α^(k−1) ≤ γ(γ+1)/2 = 524,800 at γ = 1024: below 6e-11, so 1e-9
      CHECK(r.expected_tokens_from_mean_tokens == Approx(r.mean_tokens).margin(1e-9));
    }
  }
  SECTION("over many rounds the naive estimate predicts too few tokens, the others the mean") {
    const auto r = llmmath::speculative_measure(0.5, 3, 200000, 1);
    // 5σ of each estimate (as in the test above) times eq. 1's slope at it: the naive ratio
    // 0.2917 ± 0.0039 gives 1.4015 ± 0.0072 (slope 1.84), the chapter's 1.40; accepted/checked
    // 0.5 ± 0.0042 gives 1.875 ± 0.012 (slope 2.75)
    CHECK(r.expected_tokens_per_proposed == Approx(1.40).margin(0.01));
    CHECK(r.expected_tokens_per_checked == Approx(1.875).margin(0.012));
    CHECK(r.expected_tokens_per_proposed < r.mean_tokens - 0.4);
  }
}
