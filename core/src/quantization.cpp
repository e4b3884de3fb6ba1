#include "llmmath/quantization.hpp"

#include <cmath>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// A channel maximum is 0 (an all-zero channel) or within the smoothing range.
bool within_smoothing_range(double m) {
  return m == 0 || (m >= min_smooth_quant_max && m <= max_smooth_quant_max);
}

// Every entry of a vector of channel maxima is ≥ 0 and within the smoothing range.
void require_channel_maxima(const Eigen::VectorXd& x, std::string_view name) {
  require_vector_length(x, name);
  require_finite(x, name);
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    if (x(j) >= 0 && within_smoothing_range(x(j))) continue;
    // the entry's name is built only for the entry that fails (2^20 names would cost seconds)
    const std::string entry = std::string(name) + "[" + std::to_string(j) + "]";
    if (!(x(j) >= 0)) fail(entry, "a maximum ≥ 0", describe(x(j)));
    // ≥ 0, so outside the smoothing range
    fail(entry, "0 or in [1e-150, 1e150] (so every scale is a normal double)", describe(x(j)));
  }
}

}  // namespace

SmoothQuantResult smooth_quant(const Eigen::VectorXd& x_abs_max, const Eigen::VectorXd& w_abs_max,
                               double alpha) {
  require_channel_maxima(x_abs_max, "x_abs_max");
  if (w_abs_max.size() != x_abs_max.size())
    fail("w_abs_max",
         "an array of length " + std::to_string(x_abs_max.size()) + " (one entry per channel, as " +
             api_name("x_abs_max") + ")",
         "length " + std::to_string(w_abs_max.size()));
  require_channel_maxima(w_abs_max, "w_abs_max");
  require_finite(alpha, "alpha");
  if (!(alpha >= 0 && alpha <= 1)) fail("alpha", "in [0, 1]", describe(alpha));

  SmoothQuantResult r;
  const Eigen::Index c = x_abs_max.size();
  r.scales.resize(c);
  for (Eigen::Index j = 0; j < c; ++j) {
    // the reference code's clamps (smooth.py): weight maximum, then scale, at least 1e-5;
    // pow(0, 0) = 1, as torch's, so a zero activation channel at α = 0 gives 1 / w
    const double w = std::fmax(w_abs_max(j), smooth_quant_clamp);
    r.scales(j) =
        std::fmax(std::pow(x_abs_max(j), alpha) / std::pow(w, 1 - alpha), smooth_quant_clamp);
  }
  r.x_abs_max = x_abs_max.cwiseQuotient(r.scales);
  r.w_abs_max = w_abs_max.cwiseProduct(r.scales);
  return r;
}

namespace {

// quantize() for a tensor of any size (smooth_quant_layer quantises whole matrices, up to 2^20
// entries each), naming the tensor `name` in its errors.
QuantizeResult quantize_entries(const Eigen::VectorXd& values, double bits, std::string_view name) {
  require_finite(values, name);
  require_integer(bits, "bits", 2, 16);
  const double abs_max = values.cwiseAbs().maxCoeff();
  if (!(abs_max == 0 || abs_max >= min_quantize_abs_max))
    fail(name,
         "all 0 or with a largest magnitude of at least 1e-300 (so the scale is a normal double)",
         "a largest magnitude of " + describe(abs_max));
  if (abs_max > max_quantize_abs_max) {
    Eigen::Index i = 0;
    while (std::fabs(values(i)) <= max_quantize_abs_max) ++i;
    fail(std::string(name) + "[" + std::to_string(i) + "]",
         "a number of magnitude at most 1e300 (so its dequantised value and its error stay "
         "finite)",
         describe(values(i)));
  }

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

}  // namespace

QuantizeResult quantize(const Eigen::VectorXd& values, double bits) {
  require_vector_length(values, "values");
  return quantize_entries(values, bits, "values");
}

namespace {

// The entries of M row by row, the order quantize() sees a matrix in.
Eigen::VectorXd row_major(const Eigen::MatrixXd& M) {
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> R = M;
  return Eigen::Map<const Eigen::VectorXd>(R.data(), R.size());
}

// (rows, cols) from a row-major vector.
Eigen::MatrixXd from_row_major(const Eigen::VectorXd& v, Eigen::Index rows, Eigen::Index cols) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      v.data(), rows, cols);
}

