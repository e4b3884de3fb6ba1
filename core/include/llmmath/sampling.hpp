// The distribution a sampler draws the next token from (temperature, top-k, top-p / nucleus
// sampling) and seeded, replayable draws from it.
// Chapter 8, section 2; tests in tests/core/test_sampling.cpp.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>

#include "llmmath/fields.hpp"

namespace llmmath {

/// What sampling() starts from: exactly one of the two.
struct SamplingInput {
  /// (n) unnormalised log-probabilities, one per vocabulary token; finite.
  std::optional<Eigen::VectorXd> logits;
  /// (n) probabilities, ≥ 0 and summing to 1 within 1e-9; treated as logits = log p, so a
  /// token of probability 0 has logit −∞ and stays at 0 at every temperature.
  std::optional<Eigen::VectorXd> probs;
};

/// Options of sampling(). The defaults (1, 0, 1) leave the model's distribution unchanged.
struct SamplingOptions {
  /// T ≥ 0, finite: logits are divided by T before the softmax. T < 1 sharpens, T > 1
  /// flattens. T = 0 is defined as greedy decoding: all mass on the argmax, the lowest index
  /// among tied top logits. That is not the limit T → 0+ when the top is tied: the limit
  /// splits the mass equally among the tied tokens (logits (2, 2, 1): (1/2, 1/2, 0), while
  /// T = 0 gives (1, 0, 0)); without a tie the two agree.
  double temperature = 1;
  /// Keep only the k most probable tokens; a whole number ≥ 0, where 0 means off and k larger
  /// than the vocabulary keeps every token (held as a double, as it arrives from JavaScript).
  double top_k = 0;
  /// Nucleus mass in (0, 1]: keep the smallest set of most probable tokens whose cumulative
  /// probability reaches top_p (Holtzman et al. 2020, §3.1, eq. 2); 1 means off.
  double top_p = 1;
};

/// Every step from the tempered distribution to the one a sampler draws from, so a page can
/// show the sorted tokens, their cumulative mass and where top-k and top-p cut.
struct SamplingResult {
  /// (n) softmax(z / T) with z the logits (or log p): the distribution after temperature and
  /// before any filter. At T = 0, one-hot on the argmax (order[0], the lowest tied index).
  Eigen::VectorXd tempered;
  /// (n) every token index by descending probability, equal probabilities by lower index.
  /// Ranked by the input itself (logits or probs), which orders the tempered probabilities
  /// for every T > 0 and stays defined at T = 0, so exps that round or underflow to equal
  /// values do not reorder tokens whose true probabilities differ.
  Eigen::VectorXi order;
  /// (n) cumulative[j] = mass of order[0..j] in the distribution top-p cuts: the tempered
  /// distribution restricted to the top-k tokens and renormalised (tempered itself when top-k
  /// is off). Constant after the k-th entry.
  Eigen::VectorXd cumulative;
  /// Tempered mass of the k most probable tokens (all of it, 1 up to rounding, with top-k off):
  /// what top-k keeps, before top-p looks at it
  double top_k_mass = 0;
  /// (n) the distribution top-p cuts: tempered / top_k_mass on the top-k tokens, exactly 0
  /// elsewhere (with top-k off, tempered up to rounding, as top_k_mass is 1 up to rounding);
  /// cumulative is its running sum in order
  Eigen::VectorXd top_k_probs;
  /// Number of tokens kept by top-k and top-p together: kept = order[0 .. cutoff).
  int cutoff = 0;
  /// Tempered mass of the kept tokens before renormalising; probs[i] = tempered[i] / kept_mass
  /// (the exercise: 0.4 in a nucleus of mass 0.8 becomes 0.5).
  double kept_mass = 0;
  /// (n) the final distribution: tempered / kept_mass on the kept tokens, exactly 0 elsewhere;
  /// sums to 1.
  Eigen::VectorXd probs;
  /// (cutoff) the kept token indices, most probable first (a prefix of order). Tokens whose
  /// probability is already 0 (a zero in probs, an exp that underflows, every token but the
  /// argmax at T = 0) are never kept; at least one token always is.
  Eigen::VectorXi kept;
};

/// The fields of SamplingResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SamplingResult& r, Visit&& visit) {
  LLMMATH_FIELD(probs);
  LLMMATH_FIELD(kept);
  LLMMATH_FIELD(tempered);
  LLMMATH_FIELD(order);
  LLMMATH_FIELD(cumulative);
  LLMMATH_FIELD(top_k_mass);
  LLMMATH_FIELD(top_k_probs);
  LLMMATH_FIELD(cutoff);
  LLMMATH_FIELD(kept_mass);
}

/// The sampling distribution: temperature, then top-k, then top-p on the renormalised top-k
/// distribution, then renormalisation. Softmax shifted by the maximum, so logits of ±1000 give
/// no overflow. Top-p compares the cumulative mass with top_p − 1e-9, so a boundary exact in
/// decimal ((0.4, 0.4, 0.1, 0.1) at 0.8) counts as reached despite rounding.
/// Preconditions (std::invalid_argument naming input, logits, probs, temperature, top_k, top_p):
/// exactly one of logits and probs; a non-empty vector of at most 2^20 entries; finite logits;
/// probs as in SamplingInput; options as in SamplingOptions.
SamplingResult sampling(const SamplingInput& input, const SamplingOptions& options = {});

/// Tolerance of the top-p comparison and of the "sums to 1" check of probs: decimal inputs
/// such as 0.1 + 0.2 are off by ~1e-16, far inside it, and no real distinction is this fine.
constexpr double probability_tolerance = 1e-9;

/// SplitMix64, the project's seeded generator: a 64-bit counter advanced by the golden-ratio
/// increment and passed through a bijective mixer (Steele, Lea and Flood 2014, "Fast
/// splittable pseudorandom number generators", OOPSLA; constants of Vigna's splitmix64.c).
/// Integer arithmetic only, so a seed gives the same stream natively and in WebAssembly;
/// seed 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f.
struct SplitMix64 {
  std::uint64_t state = 0;  ///< the counter; the seed is its initial value

  /// The next 64 random bits.
  std::uint64_t next();
  /// A uniform double in [0, 1) from the top 53 bits: a multiple of 2^-53, never 1.
  double uniform();
};

/// Draws one token per uniform number by inverting the cumulative distribution: token i is
/// drawn for u·Σp in [p_0 + … + p_(i−1), p_0 + … + p_i), sums taken left to right in double.
/// A token of probability 0 owns an empty interval and is never drawn; draws beyond the last
/// interval (impossible in round-to-nearest for u < 1, but guarded) go to the last token of
/// positive probability, never to a trailing zero.
/// probs (n) as in SamplingInput; u (count) entries in [0, 1), named "u". Returns (count)
/// indices in [0, n).
Eigen::VectorXi sample(const Eigen::VectorXd& probs, const Eigen::VectorXd& u);

/// `count` draws from probs with uniforms from SplitMix64 seeded with `seed`, one 64-bit output
/// per draw: the same seed gives the same draws in every build.
/// count a whole number in [1, 10^6], seed a whole number in [0, 2^32) (both doubles as they
/// arrive from JavaScript, named "count" and "seed"); probs as in SamplingInput.
Eigen::VectorXi sample(const Eigen::VectorXd& probs, double count, double seed);

/// Largest `count` of sample(): a million draws from 2^20 tokens take 0.3 s through the
/// JavaScript API on the reference machine.
constexpr double max_sample_count = 1e6;

}  // namespace llmmath
