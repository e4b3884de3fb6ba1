// The mixture-of-experts figure's examples: data only. Router logits, 8 tokens × 4 experts,
// with the same token labels. In "between", tokens 1–4 go to expert 1 and 5–8 to expert 2: the
// traffic split (0.5, 0.5, 0, 0) of exercise 8.
export const MOE_LABELS = ["The", "cat", "sat", "on", "a", "warm", "mat", "."];

export const moePresets = {
  balanced: {
    label: "Balanced",
    logits: [
      [2.0, 0.1, -0.3, 0.4],
      [0.2, 1.8, 0.3, -0.2],
      [-0.1, 0.4, 2.2, 0.1],
      [0.3, -0.2, 0.1, 1.9],
      [1.7, 0.5, 0.2, -0.4],
      [0.1, 2.1, -0.3, 0.6],
      [0.4, 0.0, 1.6, 0.2],
      [-0.3, 0.5, 0.2, 2.0],
    ],
  },
  between: {
    label: "Half the experts idle",
    logits: [
      [1.6, 0.9, 0.2, -0.1],
      [1.2, 0.8, 0.4, 0.1],
      [1.9, 1.1, -0.2, 0.3],
      [1.4, 0.6, 0.5, 0.2],
      [0.7, 1.5, 0.1, 0.3],
      [0.9, 1.8, 0.4, -0.3],
      [0.5, 1.3, 0.6, 0.2],
      [1.0, 1.7, -0.1, 0.4],
    ],
  },
  collapsed: {
    label: "Collapsed onto one expert",
    logits: [
      [3.1, 0.4, -0.2, 0.1],
      [2.8, 0.9, 0.3, -0.5],
      [3.4, 0.2, 0.5, 0.0],
      [2.6, 1.1, -0.3, 0.4],
      [3.0, 0.6, 0.2, -0.1],
      [2.9, 0.3, 0.7, 0.2],
      [3.3, 0.8, -0.4, 0.5],
      [2.7, 0.5, 0.1, 0.3],
    ],
  },
};
