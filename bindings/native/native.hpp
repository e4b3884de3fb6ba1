// The core's API for native callers: the same adapters as the WebAssembly module
// (bindings/api/adapters.hpp), called by JavaScript name with arguments given as JSON, as the
// API takes them, and results handed back as JSON in the shape the API returns them. The golden
// file (tests/core/golden.cpp), the native side of the benchmark (bench/native.cpp) and the
// fuzz target (tests/fuzz/fuzz_core.cpp) call the core this way, so none of them keeps a list of
// the API's functions or fields of its own.
//
//   llmmath::native::Json            just enough JSON: what JSON.stringify writes (no escapes but
//                                    the simple ones), ±Infinity as the strings "Infinity" and
//                                    "-Infinity" (JSON has no such number)
//   llmmath::native::parse(text)     text → Json, by the core's parser (llmmath/json.hpp)
//   llmmath::native::write(json)     Json → text, numbers with 17 significant digits
//   llmmath::native::call(fn, args)  the API function `fn` (camelCase) on `args` → its result;
//                                    its strings and errors' messages as JavaScript reads them
//   llmmath::native::run(fn, args)   the same call, its result dropped (for timing)
//   llmmath::native::functions()     the API's functions' names, in registration order
// Arguments must be as boundary.js would hand them on: of the declared kind (a number, an array
// of numbers, an array of such rows, true or false, an object) or absent (null); a choice is
// given as its string. Anything else throws std::invalid_argument.
#pragma once

#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../api/adapters.hpp"

namespace llmmath::native {

struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;      // the entries, unless every one is a number:
  std::vector<double> numbers;  // then they are here (a vector's 2^20 values stay compact)
  std::map<std::string, Json> object;
  std::vector<std::string> order;  // the object's keys in the order they were added

  // A missing key reads as null, like an absent option in JavaScript (undefined).
  const Json& operator[](const std::string& key) const {
    static const Json null;
    const auto it = object.find(key);
    return it == object.end() ? null : it->second;
  }
  bool present() const { return type != Type::null; }
};

/// A number as Json.
inline Json number_json(double x) {
  Json j;
  j.type = Json::Type::number;
  j.number = x;
  return j;
}

/// The core's parsed value as a Json: an array whose entries are all numbers keeps them in
/// `numbers`; an object's repeated key keeps its first place and its last value, as JSON.parse.
inline Json from_value(json::Value&& v) {
  Json j;
  switch (v.type) {
    case json::Value::Type::null: break;
    case json::Value::Type::boolean:
      j.type = Json::Type::boolean;
      j.boolean = v.boolean;
      break;
    case json::Value::Type::number: return number_json(v.number);
    case json::Value::Type::string:
      j.type = Json::Type::string;
      j.string = std::move(v.string);
      break;
    case json::Value::Type::array: {
      j.type = Json::Type::array;
      bool numbers = true;
      for (const auto& item : v.items) numbers = numbers && item.type == json::Value::Type::number;
      if (numbers) {
        j.numbers.reserve(v.items.size());
        for (const auto& item : v.items) j.numbers.push_back(item.number);
      } else {
        for (auto& item : v.items) j.array.push_back(from_value(std::move(item)));
      }
      break;
    }
    case json::Value::Type::object:
      j.type = Json::Type::object;
      for (auto& [key, member] : v.members) {
        if (!j.object.count(key)) j.order.push_back(key);
        j.object[key] = from_value(std::move(member));
      }
      break;
  }
  return j;
}

/// Parses a JSON text with the core's parser (llmmath/json.hpp; a fault names its line and
/// column), of any length: the harness's arguments hold vectors of up to 2^20 numbers.
inline Json parse(const std::string& text) {
  json::Value v;
  json::parse(text, "JSON", v, std::numeric_limits<std::size_t>::max());
  return from_value(std::move(v));
}

/// The entries of an array, numbers included (an array of numbers keeps them in `numbers`).
inline std::vector<Json> entries(const Json& j) {
  if (j.array.empty()) {
    std::vector<Json> out;
    for (const double x : j.numbers) out.push_back(number_json(x));
    return out;
  }
  return j.array;
}