// Largest |level| in each column of a row-major (rows, cols) level vector.
Eigen::VectorXd column_level_max(const Eigen::VectorXd& levels, Eigen::Index rows,
                                 Eigen::Index cols) {
  return from_row_major(levels, rows, cols).cwiseAbs().colwise().maxCoeff().transpose();
}

}  // namespace

void require_smooth_quant_layer_dims(Eigen::Index t, Eigen::Index c, Eigen::Index wr,
                                     Eigen::Index o) {
  require_matrix_dims(double(t), double(c), "x");
  require_matrix_dims(double(wr), double(o), "w");
  if (wr != c)
    fail("w", "a matrix with " + std::to_string(c) + " rows (one per channel of x)",
         std::to_string(wr) + " rows");
  const double work = double(t) * double(c) * double(o);
  if (!(work <= max_smooth_quant_layer_work))
    fail("x, w", "at most 2^24 multiply-adds of work (tokens·channels·outputs)", describe(work));
  const auto dims = [](Eigen::Index rows, Eigen::Index cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
  };
  if (!(double(t) * double(c) <= max_smooth_quant_layer_entries))
    fail("x", "at most 2^20 = 1048576 entries (tokens·channels)", dims(t, c));
  if (!(double(c) * double(o) <= max_smooth_quant_layer_entries))
    fail("w", "at most 2^20 = 1048576 entries (channels·outputs)", dims(c, o));
  if (!(double(t) * double(o) <= max_smooth_quant_layer_entries))
    fail("w",
         "at most " + describe(std::floor(max_smooth_quant_layer_entries / double(t))) +
             " columns for " + std::to_string(t) +
             " tokens (x·w has at most 2^20 = 1048576 entries)",
         std::to_string(o) + " columns");
}

namespace {

// Every channel range of x (its columns) and w (its rows) is 0 or within the smoothing range.
void require_channel_ranges(const Eigen::VectorXd& x_abs_max, const Eigen::VectorXd& w_abs_max) {
  for (Eigen::Index j = 0; j < x_abs_max.size(); ++j) {
    if (!within_smoothing_range(x_abs_max(j)))
      fail("x", "channels (columns) whose largest magnitude is 0 or in [1e-150, 1e150]",
           "column " + std::to_string(j) + " with largest magnitude " + describe(x_abs_max(j)));
    if (!within_smoothing_range(w_abs_max(j)))
      fail("w", "channels (rows) whose largest magnitude is 0 or in [1e-150, 1e150]",
           "row " + std::to_string(j) + " with largest magnitude " + describe(w_abs_max(j)));
  }
}

}  // namespace

