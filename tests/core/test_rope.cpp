// RoPE (chapter section 3): the exercise, the invariants of a rotation (relative offsets
// only, norms kept), the reference values of reference/rope.py's fixture(), and every
// precondition.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/rope.hpp"

using Eigen::VectorXd;
using literals::vec;
using llmmath::rope;
using llmmath::RopeOptions;
using llmmath::RopePairing;

namespace {

RopeOptions with_freqs(std::initializer_list<double> freqs) {
  RopeOptions o;
  o.freqs = vec(freqs);
  return o;
}

RopeOptions with_base(double base, RopePairing pairing = RopePairing::interleaved) {
  RopeOptions o;
  o.base = base;
  o.pairing = pairing;
  return o;
}

}  // namespace

TEST_CASE("exercise 3: d = 4, frequencies 0.01 and 0.0001, two positions apart",
          "[rope][exercise]") {
  const VectorXd q = vec({1, 0, 1, 0});
  const auto r = rope(q, q, 2, 0, with_freqs({0.01, 0.0001}));
  // raw = cos(0.02) + cos(0.0002) ≈ 1.9997999867; each pair contributes one cosine
  CHECK(r.raw == Approx(std::cos(0.02) + std::cos(0.0002)).epsilon(1e-15));
  CHECK(r.raw == Approx(1.9997999867).margin(5e-11));  // the seed's 10 decimals
  CHECK(r.scaled == Approx(0.9998999933).margin(5e-11));
  CHECK(r.scaled == r.raw / 2);  // sqrt(4) = 2: exact
  CHECK(r.pair_scores(0) == Approx(std::cos(0.02)).epsilon(1e-15));
  CHECK(r.pair_scores(1) == Approx(std::cos(0.0002)).epsilon(1e-15));
  // the query turned by 2·θ_i, the key at position 0 not at all
  CHECK(r.angles(0, 0) == 0.02);
  CHECK(r.angles(1, 0) == 0.0002);
  CHECK(r.angles(0, 1) == 0.0);
  CHECK(r.q_rotated(1) == Approx(std::sin(0.02)).epsilon(1e-15));
  CHECK(r.k_rotated == q);  // cos 0 = 1 and sin 0 = 0 exactly
}

TEST_CASE("hand-computed: a quarter turn of (1, 0) is (0, 1), and the pairings differ", "[rope]") {
  const double quarter = std::acos(0.0);  // π/2
  const auto r = rope(vec({1, 0}), vec({0, 1}), 1, 0, with_freqs({quarter}));
  CHECK(r.q_rotated(0) == Approx(0).margin(1e-16));  // cos(π/2) ≈ 6e-17 in doubles
  CHECK(r.q_rotated(1) == 1.0);
  CHECK(r.raw == 1.0);

  // (x0, x1, x2, x3) = (1, 2, 3, 4), θ = (π/2, 0): interleaved turns (1, 2), half turns (1, 3)
  RopeOptions o = with_freqs({quarter, 0});
  const auto inter = rope(vec({1, 2, 3, 4}), vec({1, 2, 3, 4}), 1, 0, o);
  CHECK(inter.q_rotated(0) == Approx(-2).epsilon(1e-15));
  CHECK(inter.q_rotated(1) == Approx(1).epsilon(1e-15));
  CHECK(inter.q_rotated(2) == 3.0);
  CHECK(inter.pairs(1, 0) == 2.0);
  CHECK(inter.pairs(1, 1) == 3.0);
  o.pairing = RopePairing::half;
  const auto half = rope(vec({1, 2, 3, 4}), vec({1, 2, 3, 4}), 1, 0, o);
  CHECK(half.q_rotated(0) == Approx(-3).epsilon(1e-15));
  CHECK(half.q_rotated(2) == Approx(1).epsilon(1e-15));
  CHECK(half.q_rotated(1) == 2.0);
  CHECK(half.pairs(0, 1) == 2.0);
}

