// <llm-cost>: what attention costs as the context grows. The reader sets the tokens, heads,
// key-value heads, head dimension, layers, batch and bytes per value (or picks a real model and
// a precision) and sees the score count, the size of the key-value cache, the multiply-adds, a
// chart of scores (∝ n²) against cached values (∝ n) as the context grows, the calculation
// written out with their numbers, and the cache per token of real models. With the model width
// and feed-forward size (every real model has them) it also counts the linear layers and shows,
// on a second chart, where attention's n² arithmetic overtakes their n.
//
// This file keeps the element: its state, its controls, its lifecycle and its core calls
// (compute()). What it shows is drawn by its parts, each in a file of this folder named for what
// it draws (stats.js, count-chart.js, arithmetic-chart.js, calculation.js, models-table.js), to
// which render() hands the result; exercise 4's answer is exercise.js.
//
// Attributes: see attributes.js (preset, tokens, heads, kv-heads, head-dim, layers, batch,
// kv-bytes-per-element, hidden-size, intermediate-size, gated-mlp: a model's sizes as
// attentionCost and Figure 4.2 name them, the width and feed-forward size by their config.json
// names because an element's `hidden` attribute hides it; their former names are still read);
// the preset gives the shape and context, the others override it. The precision list is a view
// of kv-bytes-per-element, and the tokens slider a view of tokens.
// Properties: result ({ cfg, now, doubled, doubledError, curve, xMax, models }),
// state ({ preset, tokens, heads, kvHeads, headDim, layers, batch, kvBytesPerElement, hiddenSize,
// intermediateSize, gatedMlp }), inputs (the configuration passed to attentionCost).
import { h, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmtBytes, fmtCount, grouped, pct } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { checkbox, choice, markInvalid, markSettings, numberField, slider } from "../../kit/controls.js";
import { costPresets, precisions } from "./cost-presets.js";
import {
  ATTRIBUTES,
  MAX_BATCH,
  MAX_BYTES,
  MAX_FACTOR,
  MAX_HIDDEN,
  MAX_INTERMEDIATE,
  MAX_TOKENS,
} from "./attributes.js";
import { LlmAnswerCost } from "./exercise.js";
import { ArithmeticChart } from "./arithmetic-chart.js";
import { Calculation } from "./calculation.js";
import { CountChart } from "./count-chart.js";
import { ModelsTable } from "./models-table.js";
import { CARD_DIGITS } from "./scales.js";
import { Stats } from "./stats.js";
import css from "./cost.css";

// Context lengths the slider steps through and the chart samples: powers of two from 1 to
// 2^30, the core's limit on tokens.
const TOKEN_STEPS = Array.from({ length: 31 }, (_, k) => 2 ** k);
// The chart's x axis reaches at least this far, so short contexts are seen against long ones.
const MIN_X_MAX = 2 ** 17;

// The fields that make up a model's shape; editing one leaves the chosen model.
const SHAPE = ["heads", "kvHeads", "headDim", "layers", "hiddenSize", "intermediateSize", "gatedMlp"];

