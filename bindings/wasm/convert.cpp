#include "convert.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "llmmath/check.hpp"

namespace llmmath::js {

namespace {

std::string type_of(const val& v) { return v.typeOf().as<std::string>(); }

// The JS `+` of a value, without letting a stray string grow the message without bound.
std::string quoted(std::string s) {
  constexpr std::size_t longest = 40;
  if (s.size() > longest) s = s.substr(0, longest) + "…";
  return "\"" + s + "\"";
}

}  // namespace

std::string describe(const val& v) {
  const std::string t = type_of(v);
  if (t == "number") return llmmath::describe(v.as<double>());
  if (t == "string") return quoted(v.as<std::string>()) + " (a string)";
  if (t == "boolean") return v.as<bool>() ? "true" : "false";
  if (t == "undefined") return "undefined";
  if (v.isNull()) return "null";
  if (v.isArray()) return "an array of length " + std::to_string(v["length"].as<unsigned>());
  if (t == "object") return "an object";
  return "a " + t;
}

double number(const val& v, const std::string& name) {
  require(v.isNumber(), name, "a number", describe(v));
  return v.as<double>();
}

double finite_number(const val& v, const std::string& name) {
  const double x = number(v, name);
  require_finite(x, name);
  return x;
}

bool boolean(const val& v, const std::string& name) {
  require(type_of(v) == "boolean", name, "true or false", describe(v));
  return v.as<bool>();
}

std::string string(const val& v, const std::string& name) {
  require(v.isString(), name, "a string", describe(v));
  return v.as<std::string>();
}

std::size_t choice(const val& v, const std::string& name,
                   std::initializer_list<const char*> allowed) {
  const bool is_string = v.isString();
  const std::string s = is_string ? v.as<std::string>() : std::string();
  std::string list;
  std::size_t index = 0, found = allowed.size();
  for (const char* a : allowed) {
    if (is_string && s == a) found = index;
    const char* separator = index == 0 ? "" : index + 1 == allowed.size() ? " or " : ", ";
    list += separator + ("\"" + std::string(a) + "\"");
    ++index;
  }
  require(found < allowed.size(), name, list, describe(v));
  return found;
}

namespace {

// Length of a JS array, or a clear error naming what was passed instead.
std::size_t array_length(const val& v, const std::string& name, const char* expected) {
  require(v.isArray(), name, expected, describe(v));
  return v["length"].as<std::size_t>();
}

// Copies the n entries of the JS array `a` to out[0], out[stride], … Fast path: when
// Number.isFinite holds for every entry (it does not coerce, so strings, booleans and null
// fail it), one bulk copy through a Float64Array. Otherwise entry by entry, so that the first
// entry that is not a number is named; non-finite numbers pass here and the core names them.
void read_numbers(const val& a, std::size_t n, const std::string& name, double* out,
                  std::size_t stride) {
  static const val is_finite = val::global("Number")["isFinite"];
  if (a.call<bool>("every", is_finite)) {
    const std::vector<double> values = emscripten::convertJSArrayToNumberVector<double>(a);
    for (std::size_t i = 0; i < n; ++i) out[i * stride] = values[i];
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const val e = a[i];
    if (!e.isNumber()) number(e, name + "[" + std::to_string(i) + "]");
    out[i * stride] = e.as<double>();
  }
}

}  // namespace

Eigen::VectorXd vector(const val& v, const std::string& name) {
  const std::size_t n = array_length(v, name, "an array of numbers");
  require_vector_length(n, name);
  Eigen::VectorXd x(static_cast<Eigen::Index>(n));
  read_numbers(v, n, name, x.data(), 1);
  return x;
}

Eigen::MatrixXd matrix(const val& v, const std::string& name) {
  constexpr const char* expected = "a matrix (an array of rows, each an array of numbers)";
  const std::size_t rows = array_length(v, name, expected);
  require(rows > 0, name, "a non-empty matrix", "an empty array");
  const val first = v[0];
  const std::size_t cols = array_length(first, name + "[0]", "a row (an array of numbers)");
  require_matrix_shape(rows, cols, name);
  Eigen::MatrixXd M(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string row_name = name + "[" + std::to_string(i) + "]";
    const val row = v[i];
    const std::size_t len = array_length(row, row_name, "a row (an array of numbers)");
    require(len == cols, row_name, "a row of " + std::to_string(cols) + " numbers like " +
            name + "[0] (a matrix cannot be ragged)", std::to_string(len) + " entries");
    // M is column-major: row i starts at M.data() + i and steps by M.rows()
    read_numbers(row, cols, row_name, M.data() + i, static_cast<std::size_t>(rows));
  }
  return M;
}

val object(const val& v, const std::string& name, std::initializer_list<const char*> known,
           bool optional) {
  if (optional && (v.isUndefined() || v.isNull())) return val::object();
  require(type_of(v) == "object" && !v.isNull() && !v.isArray(), name, "an object",
          describe(v));
  const val keys = val::global("Object").call<val>("keys", v);
  const std::size_t n = keys["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    bool found = false;
    std::string list;
    for (const char* k : known) {
      found = found || key == k;
      list += (list.empty() ? "" : ", ") + std::string(k);
    }
    require(found, name, "an object with only the keys " + list,
            "the unknown key " + quoted(key));
  }
  return v;
}

std::optional<val> field(const val& obj, const char* key) {
  val f = obj[key];
  if (f.isUndefined()) return std::nullopt;
  return f;
}

namespace {

// A plain JS array copied from n doubles of the wasm heap (Array.from copies before returning).
val array_from(const double* data, std::size_t n) {
  return val::global("Array").call<val>("from", val(emscripten::typed_memory_view(n, data)));
}

}  // namespace

val to_js(const Eigen::VectorXd& x) {
  return array_from(x.data(), static_cast<std::size_t>(x.size()));
}

val to_js(const Eigen::VectorXi& x) {
  // One copy through an Int32Array view rather than a push per entry: index lists (sorted
  // vocabularies, a million seeded draws) can be 10^6 long.
  return val::global("Array").call<val>(
      "from", val(emscripten::typed_memory_view(static_cast<std::size_t>(x.size()), x.data())));
}

val to_js(const Eigen::MatrixXd& M) {
  // Row-major copy so each row is contiguous for array_from.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> R = M;
  val out = val::array();
  for (Eigen::Index i = 0; i < R.rows(); ++i)
    out.call<void>("push", array_from(R.row(i).data(), static_cast<std::size_t>(R.cols())));
  return out;
}

val to_js(const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& B) {
  val out = val::array();
  for (Eigen::Index i = 0; i < B.rows(); ++i) {
    val row = val::array();
    for (Eigen::Index j = 0; j < B.cols(); ++j) row.call<void>("push", bool(B(i, j)));
    out.call<void>("push", row);
  }
  return out;
}

val to_js(const Eigen::MatrixXd& M,
          const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& keep) {
  // One row at a time through a small buffer (no second copy of a large matrix); each run of
  // masked entries becomes null with one Array.prototype.fill call.
  Eigen::VectorXd buffer(M.cols());
  val out = val::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    buffer = M.row(i).transpose();
    val row = array_from(buffer.data(), static_cast<std::size_t>(buffer.size()));
    for (Eigen::Index j = 0; j < M.cols();) {
      if (keep(i, j)) {
        ++j;
        continue;
      }
      const Eigen::Index start = j;
      while (j < M.cols() && !keep(i, j)) ++j;
      row.call<void>("fill", val::null(), static_cast<double>(start), static_cast<double>(j));
    }
    out.call<void>("push", row);
  }
  return out;
}

void throw_error(std::string message) {
  val error = val::global("Error").new_(val(message));
  // Free the C++ copy before the JS exception leaves this frame.
  message.clear();
  message.shrink_to_fit();
  error.throw_();
  __builtin_unreachable();
}

}  // namespace llmmath::js
