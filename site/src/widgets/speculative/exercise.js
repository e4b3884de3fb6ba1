// Exercise 5's answer card for Figure 5.1 (<llm-answer-speculative>, the kit's FigureAnswer,
// answer.js): the reader predicts the expected tokens per target call at the figure's α and γ,
// then the ceiling they approach as γ grows, and the answer writes out eq. 1 from the figure's
// result (r.cfg's alpha and gamma; r.now's expectedTokens, allAccepted, numerator, denominator
// and ceiling); each hint's value is a mistake a reader might make, most of them the core's
// speculativeDecoding at a wrong α or γ.
import { h } from "../../dom.js";
import { fmt } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";

/**
 * Exercise 5: the reader predicts the expected tokens per target call at the figure's α and γ;
 * the answer writes eq. 1 out and gives the ceiling as γ grows.
 */
export class LlmAnswerSpeculative extends FigureAnswer {
  static figure = "llm-speculative";
  static followUp = "what does this number approach as γ grows?";

  prediction(r, figure) {
    const { cfg, now } = r;
    const { alpha, gamma } = cfg;
    const core = figure.core;
    const tokens = (a, g) => core.speculativeDecoding({ alpha: a, gamma: g }).expectedTokens;
    // α measured as accepted ÷ proposed, in expectation: a call accepts expectedTokens − 1
    // drafts on average out of γ proposed (the estimate §5's check warns against).
    const naiveAlpha = gamma > 0 ? (now.expectedTokens - 1) / gamma : null;
    return {
      label: "Tokens per target call, on average:",
      value: now.expectedTokens,
      tolerance: 0.01,
      digits: 4,
      unit: "tokens",
      hints: [
        {
          value: now.ceiling,
          text: "That is the ceiling 1/(1 − α), the limit as γ grows without end. With γ drafts a call stops after at most γ + 1 tokens, so the geometric sum stops at α^γ.",
        },
        {
          value: tokens(1, gamma),
          text: "That is the most one call can yield, γ accepted drafts plus the target's own token; it happens only when every draft is accepted, with probability α^γ.",
        },
        {
          value: gamma > 0 ? tokens(alpha, gamma - 1) : null,
          text: "You summed 1 + α + … + α^(γ−1): a call that accepts all γ drafts also gets the target's own next token, so the sum runs to α^γ.",
        },
        // Every draft accepted independently, as if the target did not stop at a rejection.
        {
          value: 1 + alpha * gamma,
          text: "That counts each draft as accepted with probability α on its own, 1 + α·γ; but the target stops at the first rejection, so draft j counts only when drafts 1 to j are all accepted, with probability α^j.",
        },
        {
          value: naiveAlpha === null ? null : tokens(naiveAlpha, gamma),
          text: "That is eq. 1 at the α you get by dividing the accepted drafts by the proposed ones, which undercounts α: drafts after the first rejection are never checked. Here α itself is given: use it as it is.",
        },
      ],
      otherwise:
        "A call yields j + 1 tokens when the first j drafts are accepted and the next is rejected; add 1 + α + α² + … up to α^γ.",
    };
  }

  followUpPrediction(r) {
    const { cfg, now } = r;
    // With α = 1 every draft is accepted: the tokens grow with γ without a ceiling (the answer says so).
    if (!Number.isFinite(now.ceiling)) return null;
    return {
      label: "Tokens per target call as γ grows without end:",
      value: now.ceiling,
      tolerance: 0.01,
      digits: 4,
      unit: "tokens",
      hints: [
        {
          value: cfg.gamma + 1,
          text: "That is the most a call can yield at this γ. As γ grows the target still stops at the first rejection, so the expected tokens level off.",
        },
      ],
      otherwise: "In (1 − α^(γ+1)) / (1 − α), α^(γ+1) vanishes as γ grows: what is left?",
    };
  }

  answer(r) {
    const { cfg, now } = r;
    const { alpha, gamma } = cfg;
    const a = fmt(alpha, 2);
    if (alpha === 1) {
      return h(
        "p",
        {},
        `With α = 1 every drafted token is accepted, so each target call yields γ + 1 = `,
        h("strong", { class: "answer-expected" }, fmt(now.expectedTokens, 4)),
        " tokens, and there is no ceiling: longer drafts keep paying.",
      );
    }
    return [
      h(
        "p",
        {},
        `With α = ${a} and γ = ${gamma}, the expected number of tokens per target call is (1 − α`,
        h("sup", {}, "γ+1"),
        ") / (1 − α) = (1 − ",
        a,
        h("sup", {}, String(gamma + 1)),
        `) / (1 − ${a}) = (1 − ${fmt(now.allAccepted, 6)}) / ${fmt(now.denominator, 4)} = ${fmt(now.numerator, 6)} / ${fmt(now.denominator, 4)} = `,
        h("strong", { class: "answer-expected" }, fmt(now.expectedTokens, 4)),
        " tokens.",
      ),
      h(
        "p",
        {},
        "As γ grows, α",
        h("sup", {}, "γ+1"),
        ` vanishes and the expected tokens approach the ceiling 1 / (1 − ${a}) = `,
        h("strong", { class: "answer-ceiling" }, fmt(now.ceiling, 4)),
        ": the target still stops at the first rejection, so a longer draft adds less and less.",
      ),
    ];
  }
}