// The number fields: state key, label, and the attribute's limits (bytes per value may be any
// positive number; the core refuses 0).
const FIELDS = [
  { key: "tokens", label: () => ["Tokens ", sym("n")], min: 1, max: MAX_TOKENS },
  { key: "heads", label: () => ["Query heads ", sym("h")], min: 1, max: MAX_FACTOR },
  { key: "kvHeads", label: () => ["Key-value heads ", sym("h", "kv")], min: 1, max: MAX_FACTOR },
  { key: "headDim", label: () => ["Head dimension ", sym("d")], min: 1, max: MAX_FACTOR },
  { key: "layers", label: () => ["Layers ", sym("L")], min: 1, max: MAX_FACTOR },
  { key: "batch", label: () => ["Batch ", sym("b")], min: 1, max: MAX_BATCH },
  { key: "kvBytesPerElement", label: () => ["Bytes per value ", sym("p")], min: 0, max: MAX_BYTES, decimal: true },
  { key: "hiddenSize", label: () => ["Model width ", sym("d", "model")], min: 0, max: MAX_HIDDEN },
  { key: "intermediateSize", label: () => ["Feed-forward size ", sym("d", "ff")], min: 0, max: MAX_INTERMEDIATE },
];

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmCost extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  /** A model's context and shape; batch and bytes per value stay as they were. */
  static presetFields(name) {
    if (!Object.hasOwn(costPresets, name)) return {};
    const p = costPresets[name];
    return {
      tokens: p.tokens,
      heads: p.heads,
      kvHeads: p.kvHeads,
      headDim: p.headDim,
      layers: p.layers,
      hiddenSize: p.hidden,
      intermediateSize: p.intermediate,
      gatedMlp: p.gatedMlp,
    };
  }

  build() {
    const id = uniqueId("cost");
    this.preset = choice({
      label: "Configuration",
      value: "exercise",
      onchange: (key) => this.loadPreset(key),
      options: [...Object.entries(costPresets).map(([key, p]) => [key, p.label]), ["", "Your own configuration"]],
    });
    this.precision = choice({
      label: "Precision",
      value: "fp16",
      onchange: (key) => this.onPrecision(key),
      options: [...precisions.map((p) => [p.key, p.label]), ["", "Other (set bytes per value)"]],
    });
    // The last option of each list says what the fields show; it is not a choice.
    /** @type {HTMLOptionElement} */ (this.preset.select.lastElementChild).disabled = true;
    /** @type {HTMLOptionElement} */ (this.precision.select.lastElementChild).disabled = true;

    this.fields = {};
    const grid = h("div", { class: "cost-fields" });
    for (const f of FIELDS) {
      const field = numberField({
        label: f.label(),
        value: "",
        min: f.min,
        max: f.max,
        step: f.decimal ? "any" : "1",
        className: "cost-num",
        oninput: (v, input) => this.onField(f.key, v, input),
      });
      if (!f.decimal) field.input.setAttribute("inputmode", "numeric");
      field.row.classList.add("cost-field");
      this.fields[f.key] = field.input;
      grid.append(field.row);
    }
    this.tokenSlider = slider({
      label: ["Context ", sym("n")],
      min: 0,
      max: TOKEN_STEPS.length - 1,
      step: 1,
      oninput: (k) => this.set({ tokens: TOKEN_STEPS[k] }, { sync: true }),
    });
    this.tokenSlider.input.setAttribute("aria-label", "Tokens n, in powers of two");
    this.gatedBox = checkbox({
      label: "Gated feed-forward (three matrices, as in Llama)",
      checked: false,
      onchange: (gatedMlp) => this.set({ gatedMlp }, { sync: true }),
    });

    markSettings({
      preset: this.preset.select,
      ...Object.fromEntries(
        Object.entries(this.fields).map(([key, input]) => [key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), input]),
      ),
      "gated-mlp": this.gatedBox.input,
    });

    // The parts that draw the result, in the order they stand in the figure.
    /** @type {Part[]} */
    this.drawn = [
      new Stats(),
      new CountChart(),
      new ArithmeticChart(),
      new Calculation(),
      new ModelsTable(this, `${id}-models`),
    ];

    this.frame.append(
      h("div", { class: "controls" }, this.preset.row, this.precision.row),
      h("div", { class: "sliders cost-tokens llm-bar" }, this.tokenSlider.row),
      h(
        "p",
        { class: "hint" },
        "Slide the context in powers of two, or type any number below. The model width and feed-forward size count the linear layers (0 leaves them out).",
      ),
      grid,
      h("div", { class: "controls cost-gated" }, this.gatedBox.row),
      ...this.drawn.flatMap((part) => part.nodes),
    );
  }

  /** The configuration passed to attentionCost, from the state. */
  get inputs() {
    const s = this.state;
    return {
      tokens: s.tokens,
      heads: s.heads,
      kvHeads: s.kvHeads,
      headDim: s.headDim,
      layers: s.layers,
      batch: s.batch,
      kvBytesPerElement: s.kvBytesPerElement,
      ...linearInputs(s),
    };
  }

  /** The preset whose shape the state has, or "" once the reader has changed the shape. */
  activePreset() {
    const s = this.state;
    const p = LlmCost.presetFields(s.preset);
    return SHAPE.every((k) => p[k] === s[k]) ? s.preset : "";
  }

  /** Sets the lists, the fields and the slider from the state. */
  sync() {
    const s = this.state;
    this.preset.select.value = this.activePreset();
    const p = precisions.find((x) => x.bytes === s.kvBytesPerElement);
    this.precision.select.value = p ? p.key : "";
    this.gatedBox.input.checked = s.gatedMlp;
    // A field that already shows the state's value is left as typed ("1e3", or empty while NaN).
    for (const f of FIELDS) {
      const input = this.fields[f.key];
      if (!Object.is(input.valueAsNumber, s[f.key])) input.value = fieldValue(s[f.key]);
    }
    // Slider position: the first power of two at or above the context (screen mapping).
    const n = s.tokens;
    const k = TOKEN_STEPS.findIndex((t) => t >= n);
    this.tokenSlider.input.value = String(k < 0 ? TOKEN_STEPS.length - 1 : k);
    const shown = Number.isFinite(n) ? grouped(n) : "";
    this.tokenSlider.out.value = shown;
    this.tokenSlider.input.setAttribute("aria-valuetext", shown ? `${shown} tokens` : "no value");
  }

  /** A model's shape and its trained context; batch and precision stay as the reader set them. */
  loadPreset(key) {
    if (!Object.hasOwn(costPresets, key)) return;
    this.set({ preset: key, ...LlmCost.presetFields(key) }, { sync: true });
  }

  onPrecision(key) {
    const p = precisions.find((x) => x.key === key);
    if (p) this.set({ kvBytesPerElement: p.bytes }, { sync: true });
  }

  // The configuration names a model's shape: the context, batch and precision are the reader's.
  // An empty or unparsable field is NaN, which the core names in its message.
  onField(key, value, input) {
    this.set({ [key]: value }, { sync: true });
    if (this.failed) markInvalid(input, true);
  }

  /** A good figure clears every field's invalid mark. */
  clearError() {
    super.clearError();
    for (const input of Object.values(this.fields)) markInvalid(input, false);
  }

  compute() {
    const cfg = this.inputs;
    const core = this.core;
    const now = core.attentionCost(cfg);
    // The exercise's question: the same configuration with the head dimension doubled.
    let doubled = null,
      doubledError = null;
    try {
      doubled = core.attentionCost({ ...cfg, headDim: 2 * cfg.headDim });
    } catch (error) {
      doubledError = error.message;
    }
    // The axis reaches the reader's context and, when the linear layers are counted, the
    // crossover (screen mapping).
    const xMax =
      TOKEN_STEPS.find((t) => t >= Math.max(cfg.tokens, MIN_X_MAX, now.crossoverTokens ?? 0)) ?? TOKEN_STEPS.at(-1);
    // Every context of the axis in one call: the curves' counts per layer.
    const sweep = core.attentionCostSweep({ ...cfg, tokens: TOKEN_STEPS.filter((t) => t <= xMax) });
    const curve = sweep.tokens.map((n, i) => [
      n,
      {
        scoresPerLayer: sweep.scoresPerLayer[i],
        kvValuesPerLayer: sweep.kvValuesPerLayer[i],
        macsPerLayer: sweep.macsPerLayer[i],
        linearMacsPerLayer: sweep.linearMacsPerLayer?.[i],
      },
    ]);
    const models = this.modelCosts(cfg.kvBytesPerElement);
    return { cfg, now, doubled, doubledError, curve, xMax, models };
  }

  /**
   * Each real model at its trained context, one sequence, at the reader's bytes per value:
   * computed again only when the bytes per value change (nothing else of the reader's enters).
   */
  modelCosts(kvBytesPerElement) {
    return this.memo("models", [kvBytesPerElement], () =>
      Object.entries(costPresets)
        .filter(([, p]) => p.source)
        .map(([key, p]) => ({
          key,
          preset: p,
          cost: this.core.attentionCost({
            tokens: p.tokens,
            heads: p.heads,
            kvHeads: p.kvHeads,
            headDim: p.headDim,
            layers: p.layers,
            batch: 1,
            kvBytesPerElement,
            ...linearInputs({ hiddenSize: p.hidden, intermediateSize: p.intermediate, gatedMlp: p.gatedMlp }),
          }),
        })),
    );
  }

  /** Hands the result to each part in turn. */
  render(r) {
    for (const part of this.drawn) part.render(r);
  }

  /**
   * The scores per head and the cache at the context, with attention's share when the linear
   * layers are counted; only the context and the share while exercise 4 hides the counts.
   */
  summary({ cfg, now }, { concealed }) {
    const n = `${fmtCount(cfg.tokens, CARD_DIGITS)} tokens`;
    const share =
      now.linearMacsPerLayer === undefined
        ? ""
        : `; attention does ${pct(now.attentionShare, 1)} of a layer's multiply-adds`;
    if (concealed) return `Context ${n}${share}; the counts are hidden until you answer the exercise.`;
    return `At ${n}: ${fmtCount(now.scoresPerHead, CARD_DIGITS)} scores per head and a key-value cache of ${fmtBytes(now.kvBytes)}${share}.`;
  }
}

/**
 * The linear layers' part of attentionCost's configuration: the width, feed-forward size and
 * gating unless both sizes are 0 (then nothing, so that the layer is counted alone). An emptied
 * field is NaN, which goes to the core, which names it, rather than reading as 0.
 */
function linearInputs({ hiddenSize, intermediateSize, gatedMlp }) {
  return hiddenSize === 0 && intermediateSize === 0
    ? {}
    : { hidden: hiddenSize, intermediate: intermediateSize, gatedMlp };
}

export const widgets = { "llm-cost": LlmCost, "llm-answer-cost": LlmAnswerCost };
