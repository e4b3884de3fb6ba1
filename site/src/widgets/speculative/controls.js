// The sliders of Figure 5.1 (.sliders.llm-bar): the acceptance rate α, the draft length γ and the
// cost ratio c, each setting one attribute. They follow the result too: each slider's readout
// says the value the core used (r.cfg: alpha, gamma, costRatio), and γ's spoken value counts the
// drafted tokens.
import { h, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { slider } from "../../kit/controls.js";
import { GAMMA_MAX } from "./attributes.js";

/**
 * The three sliders: a part of the figure (speculative.js) that holds controls, so it is made
 * with the figure whose state it sets; sync(state) sets them, render(r) writes their readouts.
 */
export class Controls {
  /** @param {import("./speculative.js").LlmSpeculative} figure */
  constructor(figure) {
    this.alpha = slider({
      label: ["Acceptance rate ", sym("α")],
      min: 0,
      max: 1,
      step: 0.01,
      oninput: (v) => figure.set({ alpha: v }),
    });
    this.gamma = slider({
      label: ["Draft length ", sym("γ")],
      min: 0,
      max: GAMMA_MAX,
      step: 1,
      oninput: (v) => figure.set({ gamma: v }),
    });
    this.cost = slider({
      label: ["Cost ratio ", sym("c"), " (draft step / target step)"],
      min: 0,
      max: 1,
      step: 0.01,
      oninput: (v) => figure.set({ costRatio: v }),
    });
    this.nodes = [h("div", { class: "sliders llm-bar" }, this.alpha.row, this.gamma.row, this.cost.row)];
  }

  sync(s) {
    this.alpha.input.value = String(s.alpha);
    this.gamma.input.value = String(s.gamma);
    this.cost.input.value = String(s.costRatio);
  }

  render({ cfg }) {
    const { alpha, gamma, costRatio: c } = cfg;
    this.alpha.out.value = fmt(alpha, 2);
    this.gamma.out.value = String(gamma);
    this.cost.out.value = fmt(c, 2);
    this.gamma.input.setAttribute("aria-valuetext", `${gamma} drafted token${gamma === 1 ? "" : "s"}`);
  }
}
