// The controls at the top of Figure 3.1: the example list (.controls), the query and key positions
// (.sliders.llm-bar: a slider and an exact number field each), the dimension and the base
// (.rope-shape), and where the frequencies come from and how the coordinates pair
// (.rope-frequency), each setting one attribute. They draw nothing from the result: they follow
// the state (sync), and after every change the example shown and the sliders' readouts (syncLive).
import { h } from "../../dom.js";
import { grouped } from "../../format.js";
import { parseValue } from "../../kit/attributes.js";
import { choice, markInvalid, slider } from "../../kit/controls.js";
import { ATTRIBUTES, BASES, EXAMPLE_FIELDS, MAX_D, MAX_POSITION, presetFields } from "./attributes.js";
import { ropePresets } from "./rope-presets.js";

// The position sliders cover 0 … 255; the number fields beside them take any position up to
// MAX_POSITION.
const SLIDER_MAX = 255;

const nearestBase = (b) => BASES.reduce((best, x, i) => (Math.abs(x - b) < Math.abs(BASES[best] - b) ? i : best), 0);

/**
 * The example, the positions, the dimension, the base, the frequencies' source and the pairing:
 * a part of the figure (rope.js) that holds controls, so it is made with the figure whose state
 * it sets; sync(state) sets them, syncLive(state) what follows every change.
 */
export class Controls {
  /**
   * @param {import("./rope.js").LlmRope} figure
   * @param {string} id the figure's unique id, which the sliders' ids extend
   */
  constructor(figure, id) {
    this.figure = figure;
    this.id = id;
    this.presetChoice = choice({
      label: "Example",
      value: "exercise",
      onchange: (name) => figure.onPreset(name),
      options: [...Object.entries(ropePresets).map(([key, p]) => [key, p.label]), ["", "(your own)"]],
    });
    this.pairingChoice = choice({
      label: "Pairs",
      value: "interleaved",
      onchange: (pairing) => figure.set({ pairing }),
      options: [
        ["interleaved", "interleaved, (x[2i], x[2i+1]): RoFormer, Meta's Llama"],
        ["half", "halves, (x[i], x[i+d/2]): GPT-NeoX, Hugging Face Llama"],
      ],
    });
    this.modeChoice = choice({
      label: "Frequencies θ",
      value: "freqs",
      onchange: (mode) => this.onMode(mode),
      options: [
        ["base", "from a base: θᵢ = base^(−2i/d)"],
        ["freqs", "given, one per pair"],
      ],
    });

    this.mCtl = this.positionControl("m", "Query position m");
    this.nCtl = this.positionControl("n", "Key position n");
    this.dCtl = slider({
      label: "Dimension d",
      min: 2,
      max: MAX_D,
      step: 2,
      id: `${id}-d`,
      oninput: (d) => figure.set({ d }, { sync: true }),
    });
    this.baseCtl = slider({
      label: "Base",
      min: 0,
      max: BASES.length - 1,
      step: 1,
      id: `${id}-base`,
      oninput: (i) => figure.set({ base: BASES[i] }),
    });
    this.nodes = [
      h("div", { class: "controls" }, this.presetChoice.row),
      // The positions stay in view while the figure scrolls by (.llm-bar, widget.css).
      h("div", { class: "sliders llm-bar" }, this.mCtl.row, this.nCtl.row),
      h("div", { class: "sliders rope-shape" }, this.dCtl.row, this.baseCtl.row),
      h("div", { class: "controls rope-frequency" }, this.modeChoice.row, this.pairingChoice.row),
    ];
  }

  /**
   * A position: a slider over 0 … SLIDER_MAX and a number field for any position up to
   * MAX_POSITION. A field that does not hold such a position is marked and named in the status,
   * and the state keeps its last good position.
   */
  positionControl(key, label) {
    const figure = this.figure;
    const id = `${this.id}-${key}`;
    const decl = ATTRIBUTES.find((a) => a.name === key);
    const input = h("input", {
      type: "range",
      id,
      min: 0,
      max: SLIDER_MAX,
      step: 1,
      oninput: () => {
        figure.set({ [key]: input.valueAsNumber });
        this.syncPositions(figure.state, input);
      },
    });
    const number = h("input", {
      type: "number",
      id: `${id}-exact`,
      min: 0,
      max: MAX_POSITION,
      step: 1,
      inputmode: "numeric",
      class: "rope-pos",
      "aria-label": `${label}, exact`,
      oninput: () => {
        const parsed = parseValue(decl, number.value);
        markInvalid(number, !("value" in parsed));
        if (!("value" in parsed)) {
          figure.showError(`Not updated: ${key}: ${parsed.error}.`);
          return;
        }
        figure.set({ [key]: parsed.value });
        this.syncPositions(figure.state, number);
      },
    });
    return { input, number, row: h("div", { class: "slider" }, h("label", { for: id }, label), input, number) };
  }

  onMode(mode) {
    const figure = this.figure;
    const s = figure.state;
    const patch = { useFreqs: mode === "freqs" };
    // Start the given frequencies from the ones the base produced (the core's thetas).
    if (patch.useFreqs && s.freqs.length !== s.d / 2 && figure.result?.now.thetas.length === s.d / 2)
      patch.freqs = figure.result.now.thetas.slice();
    figure.set(patch, { sync: true });
  }

  /** The position sliders and number fields from the state, except `source` (being edited). */
  syncPositions(s, source) {
    /** @type {Array<[string, { input: HTMLInputElement, number: HTMLInputElement }]>} */
    const controls = [
      ["m", this.mCtl],
      ["n", this.nCtl],
    ];
    for (const [key, ctl] of controls) {
      const v = s[key];
      if (ctl.input !== source) ctl.input.value = String(Math.min(v, SLIDER_MAX));
      if (ctl.number !== source) {
        ctl.number.value = String(v);
        markInvalid(ctl.number, false);
      }
      ctl.input.setAttribute("aria-valuetext", String(v));
    }
  }

  /** The example shown and the sliders' readouts, after every change. */
  syncLive(s) {
    const p = presetFields(s.preset);
    const same = EXAMPLE_FIELDS.every((f) => JSON.stringify(p[f]) === JSON.stringify(s[f]));
    this.presetChoice.select.value = same ? s.preset : "";
    this.dCtl.out.value = String(s.d);
    this.baseCtl.out.value = grouped(s.base);
    this.baseCtl.input.setAttribute("aria-valuetext", grouped(s.base));
  }

  /** Sets the positions, the dimension, the base, the frequencies' source and the pairing from the state. */
  sync(s) {
    this.syncPositions(s, null);
    this.dCtl.input.value = String(s.d);
    this.baseCtl.input.value = String(nearestBase(s.base));
    this.baseCtl.input.disabled = s.useFreqs;
    this.modeChoice.select.value = s.useFreqs ? "freqs" : "base";
    this.pairingChoice.select.value = s.pairing;
  }
}
