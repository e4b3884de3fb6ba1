// The cost figure's configurations: data only. Each real model's layers, query heads, key-value
// heads and head dimension are read from its published config.json (head dimension =
// hidden size / attention heads), and so are its width `hidden` (hidden_size) and feed-forward
// size `intermediate` (intermediate_size); `gatedMlp` is a feed-forward of three matrices
// (SwiGLU: gate, up and down projections, as in Llama and Mistral) rather than two (GPT-2).
// `tokens` is the context length it was trained for. Exercise 4's layer has no width: hidden
// and intermediate 0 leave the linear layers out.
export const costPresets = {
  exercise: {
    label: "Exercise 4: one small layer",
    tokens: 16,
    heads: 8,
    kvHeads: 8,
    headDim: 32,
    layers: 1,
    hidden: 0,
    intermediate: 0,
    gatedMlp: false,
  },
  gpt2: {
    label: "GPT-2 small",
    tokens: 1024,
    heads: 12,
    kvHeads: 12,
    headDim: 64,
    layers: 12,
    hidden: 768,
    intermediate: 3072,
    gatedMlp: false,
    source:
      "openai-community/gpt2, config.json: n_layer 12, n_head 12, n_embd 768, n_inner null (4·n_embd = 3072, two matrices), n_ctx 1024 (Radford et al. 2019)",
  },
  llama2_7b: {
    label: "Llama-2-7B",
    tokens: 4096,
    heads: 32,
    kvHeads: 32,
    headDim: 128,
    layers: 32,
    hidden: 4096,
    intermediate: 11008,
    gatedMlp: true,
    source:
      "meta-llama/Llama-2-7b-hf, config.json: 32 layers, 32 attention and 32 key-value heads, hidden size 4096, intermediate size 11008 (SwiGLU), 4096 positions (Touvron et al. 2023)",
  },
  llama3_8b: {
    label: "Llama-3-8B",
    tokens: 8192,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    layers: 32,
    hidden: 4096,
    intermediate: 14336,
    gatedMlp: true,
    source:
      "meta-llama/Meta-Llama-3-8B, config.json: 32 layers, 32 attention and 8 key-value heads, hidden size 4096, intermediate size 14336 (SwiGLU), 8192 positions",
  },
  mistral_7b: {
    label: "Mistral-7B",
    tokens: 8192,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    layers: 32,
    hidden: 4096,
    intermediate: 14336,
    gatedMlp: true,
    source:
      "mistralai/Mistral-7B-v0.1, config.json: 32 layers, 32 attention and 8 key-value heads, hidden size 4096, intermediate size 14336 (SwiGLU), sliding window 4096, max_position_embeddings 32768; context length 8192 from Table 1 of Jiang et al. 2023",
    note: "The two sources disagree on its context: the paper's Table 1 gives 8,192 tokens, used here, while config.json allows 32,768 positions. Each layer attends over a sliding window of 4,096 tokens, and the paper's rolling buffer cache keeps only that many keys and values; whether the cache stops growing at 4,096 tokens depends on the inference engine, and one that keeps every token's keys and values stores what the figure counts.",
  },
  llama3_70b: {
    label: "Llama-3-70B",
    tokens: 8192,
    heads: 64,
    kvHeads: 8,
    headDim: 128,
    layers: 80,
    hidden: 8192,
    intermediate: 28672,
    gatedMlp: true,
    source:
      "meta-llama/Meta-Llama-3-70B, config.json: 80 layers, 64 attention and 8 key-value heads, hidden size 8192, intermediate size 28672 (SwiGLU), 8192 positions",
  },
};

// Storage formats of the cache, in bytes per stored value.
export const precisions = [
  { key: "fp32", label: "fp32 (4 bytes)", bytes: 4 },
  { key: "fp16", label: "fp16 / bf16 (2 bytes)", bytes: 2 },
  { key: "int8", label: "int8 (1 byte)", bytes: 1 },
  { key: "int4", label: "int4 (½ byte)", bytes: 0.5 },
];
