// Figure 2.1's headline (.headline): how many tokens the sampler keeps and the probability with
// which the most probable one is drawn, or, at temperature 0, that it is the only one; from
// r.full (order, cutoff, probs), r.opts.temperature and r.state.labels.
import { h, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { quoted } from "./labels.js";

/** The headline: a part of the figure (sampling.js): the nodes it places, and render(r) from compute()'s result. */
export class Headline {
  constructor() {
    this.box = h("p", { class: "headline" });
    this.nodes = [this.box];
  }

  render({ full, opts, state }) {
    const T = opts.temperature;
    const n = state.labels.length;
    const top = full.order[0];
    patch(
      this.box,
      T === 0
        ? ["Temperature 0 is greedy: only ", h("strong", {}, quoted(state.labels[top])), " can be drawn, every time."]
        : [
            `The sampler keeps ${full.cutoff} of ${n} token${n === 1 ? "" : "s"}. The most probable, `,
            h("strong", {}, quoted(state.labels[top])),
            ", is drawn with probability ",
            h("strong", {}, fmt(full.probs[top], 3)),
            ".",
          ],
    );
  }
}
