// The last panel of Figure 5.1 (.speculative-measure): α measured back from a simulated log of
// target calls. Its fields set the calls logged and the seed (rounds, seed), New seed picks
// another; the body (.speculative-measure-body) shows what the log counts and three estimates of
// α, each with the tokens per call the figure would predict from it, beside the figure's α, from
// r.measure (rounds, seed, log, estimates; null at γ = 0), r.cfg's alpha and gamma and
// r.now.expectedTokens.
import { h, keep, patch, sym } from "../../dom.js";
import { fmt, fmtCount } from "../../format.js";
import { numberField, scrollBox } from "../../kit/controls.js";
import { MAX_ROUNDS, SEED_RANGE } from "./attributes.js";

/**
 * The log's settings and what it measures: a part of the figure (speculative.js) that holds
 * controls, so it is made with the figure whose state it sets; sync(state) sets its fields,
 * render(r) draws the measurement.
 */
export class Measurement {
  /** @param {import("./speculative.js").LlmSpeculative} figure */
  constructor(figure) {
    this.rounds = numberField({
      label: "Target calls logged",
      min: 1,
      max: MAX_ROUNDS,
      step: 1,
      value: "",
      oninput: (rounds) => figure.set({ rounds }),
    });
    this.seed = numberField({
      label: "Seed",
      min: 0,
      max: SEED_RANGE - 1,
      step: 1,
      value: "",
      oninput: (seed) => figure.set({ seed }),
    });
    this.rounds.input.setAttribute("inputmode", "numeric");
    this.seed.input.setAttribute("inputmode", "numeric");
    this.measured = h("div", { class: "speculative-measure-body" });
    this.nodes = [
      h(
        "div",
        { class: "speculative-measure" },
        h("p", { class: "speculative-subhead" }, "Measuring α from a log"),
        h(
          "div",
          { class: "controls" },
          this.rounds.row,
          this.seed.row,
          h("button", { type: "button", class: "speculative-newseed", onclick: () => figure.newSeed() }, "New seed"),
        ),
        this.measured,
      ),
    ];
  }

  sync(s) {
    // A field that already shows the state's value is left as typed (or empty while NaN).
    if (!Object.is(this.rounds.input.valueAsNumber, s.rounds)) this.rounds.input.value = String(s.rounds);
    if (!Object.is(this.seed.input.valueAsNumber, s.seed)) this.seed.input.value = String(s.seed);
  }

  render(r) {
    const { cfg, now } = r;
    // The simulated log does not depend on the cost ratio c: its panel stays as it is when only c moves.
    patch(
      this.measured,
      keep([cfg.alpha, cfg.gamma, now.expectedTokens, r.measure], () => measureFor(r)),
    );
  }
}

/** The simulated log's counts and the three estimates of α, each with the tokens per call it predicts. */
function measureFor({ cfg, now, measure }) {
  if (!measure)
    return h(
      "p",
      { class: "hint" },
      "With γ = 0 no draft is proposed, so there is no acceptance rate to measure: set γ to 1 or more.",
    );
  const { log, estimates, rounds, seed } = measure;
  const a = fmt(cfg.alpha, 2);
  const c = (x) => fmtCount(x);
  const row = (label, value, cls) => h("tr", {}, h("th", { scope: "row" }, label), h("td", { class: cls }, value));
  const how = {
    proposed: [
      "accepted / proposed",
      ` = ${c(log.accepted)} / ${c(log.proposed)}`,
      "Wrong: it counts the drafts after a rejection, which were never checked, as rejected.",
    ],
    checked: [
      "accepted / checked",
      ` = ${c(log.accepted)} / ${c(log.checked)}`,
      "Right: every checked draft was accepted with probability α.",
    ],
    mean: [
      ["α solving ", sym("E"), "(α) = mean tokens per call"],
      ` = ${fmt(log.meanTokens, 4)}`,
      ["Right: the formula for ", sym("E"), " solved for α at the measured mean."],
    ],
  };
  return [
    h(
      "p",
      {},
      `A simulated log of ${c(rounds)} target calls at α = ${a}, γ = ${cfg.gamma} (seed ${seed}): each checked draft is accepted with probability α, and a call stops at its first rejection.`,
    ),
    h(
      "div",
      { class: "speculative-measure-tables" },
      h(
        "table",
        { class: "speculative-log" },
        h("caption", {}, "What the log counts"),
        h(
          "tbody",
          {},
          row("Target calls", c(log.rounds)),
          row("Drafts proposed, calls × γ", c(log.proposed), "speculative-proposed"),
          row("Drafts checked, up to each call's first rejection", c(log.checked), "speculative-checked"),
          row("Drafts accepted", c(log.accepted), "speculative-accepted"),
          row("Tokens produced, accepted + one per call", c(log.produced)),
          row("Mean tokens per call", fmt(log.meanTokens, 4), "speculative-mean"),
        ),
      ),
      scrollBox(
        "Estimates of α",
        "speculative-estimates-scroll",
        h(
          "table",
          { class: "speculative-estimates" },
          h("caption", {}, "Three estimates of α, and the tokens per call the figure predicts from each"),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Estimate"),
              h("th", { scope: "col" }, "α"),
              h("th", { scope: "col" }, "Tokens per call"),
            ),
          ),
          h(
            "tbody",
            {},
            estimates.map(({ key, alpha, predicted }) =>
              h(
                "tr",
                { class: key === "proposed" ? "speculative-wrong" : "speculative-right", "data-estimate": key },
                h(
                  "th",
                  { scope: "row" },
                  how[key][0],
                  h("span", { class: "speculative-from" }, how[key][1]),
                  h("span", { class: "speculative-verdict" }, how[key][2]),
                ),
                h("td", { class: "speculative-estimate" }, fmt(alpha, 4)),
                h("td", { class: "speculative-predicted" }, fmt(predicted, 4)),
              ),
            ),
            h(
              "tr",
              { class: "speculative-true" },
              h("th", { scope: "row" }, "The figure's α, for comparison"),
              h("td", {}, fmt(cfg.alpha, 4)),
              h("td", { class: "speculative-predicted" }, fmt(now.expectedTokens, 4)),
            ),
          ),
        ),
      ),
    ),
  ];
}
