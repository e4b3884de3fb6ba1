// <llm-model>: "Your model". The reader pastes a model's config.json, drops the file on the figure,
// opens it, or picks one of the built-in models (the real files the core is tested against,
// data/models/), and sees what the core read from it (its weights' format among it) and
// what it assumed; then, at the context, batch and cache precision they choose and on the devices
// they choose (a GPU from model-devices.js or a custom one, how many, split how, the engine's
// share of memory, reserve, page and window policy): the verdict in words (whether the weights fit
// and on how many devices, what is to spare, what stops the context, the engine's pool, the
// decoding floor), the key-value cache against the context with full, windowed and latent layers
// as stacked areas, one device's weights and cache against its usable memory, the decoding floor
// against the context, the attention arithmetic of the next token beside the linear layers', and
// the calculation written out with their numbers. A context past the model's limit is shown at the
// limit, with a note (the core's beyondContext).
//
// Attributes: see attributes.js (model, config, tokens, batch, kv-precision, weight-format,
// mla-cache, device, devices, split, memory, bandwidth, peak, utilization, reserve,
// sliding-cache, block). A configuration can also be given inline, as the element's child
// <script type="application/json">…</script>: without a model attribute the figure starts from it.
// Properties: result ({ s, source, shape, opts, now, sweep, compared, asked, single, device }),
// state (the attributes' camelCase keys).
//
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state and the core calls; its parts build their
// elements, and draw from compute()'s result: which model (config-input.js), what was read
// (reading.js), the other controls (controls.js), the verdict (verdict.js), the readouts
// (stats.js), the cache chart (cache-chart.js), one device's memory (memory-meter.js), the
// decoding floor (speed-chart.js), the arithmetic (flops-chart.js) and the calculation
// (calculation.js). Its settings are declared in attributes.js, its exercise in exercise.js.
import { uniqueId } from "../../dom.js";
import { fmtBytes, fmtCount, fmtRate } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import {
  ATTRIBUTES,
  CONFIG_MAX,
  DEFAULT_DEVICE,
  DEFAULT_MODEL,
  GIB,
  MAX_TOKENS,
  kvBytesOf,
  presetById,
} from "./attributes.js";
import { CacheChart } from "./cache-chart.js";
import { Calculation } from "./calculation.js";
import { ConfigInput } from "./config-input.js";
import { Controls } from "./controls.js";
import { LlmAnswerModel } from "./exercise.js";
import { FlopsChart } from "./flops-chart.js";
import { MemoryMeter } from "./memory-meter.js";
import { deviceById } from "./model-devices.js";
import { Reading } from "./reading.js";
import { SpeedChart } from "./speed-chart.js";
import { Stats } from "./stats.js";
import { Verdict } from "./verdict.js";
import css from "./model.css";

