// model: a Hugging Face configuration read and costed, "Your model" (core/include/llmmath/model.hpp).
// The format is index.js's.
"use strict";

// A small configuration of each kind of cache, for the examples (the real files the tests read are
// data/models/).
const llamaLike = {
  model_type: "llama",
  num_hidden_layers: 4,
  hidden_size: 256,
  num_attention_heads: 8,
  num_key_value_heads: 2,
  intermediate_size: 688,
  vocab_size: 1000,
  max_position_embeddings: 4096,
  tie_word_embeddings: false,
};
const slidingLike = {
  model_type: "gpt_oss",
  num_hidden_layers: 4,
  hidden_size: 256,
  num_attention_heads: 8,
  num_key_value_heads: 2,
  head_dim: 32,
  intermediate_size: 128,
  num_local_experts: 8,
  num_experts_per_tok: 2,
  vocab_size: 1000,
  sliding_window: 128,
  layer_types: ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
  max_position_embeddings: 131072,
  tie_word_embeddings: false,
};
const latentLike = {
  model_type: "deepseek_v3",
  num_hidden_layers: 3,
  hidden_size: 512,
  num_attention_heads: 8,
  num_key_value_heads: 8,
  intermediate_size: 1024,
  moe_intermediate_size: 128,
  n_routed_experts: 16,
  n_shared_experts: 1,
  num_experts_per_tok: 4,
  first_k_dense_replace: 1,
  kv_lora_rank: 64,
  q_lora_rank: 96,
  qk_nope_head_dim: 32,
  qk_rope_head_dim: 16,
  v_head_dim: 32,
  topk_method: "noaux_tc",
  vocab_size: 1000,
  max_position_embeddings: 163840,
};
// What modelFromConfig gives for llamaLike: the shape modelCost's examples cost.
const llamaShape = {
  modelType: "llama",
  layers: 4,
  hidden: 256,
  heads: 8,
  kvHeads: 2,
  headDim: 32,
  vHeadDim: 32,
  intermediate: 688,
  vocab: 1000,
  tiedEmbeddings: false,
  maxContext: 4096,
  layerKinds: ["full", "full", "full", "full"],
  window: null,
  chunk: null,
  mla: null,
  moe: null,
  gatedMlp: true,
  attentionBias: "none",
  mlpBias: false,
  normKind: "rms",
  normsPerLayer: 2,
  qkNorm: false,
  attentionSinks: false,
  positionEmbeddings: 0,
  assumed: [],
};
const slidingShape = {
  ...llamaShape,
  modelType: "gpt_oss",
  layerKinds: ["sliding", "full", "sliding", "full"],
  window: 128,
  maxContext: 131072,
  moe: {
    experts: 8,
    sharedExperts: 0,
    expertsPerToken: 2,
    expertWidth: 128,
    sharedWidth: 0,
    moeLayers: 4,
    denseLayers: 0,
    routerBias: true,
    sharedExpertGate: false,
  },
  attentionBias: "qkvo",
  mlpBias: true,
  attentionSinks: true,
};

const shapeDoc = `A shape as modelFromConfig returns it (the core checks every field again, naming it
\`shape.<field>\`).`;

