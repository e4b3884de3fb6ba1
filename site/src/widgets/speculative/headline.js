// Figure 5.1's headline (.headline): the expected tokens per target call
// (.speculative-headline-expected) with their ceiling, the walltime improvement at the cost ratio
// (.speculative-headline-speedup) and the best draft length for these α and c
// (.speculative-headline-best), from r.cfg.costRatio, r.now's expectedTokens, ceiling and speedup,
// and r.best.
import { h, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { GAMMA_MAX } from "./attributes.js";

/** The headline: a part of the figure (speculative.js): the nodes it places, and render(r) from compute()'s result. */
export class Headline {
  constructor() {
    this.box = h("p", { class: "headline" });
    this.nodes = [this.box];
  }

  render({ cfg, now, best }) {
    const c = cfg.costRatio;
    patch(
      this.box,
      "Each call of the target model yields ",
      h("strong", { class: "speculative-headline-expected" }, fmt(now.expectedTokens, 4)),
      " tokens on average",
      Number.isFinite(now.ceiling)
        ? [" (never more than ", h("strong", {}, fmt(now.ceiling, 4)), " however long the draft)"]
        : " (no ceiling: every draft is accepted)",
      ". With drafting at ",
      sym("c"),
      ` = ${fmt(c, 2)}, that is a walltime improvement of `,
      h("strong", { class: "speculative-headline-speedup" }, `${fmt(now.speedup, 3)}×`),
      "; the best draft length for these ",
      sym("α"),
      " and ",
      sym("c"),
      " is ",
      h(
        "strong",
        { class: "speculative-headline-best" },
        sym("γ"),
        ` = ${best.gamma}${best.gamma === GAMMA_MAX ? " or more" : ""}`,
      ),
      ` (${fmt(best.speedup, 3)}×).`,
    );
  }
}
