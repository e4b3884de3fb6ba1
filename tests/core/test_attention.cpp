// Attention (chapter section 1): the exercise, the invariants of a causal softmax, the
// reference values of reference/attention.py's fixture(), and every precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/attention.hpp"

using Eigen::MatrixXd;
using literals::mat;
using llmmath::attention;
using llmmath::AttentionOptions;

namespace {

AttentionOptions causal() {
  AttentionOptions o;
  o.causal = true;
  return o;
}

}  // namespace

TEST_CASE("exercise 1: the first query sees only key 1, so its output is V1 = (1, 0)",
          "[attention][exercise]") {
  // Three tokens; key 3 (a future token) has the largest raw score for query 1.
  const MatrixXd Q = mat({{1, 0}, {0, 1}, {1, 1}});
  const MatrixXd K = mat({{1, 0}, {0, 1}, {3, 0}});
  const MatrixXd V = mat({{1, 0}, {0, 1}, {0.5, 0.5}});
  const auto r = attention(Q, K, V, causal());

  // raw scores are reported before the mask: q1·k3/√2 = 3/√2 is the largest of row 1
  CHECK(r.scores(0, 2) == Approx(3 / std::sqrt(2.0)).epsilon(1e-15));
  CHECK(r.scores(0, 2) > r.scores(0, 0));
  // ... yet the mask removes it before normalisation: weights exactly (1, 0, 0)
  CHECK(r.weights(0, 0) == 1.0);
  CHECK(r.weights(0, 1) == 0.0);
  CHECK(r.weights(0, 2) == 0.0);
  CHECK(r.output(0, 0) == 1.0);
  CHECK(r.output(0, 1) == 0.0);
  CHECK_FALSE(r.visible(0, 2));
  CHECK(r.scale == Approx(1 / std::sqrt(2.0)).epsilon(1e-15));
}

TEST_CASE("hand-computed: two equal keys share the weight equally", "[attention]") {
  const auto r = attention(mat({{1, 1}}), mat({{2, 0}, {0, 2}}), mat({{4}, {8}}));
  // scores (2/√2, 2/√2) are equal, so weights 1/2 each and output (4 + 8)/2 = 6
  CHECK(r.weights(0, 0) == Approx(0.5).margin(1e-15));
  CHECK(r.output(0, 0) == Approx(6).epsilon(1e-15));
}

