// Quantisation and SmoothQuant (chapter section 7): the exercise, exact ties, the error bound
// scale/2, SmoothQuant's invariants, the reference values of reference/quantization.py's
// fixture(), and every precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/quantization.hpp"

using Eigen::VectorXd;
using literals::vec;
using llmmath::quantize;
using llmmath::smooth_quant;

namespace {

VectorXd row(const Eigen::MatrixXd& M) { return M.row(0).transpose(); }

}  // namespace

TEST_CASE("exercise 7: alpha 0.5, activation range 8, weight range 0.5 → s = 4, both ranges 2",
          "[quantization][smoothquant][exercise]") {
  const auto r = smooth_quant(vec({8}), vec({0.5}));  // alpha defaults to 0.5
  // √8/√0.5 = 4; pow rounds each root once, so allow a unit in the last place
  CHECK(r.scales(0) == Approx(4).epsilon(1e-15));
  CHECK(r.x_abs_max(0) == Approx(2).epsilon(1e-15));  // 8 / 4
  CHECK(r.w_abs_max(0) == Approx(2).epsilon(1e-15));  // 0.5 · 4
}

TEST_CASE("SmoothQuant keeps X·W and moves range from activations to weights",
          "[quantization][smoothquant][invariant]") {
  const VectorXd x = vec({0.5, 40, 2, 90}), w = vec({0.3, 0.05, 0.2, 0.1});
  for (double alpha : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    INFO("alpha " << alpha);
    const auto r = smooth_quant(x, w, alpha);
    // the product of the two maxima per channel is unchanged: (x/s)·(w·s) = x·w
    CHECK((r.x_abs_max.cwiseProduct(r.w_abs_max) - x.cwiseProduct(w)).cwiseAbs().maxCoeff() <
          1e-13);
    // with s = x^α / w^(1−α): x/s = (x·w)^(1−α) and w·s = (x·w)^α
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      CHECK(r.x_abs_max(j) == Approx(std::pow(x(j) * w(j), 1 - alpha)).epsilon(1e-14));
      CHECK(r.w_abs_max(j) == Approx(std::pow(x(j) * w(j), alpha)).epsilon(1e-14));
    }
  }
  // α = 0.5 equalises the two ranges in every channel
  const auto half = smooth_quant(x, w, 0.5);
  CHECK((half.x_abs_max - half.w_abs_max).cwiseAbs().maxCoeff() < 1e-13);
  // α = 0 leaves all the difficulty to the activations: s = 1/w, every weight range is 1
  CHECK((smooth_quant(x, w, 0).w_abs_max.array() - 1).abs().maxCoeff() < 1e-15);
  // α = 1 moves all of it to the weights: s = x, every activation range is 1
  CHECK((smooth_quant(x, w, 1).x_abs_max.array() - 1).abs().maxCoeff() < 1e-15);
}

TEST_CASE("quantize by hand: 8 bits, largest magnitude 127, so the scale is 1", "[quantization]") {
  const auto r = quantize(vec({127, 10.2, -3.7, 0, 0.4}));  // bits default to 8
  CHECK(r.scale == 1.0);
  CHECK(r.qmax == 127);
  CHECK(r.levels == vec({127, 10, -4, 0, 0}));
  CHECK(r.dequantized == r.levels);
  CHECK(r.max_abs_error == Approx(0.4).epsilon(1e-15));
}

TEST_CASE("ties round to even, and levels are never −0", "[quantization][invariant]") {
  // 127 fixes scale = 1, so x / scale is each value itself: exact halves
  const auto r = quantize(vec({127, 0.5, 1.5, 2.5, -2.5, -0.5, 3.5, -126.5}), 8);
  CHECK(r.levels == vec({127, 0, 2, 2, -2, 0, 4, -126}));
  CHECK_FALSE(std::signbit(r.levels(5)));  // −0.5 rounds to +0
  CHECK(r.max_abs_error == 0.5);           // every tie is exactly half the scale away
  // 2 bits: levels −1, 0, 1; with largest magnitude 2 the scale is 2, so ±1 is half the scale
  const auto tie = quantize(vec({2, 1, -1}), 2);
  CHECK(tie.scale == 2.0);
  CHECK(tie.levels == vec({1, 0, 0}));  // 0.5 → 0 and −0.5 → 0, both even
  CHECK_FALSE(std::signbit(tie.levels(2)));
}

