#include "llmmath/rope.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// Every angle pos·θ_i must be finite: a huge position times a huge frequency would overflow,
// and cos(±Infinity) is NaN. Called once some angle is not.
[[noreturn]] void fail_angles(std::string_view name, double pos) {
  fail(name, "a position whose angles " + std::string(name) + "·θ_i are finite numbers",
       describe(pos));
}

// rope()'s checks of q and k: the same even length d ≥ 2 within the vector limit, finite.
void require_rope_vectors(const Eigen::VectorXd& q, const Eigen::VectorXd& k) {
  require_vector_length(q, "q");
  const Eigen::Index d = q.size();
  if (d % 2 != 0)
    fail("q", "an array of even length d (coordinates come in pairs)",
         "length " + std::to_string(d));
  if (k.size() != d)
    fail("k", "an array of length " + std::to_string(d) + " (d of q)",
         "length " + std::to_string(k.size()));
  require_finite(q, "q");
  require_finite(k, "k");
}

// step 1 of rope(): the frequencies θ_i (d/2), from base^(−2i/d) or given, after checking
// the options.
Eigen::VectorXd rope_thetas(Eigen::Index d, const RopeOptions& options) {
  require(!(options.base && options.freqs), "opts", "an object with base or freqs, not both",
          "both");
  const Eigen::Index half = d / 2;
  if (options.freqs) {
    const Eigen::VectorXd& freqs = *options.freqs;
    if (freqs.size() != half)
      fail("freqs", "an array of length " + std::to_string(half) + " (d/2, one per pair)",
           "length " + std::to_string(freqs.size()));
    require_finite(freqs, "freqs");
    return freqs;
  }
  const double base = options.base.value_or(default_rope_base);
  require_finite(base, "base");
  if (!(base > 1)) fail("base", "greater than 1", describe(base));
  Eigen::VectorXd thetas(half);
  for (Eigen::Index i = 0; i < half; ++i) thetas(i) = std::pow(base, -2.0 * double(i) / double(d));
  return thetas;
}

// The two coordinates (a, b) of pair i of a d-vector.
std::pair<Eigen::Index, Eigen::Index> pair_of(Eigen::Index i, Eigen::Index d, RopePairing pairing) {
  if (pairing == RopePairing::interleaved) return {2 * i, 2 * i + 1};
  return {i, i + d / 2};
}

}  // namespace

RopeResult rope(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n,
                const RopeOptions& options) {
  require_rope_vectors(q, k);
  require_finite(m, "m");
  require_finite(n, "n");
  const Eigen::Index d = q.size(), half = d / 2;

  RopeResult r;
  // step 1: the frequencies θ_i (d/2), from base^(−2i/d) or given
  r.thetas = rope_thetas(d, options);

  // step 2: the angles (d/2, 2): column 0 for the query at m, column 1 for the key at n
  r.angles.resize(half, 2);
  r.angles.col(0) = m * r.thetas;
  r.angles.col(1) = n * r.thetas;
  if (!r.angles.col(0).allFinite()) fail_angles("m", m);
  if (!r.angles.col(1).allFinite()) fail_angles("n", n);

  // step 3: rotate each pair (x, y) by its angle: (x cos − y sin, x sin + y cos)
  r.pairs.resize(half, 2);
  r.q_rotated.resize(d);
  r.k_rotated.resize(d);
  r.pair_scores.resize(half);
  for (Eigen::Index i = 0; i < half; ++i) {
    const auto [a, b] = pair_of(i, d, options.pairing);
    r.pairs(i, 0) = double(a);
    r.pairs(i, 1) = double(b);
    const double cq = std::cos(r.angles(i, 0)), sq = std::sin(r.angles(i, 0));
    const double ck = std::cos(r.angles(i, 1)), sk = std::sin(r.angles(i, 1));
    r.q_rotated(a) = q(a) * cq - q(b) * sq;
    r.q_rotated(b) = q(a) * sq + q(b) * cq;
    r.k_rotated(a) = k(a) * ck - k(b) * sk;
    r.k_rotated(b) = k(a) * sk + k(b) * ck;
    r.pair_scores(i) = r.q_rotated(a) * r.k_rotated(a) + r.q_rotated(b) * r.k_rotated(b);
  }

  // step 4: the score, raw and with the default attention scale 1/sqrt(d)
  r.raw = r.q_rotated.dot(r.k_rotated);
  require(std::isfinite(r.raw) && r.q_rotated.allFinite() && r.k_rotated.allFinite() &&
              r.pair_scores.allFinite(),
          "q", "a vector whose rotated dot product with k is finite",
          "a score that overflows a double");
  r.scaled = r.raw / std::sqrt(double(d));
  r.offset = m - n;
  return r;
}

RopeScoresResult rope_scores(const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                             const Eigen::VectorXd& offsets, const RopeOptions& options) {
  require_vector_length(offsets, "offsets");
  require_finite(offsets, "offsets");
  const double work = double(offsets.size()) * double(q.size());
  if (!(work <= max_rope_scores_work))
    fail("offsets", "at most 2^24 / d offsets (2^24 rotated coordinates)",
         std::to_string(offsets.size()) + " offsets of d = " + std::to_string(q.size()));
  // Each offset is rope(q, k, offset, 0) with the same arithmetic, bit for bit; only what does
  // not depend on the offset is done once: the checks, θ, and the key rotated by 0·θ_i.
  require_rope_vectors(q, k);
  const Eigen::Index d = q.size(), half = d / 2;
  const Eigen::VectorXd thetas = rope_thetas(d, options);
  Eigen::VectorXd k_rotated(d), q_rotated(d), angles(half);
  for (Eigen::Index i = 0; i < half; ++i) {
    const auto [a, b] = pair_of(i, d, options.pairing);
    const double angle = 0.0 * thetas(i);
    const double ck = std::cos(angle), sk = std::sin(angle);
    k_rotated(a) = k(a) * ck - k(b) * sk;
    k_rotated(b) = k(a) * sk + k(b) * ck;
  }
  const double root_d = std::sqrt(double(d));

  RopeScoresResult r;
  r.raw.resize(offsets.size());
  r.scaled.resize(offsets.size());
  for (Eigen::Index t = 0; t < offsets.size(); ++t) {
    angles = offsets(t) * thetas;
    if (!angles.allFinite()) fail_angles("offsets[" + std::to_string(t) + "]", offsets(t));
    for (Eigen::Index i = 0; i < half; ++i) {
      const auto [a, b] = pair_of(i, d, options.pairing);
      const double cq = std::cos(angles(i)), sq = std::sin(angles(i));
      q_rotated(a) = q(a) * cq - q(b) * sq;
      q_rotated(b) = q(a) * sq + q(b) * cq;
    }
    r.raw(t) = q_rotated.dot(k_rotated);
    require(std::isfinite(r.raw(t)) && q_rotated.allFinite(), "q",
            "a vector whose rotated dot product with k is finite",
            "a score that overflows a double");
    r.scaled(t) = r.raw(t) / root_d;
  }
  return r;
}

}  // namespace llmmath