TEST_CASE("weight rows sum to 1 and masked weights are exactly 0", "[attention][invariant]") {
  const MatrixXd Q = MatrixXd::Random(6, 4) * 3, K = MatrixXd::Random(6, 4) * 3;
  const MatrixXd V = MatrixXd::Random(6, 3);
  for (bool is_causal : {false, true}) {
    AttentionOptions o;
    o.causal = is_causal;
    const auto r = attention(Q, K, V, o);
    for (Eigen::Index i = 0; i < 6; ++i) {
      CHECK(r.weights.row(i).sum() == Approx(1).margin(1e-12));  // rounding of 6 terms
      for (Eigen::Index j = 0; j < 6; ++j) {
        CHECK(r.weights(i, j) >= 0);
        if (is_causal && j > i) CHECK(r.weights(i, j) == 0.0);  // exact, not merely small
        if (!is_causal) CHECK(r.visible(i, j));
      }
    }
    // output = weights · V exactly as computed
    CHECK((r.output - r.weights * V).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("causal alignment: with fewer queries than keys, query i sits at nk − nq + i",
          "[attention][invariant]") {
  const MatrixXd K = MatrixXd::Random(5, 2), V = MatrixXd::Random(5, 2);
  SECTION("one query after a cache of four keys sees all five") {
    const auto r = attention(MatrixXd::Random(1, 2), K, V, causal());
    CHECK(r.positions(0) == 4);
    CHECK(r.visible.all());
    CHECK((r.weights.array() > 0).all());
  }
  SECTION("two queries are positions 3 and 4") {
    const auto r = attention(MatrixXd::Random(2, 2), K, V, causal());
    CHECK(r.positions(0) == 3);
    CHECK(r.positions(1) == 4);
    CHECK(r.weights(0, 4) == 0.0);
    CHECK(r.weights(0, 3) > 0);
    CHECK(r.visible.row(1).all());
  }
  SECTION("the last query row of a causal block equals the unmasked attention of that query") {
    const MatrixXd Q = MatrixXd::Random(5, 2);
    const auto full = attention(Q, K, V, causal());
    const auto last = attention(Q.bottomRows(1), K, V, causal());
    CHECK((full.weights.row(4) - last.weights.row(0)).cwiseAbs().maxCoeff() < 1e-15);
  }
}

TEST_CASE("extreme scores give no NaN: the softmax is shifted by the row maximum",
          "[attention][invariant]") {
  // scores of +1000 and −1000 (scale 1): exp(1000) alone would overflow a double
  AttentionOptions o;
  o.scale = 1.0;
  const auto r = attention(mat({{1000}, {-1000}}), mat({{1}, {-1}}), mat({{1, 0}, {0, 1}}), o);
  CHECK(r.weights.allFinite());
  CHECK(r.output.allFinite());
  CHECK(r.weights(0, 0) == 1.0);  // e^-2000 underflows to exactly 0
  CHECK(r.weights(0, 1) == 0.0);
  CHECK(r.weights(1, 0) == 0.0);
  CHECK(r.weights(1, 1) == 1.0);
}

TEST_CASE("attention matches the NumPy reference values", "[attention][reference]") {
  for (const auto& c : fixtures::load("attention.txt")) {
    if (c.values.count("q") == 0) continue;  // the dilution cases
    INFO("case " << c.name);
    AttentionOptions o;
    o.causal = c.scalar("causal") != 0;
    if (!std::isnan(c.scalar("scale"))) o.scale = c.scalar("scale");
    const auto r = attention(c["q"], c["k"], c["v"], o);
    // the reference works in long double; 1e-12 leaves room for double rounding in sums of
    // up to 16 terms of magnitude up to ~30
    CHECK((r.scores - c["scores"]).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((r.weights - c["weights"]).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((r.output - c["output"]).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("contextDilution: one relevant key among n distractors", "[attention][dilution]") {
  SECTION("hand-computed") {
    // a = b: every key equal, so 1/(n + 1)
    CHECK(llmmath::context_dilution(0, 0, 3).relevant_weight == Approx(0.25).epsilon(1e-15));
    // n = 0: the relevant key keeps everything
    CHECK(llmmath::context_dilution(1, 5, 0).relevant_weight == 1.0);
    // e^2/(e^2 + 10) = 0.42490...
    CHECK(llmmath::context_dilution(2, 0, 10).relevant_weight ==
          Approx(std::exp(2.0) / (std::exp(2.0) + 10)).epsilon(1e-14));
  }
  SECTION("weights add up: relevant + n·each distractor = 1") {
    const auto r = llmmath::context_dilution(3, 1, 50);
    CHECK(r.relevant_weight + 50 * r.distractor_weight == Approx(1).epsilon(1e-14));
    CHECK(r.relevant_weight + r.distractor_mass == Approx(1).epsilon(1e-14));
  }
  SECTION("more distractors always dilute more") {
    double previous = 1;
    for (double n : {1.0, 10.0, 100.0, 1e4, 1e8}) {
      const double w = llmmath::context_dilution(4, 0, n).relevant_weight;
      CHECK(w < previous);
      previous = w;
    }
  }
  SECTION("huge scores do not overflow") {
    const auto r = llmmath::context_dilution(1000, 999, 1e6);
    CHECK(std::isfinite(r.relevant_weight));
    CHECK(r.relevant_weight == Approx(1 / (1 + 1e6 * std::exp(-1.0))).epsilon(1e-12));
  }
  SECTION("matches the NumPy reference values") {
    for (const auto& c : fixtures::load("attention.txt")) {
      if (c.values.count("relevantWeight") == 0) continue;
      INFO("case " << c.name);
      const double w =
          llmmath::context_dilution(c.scalar("relevantScore"), c.scalar("distractorScore"),
                                    c.scalar("distractors"))
              .relevant_weight;
      CHECK(w == Approx(c.scalar("relevantWeight")).epsilon(1e-13));
    }
  }
}

TEST_CASE("attention refuses bad input with a message naming the parameter",
          "[attention][errors]") {
  const MatrixXd M = MatrixXd::Ones(2, 2);
  CHECK_THROWS_WITH(attention(MatrixXd(0, 2), M, M), Catch::StartsWith("q must be a non-empty"));
  CHECK_THROWS_WITH(attention(M, MatrixXd::Ones(2, 3), M),
                    "k must be a matrix with 2 columns (d of q), got 3 columns");
  CHECK_THROWS_WITH(attention(M, M, MatrixXd::Ones(3, 2)),
                    "v must be a matrix with 2 rows (one per key), got 3 rows");
  MatrixXd bad = M;
  bad(1, 1) = NAN;
  CHECK_THROWS_WITH(attention(M, bad, M), "k[1][1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(attention(MatrixXd::Ones(3, 2), M, M, causal()),
                    Catch::StartsWith("q must be at most as many rows as k (2) when causal"));
  AttentionOptions o;
  o.scale = INFINITY;
  CHECK_THROWS_WITH(attention(M, M, M, o), "scale must be a finite number, got Infinity");
  o.scale = 1e300;
  CHECK_THROWS_WITH(attention(M * 1e10, M * 1e10, M, o), Catch::StartsWith("q must be vectors"));
  CHECK_THROWS_WITH(
      attention(MatrixXd::Ones(4096, 1), MatrixXd::Ones(4096, 1), MatrixXd::Ones(4096, 100)),
      Catch::Contains("2^30"));
  CHECK_THROWS_WITH(llmmath::context_dilution(1, 0, -1), Catch::StartsWith("distractors"));
  CHECK_THROWS_WITH(llmmath::context_dilution(1, 0, 2.5),
                    "distractors must be an integer, got 2.5");
  CHECK_THROWS_WITH(llmmath::context_dilution(NAN, 0, 2),
                    "relevant_score must be a finite number, got NaN");
}

TEST_CASE("attention refuses more than 2^22 scores, naming k, from the shapes alone",
          "[attention][limits]") {
  // 4096 × 1 (nq·nk = 2^24) passed the 2^30 work limit and took 6 s through the JS API
  CHECK_THROWS_WITH(llmmath::require_attention_dims(4096, 1, 4096, 1, 4096, 1),
                    "k must be at most 1024 rows for 4096 queries (nq·nk at most 2^22 = 4194304 "
                    "scores), got 4096 rows");
  CHECK_THROWS_WITH(
      attention(MatrixXd::Ones(4096, 1), MatrixXd::Ones(4096, 1), MatrixXd::Ones(4096, 1)),
      Catch::StartsWith("k must be at most 1024 rows"));
  CHECK_NOTHROW(llmmath::require_attention_dims(2048, 128, 2048, 128, 2048, 128));  // both limits
  CHECK_THROWS_WITH(llmmath::require_attention_dims(2048, 129, 2048, 129, 2048, 128),
                    Catch::Contains("2^30"));  // the work limit comes first
  // every shape precondition of attention() is in require_attention_dims
  CHECK_THROWS_WITH(llmmath::require_attention_dims(3, 2, 3, 3, 3, 2),
                    "k must be a matrix with 2 columns (d of q), got 3 columns");
  CHECK_THROWS_WITH(llmmath::require_attention_dims(3, 2, 3, 2, 2, 2),
                    "v must be a matrix with 3 rows (one per key), got 2 rows");
  CHECK_THROWS_WITH(llmmath::require_attention_dims(0, 2, 3, 2, 3, 2),
                    Catch::StartsWith("q must be a non-empty"));
}

TEST_CASE("an output that overflows a double is an error naming v, not Infinity",
          "[attention][limits]") {
  // weights (0.32, 0.33, 0.34) of three values 1.8e308: the rounded average passes the largest
  // double (found by search; the same in WebAssembly)
  const MatrixXd K = mat({{0}, {0.024}, {0.048}});
  const MatrixXd V = MatrixXd::Constant(3, 1, std::numeric_limits<double>::max());
  AttentionOptions o;
  o.scale = 1;
  CHECK_THROWS_WITH(attention(mat({{1}}), K, V, o),
                    "v must be values whose weighted averages are finite, got an average that "
                    "overflows a double (entries near 1.8e308)");
  // a little below the largest double the average stays finite
  const auto r = attention(mat({{1}}), K, MatrixXd::Constant(3, 1, 1e308), o);
  CHECK(std::isfinite(r.output(0, 0)));
}

TEST_CASE("the column-by-column softmax gives each row what a row-by-row loop gives, bit for bit",
          "[attention][invariant]") {
  // 7 queries after 9 keys, causal: every row has its own maximum, sum and masked tail
  MatrixXd Q(7, 3), K(9, 3), V(9, 2);
  for (Eigen::Index i = 0; i < Q.size(); ++i) Q(i) = std::sin(1.3 * double(i));
  for (Eigen::Index i = 0; i < K.size(); ++i) K(i) = std::cos(0.7 * double(i)) * 4;
  for (Eigen::Index i = 0; i < V.size(); ++i) V(i) = double(i % 5) - 2;
  const auto r = attention(Q, K, V, causal());
  for (Eigen::Index i = 0; i < 7; ++i) {
    double row_max = -INFINITY, sum = 0;
    for (Eigen::Index j = 0; j < 9; ++j)
      if (r.visible(i, j)) row_max = std::max(row_max, r.scores(i, j));
    Eigen::VectorXd w = Eigen::VectorXd::Zero(9);
    for (Eigen::Index j = 0; j < 9; ++j)
      if (r.visible(i, j)) sum += w(j) = std::exp(r.scores(i, j) - row_max);
    for (Eigen::Index j = 0; j < 9; ++j) CHECK(r.weights(i, j) == w(j) / sum);  // exact
  }
}

// ---- contextDilution swept over the distractor count (figure 1.2) -------------------------

TEST_CASE("contextDilutionSweep gives context_dilution at every count, bit for bit",
          "[attention][dilution][sweep]") {
  // the counts: none, a few, the page's range, 2^53 − 1 and the largest, 2^53, in no order
  const Eigen::VectorXd n =
      literals::vec({0, 1, 2, 7, 100, 4096, 1e6, 9007199254740991.0, 9007199254740992.0, 3, 0});
  struct Scores {
    double a, b;
  };
  // equal scores, the chapter's gap, a distractor above the relevant key, ±1000 (e^a alone
  // overflows), and the extremes, whose difference b − a overflows to infinity
  for (const Scores s : {Scores{0, 0}, Scores{4, 0}, Scores{-3, 5}, Scores{1000, 999},
                         Scores{-1e308, 1e308}, Scores{1e308, -1e308}}) {
    INFO("relevantScore " << s.a << ", distractorScore " << s.b);
    const auto r = llmmath::context_dilution_sweep(s.a, s.b, n);
    REQUIRE(r.relevant_weight.size() == n.size());
    REQUIRE(r.distractor_weight.size() == n.size());
    REQUIRE(r.distractor_mass.size() == n.size());
    CHECK(r.distractors == n);  // the counts, as given
    for (Eigen::Index i = 0; i < n.size(); ++i) {
      INFO("distractors " << n(i));
      const auto p = llmmath::context_dilution(s.a, s.b, n(i));
      // tolerance 0: the sweep calls context_dilution() itself at each point
      CHECK(r.relevant_weight(i) == p.relevant_weight);
      CHECK(r.distractor_weight(i) == p.distractor_weight);
      CHECK(r.distractor_mass(i) == p.distractor_mass);
    }
  }
  // one point is a sweep too
  CHECK(llmmath::context_dilution_sweep(2, 0, literals::vec({10})).relevant_weight(0) ==
        llmmath::context_dilution(2, 0, 10).relevant_weight);
}

TEST_CASE("contextDilutionSweep: the relevant weight falls at every step as distractors are added",
          "[attention][dilution][sweep][invariant]") {
  // 0, 1, …, 4095: the largest sweep. At n ≈ 4095 one more distractor lowers e^4/(e^4 + n) by
  // about e^4/n² ≈ 3e-6, far above the rounding of a value near 0.013
  const Eigen::VectorXd n = Eigen::VectorXd::LinSpaced(4096, 0, 4095);
  const auto r = llmmath::context_dilution_sweep(4, 0, n);
  CHECK(r.relevant_weight(0) == 1.0);  // no distractor: all the weight
  for (Eigen::Index i = 1; i < n.size(); ++i) {
    if (!(r.relevant_weight(i) < r.relevant_weight(i - 1)))
      FAIL("relevant weight did not fall from n = " << n(i - 1) << " to n = " << n(i));
    if (!(r.distractor_mass(i) > r.distractor_mass(i - 1)))
      FAIL("distractor mass did not rise from n = " << n(i - 1) << " to n = " << n(i));
  }
  // the weights of one point add up to 1: 1 + t, the two quotients and their sum are each
  // rounded once, four half-units of 1's last place at most (4.5e-16)
  CHECK(((r.relevant_weight + r.distractor_mass).array() - 1).abs().maxCoeff() <= 4.5e-16);
  // and on a logarithmic grid up to 2^53, the range of the figure's axis
  const auto wide = llmmath::context_dilution_sweep(
      4, 0, literals::vec({1, 10, 100, 1e4, 1e8, 1e12, 1e15, 9007199254740992.0}));
  for (Eigen::Index i = 1; i < wide.relevant_weight.size(); ++i)
    CHECK(wide.relevant_weight(i) < wide.relevant_weight(i - 1));
}

TEST_CASE("contextDilutionSweep refuses bad input, naming the array or its entry",
          "[attention][dilution][sweep][errors]") {
  using literals::vec;
  using llmmath::context_dilution_sweep;
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, Eigen::VectorXd(0)),
                    "distractors must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(
      context_dilution_sweep(1, 0, Eigen::VectorXd::Zero(4097)),
      "distractors must be at most 4096 entries (points of a sweep), got 4097 entries");
  CHECK_NOTHROW(context_dilution_sweep(1, 0, Eigen::VectorXd::Zero(4096)));  // the limit itself
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, vec({0, 3, 2.5})),
                    "distractors[2] must be an integer, got 2.5");
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, vec({5, -1})),
                    "distractors[1] must be an integer in [0, 9007199254740992], got -1");
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, vec({NAN, 1})),
                    "distractors[0] must be a finite number, got NaN");
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, vec({1, 2, INFINITY})),
                    "distractors[2] must be a finite number, got Infinity");
  CHECK_THROWS_WITH(
      context_dilution_sweep(1, 0, vec({9007199254740994.0})),
      "distractors[0] must be an integer in [0, 9007199254740992], got 9007199254740994");
  // the first bad entry is the one named
  CHECK_THROWS_WITH(context_dilution_sweep(1, 0, vec({1, 1.5, -1})),
                    Catch::StartsWith("distractors[1] "));
  // the scores, as context_dilution() names them, before any count is looked at
  CHECK_THROWS_WITH(context_dilution_sweep(NAN, 0, vec({1})),
                    "relevant_score must be a finite number, got NaN");
  CHECK_THROWS_WITH(context_dilution_sweep(1, -INFINITY, vec({1.5})),
                    "distractor_score must be a finite number, got -Infinity");
}
