// Figure 4.2's settings, declared once: the attributes of <llm-model> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide), the core's limits they keep
// to, and the lists its controls offer (the cache's precisions, the weights' formats). Pure data:
// no part of the figure draws here.
import { modelPresets } from "llmmath:model-presets";
import { DEVICES } from "./model-devices.js";

// The core's limits (core/include/llmmath/model.hpp, bindings/api/model.js): tokens 1 … 2^30,
// batch 1 … 2^20, bytes per cached element in (0, 64].
export const MAX_TOKENS = 2 ** 30;
export const MAX_BATCH = 2 ** 20;
// Memory in GiB (2^30 bytes, as an accelerator's memory is counted), up to 1 PiB.
export const MAX_MEMORY = 2 ** 20;
export const GIB = 2 ** 30;
// A configuration travels in a link (the config attribute) when it is at most this many characters
// written without spaces; a larger one is named by the built-in model instead (Copy link's note).
export const CONFIG_MAX = 1500;

// The storage formats of the cache: bytes per cached element (scales not counted).
export const KV_PRECISIONS = [
  { key: "fp32", label: "fp32 (4 bytes)", bytes: 4 },
  { key: "bf16", label: "bf16 (2 bytes)", bytes: 2 },
  { key: "fp16", label: "fp16 (2 bytes)", bytes: 2 },
  { key: "fp8", label: "fp8 (1 byte)", bytes: 1 },
  { key: "int8", label: "int8 (1 byte)", bytes: 1 },
  { key: "int4", label: "int4 (½ byte)", bytes: 0.5 },
];
export const kvBytesOf = (key) => KV_PRECISIONS.find((p) => p.key === key)?.bytes ?? NaN;
// How the weights are stored: as the file says, or a format every linear layer is put in (the
// core's weightFormat; its names are the core's).
export const WEIGHT_FORMATS = [
  { key: "file", label: "as the file stores them" },
  { key: "fp32", label: "fp32 (4 bytes)" },
  { key: "bf16", label: "bf16 (2 bytes)" },
  { key: "fp16", label: "fp16 (2 bytes)" },
  { key: "fp8", label: "fp8, a scale per matrix" },
  { key: "int8", label: "int8, a scale per row" },
  { key: "int4", label: "int4, a scale and zero per 128" },
  { key: "mxfp4", label: "MXFP4, a scale per 32" },
];
// The largest device count and tensor-parallel size the core takes.
export const MAX_DEVICES = 1024;
// A custom device's limits: memory up to 1 PiB (in GiB), bandwidth and peak far above any device.
export const MAX_BANDWIDTH = 1e6; // GB/s
export const MAX_PEAK = 1e6; // TFLOPS
// What the figure shows when its attributes name nothing else.
export const DEFAULT_DEVICE = "h100-sxm";
export const DEFAULT_MODEL = modelPresets.some((p) => p.id === "llama-3.1-8b") ? "llama-3.1-8b" : modelPresets[0].id;
/** A built-in model (its id, name and config.json text) by its id, or null. */
export const presetById = (id) => modelPresets.find((p) => p.id === id) ?? null;