TEST_CASE("every error is at most half the scale, and levels stay in range",
          "[quantization][invariant]") {
  VectorXd x = VectorXd::Random(1000) * 3;
  x(123) = 40;  // an outlier stretches the scale for everyone
  for (double bits : {2.0, 3.0, 4.0, 8.0, 12.0, 16.0}) {
    INFO("bits " << bits);
    const auto r = quantize(x, bits);
    CHECK(r.qmax == std::exp2(bits - 1) - 1);
    CHECK(r.scale == 40 / r.qmax);
    // x/scale rounds once before the level is chosen: allow 1e-15 of the largest magnitude
    CHECK(r.max_abs_error <= r.scale / 2 + 1e-15 * 40);
    CHECK((r.levels.array().abs() <= r.qmax).all());
    CHECK((r.levels.array() == r.levels.array().round()).all());  // whole numbers
    CHECK(r.levels(123) == r.qmax);  // the largest value maps to the top level exactly
    CHECK((r.errors - (x - r.dequantized)).cwiseAbs().maxCoeff() == 0);
  }
  // more bits, smaller scales, smaller errors
  CHECK(quantize(x, 4).max_abs_error > quantize(x, 8).max_abs_error);
  CHECK(quantize(x, 8).max_abs_error > quantize(x, 16).max_abs_error);
}

TEST_CASE("quantize of all-zero values gives scale 1 and no error", "[quantization]") {
  const auto r = quantize(VectorXd::Zero(4), 4);
  CHECK(r.scale == 1.0);
  CHECK(r.levels == VectorXd::Zero(4));
  CHECK(r.max_abs_error == 0.0);
}

TEST_CASE("quantize and smoothQuant match the NumPy reference values",
          "[quantization][reference]") {
  for (const auto& c : fixtures::load("quantization.txt")) {
    INFO("case " << c.name);
    if (c.values.count("values")) {
      const auto r = quantize(row(c["values"]), c.scalar("bits"));
      CHECK(r.scale == c.scalar("scale"));  // one division in both: identical
      CHECK(r.levels == row(c["levels"]));  // same quotients, same rounding rule: identical
      CHECK(r.dequantized == row(c["dequantized"]));
      CHECK(r.max_abs_error == c.scalar("maxAbsError"));
    } else {
      const auto r = smooth_quant(row(c["xAbsMaxIn"]), row(c["wAbsMaxIn"]), c.scalar("alpha"));
      // double pow against long double: a few units in the last place (and 0 exactly 0)
      const auto near = [](const VectorXd& a, const VectorXd& b) {
        return ((a - b).cwiseAbs().array() <= 1e-15 * b.cwiseAbs().array()).all();
      };
      CHECK(near(r.scales, row(c["scales"])));
      CHECK(near(r.x_abs_max, row(c["xAbsMax"])));
      CHECK(near(r.w_abs_max, row(c["wAbsMax"])));
    }
  }
}

