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
import { h, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmtBytes, fmtCount, fmtRate, grouped } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { choice, markInvalid, markSettings, numberField, slider } from "../../kit/controls.js";
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
import { CacheChart } from "./cache-chart.js";
import { Calculation } from "./calculation.js";
import { FlopsChart } from "./flops-chart.js";
import { MemoryMeter } from "./memory-meter.js";
import { Reading } from "./reading.js";
import { SpeedChart } from "./speed-chart.js";
import { Stats } from "./stats.js";
import { Verdict } from "./verdict.js";
import css from "./model.css";

// The figure's lists and its link's limit, exported by its module as before they had a file.
export { CONFIG_MAX, KV_PRECISIONS, WEIGHT_FORMATS } from "./attributes.js";

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them.
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

    // The parts that draw the result, in the order they stand in the figure.
    this.reading = new Reading(this.ids.read);
    /** @type {Part[]} */
    this.drawn = [
      new Verdict(),
      new Stats(),
      new CacheChart(),
      new MemoryMeter(),
      new SpeedChart(),
      new FlopsChart(),
      new Calculation(),
    ];

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
      ...this.reading.nodes,
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
      ...this.drawn.flatMap((part) => part.nodes),
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
    this.reading.render(r);
    for (const part of this.drawn) part.render(r);
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
