// The precondition helper: every error names its parameter, the expectation and the value.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "llmmath/check.hpp"

using llmmath::describe;

TEST_CASE("describe prints numbers in their shortest exact form", "[check]") {
  CHECK(describe(1.5) == "1.5");
  CHECK(describe(0.1) == "0.1");
  CHECK(describe(1e-300) == "1e-300");
  CHECK(describe(-3) == "-3");
  CHECK(describe(NAN) == "NaN");
  CHECK(describe(INFINITY) == "Infinity");
  CHECK(describe(-INFINITY) == "-Infinity");
  CHECK(describe(1e-9) == "1e-9");  // as JavaScript prints it, not C's "1e-09"
  CHECK(describe(1.5e-7) == "1.5e-7");
  CHECK(describe(1e21) == "1e+21");
}

TEST_CASE("require throws invalid_argument naming the parameter, expectation and value",
          "[check]") {
  CHECK_THROWS_WITH(llmmath::require(false, "topP", "in (0, 1]", describe(1.5)),
                    "topP must be in (0, 1], got 1.5");
  CHECK_NOTHROW(llmmath::require(true, "topP", "in (0, 1]", "0.5"));
  CHECK_THROWS_AS(llmmath::require_finite(NAN, "x"), std::invalid_argument);
  CHECK_THROWS_WITH(llmmath::require_integer(2.5, "topK", 0, 10),
                    "topK must be an integer, got 2.5");
  CHECK_THROWS_WITH(llmmath::require_integer(11, "topK", 0, 10),
                    "topK must be an integer in [0, 10], got 11");
}

TEST_CASE("matrix and vector size limits are stated in the message", "[check]") {
  CHECK_THROWS_WITH(llmmath::require_matrix_dims(0, 3, "q"), Catch::Contains("non-empty"));
  CHECK_THROWS_WITH(llmmath::require_matrix_dims(4097, 1, "q"), Catch::Contains("4096"));
  CHECK_THROWS_WITH(llmmath::require_matrix_dims(4096, 4097, "k"), Catch::Contains("4096"));
  CHECK_THROWS_WITH(llmmath::require_matrix_dims(1, 5000, "k"),
                    "k must be at most 4096 rows and columns, got 1x5000");
  CHECK_NOTHROW(llmmath::require_matrix_dims(4096, 4096, "k"));  // 2^24 elements, the limit
  CHECK_THROWS_WITH(llmmath::require_vector_length((1u << 20) + 1, "logits"),
                    Catch::Contains("2^20"));
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(2, 2);
  M(1, 0) = INFINITY;
  CHECK_THROWS_WITH(llmmath::require_finite(M, "v"),
                    "v[1][0] must be a finite number, got Infinity");
}

TEST_CASE("require_distribution names the bad entry or the sum, with the tolerance", "[check]") {
  Eigen::VectorXd p(3);
  p << 0.5, 0.25, 0.25;
  CHECK_NOTHROW(llmmath::require_distribution(p, "probs", 1e-9));
  p(2) = 0.25 + 5e-10;  // within the tolerance
  CHECK_NOTHROW(llmmath::require_distribution(p, "probs", 1e-9));
  p(2) = 0.3;
  CHECK_THROWS_WITH(llmmath::require_distribution(p, "probs", 1e-9),
                    "probs must be an array summing to 1 within 1e-9, got a sum of 1.05");
  p(1) = -0.05;
  CHECK_THROWS_WITH(llmmath::require_distribution(p, "f", 1e-6),
                    "f[1] must be a non-negative number, got -0.05");
  CHECK_THROWS_WITH(llmmath::require_distribution(Eigen::VectorXd(0), "p", 1e-6),
                    "p must be a non-empty array, got an empty one");
}

TEST_CASE("a sweep takes 1 to 4096 points, and an entry is named name[i]", "[check][sweep]") {
  CHECK(llmmath::max_sweep_points == 4096);
  CHECK_THROWS_WITH(llmmath::require_sweep_length(Eigen::VectorXd(0), "gamma"),
                    "gamma must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(llmmath::require_sweep_length(Eigen::VectorXd::Zero(4097), "tokens"),
                    "tokens must be at most 4096 entries (points of a sweep), got 4097 entries");
  CHECK_NOTHROW(llmmath::require_sweep_length(Eigen::VectorXd::Zero(1), "alpha"));
  CHECK_NOTHROW(llmmath::require_sweep_length(Eigen::VectorXd::Zero(4096), "alpha"));  // the limit
  CHECK(llmmath::entry_name("gamma", 1) == "gamma[1]");
  CHECK(llmmath::entry_name("distractors", 4095) == "distractors[4095]");
}
