// The native side of bench/api.js: the core's own calls, timed without JavaScript, on the
// inputs bench/cases.js writes once for both sides.
//
// A long-lived process, so that bench/api.js can alternate native and API timings of each case
// (both then see the same machine) without sending the inputs again:
//   stdin, first line: the cases as one JSON array, [{ "fn": "attention", "args": [...] }, …],
//                      the arguments as the public API takes them (bench/cases.js);
//   stdout:            "ready [x, …]" once every case's arguments are parsed, with the first
//                      number of each case's result (bench/api.js checks the API's against it),
//                      or {"error": "…"} and exit 1;
//   then per line "case calls reps": reps timings of `calls` calls each, answered with one line
//   {"ms": [per call of each timing, …], "faults": minor page faults per call}.
// Each call goes through the same adapters as the WebAssembly module (bindings/native/native.hpp:
// the same reading of the arguments, the same defaults), so both sides run the same core code.
// A timed call includes the copy of its arguments into Eigen's types, as the module's does (its
// copy of the snapshot into the heap); the result is dropped, not converted.
//
//   llmmath_bench < cases     (built by bench/api.js, or by CMake with LLMMATH_BENCH)
#include "../bindings/native/native.hpp"

#include <sys/resource.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// ---- just enough JSON for the cases (JSON.stringify's output: no comments, no escapes
// beyond the simple ones) -----------------------------------------------------------------

using llmmath::native::Json;

// ---- the calls: each case's arguments parsed once; a call runs the function through the same
// adapters as the WebAssembly module and drops its result (native.hpp) --------------------------

struct Call {
  std::string fn;
  std::vector<Json> args;
};

/// The first number of a result, depth first in the order of its fields (bench/api.js's
/// firstNumber reads the API's result the same way); null (a masked entry) is skipped.
std::optional<double> first_number(const Json& j) {
  if (j.type == Json::Type::number) return j.number;
  if (j.type == Json::Type::array) {
    if (!j.numbers.empty()) return j.numbers[0];
    for (const Json& e : j.array)
      if (auto x = first_number(e)) return x;
  }
  if (j.type == Json::Type::object)
    for (const auto& key : j.order)
      if (auto x = first_number(j.object.at(key))) return x;
  return std::nullopt;
}

// An error line; the message's quotes and backslashes are replaced so that the line stays JSON.
void print_error(std::string message) {
  for (char& c : message)
    if (c == '"' || c == '\\' || c == '\n') c = '\'';
  std::printf("{\"error\": \"%s\"}\n", message.c_str());
}

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// {"ms": [per call, of each of `reps` timings of `calls` calls], "faults": per call}
std::string timed(const Call& call, long calls, int reps) {
  const auto& fn = call.fn;
  const auto& args = call.args;
  std::string ms;
  const long faults = minor_faults();
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (long c = 0; c < calls; ++c) llmmath::native::run(fn, args);
    const double t =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", t / double(calls));
    ms += (r ? ", " : "") + std::string(buf);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", double(minor_faults() - faults) / double(calls * reps));
  return "{\"ms\": [" + ms + "], \"faults\": " + buf + "}";
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::vector<Call> calls;
  try {
    std::string line;
    if (!std::getline(std::cin, line)) throw std::runtime_error("no cases on stdin");
    const Json cases = llmmath::native::parse(line);
    for (const Json& c : cases.array)
      calls.push_back({c["fn"].string, llmmath::native::entries(c["args"])});
    // Every case runs once before any timing; its number goes back for bench/api.js to check
    // against the API's (the same inputs read the same way give the same result).
    std::string values;
    for (const Call& call : calls) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g",
                    first_number(llmmath::native::call(call.fn, call.args)).value_or(NAN));
      values += (values.empty() ? "" : ", ") + std::string(buf);
    }
    std::printf("ready [%s]\n", values.c_str());
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
  std::fflush(stdout);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::size_t index = 0;
    long n = 1;
    int reps = 1;
    if (!(in >> index >> n >> reps) || index >= calls.size()) {
      print_error("bad request: " + line);
    } else {
      try {
        std::printf("%s\n", timed(calls[index], n, reps).c_str());
      } catch (const std::exception& e) {
        print_error(e.what());
      }
    }
    std::fflush(stdout);
  }
  return 0;
}
