// <llm-model>: "Your model". The reader pastes a model's config.json, drops the file on the figure,
// opens it, or picks one of the built-in models (the real files the core is tested against,
// tests/fixtures/models/), and sees what the core read from it and what it assumed, then, at the
// context, batch and cache precision they choose: the key-value cache against the context length
// with full, windowed and latent layers as stacked areas, weights plus cache against a memory
// size with the largest batch and context that fit, the attention arithmetic of the next token
// beside the linear layers', and the calculation written out with their numbers.
//
// Attributes: see LlmModel.attributes (model, config, tokens, batch, kv-precision, weight-bytes,
// mla-cache, memory). A configuration can also be given inline, as the element's child
// <script type="application/json">…</script>: without a model attribute the figure starts from it.
// Properties: result ({ s, source, shape, opts, now, sweep }), state ({ model, config, tokens,
// batch, kvPrecision, weightBytes, mlaCache, memory }).
import { h, keep, patch, sym, uniqueId } from "../dom.js";
import { fieldValue, fmt, fmtBytes, fmtCount, grouped, superscript } from "../format.js";
import { LlmWidget } from "./base.js";
import { choice, markInvalid, numberField, slider } from "./controls.js";
import { legend, lineChart, meterChart } from "./plot.js";
import { modelPresets } from "llmmath:model-presets";
import css from "./model.css";

// The core's limits (core/include/llmmath/model.hpp, bindings/api/model.js): tokens 1 … 2^30,
// batch 1 … 2^20, bytes per cached element and per weight in (0, 64].
const MAX_TOKENS = 2 ** 30;
const MAX_BATCH = 2 ** 20;
const MAX_BYTES = 64;
// Memory in GiB (2^30 bytes, as an accelerator's memory is counted), up to 1 PiB.
const MAX_MEMORY = 2 ** 20;
const GIB = 2 ** 30;
// A configuration travels in a link (the config attribute) when it is at most this many characters
// written without spaces; a larger one is named by the built-in model instead (Copy link's note).
export const CONFIG_MAX = 1500;

// The storage formats of the cache: bytes per cached element (scales not counted).
export const KV_PRECISIONS = [
  { key: "fp32", label: "fp32 (4 bytes)", bytes: 4 },
  { key: "bf16", label: "bf16 (2 bytes)", bytes: 2 },
  { key: "fp16", label: "fp16 (2 bytes)", bytes: 2 },
  { key: "fp8", label: "fp8 (1 byte)", bytes: 1 },
  { key: "int8", label: "int8 (1 byte)", bytes: 1 },
  { key: "int4", label: "int4 (½ byte)", bytes: 0.5 },
];
const kvBytesOf = (key) => KV_PRECISIONS.find((p) => p.key === key)?.bytes ?? NaN;
// Memory sizes to pick, in GiB (a 24 GB card, 48, 80 and 141 GB accelerators).
const MEMORIES = [24, 48, 80, 141];

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

const DEFAULT_MODEL = modelPresets.some((p) => p.id === "llama-3.1-8b") ? "llama-3.1-8b" : modelPresets[0].id;
const presetById = (id) => modelPresets.find((p) => p.id === id) ?? null;

export class LlmModel extends LlmWidget {
  static styles = css;
  static attributes = [
    {
      name: "model",
      type: "choice",
      choices: [...modelPresets.map((p) => p.id), "custom"],
      default: DEFAULT_MODEL,
      preset: true,
      doc: `The built-in model, by its id (${modelPresets.map((p) => p.id).join(", ")}), whose config.json the figure reads; custom: the configuration given by config or inline.`,
    },
    {
      name: "config",
      type: "text",
      maxLength: CONFIG_MAX,
      default: "",
      example:
        '{"model_type":"llama","num_hidden_layers":16,"hidden_size":2048,"num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":8192,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true}',
      doc: `A config.json written without spaces (at most ${CONFIG_MAX} characters), used instead of the model; a larger one goes in a <script type="application/json"> child of the element.`,
    },
    {
      name: "tokens",
      type: "integer",
      min: 1,
      max: MAX_TOKENS,
      default: 32768,
      doc: "The context: tokens in each sequence (the chart reaches the model's maximum context).",
    },
    {
      name: "batch",
      type: "integer",
      min: 1,
      max: MAX_BATCH,
      default: 1,
      doc: "The batch: sequences served together, each with its own cache.",
    },
    {
      name: "kv-precision",
      type: "choice",
      choices: KV_PRECISIONS.map((p) => p.key),
      default: "bf16",
      doc: "How the cache is stored: fp32 4 bytes per element, bf16 and fp16 2, fp8 and int8 1, int4 0.5 (scales not counted).",
    },
    {
      name: "weight-bytes",
      type: "number",
      minExclusive: 0,
      max: MAX_BYTES,
      default: 2,
      doc: "Bytes per weight, more than 0: 2 for bf16, 1 for fp8 or int8, 0.5 for int4.",
    },
    {
      name: "mla-cache",
      type: "choice",
      choices: ["latent", "expanded"],
      default: "latent",
      doc: "How a latent-attention (MLA) model's cache is counted: latent, the compressed vector per token and layer as vLLM and SGLang keep it, or expanded, every head's keys and values as transformers' eager path keeps them.",
    },
    {
      name: "memory",
      type: "number",
      minExclusive: 0,
      max: MAX_MEMORY,
      default: 80,
      doc: "The memory that must hold the weights and the cache, in GiB (2^30 bytes).",
    },
  ];

