// Exercise 2's answer card for Figure 2.2 (<llm-answer-sampling>, the kit's FigureAnswer,
// answer.js): the reader predicts the probability with which the most probable token is sampled,
// and the answer writes out, from the figure's result, the nucleus, its retained mass and that
// probability after renormalising (r.full: order, tempered, cumulative, cutoff, kept, keptMass,
// probs; r.opts; r.state's labels and values), then what the probability does not say.
import { h } from "../../dom.js";
import { fmt } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";
import { valuesOf } from "./attributes.js";
import { joinNames, quoted } from "./labels.js";

/**
 * Exercise 2: the reader predicts the probability with which the most probable token is
 * sampled; the answer gives the nucleus, its retained mass and that probability after
 * renormalising, and what the probability does not say.
 */
export class LlmAnswerSampling extends FigureAnswer {
  static figure = "llm-sampling";
  static followUp =
    "which tokens form the nucleus, what mass does it retain, and what does the probability tell you about whether the token is true?";

  prediction(r, figure) {
    const { full, opts, state } = r;
    const t = full.order[0];
    const { kind, values } = valuesOf(state);
    const input = kind === "probs" ? { probs: values } : { logits: values };
    // The same filters at temperature 1: the probability a reader gets who leaves T out.
    const atT1 = opts.temperature === 1 ? null : figure.core.sampling(input, { ...opts, temperature: 1 }).probs[t];
    return {
      label: `Probability that ${quoted(state.labels[t])} is sampled:`,
      value: full.probs[t],
      probability: true,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: full.tempered[t],
          text: `That is ${quoted(state.labels[t])}'s probability before the filter. The nucleus keeps only part of the mass, and the sampler renormalises: each kept probability is divided by the retained mass, so that they sum to 1 again.`,
        },
        {
          value: full.keptMass,
          text: "That is the mass the nucleus retains, not the token's probability: divide the token's probability by it.",
        },
        {
          value: atT1,
          text: "That leaves the temperature out: the probabilities are raised to the power 1/T and renormalised before top-k and top-p.",
        },
      ],
      otherwise:
        "Sort the tokens, most probable first, and add their probabilities until the sum reaches top-p: those tokens are the nucleus. Then divide the token's probability by the nucleus's mass.",
    };
  }

  followUpPrediction(r) {
    const { full, opts } = r;
    return {
      label: "The mass the nucleus retains:",
      value: full.keptMass,
      probability: true,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: 1,
          text: "That is the mass before the filter: every probability adds up to 1. The nucleus keeps only the most probable tokens, until their sum reaches top-p.",
        },
        {
          value: opts.topP,
          text: "That is top-p, the threshold. The retained mass is the sum of the kept tokens' probabilities: it reaches top-p or passes it with the last token kept.",
        },
      ],
      otherwise:
        "Sort the tokens, most probable first, and add their probabilities until the sum reaches top-p: that sum is the retained mass.",
    };
  }

  answer(r) {
    const { full, opts, state } = r;
    const { temperature: T, topP: p } = opts;
    const t = full.order[0];
    const names = joinNames(full.kept.map((i) => quoted(state.labels[i]))).join("");
    const last = full.cumulative[full.cutoff - 1];
    return [
      h(
        "p",
        {},
        T === 0
          ? `At temperature 0 all the mass is on the most probable token, so the nucleus is ${names} alone. `
          : [
              `Sorted most probable first, the cumulative probability first reaches top-p = ${fmt(p, 2)} `,
              `after ${full.cutoff === 1 ? "one token" : `${full.cutoff} tokens`}, at ${fmt(last, 4)}, so the nucleus is ${names}. `,
            ],
        "Its retained mass is ",
        h("strong", { class: "answer-mass" }, fmt(full.keptMass, 4)),
        ".",
      ),
      h(
        "p",
        {},
        `Renormalising divides each kept probability by that mass, so ${quoted(state.labels[t])}, with probability ${fmt(full.tempered[t], 4)} after temperature, ends with `,
        h(
          "strong",
          { class: "answer-value" },
          `${fmt(full.tempered[t], 4)}/${fmt(full.keptMass, 4)} = ${fmt(full.probs[t], 4)}`,
        ),
        ": its sampling probability among the retained tokens. Every removed token gets 0.",
      ),
      h(
        "p",
        {},
        `That number says how often the sampler picks ${quoted(state.labels[t])}, not whether it is true. `,
        "Nothing in the calculation consults a fact: a high probability, even all of it under greedy decoding, verifies nothing.",
      ),
    ];
  }
}
