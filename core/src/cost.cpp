#include "llmmath/cost.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// GCC and Clang (native and wasm32 alike) provide 128-bit integers; the limits in cost.hpp
// keep every product below 2^126. (__extension__ marks the non-ISO type as intended.)
__extension__ typedef unsigned __int128 u128;

// x rounded to the nearest double, ties to even: exact below 2^53, one rounding above.
double to_double(u128 x) {
  constexpr int significand_bits = 53;
  if (x < (u128{1} << significand_bits)) return double(static_cast<std::uint64_t>(x));
  int width = 0;
  for (u128 y = x; y != 0; y >>= 1) ++width;
  const int shift = width - significand_bits;
  u128 kept = x >> shift;
  const u128 rest = x - (kept << shift);
  const u128 half = u128{1} << (shift - 1);
  if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;  // may carry to 2^53: exact
  return std::ldexp(double(static_cast<std::uint64_t>(kept)), shift);
}

// N·b for a whole number N < 2^73 and a positive finite double b, correctly rounded.
// b = M·2^E with M < 2^53 odd, so N·M is exact in 128 bits and one rounding remains:
// either N·M < 2^53 is exact and ldexp rounds once, or N·M ≥ 2^53 is rounded by to_double
// and ldexp is exact, because E ≥ −1074 puts N·b ≥ 2^−1021, in the normal range.
double times(u128 N, double b) {
  int e = 0;
  const double f = std::frexp(b, &e);  // b = f·2^e, f in [0.5, 1)
  auto M = static_cast<std::uint64_t>(std::ldexp(f, 53));
  int E = e - 53;
  while ((M & 1) == 0) {
    M >>= 1;
    ++E;
  }
  return std::ldexp(to_double(N * M), E);
}

// A whole-number count within [lo, hi], as a 128-bit integer.
u128 count(double x, const char* name, double lo, double hi) {
  require_integer(x, name, lo, hi);
  return static_cast<u128>(x);
}

}  // namespace

AttentionCostResult attention_cost(const AttentionCostConfig& cfg) {
  const u128 n = count(cfg.tokens, "tokens", 1, max_cost_tokens);
  const u128 h = count(cfg.heads, "heads", 1, max_cost_factor);
  const u128 d = count(cfg.head_dim, "headDim", 1, max_cost_factor);
  const u128 L = count(cfg.layers, "layers", 1, max_cost_factor);
  const u128 kv = count(cfg.kv_heads.value_or(cfg.heads), "kvHeads", 1, double(h));
  require(h % kv == 0, "kvHeads",
          "a divisor of heads (" + describe(double(h)) + "), so that query heads share key-value "
          "heads in equal groups", describe(double(kv)));
  const u128 B = count(cfg.batch, "batch", 1, max_cost_factor);
  const double bytes = cfg.bytes_per_value;
  require_finite(bytes, "bytesPerValue");
  require(bytes > 0 && bytes <= max_bytes_per_value, "bytesPerValue",
          "a number in (0, " + describe(max_bytes_per_value) + "]", describe(bytes));

  // Exact integer products first (at most 2^97), then one rounding each.
  const u128 scores_per_layer = B * h * n * n;
  const u128 kv_per_layer = 2 * B * n * kv * d;
  const u128 macs_per_layer = scores_per_layer * d;

  AttentionCostResult r;
  r.scores_per_head = to_double(n * n);
  r.scores_per_layer = to_double(scores_per_layer);
  r.kv_values_per_layer = to_double(kv_per_layer);
  r.kv_values = to_double(kv_per_layer * L);
  r.kv_bytes = times(kv_per_layer * L, bytes);
  r.kv_bytes_per_token = times(2 * kv * d * L, bytes);
  r.qk_macs_per_layer = to_double(macs_per_layer);
  r.av_macs_per_layer = r.qk_macs_per_layer;
  r.macs = to_double(2 * macs_per_layer * L);
  return r;
}

}  // namespace llmmath
