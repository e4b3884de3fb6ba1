// <llm-quantization>: symmetric integer quantisation of a small activation matrix X with an
// outlier channel and of a weight matrix W, before and after SmoothQuant's smoothing (Xiao et
// al. 2023). The reader edits X and W (or picks an example) and moves the bit width and the
// migration strength α; the figure shows each channel's range before and after, the largest
// quantisation error of both sides for α from 0 to 1, the integer levels each channel uses, the
// error of the output XW, and the calculation for one channel with the current numbers.
//
// Attributes: see attributes.js (preset, bits, alpha, channel, x, w).
// Properties: result (see compute()), state ({ preset, bits, alpha, channel, x, w }; channel is
// 1-based, 0 for the channel with the largest activation range).
//
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state and the core calls; its parts build their
// elements, and draw from compute()'s result: the example, the editors of X and W and the sliders
// (controls.js), the headline (headline.js), the table per channel (channel-table.js), the ranges'
// bars (ranges-chart.js), the error against α (error-chart.js), the integer levels (levels.js),
// the check of the output (output-check.js) and the channel's calculation with its list
// (calculation.js). Its settings are declared in attributes.js, its exercise in exercise.js.
import { uniqueId } from "../../dom.js";
import { fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { markSettings } from "../../kit/controls.js";
import { ATTRIBUTES, presetFields } from "./attributes.js";
import { Calculation } from "./calculation.js";
import { ChannelTable } from "./channel-table.js";
import { Controls } from "./controls.js";
import { ErrorChart } from "./error-chart.js";
import { LlmAnswerQuantization } from "./exercise.js";
import { Headline } from "./headline.js";
import { Levels } from "./levels.js";
import { OutputCheck } from "./output-check.js";
import { quantizationPresets } from "./quantization-presets.js";
import { RangesChart } from "./ranges-chart.js";
import css from "./quantization.css";

// Where the error curves are sampled: α = 0, 0.05, …, 1.
const ALPHAS = Array.from({ length: 21 }, (_, k) => k / 20);

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them. A part that holds controls is made with the figure, whose state
 * they set.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmQuantization extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  static presetFields(name) {
    return presetFields(name);
  }

  /** W takes one row per channel of X (new entries 0); the explained channel exists. */
  normalize(s, notes) {
    const c = s.x[0].length,
      o = s.w[0].length;
    if (s.w.length !== c) {
      notes.push(`W was fitted to the ${c} channel${c === 1 ? "" : "s"} of X, one row each (missing entries 0).`);
      s.w = Array.from({ length: c }, (_, i) => Array.from({ length: o }, (_, j) => s.w[i]?.[j] ?? 0));
    }
    if (s.channel > c) {
      notes.push(`channel lowered to ${c}, the number of channels of X.`);
      s.channel = c;
    }
  }

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes, sync() sets
   * those that hold controls from the state, render() has each draw the result.
   */
  build() {
    const id = uniqueId("quant");
    this.controls = new Controls(this, id);
    this.calculation = new Calculation(this, id);
    markSettings({
      preset: this.controls.presetSelect,
      bits: this.controls.bits.input,
      alpha: this.controls.alpha.input,
      channel: this.calculation.channelSelect,
    });
    /** @type {Part[]} */
    this.parts = [
      this.controls,
      new Headline(),
      new ChannelTable(),
      new RangesChart(),
      new ErrorChart(),
      new Levels(),
      new OutputCheck(),
      this.calculation,
    ];
    this.frame.append(...this.parts.flatMap((part) => part.nodes));
  }

  onPreset(name) {
    if (!Object.hasOwn(quantizationPresets, name)) return;
    this.set({ preset: name, ...presetFields(name), channel: 0 }, { sync: true });
  }

  /** Sets every control from the state: the example list, the editors, the sliders, the channel. */
  sync() {
    this.controls.sync(this.state);
    this.calculation.sync();
  }

  /**
   * Everything the figure shows, from the core: the layer at the current α (smoothQuantLayer:
   * ranges, s, both sides quantised before and after, the output XW three ways) and the
   * quantisation errors at each α of the grid for the chart (smoothQuantLayerSweep).
   */
  compute() {
    const { x, w, bits, alpha } = this.state;
    const L = this.core.smoothQuantLayer(x, w, { alpha, bits });
    // The errors of both smoothed tensors at every α of the chart, in one call.
    const sweep = this.core.smoothQuantLayerSweep(x, w, { alpha: ALPHAS, bits });
    const curve = sweep.alpha.map((a, i) => ({
      alpha: a,
      quantXSmoothedMaxAbsError: sweep.quantXSmoothedMaxAbsError[i],
      quantWSmoothedMaxAbsError: sweep.quantWSmoothedMaxAbsError[i],
    }));
    return {
      bits,
      alpha,
      curve,
      xAbsMax: L.xAbsMax,
      wAbsMax: L.wAbsMax,
      quantX: L.quantX,
      quantW: L.quantW,
      now: {
        alpha,
        scales: L.scales,
        xAbsMax: L.xAbsMaxSmoothed,
        wAbsMax: L.wAbsMaxSmoothed,
        xSmoothed: L.xSmoothed,
        wSmoothed: L.wSmoothed,
        quantXSmoothed: L.quantXSmoothed,
        quantWSmoothed: L.quantWSmoothed,
      },
      check: {
        y: L.y,
        yQuantized: L.yQuantized,
        yQuantizedSmoothed: L.yQuantizedSmoothed,
        errorQuantized: L.errorQuantized,
        errorQuantizedSmoothed: L.errorQuantizedSmoothed,
        errorSmoothingAlone: L.errorSmoothingAlone,
      },
      largestChannel: L.largestChannel,
      smallestChannel: L.smallestChannel,
      xLevels: L.xLevels,
      xLevelsSmoothed: L.xLevelsSmoothed,
    };
  }

  /**
   * Hands the result to each part in turn. Each panel is drawn again only when what it reads
   * changed: a number typed into X that is not its channel's largest leaves the ranges, the table
   * and often the levels as they are.
   */
  render(r) {
    for (const part of this.parts) part.render(r);
  }

  /** The output's largest error with and without smoothing, and the levels of the smallest channel. */
  summary(r) {
    const k = r.smallestChannel;
    return (
      `${r.bits} bits, α = ${fmt(r.alpha, 2)}: the output's largest error is ${fmt(r.check.errorQuantizedSmoothed, 4)} smoothed, ${fmt(r.check.errorQuantized, 4)} not; ` +
      `channel ${k + 1}, the smallest, uses levels up to ±${r.xLevelsSmoothed[k]} (±${r.xLevels[k]} not smoothed).`
    );
  }
}

export const widgets = { "llm-quantization": LlmQuantization, "llm-answer-quantization": LlmAnswerQuantization };
