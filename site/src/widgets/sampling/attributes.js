// Figures 2.1 and 2.2's settings, declared once: the attributes of <llm-sampling> (the kit reads
// them, kit/attributes.js: its state, its link, embed.html and the guide), the limits they keep
// to, and what the state's fields mean together: an example's fields (presetFields) and which of
// logits and probs holds the values (valuesOf). Pure data: no part of the figure draws here.
import { samplingPresets } from "./sampling-presets.js";

export const MAX_TOKENS = 12;
export const MAX_DRAWS = 100;
export const MAX_TOKEN_CHARS = 40;
export const MAX_PROMPT = 200;
// sample() takes seeds in [0, 2^32); "New seed" picks one there.
export const SEED_RANGE = 2 ** 32;

export const sameList = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
/** The values the sampler starts from: { kind: "logits" | "probs", values }. */
export const valuesOf = (s) =>
  s.probs.length ? { kind: "probs", values: s.probs } : { kind: "logits", values: s.logits };

/** An example's fields of the state: its prompt, labels, values (as logits or probs) and filters. */
export function presetFields(name) {
  const p = samplingPresets[name];
  return {
    prompt: p.prompt,
    labels: p.labels,
    logits: p.kind === "logits" ? p.values : [],
    probs: p.kind === "probs" ? p.values : [],
    temperature: p.temperature,
    topK: p.topK,
    topP: p.topP,
  };
}

const australia = samplingPresets.australia;

export const ATTRIBUTES = [
  {
    name: "preset",
    type: "choice",
    choices: Object.keys(samplingPresets),
    default: "australia",
    preset: true,
    doc: "The example to start from; its prompt, labels, values, temperature, top-k and top-p apply unless given below.",
  },
  {
    name: "temperature",
    type: "number",
    min: 0,
    max: 2.5,
    default: australia.temperature,
    doc: "The temperature T that divides the logits before the softmax (0 is greedy decoding).",
  },
  {
    name: "top-k",
    type: "integer",
    min: 0,
    max: MAX_TOKENS,
    default: australia.topK,
    unset: 0,
    doc: "How many of the most probable tokens top-k keeps (0 = off; at least the number of tokens keeps all).",
  },
  {
    name: "top-p",
    type: "number",
    min: 0.01,
    max: 1,
    default: australia.topP,
    unset: 1,
    doc: "The cumulative mass the nucleus must reach (1 = off).",
  },
  {
    name: "prompt",
    type: "text",
    maxLength: MAX_PROMPT,
    default: australia.prompt,
    doc: "The text the draws continue.",
  },
  {
    name: "labels",
    aliases: ["tokens"],
    type: "labels",
    minLength: 1,
    maxLength: MAX_TOKENS,
    maxChars: MAX_TOKEN_CHARS,
    default: australia.labels,
    label: "Tokens",
    doc: "The candidate next tokens, separated by | (keep a leading space where the token starts a word).",
  },
  {
    name: "logits",
    type: "numbers",
    minLength: 0,
    maxLength: MAX_TOKENS,
    min: -1000,
    max: 1000,
    default: australia.values,
    label: "Logits",
    doc: "One logit per token, comma-separated; replaces the example's values.",
  },
  {
    name: "probs",
    type: "numbers",
    minLength: 0,
    maxLength: MAX_TOKENS,
    min: 0,
    max: 1,
    default: [],
    label: "Probabilities",
    doc: "One probability per token instead of logits, comma-separated and summing to 1; used over logits when both are given.",
  },
  {
    name: "seed",
    type: "integer",
    min: 0,
    max: SEED_RANGE - 1,
    default: 42,
    doc: "The seed of the draws: the same seed replays the same draws.",
  },
  { name: "count", type: "integer", min: 1, max: MAX_DRAWS, default: 10, doc: "How many draws are written out." },
  {
    name: "draws",
    type: "choice",
    choices: ["on", "off"],
    default: "on",
    label: "Seeded draws shown",
    doc: "Whether the seeded draws are shown (off hides them).",
  },
];
