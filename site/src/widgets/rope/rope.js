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
// Its settings are declared in attributes.js, its exercise in exercise.js.
import { fill, h, keep, patch, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmt, fmtVec, grouped } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { parseValue } from "../../kit/attributes.js";
import { choice, markInvalid, markSettings, slider } from "../../kit/controls.js";
import { lineChart, niceScale } from "../../kit/plot.js";
import { ATTRIBUTES, BASES, EXAMPLE_FIELDS, MAX_D, MAX_POSITION, RANGES, presetFields } from "./attributes.js";
import { LlmAnswerRope } from "./exercise.js";
import { ropePresets } from "./rope-presets.js";
import { DIGITS, signed } from "./scales.js";
import css from "./rope.css";

// The position sliders cover 0 … 255; the number fields beside them take any position up to
// MAX_POSITION.
const SLIDER_MAX = 255;
const SHIFTS = [-10, -1, 1, 10, 100, 1000];

const nearestBase = (b) => BASES.reduce((best, x, i) => (Math.abs(x - b) < Math.abs(BASES[best] - b) ? i : best), 0);

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

  build() {
    this.moved = null;
    this.ids = uniqueId("rope");

    this.presetChoice = choice({
      label: "Example",
      value: "exercise",
      onchange: (name) => this.onPreset(name),
      options: [...Object.entries(ropePresets).map(([key, p]) => [key, p.label]), ["", "(your own)"]],
    });
    this.pairingChoice = choice({
      label: "Pairs",
      value: "interleaved",
      onchange: (pairing) => this.set({ pairing }),
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
      id: `${this.ids}-d`,
      oninput: (d) => this.set({ d }, { sync: true }),
    });
    this.baseCtl = slider({
      label: "Base",
      min: 0,
      max: BASES.length - 1,
      step: 1,
      id: `${this.ids}-base`,
      oninput: (i) => this.set({ base: BASES[i] }),
    });

    // The number fields of q, k and the frequencies, kept from one sync to the next (a new
    // example or d writes values into them, and adds or removes fields at the end).
    this.rows = {
      freqs: this.editorRow(
        h("span", { class: "rope-row-label" }, "θ per pair (radians per position)"),
        (i) => [sym("θ", i), " "],
        (i) => ({ step: "any", "aria-label": `θ ${i}, frequency of pair ${i}` }),
      ),
      q: this.editorRow(
        h("span", { class: "rope-row-label" }, h("var", {}, "q"), " (query)"),
        (i) => h("span", { class: "rope-index" }, String(i)),
        (i) => ({ step: "0.1", "aria-label": `q coordinate ${i}` }),
      ),
      k: this.editorRow(
        h("span", { class: "rope-row-label" }, h("var", {}, "k"), " (key)"),
        (i) => h("span", { class: "rope-index" }, String(i)),
        (i) => ({ step: "0.1", "aria-label": `k coordinate ${i}` }),
      ),
    };
    this.freqEditor = h("div", { class: "rope-freqs" }, this.rows.freqs.row);
    this.vectorEditor = h("div", { class: "rope-vectors" }, this.rows.q.row, this.rows.k.row);
    this.moveButtons = SHIFTS.map((shift) =>
      h("button", { type: "button", "data-shift": shift, onclick: () => this.moveBoth(shift) }, signed(shift)),
    );
    this.moveReadout = h("p", { class: "rope-moved" });
    this.headline = h("p", { class: "headline" });
    this.dials = h("div", { class: "rope-dials" });
    this.rangeChoice = choice({
      label: "Offsets m − n shown",
      value: "256",
      onchange: (range) => this.set({ range }),
      options: RANGES.map((r) => [r, `−${r} … ${r}`]),
    });
    this.chart = h("div", { class: "chart-box" });
    this.pairChoice = choice({
      label: "Explain the calculation for pair",
      value: "0",
      options: [["0", "0"]],
      onchange: (i) => this.set({ pair: Number(i) }),
    });
    this.worked = h("div", { class: "worked" });
    markSettings({
      preset: this.presetChoice.select,
      m: this.mCtl.input,
      n: this.nCtl.input,
      d: this.dCtl.input,
      base: this.baseCtl.input,
      "use-freqs": this.modeChoice.select,
      pairing: this.pairingChoice.select,
      range: this.rangeChoice.select,
      pair: this.pairChoice.select,
    });

    this.frame.append(
      h("div", { class: "controls" }, this.presetChoice.row),
      // The positions stay in view while the figure scrolls by (.llm-bar, widget.css).
      h("div", { class: "sliders llm-bar" }, this.mCtl.row, this.nCtl.row),
      h("div", { class: "sliders rope-shape" }, this.dCtl.row, this.baseCtl.row),
      h("div", { class: "controls rope-frequency" }, this.modeChoice.row, this.pairingChoice.row),
      this.freqEditor,
      this.vectorEditor,
      h(
        "div",
        { class: "controls rope-move", role: "group", "aria-label": "Move both m and n" },
        h("span", {}, "Move both m and n by "),
        this.moveButtons,
      ),
      this.moveReadout,
      this.headline,
      h(
        "p",
        { class: "rope-legend", "aria-hidden": "true" },
        h("span", { class: "swatch q" }),
        " query pair, turned by m·θ  ",
        h("span", { class: "swatch k" }),
        " key pair, turned by n·θ  ",
        h("span", { class: "swatch before" }),
        " before turning",
      ),
      this.dials,
      h("div", { class: "controls rope-offsets" }, this.rangeChoice.row),
      this.chart,
      h("div", { class: "controls explain" }, this.pairChoice.row),
      this.worked,
    );
  }

  /**
   * A position: a slider over 0 … SLIDER_MAX and a number field for any position up to
   * MAX_POSITION. A field that does not hold such a position is marked and named in the status,
   * and the state keeps its last good position.
   */
  positionControl(key, label) {
    const id = `${this.ids}-${key}`;
    const decl = ATTRIBUTES.find((a) => a.name === key);
    const input = h("input", {
      type: "range",
      id,
      min: 0,
      max: SLIDER_MAX,
      step: 1,
      oninput: () => {
        this.set({ [key]: input.valueAsNumber });
        this.syncPositions(input);
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
          this.showError(`Not updated: ${key}: ${parsed.error}.`);
          return;
        }
        this.set({ [key]: parsed.value });
        this.syncPositions(number);
      },
    });
    return { input, number, row: h("div", { class: "slider" }, h("label", { for: id }, label), input, number) };
  }

  onPreset(name) {
    if (!Object.hasOwn(ropePresets, name)) return;
    this.set({ preset: name, ...LlmRope.presetFields(name) }, { sync: true });
  }

  onMode(mode) {
    const s = this.state;
    const patch = { useFreqs: mode === "freqs" };
    // Start the given frequencies from the ones the base produced (the core's thetas).
    if (patch.useFreqs && s.freqs.length !== s.d / 2 && this.result?.now.thetas.length === s.d / 2)
      patch.freqs = this.result.now.thetas.slice();
    this.set(patch, { sync: true });
  }

  moveBoth(shift) {
    const s = this.state;
    if (!this.canMove(shift) || !this.result) return;
    this.set(
      { m: s.m + shift, n: s.n + shift },
      { moved: { shift, before: { m: s.m, n: s.n, raw: this.result.now.raw } } },
    );
    this.syncPositions(null);
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

  /** The position sliders and number fields from the state, except `source` (being edited). */
  syncPositions(source) {
    const s = this.state;
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

  /** The controls that follow every change: the example shown, the slider outputs, the move buttons. */
  syncLive() {
    const s = this.state;
    const p = LlmRope.presetFields(s.preset);
    const same = EXAMPLE_FIELDS.every((f) => JSON.stringify(p[f]) === JSON.stringify(s[f]));
    this.presetChoice.select.value = same ? s.preset : "";
    this.dCtl.out.value = String(s.d);
    this.baseCtl.out.value = grouped(s.base);
    this.baseCtl.input.setAttribute("aria-valuetext", grouped(s.base));
    for (const b of this.moveButtons) b.disabled = !this.canMove(Number(b.dataset.shift));
  }

  /** Sets every control from the state (after attributes, Reset, a link, or a rebuilding edit). */
  sync() {
    const s = this.state;
    this.moved = null;
    this.syncPositions(null);
    this.dCtl.input.value = String(s.d);
    this.baseCtl.input.value = String(nearestBase(s.base));
    this.baseCtl.input.disabled = s.useFreqs;
    this.modeChoice.select.value = s.useFreqs ? "freqs" : "base";
    this.pairingChoice.select.value = s.pairing;
    this.rangeChoice.select.value = s.range;
    fill(
      this.pairChoice.select,
      Array.from({ length: s.d / 2 }, (_, i) => h("option", { value: i }, String(i))),
    );
    this.pairChoice.select.value = String(s.pair);

    this.freqEditor.hidden = !s.useFreqs;
    this.syncRow("freqs", s.useFreqs ? s.freqs : []);
    this.syncRow("q", s.q);
    this.syncRow("k", s.k);
    this.syncLive();
  }

  /** An editor row: its label, then one number field per value; `lead(i)` before field i, `props(i)` its attributes. */
  editorRow(label, lead, props) {
    return { row: h("div", { class: "rope-row" }, label), lead, props, cells: [] };
  }

  /**
   * Row `key` shows the fields for `values`: fields are added or removed at the end, and each
   * shows its value, marked valid (a sync replaces whatever was typed), so that a new example or
   * d does not build every field anew.
   */
  syncRow(key, values) {
    const row = this.rows[key];
    while (row.cells.length > values.length) row.cells.pop().label.remove();
    while (row.cells.length < values.length) {
      const i = row.cells.length;
      const input = h("input", {
        type: "number",
        inputmode: "decimal",
        ...row.props(i),
        oninput: (e) => this.onCell(key, i, e.target),
      });
      const label = h("label", { class: "rope-cell" }, row.lead(i), input);
      row.row.append(label);
      row.cells.push({ label, input });
    }
    values.forEach((v, i) => {
      const { input } = row.cells[i];
      if (input.value !== fieldValue(v)) input.value = fieldValue(v);
      if (input.getAttribute("aria-invalid") === "true") markInvalid(input, false);
    });
  }

  onCell(key, i, input) {
    // NaN for an empty or unparsable field; the core's message names the coordinate.
    const v = this.state[key].slice();
    v[i] = input.valueAsNumber;
    this.set({ [key]: v });
    markInvalid(input, this.failed);
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

  render(r) {
    const { state: s, now } = r;
    patch(
      this.headline,
      "Score ",
      sym("q̃"),
      "·",
      sym("k̃"),
      "/√",
      h("var", {}, "d"),
      ` at m = ${s.m}, n = ${s.n}: `,
      h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)),
      " (raw ",
      sym("q̃"),
      "·",
      sym("k̃"),
      " = ",
      h("span", { class: "rope-raw" }, fmt(now.raw, DIGITS)),
      `), offset m − n = ${String(now.offset)}.`,
    );
    // The dials and the chart are drawn again only when what each shows changed (the chart's
    // curve with q, k, the frequencies or the range; its marker with the offset).
    patch(
      this.dials,
      keep([s.q, s.k, s.pair, now.pairs, now.thetas, now.angles, now.qRotated, now.kRotated, now.pairScores], () =>
        this.dialsFor(r),
      ),
    );
    patch(
      this.chart,
      keep([r.curveKey, now.scaled, now.offset], () => this.chartFor(r)),
    );
    this.renderWorked(r);
    this.renderMoved();
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

  renderMoved() {
    const r = this.result;
    if (!this.moved || !r) {
      patch(this.moveReadout, "Moving the query and the key together changes both angles but not the score.");
      return;
    }
    const { shift, before } = this.moved;
    const a = fmt(before.raw, DIGITS),
      b = fmt(r.now.raw, DIGITS);
    patch(
      this.moveReadout,
      `Moved both by ${signed(shift)}: (m, n) = (${before.m}, ${before.n}) → (${r.state.m}, ${r.state.n}); raw score `,
      h("span", { class: "rope-before" }, a),
      " → ",
      h("span", { class: "rope-after" }, b),
      ", ",
      a === b
        ? h("strong", {}, `unchanged to ${DIGITS} decimals.`)
        : "equal in exact arithmetic; the last digits differ by floating-point rounding, which grows with the positions.",
    );
  }

  dialsFor(r) {
    const { state: s, now } = r;
    const R = 46,
      c = 58,
      S = 116;
    // Pixel scale: |x| + |y| bounds the length of a pair before and after turning.
    let bound = 0;
    for (const [a, b] of now.pairs)
      for (const v of [s.q, s.k]) bound = Math.max(bound, Math.abs(v[a]) + Math.abs(v[b]));
    const px = bound > 0 ? R / bound : 1;
    const arrow = (x, y, cls) => [
      h("line", { x1: c, y1: c, x2: c + x * px, y2: c - y * px, class: cls }),
      h("circle", { cx: c + x * px, cy: c - y * px, r: cls === "before" ? 2 : cls === "k" ? 5 : 3.5, class: cls }),
    ];
    return now.pairs.map(([a, b], i) =>
      h(
        "figure",
        { class: i === s.pair ? "rope-dial selected" : "rope-dial" },
        h(
          "svg",
          {
            viewBox: `0 0 ${S} ${S}`,
            class: "dial",
            role: "img",
            "aria-label": `Pair ${i}, coordinates ${a} and ${b}: the query turned ${fmt(now.angles[i][0], 4)} radians, the key ${fmt(now.angles[i][1], 4)} radians`,
          },
          h("circle", { cx: c, cy: c, r: R, class: "rim" }),
          h("line", { x1: c - R, x2: c + R, y1: c, y2: c, class: "axis" }),
          h("line", { x1: c, x2: c, y1: c - R, y2: c + R, class: "axis" }),
          arrow(s.k[a], s.k[b], "before"),
          arrow(s.q[a], s.q[b], "before"),
          // The key is drawn wider underneath, so it still shows where the query covers it.
          arrow(now.kRotated[a], now.kRotated[b], "k"),
          arrow(now.qRotated[a], now.qRotated[b], "q"),
        ),
        h(
          "figcaption",
          {},
          h("strong", {}, `pair ${i}`),
          ` (x${a}, x${b})`,
          h("br"),
          sym("θ", i),
          ` = ${fmt(now.thetas[i], 6)}`,
          h("br"),
          h("span", { class: "q" }, `q: ${fmt(now.angles[i][0], 4)} rad`),
          h("br"),
          h("span", { class: "k" }, `k: ${fmt(now.angles[i][1], 4)} rad`),
          h("br"),
          `part: ${fmt(now.pairScores[i], 4)}`,
        ),
      ),
    );
  }

  chartFor({ state: s, now, curve }) {
    const ys = curve.map(([, y]) => y);
    const lo = Math.min(...ys, now.scaled),
      hi = Math.max(...ys, now.scaled);
    // Headroom above the curve for the marker's label.
    const yAxis = niceScale(lo, hi + 0.08 * (hi - lo), 5);
    const range = Number(s.range);
    const xTicks = [-range, -range / 2, 0, range / 2, range];
    const { offset } = now;
    const inside = Math.abs(offset) <= range;
    return lineChart({
      title: "Score q̃·k̃/√d against the offset m − n",
      x: {
        min: -range,
        max: range,
        ticks: xTicks,
        format: (t) => fmt(t, 0),
        label: "offset m − n (query position minus key position)",
        name: "offset m − n",
      },
      y: { ...yAxis, format: (t) => fmt(t, 3), label: "score q̃·k̃/√d" },
      series: [{ points: curve, label: "score" }],
      markers: inside ? [{ x: offset, y: now.scaled, label: `m − n = ${offset}: ${fmt(now.scaled, 4)}` }] : [],
      describe: inside
        ? `The marked offset, m − n = ${offset}, gives ${fmt(now.scaled, 4)}.`
        : `The figure's offset, m − n = ${offset}, is outside the axis.`,
    });
  }

  /** The calculation for the selected pair, then the sum over pairs, with the current numbers. */
  renderWorked(r) {
    const { state: s, now, shifted } = r;
    const i = s.pair;
    const [a, b] = now.pairs[i];
    const theta = now.thetas[i];
    const [am, an] = now.angles[i];
    const cos = (t) => `cos ${fmt(t, 6)}`,
      sin = (t) => `sin ${fmt(t, 6)}`;
    const turn = (name, v, rot, t) =>
      h(
        "li",
        {},
        sym(name),
        ` pair (${fmt(v[a])}, ${fmt(v[b])}) → `,
        `(${fmt(v[a])}·${cos(t)} − ${fmt(v[b])}·${sin(t)}, ${fmt(v[a])}·${sin(t)} + ${fmt(v[b])}·${cos(t)}) = `,
        h("strong", {}, `(${fmt(rot[a], DIGITS)}, ${fmt(rot[b], DIGITS)})`),
      );
    const d = s.d;

    const steps = h(
      "ol",
      {},
      h(
        "li",
        {},
        h("strong", {}, "Frequency. "),
        s.useFreqs
          ? ["Given: ", sym("θ", i), ` = ${fmt(theta, 10)} rad per position.`]
          : [
              sym("θ", i),
              " = base",
              h("sup", {}, "−2i/d"),
              ` = ${grouped(s.base)}`,
              h("sup", {}, `−2·${i}/${d}`),
              ` = ${fmt(theta, 10)} rad per position.`,
            ],
      ),
      h(
        "li",
        {},
        h("strong", {}, "Angles. "),
        `The query at m = ${s.m} turns by m·`,
        sym("θ", i),
        ` = ${s.m} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(am, 10)} rad`),
        `; the key at n = ${s.n} by n·`,
        sym("θ", i),
        ` = ${s.n} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(an, 10)} rad`),
        ".",
      ),
      h(
        "li",
        {},
        h("strong", {}, "Rotation. "),
        `Pair ${i} is coordinates ${a} and ${b}; (x, y) turned by α is (x cos α − y sin α, x sin α + y cos α):`,
        h("ul", {}, turn("q", s.q, now.qRotated, am), turn("k", s.k, now.kRotated, an)),
      ),
      h(
        "li",
        {},
        h("strong", {}, "This pair's part. "),
        `${fmt(now.qRotated[a], DIGITS)}·${fmt(now.kRotated[a], DIGITS)} + ${fmt(now.qRotated[b], DIGITS)}·${fmt(now.kRotated[b], DIGITS)} = `,
        h("strong", {}, fmt(now.pairScores[i], DIGITS)),
      ),
      h(
        "li",
        {},
        h("strong", {}, "Sum over the pairs. "),
        "raw = ",
        now.pairScores.map((p) => fmt(p, DIGITS)).join(" + "),
        " = ",
        h("strong", { class: "rope-raw" }, fmt(now.raw, DIGITS)),
        "; divided by √",
        h("var", {}, "d"),
        ` = √${d}: `,
        h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)),
        ".",
      ),
      h(
        "li",
        {},
        h("strong", {}, "Only the offset counts. "),
        `The same q and k with the query at m − n = ${String(now.offset)} and the key at 0 give raw = `,
        h("span", { class: "rope-shifted" }, fmt(shifted.raw, DIGITS)),
        `: the pair-${i} angles are then ${fmt(shifted.angles[i][0], 10)} and 0 rad, the same gap between query and key.`,
      ),
    );
    patch(this.worked, h("p", {}, `Pair ${i} of q = ${fmtVec(s.q)} and k = ${fmtVec(s.k)}:`), steps);
  }
}

export const widgets = { "llm-rope": LlmRope, "llm-answer-rope": LlmAnswerRope };