TEST_CASE("quantize and smoothQuant refuse bad input with a message naming the parameter",
          "[quantization][errors]") {
  const VectorXd ok = vec({1, 2});
  CHECK_THROWS_WITH(quantize(VectorXd(0)), "values must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(quantize(vec({1, NAN})), "values[1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(quantize(ok, 1), "bits must be an integer in [2, 16], got 1");
  CHECK_THROWS_WITH(quantize(ok, 17), "bits must be an integer in [2, 16], got 17");
  CHECK_THROWS_WITH(quantize(ok, 7.5), "bits must be an integer, got 7.5");
  CHECK_THROWS_WITH(quantize(vec({1e-310, 0})), Catch::StartsWith("values must be all 0 or"));
  CHECK_THROWS_WITH(quantize(VectorXd::Ones((1 << 20) + 1)), Catch::Contains("2^20"));

  CHECK_THROWS_WITH(smooth_quant(VectorXd(0), VectorXd(0)),
                    "x_abs_max must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(smooth_quant(ok, vec({1})),
                    "w_abs_max must be an array of length 2 (one entry per channel, as x_abs_max), "
                    "got length 1");
  CHECK_THROWS_WITH(smooth_quant(vec({1, -2}), ok), "x_abs_max[1] must be a maximum ≥ 0, got -2");
  CHECK_THROWS_WITH(smooth_quant(ok, vec({-1, 1})), "w_abs_max[0] must be a maximum ≥ 0, got -1");
  CHECK_THROWS_WITH(smooth_quant(ok, vec({1e-200, 1})),
                    Catch::StartsWith("w_abs_max[0] must be 0 or in [1e-150, 1e150]"));
  CHECK_THROWS_WITH(smooth_quant(ok, vec({1, INFINITY})),
                    "w_abs_max[1] must be a finite number, got Infinity");
  CHECK_THROWS_WITH(smooth_quant(vec({1e200, 1}), ok),
                    Catch::StartsWith("x_abs_max[0] must be 0 or in [1e-150, 1e150]"));
  CHECK_THROWS_WITH(smooth_quant(ok, ok, 1.5), "alpha must be in [0, 1], got 1.5");
  CHECK_THROWS_WITH(smooth_quant(ok, ok, NAN), "alpha must be a finite number, got NaN");
}

TEST_CASE("smoothQuantLayer by hand: the exercise's channel on a 1x2 · 2x1 layer",
          "[quantization][layer][exercise]") {
  // channel 0 has ranges 8 (x) and 0.5 (w): s = 4; channel 1 has ranges 2 and 2: s = 1
  Eigen::MatrixXd X(1, 2), W(2, 1);
  X << 8, -2;
  W << 0.5, 2;
  const auto r = llmmath::smooth_quant_layer(X, W, 0.5, 8);
  CHECK(r.scales(0) == Approx(4).epsilon(1e-15));
  CHECK(r.scales(1) == Approx(1).epsilon(1e-15));
  CHECK(r.x_smoothed(0, 0) == Approx(2).epsilon(1e-15));  // 8 / 4
  CHECK(r.w_smoothed(0, 0) == Approx(2).epsilon(1e-15));  // 0.5 · 4
  CHECK(r.y(0, 0) == 0.0);                                // 8·0.5 − 2·2
  CHECK(r.largest_channel == 0);
  CHECK(r.smallest_channel == 1);
  // as it is, the largest magnitude 8 gets level 127; after smoothing both channels reach 127
  CHECK(r.x_levels(0) == 127);
  CHECK(r.x_levels(1) == 32);  // round(2 / (8/127)) = round(31.75)
  CHECK(r.x_levels_smoothed(1) == 127);
  CHECK(r.error_smoothing_alone < 1e-15);  // rounding of two products of size ~4
}

TEST_CASE(
    "smoothQuantLayer: smoothing keeps X·W, each side matches quantize(), the largest channel is "
    "tamed",
    "[quantization][layer][invariant]") {
  Eigen::MatrixXd X(4, 3), W(3, 2);
  X << 0.4, -30, 0.2, -0.7, 25, -0.3, 0.1, -28, 0.5, 0.9, 31, -0.1;
  W << 0.3, -0.2, 0.05, 0.04, -0.6, 0.9;
  const auto at0 = llmmath::smooth_quant_layer(X, W, 0.0, 8);
  const auto half = llmmath::smooth_quant_layer(X, W, 0.5, 8);
  for (const auto* r : {&at0, &half}) {
    CHECK(r->error_smoothing_alone < 1e-12);  // (X/s)(sW) = XW up to rounding of entries ~30·0.9
    CHECK((r->y - X * W).cwiseAbs().maxCoeff() == 0.0);
    // the flattened tensors are exactly quantize() of the matrices row by row
    Eigen::Matrix<double, 4, 3, Eigen::RowMajor> Xr = X;
    const auto q = llmmath::quantize(Eigen::Map<const VectorXd>(Xr.data(), 12), 8);
    CHECK((r->quant_x.levels - q.levels).cwiseAbs().maxCoeff() == 0.0);
    CHECK(r->quant_x.max_abs_error <= r->quant_x.scale / 2);
    CHECK(r->quant_x_smoothed.max_abs_error <= r->quant_x_smoothed.scale / 2);
  }
  CHECK(at0.largest_channel == 1);
  // alpha 0.5 spreads the levels: the small channels use more of them than before
  CHECK(half.x_levels_smoothed(0) > half.x_levels(0));
  CHECK(half.x_levels_smoothed(2) > half.x_levels(2));
  // and the product of the quantised smoothed pair is closer to the exact output
  CHECK(half.error_quantized_smoothed < half.error_quantized);
}

TEST_CASE("smoothQuantLayer refuses bad input with a message naming the parameter",
          "[quantization][layer][errors]") {
  Eigen::MatrixXd X = Eigen::MatrixXd::Ones(2, 3), W = Eigen::MatrixXd::Ones(3, 2);
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(X, Eigen::MatrixXd::Ones(2, 2)),
                    "w must be a matrix with 3 rows (one per channel of x), got 2 rows");
  Eigen::MatrixXd Z = X;
  Z.col(1).setConstant(1e-200);  // not zero, and too small to smooth without subnormals
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(Z, W),
                    Catch::StartsWith("x must be channels") && Catch::Contains("column 1"));
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(X, W, 1.5), Catch::StartsWith("alpha"));
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(X, W, 0.5, 1), Catch::StartsWith("bits"));
  Z = X;
  Z(0, 0) = NAN;
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(Z, W), "x[0][0] must be a finite number, got NaN");
  CHECK_THROWS_WITH(
      llmmath::smooth_quant_layer(Eigen::MatrixXd::Ones(4096, 64), Eigen::MatrixXd::Ones(64, 128)),
      Catch::Contains("2^24"));
}

