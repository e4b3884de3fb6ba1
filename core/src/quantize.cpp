#include "llmmath/quantize.hpp"

#include <cmath>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// Every entry of a vector of channel maxima is positive and within the smoothing range.
void require_channel_maxima(const Eigen::VectorXd& x, const std::string& name) {
  require_vector_length(x, name);
  require_finite(x, name);
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const std::string entry = name + "[" + std::to_string(j) + "]";
    require(x(j) > 0, entry, "a maximum > 0", describe(x(j)));
    require(x(j) >= min_smooth_quant_max && x(j) <= max_smooth_quant_max, entry,
            "in [1e-150, 1e150] (so every scale is a normal double)", describe(x(j)));
  }
}

}  // namespace

SmoothQuantResult smooth_quant(const Eigen::VectorXd& x_abs_max,
                               const Eigen::VectorXd& w_abs_max, double alpha) {
  require_channel_maxima(x_abs_max, "xAbsMax");
  require(w_abs_max.size() == x_abs_max.size(), "wAbsMax",
          "an array of length " + std::to_string(x_abs_max.size()) +
              " (one entry per channel, as xAbsMax)",
          "length " + std::to_string(w_abs_max.size()));
  require_channel_maxima(w_abs_max, "wAbsMax");
  require_finite(alpha, "alpha");
  require(alpha >= 0 && alpha <= 1, "alpha", "in [0, 1]", describe(alpha));

  SmoothQuantResult r;
  const Eigen::Index c = x_abs_max.size();
  r.scales.resize(c);
  for (Eigen::Index j = 0; j < c; ++j)
    r.scales(j) = std::pow(x_abs_max(j), alpha) / std::pow(w_abs_max(j), 1 - alpha);
  r.x_abs_max = x_abs_max.cwiseQuotient(r.scales);
  r.w_abs_max = w_abs_max.cwiseProduct(r.scales);
  return r;
}

QuantizeResult quantize(const Eigen::VectorXd& values, double bits) {
  require_vector_length(values, "values");
  require_finite(values, "values");
  require_integer(bits, "bits", 2, 16);
  const double abs_max = values.cwiseAbs().maxCoeff();
  require(abs_max == 0 || abs_max >= min_quantize_abs_max, "values",
          "all 0 or with a largest magnitude of at least 1e-300 (so the scale is a normal "
          "double)", "a largest magnitude of " + describe(abs_max));

  QuantizeResult r;
  r.qmax = std::exp2(bits - 1) - 1;
  r.scale = abs_max == 0 ? 1.0 : abs_max / r.qmax;
  const Eigen::Index n = values.size();
  r.levels.resize(n);
  r.dequantized.resize(n);
  r.errors.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    // nearbyint rounds half to even in the default rounding mode, which the core never
    // changes; adding +0 turns a −0 level (from −0.5 or −0) into +0. |x| ≤ max|x| keeps
    // x / scale within ±qmax up to rounding, which the clamp absorbs.
    const double level = std::nearbyint(values(i) / r.scale) + 0.0;
    r.levels(i) = std::fmin(std::fmax(level, -r.qmax), r.qmax);
    r.dequantized(i) = r.levels(i) * r.scale;
    r.errors(i) = values(i) - r.dequantized(i);
  }
  r.max_abs_error = r.errors.cwiseAbs().maxCoeff();
  return r;
}

}  // namespace llmmath