// The figure's lists and its link's limit, exported by its module as before its parts had files.
export { CONFIG_MAX, KV_PRECISIONS, WEIGHT_FORMATS } from "./attributes.js";

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them. A part that holds controls is made with the figure, whose state
 * they set.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmModel extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  /** A built-in model replaces a configuration given before; custom keeps it. */
  static presetFields(name) {
    return name === "custom" ? {} : { config: "" };
  }

  /**
   * A configuration given in the state is what the figure shows: its model is custom. So is a
   * device given by its memory, bandwidth or peak.
   */
  normalize(s) {
    if (s.config && s.model !== "custom") s.model = "custom";
    if ((s.memory > 0 || s.bandwidth > 0 || s.peak > 0) && s.device !== "custom") s.device = "custom";
  }

  /** The device the state names: its name, memory in bytes, bandwidth and peak (absent: not known). */
  deviceSpec() {
    const s = this.state;
    const d = deviceById(s.device);
    if (d)
      return {
        name: d.name,
        memoryBytes: d.memoryMiB * 2 ** 20,
        bandwidth: d.bandwidthGBs * 1e9,
        peak: d.peakTflops * 1e12,
        device: d,
      };
    // a custom device's value left at 0 is the default device's
    const base = deviceById(DEFAULT_DEVICE);
    return {
      name: "custom device",
      memoryBytes: s.memory > 0 ? s.memory * GIB : base.memoryMiB * 2 ** 20,
      bandwidth: (s.bandwidth > 0 ? s.bandwidth : base.bandwidthGBs) * 1e9,
      peak: (s.peak > 0 ? s.peak : base.peakTflops) * 1e12,
      device: null,
    };
  }

  constructor() {
    super();
    /** @type {MutationObserver | null} watches for the inline configuration (connectedCallback) */
    this._inlineWatch = null;
    /** @type {{ text: string, version: number } | null} a pasted or dropped file too large for a link */
    this.pasted = null;
    this.pastedVersion = 0;
    // The built-in model a link names in place of a configuration too large to travel in it.
    this.lastModel = DEFAULT_MODEL;
  }

  /** The configuration given inline, as the element's <script type="application/json"> child, or null. */
  inlineConfig() {
    const script = [...this.children].find(
      (c) => c.localName === "script" && c.getAttribute("type") === "application/json",
    );
    return script ? script.textContent : null;
  }

  /**
   * An inline configuration is one of the figure's attributes. On a page whose script comes before
   * the element, the element is connected as its start tag is parsed, before its children: the
   * <script type="application/json"> child, or its text, arrives after. So the figure watches its
   * children, and when the inline configuration appears or changes, it starts again from its
   * attributes, as it does when one of them changes.
   */
  connectedCallback() {
    super.connectedCallback();
    if (this._inlineWatch) return;
    let seen = this.inlineConfig();
    this._inlineWatch = new MutationObserver(() => {
      const now = this.inlineConfig();
      if (now === seen) return;
      seen = now;
      if (this.hasAttribute("model") || this.hasAttribute("config")) return;
      this.state = this._stateFrom(this._pageSettings).state;
      this._redraw();
    });
    this._inlineWatch.observe(this, { childList: true, subtree: true, characterData: true });
  }

  /** With an inline configuration and no model attribute, the figure starts from the inline one. */
  attributeSettings() {
    const out = super.attributeSettings();
    if (!out.has("model") && this.inlineConfig() !== null) out.set("model", "custom");
    return out;
  }

  /**
   * A pasted configuration too large for a link is not in the state: a link names the built-in
   * model shown before it, and the figure says so (its link note).
   */
  settings(relativeTo = "attributes") {
    if (!this.tooLarge()) return super.settings(relativeTo);
    const own = this.state;
    this.state = { ...own, model: this.lastModel, config: "" };
    try {
      return super.settings(relativeTo);
    } finally {
      this.state = own;
    }
  }

  /**
   * What Copy embed code carries beyond the settings: a configuration pasted or given inline,
   * which the settings do not hold. Short enough, it is the config attribute; longer, the
   * element's JSON child (the embed code's script form). null when the settings hold it all.
   */
  embedData() {
    const source = this.source();
    if (source.kind !== "pasted" && source.kind !== "inline") return null;
    let json;
    try {
      json = JSON.stringify(JSON.parse(source.text));
    } catch {
      return null;
    }
    const own = this.state;
    this.state = { ...own, model: DEFAULT_MODEL, config: "" };
    let rest;
    try {
      rest = super.settings("defaults").filter(([n]) => n !== "model" && n !== "config");
    } finally {
      this.state = own;
    }
    const short = json.length <= CONFIG_MAX;
    return {
      settings: [["model", "custom"], ...(short ? [["config", json]] : []), ...rest],
      inline: short ? null : json,
    };
  }

  /** Whether the figure shows a pasted configuration that a link cannot carry. */
  tooLarge() {
    return this.state?.model === "custom" && !this.state.config && this.pasted !== null;
  }

  /**
   * Where the configuration comes from: { kind, key, text, name }: a built-in model ("preset"),
   * the config setting ("config"), a pasted or dropped file too large for a link ("pasted"), or
   * the inline <script> ("inline"). `key` names it for the memo without hashing a long text.
   */
  source() {
    const s = this.state;
    if (s.model !== "custom") {
      const p = presetById(s.model);
      return { kind: "preset", key: `preset:${p.id}`, text: p.text, name: p.name };
    }
    if (s.config) return { kind: "config", key: `config:${s.config}`, text: s.config, name: "Your configuration" };
    if (this.pasted) {
      return {
        kind: "pasted",
        key: `pasted:${this.pasted.version}`,
        text: this.pasted.text,
        name: "Your configuration",
      };
    }
    const inline = this.inlineConfig();
    if (inline !== null)
      return { kind: "inline", key: `inline:${inline}`, text: inline, name: "The page's configuration" };
    return { kind: "none", key: "none", text: "", name: "" };
  }

  /** The core's reading of a source's text, once per configuration (memoised). */
  shapeOf(source) {
    if (source.kind === "none")
      throw new Error(
        'model is custom but no configuration is given: paste a config.json, or give config or a <script type="application/json"> child',
      );
    return this.memo("shape", [source.key], () => this.core.modelFromConfigText(source.text));
  }

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes, sync() sets
   * those that hold controls from the state, render() has each draw the result.
   */
  build() {
    const id = uniqueId("model");
    this.configInput = new ConfigInput(this, id);
    this.controls = new Controls(this);
    /** @type {Part[]} */
    this.parts = [
      this.configInput,
      new Reading(`${id}-read`),
      this.controls,
      new Verdict(),
      new Stats(),
      new CacheChart(),
      new MemoryMeter(),
      new SpeedChart(),
      new FlopsChart(),
      new Calculation(),
    ];
    this.frame.append(...this.parts.flatMap((part) => part.nodes));
  }

  /** Back to the attributes: a pasted configuration is forgotten. */
  reset() {
    this.pasted = null;
    this.configInput.configError(null);
    super.reset();
  }

  /** Sets the lists, the fields, the slider and the text box from the state. */
  sync() {
    this.configInput.sync(this.state);
    this.controls.sync(this.state);
  }

  /** The options of modelCost, from the state. */
  get inputs() {
    const s = this.state;
    const d = this.deviceSpec();
    const devices = { count: s.devices, memoryBytes: d.memoryBytes };
    if (d.bandwidth !== undefined) devices.bandwidthBytesPerSecond = d.bandwidth;
    if (d.peak !== undefined) devices.flopsPerSecond = d.peak;
    return {
      tokens: s.tokens,
      batch: s.batch,
      kvBytesPerElement: kvBytesOf(s.kvPrecision),
      weightFormat: s.weightFormat,
      mlaCache: s.mlaCache,
      // 0: the core splits the model over as many devices as its heads allow
      tensorParallel: s.split === "none" ? 1 : 0,
      devices,
      memoryUtilization: s.utilization,
      reserveBytes: s.reserve * GIB,
      slidingCache: s.slidingCache,
      blockTokens: s.block,
    };
  }

  compute() {
    const s = this.state;
    const source = this.source();
    const shape = this.shapeOf(source);
    const opts = this.inputs;
    let now = this.core.modelCost(shape, opts);
    // A context past the model's limit (the core's beyondContext) is shown at the limit, with a
    // note saying what was asked; picking or pasting a model moves the state there (capToModel).
    let asked;
    if (now.beyondContext) {
      asked = opts.tokens;
      opts.tokens = shape.maxContext;
      now = this.core.modelCost(shape, opts);
    }
    // The curves: every context length of the axis in one call, again only when something but the
    // context changes.
    const tokens = axisTokens(shape);
    const rest = { ...opts };
    delete rest.tokens;
    const curveKey = JSON.stringify(rest);
    const sweep = this.memo("sweep", [source.key, curveKey], () =>
      this.core.modelCostSweep(shape, { ...rest, tokens }),
    );
    // A latent-attention model's cache is drawn beside the other convention's, as a line, so that
    // the reader sees at a glance how much the latent saves (again only when the curves change).
    const other = s.mlaCache === "latent" ? "expanded" : "latent";
    const compared =
      shape.mla === null
        ? null
        : this.memo("compared", [source.key, s.batch, s.kvPrecision, other, s.slidingCache], () => ({
            mlaCache: other,
            sweep: this.core.modelCostSweep(shape, {
              tokens,
              batch: opts.batch,
              kvBytesPerElement: opts.kvBytesPerElement,
              mlaCache: other,
              slidingCache: opts.slidingCache,
            }),
          }));
    // One sequence's floor beside the batch's, for the calculation of what batching buys.
    const single =
      now.decode && opts.batch > 1
        ? this.memo("single", [source.key, curveKey, opts.tokens], () =>
            this.core.modelCost(shape, { ...opts, batch: 1 }),
          )
        : null;
    if (source.kind === "preset") this.lastModel = s.model;
    return { s, source, shape, opts, now, sweep, compared, asked, single, device: this.deviceSpec() };
  }

  /** Each part draws the result into its own elements, in the order they stand in the figure. */
  render(r) {
    for (const part of this.parts) part.render(r);
  }

  /** One sentence: the model, the cache at the context, the weights and whether they fit. */
  summary({ s, source, opts, now, device }, { concealed } = { concealed: false }) {
    const on = `${fmtCount(s.devices)} × ${device.name}`;
    const fits =
      now.fit.limitedBy === "weights"
        ? `the weights alone do not fit ${on}`
        : `on ${on} at most ${fmtCount(now.fit.maxBatch)} sequences fit at this context`;
    // Exercise 4b asks for the floor: while it is held back, the sentence does not state it.
    const speed = !now.decode
      ? ""
      : concealed
        ? "; the decoding floor is hidden until you answer Exercise 4b"
        : `; decoding floor ${fmtRate(now.decode.tokensPerSecond)} tokens/s`;
    return `${source.name}: at ${fmtCount(opts.tokens)} tokens and a batch of ${fmtCount(s.batch)}, the key-value cache is ${fmtBytes(now.kvBytes)} beside ${fmtBytes(now.weightsBytes)} of weights (${now.weightsFormat}); ${fits}${speed}.`;
  }
}

/**
 * The context lengths the curves are drawn at (screen mapping): four a doubling from 1 to the
 * model's maximum context, and the maximum, the window and the chunk themselves, so that a
 * window's corner is drawn where it is.
 */
function axisTokens(shape) {
  const max = Math.min(Math.max(shape.maxContext, 2), MAX_TOKENS);
  const set = new Set([1, max]);
  for (let k = 0; 2 ** (k / 4) < max; k += 1) set.add(Math.round(2 ** (k / 4)));
  for (const t of [shape.window, shape.chunk]) if (t !== null && t < max) set.add(t);
  return [...set].sort((a, b) => a - b);
}

export const widgets = { "llm-model": LlmModel, "llm-answer-model": LlmAnswerModel };
