// <llm-speculative>: speculative decoding (Leviathan et al. 2023). The reader sets the
// acceptance rate α, the draft length γ and the cost ratio c of a draft step to a target step,
// and sees the expected tokens per target call against γ with its ceiling, the walltime
// improvement and the best γ for their c, the distribution of tokens one call yields, and the
// calculation written out with their numbers.
//
// Attributes: see LlmSpeculative.attributes (alpha, gamma, cost-ratio).
// Properties: result ({ cfg, now, curve, best }), state ({ alpha, gamma, costRatio }).
import { fill, h, sym } from "../dom.js";
import { fmt, pct } from "../format.js";
import { LlmWidget } from "./base.js";
import { FigureAnswer } from "./answer.js";
import { slider } from "./controls.js";
import { lineChart } from "./plot.js";
import css from "./speculative.css";

// Draft lengths on the slider and the chart, and the range searched for the best one.
const GAMMA_MAX = 20;
const GAMMAS = Array.from({ length: GAMMA_MAX + 1 }, (_, g) => g);

export class LlmSpeculative extends LlmWidget {
  static styles = css;
  static attributes = [
    { name: "alpha", type: "number", min: 0, max: 1, default: 0.5, doc: "The acceptance rate α: the probability that the target accepts one drafted token." },
    { name: "gamma", type: "integer", min: 0, max: GAMMA_MAX, default: 3, doc: "The draft length γ: how many tokens the draft model proposes per target call." },
    { name: "cost-ratio", type: "number", min: 0, max: 1, default: 0.1, doc: "The cost ratio c: the time of one draft step over one target step." },
  ];

