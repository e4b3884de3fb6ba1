// Figure 7.1's headline (.headline): the levels the bit width gives, and how many of them the
// channel with the smallest activation range uses before and after smoothing; from r.bits,
// r.alpha, r.quantX.qmax, r.smallestChannel, r.xLevels and r.xLevelsSmoothed.
import { h, patch } from "../../dom.js";
import { fmt } from "../../format.js";

/** The headline: a part of the figure (quantization.js): the nodes it places, and render(r) from compute()'s result. */
export class Headline {
  constructor() {
    this.box = h("p", { class: "headline" });
    this.nodes = [this.box];
  }

  render(r) {
    const w = r.smallestChannel + 1;
    patch(
      this.box,
      `With ${r.bits} bits the levels run from −${r.quantX.qmax} to ${r.quantX.qmax}. `,
      `Channel ${w}, the smallest, uses levels up to ±`,
      h("strong", { class: "x-levels" }, r.xLevels[r.smallestChannel]),
      ` of X as it is, and up to ±`,
      h("strong", { class: "x-levels-smoothed" }, r.xLevelsSmoothed[r.smallestChannel]),
      ` after smoothing with α = ${fmt(r.alpha, 2)}.`,
    );
  }
}
