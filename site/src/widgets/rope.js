// <llm-rope>: rotary position embedding (Su et al. 2021, RoFormer). The reader sets the query
// position m and the key position n, the dimension d, the frequencies (from a base, or given
// one per pair), the pairing layout and the vectors q and k. Each rotation pair is drawn as a
// dial with the query and key arrows at their turned angles; a chart gives the score against
// the offset m − n; "move both" shifts m and n together and shows the score unchanged; the
// calculation for one pair and the sum over pairs is written out with the current numbers.
//
// Attributes: preset (a key of ropePresets, default "exercise"); m and n (whole numbers,
// override the preset's positions).
// Properties: state ({ d, q, k, m, n, useFreqs, base, freqs, pairing, range }); result
// ({ state, now, shifted, curve }: the core's rope() at (m, n), at (m − n, 0), and the scaled
// score at every offset of the chart).
import { fill, h, sym, uniqueId } from "../dom.js";
import { fmt, fmtVec } from "../format.js";
import { LlmWidget } from "./base.js";
import { FigureAnswer } from "./answer.js";
import { lineChart, niceScale } from "./plot.js";

// Bases the slider steps through: RoFormer's 10,000 (its eq. 15), Llama 3's 500,000, and
// neighbours on either side.
const BASES = [10, 100, 1000, 10000, 100000, 500000, 1000000];
// Half-widths of the chart's offset axis; every whole offset in it is one call of the core.
const RANGES = [16, 64, 256, 512];
const MAX_D = 16;
// The position sliders cover 0 … 255; the number fields beside them take any position.
const SLIDER_MAX = 255;
const SHIFTS = [-10, -1, 1, 10, 100, 1000];
const DIGITS = 10;

export const ropePresets = {
  exercise: {
    label: "Exercise: d = 4, θ = (0.01, 0.0001)",
    d: 4, useFreqs: true, base: 10000, freqs: [0.01, 0.0001], pairing: "interleaved",
    q: [1, 0, 1, 0], k: [1, 0, 1, 0], m: 2, n: 0, range: 256,
  },
  roformer: {
    label: "RoFormer: base 10,000, d = 8",
    d: 8, useFreqs: false, base: 10000, freqs: [], pairing: "interleaved",
    q: [1, 0, 1, 0, 1, 0, 1, 0], k: [1, 0, 1, 0, 1, 0, 1, 0], m: 5, n: 2, range: 64,
  },
  mixed: {
    label: "Different q and k: base 10,000, d = 8",
    d: 8, useFreqs: false, base: 10000, freqs: [], pairing: "interleaved",
    q: [0.8, 0.6, -0.5, 1, 0.3, -0.9, 1, 0.2], k: [1, -0.2, 0.4, 0.9, -0.6, -0.5, 0.7, 0.7], m: 12, n: 3, range: 64,
  },
  llama: {
    label: "Llama 3 layout: base 500,000, d = 16, half pairing",
    d: 16, useFreqs: false, base: 500000, freqs: [], pairing: "half",
    q: [1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1], k: [1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1],
    m: 200, n: 40, range: 512,
  },
};

const copyPreset = (p) => ({ ...p, q: p.q.slice(), k: p.k.slice(), freqs: p.freqs.slice() });
const nearestBase = (b) => BASES.reduce((best, x, i) => (Math.abs(x - b) < Math.abs(BASES[best] - b) ? i : best), 0);
const signed = (x) => (x >= 0 ? `+${x.toLocaleString("en")}` : `−${(-x).toLocaleString("en")}`);

