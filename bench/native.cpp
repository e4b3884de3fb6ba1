// The native side of bench/api.js: the core's own calls, timed without JavaScript, on the
// inputs bench/cases.js writes once for both sides.
//
// A long-lived process, so that bench/api.js can alternate native and API timings of each case
// (both then see the same machine) without sending the inputs again:
//   stdin, first line: the cases as one JSON array, [{ "fn": "attention", "args": [...] }, …],
//                      the arguments as the public API takes them (bench/cases.js);
//   stdout:            "ready [x, …]" once every case's inputs are converted to the core's
//                      types (outside any timing, as the core's own callers hold Eigen values),
//                      with one number of each case's result (the one its call returns below),
//                      or {"error": "…"} and exit 1;
//   then per line "case calls reps": reps timings of `calls` calls each, answered with one line
//   {"ms": [per call of each timing, …], "faults": minor page faults per call}.
// Each call's arguments are read the way llmmath_bindings.cpp reads them (the same defaults
// for absent options), so both sides run the same core code.
//
//   llmmath_bench < cases     (built by bench/api.js, or by CMake with LLMMATH_BENCH)
#include <sys/resource.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "llmmath/alibi.hpp"
#include "llmmath/attention.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/moe.hpp"
#include "llmmath/quantization.hpp"
#include "llmmath/rope.hpp"
#include "llmmath/sampling.hpp"
#include "llmmath/speculative.hpp"

namespace {

// ---- just enough JSON for the cases (JSON.stringify's output: no comments, no escapes
// beyond the simple ones) -----------------------------------------------------------------

struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;      // the entries, unless every one is a number:
  std::vector<double> numbers;  // then they are here (a vector's 2^20 values stay compact)
  std::map<std::string, Json> object;

  // A missing key reads as null, like an absent option in JavaScript (undefined).
  const Json& operator[](const std::string& key) const {
    static const Json null;
    const auto it = object.find(key);
    return it == object.end() ? null : it->second;
  }
  bool present() const { return type != Type::null; }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Json parse() {
    Json value = parse_value();
    skip_space();
    if (i_ != s_.size()) fail("trailing characters");
    return value;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("cases JSON, at " + std::to_string(i_) + ": " + what);
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool accept(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string ws(w);
    if (s_.compare(i_, ws.size(), ws) != 0) return false;
    i_ += ws.size();
    return true;
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) fail("unfinished escape");
        c = s_[i_++];
        if (c == 'n') c = '\n';
        else if (c == 't') c = '\t';
        else if (c != '"' && c != '\\' && c != '/') fail("unsupported escape");
      }
      out += c;
    }
    expect('"');
    return out;
  }

  Json parse_value() {
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '[') {
      ++i_;
      v.type = Json::Type::array;
      if (!accept(']')) {
        do {
          Json entry = parse_value();
          if (entry.type == Json::Type::number && v.array.empty()) {
            v.numbers.push_back(entry.number);
            continue;
          }
          // a mixed array (a call's arguments): every entry a Json, the numbers before too
          for (const double x : v.numbers) {
            Json n;
            n.type = Json::Type::number;
            n.number = x;
            v.array.push_back(std::move(n));
          }
          v.numbers.clear();
          v.array.push_back(std::move(entry));
        } while (accept(','));
        expect(']');
      }
    } else if (c == '{') {
      ++i_;
      v.type = Json::Type::object;
      if (!accept('}')) {
        do {
          std::string key = parse_string();
          expect(':');
          v.object[key] = parse_value();
        } while (accept(','));
        expect('}');
      }
    } else if (c == '"') {
      v.type = Json::Type::string;
      v.string = parse_string();
    } else if (word("true")) {
      v.type = Json::Type::boolean;
      v.boolean = true;
    } else if (word("false")) {
      v.type = Json::Type::boolean;
    } else if (word("null")) {
      v.type = Json::Type::null;
    } else {
      // strtod reads JavaScript's shortest round-trip form back to the same double
      char* end = nullptr;
      v.type = Json::Type::number;
      v.number = std::strtod(s_.c_str() + i_, &end);
      if (end == s_.c_str() + i_) fail("expected a value");
      i_ = std::size_t(end - s_.c_str());
    }
    return v;
  }
};

double number(const Json& j) {
  if (j.type != Json::Type::number) throw std::runtime_error("expected a number");
  return j.number;
}

std::optional<double> optional_number(const Json& j) {
  return j.present() ? std::optional<double>(number(j)) : std::nullopt;
}

Eigen::VectorXd vector(const Json& j) {
  if (j.type != Json::Type::array || !j.array.empty()) throw std::runtime_error("expected a vector");
  return Eigen::Map<const Eigen::VectorXd>(j.numbers.data(), Eigen::Index(j.numbers.size()));
}

