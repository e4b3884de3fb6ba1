// Sampling (chapter section 2): the exercise, the invariants of temperature, top-k and top-p,
// the seeded sampler, the reference values of reference/sampling.py's fixture(), and every
// precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/sampling.hpp"

using Eigen::VectorXd;
using Eigen::VectorXi;
using llmmath::SamplingInput;
using llmmath::SamplingOptions;

namespace {

// Index lists compare as std::vector, so a length mismatch is a failure Catch can print.
using Ints = std::vector<int>;
using literals::vec;

Ints ints(const VectorXi& v) { return Ints(v.data(), v.data() + v.size()); }

Ints row_ints(const Eigen::MatrixXd& row) {
  Ints out;
  for (Eigen::Index j = 0; j < row.cols(); ++j) out.push_back(int(row(0, j)));
  return out;
}

SamplingInput from_logits(const VectorXd& z) {
  SamplingInput in;
  in.logits = z;
  return in;
}

SamplingInput from_probs(const VectorXd& p) {
  SamplingInput in;
  in.probs = p;
  return in;
}

SamplingOptions options(double T, double k = 0, double p = 1) {
  SamplingOptions o;
  o.temperature = T;
  o.top_k = k;
  o.top_p = p;
  return o;
}

VectorXd softmax(const VectorXd& z) {
  const VectorXd e = (z.array() - z.maxCoeff()).exp().matrix();
  return e / e.sum();
}

// The invariants every sampling result must satisfy, whatever the input.
void check_invariants(const llmmath::SamplingResult& r) {
  const Eigen::Index n = r.probs.size();
  CHECK(r.probs.sum() == Approx(1).margin(1e-12));  // rounding of up to a few hundred terms
  CHECK(r.tempered.sum() == Approx(1).margin(1e-12));
  REQUIRE(r.cutoff >= 1);
  REQUIRE(r.kept.size() == r.cutoff);
  CHECK(ints(r.kept) == ints(r.order.head(r.cutoff)));
  std::vector<bool> is_kept(static_cast<std::size_t>(n), false);
  for (Eigen::Index j = 0; j < r.kept.size(); ++j) {
    is_kept[std::size_t(r.kept(j))] = true;
    CHECK(r.probs(r.kept(j)) > 0);
    // probs = tempered / keptMass on the kept tokens
    CHECK(r.probs(r.kept(j)) == Approx(r.tempered(r.kept(j)) / r.kept_mass).epsilon(1e-15));
    if (j > 0) CHECK(r.probs(r.kept(j)) <= r.probs(r.kept(j - 1)));
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (!is_kept[std::size_t(i)]) CHECK(r.probs(i) == 0.0);  // removed: exactly 0
  for (Eigen::Index j = 1; j < n; ++j) {
    CHECK(r.tempered(r.order(j)) <= r.tempered(r.order(j - 1)));
    CHECK(r.cumulative(j) >= r.cumulative(j - 1));
  }
  CHECK(r.cumulative(n - 1) == Approx(1).margin(1e-12));
}

}  // namespace

TEST_CASE("exercise 2: a token of probability 0.4 in a nucleus of mass 0.8 ends at 0.5",
          "[sampling][exercise]") {
  // (0.4, 0.4, 0.1, 0.1) with topP 0.8: the two 0.4 tokens reach 0.8 exactly in decimal,
  // so the nucleus is those two, and each is renormalised to 0.4 / 0.8.
  const auto r = llmmath::sampling(from_probs(vec({0.4, 0.4, 0.1, 0.1})), options(1, 0, 0.8));
  CHECK(ints(r.kept) == Ints{0, 1});
  CHECK(r.cutoff == 2);
  CHECK(r.kept_mass == Approx(0.8).epsilon(1e-15));
  CHECK(r.probs(0) == 0.5);  // exact: t / (t + t) for two equal tempered values t
  CHECK(r.probs(1) == 0.5);
  CHECK(r.probs(2) == 0.0);
  CHECK(r.probs(3) == 0.0);
  CHECK(r.cumulative(1) == Approx(0.8).epsilon(1e-15));
  check_invariants(r);
}

TEST_CASE("a top-p boundary exact in decimal counts as reached though binary sums fall short",
          "[sampling][invariant]") {
  // the three 0.3 tokens sum to 0.8999999999999999 in doubles, below 0.9; the 1e-9 tolerance
  // keeps three tokens, as a reader adding decimals expects, not four
  const auto r = llmmath::sampling(from_probs(vec({0.3, 0.3, 0.3, 0, 0.1})), options(1, 0, 0.9));
  CHECK(r.cumulative(2) < 0.9);  // the case really exercises the tolerance in this build
  CHECK(ints(r.kept) == Ints{0, 1, 2});
  CHECK(r.probs(0) == Approx(1.0 / 3).epsilon(1e-15));
  CHECK(r.probs(4) == 0.0);
}

TEST_CASE("hand-computed: temperature, top-k and top-p on three logits", "[sampling]") {
  // logits (ln 3, ln 2, 0) at temperature 1 are probabilities (1/2, 1/3, 1/6)
  const VectorXd z = vec({std::log(3.0), std::log(2.0), 0});
  SECTION("temperature 1 and no filter: the softmax itself") {
    const auto r = llmmath::sampling(from_logits(z));
    CHECK(r.probs(0) == Approx(0.5).epsilon(1e-15));
    CHECK(r.probs(1) == Approx(1.0 / 3).epsilon(1e-15));
    CHECK(r.probs(2) == Approx(1.0 / 6).epsilon(1e-15));
    CHECK(ints(r.kept) == Ints{0, 1, 2});
  }
  SECTION("temperature 1/2 squares the odds: (9, 4, 1) / 14") {
    const auto r = llmmath::sampling(from_logits(z), options(0.5));
    CHECK(r.tempered(0) == Approx(9.0 / 14).epsilon(1e-15));
    CHECK(r.tempered(1) == Approx(4.0 / 14).epsilon(1e-15));
    CHECK(r.probs(2) == Approx(1.0 / 14).epsilon(1e-15));
  }
  SECTION("top-k 2 renormalises (1/2, 1/3) to (3/5, 2/5)") {
    const auto r = llmmath::sampling(from_logits(z), options(1, 2));
    CHECK(r.probs(0) == Approx(0.6).epsilon(1e-15));
    CHECK(r.probs(1) == Approx(0.4).epsilon(1e-15));
    CHECK(r.probs(2) == 0.0);
    CHECK(r.kept_mass == Approx(5.0 / 6).epsilon(1e-15));
  }
  SECTION("top-p 0.6: 1/2 falls short, 1/2 + 1/3 reaches it") {
    const auto r = llmmath::sampling(from_logits(z), options(1, 0, 0.6));
    CHECK(r.cutoff == 2);
    CHECK(r.probs(0) == Approx(0.6).epsilon(1e-15));
  }
  SECTION("top-p 0.5 is reached by the first token alone") {
    const auto r = llmmath::sampling(from_logits(z), options(1, 0, 0.5));
    CHECK(ints(r.kept) == Ints{0});
    CHECK(r.probs(0) == 1.0);
  }
  SECTION("top-p runs on the renormalised top-k distribution: (3/5, 2/5) at topP 0.6") {
    // 3/5 reaches 0.6 alone; on the original distribution 1/2 would not
    const auto r = llmmath::sampling(from_logits(z), options(1, 2, 0.6));
    CHECK(ints(r.kept) == Ints{0});
    CHECK(r.cumulative(0) == Approx(0.6).epsilon(1e-15));
    CHECK(r.cumulative(2) == Approx(1).epsilon(1e-15));  // constant after the k-th entry
    CHECK(r.kept_mass == Approx(0.5).epsilon(1e-15));
  }
}

TEST_CASE("temperature 0 is greedy: all mass on the argmax, lowest index on ties",
          "[sampling][invariant]") {
  const auto r = llmmath::sampling(from_logits(vec({1, 5, 2, 5, -3})), options(0, 3, 0.9));
  CHECK(ints(r.kept) == Ints{1});
  CHECK(r.probs == vec({0, 1, 0, 0, 0}));  // exact
  CHECK(r.tempered == vec({0, 1, 0, 0, 0}));
  CHECK(ints(r.order) == Ints{1, 3, 2, 0, 4});  // the ranking is still shown
  CHECK(r.kept_mass == 1.0);
  check_invariants(r);
  // from probabilities, too
  const auto g = llmmath::sampling(from_probs(vec({0.2, 0.3, 0.3, 0.2})), options(0));
  CHECK(ints(g.kept) == Ints{1});
  CHECK(g.probs(1) == 1.0);
}

TEST_CASE("temperature 0 is defined as greedy, not the limit T → 0, which splits tied top logits",
          "[sampling][invariant]") {
  const VectorXd z = vec({2, 2, 1});
  // T = 0: all the mass on the lower of the two tied indices, exactly
  const auto greedy = llmmath::sampling(from_logits(z), options(0));
  CHECK(greedy.probs == vec({1, 0, 0}));
  CHECK(ints(greedy.kept) == Ints{0});
  // T → 0+: the tied tokens keep equal weights (each exactly 1 relative to the top), so the
  // mass splits in half; the third token is e^(−1/T) of each, e^−100 ≈ 4e-44 at T = 0.01
  for (double T : {0.1, 0.01, 1e-6, 1e-310}) {
    INFO("T " << T);
    const auto r = llmmath::sampling(from_logits(z), options(T));
    CHECK(r.probs(1) == r.probs(0));  // exactly equal: the same weight over the same sum
    CHECK(r.probs(0) == Approx(0.5).margin(3e-5));  // e^(−1/0.1)/2 ≈ 2.3e-5 at T = 0.1
    CHECK(r.probs(2) < 5e-5);
  }
  // without a tie the limit and the definition agree
  CHECK(llmmath::sampling(from_logits(vec({2, 1.9, 1})), options(1e-6)).probs ==
        llmmath::sampling(from_logits(vec({2, 1.9, 1})), options(0)).probs);
}

TEST_CASE("a small temperature approaches the argmax and a large one approaches uniform",
          "[sampling][invariant]") {
  const VectorXd z = vec({0.3, 1.2, 1.1, -0.5});
  double previous = 0;
  for (double T : {2.0, 1.0, 0.5, 0.1, 0.01}) {
    const double top = llmmath::sampling(from_logits(z), options(T)).probs(1);
    CHECK(top > previous);  // strictly sharper as T falls
    previous = top;
  }
  // at T = 0.001 the runner-up is e^(−0.1/0.001) = e^−100 ≈ 4e-44 of the top token
  CHECK(llmmath::sampling(from_logits(z), options(0.001)).probs(1) == Approx(1).margin(1e-40));
  // a denormal temperature underflows every other weight to exactly 0, without NaN
  const auto tiny = llmmath::sampling(from_logits(z), options(1e-310));
  CHECK(tiny.probs == vec({0, 1, 0, 0}));
  CHECK(ints(tiny.kept) == Ints{1});
  const auto hot = llmmath::sampling(from_logits(z), options(1e6));
  for (Eigen::Index i = 0; i < 4; ++i) CHECK(hot.probs(i) == Approx(0.25).epsilon(1e-5));
}

TEST_CASE("temperature 1 with logits is the softmax, and with probs it returns probs",
          "[sampling][invariant]") {
  const VectorXd z = VectorXd::Random(50) * 4;
  const auto r = llmmath::sampling(from_logits(z));
  CHECK((r.probs - softmax(z)).cwiseAbs().maxCoeff() < 1e-15);  // same sums, few-ulp rounding
  CHECK(r.cutoff == 50);
  const VectorXd p = softmax(z);
  const auto q = llmmath::sampling(from_probs(p));
  CHECK((q.probs - p).cwiseAbs().maxCoeff() < 1e-15);
  // probs are treated as logits log p: at any temperature the same result (up to rounding)
  const auto via_logs = llmmath::sampling(from_logits(p.array().log().matrix()), options(0.7));
  const auto via_probs = llmmath::sampling(from_probs(p), options(0.7));
  CHECK((via_logs.probs - via_probs.probs).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("top-k keeps exactly k tokens, and all of them when k exceeds the vocabulary",
          "[sampling][invariant]") {
  const VectorXd z = vec({0.5, 2, -1, 1, 0});
  CHECK(llmmath::sampling(from_logits(z), options(1, 100)).cutoff == 5);
  CHECK(llmmath::sampling(from_logits(z), options(1, 5)).cutoff == 5);
  for (int k = 1; k <= 5; ++k) {
    const auto r = llmmath::sampling(from_logits(z), options(1, k));
    CHECK(r.cutoff == k);
    check_invariants(r);
  }
  // ties by lower index: (1, 1, 1) with k = 2 keeps tokens 0 and 1
  CHECK(ints(llmmath::sampling(from_logits(vec({1, 1, 1})), options(1, 2)).kept) == Ints{0, 1});
}

TEST_CASE("top-p keeps at least one token, and the smallest set reaching topP",
          "[sampling][invariant]") {
  const VectorXd z = VectorXd::Random(30) * 3;
  for (double top_p : {1e-12, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0}) {
    const auto r = llmmath::sampling(from_logits(z), options(1, 0, top_p));
    INFO("topP " << top_p);
    check_invariants(r);
    CHECK(r.kept_mass >= top_p - 1e-9);
    // one token fewer would fall short
    if (r.cutoff > 1) CHECK(r.cumulative(r.cutoff - 2) < top_p - 1e-9);
  }
  // a tail lighter than the tolerance is still kept when top-p is off (topP = 1)
  const auto off = llmmath::sampling(from_logits(vec({0, -30})));
  CHECK(off.cutoff == 2);
  CHECK(off.probs(1) > 0);
}

TEST_CASE("tokens of probability 0 are never kept or given mass", "[sampling][invariant]") {
  const auto r = llmmath::sampling(from_probs(vec({0, 0.5, 0, 0.5, 0})), options(3));
  CHECK(ints(r.kept) == Ints{1, 3});
  CHECK(r.probs == vec({0, 0.5, 0, 0.5, 0}));
  // an exp that underflows is a probability of 0, too
  const auto u = llmmath::sampling(from_logits(vec({0, -1000, -2000})), options(1, 3));
  CHECK(ints(u.kept) == Ints{0});
  CHECK(u.probs == vec({1, 0, 0}));
}

TEST_CASE("logits of ±1000 give no overflow", "[sampling][invariant]") {
  const auto r = llmmath::sampling(from_logits(vec({1000, 999, -1000})));
  CHECK(r.probs.allFinite());
  CHECK(r.probs(0) == Approx(1 / (1 + std::exp(-1.0))).epsilon(1e-15));
  CHECK(r.probs(2) == 0.0);
}

TEST_CASE("sampling matches the NumPy reference values", "[sampling][reference]") {
  int checked = 0;
  for (const auto& c : fixtures::load("sampling.txt")) {
    if (c.values.count("tempered") == 0) continue;
    INFO("case " << c.name);
    const bool is_probs = c.values.count("inputProbs") > 0;
    const VectorXd x = (is_probs ? c["inputProbs"] : c["logits"]).row(0).transpose();
    const auto r =
        llmmath::sampling(is_probs ? from_probs(x) : from_logits(x),
                          options(c.scalar("temperature"), c.scalar("topK"), c.scalar("topP")));
    // the reference works in long double; 1e-14 allows double rounding of sums of up to
    // 200 terms and of exp at arguments up to ~20
    CHECK((r.tempered - c["tempered"].row(0).transpose()).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((r.cumulative - c["cumulative"].row(0).transpose()).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((r.probs - c["probs"].row(0).transpose()).cwiseAbs().maxCoeff() < 1e-14);
    CHECK(r.kept_mass == Approx(c.scalar("keptMass")).epsilon(1e-14));
    CHECK(r.cutoff == int(c.scalar("cutoff")));
    CHECK(ints(r.order) == row_ints(c["order"]));  // exact
    CHECK(ints(r.kept) == row_ints(c["kept"]));
    check_invariants(r);
    ++checked;
  }
  CHECK(checked == 12);
}

TEST_CASE("SplitMix64 reproduces the published outputs for seed 0 and the reference uniforms",
          "[sampling][generator]") {
  llmmath::SplitMix64 g{0};
  CHECK(g.next() == 0xe220a8397b1dcdafu);
  CHECK(g.next() == 0x6e789e6aa1b965f4u);
  CHECK(g.next() == 0x06c45d188009454fu);
  llmmath::SplitMix64 h{42};
  for (const auto& c : fixtures::load("sampling.txt"))
    if (c.name == "splitmix_seed_42")
      for (Eigen::Index i = 0; i < c["uniforms"].cols(); ++i)
        CHECK(h.uniform() == c["uniforms"](0, i));  // exact: k·2^-53 in both
}

TEST_CASE("sample reproduces the reference draws exactly", "[sampling][reference]") {
  int checked = 0;
  for (const auto& c : fixtures::load("sampling.txt")) {
    if (c.values.count("draws") == 0) continue;
    INFO("case " << c.name);
    const VectorXi draws =
        llmmath::sample(c["probs"].row(0).transpose(), c.scalar("count"), c.scalar("seed"));
    CHECK(ints(draws) == row_ints(c["draws"]));
    ++checked;
  }
  CHECK(checked == 4);
}

TEST_CASE("the inverse CDF never draws a token of probability 0", "[sampling][sample]") {
  const VectorXd p = vec({0, 0.25, 0, 0.75, 0, 0});
  // edges: u = 0, the boundary 0.25 itself, and the largest uniform 1 − 2^-53, whose product
  // with the total may round up to it
  const VectorXd u = vec({0, 0.25 - 0x1p-54, 0.25, 0.5, 1 - 0x1p-53});
  CHECK(ints(llmmath::sample(p, u)) == Ints{1, 1, 3, 3, 3});
  // a total slightly above 1 (within the tolerance) and u at its top: last positive token
  const VectorXd q = vec({0.5, 0.5 + 5e-10, 0, 0});
  CHECK(ints(llmmath::sample(q, vec({1 - 0x1p-53}))) == Ints{1});
  // a million seeded draws from the same distribution
  const VectorXi draws = llmmath::sample(p, 1e6, 7);
  for (Eigen::Index t = 0; t < draws.size(); ++t)
    if (p(draws(t)) == 0) FAIL("drew token " << draws(t) << " of probability 0");
}

TEST_CASE("100,000 draws match the probabilities within 5 standard deviations",
          "[sampling][sample]") {
  const VectorXd p = vec({0.5, 0.2, 0.15, 0.1, 0.05, 0});
  const double N = 100000;
  for (double seed : {1.0, 2.0, 3.0}) {
    const VectorXi draws = llmmath::sample(p, N, seed);
    VectorXd freq = VectorXd::Zero(p.size());
    for (Eigen::Index t = 0; t < draws.size(); ++t) freq(draws(t)) += 1 / N;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      // binomial standard deviation sqrt(p(1 − p)/N); 5 of them: a fair sampler fails this
      // check with probability ~6e-7 per token
      const double sd = std::sqrt(p(i) * (1 - p(i)) / N);
      INFO("seed " << seed << ", token " << i);
      CHECK(std::fabs(freq(i) - p(i)) <= 5 * sd);
    }
    CHECK(freq(5) == 0.0);
  }
}

TEST_CASE("the same seed gives the same draws, and different seeds differ", "[sampling][sample]") {
  const VectorXd p = VectorXd::Constant(10, 0.1);
  const VectorXi a = llmmath::sample(p, 1000, 123);
  CHECK(ints(a) == ints(llmmath::sample(p, 1000, 123)));
  CHECK(ints(a) != ints(llmmath::sample(p, 1000, 124)));
  // draws are a stream: the first 10 of 1000 are the 10 of a shorter request
  CHECK(ints(a.head(10)) == ints(llmmath::sample(p, 10, 123)));
  // the largest seed is valid and differs from seed 0
  CHECK(ints(llmmath::sample(p, 50, 4294967295.0)) != ints(llmmath::sample(p, 50, 0)));
}

TEST_CASE("sampling and sample refuse bad input with a message naming the parameter",
          "[sampling][errors]") {
  const VectorXd z = vec({1, 2, 3});
  SECTION("input") {
    CHECK_THROWS_WITH(llmmath::sampling(SamplingInput{}),
                      "input must be { logits } or { probs }, got neither");
    SamplingInput both = from_logits(z);
    both.probs = vec({0.5, 0.5});
    CHECK_THROWS_WITH(llmmath::sampling(both), "input must be { logits } or { probs }, got both");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(VectorXd(0))),
                      "logits must be a non-empty array, got an empty one");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(vec({1, 2, INFINITY}))),
                      "logits[2] must be a finite number, got Infinity");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(vec({NAN}))),
                      "logits[0] must be a finite number, got NaN");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(VectorXd::Zero((1 << 20) + 1))),
                      Catch::StartsWith("logits must be at most 2^20"));
    CHECK_THROWS_WITH(llmmath::sampling(from_probs(vec({0.5, -0.1, 0.6}))),
                      "probs[1] must be a non-negative number, got -0.1");
    CHECK_THROWS_WITH(llmmath::sampling(from_probs(vec({0.5, 0.4}))),
                      "probs must be an array summing to 1 within 1e-9, got a sum of 0.9");
  }
  SECTION("options") {
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(1, 0, 1.5)),
                      "top_p must be in (0, 1], got 1.5");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(1, 0, 0)),
                      "top_p must be in (0, 1], got 0");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(1, 0, NAN)),
                      "top_p must be a finite number, got NaN");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(-0.5)),
                      "temperature must be ≥ 0 (0 is greedy), got -0.5");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(INFINITY)),
                      "temperature must be a finite number, got Infinity");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(1, 2.5)),
                      "top_k must be an integer, got 2.5");
    CHECK_THROWS_WITH(llmmath::sampling(from_logits(z), options(1, -1)),
                      "top_k must be an integer ≥ 0 (0 is off), got -1");
  }
  SECTION("sample") {
    const VectorXd p = vec({0.5, 0.5});
    CHECK_THROWS_WITH(llmmath::sample(p, 0, 1), "count must be an integer in [1, 1000000], got 0");
    CHECK_THROWS_WITH(llmmath::sample(p, 1e6 + 1, 1), Catch::Contains("1000000"));
    CHECK_THROWS_WITH(llmmath::sample(p, 1.5, 1), "count must be an integer, got 1.5");
    CHECK_THROWS_WITH(llmmath::sample(p, 1, 4294967296.0),
                      "seed must be an integer in [0, 4294967295], got 4294967296");
    CHECK_THROWS_WITH(llmmath::sample(p, 1, -1), Catch::StartsWith("seed must be"));
    CHECK_THROWS_WITH(llmmath::sample(p, 1, NAN), "seed must be a finite number, got NaN");
    CHECK_THROWS_WITH(llmmath::sample(vec({0.5, 0.6}), 1, 1), Catch::StartsWith("probs must be"));
    CHECK_THROWS_WITH(llmmath::sample(vec({0, 0}), 1, 1), Catch::Contains("got a sum of 0"));
    CHECK_THROWS_WITH(llmmath::sample(p, vec({0.5, 1})), "u[1] must be in [0, 1), got 1");
  }
}

