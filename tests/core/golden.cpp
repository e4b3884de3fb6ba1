// The golden file: what the native build returns for a fixed set of calls, written in the
// shape the JavaScript API returns, so that the Node tests can check that the WebAssembly
// build answers the same (tests/js/golden.test.js).
//
//   llmmath_golden FILE          writes the golden file
//   llmmath_golden --check FILE  exits 1 if FILE differs from what this build writes
//
// Numbers are written with 17 significant digits (they read back to the same double);
// ±Infinity, which JSON lacks, as the strings "Infinity" and "-Infinity".
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "llmmath/attention.hpp"

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

std::string num(double x) {
  if (std::isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string vec(const VectorXd& x) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? "," : "") + num(x(i));
  return s + "]";
}

std::string mat(const MatrixXd& M) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < M.rows(); ++i) s += (i ? "," : "") + vec(M.row(i).transpose());
  return s + "]";
}

std::string str(const std::string& s) { return "\"" + s + "\""; }

// {"k1":v1,"k2":v2,...} from already-encoded values.
std::string obj(std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : fields) {
    s += (first ? "" : ",") + str(k) + ":" + v;
    first = false;
  }
  return s + "}";
}

MatrixXd mat_of(std::initializer_list<std::initializer_list<double>> rows) {
  MatrixXd M(rows.size(), rows.begin()->size());
  Eigen::Index i = 0;
  for (auto r : rows) {
    Eigen::Index j = 0;
    for (double x : r) M(i, j++) = x;
    ++i;
  }
  return M;
}

struct Golden {
  std::vector<std::string> calls;
  /// One call: the JS function name, its argument list, and the fields of its result.
  void add(const char* fn, const std::string& args, const std::string& result) {
    calls.push_back(obj({{"fn", str(fn)}, {"args", args}, {"result", result}}));
  }
  std::string text() const {
    std::string s = "[\n";
    for (std::size_t i = 0; i < calls.size(); ++i) s += (i ? ",\n" : "") + calls[i];
    return s + "\n]\n";
  }
};

void attention_calls(Golden& g) {
  const MatrixXd Q = mat_of({{0.3, -1.2, 2.5}, {1.7, 0.4, -0.9}, {-2.2, 1.1, 0.6}, {0.8, 0.8, 0.8}});
  const MatrixXd K = mat_of({{1.5, -0.3, 0.2}, {-0.7, 2.1, 1.3}, {0.9, 0.9, -1.8}, {2.4, -1.6, 0.5}});
  const MatrixXd V = mat_of({{1, 0}, {0, 1}, {0.5, -0.5}, {-1, 2}});
  for (bool causal : {false, true}) {
    llmmath::AttentionOptions o;
    o.causal = causal;
    const auto r = llmmath::attention(Q, K, V, o);
    g.add("attention", "[" + mat(Q) + "," + mat(K) + "," + mat(V) + "," +
                           obj({{"causal", causal ? "true" : "false"}}) + "]",
          obj({{"scores", mat(r.scores)}, {"weights", mat(r.weights)}, {"output", mat(r.output)}}));
  }
  for (double n : {0.0, 7.0, 12345.0}) {
    const auto r = llmmath::context_dilution(1.25, -0.5, n);
    g.add("contextDilution",
          "[" + obj({{"relevantScore", num(1.25)}, {"distractorScore", num(-0.5)}, {"distractors", num(n)}}) + "]",
          obj({{"relevantWeight", num(r.relevant_weight)}}));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::cerr << "usage: llmmath_golden FILE | llmmath_golden --check FILE\n";
    return 2;
  }
  Golden g;
  attention_calls(g);
  const std::string file = argv[argc - 1];
  if (check) {
    std::ifstream in(file);
    std::stringstream committed;
    committed << in.rdbuf();
    if (committed.str() != g.text()) {
      std::cerr << file << " is not what this build writes: regenerate it with "
                << "build/native/tests/core/llmmath_golden " << file << "\n";
      return 1;
    }
    std::cout << file << " matches the native build (" << g.calls.size() << " calls)\n";
    return 0;
  }
  std::ofstream(file) << g.text();
  std::cout << "wrote " << g.calls.size() << " calls to " << file << "\n";
  return 0;
}