export class LlmRope extends LlmWidget {
  build() {
    const presetName = ropePresets[this.getAttribute("preset")] ? this.getAttribute("preset") : "exercise";
    this.state = copyPreset(ropePresets[presetName]);
    for (const key of ["m", "n"]) {
      const v = Number.parseInt(this.getAttribute(key) ?? "", 10);
      if (Number.isFinite(v)) this.state[key] = v;
    }
    this.pair = 0;
    this.moved = null;
    this.curveCache = { key: "", curve: null };

    const id = uniqueId("rope");
    this.ids = id;
    this.presetSelect = h("select", { id: `${id}-preset`, onchange: () => this.onPreset() },
      Object.entries(ropePresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "" }, "(your own)"));
    this.presetSelect.value = presetName;
    this.pairingSelect = h("select", { id: `${id}-pairing`, onchange: () => this.edit(() => (this.state.pairing = this.pairingSelect.value)) },
      h("option", { value: "interleaved" }, "interleaved, (x[2i], x[2i+1]): RoFormer"),
      h("option", { value: "half" }, "halves, (x[i], x[i+d/2]): GPT-NeoX, Llama code"));
    this.modeSelect = h("select", { id: `${id}-mode`, onchange: () => this.onMode() },
      h("option", { value: "base" }, "from a base: θᵢ = base^(−2i/d)"),
      h("option", { value: "freqs" }, "given, one per pair"));

    this.mCtl = this.positionControl("m", "Query position m");
    this.nCtl = this.positionControl("n", "Key position n");
    this.dCtl = this.slider("d", "Dimension d", 2, MAX_D, 2, () => this.resize(this.dCtl.input.valueAsNumber));
    this.baseCtl = this.slider("base", "Base", 0, BASES.length - 1, 1, () => this.edit(() => (this.state.base = BASES[this.baseCtl.input.valueAsNumber])));

    this.freqEditor = h("div", { class: "rope-freqs" });
    this.vectorEditor = h("div", { class: "rope-vectors" });
    this.moveReadout = h("p", { class: "rope-moved", "aria-live": "polite" });
    this.headline = h("p", { class: "headline" });
    this.dials = h("div", { class: "rope-dials" });
    this.rangeSelect = h("select", { id: `${id}-range`, onchange: () => {
      this.state.range = Number(this.rangeSelect.value);
      this.update();
    } }, RANGES.map((r) => h("option", { value: r }, `−${r} … ${r}`)));
    this.chart = h("div", { class: "chart-box" });
    this.pairSelect = h("select", { id: `${id}-pair`, onchange: () => {
      this.pair = Number(this.pairSelect.value);
      this.update();
    } });
    this.worked = h("div", { class: "worked", "aria-live": "polite" });

