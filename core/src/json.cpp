// The configuration reader's JSON parser (json.hpp): recursive descent over the text, keeping
// its position so that a fault names the line and column where the reader would look.
#include "llmmath/json.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "llmmath/check.hpp"

namespace llmmath::json {

const Value* Value::find(std::string_view key) const {
  if (type != Type::object) return nullptr;
  for (auto it = members.rbegin(); it != members.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string_view what) : s_(text), what_(what) {}

  void document(Value& out) {
    // a byte-order mark before the text (Windows editors write one; JSON.parse refuses it, but
    // a reader who pasted a file cannot see it): skipped
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    space();
    if (at_end()) fault("expected a JSON value, got the end of the text");
    value(out, 0);
    space();
    if (!at_end()) fault("expected the end of the text after the value, got " + shown());
  }

 private:
  std::string_view s_;
  std::string_view what_;
  std::size_t i_ = 0;

  bool at_end() const { return i_ >= s_.size(); }

  /// The character at the position, for a message: 'x', or "the end of the text".
  std::string shown() const {
    if (at_end()) return "the end of the text";
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (c < 0x20) return "a control character (code " + std::to_string(c) + ")";
    std::size_t n = 1;  // a whole UTF-8 sequence
    while (i_ + n < s_.size() && (static_cast<unsigned char>(s_[i_ + n]) & 0xC0) == 0x80 && n < 4)
      ++n;
    // a character that shows as nothing, or reorders the message around it (a byte-order mark, a
    // zero-width space or joiner, a direction mark, embedding, override or isolate), by its code
    if (n == 3 || n == 2) {
      const auto b = [&](std::size_t k) { return static_cast<unsigned>(s_[i_ + k]) & 0xFFu; };
      const unsigned cp = n == 2 ? (b(0) & 0x1Fu) << 6 | (b(1) & 0x3Fu)
                                 : (b(0) & 0x0Fu) << 12 | (b(1) & 0x3Fu) << 6 | (b(2) & 0x3Fu);
      const bool invisible = cp == 0xAD || cp == 0x61C || (cp >= 0x200B && cp <= 0x200F) ||
                             (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) ||
                             cp == 0xFEFF;
      if (invisible) {
        static const char* hex = "0123456789ABCDEF";
        std::string code = "U+";
        for (int shift = 12; shift >= 0; shift -= 4) code += hex[(cp >> shift) & 0xFu];
        return "an invisible character (" + code + ")";
      }
    }
    return "'" + std::string(s_.substr(i_, n)) + "'";
  }

  [[noreturn]] void fault(const std::string& message) const {
    std::size_t line = 1, column = 1;
    for (std::size_t j = 0; j < i_ && j < s_.size(); ++j) {
      const unsigned char c = static_cast<unsigned char>(s_[j]);
      if (c == '\n') {
        ++line;
        column = 1;
      } else if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
        ++column;
      }
    }
    throw std::invalid_argument(std::string(what_) + ", line " + std::to_string(line) +
                                ", column " + std::to_string(column) + ": " + message);
  }