// ---- topKMass and topKProbs: the distribution top-p cuts ------------------------------------

namespace {

// topKMass, topKProbs and cumulative against their definitions, for any result.
void check_top_k_fields(const llmmath::SamplingResult& r, double top_k) {
  const Eigen::Index n = r.tempered.size();
  const Eigen::Index k = top_k == 0 || top_k >= double(n) ? n : Eigen::Index(top_k);
  REQUIRE(r.top_k_probs.size() == n);
  std::vector<bool> in_top_k(static_cast<std::size_t>(n), false);
  double mass = 0, sum = 0;
  for (Eigen::Index j = 0; j < k; ++j) {
    in_top_k[std::size_t(r.order(j))] = true;
    mass += r.tempered(r.order(j));  // the same terms in the same order as the core: exact
  }
  CHECK(r.top_k_mass == mass);
  for (Eigen::Index j = 0; j < n; ++j) {
    const int i = r.order(j);
    if (in_top_k[std::size_t(i)]) {
      CHECK(r.top_k_probs(i) == r.tempered(i) / r.top_k_mass);  // one division: exact
      sum += r.top_k_probs(i);
    } else {
      CHECK(r.top_k_probs(i) == 0.0);  // outside the top k: exactly 0, not merely small
    }
    CHECK(r.cumulative(j) == sum);  // its running sum along order, term for term: exact
  }
  // Σ tempered / topKMass is 1 up to topKMass's k − 1 roundings; the k quotients and the k − 1
  // additions here round once each: (2k − 1)·2^-53 at most (2^-53, half of 1's last unit)
  CHECK(sum == Approx(1).margin(double(2 * k - 1) * 0x1p-53));
}

}  // namespace