  build() {
    this.alpha = slider({ label: ["Acceptance rate ", sym("α")], min: 0, max: 1, step: 0.01, oninput: (v) => this.set({ alpha: v }) });
    this.gamma = slider({ label: ["Draft length ", sym("γ")], min: 0, max: GAMMA_MAX, step: 1, oninput: (v) => this.set({ gamma: v }) });
    this.cost = slider({ label: ["Cost ratio ", sym("c"), " (draft step / target step)"], min: 0, max: 1, step: 0.01, oninput: (v) => this.set({ costRatio: v }) });
    this.headline = h("p", { class: "headline", "aria-live": "polite" });
    this.chart = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "spec-legend" });
    this.bars = h("div", { class: "spec-dist" });
    this.worked = h("div", { class: "worked" });
    this.frame.append(
      h("div", { class: "sliders" }, this.alpha.row, this.gamma.row, this.cost.row),
      this.headline,
      h("div", { class: "spec-figure" }, h("div", {}, this.chart, this.legend), this.bars),
      h("p", { class: "spec-subhead" }, "The calculation with these numbers"),
      this.worked,
    );
  }

  sync() {
    const s = this.state;
    this.alpha.input.value = String(s.alpha);
    this.gamma.input.value = String(s.gamma);
    this.cost.input.value = String(s.costRatio);
  }

  compute() {
    const cfg = { alpha: this.state.alpha, gamma: this.state.gamma, costRatio: this.state.costRatio };
    const core = this.core;
    const now = core.speculativeDecoding(cfg);
    const curve = GAMMAS.map((g) => ({ gamma: g, ...core.speculativeDecoding({ ...cfg, gamma: g }) }));
    // The draft length with the largest walltime improvement (the shortest one on a tie).
    const best = curve.reduce((b, p) => (p.speedup > b.speedup ? p : b));
    return { cfg, now, curve, best };
  }

  render(r) {
    const { cfg, now, best } = r;
    const { alpha, gamma, costRatio: c } = cfg;
    this.alpha.out.value = fmt(alpha, 2);
    this.gamma.out.value = String(gamma);
    this.cost.out.value = fmt(c, 2);
    this.gamma.input.setAttribute("aria-valuetext", `${gamma} drafted token${gamma === 1 ? "" : "s"}`);

    fill(this.headline, "Each call of the target model yields ", h("strong", { class: "spec-headline-expected" }, fmt(now.expectedTokens, 4)),
      " tokens on average",
      Number.isFinite(now.ceiling) ? [" (never more than ", h("strong", {}, fmt(now.ceiling, 4)), " however long the draft)"] : " (no ceiling: every draft is accepted)",
      ". With drafting at ", sym("c"), ` = ${fmt(c, 2)}, that is a walltime improvement of `,
      h("strong", { class: "spec-headline-speedup" }, `${fmt(now.speedup, 3)}×`), "; the best draft length for these ", sym("α"), " and ", sym("c"), " is ",
      h("strong", { class: "spec-headline-best" }, sym("γ"), ` = ${best.gamma}${best.gamma === GAMMA_MAX ? " or more" : ""}`),
      ` (${fmt(best.speedup, 3)}×).`);
    this.renderChart(r);
    this.renderBars(r);
    this.renderWorked(r);
  }

  renderChart({ cfg, now, curve, best }) {
    const maxE = Math.max(...curve.map((p) => p.expectedTokens));
    // Show the ceiling line when it is not far above the curve; otherwise say where it is.
    const ceilingShown = Number.isFinite(now.ceiling) && now.ceiling <= 1.6 * maxE;
    // A little headroom so the ceiling line does not sit on the frame.
    const y = linearAxis(1.08 * (ceilingShown ? Math.max(maxE, now.ceiling) : maxE));
    fill(this.chart, lineChart({
      title: "Expected tokens per target call and walltime improvement against the draft length",
      x: { min: 0, max: GAMMA_MAX, ticks: [0, 5, 10, 15, 20], label: "draft length γ" },
      y: { ...y, label: "tokens per call / improvement ×" },
      series: [
        { points: curve.map((p) => [p.gamma, p.expectedTokens]), class: "series spec-tokens" },
        { points: curve.map((p) => [p.gamma, p.speedup]), class: "series spec-speedup" },
      ],
      hlines: ceilingShown ? [{ y: now.ceiling, label: `ceiling ${fmt(now.ceiling, 3)}`, class: "guide spec-ceiling" }] : [],
      vlines: [{ x: best.gamma, class: "guide spec-best" }],
      markers: [
        { x: cfg.gamma, y: now.expectedTokens, class: "marker spec-tokens" },
        { x: cfg.gamma, y: now.speedup, class: "marker spec-speedup" },
      ],
    }));
    fill(this.legend,
      h("li", {}, h("span", { class: "swatch spec-tokens", "aria-hidden": "true" }), "Expected tokens per target call"),
      h("li", {}, h("span", { class: "swatch spec-speedup", "aria-hidden": "true" }), "Walltime improvement, ×"),
      h("li", {}, h("span", { class: "swatch spec-best", "aria-hidden": "true" }), `Best draft length, γ = ${best.gamma}`),
      h("li", {}, Number.isFinite(now.ceiling) ? h("span", { class: "swatch spec-ceiling", "aria-hidden": "true" }) : null,
        Number.isFinite(now.ceiling)
          ? [`Ceiling 1/(1 − α) = ${fmt(now.ceiling, 3)}`, ceilingShown ? "" : ", above the chart"]
          : "No ceiling at α = 1"));
  }

  /** The distribution of tokens one target call yields, as bars (heights relative to the tallest). */
  renderBars({ cfg, now }) {
    const tallest = Math.max(...now.tokenProbs);
    const dense = now.tokenProbs.length > 8;
    fill(this.bars,
      h("p", { class: "spec-dist-title", id: `${this.alpha.input.id}-dist` }, `Tokens from one target call at γ = ${cfg.gamma}`),
      h("ol", { class: dense ? "spec-bars dense" : "spec-bars", "aria-labelledby": `${this.alpha.input.id}-dist` },
        now.tokenProbs.map((p, j) => h("li", { "aria-label": `${j + 1} token${j ? "s" : ""}: ${pct(p, 2)}`, title: `${j + 1} token${j ? "s" : ""}: ${pct(p, 2)}` },
          h("span", { class: "value", "aria-hidden": "true" }, pct(p, 1)),
          h("span", { class: "bar", style: { height: `${tallest > 0 ? (80 * p) / tallest : 0}%` } }),
          h("span", { class: "count", "aria-hidden": "true" }, String(j + 1))))),
      h("p", { class: "spec-dist-note" }, "Its mean is the expected number of tokens, ", fmt(now.expectedTokens, 4), "."));
  }

  /** The calculation with the reader's numbers substituted. */
  renderWorked({ cfg, now, best }) {
    const { alpha, gamma, costRatio: c } = cfg;
    const a = fmt(alpha, 2);
    const oneMinusAlpha = now.denominator;
    const alphaPower = now.allAccepted;
    const power = () => h("span", {}, a, h("sup", {}, String(gamma + 1)));
    const probs = now.tokenProbs.map((p, j) => `P(${j + 1}) = ${fmt(p, 4)}`).join(", ");
    fill(this.worked, h("ol", {},
      h("li", {}, h("strong", {}, "One call. "), `The draft proposes γ = ${gamma} token${gamma === 1 ? "" : "s"}; the target checks them in one call. `,
        "Each is accepted with probability α, and the first rejection ends the call with a token of the target's own; ",
        gamma ? "if all are accepted the call adds one more. " : "with no draft the call yields exactly one token. ",
        "So a call yields ", sym("j"), " + 1 tokens with probability α", h("sup", {}, "j"), "(1 − α) for ", sym("j"), " < γ, and γ + 1 with probability α",
        h("sup", {}, "γ"), `: ${probs}.`),
      h("li", {}, h("strong", {}, "Expected tokens. "),
        alpha === 1
          ? ["With α = 1 every draft is accepted: ", sym("E"), ` = γ + 1 = `, h("strong", {}, fmt(now.expectedTokens, 4)), "."]
          : [sym("E"), " = (1 − α", h("sup", {}, "γ+1"), ") / (1 − α) = (1 − ", power(), `) / (1 − ${a}) = (1 − ${fmt(alphaPower, 6)}) / ${fmt(oneMinusAlpha, 4)} = ${fmt(now.numerator, 6)} / ${fmt(oneMinusAlpha, 4)} = `,
              h("strong", {}, fmt(now.expectedTokens, 4)), "."]),
      h("li", {}, h("strong", {}, "Ceiling. "),
        Number.isFinite(now.ceiling)
          ? ["As γ grows, α", h("sup", {}, "γ+1"), ` shrinks to 0, so `, sym("E"), ` approaches 1 / (1 − α) = 1 / ${fmt(oneMinusAlpha, 4)} = `, h("strong", {}, fmt(now.ceiling, 4)), "."]
          : "At α = 1 there is none: every extra draft token is one more token per call."),
      h("li", {}, h("strong", {}, "Walltime. "), "A call costs one target step plus γ draft steps at ", sym("c"), " each, so the improvement over plain decoding is ",
        sym("E"), " / (γ", sym("c"), ` + 1) = ${fmt(now.expectedTokens, 4)} / (${gamma}·${fmt(c, 2)} + 1) = ${fmt(now.expectedTokens, 4)} / ${fmt(now.roundCost, 4)} = `, h("strong", {}, `${fmt(now.speedup, 3)}×`), "."),
      h("li", {}, h("strong", {}, "Best draft length. "), `Trying every γ from 0 to ${GAMMA_MAX} at α = ${a} and c = ${fmt(c, 2)}, the largest improvement is `,
        h("strong", {}, `${fmt(best.speedup, 3)}×`), ` at γ = ${best.gamma}${best.gamma === GAMMA_MAX ? " (the end of the range: longer drafts may do better still)" : ""}.`)));
  }
}