inline std::string write_number(double x) {
  if (std::isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  if (std::isnan(x)) return "\"NaN\"";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// A string as JSON: quotes, backslashes and control characters escaped, the rest as it is.
inline std::string write_string(const std::string& text) {
  std::string s = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (c == '\n') {
      s += "\\n";
    } else if (c == '\t') {
      s += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      s += buf;
    } else {
      s += c;
    }
  }
  return s + "\"";
}

inline std::string write(const Json& j) {
  switch (j.type) {
    case Json::Type::null: return "null";
    case Json::Type::boolean: return j.boolean ? "true" : "false";
    case Json::Type::number: return write_number(j.number);
    case Json::Type::string: return write_string(j.string);
    case Json::Type::array: {
      std::string s = "[";
      if (j.array.empty())
        for (std::size_t i = 0; i < j.numbers.size(); ++i)
          s += (i ? "," : "") + write_number(j.numbers[i]);
      else
        for (std::size_t i = 0; i < j.array.size(); ++i) s += (i ? "," : "") + write(j.array[i]);
      return s + "]";
    }
    case Json::Type::object: {
      std::string s = "{";
      bool first = true;
      for (const auto& key : j.order) {
        s += (first ? "" : ",") + write_string(key) + ":" + write(j.object.at(key));
        first = false;
      }
      return s + "}";
    }
  }
  return "null";
}

// ---- results as Json, field by field (llmmath/fields.hpp) ------------------------------------

using api::camel_case;

inline Json to_json(double x) { return number_json(x); }
inline Json to_json(int x) { return number_json(x); }
inline Json to_json(bool b) {
  Json j;
  j.type = Json::Type::boolean;
  j.boolean = b;
  return j;
}
template <class Scalar>
Json to_json(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x) {
  Json j;
  j.type = Json::Type::array;
  for (Eigen::Index i = 0; i < x.size(); ++i) j.numbers.push_back(static_cast<double>(x(i)));
  return j;
}
/// A matrix as rows; where `keep` is given and false the entry is null.
template <class Derived>
Json rows_json(const Eigen::DenseBase<Derived>& M,
               const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>* keep = nullptr) {
  Json j;
  j.type = Json::Type::array;
  for (Eigen::Index r = 0; r < M.rows(); ++r) {
    Json row;
    row.type = Json::Type::array;
    for (Eigen::Index c = 0; c < M.cols(); ++c) {
      if (keep) {
        row.array.push_back(((*keep)(r, c)) ? number_json(static_cast<double>(M(r, c))) : Json{});
      } else if (std::is_same_v<typename Derived::Scalar, bool>) {
        row.array.push_back(to_json(static_cast<bool>(M(r, c))));
      } else {
        row.numbers.push_back(static_cast<double>(M(r, c)));
      }
    }
    j.array.push_back(std::move(row));
  }
  return j;
}
inline Json to_json(const Eigen::MatrixXd& M) { return rows_json(M); }
inline Json to_json(const Eigen::MatrixXi& M) { return rows_json(M); }
inline Json to_json(const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& B) {
  return rows_json(B);
}
/// A string the core wrote, as JavaScript reads it (api::js_text: its API's names camelCased).
inline Json to_json(const std::string& text) {
  Json j;
  j.type = Json::Type::string;
  j.string = api::js_text(text);
  return j;
}
inline Json to_json(const std::vector<std::string>& list) {
  Json j;
  j.type = Json::Type::array;
  for (const auto& s : list) j.array.push_back(to_json(s));
  return j;
}
template <class Struct>
Json to_json(const Struct& r);
/// A list of result structs, an array of objects.
template <class Struct>
Json to_json(const std::vector<Struct>& items) {
  Json j;
  j.type = Json::Type::array;
  for (const auto& item : items) j.array.push_back(to_json(item));
  return j;
}

/// Collects a struct's fields into an object.
struct ObjectWriter {
  Json& out;
  void add(const char* name, Json value) {
    const std::string key = camel_case(name);
    out.order.push_back(key);
    out.object[key] = std::move(value);
  }
  template <class T>
  void operator()(const char* name, const T& value) {
    add(name, to_json(value));
  }
  template <class T>
  void operator()(const char* name, const std::optional<T>& value) {
    if (value) add(name, to_json(*value));
  }
  /// Null when empty, not left out (llmmath/model.hpp).
  template <class T>
  void operator()(const char* name, const Nullable<T>& value) {
    add(name, value ? to_json(*value) : Json{});
  }
  void operator()(const char* name, const std::optional<Eigen::MatrixXd>& M,
                  const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& keep) {
    if (M) add(name, rows_json(*M, &keep));
  }
};

template <class Struct>
Json to_json(const Struct& r) {
  Json j;
  j.type = Json::Type::object;
  for_each_field(r, ObjectWriter{j});
  return j;
}

}  // namespace llmmath::native

