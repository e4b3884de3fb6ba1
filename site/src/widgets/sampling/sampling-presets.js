// The sampling figure's examples: data only. `kind` says whether `values` are logits (any finite
// numbers) or probabilities (≥ 0, summing to 1). The labels (the tokens) carry their leading
// space, as a tokenizer's would, so prompt + token reads as the continued text. Every logit here is made up
// for teaching; none comes from a real model.
export const samplingPresets = {
  australia: {
    label: "Capital of Australia: the favourite is wrong",
    note: "Illustrative logits, not from a real model. The capital is Canberra, yet Sydney has the largest logit.",
    prompt: "The capital of Australia is",
    labels: [" Sydney", " Canberra", " Melbourne", " Perth", " Brisbane", " Adelaide"],
    kind: "logits",
    values: [3.2, 2.9, 1.5, 0.6, 0.4, 0],
    temperature: 1,
    topK: 0,
    topP: 0.9,
  },
  flat: {
    label: "Flat: many plausible words",
    note: "Illustrative logits: eight answers of similar weight, so the nucleus is large.",
    prompt: "My favourite colour is",
    labels: [" blue", " green", " red", " purple", " yellow", " orange", " black", " pink"],
    kind: "logits",
    values: [1, 0.9, 0.8, 0.6, 0.5, 0.4, 0.2, 0.1],
    temperature: 1,
    topK: 0,
    topP: 0.9,
  },
  peaked: {
    label: "Peaked: one clear favourite",
    note: "Illustrative logits: one token dominates, so the nucleus shrinks to it.",
    prompt: "The opposite of hot is",
    labels: [" cold", " warm", " cool", " freezing", " not", " icy"],
    kind: "logits",
    values: [6, 2.5, 2, 1, 0.5, 0],
    temperature: 1,
    topK: 0,
    topP: 0.9,
  },
  exercise: {
    label: "Exercise 2: probabilities 0.4, 0.4, 0.1, 0.1",
    note: "Probabilities given directly; temperature T acts on them as on logits log p.",
    prompt: "The sky is",
    labels: [" blue", " grey", " clear", " dark"],
    kind: "probs",
    values: [0.4, 0.4, 0.1, 0.1],
    temperature: 1,
    topK: 0,
    topP: 0.8,
  },
};
