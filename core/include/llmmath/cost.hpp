// What attention costs as the context grows: score counts, the key-value cache, and the
// multiply-adds of QKᵀ and of the weighted sum of values. Grouped-query attention (Ainslie et
// al. 2023) shares each key and value head among heads / kvHeads query heads, which shrinks
// the cache but not the scores; kvHeads = 1 is multi-query attention (Shazeer 2019).
// Chapter 8, section 4; tests in tests/core/test_cost.cpp.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "llmmath/fields.hpp"

namespace llmmath {

/// Largest context accepted by attention_cost(): 2^30 = 1,073,741,824 tokens, ten times the
/// longest context windows announced (10^8 tokens).
constexpr double max_cost_tokens = 1073741824.0;  // 2^30

/// Largest heads, kvHeads, headDim and layers accepted by attention_cost(): 2^12 = 4096, far
/// above any published model (at most a few hundred of each), and model_cost()'s limits too.
constexpr double max_cost_factor = 4096.0;  // 2^12

/// Largest batch accepted by attention_cost(): 2^20 sequences, model_cost()'s limit. With tokens
/// ≤ 2^30 and the factors ≤ 2^12 every count is at most 2^117, and a cache size is at most 2^87
/// values times the 53-bit significand of kvBytesPerElement, so all of them are computed exactly
/// in 128-bit integers (the cache size with a 64-bit carry, see times() in cost.cpp) and rounded
/// once.
constexpr double max_cost_batch = 1048576.0;  // 2^20

/// Largest hidden (the model width) accepted: 2^20 = 1,048,576, model_cost()'s limit, 64 times
/// the widest published model (16,384).
constexpr double max_cost_hidden = 1048576.0;  // 2^20

/// Largest intermediate (the feed-forward size) accepted: 2^22 = 4,194,304, model_cost()'s
/// limit on a feed-forward's width, about eighty times the largest published one (53,248).
constexpr double max_cost_intermediate = 4194304.0;  // 2^22

/// Largest kv_bytes_per_element accepted: 64 bytes, model_cost()'s limit on a stored element
/// (max_model_element_bytes), beyond any number format (fp64 is 8).
constexpr double max_cost_kv_bytes_per_element = 64.0;

/// The model and workload of attention_cost(), named as in the JS `cfg`. Counts are doubles so
/// that the core itself can refuse a fractional or out-of-range value by name.
struct AttentionCostConfig {
  double tokens = 0;    ///< sequence length n, whole number in [1, 2^30]
  double heads = 0;     ///< query heads per layer h, whole number in [1, 4096]
  double head_dim = 0;  ///< d_head, the dimension of each query, key and value head, [1, 4096]
  double layers = 1;    ///< transformer layers L, whole number in [1, 4096]
  /// Key-value heads per layer; empty means heads (plain multi-head attention). A whole
  /// number in [1, heads] that divides heads, as grouped-query attention requires.
  std::optional<double> kv_heads;
  double batch = 1;  ///< sequences processed together, whole number in [1, 2^20]
  /// Bytes per stored value, in (0, 64]: 2 for fp16/bf16 (the default, as models are
  /// served), 1 for int8, 0.5 for 4-bit.
  double kv_bytes_per_element = 2;
  /// Model width d_model (a config.json's hidden_size), the size of each token's vector
  /// between layers, a whole number in [1, 2^20]; with intermediate, the linear layers are
  /// counted too. Empty: attention alone.
  std::optional<double> hidden;
  /// Feed-forward size d_ff (intermediate_size), a whole number in [1, 2^22]; given with hidden.
  std::optional<double> intermediate;
  /// Gated feed-forward (SwiGLU, as in Llama: gate, up and down matrices, 3·d_model·d_ff per
  /// token) instead of the original two-matrix one (up and down, 2·d_model·d_ff, as in GPT-2).
  /// Only with hidden and intermediate; empty means false.
  std::optional<bool> gated_mlp;
};

/// Counts of one attention forward pass over `tokens` tokens and the key-value cache it keeps.
/// Every count is the exact integer when below 2^53 and the correctly rounded double above.
struct AttentionCostResult {
  double scores_per_head = 0;      ///< n², one score per (query, key) pair
  double scores_per_layer = 0;     ///< batch·h·n²
  double kv_values_per_layer = 0;  ///< 2·batch·n·kvHeads·d_head: one key and one value per head
  double kv_values = 0;            ///< kv_values_per_layer · L
  double kv_bytes = 0;             ///< kv_values · kvBytesPerElement
  /// 2·kvHeads·d_head·L·kvBytesPerElement: the cache one more token of one sequence adds
  double kv_bytes_per_token = 0;
  double qk_macs_per_layer = 0;  ///< batch·h·n²·d_head multiply-adds of QKᵀ (full square)
  double av_macs_per_layer = 0;  ///< batch·h·n²·d_head multiply-adds of weights·V (full square)
  double macs_per_layer = 0;     ///< qk_macs_per_layer + av_macs_per_layer: one layer's
  double macs = 0;               ///< macs_per_layer · L, all layers
  /// The linear layers, only when hidden and intermediate are given. Multiply-adds per layer for
  /// the batch·n tokens: the Q and O projections batch·n·d_model·h·d_head each, K and V
  /// batch·n·d_model·kvHeads·d_head each (grouping shrinks them too).
  std::optional<double> projection_macs_per_layer;
  /// batch·n·d_model·d_ff times 3 (gated) or 2: the feed-forward's multiply-adds per layer
  std::optional<double> ffn_macs_per_layer;
  /// projection_macs_per_layer + ffn_macs_per_layer: linear in n, where QK + AV grow as n²
  std::optional<double> linear_macs_per_layer;
  /// The n at which qk + av (2·h·n²·d_head per sequence) equals the linear layers
  /// (n·C with C = d_model·d_head·(2h + 2·kvHeads) + (3 or 2)·d_model·d_ff per token):
  /// n = C / (2·h·d_head), whatever tokens and batch are. Below it the linear layers do most of
  /// the arithmetic, above it attention's square does. Llama-2-7B (d_model 4096, 32 heads of
  /// 128, d_ff 11008, gated): 202,375,168 / 8192 = 24,704 tokens.
  std::optional<double> crossover_tokens;
  /// (qk + av) / (qk + av + linear) per layer at n tokens: attention's share of the layer's
  /// multiply-adds (1/2 at the crossover)
  std::optional<double> attention_share;
};

/// The fields of AttentionCostResult, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AttentionCostResult& r, Visit&& visit) {
  LLMMATH_FIELD(scores_per_head);
  LLMMATH_FIELD(scores_per_layer);
  LLMMATH_FIELD(kv_values_per_layer);
  LLMMATH_FIELD(kv_values);
  LLMMATH_FIELD(kv_bytes);
  LLMMATH_FIELD(kv_bytes_per_token);
  LLMMATH_FIELD(qk_macs_per_layer);
  LLMMATH_FIELD(av_macs_per_layer);
  LLMMATH_FIELD(macs_per_layer);
  LLMMATH_FIELD(macs);
  LLMMATH_FIELD(projection_macs_per_layer);
  LLMMATH_FIELD(ffn_macs_per_layer);
  LLMMATH_FIELD(linear_macs_per_layer);
  LLMMATH_FIELD(crossover_tokens);
  LLMMATH_FIELD(attention_share);
}

