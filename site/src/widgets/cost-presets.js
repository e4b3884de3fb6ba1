// The cost figure's configurations: data only. Each real model's layers, query heads, key-value
// heads and head dimension are read from its published config.json (head dimension =
// hidden size / attention heads); `tokens` is the context length it was trained for.
export const costPresets = {
  exercise: {
    label: "Exercise 4: one small layer",
    tokens: 16, heads: 8, kvHeads: 8, headDim: 32, layers: 1,
  },
  gpt2: {
    label: "GPT-2 small",
    tokens: 1024, heads: 12, kvHeads: 12, headDim: 64, layers: 12,
    source: "openai-community/gpt2, config.json: n_layer 12, n_head 12, n_embd 768, n_ctx 1024 (Radford et al. 2019)",
  },
  llama2_7b: {
    label: "Llama-2-7B",
    tokens: 4096, heads: 32, kvHeads: 32, headDim: 128, layers: 32,
    source: "meta-llama/Llama-2-7b-hf, config.json: 32 layers, 32 attention and 32 key-value heads, hidden size 4096, 4096 positions (Touvron et al. 2023)",
  },
  llama3_8b: {
    label: "Llama-3-8B",
    tokens: 8192, heads: 32, kvHeads: 8, headDim: 128, layers: 32,
    source: "meta-llama/Meta-Llama-3-8B, config.json: 32 layers, 32 attention and 8 key-value heads, hidden size 4096, 8192 positions",
  },
  mistral_7b: {
    label: "Mistral-7B",
    tokens: 8192, heads: 32, kvHeads: 8, headDim: 128, layers: 32,
    source: "mistralai/Mistral-7B-v0.1, config.json: 32 layers, 32 attention and 8 key-value heads, hidden size 4096, sliding window 4096 (Jiang et al. 2023)",
    note: "v0.1 attends over a sliding window of 4,096 tokens and keeps a rolling cache of that size, so its real cache stops growing at 4,096 tokens; the figure counts a full cache.",
  },
  llama3_70b: {
    label: "Llama-3-70B",
    tokens: 8192, heads: 64, kvHeads: 8, headDim: 128, layers: 80,
    source: "meta-llama/Meta-Llama-3-70B, config.json: 80 layers, 64 attention and 8 key-value heads, hidden size 8192, 8192 positions",
  },
};

// Storage formats of the cache, in bytes per stored value.
export const precisions = [
  { key: "fp32", label: "fp32 (4 bytes)", bytes: 4 },
  { key: "fp16", label: "fp16 / bf16 (2 bytes)", bytes: 2 },
  { key: "int8", label: "int8 (1 byte)", bytes: 1 },
  { key: "int4", label: "int4 (½ byte)", bytes: 0.5 },
];