  void space() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  void literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word)
      fault("expected a JSON value (a number, a string, true, false, null, [ or {), got " +
            shown());
    i_ += word.size();
  }

  void value(Value& out, int depth) {
    if (at_end()) fault("expected a value, got the end of the text");
    const char c = s_[i_];
    if ((c == '{' || c == '[') && depth >= max_depth)
      fault("nested deeper than " + std::to_string(max_depth) + " arrays and objects");
    if (c == '{') {
      object(out, depth);
    } else if (c == '[') {
      array(out, depth);
    } else if (c == '"') {
      out.type = Value::Type::string;
      string(out.string);
    } else if (c == 't') {
      literal("true");
      out.type = Value::Type::boolean;
      out.boolean = true;
    } else if (c == 'f') {
      literal("false");
      out.type = Value::Type::boolean;
    } else if (c == 'n') {
      literal("null");
      out.type = Value::Type::null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      out.type = Value::Type::number;
      out.number = number();
    } else {
      fault("expected a JSON value (a number, a string, true, false, null, [ or {), got " +
            shown());
    }
  }

  void object(Value& out, int depth) {
    out.type = Value::Type::object;
    ++i_;  // '{'
    space();
    if (!at_end() && s_[i_] == '}') {
      ++i_;
      return;
    }
    for (;;) {
      space();
      if (at_end() || s_[i_] != '"')
        fault("expected a member's name in double quotes, got " + shown());
      std::string key;
      string(key);
      space();
      if (at_end() || s_[i_] != ':') fault("expected ':' after a member's name, got " + shown());
      ++i_;
      space();
      Value v;
      value(v, depth + 1);
      out.members.emplace_back(std::move(key), std::move(v));
      space();
      if (!at_end() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (!at_end() && s_[i_] == '}') {
        ++i_;
        return;
      }
      fault("expected ',' or '}' after a member, got " + shown());
    }
  }

  void array(Value& out, int depth) {
    out.type = Value::Type::array;
    ++i_;  // '['
    space();
    if (!at_end() && s_[i_] == ']') {
      ++i_;
      return;
    }
    for (;;) {
      space();
      Value v;
      value(v, depth + 1);
      out.items.push_back(std::move(v));
      space();
      if (!at_end() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (!at_end() && s_[i_] == ']') {
        ++i_;
        return;
      }
      fault("expected ',' or ']' after an entry, got " + shown());
    }
  }

  unsigned hex4() {
    unsigned code = 0;
    for (int k = 0; k < 4; ++k) {
      if (at_end()) fault("expected 4 hexadecimal digits after \\u, got the end of the text");
      const char h = s_[i_];
      unsigned d;
      if (h >= '0' && h <= '9')
        d = static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        d = static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        d = static_cast<unsigned>(h - 'A' + 10);
      else
        fault("expected 4 hexadecimal digits after \\u, got " + shown());
      code = code * 16 + d;
      ++i_;
    }
    return code;
  }

  static void utf8(unsigned code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  void string(std::string& out) {
    ++i_;  // '"'
    for (;;) {
      if (at_end()) fault("expected '\"' to end the string, got the end of the text");
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return;
      }
      if (c < 0x20) fault("expected '\"' to end the string before the line ends, got " + shown());
      if (c != '\\') {
        out += static_cast<char>(c);
        ++i_;
        continue;
      }
      ++i_;
      if (at_end()) fault("expected an escape after '\\', got the end of the text");
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xD800 && code < 0xDC00 && s_.substr(i_, 2) == "\\u") {
            const std::size_t back = i_;
            i_ += 2;
            const unsigned low = hex4();
            if (low >= 0xDC00 && low < 0xE000)
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            else
              i_ = back;  // a lone high surrogate, kept as JavaScript keeps it
          }
          utf8(code, out);
          break;
        }
        default:
          --i_;
          fault("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), got " + shown());
      }
    }
  }

  double number() {
    const std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (at_end() || !(s_[i_] >= '0' && s_[i_] <= '9')) fault("expected a digit, got " + shown());
    if (s_[i_] == '0') {
      ++i_;
      if (!at_end() && s_[i_] >= '0' && s_[i_] <= '9')
        fault("expected no leading zero in a number, got " + shown());
    } else {
      digits();
    }
    if (!at_end() && s_[i_] == '.') {
      ++i_;
      if (digits() == 0) fault("expected a digit after the decimal point, got " + shown());
    }
    if (!at_end() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!at_end() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) fault("expected a digit in the exponent, got " + shown());
    }
    // strtod reads the same grammar, correctly rounded, as JSON.parse does; overflow gives ±inf,
    // which no field accepts (the reader names it)
    const std::string text(s_.substr(start, i_ - start));
    return std::strtod(text.c_str(), nullptr);
  }
};

}  // namespace

void parse(std::string_view text, std::string_view what, Value& out, std::size_t max_bytes) {
  if (text.size() > max_bytes)
    fail(what,
         max_bytes == max_text_bytes ? "at most 1 MiB (1,048,576 bytes) of text"
                                     : "at most " + std::to_string(max_bytes) + " bytes of text",
         std::to_string(text.size()) + " bytes");
  out = Value{};
  Parser(text, what).document(out);
}

Value parse(std::string_view text, std::string_view what) {
  Value v;
  parse(text, what, v);
  return v;
}

std::string describe(const Value& v) {
  switch (v.type) {
    case Value::Type::null: return "null";
    case Value::Type::boolean: return v.boolean ? "true" : "false";
    case Value::Type::number: return llmmath::describe(v.number);
    case Value::Type::string: {
      std::string s = v.string;
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return "\"" + s + "\"";
    }
    case Value::Type::array: return "an array";
    case Value::Type::object: return "an object";
  }
  return "a value";
}

}  // namespace llmmath::json
