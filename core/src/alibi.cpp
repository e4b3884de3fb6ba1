#include "llmmath/alibi.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// 2^(−8k/h) for k = first, first + step, …: n slopes of the geometric sequence of h heads.
// 8k/h is exact for h a power of two, so exp2 returns the exact power where one exists.
void fill_slopes(Eigen::VectorXd& out, Eigen::Index at, Eigen::Index n, double h, double first,
                 double step) {
  for (Eigen::Index j = 0; j < n; ++j) out(at + j) = std::exp2(-8.0 * (first + step * j) / h);
}

}  // namespace

Eigen::VectorXd alibi_slopes(double heads) {
  require_integer(heads, "heads", 1, max_alibi_heads);
  const auto h = static_cast<Eigen::Index>(heads);
  Eigen::Index p = 1;  // the largest power of two ≤ h
  while (2 * p <= h) p *= 2;

  Eigen::VectorXd slopes(h);
  // get_slopes_power_of_2(p): 2^(−8k/p), k = 1 … p
  fill_slopes(slopes, 0, p, double(p), 1, 1);
  // get_slopes(2p)[0::2][:h − p]: every other slope of 2p heads, k = 1, 3, 5, …
  fill_slopes(slopes, p, h - p, double(2 * p), 1, 2);
  return slopes;
}

AlibiHeadsResult alibi_heads(double heads) {
  AlibiHeadsResult r;
  r.slopes = alibi_slopes(heads);
  r.half_distances = r.slopes.unaryExpr([](double m) { return std::log(2.0) / m; });
  // first occurrence of the largest and of the smallest slope: the lower head on a tie
  Eigen::Index steep = 0, gentle = 0;
  for (Eigen::Index k = 1; k < r.slopes.size(); ++k) {
    if (r.slopes(k) > r.slopes(steep)) steep = k;
    if (r.slopes(k) < r.slopes(gentle)) gentle = k;
  }
  r.steepest = {int(steep) + 1, r.slopes(steep), r.half_distances(steep)};
  r.gentlest = {int(gentle) + 1, r.slopes(gentle), r.half_distances(gentle)};
  return r;
}

namespace {

void require_slope(double slope) {
  require_finite(slope, "slope");
  if (!(slope > 0)) fail("slope", "a number > 0", describe(slope));
  if (!(slope >= min_alibi_slope && slope <= max_alibi_slope))
    fail("slope", "a number in [1e-300, 1e300] (so that ln 2 / slope and every bias are finite)",
         describe(slope));
}

}  // namespace

Eigen::VectorXd alibi_decay(double slope, double count) {
  require_slope(slope);
  require_integer(count, "distances", 1, double(max_vector_length));
  Eigen::VectorXd w(static_cast<Eigen::Index>(count));
  for (Eigen::Index delta = 0; delta < w.size(); ++delta)
    w(delta) = std::exp(-slope * double(delta));
  return w;
}

AlibiResult alibi(double slope, std::optional<double> tokens, std::optional<double> distances) {
  require_slope(slope);
  if (tokens) require_integer(*tokens, "tokens", 1, max_alibi_tokens);

  AlibiResult r;
  r.half_distance = std::log(2.0) / slope;  // e^(−slope·δ) = 1/2  ⇔  δ = ln 2 / slope
  // the decay over `distances` when asked for (alibi_decay checks it), else one per token
  if (distances) r.relative_weight = alibi_decay(slope, *distances);
  if (!tokens) return r;

  const auto n = static_cast<Eigen::Index>(*tokens);
  Eigen::MatrixXd bias(n, n);
  r.visible.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      r.visible(i, j) = j <= i;
      // slope·(j − i) rather than −slope·(i − j): the diagonal is slope·0 = +0, not −0.
      bias(i, j) = j <= i ? slope * double(j - i) : -std::numeric_limits<double>::infinity();
    }
  r.bias = std::move(bias);
  if (!distances) r.relative_weight = alibi_decay(slope, *tokens);
  return r;
}

}  // namespace llmmath