module.exports = {
  concept: "model",
  section: 4,
  functions: [
    {
      name: "modelFromConfig",
      doc: `Reads a model's configuration as Hugging Face \`transformers\` does: a multimodal model's text
part under \`text_config\`, the field names of every family (GPT-2's \`n_layer\`, Falcon's \`n_head_kv\` and
\`multi_query\`), \`head_dim\` when present (else the family's default, else hidden_size /
num_attention_heads), layer kinds from \`layer_types\` or the family's rule (Mistral's window on every
layer, Qwen2's \`use_sliding_window\` and \`max_window_layers\`, Gemma 2's alternation, Gemma 3's
\`sliding_window_pattern\`, Llama 4's chunked RoPE layers), latent attention (DeepSeek's \`kv_lora_rank\`)
and experts. Every value not in the file, every part not counted (a vision encoder, multi-token
prediction layers) and every field that could change the cost but is not understood is one sentence
of \`assumed\`. Errors name the field: \`config.num_hidden_layers must be a positive integer (at most
4,096), got "32"\`.
@param config the object JSON.parse gives for a config.json: plain data (objects, arrays, strings,
  finite numbers, booleans, null), at most 1 MiB written as JSON and nested at most 64 deep.`,
      params: [{ name: "config", kind: "json", type: "ModelConfig" }],
      returns: "ModelShape",
      worst: [
        {
          what: "a configuration padded to 1 MiB",
          args: () => [{ ...llamaLike, padding: "x".repeat(2 ** 20 - 400) }],
        },
      ],
      examples: [[llamaLike], [slidingLike], [latentLike], [{ text_config: llamaLike, vision_config: {} }]],
    },
    {
      name: "modelFromConfigText",
      doc: `modelFromConfig on the text of a config.json, parsed by the core: a fault of JSON names its
line and column, \`config.json, line 3, column 14: expected ',' or '}' after a member, got '"'\`, the
same in every browser.
@param text the file's text, at most 1 MiB.`,
      params: [{ name: "text", kind: "text" }],
      returns: "ModelShape",
      worst: [
        {
          what: "1 MiB of text",
          args: () => [JSON.stringify({ ...llamaLike, padding: "x".repeat(2 ** 20 - 400) })],
        },
      ],
      examples: [[JSON.stringify(llamaLike, null, 2)], [JSON.stringify(latentLike)]],
    },
    {
      name: "modelCost",
      doc: `What a model costs at a context of \`opts.tokens\`: its key-value cache for the batch (full and
latent layers hold every token, a sliding layer its window, a chunked layer its chunk), the attention
arithmetic of the next token beside that of its weight matrices, its parameters and the bytes of its
weights, and with \`opts.memoryBytes\` the largest batch and context that fit. Counts are exact
integers below 2^53 and correctly rounded above; bytes are that count times the bytes per element.
@param shape ${shapeDoc}`,
      params: [
        { name: "shape", kind: "json", type: "ModelShape" },
        { name: "opts", kind: "object", type: "ModelCostOptions" },
      ],
      returns: "ModelCostResult",
      worst: [
        {
          what: "4096 layers at 2^30 tokens with a memory to fit",
          args: () => [
            { ...llamaShape, layers: 4096, layerKinds: new Array(4096).fill("full") },
            { tokens: 2 ** 30, memoryBytes: 1e15 },
          ],
        },
      ],
      examples: [
        [llamaShape, { tokens: 4096 }],
        [llamaShape, { tokens: 4096, batch: 8, kvBytesPerElement: 1, memoryBytes: 24e9 }],
        [slidingShape, { tokens: 100000, memoryBytes: 1e9 }],
        [slidingShape, { tokens: 2 ** 30, kvBytesPerElement: 0.5, weightBytesPerParam: 0.5 }],
        [
          llamaShape,
          {
            tokens: 4096,
            batch: 8,
            tensorParallel: 2,
            devices: { count: 4, memoryBytes: 24e9, bandwidthBytesPerSecond: 1e12, flopsPerSecond: 1e14 },
            reserveBytes: 1e9,
          },
        ],
        [
          slidingShape,
          { tokens: 2048, batch: 4, weightFormat: "mxfp4", slidingCache: "full", blockTokens: 32, kvBudgetBytes: 1e8 },
        ],
        [llamaShape, { tokens: 8192, weightFormat: "int4", memoryBytes: 1e9, memoryUtilization: 0.5 }],
        [
          { ...slidingShape, kvHeads: 2 },
          { tokens: 100, tensorParallel: 8, devices: { count: 8, memoryBytes: 1e9, bandwidthBytesPerSecond: 1e11 } },
        ],
      ],
    },
    {
      name: "modelCostSweep",
      doc: `modelCost's cache and attention arithmetic at each context length of \`opts.tokens\` (1 to 4096
of them), the rest of \`opts\` fixed, in one call: the curves of the figure. Errors as modelCost's, an
entry named \`opts.tokens[i]\`.
@param shape ${shapeDoc}`,
      params: [
        { name: "shape", kind: "json", type: "ModelShape" },
        { name: "opts", kind: "object", type: "ModelCostSweepOptions", like: "ModelCostOptions", swept: "tokens" },
      ],
      returns: "ModelCostSweepResult",
      worst: [
        {
          what: "4096 lengths up to 2^30 on 4096 layers",
          args: ({ vector }) => [
            { ...slidingShape, layers: 4096, layerKinds: new Array(4096).fill("sliding") },
            { tokens: vector(4096, (i) => 1 + i * 262144) },
          ],
        },
      ],
      examples: [
        [slidingShape, { tokens: [1, 64, 128, 129, 4096, 131072], batch: 2 }],
        [llamaShape, { tokens: [1, 1024, 4096], kvBytesPerElement: 0.5 }],
        [llamaShape, { tokens: [1, 4096], batch: 4, devices: { memoryBytes: 24e9, bandwidthBytesPerSecond: 1e12 } }],
      ],
    },
  ],
  types: [
    {
      name: "ModelConfig",
      doc: "A config.json as JSON.parse gives it.",
      alias: "{ [field: string]: unknown }",
    },
    {
      name: "ModelMla",
      doc: "A latent attention's sizes (DeepSeek V2/V3): keys and values come from one latent per token.",
      fields: [
        { name: "kvLoraRank", type: "number", doc: "The latent's size, kv_lora_rank." },
        { name: "qLoraRank", type: "number | null", doc: "null when queries are projected directly." },
        { name: "qkNopeHeadDim", type: "number" },
        { name: "qkRopeHeadDim", type: "number", doc: "The shared rotary key, cached beside the latent." },
        { name: "vHeadDim", type: "number" },
      ],
    },
    {
      name: "ModelMoe",
      doc: "A mixture of experts' sizes.",
      fields: [
        { name: "experts", type: "number", doc: "Routed experts per MoE layer." },
        { name: "sharedExperts", type: "number", doc: "Experts every token uses." },
        { name: "expertsPerToken", type: "number" },
        { name: "expertWidth", type: "number", doc: "One routed expert's MLP width." },
        { name: "sharedWidth", type: "number", doc: "One shared expert's MLP width (0 without)." },
        { name: "moeLayers", type: "number", doc: "Layers with experts." },
        { name: "denseLayers", type: "number", doc: "Layers with a dense MLP of `intermediate` instead." },
        { name: "routerBias", type: "boolean", doc: "`experts` more values per router (gpt-oss, DeepSeek-V3)." },
        { name: "sharedExpertGate", type: "boolean", doc: "A gate on the shared expert (Qwen2-MoE)." },
      ],
    },
    {
      name: "ModelShape",
      doc: "What a configuration says about a model's cost, the same fields for every family.",
      fields: [
        { name: "modelType", type: "string", doc: 'The (text) configuration\'s model_type, "" when absent.' },
        { name: "layers", type: "number" },
        { name: "hidden", type: "number", doc: "hidden_size, d_model." },
        { name: "heads", type: "number", doc: "Query heads per layer." },
        { name: "kvHeads", type: "number", doc: "Key-value heads per layer (grouped-query attention)." },
        { name: "headDim", type: "number", doc: "Of queries and keys (MLA: qkNopeHeadDim + qkRopeHeadDim)." },
        { name: "vHeadDim", type: "number", doc: "Of values (headDim but under MLA)." },
        { name: "intermediate", type: "number", doc: "The dense MLP's width." },
        { name: "vocab", type: "number" },
        { name: "tiedEmbeddings", type: "boolean" },
        { name: "maxContext", type: "number", doc: "max_position_embeddings." },
        { name: "layerKinds", type: "LayerKind[]", doc: "One per layer." },
        { name: "window", type: "number | null", doc: "Tokens a sliding layer keeps; null without one." },
        { name: "chunk", type: "number | null", doc: "Tokens of a chunked layer's chunk; null without one." },
        { name: "mla", type: "ModelMla | null" },
        { name: "moe", type: "ModelMoe | null" },
        { name: "gatedMlp", type: "boolean", doc: "Gate, up and down matrices; false: up and down (GPT-2, Falcon)." },
        { name: "attentionBias", type: '"none" | "qkv" | "qkvo"' },
        { name: "mlpBias", type: "boolean" },
        { name: "normKind", type: '"rms" | "layer"' },
        { name: "normsPerLayer", type: "number" },
        { name: "qkNorm", type: "boolean", doc: "Norms of headDim on queries and keys (Qwen3, Gemma 3)." },
        { name: "attentionSinks", type: "boolean", doc: "A learned sink per head and layer (gpt-oss)." },
        { name: "positionEmbeddings", type: "number", doc: "Rows of a learned position table (GPT-2), else 0." },
        {
          name: "weights",
          type: "ModelWeights",
          doc: "How the file stores the weights (torch_dtype, quantization_config). A shape handed back without it is bf16.",
        },
        {
          name: "assumed",
          type: "string[]",
          doc: "One sentence per value not in the file, part not counted, or field not understood.",
        },
      ],
    },
    { name: "LayerKind", alias: '"full" | "sliding" | "chunked" | "mla"' },
    {
      name: "ModelWeights",
      doc: `How a checkpoint stores its weights. The quantised matrices (\`quantized\`) hold elementBits per weight and a
scale (and zero point) per group of groupSize weights along a row (0: per row; −1: per matrix) or per blockSize ×
blockSize tile, and indexBytes per input column; every other parameter restBytes. A shape handed back is checked
field by field and its bytes recomputed.`,
      fields: [
        {
          name: "format",
          type: "string",
          doc: 'A short name: "bf16", "fp8-block128", "mxfp4+bf16", "awq-int4-g128", …',
        },
        { name: "bytes", type: "number", doc: "Every parameter in this storage, scales and zero points included." },
        { name: "note", type: "string", doc: "One sentence: what was read, and what stays in 16 bits." },
        { name: "quantized", type: '"none" | "linear" | "mlp" | "experts"', doc: "Which matrices are quantised." },
        { name: "elementBits", type: "number" },
        { name: "scaleBytes", type: "number" },
        { name: "zeroBytes", type: "number" },
        { name: "groupSize", type: "number" },
        { name: "blockSize", type: "number" },
        { name: "indexBytes", type: "number" },
        { name: "restBytes", type: "number", doc: "Bytes of each parameter left unquantised." },
      ],
    },
    {
      name: "ModelCostOptions",
      fields: [
        { name: "tokens", kind: "number", doc: "Context length, whole number in 1 … 2^30." },
        { name: "batch", kind: "number", optional: true, doc: "Sequences, whole number in 1 … 2^20; default 1." },
        {
          name: "kvBytesPerElement",
          kind: "number",
          optional: true,
          doc: "Bytes per cached element in (0, 64]: 4 fp32, 2 bf16/fp16 (default), 1 fp8/int8, 0.5 int4 (scales not counted).",
        },
        {
          name: "weightBytesPerParam",
          kind: "number",
          optional: true,
          doc: "Bytes of every parameter in (0, 64], overriding weightFormat (2 for bf16, 1 for fp8, 0.5 for 4 bits, no scales).",
        },
        {
          name: "weightFormat",
          kind: "choice",
          values: ["file", "fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4"],
          optional: true,
          doc: `How the weights are stored: "file" (default: shape.weights, read from torch_dtype and
quantization_config), or a format applied to every linear layer's matrix, the embedding, LM head,
norms, biases and routers kept in 16 bits: "fp8" (one float32 scale per matrix), "int8" (a 16-bit
scale per row), "int4" (group 128, 16-bit scale and zero), "mxfp4" (an 8-bit scale per 32); "fp32",
"bf16" and "fp16" store every parameter so.`,
        },
        {
          name: "mlaCache",
          kind: "choice",
          values: ["latent", "expanded"],
          optional: true,
          doc: `How a latent attention is cached: "latent" (default; vLLM, SGLang: kvLoraRank + qkRopeHeadDim per
token and layer) or "expanded" (transformers' eager path: per-head keys and values).`,
        },
        {
          name: "memoryBytes",
          kind: "number",
          optional: true,
          doc: "One device's memory in bytes (> 0), all of it usable unless memoryUtilization says otherwise: the result then has `fit` and `budget`. Not with `devices`.",
        },
        {
          name: "tensorParallel",
          kind: "number",
          optional: true,
          doc: `Devices the model is split over, whole number in 0 … 1024 (default devices.count, else 1; 0: the
largest size dividing devices.count that the heads allow, the other devices holding copies), as vLLM
and SGLang split it: key-value heads kvHeads / tp each when tp divides them, one (replicated) when tp
is a multiple of them, otherwise an Error; query heads must divide by tp; a latent cache whole on
every device; matrices split, the vocabulary by rows (padded to 64), vectors and routers replicated.`,
        },
        {
          name: "slidingCache",
          kind: "choice",
          values: ["window", "full"],
          optional: true,
          doc: `"window" (default): a sliding layer keeps its window and a chunked one its chunk, as engines
that evict do; "full": every layer keeps every token, as engines without eviction do.`,
        },
        {
          name: "blockTokens",
          kind: "number",
          optional: true,
          doc: "The engine's page of cache in tokens, whole number in 1 … 1024 (default 16, vLLM's): a device's cache is whole pages.",
        },
        {
          name: "kvBudgetBytes",
          kind: "number",
          optional: true,
          doc: `One device's KV memory (> 0), as an engine reports it ("Available KV cache memory"): the
result's \`budget\` holds floor(bytes / (blockTokens · perDevice.kvBytesPerToken)) pages.`,
        },
        {
          name: "devices",
          kind: "object",
          optional: true,
          type: "ModelDevices",
          doc: "The devices: their count (replicas of the model when it exceeds tensorParallel), each one's memory, and with a bandwidth the decoding floor.",
        },
        {
          name: "memoryUtilization",
          kind: "number",
          optional: true,
          doc: "The share of each device's memory the engine takes, in (0, 1]: default 0.9 (vLLM's gpu_memory_utilization) with devices, 1 with memoryBytes.",
        },
        {
          name: "reserveBytes",
          kind: "number",
          optional: true,
          doc: "Bytes per device set aside within that share (activations, the runtime, the allocator), ≥ 0; default 0.",
        },
      ],
    },
    {
      name: "ModelDevices",
      doc: "The devices a model is served on.",
      fields: [
        { name: "count", kind: "number", optional: true, doc: "Whole number in 1 … 1024; default 1." },
        { name: "memoryBytes", kind: "number", doc: "Each device's memory in bytes, > 0." },
        {
          name: "bandwidthBytesPerSecond",
          kind: "number",
          optional: true,
          doc: "Each device's memory bandwidth, bytes per second: the result then has `decode`.",
        },
        {
          name: "flopsPerSecond",
          kind: "number",
          optional: true,
          doc: "Each device's peak arithmetic, operations per second: `decode` then has its compute floor.",
        },
      ],
    },
    {
      name: "ModelCostSweepOptions",
      doc: "modelCost's opts with `tokens` an array of context lengths (1 to 4096 of them).",
      alias: 'Omit<ModelCostOptions, "tokens"> & { tokens: Vector }',
    },
    {
      name: "ModelCostKind",
      fields: [
        { name: "kind", type: "LayerKind" },
        { name: "layers", type: "number" },
        {
          name: "elementsPerToken",
          type: "number",
          doc: "Numbers one token leaves in one such layer: kvHeads·(headDim + vHeadDim), or the latent's size.",
        },
        { name: "tokensHeld", type: "number", doc: "Tokens each such layer holds per sequence." },
        { name: "bytes", type: "number", doc: "These layers' cache for the whole batch." },
      ],
    },
    {
      name: "ModelParams",
      fields: [
        { name: "total", type: "number", doc: "Every parameter, a tied embedding once." },
        { name: "active", type: "number", doc: "Those one token uses: routed experts it is not sent to left out." },
        { name: "embedding", type: "number", doc: "The input embedding (and a learned position table)." },
      ],
    },
    {
      name: "ModelPerDevice",
      doc: "One device's share under tensor parallelism.",
      fields: [
        {
          name: "sequences",
          type: "number",
          doc: "Of the batch, on the fullest copy of the model: ceil(batch / replicas).",
        },
        { name: "kvHeads", type: "number", doc: "Key-value heads it holds (a latent cache: the model's, whole)." },
        { name: "kvBytesPerToken", type: "number", doc: "One token of one sequence in every layer, on this device." },
        {
          name: "kvBytes",
          type: "number",
          doc: "Its cache of its replica's sequences at `tokens`, in whole pages of blockTokens.",
        },
        { name: "weightsBytes", type: "number", doc: "Its weights (the vocabulary padded to 64 rows under tp > 1)." },
      ],
    },
    {
      name: "ModelBudget",
      doc: "The tokens one device's KV memory holds, in whole pages, a page holding its tokens in every layer.",
      fields: [
        {
          name: "bytes",
          type: "number",
          doc: "kvBudgetBytes, or what the memory leaves after the weights and reserve.",
        },
        { name: "blocks", type: "number", doc: "floor(bytes / (blockTokens · perDevice.kvBytesPerToken))." },
        { name: "tokens", type: "number", doc: 'blocks · blockTokens: the engine\'s "KV cache size".' },
      ],
    },
    {
      name: "ModelFit",
      fields: [
        {
          name: "fits",
          type: "boolean",
          doc: "Whether each device holds its weights, its cache at `tokens` and `batch` in whole pages, and the reserve.",
        },
        { name: "maxBatch", type: "number", doc: "The largest batch at `tokens` (0 if none; at most 2^20)." },
        { name: "maxTokens", type: "number", doc: "The largest context at `batch` (0 if none; at most maxContext)." },
        { name: "usableBytes", type: "number", doc: "Per device: memoryUtilization · memory − reserveBytes." },
        { name: "spareBytes", type: "number", doc: "Per device at `tokens` and `batch`; negative when short." },
        {
          name: "limitedBy",
          type: '"weights" | "cache" | "context"',
          doc: "What stops the context: the weights alone do not fit, the memory, or the model's maxContext.",
        },
        {
          name: "devicesNeeded",
          type: "number",
          optional: true,
          doc: "The fewest devices (a tensor-parallel size the heads allow) over which each one's share of the weights and the reserve fits; absent if none up to 1024.",
        },
      ],
    },
    {
      name: "ModelDecode",
      doc: `One decoding step of the whole batch at \`tokens\` on one device: its weights read once (the input embedding a
row per sequence; a mixture of experts the E·(1 − (1 − k/E)^b) experts its b sequences touch under even routing)
and its cache, over the bandwidth; its arithmetic at the peak. Communication not counted.`,
      fields: [
        { name: "bytesPerStep", type: "number" },
        { name: "weightsBytesRead", type: "number", doc: "The weights' part of bytesPerStep." },
        { name: "kvBytesRead", type: "number", doc: "The cache's part: its sequences' cache as held (not in pages)." },
        { name: "expertsTouched", type: "number", doc: "Routed experts per MoE layer the step reads (0 if dense)." },
        {
          name: "flopsPerStep",
          type: "number",
          doc: "(linearFlops + attentionFlops) per sequence, over tensorParallel.",
        },
        { name: "memorySeconds", type: "number", doc: "bytesPerStep / bandwidth." },
        { name: "computeSeconds", type: "number", optional: true, doc: "flopsPerStep / peak, with a peak." },
        { name: "secondsPerStep", type: "number", doc: "The larger floor." },
        { name: "tokensPerSecond", type: "number", doc: "batch / secondsPerStep, every replica together." },
        { name: "bound", type: '"memory" | "compute"' },
      ],
    },
    {
      name: "ModelCostResult",
      fields: [
        { name: "kvBytes", type: "number", doc: "The cache of the whole batch at `tokens`." },
        {
          name: "kvBytesPerToken",
          type: "number",
          doc: "What one more token of one sequence adds while no window or chunk is full.",
        },
        { name: "byKind", type: "ModelCostKind[]", doc: "In the order full, sliding, chunked, mla." },
        {
          name: "attentionFlops",
          type: "number",
          doc: `QKᵀ and AV of one new token at position \`tokens\`, one sequence, a multiply-add counted as 2:
Σ over layers of 2·heads·(headDim + vHeadDim)·visible keys (sliding: min(tokens, window); chunked:
(tokens − 1) mod chunk + 1).`,
        },
        {
          name: "linearFlops",
          type: "number",
          doc: `2 per weight of the matrices one token multiplies by: attention's projections, the MLP or the
experts it is routed to with the shared ones and the router, and the output projection (even when tied).`,
        },
        {
          name: "crossoverTokens",
          type: "number",
          optional: true,
          doc: "The first context (≤ maxContext) at which attentionFlops ≥ linearFlops; absent if none.",
        },
        { name: "params", type: "ModelParams" },
        { name: "weightsBytes", type: "number", doc: "Every parameter in weightsFormat." },
        { name: "weightsFormat", type: "string", doc: "The storage costed: the file's format, or the override's." },
        { name: "beyondContext", type: "boolean", doc: "Whether `tokens` is past the model's maxContext." },
        { name: "tensorParallel", type: "number" },
        {
          name: "replicas",
          type: "number",
          doc: "devices.count / tensorParallel copies of the model, the batch spread.",
        },
        { name: "perDevice", type: "ModelPerDevice" },
        { name: "budget", type: "ModelBudget", optional: true, doc: "With kvBudgetBytes, memoryBytes or devices." },
        { name: "fit", type: "ModelFit", optional: true, doc: "With memoryBytes or devices." },
        { name: "decode", type: "ModelDecode", optional: true, doc: "With devices.bandwidthBytesPerSecond." },
        { name: "notes", type: "string[]", doc: "One sentence per default taken and per thing not counted." },
      ],
    },
    {
      name: "ModelSweepKind",
      fields: [
        { name: "kind", type: "LayerKind" },
        { name: "layers", type: "number" },
        { name: "bytes", type: "number[]" },
      ],
    },
    {
      name: "ModelCostSweepResult",
      fields: [
        { name: "tokens", type: "number[]" },
        { name: "kvBytes", type: "number[]" },
        { name: "byKind", type: "ModelSweepKind[]" },
        { name: "attentionFlops", type: "number[]" },
        {
          name: "tokensPerSecond",
          type: "number[]",
          optional: true,
          doc: "With devices.bandwidthBytesPerSecond: the decoding floor's tokens per second at each context (modelCost's decode).",
        },
      ],
    },
  ],
};
