// The inputs of Figure 4.2 beside its model: the context slider (.model-context), the context,
// batch, cache precision and weights' format (.model-fields), and where the model runs
// (.model-serving: the device, how many, how they share it, a custom device's memory, bandwidth
// and peak, the engine's share, reserve, windowed layers and page), each setting one attribute.
// They follow the result too: the slider steps through the model's context (r.shape.maxContext),
// the context shown is the one costed (r.opts.tokens), with a note when the state asked past the
// model's limit (r.asked); the lists of latent and windowed layers show only for models that have
// them (r.shape.mla, window, chunk); the device's note states r.device.
import { h, sym } from "../../dom.js";
import { fieldValue, fmtBytes, fmtCount, grouped } from "../../format.js";
import { choice, markInvalid, markSettings, numberField, slider } from "../../kit/controls.js";
import {
  GIB,
  KV_PRECISIONS,
  MAX_BANDWIDTH,
  MAX_BATCH,
  MAX_DEVICES,
  MAX_MEMORY,
  MAX_PEAK,
  MAX_TOKENS,
  WEIGHT_FORMATS,
} from "./attributes.js";
import { DEVICES, deviceById } from "./model-devices.js";

/**
 * The figure's controls but the model's: a part of the figure (model.js) that holds controls, so
 * it is made with the figure whose state it sets; sync(state) sets them, render(r) follows the
 * result.
 */
export class Controls {
  /** @param {import("./model.js").LlmModel} figure */
  constructor(figure) {
    this.figure = figure;
    this.tokenSlider = slider({
      label: ["Context ", sym("n")],
      min: 0,
      max: 30,
      step: 1,
      oninput: (k) => figure.set({ tokens: this.sliderSteps[k] }, { sync: true }),
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
          figure.set({ [key]: v }, { sync: true });
          if (figure.failed) markInvalid(input, true);
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
      onchange: (kvPrecision) => figure.set({ kvPrecision }, { sync: true }),
      options: KV_PRECISIONS.map((p) => [p.key, p.label]),
    });
    this.weightChoice = choice({
      label: "Weights stored",
      value: "file",
      onchange: (weightFormat) => figure.set({ weightFormat }, { sync: true }),
      options: WEIGHT_FORMATS.map((f) => [f.key, f.label]),
    });
    this.mlaChoice = choice({
      label: "Latent cache counted as",
      value: "latent",
      onchange: (mlaCache) => figure.set({ mlaCache }, { sync: true }),
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
      onchange: (split) => figure.set({ split }, { sync: true }),
      options: [
        ["most", "split (tensor parallel)"],
        ["none", "a copy on each"],
      ],
    });
    this.slidingChoice = choice({
      label: "Windowed layers keep",
      value: "window",
      onchange: (slidingCache) => figure.set({ slidingCache }, { sync: true }),
      options: [
        ["window", "their window (vLLM, SGLang)"],
        ["full", "every token"],
      ],
    });
    markSettings({
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
    this.nodes = [
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
    ];
  }

  /** A device from the list (its own memory, bandwidth and peak), or custom, starting from the one shown. */
  pickDevice(key) {
    if (key === "custom") {
      const d = this.figure.deviceSpec();
      this.figure.set(
        {
          device: "custom",
          memory: d.memoryBytes / GIB,
          bandwidth: (d.bandwidth ?? 0) / 1e9,
          peak: (d.peak ?? 0) / 1e12,
        },
        { sync: true },
      );
    } else if (deviceById(key)) {
      this.figure.set({ device: key, memory: 0, bandwidth: 0, peak: 0 }, { sync: true });
    }
  }

  /** Sets the lists, the fields and the slider from the state. */
  sync(s) {
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
    this.syncSlider();
  }

  /**
   * Slider position: the first of its steps at or above the context shown (screen mapping): the
   * state's, or the model's limit when the state asks past it (render passes it).
   */
  syncSlider(n = this.figure.result?.opts?.tokens ?? this.figure.state.tokens) {
    const steps = this.sliderSteps;
    const k = steps.findIndex((t) => t >= n);
    this.tokenSlider.input.max = String(steps.length - 1);
    this.tokenSlider.input.value = String(k < 0 ? steps.length - 1 : k);
    const shown = Number.isFinite(n) ? grouped(n) : "";
    this.tokenSlider.out.value = shown;
    this.tokenSlider.input.setAttribute("aria-valuetext", shown ? `${shown} tokens` : "no value");
  }

  /** Follows the result: the slider's steps, the lists a model has, the context shown and its note, the device. */
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
    if (this.figure.shadowRoot.activeElement !== this.fields.tokens.input)
      this.fields.tokens.input.value = fieldValue(r.opts.tokens);
    this.syncSlider(r.opts.tokens);
    this.capNote.hidden = r.asked === undefined;
    this.capNote.textContent =
      r.asked === undefined
        ? ""
        : `${fmtCount(r.asked)} tokens were asked for; ${r.source.name} reads at most ${fmtCount(r.shape.maxContext)} (its max_position_embeddings), so the figure shows ${fmtCount(r.shape.maxContext)}.`;
    this.deviceNote.textContent = deviceNote(r);
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

/** The slider's steps: powers of two up to the maximum context, and the maximum itself. */
function sliderTokens(maxContext) {
  const max = Math.min(Math.max(maxContext, 1), MAX_TOKENS);
  const steps = [];
  for (let t = 1; t < max; t *= 2) steps.push(t);
  steps.push(max);
  return steps;
}
