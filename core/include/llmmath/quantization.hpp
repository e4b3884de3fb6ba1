// Numeric precision: symmetric integer quantisation of a tensor, and SmoothQuant's migration
// of scale from activation outliers to weights (Xiao et al. 2023).
// Chapter 8, section 7; tests in tests/core/test_quantization.cpp.
#pragma once

#include <Eigen/Core>

#include "llmmath/fields.hpp"

namespace llmmath {

/// Smallest nonzero channel maximum accepted by smooth_quant(): with every maximum 0 or in
/// [1e-150, 1e150], each scale and smoothed maximum, for any alpha in [0, 1], is 0 or lies in
/// [1e-155, 1e155]: a normal double, neither overflowing nor losing precision as a subnormal.
constexpr double min_smooth_quant_max = 1e-150;

/// Largest channel maximum accepted by smooth_quant() (see min_smooth_quant_max).
constexpr double max_smooth_quant_max = 1e150;

/// SmoothQuant's floor on weight maxima and on the scales: the reference implementation
/// (mit-han-lab/smoothquant, smoothquant/smooth.py, smooth_ln_fcs) clamps both with
/// .clamp(min=1e-5), so that an all-zero weight channel (max|W_j| = 0) or an all-zero
/// activation channel gives a finite, nonzero scale instead of a division by zero.
constexpr double smooth_quant_clamp = 1e-5;

/// SmoothQuant's default migration strength: 0.5 splits the quantisation difficulty evenly
/// between activations and weights, the paper's choice for most models.
constexpr double default_smooth_quant_alpha = 0.5;

/// quantize()'s default width: 8 bits (levels −127 … 127), the INT8 of SmoothQuant and of
/// common inference kernels.
constexpr double default_quantize_bits = 8;

/// The per-channel smoothing factors and the maxima they leave.
struct SmoothQuantResult {
  /// (c) s_j = max(max|X_j|^α / max(max|W_j|, 1e-5)^(1−α), 1e-5): eq. 4 with the reference
  /// code's two clamps, which change nothing unless max|W_j| or s_j is below 1e-5
  Eigen::VectorXd scales;
  Eigen::VectorXd x_abs_max;  ///< (c) max|X_j| / s_j, the activation range after smoothing
  /// (c) max|W_j| · s_j, the weight range after smoothing (of the weights themselves: an
  /// all-zero channel stays 0, the clamp only enters s_j)
  Eigen::VectorXd w_abs_max;
};

/// The fields of SmoothQuantResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SmoothQuantResult& r, Visit&& visit) {
  LLMMATH_FIELD(scales);
  LLMMATH_FIELD(x_abs_max);
  LLMMATH_FIELD(w_abs_max);
}

/// SmoothQuant's smoothing factors (Xiao et al. 2023, eq. 4): dividing activation channel j by
/// s_j and multiplying weight row j by s_j leaves X·W unchanged while moving quantisation
/// difficulty from activations (outlier channels) to weights; alpha = 0.5 balances the two
/// (larger, such as 0.75, where outliers are stronger).
/// As in the reference implementation (mit-han-lab/smoothquant, smooth.py: weight_scales
/// .clamp(min=1e-5), then scales .clamp(min=1e-5)), the weight maximum is raised to at least
/// 1e-5 before eq. 4 and the scale to at least 1e-5 after it, so all-zero channels are
/// smoothed rather than refused: a zero weight channel gets s_j = max|X_j|^α / 1e-5^(1−α), a
/// zero activation channel (α > 0) s_j = 1e-5.
/// x_abs_max, w_abs_max: (c) per-channel absolute maxima of activations and weights, the same
/// length c (within the vector limit of check.hpp), every entry 0 or in [1e-150, 1e150]
/// (bounded so that no result overflows or underflows);
/// alpha: migration strength in [0, 1].
/// Preconditions (std::invalid_argument naming x_abs_max, w_abs_max or alpha otherwise): as above.
SmoothQuantResult smooth_quant(const Eigen::VectorXd& x_abs_max, const Eigen::VectorXd& w_abs_max,
                               double alpha = default_smooth_quant_alpha);

/// Smallest nonzero largest magnitude quantize() accepts: below it the scale would be a
/// subnormal double without the precision the error bound scale/2 needs.
constexpr double min_quantize_abs_max = 1e-300;

/// Largest magnitude quantize() accepts: every dequantised value levels·scale is within a few
/// units in the last place of max|x|, and every error x − dequantized within 2·max|x|, so both
/// stay finite with room to spare (quantize([1.7976931348623157e308]) would give an infinite
/// dequantised value and error).
constexpr double max_quantize_abs_max = 1e300;

