// Figure 2.1's calculation (.sampling-worked) with the reader's numbers, in the sampler's order:
// temperature, top-k, top-p, renormalising and the draws, as steps the kit draws (workedSteps,
// kit/worked.js); from r.full (order, tempered, topKMass, topKProbs, cumulative, cutoff, kept,
// keptMass, probs), r.opts (temperature, topK, topP), r.state's labels and values, and r.draw.
import { h, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { workedSteps } from "../../kit/worked.js";
import { valuesOf } from "./attributes.js";
import { joinNames, tokenLabel } from "./labels.js";

/** The calculation: a part of the figure (sampling.js): the nodes it places, and render(r) from compute()'s result. */
export class Calculation {
  constructor() {
    this.worked = h("div", { class: "worked sampling-worked" });
    this.nodes = [this.worked];
  }

  /** The calculation with the reader's numbers, in the sampler's order. */
  render(r) {
    const { full, opts, state, draw } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const { labels } = state;
    const { kind, values } = valuesOf(state);
    const n = labels.length;
    const name = (i) => h("span", { class: "sampling-tok" }, tokenLabel(labels[i]));
    const order = full.order;
    const inline = (items) => h("ul", { class: "sampling-inline" }, items);
    const logit =
      kind === "probs"
        ? (i) => h("span", {}, fmt(values[i]), h("sup", {}, `1/${fmt(T)}`))
        : (i) => h("span", {}, "e", h("sup", {}, `${fmt(values[i])}/${fmt(T)}`));
    const m = full.cutoff;
    const temperature =
      T === 0
        ? [
            "T = 0 is the greedy limit: all probability goes to the largest ",
            kind === "probs" ? "probability, " : "logit, ",
            name(order[0]),
            ` (${fmt(values[order[0]])}); every other token gets 0.`,
          ]
        : [
            kind === "probs"
              ? [
                  "Each probability is raised to 1/T and renormalised, ",
                  sym("p", "i"),
                  h("sup", {}, "1/T"),
                  " / Σ",
                  sym("p", "j"),
                  h("sup", {}, "1/T"),
                  ",",
                ]
              : [
                  "Each logit is divided by T = ",
                  fmt(T),
                  ", then softmax: ",
                  "e",
                  h("sup", {}, [sym("z", "i"), "/T"]),
                  " / Σ e",
                  h("sup", {}, [sym("z", "j"), "/T"]),
                  ",",
                ],
            " listed most probable first:",
            inline(order.map((i) => h("li", {}, name(i), ": ", logit(i), " / Σ = ", fmt(full.tempered[i], 4)))),
          ];
    const topK =
      k === 0
        ? `Off (k = 0): all ${n} tokens go on.`
        : k >= n
          ? `k = ${k} is at least the ${n} tokens there are: all go on.`
          : [
              `k = ${k} keeps `,
              joinNames(order.slice(0, k).map(name)),
              `, whose mass is ${fmt(full.topKMass, 4)}; renormalised:`,
              inline(
                order
                  .slice(0, k)
                  .map((i) =>
                    h(
                      "li",
                      {},
                      name(i),
                      `: ${fmt(full.tempered[i], 4)} / ${fmt(full.topKMass, 4)} = ${fmt(full.topKProbs[i], 4)}`,
                    ),
                  ),
              ),
            ];
    const topP =
      T === 0
        ? "Nothing to cut: the one token left already holds all the mass."
        : p === 1
          ? "Off (p = 1): every token left goes on."
          : [
              `Add up the probabilities${k > 0 && k < n ? " after top-k" : ""}, most probable first, until the sum reaches p = ${fmt(p, 2)}:`,
              inline(
                order
                  .slice(0, m)
                  .map((i, rank) =>
                    h(
                      "li",
                      {},
                      rank === 0
                        ? [name(i), ` ${fmt(full.cumulative[0], 4)}`]
                        : [
                            `${fmt(full.cumulative[rank - 1], 4)} + `,
                            name(i),
                            ` ${fmt(full.topKProbs[i], 4)} = ${fmt(full.cumulative[rank], 4)}`,
                          ],
                      rank === m - 1 ? h("strong", {}, ` ≥ ${fmt(p, 2)}: stop`) : "",
                    ),
                  ),
              ),
              `The nucleus is the ${m === 1 ? "one token" : `${m} tokens`} above`,
              m < n
                ? ["; ", joinNames(order.slice(m).map(name)), m === n - 1 ? " is" : " are", " removed."]
                : "; nothing is removed.",
            ];
    // The calculation's steps, drawn by the kit (worked.js): each a lead of text and inline lists.
    patch(
      this.worked,
      h("p", {}, "The calculation with these numbers:"),
      workedSteps([
        { name: "Temperature", lead: temperature },
        { name: "Top-k", lead: topK },
        { name: "Top-p", lead: topP },
        {
          name: "Renormalise",
          lead: [
            `The kept tokens held ${fmt(full.keptMass, 4)} of the tempered probability; dividing by it makes them sum to 1:`,
            inline(
              full.kept.map((i) =>
                h(
                  "li",
                  {},
                  name(i),
                  `: ${fmt(full.tempered[i], 4)} / ${fmt(full.keptMass, 4)} = `,
                  h("strong", {}, fmt(full.probs[i], 4)),
                ),
              ),
            ),
            m < n ? "Every removed token gets 0." : "",
          ],
        },
        draw && {
          name: "Draw",
          lead: `Each of the ${draw.count} draws picks a token with these final probabilities, using uniform random numbers from seed ${draw.seed}.`,
        },
      ]),
    );
  }
}
