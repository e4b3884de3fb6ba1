#include "llmmath/check.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace llmmath {

void require(bool ok, const std::string& name, const std::string& expected,
             const std::string& got) {
  if (!ok) throw std::invalid_argument(name + " must be " + expected + ", got " + got);
}

std::string describe(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  if (x == std::floor(x) && std::fabs(x) < 1e16) {  // whole numbers in full: 10, not 1e+01
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  // The shortest %.{p}g that reads back exactly, so 1.5 prints as "1.5", not 1.500000.
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  // C pads the exponent to two digits ("1e-09"); JavaScript, whose values these are, does not.
  std::string s = buf;
  const std::size_t e = s.find('e');
  if (e != std::string::npos && s.size() > e + 3 && s[e + 2] == '0') s.erase(e + 2, 1);
  return s;
}

void require_finite(double x, const std::string& name) {
  require(std::isfinite(x), name, "a finite number", describe(x));
}

void require_integer(double x, const std::string& name, double lo, double hi) {
  require_finite(x, name);
  require(x == std::floor(x), name, "an integer", describe(x));
  require(x >= lo && x <= hi, name,
          "an integer in [" + describe(lo) + ", " + describe(hi) + "]", describe(x));
}

void require_finite(const Eigen::MatrixXd& M, const std::string& name) {
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j)
      if (!std::isfinite(M(i, j)))  // the name is built only for the entry that fails
        require_finite(M(i, j), name + "[" + std::to_string(i) + "][" + std::to_string(j) + "]");
}

void require_finite(const Eigen::VectorXd& x, const std::string& name) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x(i))) require_finite(x(i), name + "[" + std::to_string(i) + "]");
}

void require_matrix_shape(const Eigen::MatrixXd& M, const std::string& name) {
  require_matrix_shape(static_cast<std::size_t>(M.rows()), static_cast<std::size_t>(M.cols()),
                       name);
}

void require_matrix_shape(std::size_t rows, std::size_t cols, const std::string& name) {
  const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
  require(rows > 0 && cols > 0, name, "a non-empty matrix", "an empty one (" + shape + ")");
  require(rows <= max_matrix_side && cols <= max_matrix_side, name,
          "at most " + std::to_string(max_matrix_side) + " rows and columns", shape);
  // 4096 × 4096 = 2^24, so the side limit also keeps every matrix within max_matrix_elements.
  static_assert(max_matrix_side * max_matrix_side <= max_matrix_elements);
}

void require_vector_length(const Eigen::VectorXd& x, const std::string& name) {
  require_vector_length(static_cast<std::size_t>(x.size()), name);
}

void require_vector_length(std::size_t n, const std::string& name) {
  require(n > 0, name, "a non-empty array", "an empty one");
  require(n <= max_vector_length, name,
          "at most 2^20 = " + std::to_string(max_vector_length) + " entries",
          std::to_string(n) + " entries");
}

void require_distribution(const Eigen::VectorXd& x, const std::string& name, double tolerance) {
  require_vector_length(x, name);
  require_finite(x, name);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (x(i) < 0)
      require(false, name + "[" + std::to_string(i) + "]", "a non-negative number", describe(x(i)));
  // summed left to right, not by Eigen's vectorised reduction, so that a sum at the edge of
  // the tolerance is accepted or refused alike natively and in WebAssembly
  double sum = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) sum += x(i);
  require(std::fabs(sum - 1) <= tolerance, name,
          "an array summing to 1 within " + describe(tolerance), "a sum of " + describe(sum));
}

}  // namespace llmmath
