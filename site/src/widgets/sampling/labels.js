// How Figures 2.1 and 2.2 write a token in their text (the distribution's rows, the calculation,
// the headline, the summary and the exercise's answer). Draws nothing itself.

/** A token as a label: without its leading space, a visible ␣ if nothing else is left. */
export const tokenLabel = (t) => String(t).trim() || "␣";
export const quoted = (t) => `“${tokenLabel(t)}”`;

/** Names (strings or nodes) joined as a list in words: "a", "a and b", "a, b and c". */
export function joinNames(names) {
  return names.flatMap((x, i) => (i === 0 ? [x] : [i === names.length - 1 ? " and " : ", ", x]));
}