/// A quantised tensor and how far it is from the original.
struct QuantizeResult {
  double scale = 0;  ///< Δ = max|x| / qmax (1 when every value is 0): the step between levels
  double qmax = 0;   ///< 2^(bits−1) − 1, the largest level magnitude (127 for 8 bits)
  /// (n) whole numbers in [−qmax, qmax]: round(x / scale), ties to even (+0, never −0)
  Eigen::VectorXd levels;
  Eigen::VectorXd dequantized;  ///< (n) levels · scale
  Eigen::VectorXd errors;       ///< (n) x − dequantized
  double max_abs_error = 0;     ///< max |x − dequantized|, at most scale / 2
};

/// The fields of QuantizeResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const QuantizeResult& r, Visit&& visit) {
  LLMMATH_FIELD(scale);
  LLMMATH_FIELD(levels);
  LLMMATH_FIELD(dequantized);
  LLMMATH_FIELD(max_abs_error);
  LLMMATH_FIELD(qmax);
  LLMMATH_FIELD(errors);
}

/// Symmetric per-tensor ("absmax") integer quantisation to `bits` bits, as in SmoothQuant's
/// eq. 1 (Xiao et al. 2023): scale = max|x| / (2^(bits−1) − 1), levels = round(x / scale)
/// with ties to even (IEEE 754's default rounding, unbiased over many values), clamped to
/// ±(2^(bits−1) − 1). The scale comes from the largest magnitude, so the clamp only absorbs
/// rounding and every error is at most scale / 2: one outlier widens the scale for all values.
/// values: (n) finite numbers, n within the vector limit of check.hpp, whose largest magnitude
/// is 0 or in [1e-300, 1e300]; bits: a whole number in [2, 16]. Every result is finite.
/// Preconditions (std::invalid_argument naming values, values[i] (the first entry above 1e300)
/// or bits otherwise): as above.
QuantizeResult quantize(const Eigen::VectorXd& values, double bits = default_quantize_bits);

/// Largest work of smooth_quant_layer(), tokens·channels·outputs multiply-adds per product.
constexpr double max_smooth_quant_layer_work = 16777216.0;  // 2^24

/// Largest number of entries of each of X (tokens·channels), W (channels·outputs) and the
/// output X·W (tokens·outputs) in smooth_quant_layer(): the result holds seven arrays the size
/// of X, seven the size of W and three the size of X·W, and each tensor is quantised as
/// quantize() quantises a vector of at most 2^20 values. The worst case within all the limits
/// (x 1024 × 1024, w 1024 × 16) takes 0.4 s through the JavaScript API on the reference
/// machine.
constexpr double max_smooth_quant_layer_entries = 1048576.0;  // 2^20

/// A linear layer Y = X·W quantised as it is and after SmoothQuant's smoothing: every matrix
/// and error the section's figure shows. Quantised tensors are flattened row by row, so entry
/// i·cols + j of `levels` is element (i, j).
struct SmoothQuantLayerResult {
  Eigen::VectorXd x_abs_max;           ///< (c) max over tokens of |X_tj|: activation channel ranges
  Eigen::VectorXd w_abs_max;           ///< (c) max over outputs of |W_jk|: weight channel ranges
  Eigen::VectorXd scales;              ///< (c) s_j, as smooth_quant() gives them
  Eigen::VectorXd x_abs_max_smoothed;  ///< (c) x_abs_max / s: the activation ranges after smoothing
  Eigen::VectorXd w_abs_max_smoothed;  ///< (c) w_abs_max · s: the weight ranges after smoothing
  Eigen::MatrixXd x_smoothed;          ///< (t, c) X·diag(s)⁻¹
  Eigen::MatrixXd w_smoothed;          ///< (c, o) diag(s)·W
  QuantizeResult quant_x;              ///< X quantised as it is (t·c entries)
  QuantizeResult quant_w;              ///< W quantised as it is (c·o entries)
  QuantizeResult quant_x_smoothed;     ///< X·diag(s)⁻¹ quantised
  QuantizeResult quant_w_smoothed;     ///< diag(s)·W quantised
  Eigen::VectorXd x_levels;            ///< (c) largest |level| of each channel of X as it is
  Eigen::VectorXd x_levels_smoothed;   ///< (c) largest |level| of each channel after smoothing
  int largest_channel = 0;      ///< the channel with the largest activation range (lowest on ties)
  int smallest_channel = 0;     ///< the channel with the smallest activation range
  Eigen::MatrixXd y;            ///< (t, o) X·W in full precision
  Eigen::MatrixXd y_quantized;  ///< (t, o) the product of the dequantised X and W
  Eigen::MatrixXd y_quantized_smoothed;  ///< (t, o) the product of the dequantised smoothed X and W
  double error_quantized = 0;            ///< max |y − y_quantized|
  double error_quantized_smoothed = 0;   ///< max |y − y_quantized_smoothed|
  /// max |X·W − (X·diag(s)⁻¹)(diag(s)·W)|: smoothing alone changes the product only by rounding
  double error_smoothing_alone = 0;
};

