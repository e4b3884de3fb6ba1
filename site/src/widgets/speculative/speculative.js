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
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state and the core calls; its parts build their
// elements, and draw from compute()'s result: the sliders (controls.js), the headline
// (headline.js), the chart with its legend (tokens-chart.js) beside the distribution of one
// call's tokens (distribution.js), the calculation (calculation.js) and the log's panel
// (measurement.js). Its settings are declared in attributes.js, its exercise in exercise.js.
import { h } from "../../dom.js";
import { fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { markSettings } from "../../kit/controls.js";
import { ATTRIBUTES, GAMMAS, GAMMA_MAX, SEED_RANGE } from "./attributes.js";
import { Calculation } from "./calculation.js";
import { Controls } from "./controls.js";
import { Distribution } from "./distribution.js";
import { LlmAnswerSpeculative } from "./exercise.js";
import { Headline } from "./headline.js";
import { Measurement } from "./measurement.js";
import { TokensChart } from "./tokens-chart.js";
import css from "./speculative.css";

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them. A part that holds controls is made with the figure, whose state
 * they set.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmSpeculative extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes (the chart and
   * the distribution side by side, .speculative-figure), sync() sets those that hold controls
   * from the state, render() has each draw the result.
   */
  build() {
    this.controls = new Controls(this);
    const headline = new Headline();
    const chart = new TokensChart();
    const distribution = new Distribution(`${this.controls.alpha.input.id}-dist`);
    const calculation = new Calculation();
    this.measurement = new Measurement(this);
    /** @type {Part[]} */
    this.parts = [this.controls, headline, chart, distribution, calculation, this.measurement];
    markSettings({
      alpha: this.controls.alpha.input,
      gamma: this.controls.gamma.input,
      "cost-ratio": this.controls.cost.input,
      rounds: this.measurement.rounds.input,
      seed: this.measurement.seed.input,
    });
    this.frame.append(
      ...this.controls.nodes,
      ...headline.nodes,
      h("div", { class: "speculative-figure" }, ...chart.nodes, ...distribution.nodes),
      ...calculation.nodes,
      ...this.measurement.nodes,
    );
  }

  newSeed() {
    // Choosing a seed is not part of the mathematics; the log itself comes from the core.
    this.set({ seed: Math.floor(Math.random() * SEED_RANGE) }, { sync: true });
  }

  /** Sets the sliders and the log's fields from the state. */
  sync() {
    this.controls.sync(this.state);
    this.measurement.sync(this.state);
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

  /** Each part draws the result into its own elements, in the order they stand in the figure. */
  render(r) {
    for (const part of this.parts) part.render(r);
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
}

export const widgets = { "llm-speculative": LlmSpeculative, "llm-answer-speculative": LlmAnswerSpeculative };
