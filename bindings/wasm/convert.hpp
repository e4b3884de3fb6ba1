// Adapters between plain JavaScript values and the core's C++ types. They check what only the
// JavaScript side can get wrong (a string where a number belongs, a ragged array, an unknown
// option) and leave every mathematical precondition to the core. Each failure throws
// std::invalid_argument through llmmath::require, naming the parameter as the caller wrote it.
#pragma once

#include <emscripten/val.h>

#include <Eigen/Core>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

namespace llmmath::js {

using emscripten::val;

/// A short description of any JS value for an error message: 1.5, "3" (a string), null,
/// undefined, true, an array, an object.
std::string describe(const val& v);

/// A required number: typeof "number" (numeric strings, booleans and null are refused).
/// Finiteness is the core's business, except where noted.
double number(const val& v, const std::string& name);

/// A required finite number (for parameters the core takes as plain doubles).
double finite_number(const val& v, const std::string& name);

/// A required boolean.
bool boolean(const val& v, const std::string& name);

/// A required string.
std::string string(const val& v, const std::string& name);

/// A required string that is one of `allowed` (an option such as pairing: "interleaved" or
/// "half"); returns its index in `allowed`.
std::size_t choice(const val& v, const std::string& name,
                   std::initializer_list<const char*> allowed);

/// An array of numbers → VectorXd; checks the length limit before reading the entries.
Eigen::VectorXd vector(const val& v, const std::string& name);

/// An array of equal-length arrays of numbers → MatrixXd (rows first); checks the size
/// limits before reading the entries.
Eigen::MatrixXd matrix(const val& v, const std::string& name);

/// An options or config object. `undefined` and `null` mean "all defaults" (an empty object)
/// when `optional`; any key not in `known` is refused, so a misspelt option is reported
/// instead of silently ignored.
val object(const val& v, const std::string& name, std::initializer_list<const char*> known,
           bool optional);

/// The field `key` of an object from object(), or nothing when it is absent (undefined).
std::optional<val> field(const val& obj, const char* key);

/// Results: plain JS numbers, arrays and arrays of rows, copied out of the wasm heap.
val to_js(const Eigen::VectorXd& x);
val to_js(const Eigen::VectorXi& x);
val to_js(const Eigen::MatrixXd& M);
val to_js(const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& B);

/// A matrix as rows of numbers with null wherever `keep` is false (a masked entry has no
/// value to show). M and keep have the same shape.
val to_js(const Eigen::MatrixXd& M,
          const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& keep);

/// Throws a JS Error with this message (does not return).
[[noreturn]] void throw_error(std::string message);

/// Runs `body`; a std::exception from it becomes a JavaScript Error with the same message,
/// thrown only after every C++ object of the call has been destroyed, so nothing leaks.
template <class Body>
val guarded(Body&& body) {
  std::string message;
  try {
    return body();
  } catch (const std::exception& e) {
    message = e.what();
  }
  throw_error(std::move(message));
}

}  // namespace llmmath::js