TEST_CASE(
    "topKProbs is tempered / topKMass on the top-k tokens and 0 elsewhere, and cumulative is its "
    "running sum",
    "[sampling][invariant]") {
  const VectorXd z = vec({2.0, 1.5, 0.3, -0.7, 1.5, -2.0, 0.9});  // the golden file's logits, a tie
  const VectorXd wide = VectorXd::Random(200) * 5;
  for (double T : {0.0, 0.3, 1.0, 1.6}) {
    for (double k : {0.0, 1.0, 2.0, 3.0, 6.0, 7.0, 100.0}) {
      for (double p : {1.0, 0.9, 0.3}) {
        INFO("T " << T << ", topK " << k << ", topP " << p);
        check_top_k_fields(llmmath::sampling(from_logits(z), options(T, k, p)), k);
        check_top_k_fields(llmmath::sampling(from_logits(wide), options(T, k, p)), k);
        check_top_k_fields(
            llmmath::sampling(from_probs(vec({0.4, 0, 0.1, 0.4, 0.1})), options(T, k, p)), k);
      }
    }
  }
}

TEST_CASE("topKMass by hand: (1/2, 1/3, 1/6) with top-k 2 keeps 5/6, renormalised to (3/5, 2/5, 0)",
          "[sampling]") {
  const VectorXd z = vec({std::log(3.0), std::log(2.0), 0});
  const auto r = llmmath::sampling(from_logits(z), options(1, 2));
  CHECK(r.top_k_mass == Approx(5.0 / 6).epsilon(1e-15));  // exp and the sums round a few times
  CHECK(r.top_k_probs(0) == Approx(0.6).epsilon(1e-15));
  CHECK(r.top_k_probs(1) == Approx(0.4).epsilon(1e-15));
  CHECK(r.top_k_probs(2) == 0.0);
  // top-p 0.6 then cuts these: 3/5 alone reaches it, though 1/2 of the original would not
  CHECK(llmmath::sampling(from_logits(z), options(1, 2, 0.6)).cutoff == 1);
}

