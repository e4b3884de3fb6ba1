// The RoPE figure's examples: data only. Each sets every field of the figure's state except the
// explained pair (which a preset resets to 0); range is the half-width of the chart's offset axis.
export const ropePresets = {
  exercise: {
    label: "Exercise: d = 4, θ = (0.01, 0.0001)",
    d: 4, useFreqs: true, base: 10000, freqs: [0.01, 0.0001], pairing: "interleaved",
    q: [1, 0, 1, 0], k: [1, 0, 1, 0], m: 2, n: 0, range: 256,
  },
  roformer: {
    label: "RoFormer: base 10,000, d = 8",
    d: 8, useFreqs: false, base: 10000, freqs: [], pairing: "interleaved",
    q: [1, 0, 1, 0, 1, 0, 1, 0], k: [1, 0, 1, 0, 1, 0, 1, 0], m: 5, n: 2, range: 64,
  },
  mixed: {
    label: "Different q and k: base 10,000, d = 8",
    d: 8, useFreqs: false, base: 10000, freqs: [], pairing: "interleaved",
    q: [0.8, 0.6, -0.5, 1, 0.3, -0.9, 1, 0.2], k: [1, -0.2, 0.4, 0.9, -0.6, -0.5, 0.7, 0.7], m: 12, n: 3, range: 64,
  },
  // Llama 3's base in the Hugging Face layout: its conversion permutes the query and key
  // projections so that halves pair up where Meta's own code pairs neighbours.
  hf_llama3: {
    label: "Llama 3 base 500,000, d = 16, halves as in Hugging Face and GPT-NeoX",
    d: 16, useFreqs: false, base: 500000, freqs: [], pairing: "half",
    q: [1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1], k: [1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1],
    m: 200, n: 40, range: 512,
  },
};