    this.append(
      h("div", { class: "controls" },
        h("label", { for: `${id}-preset` }, "Example "), this.presetSelect),
      h("div", { class: "sliders" }, this.mCtl.row, this.nCtl.row, this.dCtl.row, this.baseCtl.row),
      h("div", { class: "controls" },
        h("span", { class: "control" }, h("label", { for: `${id}-mode` }, "Frequencies θ "), this.modeSelect),
        h("span", { class: "control" }, h("label", { for: `${id}-pairing` }, "Pairs "), this.pairingSelect)),
      this.freqEditor,
      this.vectorEditor,
      h("div", { class: "controls rope-move", role: "group", "aria-label": "Move both m and n" },
        h("span", {}, "Move both m and n by "),
        SHIFTS.map((s) => h("button", { type: "button", "data-shift": s, onclick: () => this.moveBoth(s) }, signed(s)))),
      this.moveReadout,
      this.headline,
      h("p", { class: "rope-legend", "aria-hidden": "true" },
        h("span", { class: "swatch q" }), " query pair, turned by m·θ  ",
        h("span", { class: "swatch k" }), " key pair, turned by n·θ  ",
        h("span", { class: "swatch before" }), " before turning"),
      this.dials,
      h("div", { class: "controls" }, h("label", { for: `${id}-range` }, "Offsets m − n shown "), this.rangeSelect),
      this.chart,
      h("div", { class: "controls" }, h("label", { for: `${id}-pair` }, "Explain the calculation for pair "), this.pairSelect),
      this.worked,
    );
    this.syncControls();
  }

  slider(key, label, min, max, step, oninput) {
    const id = `${this.ids}-${key}`;
    const input = h("input", { type: "range", id, min, max, step, oninput });
    const out = h("output", { for: id });
    return { input, out, row: h("div", { class: "slider" }, h("label", { for: id }, label), input, out) };
  }

  /** A position: a slider over 0 … SLIDER_MAX and a number field for any position. */
  positionControl(key, label) {
    const id = `${this.ids}-${key}`;
    const set = (value, source) => {
      this.state[key] = value;
      this.moved = null;
      this.presetSelect.value = "";
      this.syncPositions(source);
      this.update();
    };
    const input = h("input", { type: "range", id, min: 0, max: SLIDER_MAX, step: 1, oninput: () => set(input.valueAsNumber, input) });
    // valueAsNumber is NaN for an empty field; the core's message then names the position.
    const number = h("input", { type: "number", id: `${id}-exact`, min: 0, step: 1, inputmode: "numeric", class: "rope-pos",
      "aria-label": `${label}, exact`, oninput: () => set(number.valueAsNumber, number) });
    return { input, number, row: h("div", { class: "slider" }, h("label", { for: id }, label), input, number) };
  }

  onPreset() {
    if (!ropePresets[this.presetSelect.value]) return;
    this.state = copyPreset(ropePresets[this.presetSelect.value]);
    this.pair = 0;
    this.moved = null;
    this.syncControls();
    this.update();
  }

  onMode() {
    const s = this.state;
    s.useFreqs = this.modeSelect.value === "freqs";
    // Start the given frequencies from the ones the base produced (the core's thetas).
    if (s.useFreqs && s.freqs.length !== s.d / 2) s.freqs = this.result?.now.thetas.slice() ?? Array(s.d / 2).fill(0.01);
    this.presetSelect.value = "";
    this.moved = null;
    this.syncControls();
    this.update();
  }

  /** Applies an edit to the state, then recomputes. */
  edit(change) {
    change();
    this.presetSelect.value = "";
    this.moved = null;
    this.syncControls();
    this.update();
  }

  /** Changes d: q and k keep their first coordinates and gain (1, 0) pairs; given θs repeat the last. */
  resize(d) {
    const s = this.state;
    if (!(d >= 2 && d <= MAX_D) || d === s.d) return;
    const fit = (v) => Array.from({ length: d }, (_, i) => v[i] ?? (i % 2 === 0 ? 1 : 0));
    s.q = fit(s.q);
    s.k = fit(s.k);
    s.freqs = Array.from({ length: d / 2 }, (_, i) => s.freqs[i] ?? s.freqs[s.freqs.length - 1] ?? 0.01);
    s.d = d;
    this.pair = Math.min(this.pair, d / 2 - 1);
    this.edit(() => {});
  }

  moveBoth(shift) {
    const s = this.state;
    if (!(s.m + shift >= 0 && s.n + shift >= 0) || !this.result) return;
    this.moved = { shift, before: { m: s.m, n: s.n, raw: this.result.now.raw } };
    s.m += shift;
    s.n += shift;
    this.syncPositions(null);
    this.update();
  }

  syncPositions(source) {
    const s = this.state;
    for (const [key, ctl] of [["m", this.mCtl], ["n", this.nCtl]]) {
      const v = s[key];
      if (ctl.input !== source && Number.isFinite(v)) ctl.input.value = String(Math.min(Math.max(v, 0), SLIDER_MAX));
      if (ctl.number !== source) ctl.number.value = Number.isFinite(v) ? String(v) : "";
      ctl.input.setAttribute("aria-valuetext", Number.isFinite(v) ? String(v) : "not a number");
    }
    for (const b of this.querySelectorAll(".rope-move button")) {
      const shift = Number(b.dataset.shift);
      b.disabled = !(s.m + shift >= 0 && s.n + shift >= 0);
    }
  }

  /** Brings every control in line with the state. */
  syncControls() {
    const s = this.state;
    this.syncPositions(null);
    this.dCtl.input.value = String(s.d);
    this.dCtl.out.value = String(s.d);
    this.baseCtl.input.value = String(nearestBase(s.base));
    this.baseCtl.out.value = s.base.toLocaleString("en");
    this.baseCtl.input.setAttribute("aria-valuetext", s.base.toLocaleString("en"));
    this.baseCtl.input.disabled = s.useFreqs;
    this.modeSelect.value = s.useFreqs ? "freqs" : "base";
    this.pairingSelect.value = s.pairing;
    this.rangeSelect.value = String(s.range);
    fill(this.pairSelect, Array.from({ length: s.d / 2 }, (_, i) => h("option", { value: i }, String(i))));
    this.pairSelect.value = String(this.pair);

    fill(this.freqEditor, s.useFreqs
      ? h("div", { class: "rope-row" }, h("span", { class: "rope-row-label" }, "θ per pair (radians per position)"),
          s.freqs.map((f, i) => h("label", { class: "rope-cell" }, sym("θ", i), " ",
            h("input", { type: "number", step: "any", value: String(f), inputmode: "decimal", "aria-label": `θ ${i}, frequency of pair ${i}`,
              oninput: (e) => this.onCell("freqs", i, e.target) }))))
      : null);
    const vectorRow = (name, v) => h("div", { class: "rope-row" },
      h("span", { class: "rope-row-label" }, h("var", {}, name), name === "q" ? " (query)" : " (key)"),
      v.map((x, i) => h("label", { class: "rope-cell" }, h("span", { class: "rope-index" }, String(i)),
        h("input", { type: "number", step: "0.1", value: String(x), inputmode: "decimal", "aria-label": `${name} coordinate ${i}`,
          oninput: (e) => this.onCell(name, i, e.target) }))));
    fill(this.vectorEditor, vectorRow("q", s.q), vectorRow("k", s.k));
  }

  onCell(name, i, input) {
    // NaN for an empty or unparsable field; the core's message names the coordinate.
    this.state[name][i] = input.valueAsNumber;
    this.presetSelect.value = "";
    this.moved = null;
    this.update();
    input.setAttribute("aria-invalid", this.status.classList.contains("llm-error") ? "true" : "false");
  }

  options() {
    const s = this.state;
    return s.useFreqs ? { pairing: s.pairing, freqs: s.freqs.slice() } : { pairing: s.pairing, base: s.base };
  }

  compute() {
    const s = this.state;
    const opts = this.options();
    const now = this.core.rope(s.q, s.k, s.m, s.n, opts);
    // The same vectors with the key at position 0 and the query at the offset m − n.
    const shifted = this.core.rope(s.q, s.k, s.m - s.n, 0, opts);
    // The chart depends on q, k, the frequencies and the range, not on m and n: computed again
    // only when one of those changes.
    const key = JSON.stringify([s.q, s.k, opts, s.range]);
    if (this.curveCache.key !== key) {
      const curve = [];
      const offsets = Array.from({ length: 2 * s.range + 1 }, (_, i) => i - s.range);
      const { scaled } = this.core.ropeScores(s.q, s.k, offsets, opts);
      offsets.forEach((o, i) => curve.push([o, scaled[i]]));
      this.curveCache = { key, curve };
    }
    const state = { ...s, q: s.q.slice(), k: s.k.slice(), freqs: s.freqs.slice() };
    return { state, now, shifted, curve: this.curveCache.curve };
  }

  render(r) {
    const { state: s, now } = r;
    this.headline.replaceChildren("Score ", sym("q̃"), "·", sym("k̃"), "/√", h("var", {}, "d"), ` at m = ${s.m}, n = ${s.n}: `,
      h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)), " (raw ", sym("q̃"), "·", sym("k̃"), " = ",
      h("span", { class: "rope-raw" }, fmt(now.raw, DIGITS)), `), offset m − n = ${s.m - s.n}.`);
    this.renderDials(r);
    fill(this.chart, this.chartFor(r));
    this.renderWorked(r);
    this.renderMoved();
  }

  renderMoved() {
    const r = this.result;
    if (!this.moved || !r) {
      fill(this.moveReadout, "Moving the query and the key together changes both angles but not the score.");
      return;
    }
    const { shift, before } = this.moved;
    const a = fmt(before.raw, DIGITS), b = fmt(r.now.raw, DIGITS);
    fill(this.moveReadout, `Moved both by ${signed(shift)}: (m, n) = (${before.m}, ${before.n}) → (${r.state.m}, ${r.state.n}); raw score `,
      h("span", { class: "rope-before" }, a), " → ", h("span", { class: "rope-after" }, b), ", ",
      a === b
        ? h("strong", {}, `unchanged to ${DIGITS} decimals.`)
        : "equal in exact arithmetic; the last digits differ by floating-point rounding, which grows with the positions.");
  }

  renderDials(r) {
    const { state: s, now } = r;
    const R = 46, c = 58, S = 116;
    // Pixel scale: |x| + |y| bounds the length of a pair before and after turning.
    let bound = 0;
    for (const [a, b] of now.pairs) for (const v of [s.q, s.k]) bound = Math.max(bound, Math.abs(v[a]) + Math.abs(v[b]));
    const px = bound > 0 ? R / bound : 1;
    const arrow = (x, y, cls) => [
      h("line", { x1: c, y1: c, x2: c + x * px, y2: c - y * px, class: cls }),
      h("circle", { cx: c + x * px, cy: c - y * px, r: cls === "before" ? 2 : cls === "k" ? 5 : 3.5, class: cls }),
    ];
    fill(this.dials, now.pairs.map(([a, b], i) => h("figure", { class: i === this.pair ? "rope-dial selected" : "rope-dial" },
      h("svg", { viewBox: `0 0 ${S} ${S}`, class: "dial", role: "img",
        "aria-label": `Pair ${i}, coordinates ${a} and ${b}: the query turned ${fmt(now.angles[i][0], 4)} radians, the key ${fmt(now.angles[i][1], 4)} radians` },
        h("circle", { cx: c, cy: c, r: R, class: "rim" }),
        h("line", { x1: c - R, x2: c + R, y1: c, y2: c, class: "axis" }),
        h("line", { x1: c, x2: c, y1: c - R, y2: c + R, class: "axis" }),
        arrow(s.k[a], s.k[b], "before"), arrow(s.q[a], s.q[b], "before"),
        // The key is drawn wider underneath, so it still shows where the query covers it.
        arrow(now.kRotated[a], now.kRotated[b], "k"), arrow(now.qRotated[a], now.qRotated[b], "q")),
      h("figcaption", {},
        h("strong", {}, `pair ${i}`), ` (x${a}, x${b})`, h("br"),
        sym("θ", i), ` = ${fmt(now.thetas[i], 6)}`, h("br"),
        h("span", { class: "q" }, `q: ${fmt(now.angles[i][0], 4)} rad`), h("br"),
        h("span", { class: "k" }, `k: ${fmt(now.angles[i][1], 4)} rad`), h("br"),
        `part: ${fmt(now.pairScores[i], 4)}`))));
  }

  chartFor({ state: s, now, curve }) {
    const ys = curve.map(([, y]) => y);
    const lo = Math.min(...ys, now.scaled), hi = Math.max(...ys, now.scaled);
    // Headroom above the curve for the marker's label.
    const yAxis = niceScale(lo, hi + 0.08 * (hi - lo), 5);
    const xTicks = [-s.range, -s.range / 2, 0, s.range / 2, s.range];
    const offset = s.m - s.n;
    const inside = Math.abs(offset) <= s.range;
    return lineChart({
      title: "Score q̃·k̃/√d against the offset m − n",
      x: { min: -s.range, max: s.range, ticks: xTicks, format: (t) => fmt(t, 0), label: "offset m − n (query position minus key position)" },
      y: { ...yAxis, format: (t) => fmt(t, 3), label: "score q̃·k̃/√d" },
      series: [{ points: curve }],
      markers: inside ? [{ x: offset, y: now.scaled, label: `m − n = ${offset}: ${fmt(now.scaled, 4)}` }] : [],
    });
  }

  /** The calculation for the selected pair, then the sum over pairs, with the current numbers. */
  renderWorked(r) {
    const { state: s, now, shifted } = r;
    const i = this.pair;
    const [a, b] = now.pairs[i];
    const theta = now.thetas[i];
    const [am, an] = now.angles[i];
    const cos = (t) => `cos ${fmt(t, 6)}`, sin = (t) => `sin ${fmt(t, 6)}`;
    const turn = (name, v, rot, t) => h("li", {}, sym(name), ` pair (${fmt(v[a])}, ${fmt(v[b])}) → `,
      `(${fmt(v[a])}·${cos(t)} − ${fmt(v[b])}·${sin(t)}, ${fmt(v[a])}·${sin(t)} + ${fmt(v[b])}·${cos(t)}) = `,
      h("strong", {}, `(${fmt(rot[a], DIGITS)}, ${fmt(rot[b], DIGITS)})`));
    const d = s.d;

    const steps = h("ol", {},
      h("li", {}, h("strong", {}, "Frequency. "),
        s.useFreqs
          ? ["Given: ", sym("θ", i), ` = ${fmt(theta, 10)} rad per position.`]
          : [sym("θ", i), " = base", h("sup", {}, "−2i/d"), ` = ${s.base.toLocaleString("en")}`, h("sup", {}, `−2·${i}/${d}`),
              ` = ${fmt(theta, 10)} rad per position.`]),
      h("li", {}, h("strong", {}, "Angles. "), `The query at m = ${s.m} turns by m·`, sym("θ", i), ` = ${s.m} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(am, 10)} rad`), `; the key at n = ${s.n} by n·`, sym("θ", i), ` = ${s.n} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(an, 10)} rad`), "."),
      h("li", {}, h("strong", {}, "Rotation. "), `Pair ${i} is coordinates ${a} and ${b}; (x, y) turned by α is (x cos α − y sin α, x sin α + y cos α):`,
        h("ul", {}, turn("q", s.q, now.qRotated, am), turn("k", s.k, now.kRotated, an))),
      h("li", {}, h("strong", {}, "This pair's part. "),
        `${fmt(now.qRotated[a], DIGITS)}·${fmt(now.kRotated[a], DIGITS)} + ${fmt(now.qRotated[b], DIGITS)}·${fmt(now.kRotated[b], DIGITS)} = `,
        h("strong", {}, fmt(now.pairScores[i], DIGITS))),
      h("li", {}, h("strong", {}, "Sum over the pairs. "), "raw = ",
        now.pairScores.map((p) => fmt(p, DIGITS)).join(" + "), " = ", h("strong", { class: "rope-raw" }, fmt(now.raw, DIGITS)),
        "; divided by √", h("var", {}, "d"), ` = √${d}: `, h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)), "."),
      h("li", {}, h("strong", {}, "Only the offset counts. "), `The same q and k with the query at m − n = ${s.m - s.n} and the key at 0 give raw = `,
        h("span", { class: "rope-shifted" }, fmt(shifted.raw, DIGITS)),
        `: the pair-${i} angles are then ${fmt(shifted.angles[i][0], 10)} and 0 rad, the same gap between query and key.`));
    fill(this.worked, h("p", {}, `Pair ${i} of q = ${fmtVec(s.q)} and k = ${fmtVec(s.k)}:`), steps);
  }
}

