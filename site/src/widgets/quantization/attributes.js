// Figure 7.1's settings, declared once: the attributes of <llm-quantization> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide), the sizes of X and W they
// keep to, and an example's fields of the state (presetFields). Pure data: no part of the figure
// draws here.
import { quantizationPresets } from "./quantization-presets.js";

const MAX_TOKENS = 8;
const MAX_CHANNELS = 8;
const MAX_OUTPUTS = 8;

/** An example's fields of the state: its activations X and weights W. */
export function presetFields(name) {
  const p = quantizationPresets[name];
  return { x: p.X, w: p.W };
}

export const ATTRIBUTES = [
  {
    name: "preset",
    type: "choice",
    choices: Object.keys(quantizationPresets),
    default: "outlier",
    preset: true,
    doc: "The example to start from; its activations X and weights W apply unless given below.",
  },
  {
    name: "bits",
    type: "integer",
    min: 2,
    max: 16,
    default: 8,
    doc: "The bit width b of the symmetric integer quantisation of X and W.",
  },
  {
    name: "alpha",
    type: "number",
    min: 0,
    max: 1,
    default: 0.5,
    doc: "SmoothQuant's migration strength α (the slider steps by 0.05).",
  },
  {
    name: "channel",
    type: "integer",
    min: 0,
    max: MAX_CHANNELS,
    default: 0,
    doc: "The channel (1-based) whose calculation is written out; 0 picks the channel with the largest activation range.",
  },
  {
    name: "x",
    type: "matrix",
    maxRows: MAX_TOKENS,
    maxCols: MAX_CHANNELS,
    default: [[1]],
    label: "Activations X",
    doc: "Activations X, one row per token, one column per channel (at most 8 × 8).",
  },
  {
    name: "w",
    type: "matrix",
    maxRows: MAX_CHANNELS,
    maxCols: MAX_OUTPUTS,
    default: [[1]],
    label: "Weights W",
    doc: "Weights W, one row per channel of X, one column per output (at most 8 outputs).",
  },
];
