// <llm-sampling>: how a sampler turns a model's scores for the next token into the distribution
// it draws from (temperature, then top-k, then top-p, then renormalisation), and what a handful
// of seeded draws from it look like as text. The reader moves the three sliders, picks an
// example or edits the tokens and their logits (or probabilities), and changes the seed.
//
// Attributes: see attributes.js (preset, temperature, top-k, top-p, prompt, labels
// (formerly tokens), logits, probs, seed, count, draws). The preset gives every field but seed,
// count and draws; the other attributes override it. Exactly one of logits and probs holds the values (one per
// token; a given list wins over the preset's other kind, probs over logits when both are given),
// and the labels are fitted to the values' count. draws="off" hides the draws.
// Properties: result ({ full, draws, draw, opts, state }), state ({ preset, temperature,
// topK, topP, prompt, labels, logits, probs, seed, count, draws }).
//
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state and the core calls; its parts build their
// elements, and draw from compute()'s result: the example and the sliders (controls.js), the
// headline (headline.js), the distribution with its legend (distribution.js), the editor of the
// tokens and their values (editor.js), the seeded draws (draws.js) and the calculation
// (calculation.js). Its settings are declared in attributes.js, its exercise in exercise.js; how
// a token is written, in labels.js.
import { h, uniqueId } from "../../dom.js";
import { fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { stateKey } from "../../kit/attributes.js";
import { markInvalid, markSettings } from "../../kit/controls.js";
import { ATTRIBUTES, presetFields, sameList, valuesOf } from "./attributes.js";
import { Calculation } from "./calculation.js";
import { Controls } from "./controls.js";
import { Distribution } from "./distribution.js";
import { Draws } from "./draws.js";
import { Editor } from "./editor.js";
import { LlmAnswerSampling } from "./exercise.js";
import { Headline } from "./headline.js";
import { quoted } from "./labels.js";
import { samplingPresets } from "./sampling-presets.js";
import css from "./sampling.css";

// The figure's name for a token's label, exported by its module as before its parts had files.
export { tokenLabel } from "./labels.js";

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them. A part that holds controls is made with the figure, whose state
 * they set.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmSampling extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  static presetFields(name) {
    return presetFields(name);
  }

  /**
   * Exactly one of logits and probs holds the values: a list given over the preset's other kind
   * replaces it, and probs win when both are given. The labels take the values' count (new ones
   * are " t<i>").
   */
  normalize(s, notes) {
    const p = presetFields(s.preset);
    if (s.logits.length && s.probs.length) {
      const logitsGiven = !sameList(s.logits, p.logits),
        probsGiven = !sameList(s.probs, p.probs);
      if (logitsGiven && !probsGiven) s.probs = [];
      else {
        if (logitsGiven) notes.push("logits ignored: probs were given too.");
        s.logits = [];
      }
    } else if (!s.logits.length && !s.probs.length) {
      notes.push("logits and probs are both empty: the example's values are used.");
      s.logits = p.logits;
      s.probs = p.probs;
    }
    const n = valuesOf(s).values.length;
    if (s.labels.length !== n) {
      // The example's own labels follow its values silently; labels given by hand are reported.
      if (!sameList(s.labels, p.labels)) notes.push(`labels were fitted to the ${n} values.`);
      s.labels = Array.from({ length: n }, (_, i) => s.labels[i] ?? p.labels[i] ?? ` t${i + 1}`);
    }
  }

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes (the editor
   * and the draws side by side in one row, .sampling-panels), sync() sets those that hold
   * controls from the state, render() has each draw the result.
   */
  build() {
    const id = uniqueId("sampling");
    this.controls = new Controls(this, id);
    const headline = new Headline();
    const distribution = new Distribution();
    this.editor = new Editor(this, id);
    this.draws = new Draws(this, id);
    const calculation = new Calculation();
    /** @type {Part[]} */
    this.parts = [this.controls, headline, distribution, this.editor, this.draws, calculation];
    this.frame.append(
      ...this.controls.nodes,
      ...headline.nodes,
      ...distribution.nodes,
      h("div", { class: "sampling-panels" }, ...this.editor.nodes, ...this.draws.nodes),
      ...calculation.nodes,
    );
    markSettings({
      preset: this.controls.preset.select,
      temperature: this.controls.T.input,
      "top-k": this.controls.k.input,
      "top-p": this.controls.p.input,
      prompt: this.editor.promptInput,
      seed: this.draws.seed.input,
      count: this.draws.count.input,
    });
  }

  onPreset(name) {
    if (!Object.hasOwn(samplingPresets, name)) return;
    this.set({ preset: name, ...presetFields(name) }, { sync: true });
  }

  /** Sets every control from the state: example list and note, sliders, prompt, editor, draws. */
  sync() {
    this.controls.sync(this.state);
    this.editor.sync(this.state);
    this.draws.sync(this.state);
  }

  /** The example list and its note, after the reader edits a token or a value. */
  syncPreset() {
    this.controls.syncPreset(this.state);
  }

  /**
   * Sets a field typed by the reader unless a number lies outside its declared range (which the
   * widget's settings could not carry): then the field is marked and the last figure stays.
   * Returns whether the state was set.
   */
  setChecked(name, value, input, what = name) {
    const decl = ATTRIBUTES.find((d) => d.name === name);
    const bad = [value].flat().find((x) => Number.isFinite(x) && (x < decl.min || x > decl.max));
    if (bad !== undefined) {
      markInvalid(input, true);
      this.showError(`Not updated: ${what} must be from ${fmt(decl.min)} to ${fmt(decl.max)}, got ${fmt(bad)}`);
      return false;
    }
    this.set({ [stateKey(name)]: value });
    markInvalid(input, this.failed);
    return true;
  }

  /** The options of the core's sampling() from the state. */
  get opts() {
    const { temperature, topK, topP } = this.state;
    return { temperature, topK, topP };
  }

  compute() {
    const s = this.state;
    const { kind, values } = valuesOf(s);
    const input = kind === "probs" ? { probs: values } : { logits: values };
    const opts = this.opts;
    const full = this.core.sampling(input, opts);
    const draw = s.draws === "off" ? null : { seed: s.seed, count: s.count };
    const draws = draw ? this.core.sample(full.probs, draw) : [];
    return { full, draws, draw, opts, state: s };
  }

  /** Each part draws the result into its own elements, in the order they stand in the figure. */
  render(r) {
    for (const part of this.parts) part.render(r);
  }

  /**
   * How many tokens the filters keep and the most probable one's probability; only the settings
   * while exercise 2 hides the probabilities.
   */
  summary({ full, opts, state }, { concealed }) {
    const { temperature: T, topK: k, topP: p } = opts;
    const top = quoted(state.labels[full.order[0]]);
    if (concealed) {
      return `Temperature ${fmt(T, 2)}, top-k ${k === 0 ? "off" : k}, top-p ${p === 1 ? "off" : fmt(p, 2)}: the probabilities are hidden until you answer the exercise.`;
    }
    if (T === 0) return `Temperature 0 is greedy: only ${top} can be drawn, every time.`;
    return `The sampler keeps ${full.cutoff} of ${state.labels.length} tokens; ${top} is the most probable, at ${fmt(full.probs[full.order[0]], 3)}.`;
  }
}

export const widgets = { "llm-sampling": LlmSampling, "llm-answer-sampling": LlmAnswerSampling };