/** Exercise 3: the raw and scaled scores of the figure's q and k, as sums of per-pair cosines when they can be. */
export class LlmAnswerRope extends FigureAnswer {
  answer(r) {
    const { state: s, now, shifted } = r;
    const offset = s.m - s.n;
    const gaps = shifted.angles.map(([t]) => t);
    // Every pair of q and of k is (1, 0): then each pair's part is the cosine of its angle gap.
    const unitPairs = now.pairs.every(([a, b]) => s.q[a] === 1 && s.q[b] === 0 && s.k[a] === 1 && s.k[b] === 0);
    const parts = now.pairScores.map((p) => fmt(p, DIGITS));
    return [
      h("p", {}, `With the query at m = ${s.m} and the key at n = ${s.n} (offset ${offset}), pair i of the query turns `,
        h("var", {}, "(m − n)"), "·", sym("θ", "i"), " further than the key's: ",
        gaps.map((t, i) => `${fmt(t, 10)} rad (pair ${i})`).join(", "), "."),
      h("p", {},
        unitPairs
          ? [`Every pair of q and k is (1, 0), so each contributes the cosine of its angle: raw = `,
              gaps.map((t) => `cos(${fmt(t, 10)})`).join(" + "), " = ", parts.join(" + "), " = "]
          : ["The pairs contribute ", parts.join(", "), ", so raw = "],
        h("strong", { class: "answer-raw" }, fmt(now.raw, DIGITS)), `. Divided by √${s.d}: `,
        h("strong", { class: "answer-scaled" }, fmt(now.scaled, DIGITS)), "."),
      h("p", {}, "The positions enter only through their difference: moving both keeps every angle gap, and so the score."),
    ];
  }
}

export const widgets = { "llm-rope": LlmRope, "llm-answer-rope": LlmAnswerRope };