TEST_CASE("SmoothQuant clamps as the reference code: an all-zero weight channel is smoothed",
          "[quantization][smoothquant][clamp]") {
  // mit-han-lab/smoothquant, smooth.py: weight_scales.clamp(min=1e-5), then
  // (act_scales^α / weight_scales^(1−α)).clamp(min=1e-5)
  const auto r = smooth_quant(vec({8, 2}), vec({0, 0.5}), 0.5);
  // channel 0: max|W| = 0 is raised to 1e-5, s = √8 / √1e-5 = √800000 ≈ 894.43
  CHECK(r.scales(0) == Approx(std::sqrt(8 / 1e-5)).epsilon(1e-15));
  CHECK(r.x_abs_max(0) == Approx(8 / std::sqrt(8 / 1e-5)).epsilon(1e-15));
  CHECK(r.w_abs_max(0) == 0.0);  // the weights themselves stay 0: the clamp enters s only
  // channel 1 is untouched by the clamps: s = √2 / √0.5 = 2
  CHECK(r.scales(1) == Approx(2).epsilon(1e-15));
  // a weight maximum below the floor is raised to it too: the same scale as 1e-5 itself
  CHECK(smooth_quant(vec({8}), vec({1e-7}), 0.5).scales(0) ==
        smooth_quant(vec({8}), vec({1e-5}), 0.5).scales(0));
}

TEST_CASE("SmoothQuant's scale is at least 1e-5: an all-zero activation channel",
          "[quantization][smoothquant][clamp]") {
  for (double alpha : {0.25, 0.5, 1.0}) {
    INFO("alpha " << alpha);
    // 0^α / 0.5^(1−α) = 0, clamped to 1e-5
    const auto r = smooth_quant(vec({0}), vec({0.5}), alpha);
    CHECK(r.scales(0) == 1e-5);
    CHECK(r.x_abs_max(0) == 0.0);
    CHECK(r.w_abs_max(0) == 0.5 * 1e-5);
  }
  // at α = 0, 0^0 = 1 (as torch.pow), so s = 1 / w: no clamp needed
  CHECK(smooth_quant(vec({0}), vec({0.5}), 0).scales(0) == 2.0);
  // both zero: s = 0 / 1e-5^(1−α), clamped to 1e-5; both ranges stay 0
  const auto both = smooth_quant(vec({0}), vec({0}), 0.5);
  CHECK(both.scales(0) == 1e-5);
  CHECK(both.x_abs_max(0) == 0.0);
  CHECK(both.w_abs_max(0) == 0.0);
}

TEST_CASE("smoothQuantLayer smooths a layer with all-zero channels on both sides",
          "[quantization][layer][clamp]") {
  // channel 1 of x is all zero (a dead activation), row 2 of w is all zero (a pruned input)
  Eigen::MatrixXd X(2, 3), W(3, 2);
  X << 4, 0, -1, -2, 0, 0.5;
  W << 0.5, -0.25, 0.3, 0.2, 0, 0;
  const auto r = llmmath::smooth_quant_layer(X, W, 0.5, 8);
  CHECK(r.scales(1) == 1e-5);                                        // 0^0.5 / 0.3^0.5 = 0, clamped
  CHECK(r.scales(2) == Approx(1 / std::sqrt(1e-5)).epsilon(1e-15));  // √1 / √1e-5
  CHECK(r.x_smoothed.col(1).isZero(0));
  CHECK(r.w_smoothed.row(2).isZero(0));
  CHECK(r.smallest_channel == 1);
  // smoothing still leaves the product unchanged up to rounding (entries ~ 4·0.5)
  CHECK(r.error_smoothing_alone < 1e-15);
  CHECK(r.quant_x_smoothed.max_abs_error <= r.quant_x_smoothed.scale / 2);
  CHECK(std::isfinite(r.error_quantized_smoothed));
}

