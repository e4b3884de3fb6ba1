// The quantisation figure's examples: data only. X is six tokens × four channels of activations,
// channel 2 carrying the outlier; W is the same four channels × three outputs. In the first
// example channel 2's ranges are those of exercise 7 (max|X₂| = 8, max|W₂| = 0.5).
const W0 = [
  [0.31, -0.12, 0.22],
  [-0.5, 0.38, 0.07],
  [0.9, 0.55, -0.8],
  [0.14, -0.26, 0.35],
];
const withChannel2 = (values) =>
  [
    [0.42, 0, 0.25, -0.9],
    [-0.81, 0, -0.33, 0.64],
    [0.27, 0, 0.5, -0.47],
    [1.0, 0, -0.18, 0.3],
    [-0.55, 0, 0.12, -1.1],
    [0.73, 0, -0.41, 0.86],
  ].map((row, i) => row.map((x, j) => (j === 1 ? values[i] : x)));

export const quantizationPresets = {
  outlier: { label: "Outlier channel", X: withChannel2([-8, 6.3, -7.1, 5.2, 7.6, -4.4]), W: W0 },
  strong: { label: "Strong outlier", X: withChannel2([-64, 50, -57, 42, 61, -35]), W: W0 },
  none: { label: "No outlier", X: withChannel2([-1, 0.79, -0.89, 0.65, 0.95, -0.55]), W: W0 },
};