/** The figure's attributes (see the kit's attributes.js for what each field means). */
export const ATTRIBUTES = [
  {
    name: "model",
    type: "choice",
    choices: [...modelPresets.map((p) => p.id), "custom"],
    default: DEFAULT_MODEL,
    preset: true,
    doc: `The built-in model, by its id (${modelPresets.map((p) => p.id).join(", ")}), whose config.json the figure reads; custom: the configuration given by config or inline.`,
  },
  {
    name: "config",
    type: "text",
    maxLength: CONFIG_MAX,
    default: "",
    example:
      '{"model_type":"llama","num_hidden_layers":16,"hidden_size":2048,"num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":8192,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true}',
    label: "config.json",
    doc: `A config.json written without spaces (at most ${CONFIG_MAX} characters), used instead of the model; a larger one goes in a <script type="application/json"> child of the element.`,
  },
  {
    name: "tokens",
    type: "integer",
    min: 1,
    max: MAX_TOKENS,
    default: 32768,
    doc: "The context: tokens in each sequence (the chart reaches the model's maximum context).",
  },
  {
    name: "batch",
    type: "integer",
    min: 1,
    max: MAX_BATCH,
    default: 1,
    doc: "The batch: sequences served together, each with its own cache.",
  },
  {
    name: "kv-precision",
    type: "choice",
    choices: KV_PRECISIONS.map((p) => p.key),
    default: "bf16",
    doc: "How the cache is stored: fp32 4 bytes per element, bf16 and fp16 2, fp8 and int8 1, int4 0.5 (scales not counted).",
  },
  {
    name: "weight-format",
    type: "choice",
    choices: WEIGHT_FORMATS.map((f) => f.key),
    default: "file",
    doc: "How the weights are stored: file, as the config.json says (torch_dtype and quantization_config); or fp32, bf16, fp16, fp8, int8, int4 or mxfp4 for every linear layer's matrix, the embedding, LM head, norms and routers kept in 16 bits.",
  },
  {
    name: "mla-cache",
    type: "choice",
    choices: ["latent", "expanded"],
    default: "latent",
    doc: "How a latent-attention (MLA) model's cache is counted: latent, the compressed vector per token and layer as vLLM and SGLang keep it, or expanded, every head's keys and values as transformers' eager path keeps them.",
  },
  {
    name: "device",
    type: "choice",
    choices: [...DEVICES.map((d) => d.id), "custom"],
    default: DEFAULT_DEVICE,
    doc: `The GPU the model is served on (${DEVICES.map((d) => d.id).join(", ")}), with the memory its driver reports and the bandwidth and peak its data sheet states; custom: the memory, bandwidth and peak given.`,
  },
  {
    name: "devices",
    type: "integer",
    min: 1,
    max: MAX_DEVICES,
    default: 1,
    doc: "How many of those devices: the model is split over tensor-parallel of them, and further devices hold copies.",
  },
  {
    name: "split",
    type: "choice",
    choices: ["most", "none"],
    default: "most",
    doc: "How the devices share the model: most, split over as many of them as the model's heads allow (tensor parallelism), the rest holding copies; none, a whole copy on each device.",
  },
  {
    name: "memory",
    type: "number",
    min: 0,
    max: MAX_MEMORY,
    default: 0,
    unset: 0,
    doc: "A custom device's memory in GiB (2^30 bytes); more than 0 makes the device custom; 0 on a custom device: the H100 SXM's.",
  },
  {
    name: "bandwidth",
    type: "number",
    min: 0,
    max: MAX_BANDWIDTH,
    default: 0,
    unset: 0,
    doc: "A custom device's memory bandwidth in GB/s (10^9 bytes a second); more than 0 makes the device custom; 0 on a custom device: the H100 SXM's.",
  },
  {
    name: "peak",
    type: "number",
    min: 0,
    max: MAX_PEAK,
    default: 0,
    unset: 0,
    doc: "A custom device's peak 16-bit arithmetic in TFLOPS; more than 0 makes the device custom; 0 on a custom device: the H100 SXM's.",
  },
  {
    name: "utilization",
    type: "number",
    minExclusive: 0,
    max: 1,
    default: 0.9,
    doc: "The share of each device's memory the engine takes for weights, cache and reserve: 0.9 is vLLM's default (gpu_memory_utilization).",
  },
  {
    name: "reserve",
    type: "number",
    min: 0,
    max: MAX_MEMORY,
    default: 1,
    doc: "GiB of that share set aside on each device for what is neither weights nor cache: activations, the CUDA context and graphs (an engine measures it at start-up; 1 GiB by default).",
  },
  {
    name: "sliding-cache",
    type: "choice",
    choices: ["window", "full"],
    default: "window",
    doc: "How the engine keeps sliding-window and chunked layers: window, only their window or chunk (engines that evict, as vLLM and SGLang); full, every token (engines that do not).",
  },
  {
    name: "block",
    type: "integer",
    min: 1,
    max: 1024,
    default: 16,
    doc: "The engine's page of cache in tokens (vLLM's block_size, 16 by default): caches are whole pages.",
  },
];
