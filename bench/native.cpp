// The native side of bench/api.js: the core's own calls, timed without JavaScript, on the same
// inputs as the API side (sin of the index, as bench/api.js builds them). Prints one JSON object:
// per case the milliseconds of each call and the minor page faults per call,
// { "sampling": { "ms": [t1, t2, …], "faults": f }, "quantize": …, "attention": … }.
//
//   llmmath_bench [repetitions]     (default 5)
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "llmmath/attention.hpp"
#include "llmmath/quantize.hpp"
#include "llmmath/sampling.hpp"

namespace {

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// { "ms": [each of `repetitions` calls of `call`], "faults": minor page faults per call }
std::string timed(int repetitions, const std::function<void()>& call) {
  std::string ms;
  const long faults = minor_faults();
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    call();
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ms += (i ? ", " : "") + std::to_string(t);
  }
  return "{\"ms\": [" + ms + "], \"faults\": " +
         std::to_string(double(minor_faults() - faults) / repetitions) + "}";
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 5;
  // sampling 2^20 logits and quantize 2^20 values: x_i = sin(i)
  const Eigen::Index n = Eigen::Index(1) << 20;
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x(i) = std::sin(double(i));
  // attention 2048 × 64: q = k = v with entry (i, j) = sin(7i + j)
  Eigen::MatrixXd q(2048, 64);
  for (Eigen::Index i = 0; i < q.rows(); ++i)
    for (Eigen::Index j = 0; j < q.cols(); ++j) q(i, j) = std::sin(double(7 * i + j));

  llmmath::SamplingInput input;
  input.logits = x;
  volatile double sink = 0;  // keeps every result observable, so no call is optimised away
  const std::string sampling = timed(repetitions, [&] { sink = llmmath::sampling(input).probs(0); });
  const std::string quantize = timed(repetitions, [&] { sink = llmmath::quantize(x).dequantized(1); });
  const std::string attention = timed(repetitions, [&] { sink = llmmath::attention(q, q, q).output(0, 0); });
  std::printf("{\"sampling\": %s, \"quantize\": %s, \"attention\": %s}\n", sampling.c_str(),
              quantize.c_str(), attention.c_str());
  return sink == sink ? 0 : 1;
}