TEST_CASE("the default base is 10000: θ_i = 10000^(−2i/d)", "[rope]") {
  const VectorXd x = VectorXd::LinSpaced(8, -1, 1);
  const auto r = rope(x, x, 3, 1);
  CHECK(r.thetas(0) == 1.0);
  CHECK(r.thetas(1) == Approx(0.1).epsilon(1e-15));   // 10000^(−1/4)
  CHECK(r.thetas(2) == Approx(0.01).epsilon(1e-15));  // 10000^(−1/2)
  CHECK(r.thetas(3) == Approx(0.001).epsilon(1e-15));
  const auto same = rope(x, x, 3, 1, with_base(10000));
  CHECK(same.raw == r.raw);
}

TEST_CASE("raw depends only on m − n", "[rope][invariant]") {
  const VectorXd q = VectorXd::Random(16), k = VectorXd::Random(16);
  for (auto pairing : {RopePairing::interleaved, RopePairing::half}) {
    const RopeOptions o = with_base(10000, pairing);
    const double reference = rope(q, k, 5, 2, o).raw;  // offset 3
    for (double shift : {-100.0, -5.0, 1.0, 17.0, 1000.0, 123456.0}) {
      // pos·θ_i rounds to ~1.1e-16·|pos| rad, which moves each pair's term by that much
      // times |q_i||k_i| (Σ ≤ |q||k| ≤ 16): 1e-14 per unit of position covers it
      CHECK(rope(q, k, 5 + shift, 2 + shift, o).raw ==
            Approx(reference).margin(1e-14 * (1 + std::abs(shift))));
    }
    // a different offset gives a different score
    CHECK(rope(q, k, 6, 2, o).raw != Approx(reference).margin(1e-6));
  }
}

TEST_CASE(
    "raw and the pair scores are bitwise the same when both positions shift, at any magnitude",
    "[rope][invariant]") {
  // A case that once failed: rotating q and k by m·θ and n·θ separately and then taking the dot
  // product cancels terms of 1e306 to leave 1e248, so the old raw was 2.1e248 at m = n = 0 and
  // −1.6e290 at m = n = 1. From the offset alone the rounding cannot depend on the shift.
  const VectorXd q = vec({1.5, -1.26e58, 1.5, 1.5}), k = vec({1.43e248, 0, 0, 4});
  const auto at0 = rope(q, k, 0, 0);
  CHECK(at0.raw == q.dot(k));  // no turn at all: exact
  CHECK(at0.raw == Approx(1.5 * 1.43e248).epsilon(1e-15));
  for (double shift : {1.0, -1.0, 7.0, 1e6, -123456789.0}) {
    INFO("shift " << shift);
    const auto r = rope(q, k, shift, shift);
    CHECK(r.raw == at0.raw);
    CHECK(r.pair_scores == at0.pair_scores);
  }
  // Random extreme magnitudes, whole offsets and shifts, both pairings: every result bit for bit
  // (the shifts keep m and n exact integers, so m − n is the same double).
  std::mt19937_64 gen(20261203);
  std::uniform_real_distribution<double> mantissa(-1, 1), exponent(-300, 300);
  std::uniform_int_distribution<int> position(-1000, 1000);
  for (auto pairing : {RopePairing::interleaved, RopePairing::half}) {
    for (int trial = 0; trial < 200; ++trial) {
      VectorXd a(6), b(6);
      // magnitudes up to 1e150 each, so that no product of two coordinates overflows
      for (Eigen::Index i = 0; i < 6; ++i) {
        a(i) = mantissa(gen) * std::pow(10.0, exponent(gen) / 2);
        b(i) = mantissa(gen) * std::pow(10.0, exponent(gen) / 2);
      }
      const double m = position(gen), n = position(gen), shift = position(gen) * 1000.0;
      const RopeOptions o = with_base(10000, pairing);
      const auto r = rope(a, b, m, n, o), shifted = rope(a, b, m + shift, n + shift, o);
      INFO("trial " << trial << ", m " << m << ", n " << n << ", shift " << shift);
      CHECK(shifted.raw == r.raw);
      CHECK(shifted.scaled == r.scaled);
      CHECK(shifted.pair_scores == r.pair_scores);
    }
  }
}

