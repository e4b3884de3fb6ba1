// Exercise 3's answer card for Figure 3.1 (<llm-answer-rope>, the kit's FigureAnswer, answer.js):
// the reader predicts the raw score q̃·k̃ of the figure's q and k, then the scaled score, and the
// answer writes out, from the figure's result (r.state's q, k, m, n and d; r.now's pairs,
// pairScores, raw, scaled and offset; r.shifted's angles), the angle gap of each pair and the sum
// of their parts; a hint's value is the core's rope() at both positions 0 (figure.options()).
import { h, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";
import { DIGITS } from "./scales.js";

/**
 * Exercise 3: the reader predicts the raw score q̃·k̃ of the figure's q and k, then, as the
 * follow-up, the score q̃·k̃/√d built from it; the answer writes the raw score out as a sum of
 * per-pair cosines when it can be, then divides by √d.
 */
export class LlmAnswerRope extends FigureAnswer {
  static figure = "llm-rope";
  static followUp = "what is the score q̃·k̃/√d, and why do the positions matter only through their difference?";

  prediction(r, figure) {
    const { state: s, now } = r;
    const opts = figure.options();
    // Both vectors at position 0: the dot product without any rotation.
    const still = figure.core.rope(s.q, s.k, 0, 0, opts);
    return {
      label: ["The raw score ", sym("q̃"), "·", sym("k̃"), ", to 4 decimals:"],
      value: now.raw,
      tolerance: 0.00005,
      digits: 10,
      hints: [
        {
          value: now.scaled,
          text: `That is the score, the raw score divided by √d = √${s.d}; the raw score is the dot product before the division.`,
        },
        {
          value: still.raw,
          text: "That is the dot product of q and k with no rotation: pair i of the query turns (m − n)·θᵢ further than the key's, and that angle gap scales the pair's part by its cosine.",
        },
        {
          value: still.scaled,
          text: "That is the score with no rotation, divided by √d: the raw score is the dot product of the rotated vectors, before any division.",
        },
      ],
      otherwise:
        "Each pair contributes the dot product of its two rotated halves: for pairs equal to (1, 0) in both vectors, the cosine of (m − n)·θᵢ. Add the pairs' parts.",
    };
  }

  followUpPrediction(r) {
    const { now, state } = r;
    return {
      label: ["The score ", sym("q̃"), "·", sym("k̃"), "/√", h("var", {}, "d"), ", to 4 decimals:"],
      value: now.scaled,
      tolerance: 0.00005,
      digits: 10,
      hints: [
        {
          value: now.raw,
          text: `That is the raw score q̃·k̃ again; the score divides it by √d = √${state.d}.`,
        },
      ],
      otherwise: `Divide the raw score by √d = √${state.d}.`,
    };
  }

  answer(r) {
    const { state: s, now, shifted } = r;
    const { offset } = now;
    const gaps = shifted.angles.map(([t]) => t);
    // Every pair of q and of k is (1, 0): then each pair's part is the cosine of its angle gap.
    const unitPairs = now.pairs.every(([a, b]) => s.q[a] === 1 && s.q[b] === 0 && s.k[a] === 1 && s.k[b] === 0);
    const parts = now.pairScores.map((p) => fmt(p, DIGITS));
    return [
      h(
        "p",
        {},
        `With the query at m = ${s.m} and the key at n = ${s.n} (offset ${offset}), pair i of the query turns `,
        h("var", {}, "(m − n)"),
        "·",
        sym("θ", "i"),
        " further than the key's: ",
        gaps.map((t, i) => `${fmt(t, 10)} rad (pair ${i})`).join(", "),
        ".",
      ),
      h(
        "p",
        {},
        unitPairs
          ? [
              `Every pair of q and k is (1, 0), so each contributes the cosine of its angle: raw = `,
              gaps.map((t) => `cos(${fmt(t, 10)})`).join(" + "),
              " = ",
              parts.join(" + "),
              " = ",
            ]
          : ["The pairs contribute ", parts.join(", "), ", so raw = "],
        h("strong", { class: "answer-raw" }, fmt(now.raw, DIGITS)),
        `. Divided by √${s.d}: `,
        h("strong", { class: "answer-scaled" }, fmt(now.scaled, DIGITS)),
        ".",
      ),
      h(
        "p",
        {},
        "The positions enter only through their difference: moving both keeps every angle gap, and so the score.",
      ),
    ];
  }
}
