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

// x (d) with pair i turned anticlockwise by angles(i): (x cos − y sin, x sin + y cos).
void rotate(const Eigen::VectorXd& x, const Eigen::VectorXd& angles, RopePairing pairing,
            Eigen::VectorXd& out) {
  const Eigen::Index d = x.size();
  out.resize(d);
  for (Eigen::Index i = 0; i < angles.size(); ++i) {
    const auto [a, b] = pair_of(i, d, pairing);
    const double c = std::cos(angles(i)), s = std::sin(angles(i));
    out(a) = x(a) * c - x(b) * s;
    out(b) = x(a) * s + x(b) * c;
  }
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

  // step 3: each vector turned by its own angles, as the figure draws them
  rotate(q, r.angles.col(0), options.pairing, r.q_rotated);
  rotate(k, r.angles.col(1), options.pairing, r.k_rotated);
  r.pairs.resize(half, 2);
  for (Eigen::Index i = 0; i < half; ++i) {
    const auto [a, b] = pair_of(i, d, options.pairing);
    r.pairs(i, 0) = double(a);
    r.pairs(i, 1) = double(b);
  }

  // step 4: the score from the offset alone, R(m)q · R(n)k = R(m − n)q · k (eq. 16). Taking
  // the dot product of the two rotated vectors instead rounds each by its own position, and
  // with coordinates far apart in magnitude the terms that cancel exactly in eq. 16 do not
  // (q = (1.5, −1.26e58, 1.5, 1.5) and k = (1.43e248, 0, 0, 4) gave 2.1e248 at m = n = 0 and
  // −1.6e290 at m = n = 1). Whole positions give the same m − n when both shift, so the same
  // score bit for bit; rope_scores() does the same arithmetic.
  r.offset = m - n;
  const Eigen::VectorXd offset_angles = r.offset * r.thetas;
  if (!std::isfinite(r.offset) || !offset_angles.allFinite())
    fail("n", "a position whose offset m − n and its angles (m − n)·θ_i are finite numbers",
         describe(n));
  Eigen::VectorXd q_offset;  // (d) R(m − n)·q
  rotate(q, offset_angles, options.pairing, q_offset);
  r.pair_scores.resize(half);
  for (Eigen::Index i = 0; i < half; ++i) {
    const auto [a, b] = pair_of(i, d, options.pairing);
    r.pair_scores(i) = q_offset(a) * k(a) + q_offset(b) * k(b);
  }
  r.raw = q_offset.dot(k);
  require(std::isfinite(r.raw) && q_offset.allFinite() && r.q_rotated.allFinite() &&
              r.k_rotated.allFinite() && r.pair_scores.allFinite(),
          "q", "a vector whose rotated dot product with k is finite",
          "a score that overflows a double");
  r.scaled = r.raw / std::sqrt(double(d));
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
  // Each offset is rope(q, k, offset, 0) with the same arithmetic, bit for bit: q turned by
  // offset·θ_i against the unturned k. Only what does not depend on the offset is done once:
  // the checks and θ.
  require_rope_vectors(q, k);
  const Eigen::VectorXd thetas = rope_thetas(q.size(), options);
  Eigen::VectorXd q_offset, angles;
  const double root_d = std::sqrt(double(q.size()));

  RopeScoresResult r;
  r.raw.resize(offsets.size());
  r.scaled.resize(offsets.size());
  for (Eigen::Index t = 0; t < offsets.size(); ++t) {
    angles = offsets(t) * thetas;
    if (!angles.allFinite()) fail_angles("offsets[" + std::to_string(t) + "]", offsets(t));
    rotate(q, angles, options.pairing, q_offset);
    r.raw(t) = q_offset.dot(k);
    require(std::isfinite(r.raw(t)) && q_offset.allFinite(), "q",
            "a vector whose rotated dot product with k is finite",
            "a score that overflows a double");
    r.scaled(t) = r.raw(t) / root_d;
  }
  return r;
}

}  // namespace llmmath
