// The golden file: what the native build returns for every example call of the API's
// declarations (bindings/api/<concept>.js, gathered by bindings/api/generate.js into
// examples.json), written in the shape the JavaScript API returns, so that the Node tests can check
// that the WebAssembly build answers the same (tests/js/golden.test.js). The calls go through the
// same adapters as the WebAssembly module (bindings/native/native.hpp), so this file names no
// function and no field of the API.
//
//   llmmath_golden EXAMPLES FILE          writes the golden file
//   llmmath_golden EXAMPLES --check FILE  exits 1 if FILE differs from what this build writes
//                                         beyond the tolerance of the wasm check (first_difference)
//
// Numbers are written with 17 significant digits (they read back to the same double);
// ±Infinity, which JSON lacks, as the strings "Infinity" and "-Infinity".
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "../../bindings/native/native.hpp"

namespace {

using llmmath::native::Json;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string num(double x) { return llmmath::native::write_number(x); }

/// The golden file: one line per example, {"fn", "args", "result"}.
std::string golden(const Json& examples, std::size_t& calls) {
  std::string s = "[\n";
  for (const Json& example : examples.array) {
    const std::string& fn = example["fn"].string;
    const Json result = llmmath::native::call(fn, llmmath::native::entries(example["args"]));
    s += std::string(calls++ ? ",\n" : "") + "{\"fn\":\"" + fn +
         "\",\"args\":" + llmmath::native::write(example["args"]) +
         ",\"result\":" + llmmath::native::write(result) + "}";
  }
  return s + "\n]\n";
}

// The golden file's tolerance, the same as tests/js/golden.test.js applies to the wasm build:
// integers (draws, counts, indices) exactly, other numbers within 1e-13 relative, because glibc's,
// musl's and Emscripten's exp, log and pow are not all correctly rounded, so another machine's
// native build may differ from the committed file in the last bits.
constexpr double golden_relative_tolerance = 1e-13;

// Where `committed` and `written` differ beyond that tolerance ("" if nowhere). Both texts come
// from this program's writer, so they agree character for character outside numbers; each
// number is read whole (strtod) from both at the same place and compared.
std::string first_difference(const std::string& committed, const std::string& written) {
  std::size_t i = 0, j = 0;
  // a digit, or a minus sign before one: the results' texts hold hyphens ("key-value"), which
  // strtod reads as no number at all, and a hyphen taken for a number never moved on (the check
  // ran forever once a note said "key-value heads")
  const auto starts_number = [](const std::string& s, std::size_t k) {
    const auto digit = [&](std::size_t at) {
      return at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]));
    };
    return digit(k) || (k < s.size() && s[k] == '-' && digit(k + 1));
  };
  while (i < committed.size() && j < written.size()) {
    if (starts_number(committed, i) && starts_number(written, j)) {
      char* end_c = nullptr;
      char* end_w = nullptr;
      const double e = std::strtod(committed.c_str() + i, &end_c);
      const double a = std::strtod(written.c_str() + j, &end_w);
      if (end_c == committed.c_str() + i || end_w == written.c_str() + j)
        return "at character " + std::to_string(i) + ": no number read";
      const bool whole = e == std::floor(e) && std::fabs(e) < 9007199254740992.0;
      const double tolerance = whole ? 0 : golden_relative_tolerance * std::fmax(1, std::fabs(e));
      if (!(std::fabs(a - e) <= tolerance))
        return "at character " + std::to_string(i) + ": " + num(e) + " committed, " + num(a) +
               " now";
      i = std::size_t(end_c - committed.c_str());
      j = std::size_t(end_w - written.c_str());
      continue;
    }
    if (committed[i] != written[j]) return "at character " + std::to_string(i);
    ++i;
    ++j;
  }
  return i == committed.size() && j == written.size() ? "" : "the lengths differ";
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 4 && std::string(argv[2]) == "--check";
  if (argc != 3 && !check) {
    std::cerr << "usage: llmmath_golden EXAMPLES FILE | llmmath_golden EXAMPLES --check FILE\n";
    return 2;
  }
  std::size_t calls = 0;
  std::string text;
  try {
    text = golden(llmmath::native::parse(read_file(argv[1])), calls);
  } catch (const std::exception& e) {
    std::cerr << "llmmath_golden: " << e.what() << "\n";
    return 1;
  }
  const std::string file = argv[argc - 1];
  if (check) {
    if (const std::string where = first_difference(read_file(file), text); !where.empty()) {
      std::cerr << file << " is not what this build writes (" << where << "): regenerate it with "
                << "build/native/tests/core/llmmath_golden build/native/api/examples.json " << file
                << "\n";
      return 1;
    }
    std::cout << file << " matches the native build (" << calls << " calls)\n";
    return 0;
  }
  std::ofstream(file) << text;
  std::cout << "wrote " << calls << " calls to " << file << "\n";
  return 0;
}