/// The cost of attention over `tokens` tokens (Vaswani et al. 2017 §4 and Table 1: O(n²·d) per
/// layer), with the key-value cache of grouped-query attention (Ainslie et al. 2023).
/// The multiply-adds count the full n×n square (no causal saving), as in the textbook formula.
/// With hidden and intermediate it also counts the linear layers (Kaplan et al. 2020, Table 1,
/// which counts 2 FLOPs per multiply-add; the gated feed-forward of Shazeer 2020 has a third
/// matrix), and where attention's square overtakes them.
/// Preconditions (std::invalid_argument naming tokens, heads, head_dim, layers, kv_heads, batch,
/// kv_bytes_per_element, hidden, intermediate or gated_mlp otherwise): whole numbers within the
/// limits above, kv_heads dividing heads, kv_bytes_per_element a finite number in (0, 64],
/// hidden and intermediate given together and gated_mlp only with them.
AttentionCostResult attention_cost(const AttentionCostConfig& cfg);

/// attention_cost() of one model over several context lengths, for the curves of figure 4.1:
/// entry i of each vector is that count of attention_cost() with tokens = tokens(i).
struct AttentionCostSweep {
  Eigen::VectorXd tokens;               ///< (points) the context lengths n, as given
  Eigen::VectorXd scores_per_layer;     ///< (points) batch·h·n²
  Eigen::VectorXd kv_values_per_layer;  ///< (points) 2·batch·n·kvHeads·d_head
  Eigen::VectorXd kv_bytes;             ///< (points) the whole cache, all layers, in bytes
  Eigen::VectorXd macs_per_layer;       ///< (points) QKᵀ and weights·V, one layer
  /// (points) the linear layers' multiply-adds per layer; present with hidden and intermediate
  std::optional<Eigen::VectorXd> linear_macs_per_layer;
};

/// The fields of AttentionCostSweep, in the order the API returns them (fields.hpp).
template <class Visit>
void for_each_field(const AttentionCostSweep& r, Visit&& visit) {
  LLMMATH_FIELD(tokens);
  LLMMATH_FIELD(scores_per_layer);
  LLMMATH_FIELD(kv_values_per_layer);
  LLMMATH_FIELD(kv_bytes);
  LLMMATH_FIELD(macs_per_layer);
  LLMMATH_FIELD(linear_macs_per_layer);
}

/// attention_cost() with cfg.tokens replaced by each entry of `tokens`, in one call (cfg.tokens
/// is not read). Preconditions (std::invalid_argument naming tokens[i] or a field of cfg):
/// those of attention_cost() for each length, and 1 to max_sweep_points lengths.
AttentionCostSweep attention_cost_sweep(const AttentionCostConfig& cfg,
                                        const Eigen::VectorXd& tokens);

}  // namespace llmmath
