// Figure 4.1's settings, declared once: the attributes of <llm-cost> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide) and the core's limits they
// keep to. Pure data: no part of the figure draws here.
import { costPresets } from "./cost-presets.js";

// The core's limits (core/include/llmmath/cost.hpp), Figure 4.2's too: tokens up to 2^30; heads,
// key-value heads, head dimension and layers up to 2^12; batch up to 2^20; bytes per value in
// (0, 64]; model width up to 2^20 and feed-forward size up to 2^22. tests/browser/cost.test.js
// holds each attribute's range to what attentionCost takes.
export const MAX_TOKENS = 2 ** 30;
export const MAX_FACTOR = 2 ** 12;
export const MAX_BATCH = 2 ** 20;
export const MAX_BYTES = 64;
export const MAX_HIDDEN = 2 ** 20;
export const MAX_INTERMEDIATE = 2 ** 22;

const ex = costPresets.exercise;

/**
 * The attributes of <llm-cost>: the preset gives the shape and context, the others override it.
 * The precision list is a view of kv-bytes-per-element, and the tokens slider a view of tokens.
 */
export const ATTRIBUTES = [
  {
    name: "preset",
    type: "choice",
    choices: Object.keys(costPresets),
    default: "exercise",
    preset: true,
    doc: "The configuration to start from (exercise 4's layer or a real model); its context and shape apply unless given below.",
  },
  {
    name: "tokens",
    type: "integer",
    min: 1,
    max: MAX_TOKENS,
    default: ex.tokens,
    doc: "The context n: tokens in each sequence.",
  },
  {
    name: "heads",
    type: "integer",
    min: 1,
    max: MAX_FACTOR,
    default: ex.heads,
    doc: "The query heads h of each layer.",
  },
  {
    name: "kv-heads",
    type: "integer",
    min: 1,
    max: MAX_FACTOR,
    default: ex.kvHeads,
    doc: "The key-value heads h_kv of each layer, a divisor of the query heads (equal to them for multi-head attention).",
  },
  {
    name: "head-dim",
    type: "integer",
    min: 1,
    max: MAX_FACTOR,
    default: ex.headDim,
    doc: "The head dimension d: the length of one head's query, key and value.",
  },
  { name: "layers", type: "integer", min: 1, max: MAX_FACTOR, default: ex.layers, doc: "The number of layers L." },
  {
    name: "batch",
    type: "integer",
    min: 1,
    max: MAX_BATCH,
    default: 1,
    doc: "The batch b: sequences processed together.",
  },
  // The model's sizes as attentionCost names them (the width and the feed-forward size by
  // config.json's names: the attribute hidden is HTML's, which hides any element); the names
  // this figure had before (bytes-per-value, d-model, ffn-dim, gated) are still read.
  {
    name: "kv-bytes-per-element",
    aliases: ["bytes-per-value"],
    type: "number",
    minExclusive: 0,
    max: MAX_BYTES,
    default: 2,
    doc: "The bytes p that store one cached value, more than 0 (fp32 4, fp16 2, int8 1, int4 0.5); the precision list shows it.",
  },
  {
    name: "hidden-size",
    aliases: ["d-model"],
    type: "integer",
    min: 0,
    max: MAX_HIDDEN,
    default: ex.hidden,
    unset: 0,
    doc: "The model width d_model (a config.json's hidden_size; attentionCost's hidden). With intermediate-size, the linear layers are counted and compared with attention; 0 leaves them out.",
  },
  {
    name: "intermediate-size",
    aliases: ["ffn-dim"],
    type: "integer",
    min: 0,
    max: MAX_INTERMEDIATE,
    default: ex.intermediate,
    unset: 0,
    doc: "The feed-forward size d_ff (a config.json's intermediate_size; attentionCost's intermediate), given with hidden-size; 0 leaves the linear layers out.",
  },
  {
    name: "gated-mlp",
    aliases: ["gated"],
    type: "boolean",
    default: ex.gatedMlp,
    doc: "Whether the feed-forward is gated, three matrices as in Llama's SwiGLU, rather than two as in GPT-2.",
  },
];
