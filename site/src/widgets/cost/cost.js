// <llm-cost>: what attention costs as the context grows. The reader sets the tokens, heads,
// key-value heads, head dimension, layers, batch and bytes per value (or picks a real model and
// a precision) and sees the score count, the size of the key-value cache, the multiply-adds, a
// chart of scores (∝ n²) against cached values (∝ n) as the context grows, the calculation
// written out with their numbers, and the cache per token of real models. With the model width
// and feed-forward size (every real model has them) it also counts the linear layers and shows,
// on a second chart, where attention's n² arithmetic overtakes their n.
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
import { h, keep, patch, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmt, fmtBytes, fmtCount, grouped, pct, superscript } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { checkbox, choice, markInvalid, markSettings, numberField, scrollBox, slider } from "../../kit/controls.js";
import { lineChart, logAxis, tokensAxis } from "../../kit/plot.js";
import { costPresets, precisions } from "./cost-presets.js";
import { formula, workedSteps } from "../../kit/worked.js";
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
import css from "./cost.css";

// Context lengths the slider steps through and the chart samples: powers of two from 1 to
// 2^30, the core's limit on tokens.
const TOKEN_STEPS = Array.from({ length: 31 }, (_, k) => 2 ** k);
// The chart's x axis reaches at least this far, so short contexts are seen against long ones.
const MIN_X_MAX = 2 ** 17;
// Both charts' tokens axis (plot.js's tokensAxis): n, a tick at every sixteenfold.
const TOKENS_N = { every: 4, label: "tokens n (log scale)", name: "tokens n" };

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
    this.tableTitleId = `${id}-models`;
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

    this.stats = h("dl", { class: "cost-stats" });
    this.chart = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "cost-legend" });
    this.linearChart = h("div", { class: "chart-box" });
    this.linearLegend = h("ul", { class: "cost-linear-legend" });
    this.worked = h("div", { class: "worked" });
    this.models = h("div", { class: "cost-models" });

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
      this.stats,
      h("div", { class: "cost-figure" }, this.chart, this.legend),
      h("p", { class: "cost-subhead" }, "Arithmetic per layer: attention against the linear layers"),
      h("div", { class: "cost-figure cost-linear" }, this.linearChart, this.linearLegend),
      h("p", { class: "cost-subhead" }, "The calculation with these numbers"),
      this.worked,
      this.models,
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

  render(r) {
    this.renderStats(r);
    this.renderChart(r);
    this.renderLinear(r);
    this.renderWorked(r);
    // The models' table changes only with the bytes per value and the preset loaded.
    patch(
      this.models,
      keep([r.cfg.kvBytesPerElement, this.activePreset()], () => this.modelsFor(r)),
    );
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

  renderStats({ now }) {
    // A card too narrow for its count wraps it after a group's comma (a <wbr>, which adds no
    // text), not inside a group ("1,946,157,05" over "6").
    const breakable = (value) => value.split(",").flatMap((part, i) => (i ? [",", h("wbr"), part] : [part]));
    const stat = (term, value, note, cls) =>
      h(
        "div",
        { class: `cost-stat ${cls ?? ""}` },
        h("dt", {}, term),
        h("dd", {}, h("strong", {}, ...breakable(value)), note ? h("span", {}, note) : null),
      );
    patch(
      this.stats,
      stat(["Scores per head, ", sym("n"), "²"], fmtCount(now.scoresPerHead, CARD_DIGITS), null, "scores"),
      stat(
        "Scores per layer",
        fmtCount(now.scoresPerLayer, CARD_DIGITS),
        "one layer, all heads and sequences",
        "scores",
      ),
      stat("Key-value cache", fmtBytes(now.kvBytes), `${fmtCount(now.kvValues, CARD_DIGITS)} values`, "kv"),
      stat("Cache added per token", fmtBytes(now.kvBytesPerToken), "each sequence, all layers", "kv"),
      stat("QK + AV multiply-adds", fmtCount(now.macs, CARD_DIGITS), "all layers, full square"),
      now.linearMacsPerLayer === undefined
        ? null
        : [
            stat(
              "Linear-layer multiply-adds",
              fmtCount(now.linearMacsPerLayer, CARD_DIGITS),
              "per layer: projections and feed-forward",
              "linear",
            ),
            stat("Attention's share", pct(now.attentionShare, 1), "of one layer's multiply-adds", "scores"),
            stat(
              "Attention overtakes at",
              fmtCount(now.crossoverTokens, CARD_DIGITS),
              "tokens: QK + AV = linear layers",
              "linear",
            ),
          ],
    );
  }

  /** Attention's multiply-adds per layer (∝ n²) against the linear layers' (∝ n), with the crossover. */
  renderLinear({ cfg, now, curve, xMax }) {
    if (now.linearMacsPerLayer === undefined) {
      patch(
        this.linearChart,
        h(
          "p",
          { class: "cost-linear-off" },
          h(
            "span",
            { class: "llm-screen-only" },
            "Give the model width ",
            sym("d", "model"),
            " and the feed-forward size ",
            sym("d", "ff"),
            ", or load a real model, to compare attention's arithmetic with the linear layers' and see where it takes over.",
          ),
          h(
            "span",
            { class: "llm-print-only" },
            "The linear layers are left out: the model width and the feed-forward size are not set.",
          ),
        ),
      );
      patch(this.linearLegend);
      return;
    }
    const att = curve.map(([n, c]) => [n, c.macsPerLayer]);
    const lin = curve.map(([n, c]) => [n, c.linearMacsPerLayer]);
    const all = [...att, ...lin].map(([, y]) => y);
    const y = logAxis(Math.min(...all), Math.max(...all), { format: countTick });
    const crossover = now.crossoverTokens;
    patch(
      this.linearChart,
      lineChart({
        title:
          "Multiply-adds per layer against the number of tokens: attention's QK and AV against the linear layers (both axes logarithmic)",
        x: tokensAxis(xMax, TOKENS_N),
        y: { ...y, label: "multiply-adds per layer (log scale)" },
        series: [
          { points: lin, class: "series cost-linear", label: "linear layers' multiply-adds" },
          { points: att, class: "series cost-scores", label: "attention's multiply-adds" },
        ],
        describe: `At the marked n = ${fmtCount(cfg.tokens)}: attention ${fmtCount(now.macsPerLayer, CARD_DIGITS)} multiply-adds per layer, the linear layers ${fmtCount(now.linearMacsPerLayer, CARD_DIGITS)}; they are equal at n = ${fmtCount(crossover, CARD_DIGITS)}.`,
        markers: [
          { x: cfg.tokens, y: now.macsPerLayer, class: "marker cost-scores" },
          { x: cfg.tokens, y: now.linearMacsPerLayer, class: "marker cost-linear" },
        ],
        vlines: [
          { x: crossover, label: `n = ${fmtCount(crossover, CARD_DIGITS)}`, class: "guide cost-crossover" },
          { x: cfg.tokens, class: "guide cost-now" },
        ],
      }),
    );
    patch(
      this.linearLegend,
      h(
        "li",
        {},
        h("span", { class: "swatch cost-scores", "aria-hidden": "true" }),
        "Attention, QK + AV: 2·",
        sym("b"),
        "·",
        sym("h"),
        "·",
        sym("n"),
        "²·",
        sym("d"),
        ": ",
        h("strong", { class: "cost-attention-macs" }, fmtCount(now.macsPerLayer)),
        " at ",
        sym("n"),
        ` = ${grouped(cfg.tokens)}`,
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-linear", "aria-hidden": "true" }),
        "Linear layers, Q, K, V, O and feed-forward: ",
        h("strong", { class: "cost-linear-macs" }, fmtCount(now.linearMacsPerLayer)),
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-crossover", "aria-hidden": "true" }),
        "Equal at ",
        sym("n"),
        " = ",
        h("strong", { class: "cost-crossover-tokens" }, fmtCount(now.crossoverTokens)),
        " tokens; here attention does ",
        h("strong", { class: "cost-attention-share" }, pct(now.attentionShare, 1)),
        " of the arithmetic",
      ),
    );
  }

  renderChart({ cfg, now, curve, xMax }) {
    const scores = curve.map(([n, c]) => [n, c.scoresPerLayer]);
    const kv = curve.map(([n, c]) => [n, c.kvValuesPerLayer]);
    const all = [...scores, ...kv].map(([, y]) => y);
    const y = logAxis(Math.min(...all), Math.max(...all), { format: countTick });
    patch(
      this.chart,
      lineChart({
        title:
          "Attention scores and cached key-value entries per layer against the number of tokens (both axes logarithmic)",
        x: tokensAxis(xMax, TOKENS_N),
        y: { ...y, label: "count per layer (log scale)" },
        series: [
          { points: scores, class: "series cost-scores", label: "scores per layer" },
          { points: kv, class: "series cost-kv", label: "cached values per layer" },
        ],
        describe: `At the marked n = ${fmtCount(cfg.tokens)}: ${fmtCount(now.scoresPerLayer, CARD_DIGITS)} scores and ${fmtCount(now.kvValuesPerLayer, CARD_DIGITS)} cached values per layer.`,
        markers: [
          { x: cfg.tokens, y: now.scoresPerLayer, class: "marker cost-scores" },
          { x: cfg.tokens, y: now.kvValuesPerLayer, class: "marker cost-kv" },
        ],
        vlines: [{ x: cfg.tokens, class: "guide cost-now" }],
      }),
    );
    patch(
      this.legend,
      h(
        "li",
        {},
        h("span", { class: "swatch cost-scores", "aria-hidden": "true" }),
        "Scores, ",
        sym("b"),
        "·",
        sym("h"),
        "·",
        sym("n"),
        "²: ",
        h("strong", {}, fmtCount(now.scoresPerLayer)),
        " at ",
        sym("n"),
        ` = ${grouped(cfg.tokens)}`,
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-kv", "aria-hidden": "true" }),
        "Cached keys and values, 2·",
        sym("b"),
        "·",
        sym("n"),
        "·",
        sym("h", "kv"),
        "·",
        sym("d"),
        ": ",
        h("strong", {}, fmtCount(now.kvValuesPerLayer)),
      ),
    );
  }

  /** The calculation with the reader's numbers substituted: its steps, drawn by the kit (worked.js). */
  renderWorked({ cfg, now }) {
    const {
      tokens: n,
      heads,
      kvHeads,
      headDim: d,
      layers: L,
      batch: b,
      kvBytesPerElement: p,
      hidden,
      intermediate,
      gatedMlp,
    } = cfg;
    const c = (x) => fmtCount(x);
    const layers = `${c(L)} layer${L === 1 ? "" : "s"}`;
    const bytes = (x) => (x >= 1024 ? ` (${c(x)} bytes)` : "");
    const linear = now.linearMacsPerLayer !== undefined;
    const matrices = gatedMlp ? 3 : 2;
    patch(
      this.worked,
      workedSteps([
        {
          name: "Scores per head",
          lead: "Every query meets every key: ",
          formula: "n²",
          with: { n: c(n) },
          result: c(now.scoresPerHead),
          tail: ".",
        },
        {
          name: "Scores per layer",
          formula: "b·h·n²",
          values: `${c(b)}·${c(heads)}·${c(now.scoresPerHead)}`,
          result: c(now.scoresPerLayer),
          tail: ".",
        },
        {
          name: "Cached values per layer",
          lead: ["One key and one value of length ", sym("d"), " per token and key-value head: "],
          formula: "2·b·n·h_kv·d",
          with: { b: c(b), n: c(n), h_kv: c(kvHeads), d: c(d) },
          result: c(now.kvValuesPerLayer),
          tail: ".",
        },
        {
          name: "Whole cache",
          lead: [
            `Over ${layers}: ${c(now.kvValuesPerLayer)}·${c(L)} = ${c(now.kvValues)} values; at `,
            sym("p"),
            ` = ${fmt(p)} byte${p === 1 ? "" : "s"} each, `,
          ],
          values: `${c(now.kvValues)}·${fmt(p)}`,
          result: fmtBytes(now.kvBytes),
          tail: [bytes(now.kvBytes), "."],
        },
        {
          name: "Per token",
          lead: "Each new token of each sequence adds ",
          formula: "2·h_kv·d·L·p",
          with: { h_kv: c(kvHeads), d: c(d), L: c(L), p: fmt(p) },
          result: fmtBytes(now.kvBytesPerToken),
          tail: [bytes(now.kvBytesPerToken), "."],
        },
        {
          name: "Multiply-adds",
          lead: ["Scores ", formula("QK^⊤"), ": "],
          formula: "b·h·n²·d",
          values: `${c(b)}·${c(heads)}·${c(now.scoresPerHead)}·${c(d)}`,
          tail: [
            ` = ${c(now.qkMacsPerLayer)} per layer; weights times values, the same ${c(now.avMacsPerLayer)}; together ${c(now.macsPerLayer)} per layer and `,
            h("strong", {}, c(now.macs)),
            ` over ${layers}.`,
          ],
        },
        linear && {
          name: "Linear layers",
          lead: [
            "Every token goes through the query and output projections (",
            formula("d_model × hd"),
            " each), the key and value projections (",
            formula("d_model × h_{kv}d"),
            " each) and the feed-forward block (",
            gatedMlp ? "three" : "two",
            " matrices of ",
            formula("d_model × d_ff"),
            "): ",
          ],
          formula: "b·n·d_model·d·(2h + 2h_kv)",
          values: `${c(b)}·${c(n)}·${c(hidden)}·${c(d)}·(2·${c(heads)} + 2·${c(kvHeads)})`,
          tail: [
            ` = ${c(now.projectionMacsPerLayer)}, plus `,
            formula(`${matrices}·b·n·d_model·d_ff`),
            ` = ${matrices}·${c(b)}·${c(n)}·${c(hidden)}·${c(intermediate)} = ${c(now.ffnMacsPerLayer)}; together `,
            h("strong", {}, c(now.linearMacsPerLayer)),
            " per layer, growing as ",
            sym("n"),
            ".",
          ],
        },
        linear && {
          name: "Crossover",
          lead: [
            "Attention's ",
            formula("2·b·h·n²·d"),
            " grows as ",
            formula("n²"),
            " and equals the linear layers' at ",
            sym("n"),
            " = (linear multiply-adds per token) / (",
            formula("2·h·d"),
            ")",
          ],
          result: c(now.crossoverTokens),
          tail: [
            " tokens, whatever the batch. At ",
            sym("n"),
            ` = ${c(n)} attention does `,
            h("strong", {}, pct(now.attentionShare, 1)),
            ` of the layer's multiply-adds (${c(now.macsPerLayer)} of ${c(now.macsPerLayer)} + ${c(now.linearMacsPerLayer)}).`,
          ],
        },
      ]),
    );
  }

  modelsFor({ cfg, models }) {
    const active = this.activePreset();
    const c0 = (x) => `${fmtCount(x)} bytes`;
    const row = ({ key, preset: p, cost }) =>
      h(
        "tr",
        { class: key === active ? "selected" : null },
        h(
          "th",
          { scope: "row" },
          h(
            "button",
            { type: "button", "aria-pressed": key === active ? "true" : "false", onclick: () => this.loadPreset(key) },
            p.label,
          ),
        ),
        h("td", {}, String(p.layers)),
        h("td", {}, String(p.heads)),
        h("td", {}, String(p.kvHeads)),
        h("td", {}, String(p.headDim)),
        h("td", { class: "bytes" }, c0(cost.kvBytesPerToken), h("span", {}, fmtBytes(cost.kvBytesPerToken))),
        h("td", { class: "bytes" }, fmtBytes(cost.kvBytes), h("span", {}, `${grouped(p.tokens)} tokens`)),
        h("td", { class: "crossover" }, fmtCount(cost.crossoverTokens)),
      );
    // The title sits outside the scrolling box so that it stays readable on a narrow screen.
    return [
      h(
        "p",
        { class: "cost-table-title", id: this.tableTitleId },
        `Real models, at ${fmt(cfg.kvBytesPerElement)} byte${cfg.kvBytesPerElement === 1 ? "" : "s"} per value`,
        h("span", { class: "llm-screen-only" }, " (choose one to load it)"),
      ),
      scrollBox(
        "Real models",
        "cost-table-scroll",
        h(
          "table",
          { class: "cost-table", "aria-labelledby": this.tableTitleId },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Model"),
              h("th", { scope: "col" }, sym("L")),
              h("th", { scope: "col" }, sym("h")),
              h("th", { scope: "col" }, sym("h", "kv")),
              h("th", { scope: "col" }, sym("d")),
              h("th", { scope: "col" }, "Cache per token"),
              h("th", { scope: "col" }, "Cache at its context"),
              h("th", { scope: "col" }, "Attention = linear layers at n"),
            ),
          ),
          h("tbody", {}, models.map(row)),
        ),
      ),
      h(
        "ul",
        { class: "cost-sources" },
        models.map(({ preset: p }) =>
          h("li", {}, h("strong", {}, p.label), ": ", h("cite", {}, p.source), ".", p.note ? ` ${p.note}` : ""),
        ),
      ),
    ];
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

// The result cards are narrow: counts of more than ten digits are shown in scientific notation.
const CARD_DIGITS = 10;

/** A count's tick on a logarithmic axis: 1 to 1000 as they are, then 10⁴, 10⁵, … */
function countTick(t) {
  const k = Math.round(Math.log10(t));
  return k <= 3 ? String(t) : `10${superscript(k)}`;
}

export const widgets = { "llm-cost": LlmCost, "llm-answer-cost": LlmAnswerCost };
