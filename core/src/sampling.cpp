#include "llmmath/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

void require_sampling_options(const SamplingOptions& o) {
  require_finite(o.temperature, "temperature");
  if (!(o.temperature >= 0)) fail("temperature", "≥ 0 (0 is greedy)", describe(o.temperature));
  require_finite(o.top_k, "top_k");
  if (!(o.top_k == std::floor(o.top_k))) fail("top_k", "an integer", describe(o.top_k));
  if (!(o.top_k >= 0)) fail("top_k", "an integer ≥ 0 (0 is off)", describe(o.top_k));
  require_finite(o.top_p, "top_p");
  if (!(o.top_p > 0 && o.top_p <= 1)) fail("top_p", "in (0, 1]", describe(o.top_p));
}

// Inverse-CDF sampler over a fixed distribution: built once, then one binary search per draw.
class InverseCdf {
 public:
  explicit InverseCdf(const Eigen::VectorXd& p) : cdf_(static_cast<std::size_t>(p.size())) {
    double c = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i) cdf_[static_cast<std::size_t>(i)] = c += p(i);
    // p sums to ~1, so some entry is positive; trailing zeros must never be drawn.
    last_ = p.size() - 1;
    while (p(last_) == 0) --last_;
    total_ = c;
  }

  // The first token whose cumulative mass exceeds u·total. A zero-probability token has the
  // same cumulative mass as the token before it, so it is never the first to exceed anything.
  // u ≤ 1 − 2^-53 keeps u·total below total, so some entry exceeds it; the clamp makes a
  // trailing zero unreachable even if that ever failed.
  int operator()(double u) const {
    const double x = u * total_;
    const auto i = std::upper_bound(cdf_.begin(), cdf_.end(), x) - cdf_.begin();
    return static_cast<int>(std::min<Eigen::Index>(i, last_));
  }

 private:
  std::vector<double> cdf_;
  Eigen::Index last_ = 0;
  double total_ = 0;
};

}  // namespace

SamplingResult sampling(const SamplingInput& input, const SamplingOptions& options) {
  require(input.logits.has_value() != input.probs.has_value(), "input", "{ logits } or { probs }",
          input.logits ? "both" : "neither");
  if (input.logits) {
    require_vector_length(*input.logits, "logits");
    require_finite(*input.logits, "logits");
  } else {
    require_distribution(*input.probs, "probs", probability_tolerance);
  }
  require_sampling_options(options);

  // The ranking score: logits, or probs themselves (log p ranks the same, but log could merge
  // neighbouring doubles).
  const Eigen::VectorXd& s = input.logits ? *input.logits : *input.probs;
  const Eigen::Index n = s.size();
  const double T = options.temperature;
  SamplingResult r;

  // pass 1: order (n), descending score; the stable sort keeps equal scores by lower index
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s(a) > s(b); });
  r.order = Eigen::Map<const Eigen::VectorXi>(order.data(), n);
  const int top = order[0];

  // pass 2: tempered (n) = softmax(z / T), each weight relative to the top token's, so the
  // largest is exactly 1 and nothing overflows. T = 0 is greedy by definition, one-hot on
  // order[0] (the lowest index among tied top scores); it is not the limit T → 0+, which
  // splits the mass equally among tied top scores (every tied weight stays exactly 1 here).
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  if (T == 0) {
    w(top) = 1;
  } else if (input.logits) {
    for (Eigen::Index i = 0; i < n; ++i) w(i) = std::exp((s(i) - s(top)) / T);
  } else if (T == 1) {
    w = s;  // softmax(log p) = p / Σp, without an exp–log round trip
  } else {
    // exp((log p_i − log p_top) / T) = (p_i / p_top)^(1/T); p_i = 0 stays exactly 0
    for (Eigen::Index i = 0; i < n; ++i) w(i) = std::pow(s(i) / s(top), 1 / T);
  }
  r.tempered = w / w.sum();

  // pass 3: top-k keeps order[0 .. k); cumulative mass of the renormalised top-k distribution
  const Eigen::Index k =
      options.top_k == 0 || options.top_k >= double(n) ? n : Eigen::Index(options.top_k);
  r.top_k_mass = 0;
  for (Eigen::Index j = 0; j < k; ++j) r.top_k_mass += r.tempered(order[std::size_t(j)]);
  r.top_k_probs = Eigen::VectorXd::Zero(n);
  r.cumulative.resize(n);
  double c = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    if (j < k) {
      const int i = order[std::size_t(j)];
      r.top_k_probs(i) = r.tempered(i) / r.top_k_mass;
      c += r.top_k_probs(i);
    }
    r.cumulative(j) = c;
  }

  // pass 4: top-p keeps the shortest prefix whose cumulative mass reaches top_p (1 is off, not
  // "reach 1 − tolerance", which would drop a tail lighter than the tolerance)
  Eigen::Index m = k;
  if (options.top_p < 1) {
    m = 0;
    while (m < k - 1 && r.cumulative(m) < options.top_p - probability_tolerance) ++m;
    ++m;
  }
  // tokens of probability 0 sort last, so dropping them shortens the prefix; order[0] has
  // weight 1 before normalisation, so at least one token stays
  while (m > 1 && r.tempered(order[std::size_t(m - 1)]) == 0) --m;

  // pass 5: renormalise over the kept tokens; every other entry stays exactly 0
  r.cutoff = static_cast<int>(m);
  r.kept = r.order.head(m);
  r.kept_mass = 0;
  for (Eigen::Index j = 0; j < m; ++j) r.kept_mass += r.tempered(r.kept(j));
  r.probs = Eigen::VectorXd::Zero(n);
  for (Eigen::Index j = 0; j < m; ++j) r.probs(r.kept(j)) = r.tempered(r.kept(j)) / r.kept_mass;
  return r;
}

std::uint64_t SplitMix64::next() {
  std::uint64_t z = state += 0x9e3779b97f4a7c15u;  // 2^64 / golden ratio, odd
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  // 53 bits fill a double's significand exactly: k·2^-53 for k in [0, 2^53)
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

Eigen::VectorXi sample(const Eigen::VectorXd& probs, const Eigen::VectorXd& u) {
  require_distribution(probs, "probs", probability_tolerance);
  for (Eigen::Index t = 0; t < u.size(); ++t)
    if (!(u(t) >= 0 && u(t) < 1)) fail("u[" + std::to_string(t) + "]", "in [0, 1)", describe(u(t)));
  const InverseCdf draw(probs);
  Eigen::VectorXi tokens(u.size());
  for (Eigen::Index t = 0; t < u.size(); ++t) tokens(t) = draw(u(t));
  return tokens;
}

Eigen::VectorXi sample(const Eigen::VectorXd& probs, double count, double seed) {
  require_distribution(probs, "probs", probability_tolerance);
  require_integer(count, "count", 1, max_sample_count);
  require_integer(seed, "seed", 0, 4294967295.0);  // 2^32 − 1
  const InverseCdf draw(probs);
  SplitMix64 rng{static_cast<std::uint64_t>(seed)};
  Eigen::VectorXi tokens(static_cast<Eigen::Index>(count));
  for (Eigen::Index t = 0; t < tokens.size(); ++t) tokens(t) = draw(rng.uniform());
  return tokens;
}

}  // namespace llmmath
