// Adapters between the JavaScript boundary (boundary.js) and the core's C++ types.
//
// Nothing a caller passes reaches these functions: boundary.js reads every argument once, checks
// its type and size, and hands over snapshots it built itself: numbers, booleans, `undefined`
// for an omitted option, a Float64Array per vector and { rows, cols, values } per matrix (values
// row by row in a Float64Array). No string a caller passed crosses into the heap. The adapters
// only copy these into Eigen types, run the core, and hand the result back through a callback
// while the arrays it views are alive; every mathematical precondition is the core's.
#pragma once

#include <emscripten/val.h>

#include <Eigen/Core>
#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "../api/adapters.hpp"
#include "llmmath/model.hpp"

namespace llmmath::js {

using emscripten::val;

/// The JavaScript string of a property name of the bindings, given in C++'s snake_case and made
/// camelCase (api::camel_case) once per name and kept (the bindings name properties with string
/// literals, so the address identifies the name). Made afresh on every use, decoded from the heap
/// each time, the names took a seventh of a small call's time (contextDilution, measured in Node
/// 20).
const val& key(const char* name);

/// (rows, cols) of a matrix snapshot, read before anything is copied so that the core's shape
/// checks run before the heap is asked for the matrix.
struct Dims {
  Eigen::Index rows = 0;
  Eigen::Index cols = 0;
};
Dims dims(const val& snapshot);

/// A vector snapshot (a Float64Array) copied into the heap.
Eigen::VectorXd vector(const val& snapshot);

/// A matrix snapshot copied into the heap (Eigen stores it column by column).
Eigen::MatrixXd matrix(const val& snapshot);

/// An optional number: `undefined` (omitted) gives nothing.
std::optional<double> optional_number(const val& v);

/// An optional vector snapshot: `undefined` (omitted) gives nothing.
std::optional<Eigen::VectorXd> optional_vector(const val& v);

/// A string snapshot (a config's text, or the JSON text boundary.js wrote for a "json" argument),
/// copied into the heap as UTF-8.
std::string text(const val& v);

/// An optional boolean: `undefined` (omitted) gives nothing.
std::optional<bool> optional_boolean(const val& v);

using BoolArray = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>;

/// The plain object handed back to JavaScript for one call. Arrays are views into the heap
/// (Float64Array for numbers, Int32Array for indices, Uint8Array for booleans); a matrix is
/// { rows, cols, values[, keep] } with values column by column, as Eigen stores them, and keep
/// (for a masked matrix) 0 where an entry is shown as null. boundary.js copies all of it into
/// plain arrays inside send(), so every viewed array must outlive send().
class Result {
 public:
  Result();

  void set(const char* key, double x);
  void set(const char* key, bool b);
  void set(const char* key, const Eigen::VectorXd& x);
  void set(const char* key, const Eigen::VectorXi& x);
  void set(const char* key, const Eigen::MatrixXd& M);
  void set(const char* key, const Eigen::MatrixXi& M);
  void set(const char* key, const BoolArray& B);
  /// M with null wherever keep is false (a masked entry has no value to show).
  void set(const char* key, const Eigen::MatrixXd& M, const BoolArray& keep);
  /// A nested object (its arrays must outlive send() too).
  void set(const char* key, const Result& nested);
  void set(const char* key, int i) { set(key, static_cast<double>(i)); }
  /// A string the core wrote (a layer's kind, an assumed sentence), and a list of them, each as
  /// api::js_text makes it.
  void set(const char* key, const std::string& s);
  void set(const char* key, const std::vector<std::string>& list);
  /// A field that is null when empty (Nullable, llmmath/model.hpp), not left out.
  template <class T>
  void set(const char* key, const Nullable<T>& x) {
    if (x)
      set(key, *x);
    else
      set_null(key);
  }
  /// A list of result structs, an array of objects.
  template <class Struct>
  void set(const char* key, const std::vector<Struct>& items) {
    std::vector<Result> objects;
    for (const auto& item : items) objects.push_back(of(item));
    set_array(key, objects);
  }
  /// An optional field: left out when empty.
  template <class T>
  void set(const char* key, const std::optional<T>& x) {
    if (x) set(key, *x);
  }
  void set(const char* key, const std::optional<Eigen::MatrixXd>& M, const BoolArray& keep) {
    if (M) set(key, *M, keep);
  }
  /// A result struct of the core, field by field (for_each_field, llmmath/fields.hpp).
  template <class Struct>
  void set(const char* key, const Struct& nested) {
    set(key, of(nested));
  }

  /// The object for a result struct of the core, field by field.
  template <class Struct>
  static Result of(const Struct& r) {
    Result out;
    for_each_field(r, [&out](const char* name, const auto&... value) { out.set(name, value...); });
    return out;
  }

  /// Hands the object to `sink`, which copies everything out before returning.
  void send(const val& sink) const;
  /// Hands a bare array (an index list, the slopes) to `sink`.
  static void send(const val& sink, const Eigen::VectorXi& x);
  static void send(const val& sink, const Eigen::VectorXd& x);

 private:
  void set_null(const char* key);
  void set_array(const char* key, const std::vector<Result>& objects);
  val object_;
};

/// Hands a result of an adapter to `sink`: a bare array as it is, a result struct as an object.
inline void send(const val& sink, const Eigen::VectorXi& x) { Result::send(sink, x); }
inline void send(const val& sink, const Eigen::VectorXd& x) { Result::send(sink, x); }
template <class Struct>
void send(const val& sink, const Struct& r) {
  Result::of(r).send(sink);
}

/// Runs `body`; a std::exception from it (a core precondition, or the heap running out) comes
/// back as its message, as a string, for boundary.js to throw as an Error (a precondition's with
/// the names of the API camelCased, api::js_message); success gives undefined. Nothing is thrown
/// across into JavaScript and every C++ object of the call is destroyed before this returns, so an
/// error leaks nothing.
template <class Body>
val guarded(Body&& body) {
  std::string message;
  try {
    body();
    return val::undefined();
  } catch (const std::bad_alloc&) {
    message = "the WebAssembly heap is out of memory (the page cannot give this call enough)";
  } catch (const InvalidArgument& e) {
    message = api::js_message(e);
  } catch (const std::exception& e) {
    message = e.what();
  }
  return val(message);
}

}  // namespace llmmath::js

namespace llmmath::api {

/// How the adapters read boundary.js's snapshots (adapters.hpp).
template <>
struct Read<emscripten::val> {
  using val = emscripten::val;
  static val field(const val& object, const char* name) { return object[js::key(name)]; }
  static bool present(const val& v) { return !v.isUndefined() && !v.isNull(); }
  static double number(const val& v) { return v.as<double>(); }
  static std::optional<double> optional_number(const val& v) { return js::optional_number(v); }
  static std::optional<bool> optional_boolean(const val& v) { return js::optional_boolean(v); }
  static Eigen::VectorXd vector(const val& v) { return js::vector(v); }
  static std::optional<Eigen::VectorXd> optional_vector(const val& v) {
    return js::optional_vector(v);
  }
  static Eigen::MatrixXd matrix(const val& v) { return js::matrix(v); }
  static js::Dims dims(const val& v) { return js::dims(v); }
  static std::string text(const val& v) { return js::text(v); }
  /// boundary.js has already turned the string into its index among the choices.
  template <std::size_t N>
  static std::optional<int> choice(const val& v, const char* const (&)[N]) {
    if (v.isUndefined()) return std::nullopt;
    return static_cast<int>(v.as<double>());
  }
};

}  // namespace llmmath::api
