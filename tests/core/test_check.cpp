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
}

TEST_CASE("require throws invalid_argument naming the parameter, expectation and value",
          "[check]") {
  CHECK_THROWS_WITH(llmmath::require(false, "topP", "in (0, 1]", describe(1.5)),
                    "topP must be in (0, 1], got 1.5");
  CHECK_NOTHROW(llmmath::require(true, "topP", "in (0, 1]", "0.5"));
  CHECK_THROWS_AS(llmmath::require_finite(NAN, "x"), std::invalid_argument);
  CHECK_THROWS_WITH(llmmath::require_integer(2.5, "topK", 0, 10), "topK must be an integer, got 2.5");
  CHECK_THROWS_WITH(llmmath::require_integer(11, "topK", 0, 10),
                    "topK must be an integer in [0, 10], got 11");
}

TEST_CASE("matrix and vector size limits are stated in the message", "[check]") {
  CHECK_THROWS_WITH(llmmath::require_matrix_shape(0, 3, "q"), Catch::Contains("non-empty"));
  CHECK_THROWS_WITH(llmmath::require_matrix_shape(4097, 1, "q"), Catch::Contains("4096"));
  CHECK_THROWS_WITH(llmmath::require_matrix_shape(4096, 4097, "k"), Catch::Contains("4096"));
  CHECK_THROWS_WITH(llmmath::require_matrix_shape(1, 5000, "k"),
                    "k must be at most 4096 rows and columns, got 1x5000");
  CHECK_NOTHROW(llmmath::require_matrix_shape(4096, 4096, "k"));  // 2^24 elements, the limit
  CHECK_THROWS_WITH(llmmath::require_vector_length((1u << 20) + 1, "logits"),
                    Catch::Contains("2^20"));
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(2, 2);
  M(1, 0) = INFINITY;
  CHECK_THROWS_WITH(llmmath::require_finite(M, "v"),
                    "v[1][0] must be a finite number, got Infinity");
}