TEST_CASE("rope reports the offset m − n its score depends on", "[rope]") {
  const VectorXd q = literals::vec({1, 0, 0, 1}), k = literals::vec({0, 1, 1, 0});
  // whole positions: m − n is exact in a double
  CHECK(rope(q, k, 5, 2).offset == 3);
  CHECK(rope(q, k, 2, 5).offset == -3);
  CHECK(rope(q, k, 7, 7).offset == 0);
  CHECK(rope(q, k, 123456789, -987654321).offset == 1111111110);
  // the score at (m, n) is the score at (m − n, 0): what the figure's shifted call relies on
  const auto r = rope(q, k, 9, 4);
  CHECK(rope(q, k, r.offset, 0).raw == Approx(r.raw).margin(1e-14));
}

TEST_CASE("rotation preserves the norm of every pair and of the vector", "[rope][invariant]") {
  const VectorXd q = VectorXd::Random(12) * 5, k = VectorXd::Random(12);
  for (auto pairing : {RopePairing::interleaved, RopePairing::half}) {
    const auto r = rope(q, k, 37, -11, with_base(500000, pairing));
    CHECK(r.q_rotated.norm() == Approx(q.norm()).epsilon(1e-14));  // rounding in 12 terms
    CHECK(r.k_rotated.norm() == Approx(k.norm()).epsilon(1e-14));
    for (Eigen::Index i = 0; i < 6; ++i) {
      const auto a = Eigen::Index(r.pairs(i, 0)), b = Eigen::Index(r.pairs(i, 1));
      CHECK(std::hypot(r.q_rotated(a), r.q_rotated(b)) ==
            Approx(std::hypot(q(a), q(b))).epsilon(1e-14));
    }
    CHECK(r.pair_scores.sum() == Approx(r.raw).margin(1e-13));  // same terms, another order
  }
}

TEST_CASE("rope at position 0 leaves a vector unchanged, and at equal positions gives q·k",
          "[rope][invariant]") {
  const VectorXd q = VectorXd::Random(6), k = VectorXd::Random(6);
  const auto r = rope(q, k, 0, 0);
  CHECK(r.q_rotated == q);
  CHECK(r.k_rotated == k);
  CHECK(rope(q, k, 250, 250).raw == Approx(q.dot(k)).margin(1e-14));
}

