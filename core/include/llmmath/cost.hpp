// What attention costs as the context grows: score counts, the key-value cache, and the
// multiply-adds of QKᵀ and of the weighted sum of values. Grouped-query attention (Ainslie et
// al. 2023) shares each key and value head among heads / kvHeads query heads, which shrinks
// the cache but not the scores; kvHeads = 1 is multi-query attention (Shazeer 2019).
// Chapter 8, section 4; tests in tests/core/test_cost.cpp.
#pragma once

#include <optional>

namespace llmmath {

/// Largest context accepted by attention_cost(): 2^24 = 16,777,216 tokens, beyond the longest
/// published context windows (about 10^7).
constexpr double max_cost_tokens = 16777216.0;  // 2^24

/// Largest heads, kvHeads, headDim, layers and batch accepted by attention_cost(): 2^12 = 4096,
/// far above any published model (at most a few hundred of each). With tokens ≤ 2^24 every
/// count is at most 2^97 and every cache size times the 53-bit significand of bytesPerValue
/// below 2^126, so all of them are computed exactly in 128-bit integers.
constexpr double max_cost_factor = 4096.0;  // 2^12

/// Largest bytesPerValue accepted: 1024 bytes, beyond any number format.
constexpr double max_bytes_per_value = 1024.0;

/// The model and workload of attention_cost(), named as in the JS `cfg`. Counts are doubles so
/// that the core itself can refuse a fractional or out-of-range value by name.
struct AttentionCostConfig {
  double tokens = 0;    ///< sequence length n, whole number in [1, 2^24]
  double heads = 0;     ///< query heads per layer h, whole number in [1, 4096]
  double head_dim = 0;  ///< d_head, the dimension of each query, key and value head, [1, 4096]
  double layers = 1;    ///< transformer layers L, whole number in [1, 4096]
  /// Key-value heads per layer; empty means heads (plain multi-head attention). A whole
  /// number in [1, heads] that divides heads, as grouped-query attention requires.
  std::optional<double> kv_heads;
  double batch = 1;  ///< sequences processed together, whole number in [1, 4096]
  /// Bytes per stored value, in (0, 1024]: 2 for fp16/bf16 (the default, as models are
  /// served), 1 for int8, 0.5 for 4-bit.
  double bytes_per_value = 2;
};

/// Counts of one attention forward pass over `tokens` tokens and the key-value cache it keeps.
/// Every count is the exact integer when below 2^53 and the correctly rounded double above.
struct AttentionCostResult {
  double scores_per_head = 0;      ///< n², one score per (query, key) pair
  double scores_per_layer = 0;     ///< batch·h·n²
  double kv_values_per_layer = 0;  ///< 2·batch·n·kvHeads·d_head: one key and one value per head
  double kv_values = 0;            ///< kv_values_per_layer · L
  double kv_bytes = 0;             ///< kv_values · bytesPerValue
  /// 2·kvHeads·d_head·L·bytesPerValue: the cache one more token of one sequence adds
  double kv_bytes_per_token = 0;
  double qk_macs_per_layer = 0;  ///< batch·h·n²·d_head multiply-adds of QKᵀ (full square)
  double av_macs_per_layer = 0;  ///< batch·h·n²·d_head multiply-adds of weights·V (full square)
  double macs = 0;               ///< (qk_macs_per_layer + av_macs_per_layer) · L, all layers
};

/// The cost of attention over `tokens` tokens (Vaswani et al. 2017 §4 and Table 1: O(n²·d) per
/// layer), with the key-value cache of grouped-query attention (Ainslie et al. 2023).
/// The multiply-adds count the full n×n square (no causal saving), as in the textbook formula.
/// Preconditions (std::invalid_argument naming tokens, heads, headDim, layers, kvHeads, batch
/// or bytesPerValue otherwise): whole numbers within the limits above, kvHeads dividing heads,
/// bytesPerValue a finite number in (0, 1024].
AttentionCostResult attention_cost(const AttentionCostConfig& cfg);

}  // namespace llmmath
