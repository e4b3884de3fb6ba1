// The precondition helper: every error names its parameter, the expectation and the value.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "../../bindings/api/adapters.hpp"
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
  CHECK_THROWS_WITH(llmmath::require(false, "top_p", "in (0, 1]", describe(1.5)),
                    "top_p must be in (0, 1], got 1.5");
  CHECK_NOTHROW(llmmath::require(true, "top_p", "in (0, 1]", "0.5"));
  CHECK_THROWS_AS(llmmath::require_finite(NAN, "x"), std::invalid_argument);
  CHECK_THROWS_WITH(llmmath::require_integer(2.5, "top_k", 0, 10),
                    "top_k must be an integer, got 2.5");
  CHECK_THROWS_WITH(llmmath::require_integer(11, "top_k", 0, 10),
                    "top_k must be an integer in [0, 10], got 11");
}

TEST_CASE("a message names the API's names in C++, marked for the bindings and nothing else",
          "[check]") {
  const std::string m(1, llmmath::name_mark);
  try {
    llmmath::fail("opts.tensor_parallel",
                  "a divisor of " + llmmath::api_name("kv_heads") + " (num_key_value_heads)", "3");
    FAIL("fail() returned");
  } catch (const llmmath::InvalidArgument& e) {
    CHECK(std::string(e.what()) ==
          "opts.tensor_parallel must be a divisor of kv_heads (num_key_value_heads), got 3");
    CHECK(e.marked() == m + "opts.tensor_parallel" + m + " must be a divisor of " + m + "kv_heads" +
                            m + " (num_key_value_heads), got 3");
    // what a JavaScript caller reads: the marked names camelCased, the config.json key as it is
    CHECK(llmmath::api::js_text(e.marked()) ==
          "opts.tensorParallel must be a divisor of kvHeads (num_key_value_heads), got 3");
  }
  // a key of the caller's own data is quoted as written: nothing to rename
  try {
    llmmath::fail_key("config.num_key_value_heads", "a positive integer", "0");
    FAIL("fail_key() returned");
  } catch (const llmmath::InvalidArgument& e) {
    CHECK(llmmath::api::js_text(e.marked()) ==
          "config.num_key_value_heads must be a positive integer, got 0");
  }
  // an entry's name is marked whole, its index kept
  CHECK_THROWS_WITH(llmmath::require_finite(Eigen::VectorXd(Eigen::Vector2d(1, NAN)), "x_abs_max"),
                    "x_abs_max[1] must be a finite number, got NaN");
  CHECK(llmmath::plain_text(llmmath::api_name("memory_utilization") + " is not given") ==
        "memory_utilization is not given");
  CHECK(llmmath::api::js_text("no name here: " + llmmath::api::camel_case("a_b")) ==
        "no name here: aB");
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
