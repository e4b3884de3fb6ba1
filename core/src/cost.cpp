#include "llmmath/cost.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "llmmath/check.hpp"

namespace llmmath {

namespace {

// GCC and Clang (native and wasm32 alike) provide 128-bit integers; the limits in cost.hpp
// keep every count below 2^118 and every product in times() below 2^141, which it splits.
// (__extension__ marks the non-ISO type as intended.)
__extension__ typedef unsigned __int128 u128;

constexpr u128 low_64_bits = (u128{1} << 64) - 1;

// x, plus a fraction in (0, 1) when `sticky`, rounded to the nearest double, ties to even:
// exact below 2^53 (where sticky is never set), one rounding above. The sticky fraction turns
// an apparent tie into a value above it, which rounds up.
double to_double(u128 x, bool sticky = false) {
  constexpr int significand_bits = 53;
  if (x < (u128{1} << significand_bits)) return double(static_cast<std::uint64_t>(x));
  int width = 0;
  for (u128 y = x; y != 0; y >>= 1) ++width;
  const int shift = width - significand_bits;
  u128 kept = x >> shift;
  const u128 rest = x - (kept << shift);
  const u128 half = u128{1} << (shift - 1);
  if (rest > half || (rest == half && (sticky || (kept & 1) != 0)))
    ++kept;  // may carry to 2^53: exact
  return std::ldexp(double(static_cast<std::uint64_t>(kept)), shift);
}

// N·b for a whole number N < 2^88 and a positive finite double b, correctly rounded.
// b = M·2^E with M < 2^53 odd, so N·M < 2^141 is exact as Q·2^64 + R (Q < 2^77, R < 2^64)
// and one rounding remains: below 2^128 N·M is rounded by to_double as it is; above, Q holds
// all 53 kept bits and the guard bit, and R only says whether anything below is nonzero.
// Either way ldexp is exact, or N·M < 2^53 is exact and ldexp rounds once, because
// E ≥ −1074 puts N·b ≥ 2^−1021, in the normal range.
double times(u128 N, double b) {
  int e = 0;
  const double f = std::frexp(b, &e);  // b = f·2^e, f in [0.5, 1)
  auto M = static_cast<std::uint64_t>(std::ldexp(f, 53));
  int E = e - 53;
  while ((M & 1) == 0) {
    M >>= 1;
    ++E;
  }
  const u128 low = (N & low_64_bits) * M;  // < 2^117
  const u128 high = (N >> 64) * M;         // < 2^77
  const u128 Q = high + (low >> 64), R = low & low_64_bits;
  if ((Q >> 64) == 0) return std::ldexp(to_double((Q << 64) | R), E);
  return std::ldexp(to_double(Q, R != 0), E + 64);
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
  const u128 d = count(cfg.head_dim, "head_dim", 1, max_cost_factor);
  const u128 L = count(cfg.layers, "layers", 1, max_cost_factor);
  const u128 kv = count(cfg.kv_heads.value_or(cfg.heads), "kv_heads", 1, double(h));
  if (h % kv != 0)
    fail("kv_heads",
         "a divisor of " + api_name("heads") + " (" + describe(double(h)) +
             "), so that query heads share key-value "
             "heads in equal groups",
         describe(double(kv)));
  const u128 B = count(cfg.batch, "batch", 1, max_cost_batch);
  const double bytes = cfg.kv_bytes_per_element;
  require_finite(bytes, "kv_bytes_per_element");
  if (!(bytes > 0 && bytes <= max_cost_kv_bytes_per_element))
    fail("kv_bytes_per_element", "a number in (0, " + describe(max_cost_kv_bytes_per_element) + "]",
         describe(bytes));

  // Exact integer products first (at most 2^117), then one rounding each.
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
  r.macs_per_layer = to_double(2 * macs_per_layer);
  r.macs = to_double(2 * macs_per_layer * L);

  // The linear layers: hidden and intermediate together, or neither (gated_mlp only with them).
  if (!cfg.hidden && !cfg.intermediate && !cfg.gated_mlp) return r;
  if (!cfg.hidden)
    fail("hidden",
         "a whole number in [1, " + describe(max_cost_hidden) + "] when " +
             api_name("intermediate") + " or " + api_name("gated_mlp") + " is given",
         "undefined");
  if (!cfg.intermediate)
    fail("intermediate",
         "a whole number in [1, " + describe(max_cost_intermediate) + "] when " +
             api_name("hidden") + " or " + api_name("gated_mlp") + " is given",
         "undefined");
  const u128 D = count(*cfg.hidden, "hidden", 1, max_cost_hidden);
  const u128 F = count(*cfg.intermediate, "intermediate", 1, max_cost_intermediate);
  const u128 matrices = cfg.gated_mlp.value_or(false) ? 3 : 2;
  // per token, below 2^47: Q and O (h heads each), K and V (kv_heads heads each), feed-forward
  const u128 projection_per_token = D * d * (2 * h + 2 * kv);
  const u128 ffn_per_token = matrices * D * F;
  const u128 linear_per_token = projection_per_token + ffn_per_token;
  const u128 tokens_in_batch = B * n;  // at most 2^50, so every product below 2^97
  r.projection_macs_per_layer = to_double(tokens_in_batch * projection_per_token);
  r.ffn_macs_per_layer = to_double(tokens_in_batch * ffn_per_token);
  r.linear_macs_per_layer = to_double(tokens_in_batch * linear_per_token);
  // 2·h·n²·d_head = n·C  ⇔  n = C / (2·h·d_head): both exact doubles, one rounding
  r.crossover_tokens = double(linear_per_token) / double(2 * h * d);
  // per sequence and token: 2·h·d_head·n against C, as attention's square is against n·C
  const u128 attention_per_token = 2 * h * d * n;
  r.attention_share =
      to_double(attention_per_token) / to_double(attention_per_token + linear_per_token);
  return r;
}

AttentionCostSweep attention_cost_sweep(const AttentionCostConfig& cfg,
                                        const Eigen::VectorXd& tokens) {
  require_sweep_length(tokens, "tokens");
  require_integers(tokens, "tokens", 1, max_cost_tokens);
  const Eigen::Index m = tokens.size();
  AttentionCostSweep r;
  r.tokens = tokens;
  r.scores_per_layer.resize(m);
  r.kv_values_per_layer.resize(m);
  r.kv_bytes.resize(m);
  r.macs_per_layer.resize(m);
  AttentionCostConfig point = cfg;
  for (Eigen::Index i = 0; i < m; ++i) {
    point.tokens = tokens(i);
    const AttentionCostResult p = attention_cost(point);  // checks cfg's other fields
    r.scores_per_layer(i) = p.scores_per_layer;
    r.kv_values_per_layer(i) = p.kv_values_per_layer;
    r.kv_bytes(i) = p.kv_bytes;
    r.macs_per_layer(i) = p.macs_per_layer;
    if (!p.linear_macs_per_layer) continue;
    if (!r.linear_macs_per_layer) r.linear_macs_per_layer = Eigen::VectorXd(m);
    (*r.linear_macs_per_layer)(i) = *p.linear_macs_per_layer;
  }
  return r;
}

}  // namespace llmmath