  /** A built-in model replaces a configuration given before; custom keeps it. */
  static presetFields(name) {
    return name === "custom" ? {} : { config: "" };
  }

  /** A configuration given in the state is what the figure shows: its model is custom. */
  normalize(s) {
    if (s.config && s.model !== "custom") s.model = "custom";
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
      weightBytes: field("weightBytes", "Bytes per weight", { min: 0, max: MAX_BYTES, decimal: true }),
      memory: field("memory", "Memory (GiB)", { min: 0, max: MAX_MEMORY, decimal: true }),
    };
    this.precision = choice({
      label: "KV cache precision",
      value: "bf16",
      onchange: (kvPrecision) => this.set({ kvPrecision }, { sync: true }),
      options: KV_PRECISIONS.map((p) => [p.key, p.label]),
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
    this.memoryChoice = choice({
      label: "Memory size",
      value: "80",
      onchange: (v) => v && this.set({ memory: Number(v) }, { sync: true }),
      options: [...MEMORIES.map((g) => [String(g), `${g} GiB`]), ["", "Other (typed)"]],
    });
    /** @type {HTMLOptionElement} */ (this.memoryChoice.select.lastElementChild).disabled = true;

    this.read = h("div", { class: "model-read", id: this.ids.read });
    this.stats = h("dl", { class: "model-stats" });
    this.chart = h("div", { class: "chart-box" });
    this.chartLegend = h("div", { class: "model-legend" });
    this.meter = h("div", { class: "chart-box model-meter" });
    this.fit = h("p", { class: "model-fit" });
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
      h(
        "div",
        { class: "model-fields" },
        this.fields.tokens.row,
        this.fields.batch.row,
        this.precision.row,
        this.fields.weightBytes.row,
        this.memoryChoice.row,
        this.fields.memory.row,
        this.mlaChoice.row,
      ),
      this.stats,
      h("p", { class: "model-subhead" }, "The key-value cache against the context"),
      h("div", { class: "model-figure model-cache" }, this.chart, this.chartLegend),
      h("p", { class: "model-subhead" }, "Weights and cache against the memory"),
      h("div", { class: "model-figure model-memory" }, this.meter, this.fit),
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
  }

  /**
   * A pasted or typed configuration: read by the core at once. A fault (JSON's line and column,
   * or a field the core refuses) is shown under the text and the last good model stays drawn;
   * a good one becomes the figure's, in the link when it is small enough.
   */
  readText(text) {
    if (!this.core) return;
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
    this.memoryChoice.select.value = MEMORIES.includes(s.memory) ? String(s.memory) : "";
    for (const [key, f] of Object.entries(this.fields)) {
      if (!Object.is(f.input.valueAsNumber, s[key])) f.input.value = fieldValue(s[key]);
    }
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

  /** Slider position: the first of its steps at or above the context (screen mapping). */
  syncSlider() {
    const steps = this.sliderSteps;
    const n = this.state.tokens;
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
    return {
      tokens: s.tokens,
      batch: s.batch,
      kvBytesPerElement: kvBytesOf(s.kvPrecision),
      weightBytesPerParam: s.weightBytes,
      mlaCache: s.mlaCache,
      memoryBytes: s.memory * GIB,
    };
  }

  compute() {
    const s = this.state;
    const source = this.source();
    const shape = this.shapeOf(source);
    const opts = this.inputs;
    const now = this.core.modelCost(shape, opts);
    // The curves: every context length of the axis in one call, again only when the model, the
    // batch, the precision or the cache convention change (not the context or the memory).
    const tokens = axisTokens(shape);
    const sweep = this.memo("sweep", [source.key, s.batch, s.kvPrecision, s.mlaCache], () =>
      this.core.modelCostSweep(shape, {
        tokens,
        batch: opts.batch,
        kvBytesPerElement: opts.kvBytesPerElement,
        mlaCache: opts.mlaCache,
      }),
    );
    // A latent-attention model's cache is drawn beside the other convention's, as a line, so that
    // the reader sees at a glance how much the latent saves (again only when the curves change).
    const other = s.mlaCache === "latent" ? "expanded" : "latent";
    const compared =
      shape.mla === null
        ? null
        : this.memo("compared", [source.key, s.batch, s.kvPrecision, other], () => ({
            mlaCache: other,
            sweep: this.core.modelCostSweep(shape, {
              tokens,
              batch: opts.batch,
              kvBytesPerElement: opts.kvBytesPerElement,
              mlaCache: other,
            }),
          }));
    if (source.kind === "preset") this.lastModel = s.model;
    return { s, source, shape, opts, now, sweep, compared };
  }

  render(r) {
    // The slider steps through the model's context: powers of two up to its maximum, and it.
    const steps = sliderTokens(r.shape.maxContext);
    if (steps.join() !== this.sliderSteps.join()) {
      this.sliderSteps = steps;
      this.syncSlider();
    }
    this.mlaChoice.row.hidden = r.shape.mla === null;
    this.linkNote.hidden = !this.tooLarge();
    this.linkNote.textContent = this.tooLarge()
      ? `This configuration is longer than the ${grouped(CONFIG_MAX)} characters a link carries: Copy link names ${presetById(this.lastModel)?.name ?? this.lastModel} instead, and the figure there shows that built-in model.`
      : "";
    patch(
      this.read,
      keep([r.source.key, r.now.byKind.map((k) => [k.kind, k.layers, k.tokensHeld])], () => this.readPart(r)),
    );
    this.renderStats(r);
    this.renderChart(r);
    this.renderMeter(r);
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
        h("strong", {}, source.name),
        shape.modelType ? ` (model_type ${shape.modelType})` : "",
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
      ),
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

  /** The readouts: the cache, its growth per token, the weights, the parameters and the fit. */
  renderStats({ s, now }) {
    const stat = (term, value, note, cls) =>
      h(
        "div",
        { class: `model-stat ${cls ?? ""}` },
        h("dt", {}, term),
        h("dd", {}, h("strong", {}, value), note ? h("span", {}, note) : null),
      );
    patch(
      this.stats,
      stat("Key-value cache", fmtBytes(now.kvBytes), `${fmtCount(s.batch)} × ${fmtCount(s.tokens)} tokens`, "model-kv"),
      stat("Cache per token", fmtBytes(now.kvBytesPerToken), "one sequence, all layers", "model-kv"),
      stat("Weights", fmtBytes(now.weightsBytes), `${fmtParams(now.params.total)} parameters`, "model-weights"),
      stat(
        "Active per token",
        fmtParams(now.params.active),
        `parameters; embedding ${fmtParams(now.params.embedding)}`,
        "model-weights",
      ),
      stat("Largest batch that fits", fmtCount(now.fit.maxBatch), `at ${fmtCount(s.tokens)} tokens`, "model-fit-batch"),
      stat(
        "Longest context that fits",
        `${fmtCount(now.fit.maxTokens)}`,
        `tokens at batch ${fmtCount(s.batch)}`,
        "model-fit-tokens",
      ),
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
    const y = bytesAxis(Math.min(...drawn.filter((b) => b > 0)), Math.max(...drawn, now.kvBytes));
    const x = tokensAxis(Math.max(shape.maxContext, 2));
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

  /** Weights and cache laid end to end against the memory, with the largest batch and context that fit. */
  renderMeter({ s, now }) {
    const memoryBytes = s.memory * GIB;
    const parts = [
      { label: "weights", value: now.weightsBytes, class: "bar model-weights" },
      { label: "cache", value: now.kvBytes, class: "bar model-kv" },
    ];
    patch(
      this.meter,
      meterChart({
        title: "Weights plus key-value cache against the memory",
        // The scale reaches the memory or the two parts end to end, whichever is further (layout).
        max: Math.max(memoryBytes, now.weightsBytes + now.kvBytes),
        parts,
        limit: { value: memoryBytes, label: `memory ${fmtBytes(memoryBytes)}` },
        format: fmtBytes,
        x: { name: "part" },
        y: { name: "bytes" },
      }),
    );
    const fits = now.fit.fits;
    patch(
      this.fit,
      `Weights ${fmtBytes(now.weightsBytes)} and a cache of ${fmtBytes(now.kvBytes)} `,
      h("strong", { class: fits ? "model-fits" : "model-fits-not" }, fits ? "fit" : "do not fit"),
      ` in ${fmtBytes(memoryBytes)}. At ${fmtCount(s.tokens)} tokens, at most `,
      h("strong", {}, fmtCount(now.fit.maxBatch)),
      ` sequence${now.fit.maxBatch === 1 ? "" : "s"} fit; at a batch of ${fmtCount(s.batch)}, at most `,
      h("strong", {}, fmtCount(now.fit.maxTokens)),
      " tokens each",
      now.fit.maxTokens === 0 ? " (the weights alone leave no room)" : "",
      ".",
    );
  }

  /** The next token's attention arithmetic against the context, with the linear layers' and the crossover. */
  renderFlops({ s, shape, now, sweep }) {
    const att = sweep.tokens.map((t, i) => [t, sweep.attentionFlops[i]]);
    const lin = [
      [sweep.tokens[0], now.linearFlops],
      [sweep.tokens.at(-1), now.linearFlops],
    ];
    const y = countAxis(
      Math.min(...sweep.attentionFlops, now.linearFlops),
      Math.max(...sweep.attentionFlops, now.linearFlops),
    );
    const x = tokensAxis(Math.max(shape.maxContext, 2));
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
  renderWorked({ s, shape, opts, now }) {
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
    const li = (...parts) => h("li", {}, ...parts);
    patch(
      this.worked,
      h(
        "ol",
        {},
        now.byKind.map((k) => li(h("strong", {}, `${cap(KINDS[k.kind].label)} layers. `), ...perToken(k), ...tail(k))),
        now.byKind.length > 1
          ? li(
              h("strong", {}, "Whole cache. "),
              `${now.byKind.map((k) => fmtBytes(k.bytes)).join(" + ")} = `,
              ...bytes(now.kvBytes),
              ".",
            )
          : null,
        li(
          h("strong", {}, "Cache per token. "),
          "One more token of one sequence, while no window is full, adds ",
          ...bytes(now.kvBytesPerToken),
          ".",
        ),
        li(
          h("strong", {}, "Weights. "),
          `${c(now.params.total)} parameters × ${fmt(opts.weightBytesPerParam)} byte${opts.weightBytesPerParam === 1 ? "" : "s"} = `,
          ...bytes(now.weightsBytes),
          `; one token uses ${c(now.params.active)} of them.`,
        ),
        li(
          h("strong", {}, "Arithmetic of the next token. "),
          `Attention, 2·h·(d + d_v) per visible key in every layer: ${c(now.attentionFlops)} FLOPs; the linear layers, 2 per weight it multiplies: ${c(now.linearFlops)} FLOPs.`,
        ),
      ),
    );
  }

  /** One sentence: the model, the cache at the context, the weights and whether they fit. */
  summary({ s, source, now }) {
    return `${source.name}: at ${fmtCount(s.tokens)} tokens and a batch of ${fmtCount(s.batch)}, the key-value cache is ${fmtBytes(now.kvBytes)} beside ${fmtBytes(now.weightsBytes)} of weights; in ${fmtBytes(s.memory * GIB)} at most ${fmtCount(now.fit.maxBatch)} sequences fit at this context.`;
  }
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

/** Token counts on an axis: 1024 → "1K", 1048576 → "1M". */
function fmtTokens(t) {
  if (t >= 2 ** 20) return `${t / 2 ** 20}M`;
  if (t >= 2 ** 10) return `${t / 2 ** 10}K`;
  return String(t);
}

/** The x axis: tokens from 1 to the maximum context, logarithmic, ticks at powers of two (layout). */
function tokensAxis(max) {
  const top = Math.floor(Math.log2(max));
  const every = Math.max(1, Math.ceil(top / 6));
  const ticks = [];
  for (let k = 0; k <= top; k += every) ticks.push(2 ** k);
  return {
    min: 1,
    max,
    log: true,
    ticks,
    format: fmtTokens,
    label: "context, tokens (log scale)",
    name: "tokens",
    valueFormat: (t) => fmtCount(t),
  };
}

/** A logarithmic bytes axis over whole powers of two from lo to hi, about six ticks (layout). */
function bytesAxis(lo, hi) {
  const a = Math.floor(Math.log2(lo > 0 ? lo : 1)),
    b = Math.max(Math.ceil(Math.log2(hi > 0 ? hi : 2)), a + 1);
  const every = Math.max(1, Math.ceil((b - a) / 6));
  const ticks = [];
  for (let k = a; k <= b; k += every) ticks.push(2 ** k);
  return { min: 2 ** a, max: 2 ** b, log: true, ticks, format: fmtBytes };
}

/** A logarithmic axis over whole decades from lo to hi, at most six labelled ticks (layout). */
function countAxis(lo, hi) {
  const a = Math.floor(Math.log10(lo > 0 ? lo : 1)),
    b = Math.max(Math.ceil(Math.log10(hi > 0 ? hi : 10)), a + 1);
  const every = Math.max(1, Math.ceil((b - a) / 6));
  const ticks = [];
  for (let k = a; k <= b; k += every) ticks.push(10 ** k);
  return { min: 10 ** a, max: 10 ** b, log: true, ticks, format: (t) => `10${superscript(Math.round(Math.log10(t)))}` };
}

export const widgets = { "llm-model": LlmModel };