/** Exercise 5: expected tokens per target call at the figure's α and γ, and the ceiling. */
export class LlmAnswerSpeculative extends FigureAnswer {
  static figure = "llm-speculative";

  answer(r) {
    const { cfg, now } = r;
    const { alpha, gamma } = cfg;
    const a = fmt(alpha, 2);
    if (alpha === 1) {
      return h("p", {}, `With α = 1 every drafted token is accepted, so each target call yields γ + 1 = `,
        h("strong", { class: "answer-expected" }, fmt(now.expectedTokens, 4)), " tokens, and there is no ceiling: longer drafts keep paying.");
    }
    return [
      h("p", {}, `With α = ${a} and γ = ${gamma}, the expected number of tokens per target call is (1 − α`, h("sup", {}, "γ+1"), ") / (1 − α) = (1 − ",
        a, h("sup", {}, String(gamma + 1)), `) / (1 − ${a}) = (1 − ${fmt(now.allAccepted, 6)}) / ${fmt(now.denominator, 4)} = ${fmt(now.numerator, 6)} / ${fmt(now.denominator, 4)} = `,
        h("strong", { class: "answer-expected" }, fmt(now.expectedTokens, 4)), " tokens."),
      h("p", {}, "As γ grows, α", h("sup", {}, "γ+1"), ` vanishes and the expected tokens approach the ceiling 1 / (1 − ${a}) = `,
        h("strong", { class: "answer-ceiling" }, fmt(now.ceiling, 4)),
        ": the target still stops at the first rejection, so a longer draft adds less and less."),
    ];
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
