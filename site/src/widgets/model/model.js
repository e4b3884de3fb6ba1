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
import { h, keep, patch, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmt, fmtBytes, fmtCount, fmtRate, fmtSeconds, grouped } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { choice, markInvalid, markSettings, numberField, slider } from "../../kit/controls.js";
import { legend, lineChart, logAxis, meterChart, tokensAxis } from "../../kit/plot.js";
import { modelPresets } from "llmmath:model-presets";
import {
  ATTRIBUTES,
  CONFIG_MAX,
  DEFAULT_DEVICE,
  DEFAULT_MODEL,
  GIB,
  KV_PRECISIONS,
  MAX_BANDWIDTH,
  MAX_BATCH,
  MAX_DEVICES,
  MAX_MEMORY,
  MAX_PEAK,
  MAX_TOKENS,
  WEIGHT_FORMATS,
  kvBytesOf,
  presetById,
} from "./attributes.js";
import { LlmAnswerModel } from "./exercise.js";
import { DEVICES, deviceById } from "./model-devices.js";
import { workedSteps } from "../../kit/worked.js";
import css from "./model.css";

// The figure's lists and its link's limit, exported by its module as before they had a file.
export { CONFIG_MAX, KV_PRECISIONS, WEIGHT_FORMATS } from "./attributes.js";