TEST_CASE("rope matches the NumPy reference values", "[rope][reference]") {
  for (const auto& c : fixtures::load("rope.txt")) {
    INFO("case " << c.name);
    RopeOptions o;
    o.pairing = c.scalar("pairing") == 0 ? RopePairing::interleaved : RopePairing::half;
    if (std::isnan(c.scalar("base")))
      o.freqs = VectorXd(c["freqs"].row(0).transpose());
    else
      o.base = c.scalar("base");
    const VectorXd q = c["q"].row(0).transpose(), k = c["k"].row(0).transpose();
    const double m = c.scalar("m"), n = c.scalar("n");
    const auto r = rope(q, k, m, n, o);
    // NumPy's power and the core's std::pow may differ by one unit in the last place of θ_i
    // (≤ 2e-17 absolute for θ ≤ 1/8, 2.3e-16 relative), which turns into an angle difference
    // of up to |pos|·2e-17 rad; on top of that, cos, sin and the rotation round to within
    // 1e-14 of the largest coordinate (the cases reach 1e248, so relative to it).
    for (Eigen::Index i = 0; i < r.thetas.size(); ++i)
      CHECK(r.thetas(i) == Approx(c["thetas"](0, i)).epsilon(2.3e-16));
    const double size_q = std::max(1.0, q.cwiseAbs().maxCoeff());
    const double size_k = std::max(1.0, k.cwiseAbs().maxCoeff());
    const double drift_q = (1e-14 + 2e-17 * std::abs(m)) * size_q;
    const double drift_k = (1e-14 + 2e-17 * std::abs(n)) * size_k;
    CHECK((r.q_rotated - c["qRotated"].row(0).transpose()).cwiseAbs().maxCoeff() < drift_q);
    CHECK((r.k_rotated - c["kRotated"].row(0).transpose()).cwiseAbs().maxCoeff() < drift_k);
    // Both take raw from the offset, R(m − n)q · k. Pair i's terms, turned by φ = (m − n)·θ_i,
    // are at most T_i = (|q_a||cos φ| + |q_b||sin φ|)|k_a| + (|q_a||sin φ| + |q_b||cos φ|)|k_b|;
    // cos, sin and the rotation round each by 2e-15 of it, the sum of d terms adds d·1.2e-16
    // (the dot product's bound γ_d), and an angle off by |m − n|·2e-17 moves the pair by that
    // times (|q_a| + |q_b|)(|k_a| + |k_b|). At m = n nothing turns, and the bound is that of q·k.
    double drift_raw = 0;
    for (Eigen::Index i = 0; i < r.pairs.rows(); ++i) {
      const auto a = Eigen::Index(r.pairs(i, 0)), b = Eigen::Index(r.pairs(i, 1));
      const double phi = r.offset * r.thetas(i);
      const double cos_phi = std::abs(std::cos(phi)), sin_phi = std::abs(std::sin(phi));
      const double qa = std::abs(q(a)), qb = std::abs(q(b)), ka = std::abs(k(a)),
                   kb = std::abs(k(b));
      const double terms = (qa * cos_phi + qb * sin_phi) * ka + (qa * sin_phi + qb * cos_phi) * kb;
      drift_raw += (2e-15 + double(q.size()) * 1.2e-16) * terms +
                   2e-17 * std::abs(r.offset) * (qa + qb) * (ka + kb);
    }
    CHECK(r.raw == Approx(c.scalar("raw")).margin(drift_raw));
    CHECK(r.scaled == Approx(c.scalar("scaled")).margin(drift_raw / std::sqrt(q.size())));
  }
}