SmoothQuantLayerResult smooth_quant_layer(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W,
                                          double alpha, double bits) {
  require_smooth_quant_layer_dims(X.rows(), X.cols(), W.rows(), W.cols());
  const Eigen::Index t = X.rows(), c = X.cols(), o = W.cols();
  require_finite(X, "x");
  require_finite(W, "w");

  SmoothQuantLayerResult r;
  // pass 1: channel ranges; an all-zero channel is smoothed with the reference code's clamps
  r.x_abs_max = X.cwiseAbs().colwise().maxCoeff().transpose();
  r.w_abs_max = W.cwiseAbs().rowwise().maxCoeff();
  require_channel_ranges(r.x_abs_max, r.w_abs_max);
  r.x_abs_max.maxCoeff(&r.largest_channel);
  r.x_abs_max.minCoeff(&r.smallest_channel);

  // pass 2: s (c) and the smoothed tensors; X·W = (X·diag(s)⁻¹)(diag(s)·W) exactly in reals
  SmoothQuantResult smoothing = smooth_quant(r.x_abs_max, r.w_abs_max, alpha);
  r.scales = std::move(smoothing.scales);
  r.x_abs_max_smoothed = std::move(smoothing.x_abs_max);
  r.w_abs_max_smoothed = std::move(smoothing.w_abs_max);
  const Eigen::VectorXd& s = r.scales;
  r.x_smoothed = X * s.cwiseInverse().asDiagonal();
  r.w_smoothed = s.asDiagonal() * W;

  // pass 3: quantise each tensor as a whole (per-tensor scale), as it is and smoothed
  r.quant_x = quantize_entries(row_major(X), bits, "x");
  r.quant_w = quantize_entries(row_major(W), bits, "w");
  r.quant_x_smoothed = quantize_entries(row_major(r.x_smoothed), bits, "x");
  r.quant_w_smoothed = quantize_entries(row_major(r.w_smoothed), bits, "w");
  r.x_levels = column_level_max(r.quant_x.levels, t, c);
  r.x_levels_smoothed = column_level_max(r.quant_x_smoothed.levels, t, c);

  // pass 4: the output (t, o) in full precision and from each quantised pair
  r.y = X * W;
  r.y_quantized =
      from_row_major(r.quant_x.dequantized, t, c) * from_row_major(r.quant_w.dequantized, c, o);
  r.y_quantized_smoothed = from_row_major(r.quant_x_smoothed.dequantized, t, c) *
                           from_row_major(r.quant_w_smoothed.dequantized, c, o);
  r.error_quantized = (r.y - r.y_quantized).cwiseAbs().maxCoeff();
  r.error_quantized_smoothed = (r.y - r.y_quantized_smoothed).cwiseAbs().maxCoeff();
  r.error_smoothing_alone = (r.y - r.x_smoothed * r.w_smoothed).cwiseAbs().maxCoeff();
  return r;
}

SmoothQuantLayerSweep smooth_quant_layer_sweep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W,
                                               const Eigen::VectorXd& alpha, double bits) {
  require_smooth_quant_layer_dims(X.rows(), X.cols(), W.rows(), W.cols());
  require_sweep_length(alpha, "alpha");
  const Eigen::Index t = X.rows(), c = X.cols(), o = W.cols(), m = alpha.size();
  const double work = double(m) * (double(t) * double(c) + double(c) * double(o));
  if (!(work <= max_smooth_quant_sweep_entries))
    fail("alpha",
         "at most " +
             describe(std::floor(max_smooth_quant_sweep_entries /
                                 (double(t) * double(c) + double(c) * double(o)))) +
             " values for these x and w (2^24 entries quantised over the sweep)",
         std::to_string(m) + " values");
  for (Eigen::Index i = 0; i < m; ++i) {
    const double a = alpha(i);
    if (!(a >= 0 && a <= 1)) {
      require_finite(a, entry_name("alpha", i));
      fail(entry_name("alpha", i), "in [0, 1]", describe(a));
    }
  }
  require_finite(X, "x");
  require_finite(W, "w");
  require_integer(bits, "bits", 2, 16);
  const Eigen::VectorXd x_abs_max = X.cwiseAbs().colwise().maxCoeff().transpose();
  const Eigen::VectorXd w_abs_max = W.cwiseAbs().rowwise().maxCoeff();
  require_channel_ranges(x_abs_max, w_abs_max);

  SmoothQuantLayerSweep r;
  r.alpha = alpha;
  r.quant_x_smoothed_max_abs_error.resize(m);
  r.quant_w_smoothed_max_abs_error.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    // as passes 2 and 3 of smooth_quant_layer(), for the smoothed tensors only
    const Eigen::VectorXd s = smooth_quant(x_abs_max, w_abs_max, alpha(i)).scales;
    const Eigen::MatrixXd x_smoothed = X * s.cwiseInverse().asDiagonal();
    const Eigen::MatrixXd w_smoothed = s.asDiagonal() * W;
    r.quant_x_smoothed_max_abs_error(i) =
        quantize_entries(row_major(x_smoothed), bits, "x").max_abs_error;
    r.quant_w_smoothed_max_abs_error(i) =
        quantize_entries(row_major(w_smoothed), bits, "w").max_abs_error;
  }
  return r;
}

}  // namespace llmmath
