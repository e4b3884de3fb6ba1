#include "llmmath/check.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace llmmath {

std::string api_name(std::string_view name) {
  std::string marked(1, name_mark);
  return marked.append(name) += name_mark;
}

std::string plain_text(std::string_view marked) {
  std::string text;
  text.reserve(marked.size());
  for (const char c : marked)
    if (c != name_mark) text += c;
  return text;
}

InvalidArgument::InvalidArgument(const std::string& marked)
    : std::invalid_argument(plain_text(marked)),
      marked_(std::make_shared<const std::string>(marked)) {}

void fail(std::string_view name, std::string_view expected, std::string_view got) {
  std::string message = api_name(name);
  message.append(" must be ").append(expected).append(", got ").append(got);
  throw InvalidArgument(message);
}

void fail_key(std::string_view key, std::string_view expected, std::string_view got) {
  std::string message(key);
  message.append(" must be ").append(expected).append(", got ").append(got);
  throw InvalidArgument(message);
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

void require_finite(double x, std::string_view name) {
  if (!std::isfinite(x)) fail(name, "a finite number", describe(x));
}

void require_integer(double x, std::string_view name, double lo, double hi) {
  require_finite(x, name);
  if (!(x == std::floor(x))) fail(name, "an integer", describe(x));
  if (!(x >= lo && x <= hi))
    fail(name, "an integer in [" + describe(lo) + ", " + describe(hi) + "]", describe(x));
}

void require_finite(const Eigen::MatrixXd& M, std::string_view name) {
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j)
      if (!std::isfinite(M(i, j)))  // the name is built only for the entry that fails
        fail(std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]",
             "a finite number", describe(M(i, j)));
}

void require_finite(const Eigen::VectorXd& x, std::string_view name) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x(i)))
      fail(std::string(name) + "[" + std::to_string(i) + "]", "a finite number", describe(x(i)));
}

void require_matrix_dims(const Eigen::MatrixXd& M, std::string_view name) {
  require_matrix_dims(static_cast<double>(M.rows()), static_cast<double>(M.cols()), name);
}

void require_matrix_dims(double rows, double cols, std::string_view name) {
  const auto dims = [&] { return describe(rows) + "x" + describe(cols); };
  if (rows == 0 || cols == 0) fail(name, "a non-empty matrix", "an empty one (" + dims() + ")");
  if (rows > double(max_matrix_side) || cols > double(max_matrix_side))
    fail(name, "at most " + std::to_string(max_matrix_side) + " rows and columns", dims());
  // 4096 × 4096 = 2^24, so the side limit also keeps every matrix within max_matrix_elements.
  static_assert(max_matrix_side * max_matrix_side <= max_matrix_elements);
}

void require_vector_length(const Eigen::VectorXd& x, std::string_view name) {
  require_vector_length(static_cast<double>(x.size()), name);
}

void require_vector_length(double n, std::string_view name) {
  require(n > 0, name, "a non-empty array", "an empty one");
  if (n > double(max_vector_length))
    fail(name, "at most 2^20 = " + std::to_string(max_vector_length) + " entries",
         describe(n) + " entries");
}

void require_sweep_length(const Eigen::VectorXd& xs, std::string_view name) {
  require(xs.size() > 0, name, "a non-empty array", "an empty one");
  if (std::size_t(xs.size()) > max_sweep_points)
    fail(name, "at most " + std::to_string(max_sweep_points) + " entries (points of a sweep)",
         std::to_string(xs.size()) + " entries");
}

void require_integers(const Eigen::VectorXd& xs, std::string_view name, double lo, double hi) {
  for (Eigen::Index i = 0; i < xs.size(); ++i) {
    const double x = xs(i);
    if (!(x >= lo && x <= hi && x == std::floor(x)))
      require_integer(x, entry_name(name, i), lo, hi);
  }
}

std::string entry_name(std::string_view name, Eigen::Index i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

void require_distribution(const Eigen::VectorXd& x, std::string_view name, double tolerance) {
  require_vector_length(x, name);
  require_finite(x, name);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (x(i) < 0)
      fail(std::string(name) + "[" + std::to_string(i) + "]", "a non-negative number",
           describe(x(i)));
  // summed left to right, not by Eigen's vectorised reduction, so that a sum at the edge of
  // the tolerance is accepted or refused alike natively and in WebAssembly
  double sum = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) sum += x(i);
  if (!(std::fabs(sum - 1) <= tolerance))
    fail(name, "an array summing to 1 within " + describe(tolerance), "a sum of " + describe(sum));
}

}  // namespace llmmath