TEST_CASE("with top-k off topKMass is 1 within 1e-15, and at temperature 0 exactly 1",
          "[sampling][invariant]") {
  // tempered = w / Σw: Σw rounds n − 1 times, each quotient once, and topKMass's n − 1
  // additions once each: (2n − 1)·2^-53 at most, 1.0e-15 for the 5 tokens here (9.99e-16)
  for (const VectorXd& z : {vec({2.0, 1.5, 0.3, -0.7, -2.0}), vec({0.1, 0.2, 0.3}),
                            vec({1000, 999, -1000, 0, 5}), vec({7})}) {
    const double n = double(z.size());
    for (double T : {0.25, 1.0, 3.0}) {
      INFO("T " << T << ", " << n << " tokens");
      for (double k : {0.0, n, 1e6}) {  // off: 0, or at least the vocabulary
        const auto r = llmmath::sampling(from_logits(z), options(T, k));
        CHECK(r.top_k_mass == Approx(1).margin(1e-15));
        // so topKProbs = tempered / topKMass is tempered up to that factor and one more
        // rounding: 2n·2^-53 at most
        CHECK((r.top_k_probs - r.tempered).cwiseAbs().maxCoeff() <= 2 * n * 0x1p-53);
      }
    }
  }
  const auto greedy = llmmath::sampling(from_logits(vec({1, 5, 2, 5})), options(0, 3));
  CHECK(greedy.top_k_mass == 1.0);  // one-hot: 1 + 0 + 0
  CHECK(greedy.top_k_probs == vec({0, 1, 0, 0}));
}