namespace llmmath::api {

/// How the adapters read Json arguments (adapters.hpp).
template <>
struct Read<native::Json> {
  using Json = native::Json;
  [[noreturn]] static void refuse(const char* what) {
    throw std::invalid_argument(std::string("native call: expected ") + what);
  }
  static const Json& field(const Json& object, const char* name) { return object[key(name)]; }
  /// The JavaScript name of a field, made once per name (by address, as the WebAssembly binding's
  /// key()), so that a timed call does not build strings the module does not build either.
  static const std::string& key(const char* name) {
    static std::deque<std::pair<const char*, std::string>> names;
    for (const auto& [known, camel] : names)
      if (known == name) return camel;
    names.emplace_back(name, native::camel_case(name));
    return names.back().second;
  }
  static bool present(const Json& j) { return j.present(); }
  static double number(const Json& j) {
    if (j.type != Json::Type::number) refuse("a number");
    return j.number;
  }
  static std::optional<double> optional_number(const Json& j) {
    return j.present() ? std::optional<double>(number(j)) : std::nullopt;
  }
  static std::optional<bool> optional_boolean(const Json& j) {
    if (!j.present()) return std::nullopt;
    if (j.type != Json::Type::boolean) refuse("true or false");
    return j.boolean;
  }
  static Eigen::VectorXd vector(const Json& j) {
    if (j.type != Json::Type::array || !j.array.empty() || j.numbers.empty())
      refuse("a non-empty array of numbers");
    return Eigen::Map<const Eigen::VectorXd>(j.numbers.data(), Eigen::Index(j.numbers.size()));
  }
  static std::optional<Eigen::VectorXd> optional_vector(const Json& j) {
    return j.present() ? std::optional<Eigen::VectorXd>(vector(j)) : std::nullopt;
  }
  static Dims dims(const Json& j) {
    if (j.type != Json::Type::array || !j.numbers.empty() || j.array.empty())
      refuse("a non-empty array of rows");
    const std::size_t cols = j.array[0].numbers.size();
    for (const Json& row : j.array)
      if (row.type != Json::Type::array || !row.array.empty() || row.numbers.size() != cols ||
          cols == 0)
        refuse("rows of one non-zero length");
    return {Eigen::Index(j.array.size()), Eigen::Index(cols)};
  }
  static Eigen::MatrixXd matrix(const Json& j) {
    const Dims s = dims(j);
    Eigen::MatrixXd M(s.rows, s.cols);
    for (Eigen::Index r = 0; r < s.rows; ++r)
      for (Eigen::Index c = 0; c < s.cols; ++c)
        M(r, c) = j.array[std::size_t(r)].numbers[std::size_t(c)];
    return M;
  }
  /// A "text" argument as given; a "json" one (plain data) as the JSON text boundary.js would
  /// write.
  static std::string text(const Json& j) {
    if (j.type == Json::Type::string) return j.string;
    if (!j.present()) refuse("a string or plain data");
    return native::write(j);
  }
  template <std::size_t N>
  static std::optional<int> choice(const Json& j, const char* const (&names)[N]) {
    if (!j.present()) return std::nullopt;
    for (std::size_t i = 0; i < N; ++i)
      if (j.type == Json::Type::string && j.string == names[i]) return static_cast<int>(i);
    refuse("one of the choices");
  }
};

}  // namespace llmmath::api

namespace llmmath::native {

namespace detail {

template <class Result>
void drop(const Result& r) {
  // the result's address escapes, so the call is not optimised away (the core is another
  // translation unit anyway); nothing of the result is converted or copied
  static const void* volatile escape = nullptr;
  escape = &r;
}

template <auto Adapter, std::size_t... I>
Json call(const std::vector<Json>& args, std::index_sequence<I...>) {
  static const Json absent;
  return to_json(Adapter((I < args.size() ? args[I] : absent)...));
}

template <auto Adapter, std::size_t... I>
void run(const std::vector<Json>& args, std::index_sequence<I...>) {
  static const Json absent;
  drop(Adapter((I < args.size() ? args[I] : absent)...));
}

struct Entry {
  std::string name;
  Json (*call)(const std::vector<Json>&);
  void (*run)(const std::vector<Json>&);
};

inline const std::vector<Entry>& registry() {
#define LLMMATH_NATIVE_ENTRY(adapter, arity)                                      \
  Entry{camel_case(#adapter),                                                     \
        [](const std::vector<Json>& a) {                                          \
          return call<&api::adapter<Json>>(a, std::make_index_sequence<arity>()); \
        },                                                                        \
        [](const std::vector<Json>& a) {                                          \
          run<&api::adapter<Json>>(a, std::make_index_sequence<arity>());         \
        }},
  static const std::vector<Entry> entries{LLMMATH_API_FUNCTIONS(LLMMATH_NATIVE_ENTRY)};
#undef LLMMATH_NATIVE_ENTRY
  return entries;
}

inline const Entry& entry(const std::string& fn) {
  for (const Entry& e : registry())
    if (e.name == fn) return e;
  throw std::invalid_argument("native call: no API function " + fn);
}

}  // namespace detail

/// The API function `fn` on `args`; its result as Json. Throws what the core throws, a failed
/// check as std::invalid_argument with the message JavaScript reads (api::js_message).
inline Json call(const std::string& fn, const std::vector<Json>& args) {
  try {
    return detail::entry(fn).call(args);
  } catch (const InvalidArgument& e) {
    throw std::invalid_argument(api::js_message(e));
  }
}

/// The same call with its result dropped.
inline void run(const std::string& fn, const std::vector<Json>& args) {
  try {
    detail::entry(fn).run(args);
  } catch (const InvalidArgument& e) {
    throw std::invalid_argument(api::js_message(e));
  }
}

/// The names of the API's functions, in registration order.
inline std::vector<std::string> functions() {
  std::vector<std::string> out;
  for (const auto& e : detail::registry()) out.push_back(e.name);
  return out;
}

}  // namespace llmmath::native
