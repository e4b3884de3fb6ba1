// What Figure 3.1's parts share, as Observable Plot's marks share their scales: the decimals a
// score is written with (the headline, the readout of a move, the calculation, the summary and
// the exercise's answer), and a move of both positions written with its sign.
import { grouped } from "../../format.js";

// Scores are written to 10 decimals.
export const DIGITS = 10;

/** A move of both positions with its sign: +10, −1, +1,000. */
export const signed = (x) => (x >= 0 ? `+${grouped(x)}` : `−${grouped(-x)}`);