TEST_CASE("quantize refuses magnitudes above 1e300, naming the entry, so every result is finite",
          "[quantization][limits]") {
  // quantize([1.8e308]) gave an infinite dequantised value and error
  CHECK_THROWS_WITH(
      quantize(vec({std::numeric_limits<double>::max()})),
      "values[0] must be a number of magnitude at most 1e300 (so its dequantised value "
      "and its error stay finite), got 1.7976931348623157e+308");
  CHECK_THROWS_WITH(quantize(vec({1, -2, -1e301})),
                    Catch::StartsWith("values[2] must be a number of magnitude"));
  for (const int bits : {2, 8, 16}) {
    const auto r = quantize(vec({1e300, -1e300, 3, -0.0}), bits);
    CHECK(r.dequantized.allFinite());
    CHECK(r.errors.allFinite());
    CHECK(std::isfinite(r.max_abs_error));
    CHECK(r.max_abs_error <= r.scale / 2 * (1 + 1e-15));
  }
}

TEST_CASE("smoothQuantLayer limits x, w and x·w to 2^20 entries each, naming x or w",
          "[quantization][limits]") {
  using llmmath::require_smooth_quant_layer_dims;
  // x 1025 × 1024, w 1024 × 1 named an internal "values"
  CHECK_THROWS_WITH(require_smooth_quant_layer_dims(1025, 1024, 1024, 1),
                    "x must be at most 2^20 = 1048576 entries (tokens·channels), got 1025x1024");
  CHECK_THROWS_WITH(require_smooth_quant_layer_dims(1, 512, 512, 4096),
                    "w must be at most 2^20 = 1048576 entries (channels·outputs), got 512x4096");
  CHECK_THROWS_WITH(require_smooth_quant_layer_dims(2048, 1, 1, 1024),
                    "w must be at most 512 columns for 2048 tokens (x·w has at most 2^20 = 1048576 "
                    "entries), got 1024 columns");
  CHECK_THROWS_WITH(require_smooth_quant_layer_dims(4096, 4096, 4096, 2), Catch::Contains("2^24"));
  CHECK_NOTHROW(require_smooth_quant_layer_dims(1024, 1024, 1024, 16));  // the worst case
  const Eigen::MatrixXd X = Eigen::MatrixXd::Constant(1025, 1024, 1.0);
  CHECK_THROWS_WITH(llmmath::smooth_quant_layer(X, Eigen::MatrixXd::Constant(1024, 1, 0.5)),
                    Catch::StartsWith("x must be at most 2^20"));
  // at the limit each tensor is quantised whole, as quantize() would a vector of 2^20 values
  const auto r = llmmath::smooth_quant_layer(Eigen::MatrixXd::Constant(1024, 1024, 1.0),
                                             Eigen::MatrixXd::Constant(1024, 1, 0.5));
  CHECK(r.quant_x.levels.size() == 1 << 20);
}

// ---- smoothQuantLayer swept over alpha (figure 7.1's curves) --------------------------------

namespace {

// The chapter's "outlier" example (site/src/widgets/quantization/quantization-presets.js): six
// tokens × four channels of activations, column 1 (the chapter's channel 2) carrying the outlier
// with max|X| = 8 and max|W| = 0.5, as in exercise 7; four channels × three outputs of weights.
Eigen::MatrixXd outlier_x() {
  return literals::mat({{0.42, -8, 0.25, -0.9},
                        {-0.81, 6.3, -0.33, 0.64},
                        {0.27, -7.1, 0.5, -0.47},
                        {1.0, 5.2, -0.18, 0.3},
                        {-0.55, 7.6, 0.12, -1.1},
                        {0.73, -4.4, -0.41, 0.86}});
}
Eigen::MatrixXd outlier_w() {
  return literals::mat(
      {{0.31, -0.12, 0.22}, {-0.5, 0.38, 0.07}, {0.9, 0.55, -0.8}, {0.14, -0.26, 0.35}});
}

}  // namespace

