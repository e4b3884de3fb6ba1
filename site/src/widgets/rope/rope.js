// <llm-rope>: rotary position embedding (Su et al. 2021, RoFormer). The reader sets the query
// position m and the key position n, the dimension d, the frequencies (from a base, or given
// one per pair), the pairing layout and the vectors q and k. Each rotation pair is drawn as a
// dial with the query and key arrows at their turned angles; a chart gives the score against
// the offset m − n; "move both" shifts m and n together and shows the score unchanged; the
// calculation for one pair and the sum over pairs is written out with the current numbers.
//
// Attributes: see attributes.js (preset, m, n, d, base, use-freqs, freqs, pairing, q, k,
// range, pair).
// Properties: state ({ preset, m, n, d, base, useFreqs, freqs, pairing, q, k, range, pair };
// range is a string, pair is 0-based); result ({ state, now, shifted, curve }: the core's rope()
// at (m, n), at (m − n, 0), and the scaled score at every offset of the chart).
//
// The figure is composed from parts (ARCHITECTURE.md, "a figure's folder"), each in its own file
// of this folder: the element here holds the state, the moves of both positions and the core
// calls; its parts build their elements, and follow the state or draw from compute()'s result:
// the example, the positions, the dimension, the base, the frequencies' source and the pairing
// (controls.js), the editors of the frequencies and the vectors (editor.js), the moves with their
// readout (move.js), the headline (headline.js), the dials (dials.js), the chart (score-chart.js)
// and the calculation (calculation.js). Its settings are declared in attributes.js, its exercise
// in exercise.js.
import { uniqueId } from "../../dom.js";
import { fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { markSettings } from "../../kit/controls.js";
import { ATTRIBUTES, MAX_POSITION, presetFields } from "./attributes.js";
import { Calculation } from "./calculation.js";
import { Controls } from "./controls.js";
import { Dials } from "./dials.js";
import { Editor } from "./editor.js";
import { LlmAnswerRope } from "./exercise.js";
import { Headline } from "./headline.js";
import { Move } from "./move.js";
import { ropePresets } from "./rope-presets.js";
import { DIGITS, signed } from "./scales.js";
import { ScoreChart } from "./score-chart.js";
import css from "./rope.css";

/**
 * A part of the figure: the nodes it places in it, in order, and render(r), which draws
 * compute()'s result into them. A part that holds controls is made with the figure, whose state
 * they set.
 * @typedef {{ nodes: Element[], render: (r: any) => void }} Part
 */

export class LlmRope extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  static presetFields(name) {
    return presetFields(name);
  }

  /**
   * d even; q and k of length d (extra dropped, missing pairs (1, 0)); given frequencies d/2 of
   * them (the last repeated, or 0.01); the explained pair below d/2.
   */
  normalize(s, notes) {
    if (s.d % 2 !== 0) {
      notes.push(`d must be even; ${s.d} was raised to ${s.d + 1}.`);
      s.d += 1;
    }
    const d = s.d;
    if (s.q.length !== d || s.k.length !== d) {
      notes.push(`q and k were fitted to d = ${d} (missing pairs (1, 0)).`);
      const fit = (v) => Array.from({ length: d }, (_, i) => v[i] ?? (i % 2 === 0 ? 1 : 0));
      s.q = fit(s.q);
      s.k = fit(s.k);
    }
    if (s.useFreqs && s.freqs.length !== d / 2) {
      notes.push(`freqs was fitted to d/2 = ${d / 2} frequencies.`);
      s.freqs = Array.from({ length: d / 2 }, (_, i) => s.freqs[i] ?? s.freqs[s.freqs.length - 1] ?? 0.01);
    }
    if (s.pair > d / 2 - 1) {
      notes.push(`pair ${s.pair} does not exist with d = ${d}; pair ${d / 2 - 1} is explained.`);
      s.pair = d / 2 - 1;
    }
  }

  /**
   * The figure's parts, in the order they stand in it: build() places their nodes, sync() sets
   * those that hold controls from the state, render() has those that draw the result draw it.
   */
  build() {
    /**
     * The last move of both positions, which the readout (move.js) and the summary tell: its
     * shift, and the positions and raw score before it; null after any other change.
     * @type {{ shift: number, before: { m: number, n: number, raw: number } } | null}
     */
    this.moved = null;
    this.ids = uniqueId("rope");
    this.controls = new Controls(this, this.ids);
    this.editor = new Editor(this);
    this.move = new Move(this);
    this.scoreChart = new ScoreChart(this);
    this.calculation = new Calculation(this);
    /** @type {Part[]} the parts that draw the result */
    this.drawn = [this.move, new Headline(), new Dials(), this.scoreChart, this.calculation];
    const c = this.controls;
    markSettings({
      preset: c.presetChoice.select,
      m: c.mCtl.input,
      n: c.nCtl.input,
      d: c.dCtl.input,
      base: c.baseCtl.input,
      "use-freqs": c.modeChoice.select,
      pairing: c.pairingChoice.select,
      range: this.scoreChart.rangeChoice.select,
      pair: this.calculation.pairChoice.select,
    });
    this.frame.append(...c.nodes, ...this.editor.nodes, ...this.drawn.flatMap((part) => part.nodes));
  }

  onPreset(name) {
    if (!Object.hasOwn(ropePresets, name)) return;
    this.set({ preset: name, ...LlmRope.presetFields(name) }, { sync: true });
  }

  moveBoth(shift) {
    const s = this.state;
    if (!this.canMove(shift) || !this.result) return;
    this.set(
      { m: s.m + shift, n: s.n + shift },
      { moved: { shift, before: { m: s.m, n: s.n, raw: this.result.now.raw } } },
    );
    this.controls.syncPositions(this.state, null);
  }

  canMove(shift) {
    const { m, n } = this.state;
    return m + shift >= 0 && n + shift >= 0 && m + shift <= MAX_POSITION && n + shift <= MAX_POSITION;
  }

  /** Merges a change (see LlmWidget.set); `moved` describes a move of both positions, else none. */
  set(patch, options = {}) {
    this.moved = options.moved ?? null;
    super.set(patch, options);
    // a figure not yet started (still off the screen) has no controls: start() syncs them all
    if (this._started) this.syncLive();
  }

  /** The controls that follow every change: the example shown, the slider outputs, the move buttons. */
  syncLive() {
    this.controls.syncLive(this.state);
    this.move.syncLive();
  }

  /** Sets every control from the state (after attributes, Reset, a link, or a rebuilding edit). */
  sync() {
    const s = this.state;
    this.moved = null;
    this.controls.sync(s);
    this.scoreChart.sync(s);
    this.calculation.sync(s);
    this.editor.sync(s);
    this.syncLive();
  }

  options() {
    const s = this.state;
    return s.useFreqs ? { pairing: s.pairing, freqs: s.freqs.slice() } : { pairing: s.pairing, base: s.base };
  }

  compute() {
    const s = this.state;
    const opts = this.options();
    const now = this.core.rope(s.q, s.k, s.m, s.n, opts);
    // The same vectors with the key at position 0 and the query at the offset m − n (the core's).
    const shifted = this.core.rope(s.q, s.k, now.offset, 0, opts);
    // The chart depends on q, k, the frequencies and the range, not on m and n: computed again
    // only when one of those changes.
    const range = Number(s.range);
    const curveKey = JSON.stringify([s.q, s.k, opts, range]);
    const curve = this.memo("curve", [curveKey], () => {
      const offsets = Array.from({ length: 2 * range + 1 }, (_, i) => i - range);
      const { scaled } = this.core.ropeScores(s.q, s.k, offsets, opts);
      return offsets.map((o, i) => [o, scaled[i]]);
    });
    const state = { ...s, q: s.q.slice(), k: s.k.slice(), freqs: s.freqs.slice() };
    return { state, now, shifted, curve, curveKey };
  }

  /** Each part draws the result into its own elements, in the order they stand in the figure. */
  render(r) {
    for (const part of this.drawn) part.render(r);
  }

  /**
   * The score at the positions, or after a move of both its raw value before and after; only the
   * positions while exercise 3 hides the score.
   */
  summary({ state: s, now }, { concealed }) {
    const where = `m = ${s.m}, n = ${s.n}, offset ${String(now.offset)}`;
    if (concealed) return `${where}: the score is hidden until you answer the exercise.`;
    if (this.moved) {
      const { shift, before } = this.moved;
      return `Moved both by ${signed(shift)} to ${where}: raw score ${fmt(before.raw, DIGITS)} before, ${fmt(now.raw, DIGITS)} after.`;
    }
    return `Score ${fmt(now.scaled, DIGITS)} at ${where}.`;
  }
}

export const widgets = { "llm-rope": LlmRope, "llm-answer-rope": LlmAnswerRope };
