// The controls above Figure 2.1's chart: the example list (.controls) with its note
// (.sampling-note), and the temperature, top-k and top-p sliders (.sliders), each setting one
// attribute. They follow the result too: each slider's readout and spoken value say the setting
// the core used (r.opts: temperature, topK, topP), against the number of tokens (r.state.labels).
import { h } from "../../dom.js";
import { fmt } from "../../format.js";
import { choice, slider } from "../../kit/controls.js";
import { MAX_TOKENS, presetFields, sameList } from "./attributes.js";
import { samplingPresets } from "./sampling-presets.js";

/**
 * The example and the sampler's three settings: a part of the figure (sampling.js) that holds
 * controls, so it is made with the figure whose state it sets; sync(state) sets them, render(r)
 * writes their readouts.
 */
export class Controls {
  /**
   * @param {import("./sampling.js").LlmSampling} figure
   * @param {string} id the figure's unique id, which the sliders' ids extend
   */
  constructor(figure, id) {
    this.preset = choice({
      label: "Example",
      value: figure.state.preset,
      onchange: (name) => figure.onPreset(name),
      options: [...Object.entries(samplingPresets).map(([key, p]) => [key, p.label]), ["custom", "Your own numbers"]],
    });
    /** @type {HTMLOptionElement} */ (this.preset.select.lastElementChild).disabled = true;
    this.presetNote = h("p", { class: "hint sampling-note" });

    this.T = slider({
      label: "Temperature T",
      min: 0,
      max: 2.5,
      step: 0.05,
      id: `${id}-t`,
      oninput: (temperature) => figure.set({ temperature }),
    });
    this.k = slider({
      label: "Top-k (0 = off)",
      min: 0,
      max: MAX_TOKENS,
      step: 1,
      id: `${id}-k`,
      oninput: (topK) => figure.set({ topK }),
    });
    this.p = slider({
      label: "Top-p (1 = off)",
      min: 0.01,
      max: 1,
      step: 0.01,
      id: `${id}-p`,
      oninput: (topP) => figure.set({ topP }),
    });
    this.nodes = [
      h("div", { class: "controls" }, this.preset.row),
      this.presetNote,
      h("div", { class: "sliders llm-bar" }, this.T.row, this.k.row, this.p.row),
    ];
  }

  /** Sets the sliders and the example list from the state. */
  sync(s) {
    this.T.input.value = String(s.temperature);
    this.k.input.max = String(s.labels.length);
    this.k.input.value = String(s.topK);
    this.p.input.value = String(s.topP);
    this.syncPreset(s);
  }

  /** The example list shows the preset while the tokens and values are its own, else "Your own numbers". */
  syncPreset(s) {
    const p = presetFields(s.preset);
    const own = sameList(s.labels, p.labels) && sameList(s.logits, p.logits) && sameList(s.probs, p.probs);
    this.preset.select.value = own ? s.preset : "custom";
    this.presetNote.textContent = own ? samplingPresets[s.preset].note : "Your own numbers.";
  }

  /** Each slider's readout and spoken value: the setting in words ("off", "all", "greedy"). */
  render({ opts, state }) {
    const { temperature: T, topK: k, topP: p } = opts;
    const n = state.labels.length;
    this.T.out.value = fmt(T, 2);
    this.k.out.value = k === 0 ? "off" : k >= n ? `${k} (all)` : String(k);
    this.p.out.value = p === 1 ? "1 (off)" : fmt(p, 2);
    this.T.input.setAttribute("aria-valuetext", T === 0 ? "0, greedy" : fmt(T, 2));
    this.k.input.setAttribute("aria-valuetext", k === 0 ? "off" : String(k));
    this.p.input.setAttribute("aria-valuetext", p === 1 ? "1, off" : fmt(p, 2));
  }
}