/// The fields of SmoothQuantLayerResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SmoothQuantLayerResult& r, Visit&& visit) {
  LLMMATH_FIELD(x_abs_max);
  LLMMATH_FIELD(w_abs_max);
  LLMMATH_FIELD(scales);
  LLMMATH_FIELD(x_abs_max_smoothed);
  LLMMATH_FIELD(w_abs_max_smoothed);
  LLMMATH_FIELD(x_smoothed);
  LLMMATH_FIELD(w_smoothed);
  LLMMATH_FIELD(quant_x);
  LLMMATH_FIELD(quant_w);
  LLMMATH_FIELD(quant_x_smoothed);
  LLMMATH_FIELD(quant_w_smoothed);
  LLMMATH_FIELD(x_levels);
  LLMMATH_FIELD(x_levels_smoothed);
  LLMMATH_FIELD(largest_channel);
  LLMMATH_FIELD(smallest_channel);
  LLMMATH_FIELD(y);
  LLMMATH_FIELD(y_quantized);
  LLMMATH_FIELD(y_quantized_smoothed);
  LLMMATH_FIELD(error_quantized);
  LLMMATH_FIELD(error_quantized_smoothed);
  LLMMATH_FIELD(error_smoothing_alone);
}

/// SmoothQuant on one layer (Xiao et al. 2023, §4, eq. 3–4): the channel ranges of X (t, c)
/// and W (c, o), the smoothing factors for `alpha`, both sides quantised to `bits` before and
/// after smoothing (per tensor, as quantize()), and the output error each choice causes.
/// Channels that are all zero are smoothed with smooth_quant()'s clamps, as in the reference
/// implementation.
/// Preconditions (std::invalid_argument naming x, w, alpha or bits otherwise): non-empty finite
/// matrices within the limits of check.hpp with w's rows matching x's columns, every channel
/// range 0 or in [1e-150, 1e150] on both sides, t·c·o ≤ 2^24, at most 2^20 entries in each of
/// x, w and x·w, alpha in [0, 1], bits in [2, 16].
SmoothQuantLayerResult smooth_quant_layer(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W,
                                          double alpha = default_smooth_quant_alpha,
                                          double bits = default_quantize_bits);

/// Largest work of smooth_quant_layer_sweep(): points·(t·c + c·o) ≤ 2^24 entries quantised.
constexpr double max_smooth_quant_sweep_entries = 16777216.0;  // 2^24

/// The quantisation error of both sides of one layer at several α, for the curves of figure 7.1:
/// entry i is what smooth_quant_layer(X, W, alpha(i), bits) gives for it.
struct SmoothQuantLayerSweep {
  Eigen::VectorXd alpha;  ///< (points) the migration strengths, as given
  /// (points) quant_x_smoothed.max_abs_error: the largest error of X·diag(s)⁻¹ quantised
  Eigen::VectorXd quant_x_smoothed_max_abs_error;
  /// (points) quant_w_smoothed.max_abs_error: the largest error of diag(s)·W quantised
  Eigen::VectorXd quant_w_smoothed_max_abs_error;
};

/// The fields of SmoothQuantLayerSweep, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const SmoothQuantLayerSweep& r, Visit&& visit) {
  LLMMATH_FIELD(alpha);
  LLMMATH_FIELD(quant_x_smoothed_max_abs_error);
  LLMMATH_FIELD(quant_w_smoothed_max_abs_error);
}

/// smooth_quant_layer()'s errors of the smoothed tensors for every α of `alpha`, in one call,
/// without the products (the curves need only the tensors' own errors).
/// Preconditions (std::invalid_argument naming x, w, alpha, alpha[i] or bits): those of
/// smooth_quant_layer() for each α, 1 to max_sweep_points values, and
/// points·(t·c + c·o) ≤ 2^24.
SmoothQuantLayerSweep smooth_quant_layer_sweep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W,
                                               const Eigen::VectorXd& alpha,
                                               double bits = default_quantize_bits);

/// The size preconditions of smooth_quant_layer() from the shapes of X (t, c) and W (wr, o)
/// alone, which smooth_quant_layer() checks first and the WebAssembly bindings check before they
/// copy the matrices into the heap. std::invalid_argument naming x or w otherwise.
void require_smooth_quant_layer_dims(Eigen::Index t, Eigen::Index c, Eigen::Index wr,
                                     Eigen::Index o);

}  // namespace llmmath
