// Figure 5.1's distribution (.speculative-dist): the tokens one target call yields at the figure's
// γ (r.cfg.gamma), as a bar for each count from 1 to γ + 1 with its probability (r.now.tokenProbs),
// heights relative to the tallest, and their mean (r.now.expectedTokens).
import { h, patch } from "../../dom.js";
import { fmt, pct } from "../../format.js";

/** The distribution: a part of the figure (speculative.js): the nodes it places, and render(r) from compute()'s result. */
export class Distribution {
  /** @param {string} id the id of its title, which names the list of bars */
  constructor(id) {
    this.id = id;
    this.bars = h("div", { class: "speculative-dist" });
    this.nodes = [this.bars];
  }

  /** The distribution of tokens one target call yields, as bars (heights relative to the tallest). */
  render({ cfg, now }) {
    const tallest = Math.max(...now.tokenProbs);
    const dense = now.tokenProbs.length > 8;
    patch(
      this.bars,
      h("p", { class: "speculative-dist-title", id: this.id }, `Tokens from one target call at γ = ${cfg.gamma}`),
      h(
        "ol",
        {
          class: dense ? "speculative-bars dense" : "speculative-bars",
          "aria-labelledby": this.id,
        },
        now.tokenProbs.map((p, j) =>
          h(
            "li",
            {
              "aria-label": `${j + 1} token${j ? "s" : ""}: ${pct(p, 2)}`,
              title: `${j + 1} token${j ? "s" : ""}: ${pct(p, 2)}`,
            },
            h("span", { class: "value", "aria-hidden": "true" }, pct(p, 1)),
            h("span", { class: "bar", style: { height: `${tallest > 0 ? (80 * p) / tallest : 0}%` } }),
            h("span", { class: "count", "aria-hidden": "true" }, String(j + 1)),
          ),
        ),
      ),
      h(
        "p",
        { class: "speculative-dist-note" },
        "Its mean is the expected number of tokens, ",
        fmt(now.expectedTokens, 4),
        ".",
      ),
    );
  }
}