TEST_CASE("smoothQuantLayerSweep gives smooth_quant_layer's errors at every alpha, bit for bit",
          "[quantization][layer][sweep]") {
  // α from 0 to 1 in tenths, with the ends, 0.85, a repeat, out of order
  const VectorXd alpha = vec({0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 1, 0.5, 0.05});
  struct Layer {
    const char* name;
    Eigen::MatrixXd X, W;
  };
  Eigen::MatrixXd X2(2, 3), W2(3, 2);  // all-zero channels on both sides: the clamps
  X2 << 4, 0, -1, -2, 0, 0.5;
  W2 << 0.5, -0.25, 0.3, 0.2, 0, 0;
  for (const Layer& l : {Layer{"outlier", outlier_x(), outlier_w()},
                         Layer{"exercise", literals::mat({{8, -2}}), literals::mat({{0.5}, {2}})},
                         Layer{"zero channels", X2, W2},
                         Layer{"extremes", literals::mat({{1e150, -1e-150}, {0, 3}}),
                               literals::mat({{1e150, 1}, {1e-150, 0}})}}) {
    for (double bits : {2.0, 4.0, 8.0, 16.0}) {
      INFO(l.name << ", bits " << bits);
      const auto r = llmmath::smooth_quant_layer_sweep(l.X, l.W, alpha, bits);
      CHECK(r.alpha == alpha);  // the strengths, as given
      REQUIRE(r.quant_x_smoothed_max_abs_error.size() == alpha.size());
      REQUIRE(r.quant_w_smoothed_max_abs_error.size() == alpha.size());
      for (Eigen::Index i = 0; i < alpha.size(); ++i) {
        INFO("alpha " << alpha(i));
        const auto p = llmmath::smooth_quant_layer(l.X, l.W, alpha(i), bits);
        // tolerance 0: the sweep repeats smooth_quant_layer()'s passes 2 and 3 operation for
        // operation (same scales, same products, same quantiser)
        CHECK(r.quant_x_smoothed_max_abs_error(i) == p.quant_x_smoothed.max_abs_error);
        CHECK(r.quant_w_smoothed_max_abs_error(i) == p.quant_w_smoothed.max_abs_error);
      }
    }
  }
  // bits default to 8, as smooth_quant_layer()'s
  const auto d = llmmath::smooth_quant_layer_sweep(outlier_x(), outlier_w(), vec({0.5}));
  CHECK(d.quant_x_smoothed_max_abs_error(0) ==
        llmmath::smooth_quant_layer(outlier_x(), outlier_w()).quant_x_smoothed.max_abs_error);
}

TEST_CASE(
    "smoothQuantLayerSweep on the chapter's outlier preset: the x error falls and the w error "
    "rises with alpha",
    "[quantization][layer][sweep][invariant]") {
  const VectorXd alpha = VectorXd::LinSpaced(11, 0, 1);  // 0, 0.1, …, 1
  const auto r = llmmath::smooth_quant_layer_sweep(outlier_x(), outlier_w(), alpha, 8);
  // after smoothing, channel j's ranges are (max|X_j|·max|W_j|)^(1−α) and ^α; the outlier
  // channel's product 8·0.5 = 4 is the largest (the others are below 0.5), so the x scale
  // 4^(1−α)/127 falls and the w scale 4^α/127 rises with α. The largest error is at most half
  // the scale and not tied to it; on this example it follows the scale at every tenth, so the
  // curves cross once, between 0.4 and 0.5 (0.0090 > 0.0066, then 0.0072 < 0.0076)
  for (Eigen::Index i = 1; i < alpha.size(); ++i) {
    INFO("alpha " << alpha(i - 1) << " → " << alpha(i));
    CHECK(r.quant_x_smoothed_max_abs_error(i) < r.quant_x_smoothed_max_abs_error(i - 1));
    CHECK(r.quant_w_smoothed_max_abs_error(i) > r.quant_w_smoothed_max_abs_error(i - 1));
  }
  // the ends: α = 0 (s = 1/max|W_j|) sets every weight channel's range to 1, α = 1
  // (s = max|X_j|) every activation channel's, so that side's scale is 1/127 and its error
  // at most half of it, 1/254 (1 / 127 up to the rounding of a few quotients)
  const auto at0 = llmmath::smooth_quant_layer(outlier_x(), outlier_w(), 0, 8);
  const auto at1 = llmmath::smooth_quant_layer(outlier_x(), outlier_w(), 1, 8);
  CHECK(at0.quant_w_smoothed.scale == Approx(1.0 / 127).epsilon(1e-15));
  CHECK(at1.quant_x_smoothed.scale == Approx(1.0 / 127).epsilon(1e-15));
  CHECK(r.quant_w_smoothed_max_abs_error(0) <= at0.quant_w_smoothed.scale / 2);
  CHECK(r.quant_x_smoothed_max_abs_error(10) <= at1.quant_x_smoothed.scale / 2);
  // and at the paper's α = 0.5 the outlier's activations quantise four times better than
  // unsmoothed (0.0072 against 0.031 here)
  CHECK(r.quant_x_smoothed_max_abs_error(5) < at0.quant_x.max_abs_error / 4);
}