TEST_CASE("rope refuses bad input with a message naming the parameter", "[rope][errors]") {
  const VectorXd x = vec({1, 0, 1, 0});
  CHECK_THROWS_WITH(rope(VectorXd(0), x, 0, 0), "q must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(
      rope(vec({1, 2, 3}), vec({1, 2, 3}), 0, 0),
      "q must be an array of even length d (coordinates come in pairs), got length 3");
  CHECK_THROWS_WITH(rope(x, vec({1, 0}), 0, 0),
                    "k must be an array of length 4 (d of q), got length 2");
  CHECK_THROWS_WITH(rope(x, vec({1, NAN, 0, 0}), 0, 0), "k[1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(rope(x, x, INFINITY, 0), "m must be a finite number, got Infinity");
  CHECK_THROWS_WITH(rope(x, x, 0, NAN), "n must be a finite number, got NaN");
  CHECK_THROWS_WITH(rope(x, x, 0, 0, with_base(1)), "base must be greater than 1, got 1");
  CHECK_THROWS_WITH(rope(x, x, 0, 0, with_base(-INFINITY)),
                    "base must be a finite number, got -Infinity");
  CHECK_THROWS_WITH(rope(x, x, 0, 0, with_freqs({0.1})),
                    "freqs must be an array of length 2 (d/2, one per pair), got length 1");
  CHECK_THROWS_WITH(rope(x, x, 0, 0, with_freqs({0.1, INFINITY})),
                    "freqs[1] must be a finite number, got Infinity");
  RopeOptions both = with_freqs({0.1, 0.2});
  both.base = 100;
  CHECK_THROWS_WITH(rope(x, x, 0, 0, both),
                    "opts must be an object with base or freqs, not both, got both");
  CHECK_THROWS_WITH(rope(x, x, 1e300, 0, with_freqs({1e10, 1})),
                    "m must be a position whose angles m·θ_i are finite numbers, got 1e+300");
  // each position's angles finite, but not the offset's: the score is computed from m − n
  CHECK_THROWS_WITH(rope(x, x, 1e308, -1e308, with_freqs({1e-10, 1e-10})),
                    "n must be a position whose offset m − n and its angles (m − n)·θ_i are finite "
                    "numbers, got -1e+308");
  CHECK_THROWS_WITH(rope(x, x, 1e300, -1e300, with_freqs({1e8, 1})),
                    "n must be a position whose offset m − n and its angles (m − n)·θ_i are finite "
                    "numbers, got -1e+300");
  CHECK_THROWS_WITH(rope(x * 1e200, x * 1e200, 0, 0), Catch::StartsWith("q must be a vector"));
  CHECK_THROWS_WITH(rope(VectorXd::Zero((1 << 20) + 2), VectorXd::Zero((1 << 20) + 2), 0, 0),
                    Catch::StartsWith("q must be at most 2^20"));
}

TEST_CASE("rope_scores equals rope() at each offset and depends on the offset only",
          "[rope][scores]") {
  const VectorXd q = vec({0.3, -1.2, 0.8, 0.5}), k = vec({1.1, 0.4, -0.6, 0.9});
  const VectorXd offsets = vec({-7, -1, 0, 2, 40});
  const auto r = llmmath::rope_scores(q, k, offsets);
  for (Eigen::Index t = 0; t < offsets.size(); ++t) {
    const auto one = llmmath::rope(q, k, offsets(t) + 100, 100);  // same offset, shifted
    CHECK(r.raw(t) == Approx(one.raw).margin(1e-12));  // rotations by 100·θ round differently
    CHECK(r.scaled(t) == Approx(one.raw / 2).margin(1e-12));
  }
  CHECK_THROWS_WITH(llmmath::rope_scores(q, k, Eigen::VectorXd(0)), Catch::StartsWith("offsets"));
  CHECK_THROWS_WITH(llmmath::rope_scores(q, k, vec({1, NAN})),
                    "offsets[1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(llmmath::rope_scores(vec({1, 2, 3}), vec({1, 2, 3}), vec({0})),
                    Catch::StartsWith("q must be an array of even length"));
}

TEST_CASE("rope_scores gives exactly rope(q, k, offset, 0) at every offset, in both pairings",
          "[rope][scores]") {
  const VectorXd q = vec({0.3, -1.2, 0.8, 0.5, -0.7, 1.1});
  const VectorXd k = vec({1.1, 0.4, -0.6, 0.9, 0.2, -0.3});
  const VectorXd offsets = vec({-7, -1, 0, 2, 40, 1e6, -0.5});
  for (const auto pairing : {RopePairing::interleaved, RopePairing::half}) {
    RopeOptions o;
    o.pairing = pairing;
    const auto r = llmmath::rope_scores(q, k, offsets, o);
    for (Eigen::Index t = 0; t < offsets.size(); ++t) {
      const auto one = rope(q, k, offsets(t), 0, o);
      CHECK(r.raw(t) == one.raw);  // exact: the same operations on the same numbers
      CHECK(r.scaled(t) == one.scaled);
    }
  }
}

TEST_CASE("rope_scores names the offset whose angles overflow, and limits its work to 2^24",
          "[rope][scores][limits]") {
  RopeOptions o;
  o.freqs = vec({1e300});
  CHECK_THROWS_WITH(llmmath::rope_scores(vec({1, 0}), vec({1, 0}), vec({1, 1e10}), o),
                    "offsets[1] must be a position whose angles offsets[1]·θ_i are finite "
                    "numbers, got 10000000000");
  const VectorXd offsets = VectorXd::Zero(1 << 20);
  CHECK_THROWS_WITH(llmmath::rope_scores(VectorXd::Ones(32), VectorXd::Ones(32), offsets),
                    "offsets must be at most 2^24 / d offsets (2^24 rotated coordinates), got "
                    "1048576 offsets of d = 32");
  CHECK(llmmath::rope_scores(VectorXd::Ones(16), VectorXd::Ones(16), offsets).raw.size() ==
        1 << 20);
}
