// Just enough JSON for reading a model's configuration (model.hpp): a parser of the whole
// grammar (RFC 8259: every escape, \u with surrogate pairs, numbers as JavaScript reads them)
// that says where it stopped, by line and column, in the reader's words, and a value type whose
// objects keep their keys' order. The project's only JSON parser (the native bindings read
// their arguments with it too); nothing here does I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmmath::json {

/// Largest text parse() accepts: 1 MiB (a model's config.json is a few kilobytes; the largest
/// published ones, with label maps, stay under 100 KB).
constexpr std::size_t max_text_bytes = std::size_t{1} << 20;

/// Deepest nesting of arrays and objects parse() accepts (a config nests three or four levels).
constexpr int max_depth = 64;

struct Value {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> items;                            ///< an array's entries
  std::vector<std::pair<std::string, Value>> members;  ///< an object's, in the file's order

  bool is_null() const { return type == Type::null; }
  bool is_object() const { return type == Type::object; }
  /// The member `key` of an object (the last one, as JSON.parse keeps a repeated key), or
  /// nullptr when absent or when this is not an object.
  const Value* find(std::string_view key) const;
};

/// Parses `text`, which must be one JSON value and nothing else but white space, of at most
/// `max_bytes` bytes (a caller's own files, such as the native harness's arguments, may allow
/// more than a configuration's 1 MiB). A fault throws
/// std::invalid_argument("<what>, line L, column C: <expectation>"), lines and columns counted
/// from 1 and columns in characters (UTF-8 sequences count once), e.g.
///   config.json, line 3, column 14: expected ',' or '}' after a member, got '"'
void parse(std::string_view text, std::string_view what, Value& out,
           std::size_t max_bytes = max_text_bytes);
Value parse(std::string_view text, std::string_view what);

/// What a value is, for messages: `"32"` (a string, quoted and cut at 40 characters), `32`,
/// `true`, `null`, `an array`, `an object`.
std::string describe(const Value& v);

}  // namespace llmmath::json
