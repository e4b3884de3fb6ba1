// The attention figure's examples: data only. The labels name the rows, one token each; Q and K
// are tokens×d, V is tokens×dv.
export const attentionPresets = {
  exercise: {
    label: "Exercise 1: the future key scores highest",
    labels: ["The", "cat", "sat"],
    Q: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    K: [
      [1, 0],
      [0, 1],
      [3, 0],
    ],
    V: [
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ],
    causal: true,
  },
  lookup: {
    label: "Look-up: one key matches the query",
    labels: ["Paris", "is", "the", "capital", "of", "France"],
    Q: [
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
      [4, 0, 1],
    ],
    K: [
      [4, 0, 0],
      [0, 1, 0],
      [0, 1, 0],
      [0, 2, 0],
      [0, 1, 0],
      [1, 0, 0],
    ],
    V: [
      [1, 0],
      [0, 0.2],
      [0, 0.1],
      [0, 0.5],
      [0, 0.1],
      [0.3, 0.3],
    ],
    causal: true,
  },
  uniform: {
    label: "Equal scores: an even average",
    labels: ["a", "b", "c", "d"],
    Q: [
      [1, 1],
      [1, 1],
      [1, 1],
      [1, 1],
    ],
    K: [
      [1, 1],
      [1, 1],
      [1, 1],
      [1, 1],
    ],
    V: [
      [1, 0],
      [0, 1],
      [1, 1],
      [0, 0],
    ],
    causal: false,
  },
  sharp: {
    label: "Large scores: the softmax saturates",
    labels: ["x", "y", "z"],
    Q: [
      [10, 0],
      [0, 10],
      [10, 10],
    ],
    K: [
      [10, 0],
      [0, 10],
      [5, 5],
    ],
    V: [
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ],
    causal: false,
  },
};