// The kinds of layer, in the core's order, with their names in words and how they hold tokens.
const KINDS = {
  full: { label: "full", holds: "every token" },
  sliding: { label: "sliding", holds: "the window" },
  chunked: { label: "chunked", holds: "the current chunk" },
  mla: { label: "latent (MLA)", holds: "every token" },
};
// The chart stacks the windowed and latent kinds under the full layers, so that on its logarithmic
// axis a flat window or a small latent cache is a band of its own at the bottom.
const STACK = ["sliding", "chunked", "mla", "full"];
// The charts' axes (plot.js): the context in tokens, and bytes at powers of two.
const CONTEXT = { label: "context, tokens (log scale)" };
const BYTES = /** @type {const} */ ({ base: 2, format: fmtBytes });

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

  build() {
    const id = uniqueId("model");
    this.ids = { text: `${id}-text`, read: `${id}-read`, file: `${id}-file` };
    this.modelChoice = choice({
      label: "Model",
      value: DEFAULT_MODEL,
      onchange: (key) => this.pickModel(key),
      options: [...modelPresets.map((p) => [p.id, p.name]), ["custom", "Your configuration"]],
    });
    /** @type {HTMLOptionElement} */ (this.modelChoice.select.lastElementChild).disabled = true;
    this.text = h("textarea", {
      id: this.ids.text,
      class: "model-text",
      rows: 8,
      spellcheck: "false",
      autocomplete: "off",
      "aria-describedby": `${id}-text-hint ${id}-message`,
      oninput: () => this.readText(this.text.value),
    });
    this.fileInput = h("input", {
      type: "file",
      id: this.ids.file,
      accept: ".json,application/json",
      class: "model-file",
      onchange: () => this.readFile(this.fileInput.files?.[0]),
    });
    this.message = h("p", { class: "model-message", id: `${id}-message` });
    this.linkNote = h("p", { class: "hint model-link-note", hidden: true });

    this.tokenSlider = slider({
      label: ["Context ", sym("n")],
      min: 0,
      max: 30,
      step: 1,
      oninput: (k) => this.set({ tokens: this.sliderSteps[k] }, { sync: true }),
    });
    this.tokenSlider.input.setAttribute("aria-label", "Context n, in powers of two");
    this.sliderSteps = [1];
    const field = (key, label, { min, max, decimal = false }) => {
      const f = numberField({
        label,
        value: "",
        min,
        max,
        step: decimal ? "any" : "1",
        className: "model-num",
        oninput: (v, input) => {
          this.set({ [key]: v }, { sync: true });
          if (this.failed) markInvalid(input, true);
        },
      });
      if (!decimal) f.input.setAttribute("inputmode", "numeric");
      return f;
    };
    this.fields = {
      tokens: field("tokens", ["Tokens ", sym("n")], { min: 1, max: MAX_TOKENS }),
      batch: field("batch", ["Batch ", sym("b")], { min: 1, max: MAX_BATCH }),
      devices: field("devices", "Devices", { min: 1, max: MAX_DEVICES }),
      utilization: field("utilization", "Memory share", { min: 0, max: 1, decimal: true }),
      reserve: field("reserve", "Reserve (GiB)", { min: 0, max: MAX_MEMORY, decimal: true }),
      memory: field("memory", "Memory (GiB)", { min: 0, max: MAX_MEMORY, decimal: true }),
      bandwidth: field("bandwidth", "Bandwidth (GB/s)", { min: 0, max: MAX_BANDWIDTH, decimal: true }),
      peak: field("peak", "Peak (TFLOPS)", { min: 0, max: MAX_PEAK, decimal: true }),
      block: field("block", "Page (tokens)", { min: 1, max: 1024 }),
    };
    this.precision = choice({
      label: "KV cache precision",
      value: "bf16",
      onchange: (kvPrecision) => this.set({ kvPrecision }, { sync: true }),
      options: KV_PRECISIONS.map((p) => [p.key, p.label]),
    });
    this.weightChoice = choice({
      label: "Weights stored",
      value: "file",
      onchange: (weightFormat) => this.set({ weightFormat }, { sync: true }),
      options: WEIGHT_FORMATS.map((f) => [f.key, f.label]),
    });
    this.mlaChoice = choice({
      label: "Latent cache counted as",
      value: "latent",
      onchange: (mlaCache) => this.set({ mlaCache }, { sync: true }),
      options: [
        ["latent", "latent (vLLM, SGLang)"],
        ["expanded", "expanded per head (transformers)"],
      ],
    });
    this.deviceChoice = choice({
      label: "Device",
      value: "h100-sxm",
      onchange: (key) => this.pickDevice(key),
      options: [...DEVICES.map((d) => [d.id, d.name]), ["custom", "Custom (typed below)"]],
    });
    this.splitChoice = choice({
      label: "Devices share it",
      value: "most",
      onchange: (split) => this.set({ split }, { sync: true }),
      options: [
        ["most", "split (tensor parallel)"],
        ["none", "a copy on each"],
      ],
    });
    this.slidingChoice = choice({
      label: "Windowed layers keep",
      value: "window",
      onchange: (slidingCache) => this.set({ slidingCache }, { sync: true }),
      options: [
        ["window", "their window (vLLM, SGLang)"],
        ["full", "every token"],
      ],
    });
    markSettings({
      model: this.modelChoice.select,
      ...Object.fromEntries(Object.entries(this.fields).map(([key, f]) => [key, f.input])),
      "kv-precision": this.precision.select,
      "weight-format": this.weightChoice.select,
      "mla-cache": this.mlaChoice.select,
      device: this.deviceChoice.select,
      split: this.splitChoice.select,
      "sliding-cache": this.slidingChoice.select,
    });
    this.deviceNote = h("p", { class: "hint model-device-note" });
    this.capNote = h("p", { class: "model-cap-note", hidden: true, role: "note" });

    this.read = h("div", { class: "model-read", id: this.ids.read });
    this.verdict = h("div", { class: "model-verdict" });
    this.stats = h("dl", { class: "model-stats" });
    this.chart = h("div", { class: "chart-box" });
    this.chartLegend = h("div", { class: "model-legend" });
    this.meter = h("div", { class: "chart-box model-meter" });
    this.fit = h("p", { class: "model-fit" });
    this.speed = h("div", { class: "chart-box" });
    this.speedLegend = h("div", { class: "model-speed-legend" });
    this.speedHead = h("p", { class: "model-subhead model-speed-head" }, "The decoding floor against the context");
    this.speedFigure = h("div", { class: "model-figure model-speed" }, this.speed, this.speedLegend);
    this.flops = h("div", { class: "chart-box" });
    this.flopsLegend = h("div", { class: "model-flops-legend" });
    this.worked = h("div", { class: "worked" });

    this.frame.append(
      h(
        "div",
        { class: "model-input" },
        h("div", { class: "controls" }, this.modelChoice.row),
        h(
          "div",
          { class: "model-paste" },
          h("label", { for: this.ids.text }, "config.json"),
          this.text,
          h(
            "p",
            { class: "hint", id: `${id}-text-hint` },
            "Paste a model's config.json here, drop the file on the figure, or open it: it is read in your browser and sent nowhere.",
          ),
          h(
            "div",
            { class: "controls" },
            h("label", { for: this.ids.file, class: "model-file-label" }, "Open a config.json file"),
            this.fileInput,
          ),
          this.message,
          this.linkNote,
        ),
      ),
      this.read,
      h("div", { class: "sliders model-context llm-bar" }, this.tokenSlider.row),
      this.capNote,
      h(
        "div",
        { class: "model-fields" },
        this.fields.tokens.row,
        this.fields.batch.row,
        this.precision.row,
        this.weightChoice.row,
        this.mlaChoice.row,
      ),
      h(
        "fieldset",
        { class: "model-serving" },
        h("legend", {}, "Where it runs"),
        h(
          "div",
          { class: "model-fields" },
          this.deviceChoice.row,
          this.fields.devices.row,
          this.splitChoice.row,
          this.fields.memory.row,
          this.fields.bandwidth.row,
          this.fields.peak.row,
          this.fields.utilization.row,
          this.fields.reserve.row,
          this.slidingChoice.row,
          this.fields.block.row,
        ),
        this.deviceNote,
      ),
      this.verdict,
      this.stats,
      h("p", { class: "model-subhead" }, "The key-value cache against the context"),
      h("div", { class: "model-figure model-cache" }, this.chart, this.chartLegend),
      h("p", { class: "model-subhead" }, "One device's memory: weights and cache against what the engine may use"),
      h("div", { class: "model-figure model-memory" }, this.meter, this.fit),
      this.speedHead,
      this.speedFigure,
      h("p", { class: "model-subhead" }, "Arithmetic of the next token: attention against the linear layers"),
      h("div", { class: "model-figure model-flops" }, this.flops, this.flopsLegend),
      h("p", { class: "model-subhead" }, "The calculation with these numbers"),
      this.worked,
    );
    // A file dropped anywhere on the figure is read as a pasted one.
    this.addEventListener("dragover", (e) => {
      if (!e.dataTransfer?.types?.includes("Files")) return;
      e.preventDefault();
      this.frame.classList.add("model-dropping");
    });
    this.addEventListener("dragleave", () => this.frame.classList.remove("model-dropping"));
    this.addEventListener("drop", (e) => {
      const file = e.dataTransfer?.files?.[0];
      this.frame.classList.remove("model-dropping");
      if (!file) return;
      e.preventDefault();
      this.readFile(file);
    });
  }

  /** Back to the attributes: a pasted configuration is forgotten. */
  reset() {
    this.pasted = null;
    this.configError(null);
    super.reset();
  }

  /** A built-in model: its file, read by the core; the context and the rest stay as they were. */
  pickModel(key) {
    if (!presetById(key)) return;
    this.pasted = null;
    this.lastModel = key;
    this.set({ model: key, config: "" }, { sync: true });
    this.capToModel();
  }

  /**
   * After the reader picks or pastes a model: a context past its limit (the core's beyondContext,
   * which compute() answers by costing the limit) becomes the limit, in the state and the link.
   */
  capToModel() {
    const r = this.result;
    if (r?.asked !== undefined) this.set({ tokens: r.opts.tokens }, { sync: true });
  }

  /** A device from the list (its own memory, bandwidth and peak), or custom, starting from the one shown. */
  pickDevice(key) {
    if (key === "custom") {
      const d = this.deviceSpec();
      this.set(
        {
          device: "custom",
          memory: d.memoryBytes / GIB,
          bandwidth: (d.bandwidth ?? 0) / 1e9,
          peak: (d.peak ?? 0) / 1e12,
        },
        { sync: true },
      );
    } else if (deviceById(key)) {
      this.set({ device: key, memory: 0, bandwidth: 0, peak: 0 }, { sync: true });
    }
  }

  /**
   * A pasted or typed configuration: read by the core at once. A fault (JSON's line and column,
   * or a field the core refuses) is shown under the text and the last good model stays drawn;
   * a good one becomes the figure's, in the link when it is small enough.
   */
  readText(text) {
    if (!this.core) return;
    // a byte-order mark (a file saved by some Windows editors): not part of the JSON, which
    // JSON.parse would refuse, nor of the link
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const key = `text:${text}`;
    let shape;
    try {
      shape = this.memo("shape", [key], () => this.core.modelFromConfigText(text));
    } catch (error) {
      this.configError(error?.message ?? String(error));
      return;
    }
    this.configError(null);
    // The text read as the core accepted it, written without spaces, for the link (formatting).
    const compact = JSON.stringify(JSON.parse(text));
    if (compact.length <= CONFIG_MAX) {
      this.pasted = null;
      this.memo("shape", [`config:${compact}`], () => shape);
      this.set({ model: "custom", config: compact }, { sync: true });
    } else {
      this.pastedVersion += 1;
      this.pasted = { text, version: this.pastedVersion };
      this.memo("shape", [`pasted:${this.pastedVersion}`], () => shape);
      this.set({ model: "custom", config: "" }, { sync: true });
    }
    this.capToModel();
  }

  /** A dropped or opened file: its text, read as a pasted one, shown in the text box. */
  async readFile(file) {
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.configError(`${file.name} could not be read: ${error?.message ?? error}`);
      return;
    }
    this.text.value = text;
    this.readText(text);
  }

  /** Shows the core's message about the text (null clears it) in the figure and its status line. */
  configError(message) {
    this.message.textContent = message ? `Not read: ${message}. The figure still shows the last model read.` : "";
    this.message.classList.toggle("llm-error", Boolean(message));
    markInvalid(this.text, Boolean(message));
    if (message) this.showError(`Not updated: ${message}.`);
    else if (this.failed) this.clearError();
  }

  /** Sets the lists, the fields, the slider and the text box from the state. */
  sync() {
    const s = this.state;
    this.modelChoice.select.value = s.model;
    this.precision.select.value = s.kvPrecision;
    this.mlaChoice.select.value = s.mlaCache;
    this.weightChoice.select.value = s.weightFormat;
    this.deviceChoice.select.value = s.device;
    this.splitChoice.select.value = s.split;
    this.slidingChoice.select.value = s.slidingCache;
    for (const [key, f] of Object.entries(this.fields)) {
      if (!Object.is(f.input.valueAsNumber, s[key])) f.input.value = fieldValue(s[key]);
    }
    // a custom device is typed; a listed one brings its own memory, bandwidth and peak
    const custom = s.device === "custom";
    for (const key of ["memory", "bandwidth", "peak"]) this.fields[key].row.hidden = !custom;
    // The text box shows the configuration shown, unless the reader is typing in it.
    const source = this.source();
    if (this.shadowRoot.activeElement !== this.text && source.kind !== "pasted") {
      if (source.kind === "config") {
        // The reader's own text stays as they wrote it when it is the one the state carries.
        let same;
        try {
          same = JSON.stringify(JSON.parse(this.text.value)) === s.config;
        } catch {
          same = false;
        }
        if (!same) this.text.value = s.config;
      } else if (source.kind !== "pasted") this.text.value = source.text;
    }
    this.syncSlider();
  }

  /**
   * Slider position: the first of its steps at or above the context shown (screen mapping): the
   * state's, or the model's limit when the state asks past it (render passes it).
   */
  syncSlider(n = this.result?.opts?.tokens ?? this.state.tokens) {
    const steps = this.sliderSteps;
    const k = steps.findIndex((t) => t >= n);
    this.tokenSlider.input.max = String(steps.length - 1);
    this.tokenSlider.input.value = String(k < 0 ? steps.length - 1 : k);
    const shown = Number.isFinite(n) ? grouped(n) : "";
    this.tokenSlider.out.value = shown;
    this.tokenSlider.input.setAttribute("aria-valuetext", shown ? `${shown} tokens` : "no value");
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

  render(r) {
    // The slider steps through the model's context: powers of two up to its maximum, and it.
    const steps = sliderTokens(r.shape.maxContext);
    if (steps.join() !== this.sliderSteps.join()) {
      this.sliderSteps = steps;
      this.syncSlider();
    }
    this.mlaChoice.row.hidden = r.shape.mla === null;
    this.slidingChoice.row.hidden = r.shape.window === null && r.shape.chunk === null;
    // the context shown: the state's, or the limit it asked past, in the field and on the slider
    if (this.shadowRoot.activeElement !== this.fields.tokens.input)
      this.fields.tokens.input.value = fieldValue(r.opts.tokens);
    this.syncSlider(r.opts.tokens);
    this.capNote.hidden = r.asked === undefined;
    this.capNote.textContent =
      r.asked === undefined
        ? ""
        : `${fmtCount(r.asked)} tokens were asked for; ${r.source.name} reads at most ${fmtCount(r.shape.maxContext)} (its max_position_embeddings), so the figure shows ${fmtCount(r.shape.maxContext)}.`;
    this.deviceNote.textContent = deviceNote(r);
    this.linkNote.hidden = !this.tooLarge();
    this.linkNote.textContent = this.tooLarge()
      ? `This configuration is longer than the ${grouped(CONFIG_MAX)} characters a link carries: Copy link names ${presetById(this.lastModel)?.name ?? this.lastModel} instead, and the figure there shows that built-in model; Copy embed code carries it (the script form).`
      : "";
    patch(
      this.read,
      keep([r.source.key, r.now.byKind.map((k) => [k.kind, k.layers, k.tokensHeld])], () => this.readPart(r)),
    );
    this.renderVerdict(r);
    this.renderStats(r);
    this.renderChart(r);
    this.renderMeter(r);
    this.renderSpeed(r);
    this.renderFlops(r);
    this.renderWorked(r);
  }

  /** What was read from the file and what was assumed. */
  readPart({ source, shape, now }) {
    const f = (term, value) => h("div", {}, h("dt", {}, term), h("dd", {}, value));
    const c = (x) => fmtCount(x);
    return [
      h(
        "p",
        { class: "model-read-title" },
        // text from a file or a link, isolated: a right-to-left override in it cannot reorder the line
        h("strong", {}, h("bdi", {}, source.name)),
        shape.modelType ? [" (model_type ", h("bdi", { class: "model-type" }, shape.modelType), ")"] : "",
      ),
      h("p", { class: "model-kinds" }, layersByKind(shape, now)),
      h(
        "dl",
        { class: "model-shape" },
        f("Layers", c(shape.layers)),
        f("Hidden size", c(shape.hidden)),
        f("Query heads", c(shape.heads)),
        f("Key-value heads", c(shape.kvHeads)),
        f(
          "Head dimension",
          shape.vHeadDim === shape.headDim ? c(shape.headDim) : `${c(shape.headDim)} (values ${c(shape.vHeadDim)})`,
        ),
        f("MLP width", c(shape.intermediate)),
        f("Vocabulary", c(shape.vocab)),
        f("Maximum context", `${c(shape.maxContext)} tokens`),
        shape.window === null ? null : f("Sliding window", `${c(shape.window)} tokens`),
        shape.chunk === null ? null : f("Attention chunk", `${c(shape.chunk)} tokens`),
        shape.mla === null
          ? null
          : f(
              "Latent attention",
              `rank ${c(shape.mla.kvLoraRank)}, rotary key ${c(shape.mla.qkRopeHeadDim)}, query rank ${shape.mla.qLoraRank === null ? "none" : c(shape.mla.qLoraRank)}`,
            ),
        shape.moe === null
          ? null
          : f(
              "Experts",
              `${c(shape.moe.experts)} routed${shape.moe.sharedExperts ? ` + ${c(shape.moe.sharedExperts)} shared` : ""}, ${c(shape.moe.expertsPerToken)} per token, width ${c(shape.moe.expertWidth)}; ${c(shape.moe.moeLayers)} layers with experts${shape.moe.denseLayers ? `, ${c(shape.moe.denseLayers)} dense` : ""}`,
            ),
        f(
          "Embeddings",
          shape.tiedEmbeddings ? "tied (input and output share one matrix)" : "separate input and output",
        ),
        f("Weights stored", `${shape.weights.format}, ${fmtBytes(shape.weights.bytes)}`),
      ),
      h("p", { class: "model-weights-note" }, shape.weights.note),
      shape.assumed.length
        ? [
            h("p", { class: "model-assumed-title" }, "Assumed (not in the file):"),
            h(
              "ul",
              { class: "model-assumed" },
              shape.assumed.map((a) => h("li", {}, a)),
            ),
          ]
        : h("p", { class: "model-assumed-title" }, "Nothing assumed: every value came from the file."),
    ];
  }

  /**
   * The verdict a practitioner acts on, in words, from the core's fit: whether the weights fit a
   * device at all (and how many devices they need), what is to spare, what stops the context, the
   * engine's pool of pages, and the decoding floor.
   */
  renderVerdict({ s, shape, opts, now, device }) {
    const fit = now.fit;
    const devices = `${fmtCount(s.devices)} × ${device.name}`;
    const lines = [];
    if (fit.limitedBy === "weights") {
      lines.push([
        h("strong", { class: "model-fits-not" }, "The weights alone do not fit: "),
        `${fmtBytes(now.perDevice.weightsBytes)} per device${now.tensorParallel > 1 ? ` split over ${fmtCount(now.tensorParallel)}` : ""}, and each ${device.name} offers ${fmtBytes(fit.usableBytes)}. `,
        fit.devicesNeeded === undefined
          ? "No split over up to 1,024 devices holds them."
          : [
              "They need ",
              h("strong", {}, `${fmtCount(fit.devicesNeeded)} × ${device.name}`),
              ` (split over ${fmtCount(fit.devicesNeeded)}).`,
            ],
      ]);
    } else {
      lines.push(
        fit.fits
          ? [
              h("strong", { class: "model-fits" }, "Fits"),
              ` on ${devices}${splitWords(now)}: ${fmtBytes(fit.spareBytes)} to spare per device at ${fmtCount(opts.tokens)} tokens × ${fmtCount(s.batch)}.`,
            ]
          : [
              h("strong", { class: "model-fits-not" }, "Does not fit"),
              ` on ${devices}${splitWords(now)}: ${fmtCount(s.batch)} sequence${s.batch === 1 ? "" : "s"} of ${fmtCount(opts.tokens)} tokens need ${fmtBytes(-fit.spareBytes)} more per device; at most ${fmtCount(fit.maxBatch)} fit at this context.`,
            ],
      );
      lines.push(
        fit.limitedBy === "context"
          ? `At a batch of ${fmtCount(s.batch)}, each sequence can reach the model's ${fmtCount(shape.maxContext)}-token limit: the model stops it, not the memory.`
          : fit.maxTokens === 0
            ? `At a batch of ${fmtCount(s.batch)}, not even one token each fits beside the weights.`
            : `At a batch of ${fmtCount(s.batch)}, the memory stops each sequence at ${fmtCount(fit.maxTokens)} tokens, short of the model's ${fmtCount(shape.maxContext)}.`,
      );
      lines.push(
        `The engine's pool holds ${fmtCount(now.budget.tokens)} tokens per copy of the model (${fmtCount(now.budget.blocks)} pages of ${fmtCount(s.block)}).`,
      );
    }
    // The decoding floor, a paragraph of its own class: Exercise 4b holds it back.
    const speed = now.decode
      ? h(
          "p",
          { class: "model-verdict-speed" },
          "Decoding floor: ",
          h("strong", {}, `${fmtRate(now.decode.tokensPerSecond)} tokens/s`),
          ` (${fmtSeconds(now.decode.secondsPerStep)} a step, ${now.decode.bound}-bound)`,
          ".",
        )
      : null;
    patch(
      this.verdict,
      lines.map((l) => h("p", {}, l)),
      speed,
      now.notes.length
        ? h(
            "details",
            { class: "model-notes" },
            h("summary", {}, `What the plan assumes (${now.notes.length})`),
            h(
              "ul",
              {},
              now.notes.map((n) => h("li", {}, n)),
            ),
          )
        : null,
    );
  }

  /** The readouts: the cache, its growth per token, the weights, the parameters and the fit. */
  renderStats({ s, opts, now }) {
    const stat = (term, value, note, cls) =>
      h(
        "div",
        { class: `model-stat ${cls ?? ""}` },
        h("dt", {}, term),
        h("dd", {}, h("strong", {}, value), note ? h("span", {}, note) : null),
      );
    const per = now.tensorParallel > 1 ? `on each of ${fmtCount(now.tensorParallel)} devices` : "on the device";
    patch(
      this.stats,
      stat(
        "Key-value cache",
        fmtBytes(now.kvBytes),
        `${fmtCount(s.batch)} × ${fmtCount(opts.tokens)} tokens`,
        "model-kv",
      ),
      stat("Cache per token", fmtBytes(now.kvBytesPerToken), "one sequence, all layers", "model-kv"),
      stat(
        "Weights",
        fmtBytes(now.weightsBytes),
        `${fmtParams(now.params.total)} parameters, ${now.weightsFormat}`,
        "model-weights",
      ),
      stat(
        "Active per token",
        fmtParams(now.params.active),
        `parameters; embedding ${fmtParams(now.params.embedding)}`,
        "model-weights",
      ),
      stat(
        "Weights per device",
        fmtBytes(now.perDevice.weightsBytes),
        `and a cache of ${fmtBytes(now.perDevice.kvBytes)}, ${per}`,
        "model-device",
      ),
      stat(
        "Largest batch that fits",
        fmtCount(now.fit.maxBatch),
        `at ${fmtCount(opts.tokens)} tokens`,
        "model-fit-batch",
      ),
      stat(
        "Longest context that fits",
        `${fmtCount(now.fit.maxTokens)}`,
        `tokens at batch ${fmtCount(s.batch)}`,
        "model-fit-tokens",
      ),
      now.decode
        ? stat(
            "Decoding floor",
            `${fmtRate(now.decode.tokensPerSecond)} tokens/s`,
            `${fmtSeconds(now.decode.secondsPerStep)} a step for ${fmtCount(s.batch)}, ${now.decode.bound}-bound`,
            "model-speed-stat",
          )
        : null,
    );
  }

  /** The cache against the context: a stacked area per kind of layer, the total, the chosen context. */
  renderChart({ s, shape, now, sweep, compared }) {
    const kinds = STACK.map((kind) => sweep.byKind.find((k) => k.kind === kind)).filter(Boolean);
    const areas = kinds.map((k) => ({
      points: sweep.tokens.map((t, i) => [t, k.bytes[i]]),
      class: `area model-${k.kind}`,
      label: `${KINDS[k.kind].label} layers (${k.layers})`,
    }));
    const total = sweep.tokens.map((t, i) => [t, sweep.kvBytes[i]]);
    const otherLabel =
      compared && `${compared.mlaCache === "expanded" ? "expanded per head" : "latent"}, for comparison`;
    const comparison = compared
      ? [
          {
            points: sweep.tokens.map((t, i) => [t, compared.sweep.kvBytes[i]]),
            class: "series dashed model-compared",
            label: otherLabel,
          },
        ]
      : [];
    const drawn = [...sweep.kvBytes, ...kinds.flatMap((k) => k.bytes), ...(compared?.sweep.kvBytes ?? [])];
    const y = logAxis(Math.min(...drawn.filter((b) => b > 0)), Math.max(...drawn, now.kvBytes), BYTES);
    const x = tokensAxis(Math.max(shape.maxContext, 2), CONTEXT);
    patch(
      this.chart,
      lineChart({
        title: "Key-value cache of the batch against the context length, by kind of layer (both axes logarithmic)",
        height: 280,
        margin: { left: 66 },
        x,
        y: { ...y, label: "key-value cache (log scale)", name: "cache", valueFormat: fmtBytes },
        areas,
        series: [{ points: total, class: "series model-total", label: "whole cache" }, ...comparison],
        markers: [{ x: s.tokens, y: now.kvBytes, class: "marker model-now", label: fmtBytes(now.kvBytes) }],
        vlines: [{ x: s.tokens, class: "guide model-now" }],
        describe: `At the marked context of ${fmtCount(s.tokens)} tokens the cache is ${fmtBytes(now.kvBytes)}: ${now.byKind.map((k) => `${KINDS[k.kind].label} layers ${fmtBytes(k.bytes)}`).join(", ")}.`,
      }),
    );
    patch(
      this.chartLegend,
      legend([
        ...[...kinds].reverse().map((k) => ({
          label: `${KINDS[k.kind].label}: ${k.layers} layer${k.layers === 1 ? "" : "s"}, holding ${KINDS[k.kind].holds}`,
          class: `model-${k.kind}`,
        })),
        { label: "whole cache", class: "line model-total" },
        ...(compared ? [{ label: `the cache ${otherLabel}`, class: "dashed model-compared" }] : []),
      ]),
    );
  }

  /** One device's weights and cache laid end to end against what the engine may use of its memory. */
  renderMeter({ s, opts, now, device }) {
    const memoryBytes = device.memoryBytes;
    const parts = [
      { label: "weights", value: now.perDevice.weightsBytes, class: "bar model-weights" },
      { label: "cache", value: now.perDevice.kvBytes, class: "bar model-kv" },
    ];
    patch(
      this.meter,
      meterChart({
        title: "One device's weights and key-value cache against the memory the engine may use",
        // The scale reaches the memory or the parts end to end, whichever is further (layout).
        max: Math.max(memoryBytes, now.perDevice.weightsBytes + now.perDevice.kvBytes),
        parts,
        limit: { value: now.fit.usableBytes, label: `usable ${fmtBytes(now.fit.usableBytes)}` },
        format: fmtBytes,
        x: { name: "part" },
        y: { name: "bytes" },
      }),
    );
    const fits = now.fit.fits;
    patch(
      this.fit,
      `Weights ${fmtBytes(now.perDevice.weightsBytes)} and a cache of ${fmtBytes(now.perDevice.kvBytes)} `,
      h("strong", { class: fits ? "model-fits" : "model-fits-not" }, fits ? "fit" : "do not fit"),
      ` in the ${fmtBytes(now.fit.usableBytes)} the engine may use (${fmt(opts.memoryUtilization)} of the ${device.name}'s ${fmtBytes(device.memoryBytes)}, less a reserve of ${fmtBytes(opts.reserveBytes)}). At ${fmtCount(opts.tokens)} tokens, at most `,
      h("strong", {}, fmtCount(now.fit.maxBatch)),
      ` sequence${now.fit.maxBatch === 1 ? "" : "s"} fit; at a batch of ${fmtCount(s.batch)}, at most `,
      h("strong", {}, fmtCount(now.fit.maxTokens)),
      " tokens each.",
    );
  }

  /** The decoding floor against the context at the batch, from the sweep; a note where no bandwidth is known. */
  renderSpeed({ s, opts, shape, now, sweep }) {
    const shown = Boolean(now.decode && sweep.tokensPerSecond);
    this.speedFigure.hidden = !shown;
    this.speedHead.hidden = !shown;
    if (!shown) return;
    const points = sweep.tokens.map((t, i) => [t, sweep.tokensPerSecond[i]]);
    const y = logAxis(Math.min(...sweep.tokensPerSecond), Math.max(...sweep.tokensPerSecond));
    patch(
      this.speed,
      lineChart({
        title: "Tokens per second at the decoding floor against the context, at the batch (both axes logarithmic)",
        x: tokensAxis(Math.max(shape.maxContext, 2), CONTEXT),
        y: { ...y, label: "tokens/s (log scale)", name: "tokens/s", valueFormat: fmtRate },
        series: [{ points, class: "series model-speed-line", label: "tokens per second" }],
        markers: [{ x: opts.tokens, y: now.decode.tokensPerSecond, class: "marker model-speed-line" }],
        vlines: [{ x: opts.tokens, class: "guide model-now" }],
        describe: `At ${fmtCount(opts.tokens)} tokens and a batch of ${fmtCount(s.batch)} the floor is ${fmtRate(now.decode.tokensPerSecond)} tokens per second; a longer context leaves more cache to read each step.`,
      }),
    );
    patch(
      this.speedLegend,
      legend([{ label: `tokens per second, batch ${fmtCount(s.batch)}`, class: "line model-speed-line" }]),
      h(
        "p",
        { class: "model-speed-now" },
        `Each step reads ${fmtBytes(now.decode.bytesPerStep)} per device; the longer the context, the more of it is cache.`,
      ),
    );
  }

  /** The next token's attention arithmetic against the context, with the linear layers' and the crossover. */
  renderFlops({ s, shape, now, sweep }) {
    const att = sweep.tokens.map((t, i) => [t, sweep.attentionFlops[i]]);
    const lin = [
      [sweep.tokens[0], now.linearFlops],
      [sweep.tokens.at(-1), now.linearFlops],
    ];
    const y = logAxis(
      Math.min(...sweep.attentionFlops, now.linearFlops),
      Math.max(...sweep.attentionFlops, now.linearFlops),
    );
    const x = tokensAxis(Math.max(shape.maxContext, 2), CONTEXT);
    const crossover = now.crossoverTokens;
    const crossText =
      crossover === undefined
        ? `never below the maximum context of ${fmtCount(shape.maxContext)} tokens`
        : `at ${fmtCount(crossover)} tokens`;
    patch(
      this.flops,
      lineChart({
        title:
          "Arithmetic of the next token against the context: attention against the linear layers (both axes logarithmic)",
        x,
        y: { ...y, label: "FLOPs of one token (log scale)", name: "FLOPs", valueFormat: (v) => fmtCount(v, 10) },
        series: [
          { points: lin, class: "series model-linear", label: "linear layers" },
          { points: att, class: "series model-attention", label: "attention" },
        ],
        markers: [{ x: s.tokens, y: now.attentionFlops, class: "marker model-attention" }],
        vlines: [
          ...(crossover === undefined
            ? []
            : [{ x: crossover, label: `n = ${fmtCount(crossover)}`, class: "guide model-crossover" }]),
          { x: s.tokens, class: "guide model-now" },
        ],
        describe: `At the marked context of ${fmtCount(s.tokens)} tokens the next token's attention takes ${fmtCount(now.attentionFlops, 10)} FLOPs and its linear layers ${fmtCount(now.linearFlops, 10)}; attention catches up ${crossText}.`,
      }),
    );
    patch(
      this.flopsLegend,
      legend([
        { label: "attention, QKᵀ and AV of the next token", class: "line model-attention" },
        { label: "linear layers, one token through every weight matrix it uses", class: "line model-linear" },
      ]),
      h(
        "p",
        { class: "model-flops-now" },
        "At ",
        sym("n"),
        ` = ${fmtCount(s.tokens)}: attention `,
        h("strong", { class: "model-attention-flops" }, fmtCount(now.attentionFlops, 10)),
        " FLOPs, linear layers ",
        h("strong", { class: "model-linear-flops" }, fmtCount(now.linearFlops, 10)),
        ". They are equal ",
        h("strong", { class: "model-crossover" }, crossText),
        ".",
      ),
    );
  }

  /** The calculation with the reader's numbers: the cache kind by kind, the total, the weights, the arithmetic. */
  renderWorked({ s, shape, opts, now, device, single }) {
    const c = (x) => fmtCount(x);
    const bytes = (x) => [h("strong", {}, fmtBytes(x)), x >= 1024 ? ` (${c(x)} bytes)` : ""];
    const p = opts.kvBytesPerElement;
    const tail = (k) => [
      ` elements per token and layer × ${c(k.tokensHeld)} tokens held${k.kind === "sliding" ? " (the window)" : k.kind === "chunked" ? " (the chunk)" : ""} × ${c(k.layers)} layer${k.layers === 1 ? "" : "s"} × ${c(s.batch)} sequence${s.batch === 1 ? "" : "s"} × ${fmt(p)} byte${p === 1 ? "" : "s"} = `,
      ...bytes(k.bytes),
      ".",
    ];
    const perToken = (k) => {
      if (k.kind !== "mla") {
        return shape.vHeadDim === shape.headDim
          ? [
              "2·",
              sym("h", "kv"),
              "·",
              sym("d"),
              ` = 2·${c(shape.kvHeads)}·${c(shape.headDim)} = ${c(k.elementsPerToken)}`,
            ]
          : [
              sym("h", "kv"),
              "·(",
              sym("d"),
              " + ",
              sym("d", "v"),
              `) = ${c(shape.kvHeads)}·(${c(shape.headDim)} + ${c(shape.vHeadDim)}) = ${c(k.elementsPerToken)}`,
            ];
      }
      const m = shape.mla;
      return s.mlaCache === "latent"
        ? ["latent + rotary key = ", `${c(m.kvLoraRank)} + ${c(m.qkRopeHeadDim)} = ${c(k.elementsPerToken)}`]
        : [
            "every head's key and value, ",
            sym("h"),
            "·(",
            sym("d", "nope"),
            " + ",
            sym("d", "rope"),
            ") + ",
            sym("h"),
            "·",
            sym("d", "v"),
            ` = ${c(shape.heads)}·(${c(m.qkNopeHeadDim)} + ${c(m.qkRopeHeadDim)}) + ${c(shape.heads)}·${c(m.vHeadDim)} = ${c(k.elementsPerToken)}`,
          ];
    };
    // The calculation's steps, drawn by the kit (worked.js).
    patch(
      this.worked,
      workedSteps([
        ...now.byKind.map((k) => ({ name: `${cap(KINDS[k.kind].label)} layers`, lead: [...perToken(k), ...tail(k)] })),
        now.byKind.length > 1 && {
          name: "Whole cache",
          lead: [`${now.byKind.map((k) => fmtBytes(k.bytes)).join(" + ")} = `, ...bytes(now.kvBytes), "."],
        },
        {
          name: "Cache per token",
          lead: ["One more token of one sequence, while no window is full, adds ", ...bytes(now.kvBytesPerToken), "."],
        },
        {
          name: "Weights",
          lead: [
            `${c(now.params.total)} parameters stored as ${now.weightsFormat}, scales included: `,
            ...bytes(now.weightsBytes),
            `; one token uses ${c(now.params.active)} of them.`,
          ],
        },
        {
          name: "Per device",
          lead: [
            now.tensorParallel > 1
              ? `Split over ${c(now.tensorParallel)} devices: each holds ${c(now.perDevice.kvHeads)} key-value head${now.perDevice.kvHeads === 1 ? "" : "s"} per layer${shape.mla === null ? "" : " (the latent, whole)"} and `
              : "One device holds every head and ",
            ...bytes(now.perDevice.weightsBytes),
            ` of weights; its cache in whole pages of ${c(s.block)} tokens: `,
            ...bytes(now.perDevice.kvBytes),
            now.replicas > 1
              ? ` for ${c(now.perDevice.sequences)} of the ${c(s.batch)} sequences (${c(now.replicas)} copies of the model).`
              : ".",
          ],
        },
        {
          name: "Memory",
          lead: [
            `${fmt(opts.memoryUtilization)} × ${fmtBytes(device.memoryBytes)} − ${fmtBytes(opts.reserveBytes)} reserve = `,
            ...bytes(now.fit.usableBytes),
            `; less weights and cache, `,
            h("strong", {}, fmtBytes(Math.abs(now.fit.spareBytes))),
            now.fit.spareBytes >= 0 ? " to spare." : " short.",
          ],
        },
        {
          name: "The engine's pool",
          lead: `${fmtBytes(now.budget.bytes)} left for the cache ÷ (${c(s.block)} tokens × ${fmtBytes(now.perDevice.kvBytesPerToken)} a token in every layer)`,
          result: `${c(now.budget.blocks)} pages`,
          tail: `, ${c(now.budget.tokens)} tokens.`,
        },
        now.decode && {
          name: "Decoding floor",
          class: "model-worked-speed",
          lead: `Each step reads ${fmtBytes(now.decode.weightsBytesRead)} of weights${shape.moe === null ? "" : ` (${fmt(now.decode.expertsTouched, 1)} of ${c(shape.moe.experts)} experts a layer touched)`} and ${fmtBytes(now.decode.kvBytesRead)} of cache: ${fmtBytes(now.decode.bytesPerStep)} ÷ ${fmtCount(device.bandwidth / 1e9)} GB/s`,
          result: fmtSeconds(now.decode.memorySeconds),
          tail: [
            now.decode.computeSeconds === undefined
              ? ""
              : `; its ${fmtCount(now.decode.flopsPerStep, 4)} FLOPs ÷ ${fmtCount(device.peak / 1e12)} TFLOPS = ${fmtSeconds(now.decode.computeSeconds)}`,
            `. The step takes the longer, ${fmtSeconds(now.decode.secondsPerStep)} (${now.decode.bound}-bound): ${c(s.batch)} token${s.batch === 1 ? "" : "s"} ÷ ${fmtSeconds(now.decode.secondsPerStep)} = `,
            h("strong", {}, `${fmtRate(now.decode.tokensPerSecond)} tokens/s`),
            single
              ? `. One sequence alone gets ${fmtRate(single.decode.tokensPerSecond)}: the batch shares each read of the weights.`
              : ".",
          ],
        },
        {
          name: "Arithmetic of the next token",
          lead: `Attention, 2·h·(d + d_v) per visible key in every layer: ${c(now.attentionFlops)} FLOPs; the linear layers, 2 per weight it multiplies: ${c(now.linearFlops)} FLOPs.`,
        },
      ]),
    );
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

/** How the core split the model over the devices, in words: "" on one device. */
function splitWords(now) {
  if (now.tensorParallel === 1 && now.replicas === 1) return "";
  if (now.replicas === 1) return ` (split over ${fmtCount(now.tensorParallel)})`;
  return now.tensorParallel === 1
    ? ` (a copy on each)`
    : ` (split over ${fmtCount(now.tensorParallel)}, ${fmtCount(now.replicas)} copies)`;
}

/** The device in words: its memory, bandwidth and peak as the figure uses them. */
function deviceNote({ device }) {
  const d = device.device;
  const parts = [
    `${fmtBytes(device.memoryBytes)}${d ? ` (nvidia-smi's ${fmtCount(d.memoryMiB)} MiB)` : ""}`,
    device.bandwidth === undefined
      ? "no bandwidth given (no decoding floor)"
      : `${fmtCount(device.bandwidth / 1e9)} GB/s`,
    device.peak === undefined ? "no peak given" : `${fmtCount(device.peak / 1e12)} TFLOPS dense 16-bit`,
  ];
  return `${device.name}: ${parts.join(", ")}${d ? ", from its maker's data sheet." : "."}`;
}

/** "24 layers: 12 sliding (128 tokens), 12 full", from the core's count of each kind. */
function layersByKind(shape, now) {
  const held = (k) =>
    k.kind === "sliding"
      ? ` (${fmtCount(shape.window)} tokens)`
      : k.kind === "chunked"
        ? ` (${fmtCount(shape.chunk)} tokens)`
        : "";
  return `${fmtCount(shape.layers)} layers: ${now.byKind.map((k) => `${fmtCount(k.layers)} ${KINDS[k.kind].label}${held(k)}`).join(", ")}`;
}

const cap = (t) => t[0].toUpperCase() + t.slice(1);

/** A parameter count in words: 8.03e9 → "8.03 billion". */
function fmtParams(n) {
  if (n >= 1e12) return `${fmt(n / 1e12, 2)} trillion`;
  if (n >= 1e9) return `${fmt(n / 1e9, 2)} billion`;
  if (n >= 1e6) return `${fmt(n / 1e6, 2)} million`;
  return fmtCount(n);
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

/** The slider's steps: powers of two up to the maximum context, and the maximum itself. */
function sliderTokens(maxContext) {
  const max = Math.min(Math.max(maxContext, 1), MAX_TOKENS);
  const steps = [];
  for (let t = 1; t < max; t *= 2) steps.push(t);
  steps.push(max);
  return steps;
}

export const widgets = { "llm-model": LlmModel, "llm-answer-model": LlmAnswerModel };
