// Figure 5.1's calculation (.worked) under its subhead, with the reader's numbers: what one call
// yields and with what probabilities (r.cfg's alpha and gamma, r.now.tokenProbs), the expected
// tokens (r.now's allAccepted, numerator, denominator, expectedTokens), the ceiling
// (r.now.ceiling), the walltime improvement at the cost ratio (r.cfg.costRatio, r.now's roundCost
// and speedup) and the best draft length (r.best).
import { h, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { GAMMA_MAX } from "./attributes.js";

/** The calculation: a part of the figure (speculative.js): the nodes it places, and render(r) from compute()'s result. */
export class Calculation {
  constructor() {
    this.worked = h("div", { class: "worked" });
    this.nodes = [h("p", { class: "speculative-subhead" }, "The calculation with these numbers"), this.worked];
  }

  /** The calculation with the reader's numbers substituted. */
  render({ cfg, now, best }) {
    const { alpha, gamma, costRatio: c } = cfg;
    const a = fmt(alpha, 2);
    const oneMinusAlpha = now.denominator;
    const alphaPower = now.allAccepted;
    const power = () => h("span", {}, a, h("sup", {}, String(gamma + 1)));
    const probs = now.tokenProbs.map((p, j) => `P(${j + 1}) = ${fmt(p, 4)}`).join(", ");
    patch(
      this.worked,
      h(
        "ol",
        {},
        h(
          "li",
          {},
          h("strong", {}, "One call. "),
          `The draft proposes γ = ${gamma} token${gamma === 1 ? "" : "s"}; the target checks them in one call. `,
          "Each is accepted with probability α, and the first rejection ends the call with a token of the target's own; ",
          gamma ? "if all are accepted the call adds one more. " : "with no draft the call yields exactly one token. ",
          "So a call yields ",
          sym("j"),
          " + 1 tokens with probability α",
          h("sup", {}, "j"),
          "(1 − α) for ",
          sym("j"),
          " < γ, and γ + 1 with probability α",
          h("sup", {}, "γ"),
          `: ${probs}.`,
        ),
        h(
          "li",
          {},
          h("strong", {}, "Expected tokens. "),
          alpha === 1
            ? [
                "With α = 1 every draft is accepted: ",
                sym("E"),
                ` = γ + 1 = `,
                h("strong", {}, fmt(now.expectedTokens, 4)),
                ".",
              ]
            : [
                sym("E"),
                " = (1 − α",
                h("sup", {}, "γ+1"),
                ") / (1 − α) = (1 − ",
                power(),
                `) / (1 − ${a}) = (1 − ${fmt(alphaPower, 6)}) / ${fmt(oneMinusAlpha, 4)} = ${fmt(now.numerator, 6)} / ${fmt(oneMinusAlpha, 4)} = `,
                h("strong", {}, fmt(now.expectedTokens, 4)),
                ".",
              ],
        ),
        h(
          "li",
          {},
          h("strong", {}, "Ceiling. "),
          Number.isFinite(now.ceiling)
            ? [
                "As γ grows, α",
                h("sup", {}, "γ+1"),
                ` shrinks to 0, so `,
                sym("E"),
                ` approaches 1 / (1 − α) = 1 / ${fmt(oneMinusAlpha, 4)} = `,
                h("strong", {}, fmt(now.ceiling, 4)),
                ".",
              ]
            : "At α = 1 there is none: every extra draft token is one more token per call.",
        ),
        h(
          "li",
          {},
          h("strong", {}, "Walltime. "),
          "A call costs one target step plus γ draft steps at ",
          sym("c"),
          " each, so the improvement over plain decoding is ",
          sym("E"),
          " / (γ",
          sym("c"),
          ` + 1) = ${fmt(now.expectedTokens, 4)} / (${gamma}·${fmt(c, 2)} + 1) = ${fmt(now.expectedTokens, 4)} / ${fmt(now.roundCost, 4)} = `,
          h("strong", {}, `${fmt(now.speedup, 3)}×`),
          ".",
        ),
        h(
          "li",
          {},
          h("strong", {}, "Best draft length. "),
          `Trying every γ from 0 to ${GAMMA_MAX} at α = ${a} and c = ${fmt(c, 2)}, the largest improvement is `,
          h("strong", {}, `${fmt(best.speedup, 3)}×`),
          ` at γ = ${best.gamma}${best.gamma === GAMMA_MAX ? " (the end of the range: longer drafts may do better still)" : ""}.`,
        ),
      ),
    );
  }
}
