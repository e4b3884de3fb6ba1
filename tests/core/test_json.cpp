// The configuration reader's JSON parser (llmmath/json.hpp): the whole grammar, where a fault is
// said to be (line and column, as a reader counts them), and its limits.
#include <catch2/catch.hpp>
#include <string>

#include "llmmath/json.hpp"

using llmmath::json::parse;
using llmmath::json::Value;

TEST_CASE("json: values of every kind, keys in their order", "[json]") {
  const Value v = parse(R"({"a": 1, "b": [true, false, null], "c": {"d": "x"}, "e": -2.5e3})", "t");
  REQUIRE(v.is_object());
  REQUIRE(v.members.size() == 4);
  CHECK(v.members[0].first == "a");
  CHECK(v.find("a")->number == 1);
  CHECK(v.find("b")->items.size() == 3);
  CHECK(v.find("b")->items[0].boolean);
  CHECK(v.find("b")->items[2].is_null());
  CHECK(v.find("c")->find("d")->string == "x");
  CHECK(v.find("e")->number == -2500);
  CHECK(v.find("zz") == nullptr);
}

TEST_CASE("json: every escape and surrogate pairs as UTF-8", "[json]") {
  const Value v = parse(R"(["a\"b\\c\/d\n\t\r\b\f", "\u00e9\u20ac", "\ud83d\ude00"])", "t");
  CHECK(v.items[0].string == "a\"b\\c/d\n\t\r\b\f");
  CHECK(v.items[1].string == "\xc3\xa9\xe2\x82\xac");  // é €
  CHECK(v.items[2].string == "\xf0\x9f\x98\x80");      // 😀
}

TEST_CASE("json: a repeated key reads as its last value, as JSON.parse does", "[json]") {
  CHECK(parse(R"({"k": 1, "k": 2})", "t").find("k")->number == 2);
}

TEST_CASE("json: numbers as JavaScript reads them", "[json]") {
  CHECK(parse("0.1", "t").number == 0.1);
  CHECK(parse("1e-7", "t").number == 1e-7);
  CHECK(parse("131072", "t").number == 131072);
  CHECK(parse("-0", "t").number == 0);
}

TEST_CASE("json: a fault names its line and column", "[json]") {
  CHECK_THROWS_WITH(parse("{\n  \"a\": 1,\n  \"b\" 2\n}", "config.json"),
                    "config.json, line 3, column 7: expected ':' after a member's name, got '2'");
  CHECK_THROWS_WITH(
      parse("{\"a\": 1,}", "config.json"),
      "config.json, line 1, column 9: expected a member's name in double quotes, got '}'");
  CHECK_THROWS_WITH(
      parse("{\"a\": 1", "config.json"),
      "config.json, line 1, column 8: expected ',' or '}' after a member, got the end of the text");
  CHECK_THROWS_WITH(
      parse("", "config.json"),
      "config.json, line 1, column 1: expected a JSON value, got the end of the text");
  CHECK_THROWS_WITH(
      parse("[1, 2] x", "config.json"),
      "config.json, line 1, column 8: expected the end of the text after the value, got 'x'");
  CHECK_THROWS_WITH(parse("{\"a\": 01}", "c"),
                    "c, line 1, column 8: expected no leading zero in a number, got '1'");
  CHECK_THROWS_WITH(parse("[NaN]", "c"),
                    "c, line 1, column 2: expected a JSON value (a number, a string, true, false, "
                    "null, [ or {), got 'N'");
  CHECK_THROWS_WITH(parse("[\"a\nb\"]", "c"),
                    "c, line 1, column 4: expected '\"' to end the string before the line ends, "
                    "got a control character (code 10)");
  CHECK_THROWS_WITH(parse("[\"\\x\"]", "c"),
                    "c, line 1, column 4: expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                    "\\uXXXX), got 'x'");
  // columns count characters, not bytes: é is two bytes of UTF-8 and one column
  CHECK_THROWS_WITH(parse("[\"é\" x]", "c"),
                    "c, line 1, column 6: expected ',' or ']' after an entry, got 'x'");
}

TEST_CASE("json: a byte-order mark is skipped, an invisible character named by its code",
          "[json]") {
  // A file saved with a byte-order mark was once refused, with the mark, invisible, quoted
  const Value v = parse("\xEF\xBB\xBF{\"a\": 1}", "config.json");
  REQUIRE(v.find("a") != nullptr);
  CHECK(v.find("a")->number == 1);
  CHECK_THROWS_WITH(parse("{\xEF\xBB\xBF\"a\": 1}", "config.json"),
                    "config.json, line 1, column 2: expected a member's name in double quotes, got "
                    "an invisible character (U+FEFF)");
  // a right-to-left override, which would reorder the message around it
  CHECK_THROWS_WITH(parse("[1, \xE2\x80\xAE"
                          "2]",
                          "c"),
                    "c, line 1, column 5: expected a JSON value (a number, a string, true, false, "
                    "null, [ or {), got an invisible character (U+202E)");
  CHECK_THROWS_WITH(parse("[1 \xE2\x80\x8B]", "c"),
                    "c, line 1, column 4: expected ',' or ']' after an entry, got an invisible "
                    "character (U+200B)");
  // a visible character of two or three bytes is quoted as before
  CHECK_THROWS_WITH(parse("[1 \xE2\x82\xAC]", "c"),
                    "c, line 1, column 4: expected ',' or ']' after an entry, got '\xE2\x82\xAC'");
}

TEST_CASE("json: limits of size and depth", "[json]") {
  std::string deep(65, '[');
  deep += std::string(65, ']');
  CHECK_THROWS_WITH(parse(deep, "c"),
                    "c, line 1, column 65: nested deeper than 64 arrays and objects");
  std::string ok(64, '[');
  ok += std::string(64, ']');
  CHECK_NOTHROW(parse(ok, "c"));
  const std::string big(llmmath::json::max_text_bytes + 1, ' ');
  CHECK_THROWS_WITH(
      parse(big, "config.json"),
      "config.json must be at most 1 MiB (1,048,576 bytes) of text, got 1048577 bytes");
  // a caller's own limit (the native harness reads arguments of any length)
  std::string many = "[0";
  std::size_t entries = 1;
  for (; many.size() <= llmmath::json::max_text_bytes; ++entries) many += ",1.5";
  many += "]";
  llmmath::json::Value v;
  llmmath::json::parse(many, "arguments", v, std::size_t{1} << 24);
  REQUIRE(v.items.size() == entries);
  CHECK(v.items.back().number == 1.5);
  CHECK_THROWS_WITH(llmmath::json::parse("[1, 2]", "arguments", v, 5),
                    "arguments must be at most 5 bytes of text, got 6 bytes");
}
