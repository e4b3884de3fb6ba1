// Your model: a Hugging Face configuration (config.json, as `transformers` reads it) turned into
// the shape that decides what the model costs, and that cost at any context: the key-value
// cache, the attention arithmetic of the next token, the parameters and the weights' bytes.
// What shapes a cache per token: key-value heads (grouped-query attention), the head size, layers
// that hold only a window or a chunk of the context, and latent (MLA) caches. Chapter 8, section 4;
// tests in tests/core/test_model.cpp, reference in reference/model.py.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmmath/fields.hpp"
#include "llmmath/json.hpp"

namespace llmmath {

/// A field that is null, not absent, when it does not apply (a model without a window has
/// `window: null`): the bindings hand an empty one on as null.
template <class T>
struct Nullable : std::optional<T> {
  using std::optional<T>::optional;
  Nullable& operator=(const T& value) {
    std::optional<T>::operator=(value);
    return *this;
  }
};

/// Limits of a configuration: far above any published model, low enough that every count stays
/// exact in 128-bit integers (see model.cpp).
constexpr double max_model_layers = 4096;
constexpr double max_model_heads = 4096;
constexpr double max_model_head_dim = 4096;
constexpr double max_model_hidden = 1048576;        // 2^20
constexpr double max_model_width = 4194304;         // 2^22, an MLP's or expert's width
constexpr double max_model_vocab = 16777216;        // 2^24
constexpr double max_model_context = 1073741824.0;  // 2^30, also a window's or chunk's largest
constexpr double max_model_experts = 4096;
constexpr double max_model_rank = 65536;  // an MLA rank or per-head dimension
/// Largest batch model_cost() takes, and the largest `fit.maxBatch` it reports.
constexpr double max_model_batch = 1048576;  // 2^20
/// Largest bytes per cached element or per weight: 64 (a format of 512 bits, beyond any in use).
constexpr double max_model_element_bytes = 64;

/// A latent attention's sizes (DeepSeek V2/V3): keys and values are made from one compressed
/// latent of kv_lora_rank per token, plus a shared rotary key of qk_rope_head_dim.
struct ModelMla {
  double kv_lora_rank = 0;
  Nullable<double> q_lora_rank;  ///< null: queries are projected directly (DeepSeek-V2-Lite)
  double qk_nope_head_dim = 0;
  double qk_rope_head_dim = 0;
  double v_head_dim = 0;
};
template <class Visit>
void for_each_field(const ModelMla& r, Visit&& visit) {
  LLMMATH_FIELD(kv_lora_rank);
  LLMMATH_FIELD(q_lora_rank);
  LLMMATH_FIELD(qk_nope_head_dim);
  LLMMATH_FIELD(qk_rope_head_dim);
  LLMMATH_FIELD(v_head_dim);
}

/// A mixture of experts' sizes.
struct ModelMoe {
  double experts = 0;            ///< routed experts per MoE layer
  double shared_experts = 0;     ///< experts every token uses
  double experts_per_token = 0;  ///< routed experts a token is sent to
  double expert_width = 0;       ///< one routed expert's MLP width
  double shared_width = 0;       ///< one shared expert's MLP width (0 without shared experts)
  double moe_layers = 0;         ///< layers with experts
  double dense_layers = 0;       ///< layers with a dense MLP of ModelShape::intermediate instead
  bool router_bias =
      false;  ///< the router has `experts` more values per layer (gpt-oss, DeepSeek-V3)
  bool shared_expert_gate = false;  ///< a gate of `hidden` values on the shared expert (Qwen2-MoE)
};
template <class Visit>
void for_each_field(const ModelMoe& r, Visit&& visit) {
  LLMMATH_FIELD(experts);
  LLMMATH_FIELD(shared_experts);
  LLMMATH_FIELD(experts_per_token);
  LLMMATH_FIELD(expert_width);
  LLMMATH_FIELD(shared_width);
  LLMMATH_FIELD(moe_layers);
  LLMMATH_FIELD(dense_layers);
  LLMMATH_FIELD(router_bias);
  LLMMATH_FIELD(shared_expert_gate);
}

/// How a checkpoint stores its weights: read from the file's `torch_dtype` (or `dtype`) and
/// `quantization_config`, or named by modelCost's `weightFormat`. The quantised matrices are
/// stored at `element_bits` per weight with one scale of `scale_bytes` (and a zero point of
/// `zero_bytes`) per group of `group_size` weights along a row (0: one per output row; −1: one
/// per matrix), or per `block_size` × `block_size` tile; `index_bytes` per input column (GPTQ's
/// g_idx); everything else (embeddings, LM head, norms, biases, routers, and any module the
/// method leaves out) at `rest_bytes` per parameter.
struct ModelWeights {
  std::string format;  ///< a short name: "bf16", "fp8-block128", "mxfp4+bf16", "awq-int4-g128", …
  double bytes = 0;    ///< every parameter in this storage, scales and zero points included
  std::string note;    ///< one sentence: what was read, what stays in 16 bits
  /// which matrices are quantised: "none", "linear" (every linear layer's matrix but the LM
  /// head), "experts" (the routed experts' only), "mlp" (the MLPs' and experts', not attention)
  std::string quantized = "none";
  double element_bits = 16;  ///< of a quantised weight
  double scale_bytes = 0;    ///< of one scale
  double zero_bytes = 0;     ///< of one zero point (0: symmetric)
  double group_size = 0;     ///< weights along a row per scale; 0: per row; −1: per matrix
  double block_size = 0;     ///< > 0: one scale per block × block tile instead of groups
  double index_bytes = 0;    ///< per input column (GPTQ's g_idx)
  double rest_bytes = 2;     ///< per parameter left unquantised
};
template <class Visit>
void for_each_field(const ModelWeights& r, Visit&& visit) {
  LLMMATH_FIELD(format);
  LLMMATH_FIELD(bytes);
  LLMMATH_FIELD(note);
  LLMMATH_FIELD(quantized);
  LLMMATH_FIELD(element_bits);
  LLMMATH_FIELD(scale_bytes);
  LLMMATH_FIELD(zero_bytes);
  LLMMATH_FIELD(group_size);
  LLMMATH_FIELD(block_size);
  LLMMATH_FIELD(index_bytes);
  LLMMATH_FIELD(rest_bytes);
}

/// What a configuration says about the model's cost, normalised across families. Counts are
/// doubles holding whole numbers, as everywhere in the core (check.hpp).
struct ModelShape {
  std::string model_type;  ///< the (text) configuration's model_type, "" when absent
  double layers = 0;
  double hidden = 0;
  double heads = 0;
  double kv_heads = 0;
  double head_dim = 0;      ///< of queries and keys (MLA: qk_nope_head_dim + qk_rope_head_dim)
  double v_head_dim = 0;    ///< of values (head_dim except under MLA)
  double intermediate = 0;  ///< the dense MLP's width
  double vocab = 0;
  bool tied_embeddings = false;
  double max_context = 0;
  std::vector<std::string> layer_kinds;  ///< "full", "sliding", "chunked" or "mla", per layer
  Nullable<double> window;               ///< tokens a sliding layer keeps
  Nullable<double> chunk;                ///< tokens of a chunked layer's chunk
  Nullable<ModelMla> mla;
  Nullable<ModelMoe> moe;
  bool gated_mlp = true;                ///< gate, up and down matrices; false: up and down
  std::string attention_bias = "none";  ///< "none", "qkv" or "qkvo"
  bool mlp_bias = false;
  std::string norm_kind = "rms";   ///< "rms" (a weight) or "layer" (a weight and a bias)
  double norms_per_layer = 2;      ///< norms over `hidden` in each layer
  bool qk_norm = false;            ///< RMS norms of head_dim on queries and keys
  bool attention_sinks = false;    ///< a learned sink logit per head and layer (gpt-oss)
  double position_embeddings = 0;  ///< rows of a learned position table (GPT-2)
  /// How the file stores the weights. Absent from a shape handed back: bf16, as a file that
  /// names no dtype.
  ModelWeights weights;
  /// One sentence per value not in the file (a family default, or derived), per part of the file
  /// not counted, and per field not understood that could change the cost.
  std::vector<std::string> assumed;
};
template <class Visit>
void for_each_field(const ModelShape& r, Visit&& visit) {
  LLMMATH_FIELD(model_type);
  LLMMATH_FIELD(layers);
  LLMMATH_FIELD(hidden);
  LLMMATH_FIELD(heads);
  LLMMATH_FIELD(kv_heads);
  LLMMATH_FIELD(head_dim);
  LLMMATH_FIELD(v_head_dim);
  LLMMATH_FIELD(intermediate);
  LLMMATH_FIELD(vocab);
  LLMMATH_FIELD(tied_embeddings);
  LLMMATH_FIELD(max_context);
  LLMMATH_FIELD(layer_kinds);
  LLMMATH_FIELD(window);
  LLMMATH_FIELD(chunk);
  LLMMATH_FIELD(mla);
  LLMMATH_FIELD(moe);
  LLMMATH_FIELD(gated_mlp);
  LLMMATH_FIELD(attention_bias);
  LLMMATH_FIELD(mlp_bias);
  LLMMATH_FIELD(norm_kind);
  LLMMATH_FIELD(norms_per_layer);
  LLMMATH_FIELD(qk_norm);
  LLMMATH_FIELD(attention_sinks);
  LLMMATH_FIELD(position_embeddings);
  LLMMATH_FIELD(weights);
  LLMMATH_FIELD(assumed);
}

/// Reads a configuration (the object of a config.json; a multimodal model's text part under
/// text_config) as transformers does; errors name the field ("config.num_hidden_layers must be a
/// positive integer, got \"32\"").
ModelShape model_from_config(const json::Value& config);

/// The same from the file's text; a JSON fault names its line and column ("config.json, line 3,
/// column 14: …").
ModelShape model_from_config_text(std::string_view text);

/// How a caller's object names a member of a struct: the member's name (`kv_heads`) → its key in
/// the object, which messages quote as the object has it (fail_key, check.hpp). The bindings give
/// their own (camelCase: `kvHeads`).
using FieldNames = std::string (*)(const char* member);

/// A shape handed back by a caller, its fields named by `names` (as the caller's
/// model_from_config result names them), checked field by field ("shape.layer_kinds must …", a
/// binding renaming it as check.hpp says).
ModelShape model_shape(const json::Value& shape, FieldNames names);

enum class MlaCache { latent, expanded };
/// Whether a sliding layer keeps only its window (engines that evict, as vLLM and SGLang do for
/// windowed models) or every token (engines without eviction).
enum class SlidingCache { window, full };

/// The weight formats modelCost's `weightFormat` may name (besides "file", the file's own):
/// an override quantises the linear layers' matrices and keeps the embedding, LM head, norms,
/// biases and routers in 16 bits.
constexpr const char* model_weight_formats[] = {"file", "fp32", "bf16", "fp16",
                                                "fp8",  "int8", "int4", "mxfp4"};

/// The devices a model is served on: `count` of them, each with `memory_bytes`; with a
/// bandwidth, the decoding step's memory floor; with a peak, its compute floor.
struct ModelDevices {
  double count = 1;                                  ///< whole number in [1, 1024]
  double memory_bytes = 0;                           ///< each device's, > 0
  std::optional<double> bandwidth_bytes_per_second;  ///< each device's memory bandwidth, > 0
  std::optional<double> flops_per_second;            ///< each device's peak, > 0
};

/// Largest tensor-parallel size and device count.
constexpr double max_model_devices = 1024;
/// Largest page of an engine's cache, in tokens.
constexpr double max_model_block_tokens = 1024;

struct ModelCostOptions {
  double tokens = 0;                ///< context length, whole number in [1, 2^30]
  double batch = 1;                 ///< sequences, whole number in [1, 2^20]
  double kv_bytes_per_element = 2;  ///< in (0, 64]: 4 fp32, 2 bf16/fp16, 1 fp8/int8, 0.5 int4
  /// in (0, 64]: every parameter at this size, overriding the format
  std::optional<double> weight_bytes_per_param;
  /// "file" (the shape's weights) or one of model_weight_formats
  std::string weight_format = "file";
  MlaCache mla_cache = MlaCache::latent;
  std::optional<double> memory_bytes;  ///< > 0: one device's memory, all of it usable; adds the fit
  /// whole number in [0, 1024]; default devices.count, else 1; 0: the largest size dividing
  /// devices.count that the model's heads allow (the rest of the devices hold copies)
  std::optional<double> tensor_parallel;
  SlidingCache sliding_cache = SlidingCache::window;
  double block_tokens = 16;               ///< the engine's page, whole number in [1, 1024]
  std::optional<double> kv_budget_bytes;  ///< > 0: one device's KV memory, as an engine reports it
  std::optional<ModelDevices> devices;
  /// in (0, 1]: the share of a device's memory the engine takes (vLLM's
  /// gpu_memory_utilization); default 0.9 with devices, 1 with memory_bytes
  std::optional<double> memory_utilization;
  double reserve_bytes = 0;  ///< ≥ 0, per device: activations, the runtime, the allocator
};

struct ModelCostKind {
  std::string kind;
  double layers = 0;
  double elements_per_token = 0;  ///< numbers one token leaves in one such layer's cache
  double tokens_held = 0;         ///< per sequence, in each such layer
  double bytes = 0;               ///< these layers' cache for the whole batch
};
template <class Visit>
void for_each_field(const ModelCostKind& r, Visit&& visit) {
  LLMMATH_FIELD(kind);
  LLMMATH_FIELD(layers);
  LLMMATH_FIELD(elements_per_token);
  LLMMATH_FIELD(tokens_held);
  LLMMATH_FIELD(bytes);
}

struct ModelParams {
  double total = 0;      ///< every parameter, a tied embedding once
  double active = 0;     ///< those one token uses: routed experts it is not sent to left out
  double embedding = 0;  ///< the input embedding (and a learned position table)
};
template <class Visit>
void for_each_field(const ModelParams& r, Visit&& visit) {
  LLMMATH_FIELD(total);
  LLMMATH_FIELD(active);
  LLMMATH_FIELD(embedding);
}

/// One device's share under tensor parallelism, as vLLM and SGLang split a model.
struct ModelPerDevice {
  double sequences = 0;  ///< of the batch, on the fullest copy of the model: ceil(batch / replicas)
  double kv_heads = 0;   ///< key-value heads it holds (1, replicated, when tp > kvHeads)
  double kv_bytes_per_token = 0;  ///< one token of one sequence in every layer, on this device
  double kv_bytes = 0;  ///< its cache of its sequences at `tokens`, in whole pages of blockTokens
  double weights_bytes = 0;  ///< its weights, the vocabulary padded to a multiple of 64 rows
};
template <class Visit>
void for_each_field(const ModelPerDevice& r, Visit&& visit) {
  LLMMATH_FIELD(sequences);
  LLMMATH_FIELD(kv_heads);
  LLMMATH_FIELD(kv_bytes_per_token);
  LLMMATH_FIELD(kv_bytes);
  LLMMATH_FIELD(weights_bytes);
}

/// The tokens an engine's KV memory holds: whole pages of blockTokens, a page holding its tokens
/// in every layer.
struct ModelBudget {
  double bytes = 0;   ///< the KV memory of one device: kvBudgetBytes, or what the devices leave
  double blocks = 0;  ///< floor(bytes / (blockTokens · perDevice.kvBytesPerToken))
  double tokens = 0;  ///< blocks · blockTokens
};
template <class Visit>
void for_each_field(const ModelBudget& r, Visit&& visit) {
  LLMMATH_FIELD(bytes);
  LLMMATH_FIELD(blocks);
  LLMMATH_FIELD(tokens);
}

struct ModelFit {
  bool fits = false;        ///< weights, cache (whole pages) and reserve fit each device
  double max_batch = 0;     ///< at `tokens`, at most 2^20
  double max_tokens = 0;    ///< at `batch`, at most the model's max_context
  double usable_bytes = 0;  ///< per device: memoryUtilization · memory − reserveBytes
  double spare_bytes = 0;   ///< per device at `tokens` and `batch` (negative: short by that much)
  /// what stops the context: "weights" (they alone do not fit), "cache" (the memory), or
  /// "context" (the model's max_context)
  std::string limited_by;
  /// the fewest devices, a tensor-parallel size the model's heads allow, over which each device's
  /// share of the weights (and the reserve) fits; absent when none up to 1024 does
  std::optional<double> devices_needed;
};
template <class Visit>
void for_each_field(const ModelFit& r, Visit&& visit) {
  LLMMATH_FIELD(fits);
  LLMMATH_FIELD(max_batch);
  LLMMATH_FIELD(max_tokens);
  LLMMATH_FIELD(usable_bytes);
  LLMMATH_FIELD(spare_bytes);
  LLMMATH_FIELD(limited_by);
  LLMMATH_FIELD(devices_needed);
}

/// One decoding step of the whole batch at `tokens` (each sequence one new token), on one
/// device: the floor set by reading its weights and cache once over the memory bandwidth, and
/// by its arithmetic at the peak; communication not counted.
struct ModelDecode {
  double bytes_per_step = 0;      ///< weights read (MoE: the experts the batch touches) + cache
  double weights_bytes_read = 0;  ///< the weights' part of bytes_per_step
  double kv_bytes_read = 0;       ///< the cache's part: its sequences' cache as held, not paged
  double experts_touched = 0;     ///< routed experts per MoE layer the batch touches (0 if dense)
  double flops_per_step = 0;      ///< (2 · active params + attention) per sequence, over tp
  double memory_seconds = 0;      ///< bytes_per_step / bandwidth
  std::optional<double> compute_seconds;  ///< flops_per_step / peak, with a peak
  double seconds_per_step = 0;            ///< the larger floor
  double tokens_per_second = 0;           ///< batch / seconds_per_step, every replica together
  std::string bound;                      ///< "memory" or "compute"
};
template <class Visit>
void for_each_field(const ModelDecode& r, Visit&& visit) {
  LLMMATH_FIELD(bytes_per_step);
  LLMMATH_FIELD(weights_bytes_read);
  LLMMATH_FIELD(kv_bytes_read);
  LLMMATH_FIELD(experts_touched);
  LLMMATH_FIELD(flops_per_step);
  LLMMATH_FIELD(memory_seconds);
  LLMMATH_FIELD(compute_seconds);
  LLMMATH_FIELD(seconds_per_step);
  LLMMATH_FIELD(tokens_per_second);
  LLMMATH_FIELD(bound);
}

struct ModelCostResult {
  double kv_bytes = 0;                 ///< the cache of the whole batch at `tokens`
  double kv_bytes_per_token = 0;       ///< one more token of one sequence while no window is full
  std::vector<ModelCostKind> by_kind;  ///< in the order full, sliding, chunked, mla
  double attention_flops = 0;  ///< QKᵀ and AV of one new token at position `tokens`, one sequence
  double linear_flops = 0;     ///< the weight matrices one token multiplies by, 2 per weight
  std::optional<double> crossover_tokens;  ///< first context where attention ≥ linear, if any
  ModelParams params;
  double weights_bytes = 0;     ///< every parameter in `weights_format`
  std::string weights_format;   ///< the format costed: the file's, or the override's name
  bool beyond_context = false;  ///< `tokens` is past the model's max_context
  double tensor_parallel = 1;
  double replicas = 1;  ///< devices.count / tensorParallel copies of the model, the batch spread
  ModelPerDevice per_device;
  std::optional<ModelBudget> budget;  ///< with kvBudgetBytes or devices
  std::optional<ModelFit> fit;        ///< with memoryBytes or devices
  std::optional<ModelDecode> decode;  ///< with devices.bandwidthBytesPerSecond
  /// one sentence per default taken and per thing not counted
  std::vector<std::string> notes;
};
template <class Visit>
void for_each_field(const ModelCostResult& r, Visit&& visit) {
  LLMMATH_FIELD(kv_bytes);
  LLMMATH_FIELD(kv_bytes_per_token);
  LLMMATH_FIELD(by_kind);
  LLMMATH_FIELD(attention_flops);
  LLMMATH_FIELD(linear_flops);
  LLMMATH_FIELD(crossover_tokens);
  LLMMATH_FIELD(params);
  LLMMATH_FIELD(weights_bytes);
  LLMMATH_FIELD(weights_format);
  LLMMATH_FIELD(beyond_context);
  LLMMATH_FIELD(tensor_parallel);
  LLMMATH_FIELD(replicas);
  LLMMATH_FIELD(per_device);
  LLMMATH_FIELD(budget);
  LLMMATH_FIELD(fit);
  LLMMATH_FIELD(decode);
  LLMMATH_FIELD(notes);
}

ModelCostResult model_cost(const ModelShape& shape, const ModelCostOptions& options);

struct ModelSweepKind {
  std::string kind;
  double layers = 0;
  Eigen::VectorXd bytes;
};
template <class Visit>
void for_each_field(const ModelSweepKind& r, Visit&& visit) {
  LLMMATH_FIELD(kind);
  LLMMATH_FIELD(layers);
  LLMMATH_FIELD(bytes);
}

struct ModelCostSweep {
  Eigen::VectorXd tokens;
  Eigen::VectorXd kv_bytes;
  std::vector<ModelSweepKind> by_kind;
  Eigen::VectorXd attention_flops;
  /// with devices.bandwidthBytesPerSecond: the decoding floor's tokens per second at each context
  std::optional<Eigen::VectorXd> tokens_per_second;
};
template <class Visit>
void for_each_field(const ModelCostSweep& r, Visit&& visit) {
  LLMMATH_FIELD(tokens);
  LLMMATH_FIELD(kv_bytes);
  LLMMATH_FIELD(by_kind);
  LLMMATH_FIELD(attention_flops);
  LLMMATH_FIELD(tokens_per_second);
}

/// model_cost's cache and attention arithmetic at each of `tokens` (1 to 4096 lengths; an entry
/// named tokens[i]); options.tokens is not read.
ModelCostSweep model_cost_sweep(const ModelShape& shape, const Eigen::VectorXd& tokens,
                                const ModelCostOptions& options);

}  // namespace llmmath
