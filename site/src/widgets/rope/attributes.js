// Figure 3.1's settings, declared once: the attributes of <llm-rope> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide), the limits they keep to, and
// what an example sets (presetFields) and which of its fields make it "this example"
// (EXAMPLE_FIELDS). Pure data: no part of the figure draws here.
import { ropePresets } from "./rope-presets.js";

// Bases the slider steps through: RoFormer's 10,000 (its eq. 15), Llama 3's 500,000, and
// neighbours on either side.
export const BASES = [10, 100, 1000, 10000, 100000, 500000, 1000000];
// Half-widths of the chart's offset axis; every whole offset in it is one call of the core.
export const RANGES = ["16", "64", "256", "512"];
export const MAX_D = 16;
// The position sliders cover 0 … 255 (controls.js); the number fields beside them take any
// position up to MAX_POSITION.
export const MAX_POSITION = 1000000;
// The fields a preset sets that make it "this example" (the range of the chart and the explained
// pair are views of it): when one of them differs, the example list shows "(your own)".
export const EXAMPLE_FIELDS = ["d", "useFreqs", "base", "freqs", "pairing", "q", "k", "m", "n"];

/** An example's fields of the state: every field but the explained pair, which it resets to 0. */
export function presetFields(name) {
  if (!Object.hasOwn(ropePresets, name)) return {};
  const { d, useFreqs, base, freqs, pairing, q, k, m, n, range } = ropePresets[name];
  return { d, useFreqs, base, freqs, pairing, q, k, m, n, range: String(range), pair: 0 };
}

const position = (name, doc) => ({
  name,
  type: "integer",
  min: 0,
  max: MAX_POSITION,
  default: name === "m" ? 2 : 0,
  doc,
});
// The core takes any finite q, k and θ whose rotated scores stay finite: entries up to 10^150 keep
// q·k within 16 · 10^300 at the largest d (16), and frequencies up to 10^300 keep m·θ under 10^306 at
// the largest position.
const MAX_ENTRY = 1e150;
const MAX_FREQ = 1e300;
const vector = (name, label, doc) => ({
  name,
  type: "numbers",
  minLength: 2,
  maxLength: MAX_D,
  min: -MAX_ENTRY,
  max: MAX_ENTRY,
  default: [1, 0, 1, 0],
  label,
  doc,
});

/** The figure's attributes (see the kit's attributes.js for what each field means). */
export const ATTRIBUTES = [
  {
    name: "preset",
    type: "choice",
    choices: Object.keys(ropePresets),
    default: "exercise",
    preset: true,
    doc: "The example to start from; its vectors, frequencies, pairing, positions and chart range apply unless given below.",
  },
  position("m", "The position m of the query."),
  position("n", "The position n of the key; only the offset m − n changes the score."),
  {
    name: "d",
    type: "integer",
    min: 2,
    max: MAX_D,
    default: 4,
    doc: "The dimension d of q and k, even (an odd d is raised by 1); q, k and given frequencies are fitted to it.",
  },
  {
    name: "base",
    type: "number",
    min: BASES[0],
    max: BASES[BASES.length - 1],
    default: 10000,
    doc: "The base b of the frequencies θᵢ = b^(−2i/d), used when use-freqs is false.",
  },
  {
    name: "use-freqs",
    type: "boolean",
    default: true,
    doc: "Whether the frequencies are the given freqs (true) or come from the base (false).",
  },
  {
    name: "freqs",
    type: "numbers",
    minLength: 0,
    maxLength: MAX_D / 2,
    min: -MAX_FREQ,
    max: MAX_FREQ,
    default: [0.01, 0.0001],
    label: "Frequencies θ",
    doc: "The given frequencies θᵢ in radians per position, one per pair (d/2 numbers; fitted to d/2 when use-freqs is true).",
  },
  {
    name: "pairing",
    type: "choice",
    choices: ["interleaved", "half"],
    default: "interleaved",
    doc: "Which coordinates form a pair: interleaved (x[2i], x[2i+1]) as in RoFormer and Meta's Llama code, or half (x[i], x[i+d/2]) as in GPT-NeoX and the Hugging Face Llama code.",
  },
  vector("q", "Query q", "The query vector q, d numbers (fitted to d: extra numbers dropped, missing pairs (1, 0))."),
  vector("k", "Key k", "The key vector k, d numbers (fitted to d like q)."),
  {
    name: "range",
    type: "choice",
    choices: RANGES,
    default: "256",
    doc: "The half-width of the chart's offset axis: offsets m − n from −range to range are drawn.",
  },
  {
    name: "pair",
    type: "integer",
    min: 0,
    max: MAX_D / 2 - 1,
    default: 0,
    doc: "The pair (0-based, below d/2) whose calculation is written out.",
  },
];
