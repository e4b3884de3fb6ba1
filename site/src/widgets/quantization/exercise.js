// Exercise 7's answer card for Figure 7.1 (<llm-answer-quantization>, the kit's FigureAnswer,
// answer.js): the reader predicts the smoothing factor of the channel with the largest activation
// range, then (the follow-up) its activation range after smoothing, and the answer writes out s
// and the two ranges it leaves from the figure's result (r.largestChannel, r.xAbsMax, r.wAbsMax,
// r.alpha, r.now: scales, xAbsMax, wAbsMax).
import { h, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";
import { power } from "./calculation.js";

/**
 * Exercise 7: the reader predicts the smoothing factor of the channel with the largest
 * activation range; the answer gives it and the two ranges it leaves.
 */
export class LlmAnswerQuantization extends FigureAnswer {
  static figure = "llm-quantization";
  static followUp = "what are the channel's activation and weight ranges after smoothing?";

  prediction(r, figure) {
    const j = r.largestChannel,
      J = j + 1;
    const x = r.xAbsMax[j],
      w = r.wAbsMax[j];
    const s = r.now.scales[j];
    // s with all of the range moved (α = 1) or none of it (α = 0).
    const sAt = (a) => figure.core.smoothQuant([x], [w], a).scales[0];
    return {
      label: ["Smoothing factor ", sym("s", String(J)), ` of channel ${J}:`],
      value: s,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: r.now.xAbsMax[j],
          text: `That is channel ${J}'s activation range after smoothing, max|X|/s; the question asks for s itself.`,
        },
        {
          value: r.now.wAbsMax[j],
          text: `That is channel ${J}'s weight range after smoothing, max|W|·s; the question asks for s itself.`,
        },
        // The plain ratio of the ranges, and s upside down: slips of the formula's shape.
        {
          value: x / w,
          text: "That is max|X| / max|W| without the powers: s raises the activation range to α and the weight range to 1 − α.",
        },
        {
          value: 1 / s,
          text: "That is 1/s: s is the factor the activations are divided by (and the weights multiplied by), so it is above 1 when the activation range is the larger.",
        },
        {
          value: r.alpha === 1 ? null : sAt(1),
          text: "That leaves the weight range out, as α = 1 would: with α below 1 the weight range divides s, raised to 1 − α.",
        },
      ],
      otherwise:
        "Take the channel's activation range to the power α and divide by its weight range to the power 1 − α.",
    };
  }

  followUpPrediction(r) {
    const j = r.largestChannel,
      J = j + 1;
    const s = r.now.scales[j];
    return {
      label: [
        `Channel ${J}'s activation range after smoothing, max|`,
        sym("X", String(J)),
        "|/",
        sym("s", String(J)),
        ":",
      ],
      value: r.now.xAbsMax[j],
      tolerance: 0.01,
      digits: 4,
      hints: [
        { value: r.xAbsMax[j], text: "That is the range before smoothing: the activations are divided by s." },
        { value: r.xAbsMax[j] * s, text: "The activations are divided by s, and the weights multiplied by it." },
      ],
      otherwise: `Divide the channel's activation range by s${String.fromCharCode(0x2080 + (J % 10))}; the weights' range is multiplied by it.`,
    };
  }

  answer(r) {
    const j = r.largestChannel,
      J = j + 1;
    const x = fmt(r.xAbsMax[j]),
      w = fmt(r.wAbsMax[j]),
      a = fmt(r.alpha, 2);
    const s = fmt(r.now.scales[j], 4);
    const half = r.alpha === 0.5;
    return [
      h(
        "p",
        {},
        `Channel ${J} has activation range ${x} and weight range ${w}; with α = ${a}, `,
        h(
          "span",
          { class: "answer-s" },
          "s = ",
          half ? [`√${x}/√${w}`, " = "] : null,
          power(x, a),
          " / ",
          power(w, `1 − ${a}`),
          " = ",
          h("strong", {}, s),
        ),
        ". The activation range becomes ",
        h("span", { class: "answer-x" }, `${x}/${s} = `, h("strong", {}, fmt(r.now.xAbsMax[j], 4))),
        " and the weight range ",
        h("span", { class: "answer-w" }, `${w}·${s} = `, h("strong", {}, fmt(r.now.wAbsMax[j], 4))),
        ".",
      ),
      h(
        "p",
        {},
        half
          ? "With α = 0.5 the two ranges meet at the geometric mean of the old ones, so the channel is as hard to quantise on either side. "
          : `With α = ${a} the split is uneven: larger α moves more of the range to the weights. `,
        `The product XW is unchanged, because channel ${J} of X is divided by exactly what row ${J} of W is multiplied by.`,
      ),
    ];
  }
}
