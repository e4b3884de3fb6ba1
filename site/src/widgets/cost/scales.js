// What Figure 4.1's parts share, as Observable Plot's marks share their scales: the tokens axis
// of both charts and the tick of their count axes, and how many digits a count keeps in the
// narrow places (the cards, the charts' descriptions, the summary).
import { superscript } from "../../format.js";

// Both charts' tokens axis (plot.js's tokensAxis): n, a tick at every sixteenfold.
export const TOKENS_N = { every: 4, label: "tokens n (log scale)", name: "tokens n" };

// The result cards are narrow: counts of more than ten digits are shown in scientific notation.
export const CARD_DIGITS = 10;

/** A count's tick on a logarithmic axis: 1 to 1000 as they are, then 10⁴, 10⁵, … */
export function countTick(t) {
  const k = Math.round(Math.log10(t));
  return k <= 3 ? String(t) : `10${superscript(k)}`;
}
