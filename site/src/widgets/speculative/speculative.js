// <llm-speculative>: speculative decoding (Leviathan et al. 2023). The reader sets the
// acceptance rate α, the draft length γ and the cost ratio c of a draft step to a target step,
// and sees the expected tokens per target call against γ with its ceiling, the walltime
// improvement and the best γ for their c, the distribution of tokens one call yields, and the
// calculation written out with their numbers. A last panel measures α back from a simulated log
// of many target calls (the core's seeded speculativeMeasure): the counts a practitioner logs
// and three estimates of α, with the tokens per call the figure would predict from each.
//
// Attributes: see attributes.js (alpha, gamma, cost-ratio, rounds, seed).
// Properties: result ({ cfg, now, curve, best, measure }), state ({ alpha, gamma, costRatio,
// rounds, seed }).
//
// Its settings are declared in attributes.js, its exercise in exercise.js.
import { h, keep, patch, sym } from "../../dom.js";
import { fmt, fmtCount, pct } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { markSettings, numberField, scrollBox, slider } from "../../kit/controls.js";
import { lineChart } from "../../kit/plot.js";
import { ATTRIBUTES, GAMMAS, GAMMA_MAX, MAX_ROUNDS, SEED_RANGE } from "./attributes.js";
import { LlmAnswerSpeculative } from "./exercise.js";
import css from "./speculative.css";