TEST_CASE("smoothQuantLayerSweep refuses bad input, naming x, w, the array, its entry or bits",
          "[quantization][layer][sweep][errors]") {
  using llmmath::smooth_quant_layer_sweep;
  const Eigen::MatrixXd X = Eigen::MatrixXd::Ones(2, 3), W = Eigen::MatrixXd::Ones(3, 2);
  const VectorXd half = vec({0.5});
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, VectorXd(0)),
                    "alpha must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, VectorXd::Zero(4097)),
                    "alpha must be at most 4096 entries (points of a sweep), got 4097 entries");
  CHECK_NOTHROW(smooth_quant_layer_sweep(X, W, VectorXd::Zero(4096)));  // the limit itself
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, vec({0, 1.5})),
                    "alpha[1] must be in [0, 1], got 1.5");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, vec({0.5, 0.2, -0.1})),
                    "alpha[2] must be in [0, 1], got -0.1");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, vec({NAN})),
                    "alpha[0] must be a finite number, got NaN");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, vec({0.5, INFINITY})),
                    "alpha[1] must be a finite number, got Infinity");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, vec({0.5, 2, NAN})),
                    Catch::StartsWith("alpha[1] "));
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, half, 1),
                    "bits must be an integer in [2, 16], got 1");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, half, 17),
                    "bits must be an integer in [2, 16], got 17");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, W, half, 7.5), "bits must be an integer, got 7.5");
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, Eigen::MatrixXd::Ones(2, 2), half),
                    "w must be a matrix with 3 rows (one per channel of x), got 2 rows");
  Eigen::MatrixXd Z = X;
  Z(1, 2) = NAN;
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(Z, W, half),
                    "x[1][2] must be a finite number, got NaN");
  Z = W;
  Z(0, 1) = -INFINITY;
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, Z, half),
                    "w[0][1] must be a finite number, got -Infinity");
  Z = X;
  Z.col(1).setConstant(1e-200);  // too small to smooth without subnormals, as smooth_quant_layer
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(Z, W, half),
                    Catch::StartsWith("x must be channels") && Catch::Contains("column 1"));
  Z = W;
  Z.row(2).setConstant(1e200);
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(X, Z, half),
                    Catch::StartsWith("w must be channels") && Catch::Contains("row 2"));
  CHECK_THROWS_WITH(smooth_quant_layer_sweep(Eigen::MatrixXd::Ones(1025, 1024),
                                             Eigen::MatrixXd::Ones(1024, 1), half),
                    Catch::StartsWith("x must be at most 2^20"));
}

TEST_CASE("smoothQuantLayerSweep quantizes at most 2^24 entries over the sweep, naming alpha",
          "[quantization][layer][sweep][limits]") {
  // x 1024 × 1024 and w 1024 × 1: 1,049,600 entries a point, so 15 points (15,744,000) pass
  // and 16 (16,793,600 > 2^24 = 16,777,216) do not
  const Eigen::MatrixXd X = Eigen::MatrixXd::Constant(1024, 1024, 0.5);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Constant(1024, 1, 0.25);
  CHECK_THROWS_WITH(
      llmmath::smooth_quant_layer_sweep(X, W, VectorXd::Constant(16, 0.5)),
      "alpha must be at most 15 values for these x and w (2^24 entries quantised over "
      "the sweep), got 16 values");
  const auto r = llmmath::smooth_quant_layer_sweep(X, W, VectorXd::LinSpaced(15, 0, 1));
  CHECK(r.quant_x_smoothed_max_abs_error.size() == 15);
  // the small layer of the figure can take the full 4096 points: 4096·(24 + 12) entries
  CHECK_NOTHROW(
      llmmath::smooth_quant_layer_sweep(outlier_x(), outlier_w(), VectorXd::LinSpaced(4096, 0, 1)));
}
