#include "convert.hpp"

#include <cstddef>
#include <deque>
#include <utility>

namespace llmmath::js {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Copies a Float64Array snapshot of n numbers to `out` in one TypedArray.prototype.set, a
// memory copy inside the JavaScript engine (no per-entry call into JavaScript).
void copy(const val& values, double* out, std::size_t n) {
  val(emscripten::typed_memory_view(n, out)).call<void>("set", values);
}

template <class T>
val view(const T* data, Eigen::Index n) {
  return val(emscripten::typed_memory_view(static_cast<std::size_t>(n), data));
}

// { rows, cols, values }: a matrix as boundary.js reads it back.
template <class T>
val matrix_view(const T* data, Eigen::Index rows, Eigen::Index cols) {
  val out = val::object();
  out.set(key("rows"), static_cast<double>(rows));
  out.set(key("cols"), static_cast<double>(cols));
  out.set(key("values"), view(data, rows * cols));
  return out;
}

// bool is one byte here, so a BoolArray is viewed as bytes (0 or 1) without a copy.
static_assert(sizeof(bool) == sizeof(unsigned char));

const unsigned char* bytes(const BoolArray& B) {
  return reinterpret_cast<const unsigned char*>(B.data());
}

}  // namespace

const val& key(const char* name) {
  // A few dozen names, looked up by address: a linear scan is faster than hashing them. A deque,
  // so that adding a name never moves the ones already handed out (a caller may hold one while
  // the next is made, as Result::set does around matrix_view).
  static std::deque<std::pair<const char*, val>> names;
  for (const auto& [known, string] : names)
    if (known == name) return string;
  names.emplace_back(name, val(api::camel_case(name)));
  return names.back().second;
}

Dims dims(const val& snapshot) {
  return {snapshot[key("rows")].as<Eigen::Index>(), snapshot[key("cols")].as<Eigen::Index>()};
}

Eigen::VectorXd vector(const val& snapshot) {
  Eigen::VectorXd x(snapshot[key("length")].as<Eigen::Index>());
  copy(snapshot, x.data(), static_cast<std::size_t>(x.size()));
  return x;
}

Eigen::MatrixXd matrix(const val& snapshot) {
  const Dims s = dims(snapshot);
  RowMajorMatrix R(s.rows, s.cols);
  copy(snapshot[key("values")], R.data(), static_cast<std::size_t>(R.size()));
  return R;
}

std::optional<double> optional_number(const val& v) {
  if (v.isUndefined()) return std::nullopt;
  return v.as<double>();
}

std::optional<Eigen::VectorXd> optional_vector(const val& v) {
  if (v.isUndefined()) return std::nullopt;
  return vector(v);
}

std::string text(const val& v) { return v.as<std::string>(); }

std::optional<bool> optional_boolean(const val& v) {
  if (v.isUndefined()) return std::nullopt;
  return v.as<bool>();
}

Result::Result() : object_(val::object()) {}

void Result::set(const char* name, double x) { object_.set(key(name), x); }

void Result::set(const char* name, bool b) { object_.set(key(name), b); }

void Result::set(const char* name, const Eigen::VectorXd& x) {
  object_.set(key(name), view(x.data(), x.size()));
}

void Result::set(const char* name, const Eigen::VectorXi& x) {
  object_.set(key(name), view(x.data(), x.size()));
}

void Result::set(const char* name, const Eigen::MatrixXd& M) {
  object_.set(key(name), matrix_view(M.data(), M.rows(), M.cols()));
}

void Result::set(const char* name, const Eigen::MatrixXi& M) {
  object_.set(key(name), matrix_view(M.data(), M.rows(), M.cols()));
}

void Result::set(const char* name, const BoolArray& B) {
  object_.set(key(name), matrix_view(bytes(B), B.rows(), B.cols()));
}

void Result::set(const char* name, const Eigen::MatrixXd& M, const BoolArray& keep) {
  val out = matrix_view(M.data(), M.rows(), M.cols());
  out.set(key("keep"), view(bytes(keep), keep.size()));
  object_.set(key(name), out);
}

void Result::set(const char* name, const Result& nested) { object_.set(key(name), nested.object_); }

// The core's strings name its API's names in C++ and marked; JavaScript reads them camelCased.
void Result::set(const char* name, const std::string& s) {
  object_.set(key(name), val(api::js_text(s)));
}

void Result::set(const char* name, const std::vector<std::string>& list) {
  val out = val::array();
  for (std::size_t i = 0; i < list.size(); ++i) out.set(i, val(api::js_text(list[i])));
  object_.set(key(name), out);
}

void Result::set_null(const char* name) { object_.set(key(name), val::null()); }

void Result::set_array(const char* name, const std::vector<Result>& objects) {
  val out = val::array();
  for (std::size_t i = 0; i < objects.size(); ++i) out.set(i, objects[i].object_);
  object_.set(key(name), out);
}

void Result::send(const val& sink) const { sink(object_); }

void Result::send(const val& sink, const Eigen::VectorXi& x) { sink(view(x.data(), x.size())); }

void Result::send(const val& sink, const Eigen::VectorXd& x) { sink(view(x.data(), x.size())); }

}  // namespace llmmath::js