export class LlmSpeculative extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  build() {
    this.alpha = slider({
      label: ["Acceptance rate ", sym("α")],
      min: 0,
      max: 1,
      step: 0.01,
      oninput: (v) => this.set({ alpha: v }),
    });
    this.gamma = slider({
      label: ["Draft length ", sym("γ")],
      min: 0,
      max: GAMMA_MAX,
      step: 1,
      oninput: (v) => this.set({ gamma: v }),
    });
    this.cost = slider({
      label: ["Cost ratio ", sym("c"), " (draft step / target step)"],
      min: 0,
      max: 1,
      step: 0.01,
      oninput: (v) => this.set({ costRatio: v }),
    });
    this.headline = h("p", { class: "headline" });
    this.chart = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "speculative-legend" });
    this.bars = h("div", { class: "speculative-dist" });
    this.worked = h("div", { class: "worked" });
    this.rounds = numberField({
      label: "Target calls logged",
      min: 1,
      max: MAX_ROUNDS,
      step: 1,
      value: "",
      oninput: (rounds) => this.set({ rounds }),
    });
    this.seed = numberField({
      label: "Seed",
      min: 0,
      max: SEED_RANGE - 1,
      step: 1,
      value: "",
      oninput: (seed) => this.set({ seed }),
    });
    this.rounds.input.setAttribute("inputmode", "numeric");
    this.seed.input.setAttribute("inputmode", "numeric");
    markSettings({
      alpha: this.alpha.input,
      gamma: this.gamma.input,
      "cost-ratio": this.cost.input,
      rounds: this.rounds.input,
      seed: this.seed.input,
    });
    this.measured = h("div", { class: "speculative-measure-body" });
    this.frame.append(
      h("div", { class: "sliders llm-bar" }, this.alpha.row, this.gamma.row, this.cost.row),
      this.headline,
      h("div", { class: "speculative-figure" }, h("div", {}, this.chart, this.legend), this.bars),
      h("p", { class: "speculative-subhead" }, "The calculation with these numbers"),
      this.worked,
      h(
        "div",
        { class: "speculative-measure" },
        h("p", { class: "speculative-subhead" }, "Measuring α from a log"),
        h(
          "div",
          { class: "controls" },
          this.rounds.row,
          this.seed.row,
          h("button", { type: "button", class: "speculative-newseed", onclick: () => this.newSeed() }, "New seed"),
        ),
        this.measured,
      ),
    );
  }

  newSeed() {
    // Choosing a seed is not part of the mathematics; the log itself comes from the core.
    this.set({ seed: Math.floor(Math.random() * SEED_RANGE) }, { sync: true });
  }

  sync() {
    const s = this.state;
    this.alpha.input.value = String(s.alpha);
    this.gamma.input.value = String(s.gamma);
    this.cost.input.value = String(s.costRatio);
    // A field that already shows the state's value is left as typed (or empty while NaN).
    if (!Object.is(this.rounds.input.valueAsNumber, s.rounds)) this.rounds.input.value = String(s.rounds);
    if (!Object.is(this.seed.input.valueAsNumber, s.seed)) this.seed.input.value = String(s.seed);
  }

  compute() {
    const cfg = { alpha: this.state.alpha, gamma: this.state.gamma, costRatio: this.state.costRatio };
    const core = this.core;
    const now = core.speculativeDecoding(cfg);
    // Every draft length of the chart in one call, with the one of the largest walltime
    // improvement (the shortest on a tie, as GAMMAS ascend).
    const sweep = core.speculativeSweep({ ...cfg, gamma: GAMMAS });
    const curve = sweep.gamma.map((gamma, i) => ({
      gamma,
      expectedTokens: sweep.expectedTokens[i],
      speedup: sweep.speedup[i],
    }));
    const best = { gamma: sweep.bestGamma, speedup: sweep.bestSpeedup };
    return { cfg, now, curve, best, measure: this.measure(cfg) };
  }

  /**
   * The simulated log at the figure's α and γ, and eq. 1 at each of its three estimates of α
   * (the tokens per call the figure would predict if fed that estimate); null without drafts.
   */
  measure({ alpha, gamma }) {
    if (gamma === 0) return null;
    const { rounds, seed } = this.state;
    const log = this.core.speculativeMeasure({ alpha, gamma, rounds, seed });
    return {
      rounds,
      seed,
      log,
      estimates: [
        { key: "proposed", alpha: log.acceptedPerProposed, predicted: log.expectedTokensPerProposed },
        { key: "checked", alpha: log.acceptedPerChecked, predicted: log.expectedTokensPerChecked },
        { key: "mean", alpha: log.alphaFromMeanTokens, predicted: log.expectedTokensFromMeanTokens },
      ],
    };
  }

  render(r) {
    const { cfg, now, best } = r;
    const { alpha, gamma, costRatio: c } = cfg;
    this.alpha.out.value = fmt(alpha, 2);
    this.gamma.out.value = String(gamma);
    this.cost.out.value = fmt(c, 2);
    this.gamma.input.setAttribute("aria-valuetext", `${gamma} drafted token${gamma === 1 ? "" : "s"}`);

    patch(
      this.headline,
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
    this.renderChart(r);
    this.renderBars(r);
    this.renderWorked(r);
    // The simulated log does not depend on the cost ratio c: its panel stays as it is when only c moves.
    patch(
      this.measured,
      keep([cfg.alpha, cfg.gamma, now.expectedTokens, r.measure], () => this.measureFor(r)),
    );
  }

  /**
   * Tokens per call, the improvement and the best draft length; only the best draft length while
   * exercise 5 hides the tokens per call (the improvement would give them away).
   */
  summary({ cfg, now, best }, { concealed }) {
    const where = `α = ${fmt(cfg.alpha, 2)}, γ = ${cfg.gamma}, c = ${fmt(cfg.costRatio, 2)}`;
    const bestText = `the best draft length is γ = ${best.gamma}${best.gamma === GAMMA_MAX ? " or more" : ""}`;
    if (concealed) return `${where}: ${bestText}; the tokens per call are hidden until you answer the exercise.`;
    return `${where}: ${fmt(now.expectedTokens, 4)} tokens per target call, ${fmt(now.speedup, 3)}× faster; ${bestText}.`;
  }

  /** The simulated log's counts and the three estimates of α, each with the tokens per call it predicts. */
  measureFor({ cfg, now, measure }) {
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

  renderChart({ cfg, now, curve, best }) {
    const maxE = Math.max(...curve.map((p) => p.expectedTokens));
    // Show the ceiling line when it is not far above the curve; otherwise say where it is.
    const ceilingShown = Number.isFinite(now.ceiling) && now.ceiling <= 1.6 * maxE;
    // A little headroom so the ceiling line does not sit on the frame.
    const y = linearAxis(1.08 * (ceilingShown ? Math.max(maxE, now.ceiling) : maxE));
    patch(
      this.chart,
      lineChart({
        title: "Expected tokens per target call and walltime improvement against the draft length",
        x: { min: 0, max: GAMMA_MAX, ticks: [0, 5, 10, 15, 20], label: "draft length γ" },
        y: { ...y, label: "tokens per call / improvement ×" },
        series: [
          {
            points: curve.map((p) => [p.gamma, p.expectedTokens]),
            class: "series speculative-tokens",
            label: "expected tokens per call",
          },
          {
            points: curve.map((p) => [p.gamma, p.speedup]),
            class: "series speculative-speedup",
            label: "walltime improvement ×",
          },
        ],
        // The values are the chart's, as the eye reads them (two digits): exercise 5 asks for the
        // tokens per call to within 0.01.
        describe: `Marked: the figure's draft length γ = ${cfg.gamma}, and the best, γ = ${best.gamma}${ceilingShown ? `; the ceiling 1/(1 − α) is ${fmt(now.ceiling, 3)}` : ""}.`,
        hlines: ceilingShown
          ? [{ y: now.ceiling, label: `ceiling ${fmt(now.ceiling, 3)}`, class: "guide speculative-ceiling" }]
          : [],
        vlines: [{ x: best.gamma, class: "guide speculative-best" }],
        markers: [
          { x: cfg.gamma, y: now.expectedTokens, class: "marker speculative-tokens" },
          { x: cfg.gamma, y: now.speedup, class: "marker speculative-speedup" },
        ],
      }),
    );
    patch(
      this.legend,
      h(
        "li",
        {},
        h("span", { class: "swatch speculative-tokens", "aria-hidden": "true" }),
        "Expected tokens per target call",
      ),
      h("li", {}, h("span", { class: "swatch speculative-speedup", "aria-hidden": "true" }), "Walltime improvement, ×"),
      h(
        "li",
        {},
        h("span", { class: "swatch speculative-best", "aria-hidden": "true" }),
        `Best draft length, γ = ${best.gamma}`,
      ),
      h(
        "li",
        {},
        Number.isFinite(now.ceiling) ? h("span", { class: "swatch speculative-ceiling", "aria-hidden": "true" }) : null,
        Number.isFinite(now.ceiling)
          ? [`Ceiling 1/(1 − α) = ${fmt(now.ceiling, 3)}`, ceilingShown ? "" : ", above the chart"]
          : "No ceiling at α = 1",
      ),
    );
  }

  /** The distribution of tokens one target call yields, as bars (heights relative to the tallest). */
  renderBars({ cfg, now }) {
    const tallest = Math.max(...now.tokenProbs);
    const dense = now.tokenProbs.length > 8;
    patch(
      this.bars,
      h(
        "p",
        { class: "speculative-dist-title", id: `${this.alpha.input.id}-dist` },
        `Tokens from one target call at γ = ${cfg.gamma}`,
      ),
      h(
        "ol",
        {
          class: dense ? "speculative-bars dense" : "speculative-bars",
          "aria-labelledby": `${this.alpha.input.id}-dist`,
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

  /** The calculation with the reader's numbers substituted. */
  renderWorked({ cfg, now, best }) {
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

// A linear axis from 0 to a round value at or above top, with four to six ticks (screen mapping).
function linearAxis(top) {
  const steps = [0.25, 0.5, 1, 2, 5, 10, 20, 50];
  const step = steps.find((s) => top / s <= 5) ?? 100;
  const max = Math.ceil(top / step - 1e-9) * step || step;
  const ticks = [];
  for (let t = 0; t <= max + 1e-9; t += step) ticks.push(t);
  return { min: 0, max, ticks, format: (t) => fmt(t, 2) };
}

export const widgets = { "llm-speculative": LlmSpeculative, "llm-answer-speculative": LlmAnswerSpeculative };