Eigen::MatrixXd matrix(const Json& j) {
  if (j.type != Json::Type::array || !j.numbers.empty()) throw std::runtime_error("expected a matrix");
  const std::size_t rows = j.array.size(), cols = rows ? j.array[0].numbers.size() : 0;
  Eigen::MatrixXd M{Eigen::Index(rows), Eigen::Index(cols)};
  for (std::size_t r = 0; r < rows; ++r) {
    if (j.array[r].numbers.size() != cols) throw std::runtime_error("ragged matrix");
    for (std::size_t c = 0; c < cols; ++c) M(Eigen::Index(r), Eigen::Index(c)) = j.array[r].numbers[c];
  }
  return M;
}

llmmath::RopeOptions rope_options(const Json& o) {
  llmmath::RopeOptions options;
  if (o["pairing"].string == "half") options.pairing = llmmath::RopePairing::half;
  options.base = optional_number(o["base"]);
  if (o["freqs"].present()) options.freqs = vector(o["freqs"]);
  return options;
}

// ---- the calls: each case's arguments converted once, then a call returning one number of
// the result (kept in a volatile sink, so that no call is optimised away) -------------------

using Call = std::function<double()>;

Call make_call(const std::string& fn, const std::vector<Json>& a) {
  const auto arg = [&](std::size_t i) -> const Json& {
    static const Json null;
    return i < a.size() ? a[i] : null;
  };
  if (fn == "attention") {
    const auto Q = std::make_shared<Eigen::MatrixXd>(matrix(arg(0)));
    const auto K = std::make_shared<Eigen::MatrixXd>(matrix(arg(1)));
    const auto V = std::make_shared<Eigen::MatrixXd>(matrix(arg(2)));
    llmmath::AttentionOptions options;
    if (arg(3)["causal"].present()) options.causal = arg(3)["causal"].boolean;
    options.scale = optional_number(arg(3)["scale"]);
    return [=] { return llmmath::attention(*Q, *K, *V, options).output(0, 0); };
  }
  if (fn == "contextDilution") {
    const double x = number(arg(0)["relevantScore"]), y = number(arg(0)["distractorScore"]),
                 n = number(arg(0)["distractors"]);
    return [=] { return llmmath::context_dilution(x, y, n).relevant_weight; };
  }
  if (fn == "sampling") {
    llmmath::SamplingInput input;
    if (arg(0)["logits"].present()) input.logits = vector(arg(0)["logits"]);
    if (arg(0)["probs"].present()) input.probs = vector(arg(0)["probs"]);
    llmmath::SamplingOptions options;
    options.temperature = optional_number(arg(1)["temperature"]).value_or(options.temperature);
    options.top_k = optional_number(arg(1)["topK"]).value_or(options.top_k);
    options.top_p = optional_number(arg(1)["topP"]).value_or(options.top_p);
    const auto in = std::make_shared<llmmath::SamplingInput>(std::move(input));
    return [=] { return llmmath::sampling(*in, options).probs(0); };
  }
  if (fn == "sample") {
    const auto p = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const double count = number(arg(1)["count"]), seed = number(arg(1)["seed"]);
    return [=] { return double(llmmath::sample(*p, count, seed)(0)); };
  }
  if (fn == "moeLoadBalance") {
    const auto f = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const auto p = std::make_shared<Eigen::VectorXd>(vector(arg(1)));
    return [=] { return llmmath::moe_load_balance(*f, *p).loss; };
  }
  if (fn == "moeRoute") {
    const auto L = std::make_shared<Eigen::MatrixXd>(matrix(arg(0)));
    const double top_k = optional_number(arg(1)).value_or(1);
    return [=] { return llmmath::moe_route(*L, top_k).loss; };
  }
  if (fn == "rope") {
    const auto q = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const auto k = std::make_shared<Eigen::VectorXd>(vector(arg(1)));
    const double m = number(arg(2)), n = number(arg(3));
    const auto options = std::make_shared<llmmath::RopeOptions>(rope_options(arg(4)));
    return [=] { return llmmath::rope(*q, *k, m, n, *options).raw; };
  }
  if (fn == "ropeScores") {
    const auto q = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const auto k = std::make_shared<Eigen::VectorXd>(vector(arg(1)));
    const auto offsets = std::make_shared<Eigen::VectorXd>(vector(arg(2)));
    const auto options = std::make_shared<llmmath::RopeOptions>(rope_options(arg(3)));
    return [=] { return llmmath::rope_scores(*q, *k, *offsets, *options).raw(0); };
  }
  if (fn == "attentionCost") {
    const Json& c = arg(0);
    llmmath::AttentionCostConfig config;
    config.tokens = number(c["tokens"]);
    config.heads = number(c["heads"]);
    config.head_dim = number(c["headDim"]);
    config.layers = optional_number(c["layers"]).value_or(config.layers);
    config.kv_heads = optional_number(c["kvHeads"]);
    config.batch = optional_number(c["batch"]).value_or(config.batch);
    config.bytes_per_value = optional_number(c["bytesPerValue"]).value_or(config.bytes_per_value);
    config.d_model = optional_number(c["dModel"]);
    config.ffn_dim = optional_number(c["ffnDim"]);
    if (c["gated"].present()) config.gated = c["gated"].boolean;
    return [=] { return llmmath::attention_cost(config).macs; };
  }
  if (fn == "speculativeDecoding") {
    const double alpha = number(arg(0)["alpha"]), gamma = number(arg(0)["gamma"]);
    const std::optional<double> cost = optional_number(arg(0)["costRatio"]);
    return [=] { return llmmath::speculative_decoding(alpha, gamma, cost).expected_tokens; };
  }
  if (fn == "speculativeAlpha") {
    const double mean = number(arg(0)["meanTokens"]), gamma = number(arg(0)["gamma"]);
    return [=] { return llmmath::speculative_alpha(mean, gamma).alpha; };
  }
  if (fn == "speculativeMeasure") {
    const double alpha = number(arg(0)["alpha"]), gamma = number(arg(0)["gamma"]),
                 rounds = number(arg(0)["rounds"]), seed = number(arg(0)["seed"]);
    return [=] { return llmmath::speculative_measure(alpha, gamma, rounds, seed).mean_tokens; };
  }
  if (fn == "alibiSlopes") {
    const double heads = number(arg(0));
    return [=] { return llmmath::alibi_slopes(heads)(0); };
  }
  if (fn == "alibiHeads") {
    const double heads = number(arg(0));
    return [=] { return llmmath::alibi_heads(heads).steepest.slope; };
  }
  if (fn == "alibi") {
    // as the binding: the bias for `tokens`, and the decay over `distances` when asked for
    const double slope = number(arg(0)["slope"]);
    const std::optional<double> tokens = optional_number(arg(0)["tokens"]);
    const std::optional<double> distances = optional_number(arg(0)["distances"]);
    return [=] {
      const auto r = llmmath::alibi(slope, tokens);
      const double d = distances ? llmmath::alibi_decay(slope, *distances)(0) : 0;
      return r.half_distance + d;
    };
  }
  if (fn == "smoothQuant") {
    const auto x = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const auto w = std::make_shared<Eigen::VectorXd>(vector(arg(1)));
    const double alpha = optional_number(arg(2)).value_or(llmmath::default_smooth_quant_alpha);
    return [=] { return llmmath::smooth_quant(*x, *w, alpha).scales(0); };
  }
  if (fn == "quantize") {
    const auto x = std::make_shared<Eigen::VectorXd>(vector(arg(0)));
    const double bits = optional_number(arg(1)["bits"]).value_or(llmmath::default_quantize_bits);
    return [=] { return llmmath::quantize(*x, bits).dequantized(0); };
  }
  if (fn == "smoothQuantLayer") {
    const auto X = std::make_shared<Eigen::MatrixXd>(matrix(arg(0)));
    const auto W = std::make_shared<Eigen::MatrixXd>(matrix(arg(1)));
    const double alpha = optional_number(arg(2)["alpha"]).value_or(llmmath::default_smooth_quant_alpha);
    const double bits = optional_number(arg(2)["bits"]).value_or(llmmath::default_quantize_bits);
    return [=] { return llmmath::smooth_quant_layer(*X, *W, alpha, bits).error_quantized_smoothed; };
  }
  throw std::runtime_error("unknown function " + fn);
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

volatile double sink = 0;

// {"ms": [per call, of each of `reps` timings of `calls` calls], "faults": per call}
std::string timed(const Call& call, long calls, int reps) {
  std::string ms;
  const long faults = minor_faults();
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (long c = 0; c < calls; ++c) sink = call();
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
    const Json cases = Parser(line).parse();
    for (const Json& c : cases.array) {
      std::vector<Json> args = c["args"].array;
      for (const double x : c["args"].numbers) {  // arguments that are all numbers
        Json n;
        n.type = Json::Type::number;
        n.number = x;
        args.push_back(n);
      }
      calls.push_back(make_call(c["fn"].string, args));
    }
    // Every case runs once before any timing; its number goes back for bench/api.js to check
    // against the API's (the same inputs read the same way give the same result).
    std::string values;
    for (const Call& call : calls) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", call());
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
  return sink == sink ? 0 : 1;
}
