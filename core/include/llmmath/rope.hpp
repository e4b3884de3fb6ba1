// Rotary position embedding, RoPE (Su et al. 2021, RoFormer, eq. 34): each pair of a
// query or key vector is rotated by its position times a per-pair frequency, so the dot
// product of a rotated query and key depends only on their relative offset.
// Chapter 8, section 3; tests in tests/core/test_rope.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "llmmath/fields.hpp"

namespace llmmath {

/// Which coordinates of a d-vector form rotation pair i (i = 0 … d/2 − 1).
enum class RopePairing {
  /// (x[2i], x[2i+1]): the paper's eq. 34 and the original RoFormer code.
  interleaved,
  /// (x[i], x[i + d/2]): the "rotate half" layout of GPT-NeoX and the Hugging Face Llama code.
  half,
};

/// The default RoPE base of RoFormer (Su et al. 2021, eq. 15).
constexpr double default_rope_base = 10000.0;

/// Options of rope(). Give `base` or `freqs`, not both; with neither, base = 10000.
struct RopeOptions {
  RopePairing pairing = RopePairing::interleaved;
  /// θ_i = base^(−2i/d), base > 1 and finite. Empty means default_rope_base, the paper's
  /// 10000 (eq. 15, after Vaswani et al.'s sinusoidal encoding): the slowest pair turns about
  /// once every 2π·10000 positions, so even distant positions get distinct angles.
  std::optional<double> base;
  /// The d/2 frequencies θ_i in radians per position, finite, given instead of `base`
  /// (the chapter's exercise uses (0.01, 0.0001)).
  std::optional<Eigen::VectorXd> freqs;
};

/// Everything the page draws: the rotated vectors, each pair's angles and share of the score.
struct RopeResult {
  Eigen::VectorXd q_rotated;  ///< (d) R(m)·q
  Eigen::VectorXd k_rotated;  ///< (d) R(n)·k
  /// q_rotated · k_rotated, computed as R(m − n)·q · k (eq. 16): from the offset alone, so the
  /// same bits at any two positions the same whole distance apart
  double raw = 0;
  double scaled = 0;       ///< raw / sqrt(d), the attention score with the default scale
  double offset = 0;       ///< m − n, the one thing raw depends on (eq. 16)
  Eigen::VectorXd thetas;  ///< (d/2) θ_i in radians per position
  Eigen::MatrixXd angles;  ///< (d/2, 2) row i: (m·θ_i, n·θ_i) in radians
  /// (d/2, 2) row i: the indices of pair i's two coordinates (whole numbers)
  Eigen::MatrixXd pairs;
  /// (d/2) pair i's part of raw, from the offset as raw is: R(m − n)·q · k over its two
  /// coordinates (mathematically q_rotated · k_rotated over them); they sum to raw
  Eigen::VectorXd pair_scores;
};

/// The fields of RopeResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const RopeResult& r, Visit&& visit) {
  LLMMATH_FIELD(q_rotated);
  LLMMATH_FIELD(k_rotated);
  LLMMATH_FIELD(raw);
  LLMMATH_FIELD(scaled);
  LLMMATH_FIELD(offset);
  LLMMATH_FIELD(thetas);
  LLMMATH_FIELD(angles);
  LLMMATH_FIELD(pairs);
  LLMMATH_FIELD(pair_scores);
}

/// Rotates query q at position m and key k at position n (RoFormer eq. 34): each pair (x, y)
/// turns anticlockwise by pos·θ_i to (x cos − y sin, x sin + y cos). Since R(m)ᵀR(n) = R(n − m)
/// (eq. 16), raw = q_rotated · k_rotated depends on m − n only, and it is computed that way,
/// as R(m − n)·q · k, so that rounding cannot depend on where the pair sits; each rotation keeps
/// the norm.
/// q and k: the same even length d ≥ 2 (within the vector limit of check.hpp), finite.
/// m, n: finite positions (integers in practice), with every angle pos·θ_i, the offset m − n
/// and its angles (m − n)·θ_i finite.
/// Preconditions (std::invalid_argument naming q, k, m, n, base, freqs or opts otherwise):
/// as above, base > 1, freqs of length d/2 and finite, not both base and freqs, and a
/// finite raw score.
RopeResult rope(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n,
                const RopeOptions& options = {});

/// The scores of q and k at every offset of a list: as rope() with the query at position
/// offset and the key at 0 (by eq. 16 the same as any pair of positions that far apart).
struct RopeScoresResult {
  Eigen::VectorXd raw;     ///< (offsets) R(offset)·q · k, exactly rope(q, k, offset, 0).raw
  Eigen::VectorXd scaled;  ///< (offsets) raw / sqrt(d)
};

/// The fields of RopeScoresResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const RopeScoresResult& r, Visit&& visit) {
  LLMMATH_FIELD(raw);
  LLMMATH_FIELD(scaled);
}

/// Largest count·d of rope_scores(), in rotated coordinates: the worst case, 2^24 (for
/// example 2^17 offsets of d = 128), takes 0.3 s (median 0.4 s) through the JavaScript API on
/// the reference machine (2^20 offsets of d = 2^6, which 2^26 allowed when each offset was a
/// whole rope() call, took 5.3 s).
constexpr double max_rope_scores_work = 16777216.0;  // 2^24

/// rope() over many offsets in one call, for plotting the score against relative position:
/// each offset gives exactly rope(q, k, offset, 0)'s raw and scaled, but q, k and θ are checked
/// and computed once.
/// offsets: (count) finite numbers, at most 2^20 of them, with count·d ≤ 2^24 (named
/// "offsets", and offsets[t] when an angle offsets[t]·θ_i overflows); q, k and options as in
/// rope().
RopeScoresResult rope_scores(const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                             const Eigen::VectorXd& offsets, const RopeOptions& options = {});

}  // namespace llmmath
