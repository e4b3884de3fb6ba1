// <llm-quantization>: symmetric integer quantisation of a small activation matrix X with an
// outlier channel and of a weight matrix W, before and after SmoothQuant's smoothing (Xiao et
// al. 2023). The reader edits X and W (or picks an example) and moves the bit width and the
// migration strength α; the figure shows each channel's range before and after, the largest
// quantisation error of both sides for α from 0 to 1, the integer levels each channel uses, the
// error of the output XW, and the calculation for one channel with the current numbers.
//
// Attributes: see LlmQuantization.attributes (preset, bits, alpha, channel, x, w).
// Properties: result (see compute()), state ({ preset, bits, alpha, channel, x, w }; channel is
// 1-based, 0 for the channel with the largest activation range).
import { fill, gridTable, h, keep, patch, sym, uniqueId } from "../../dom.js";
import { fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { FigureAnswer } from "../../kit/answer.js";
import { markInvalid, markSettings, matrixEditor, scrollBox, slider } from "../../kit/controls.js";
import { groupedBarChart, legend, lineChart, niceTicks } from "../../kit/plot.js";
import { quantizationPresets } from "./quantization-presets.js";
import { workedSteps } from "../../kit/worked.js";
import css from "./quantization.css";

const MAX_TOKENS = 8;
const MAX_CHANNELS = 8;
const MAX_OUTPUTS = 8;

// Where the error curves are sampled: α = 0, 0.05, …, 1.
const ALPHAS = Array.from({ length: 21 }, (_, k) => k / 20);

// The largest of numbers the core returned (a selection for display, not a new quantity).
const absMax = (xs) => Math.max(...xs.map(Math.abs));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** base^exponent as text, read out as "base to the power exponent". */
function power(base, exponent) {
  return h("span", {}, base, h("sup", {}, h("span", { class: "visually-hidden" }, " to the power "), exponent));
}

export class LlmQuantization extends LlmWidget {
  static styles = css;
  static attributes = [
    {
      name: "preset",
      type: "choice",
      choices: Object.keys(quantizationPresets),
      default: "outlier",
      preset: true,
      doc: "The example to start from; its activations X and weights W apply unless given below.",
    },
    {
      name: "bits",
      type: "integer",
      min: 2,
      max: 16,
      default: 8,
      doc: "The bit width b of the symmetric integer quantisation of X and W.",
    },
    {
      name: "alpha",
      type: "number",
      min: 0,
      max: 1,
      default: 0.5,
      doc: "SmoothQuant's migration strength α (the slider steps by 0.05).",
    },
    {
      name: "channel",
      type: "integer",
      min: 0,
      max: MAX_CHANNELS,
      default: 0,
      doc: "The channel (1-based) whose calculation is written out; 0 picks the channel with the largest activation range.",
    },
    {
      name: "x",
      type: "matrix",
      maxRows: MAX_TOKENS,
      maxCols: MAX_CHANNELS,
      default: [[1]],
      label: "Activations X",
      doc: "Activations X, one row per token, one column per channel (at most 8 × 8).",
    },
    {
      name: "w",
      type: "matrix",
      maxRows: MAX_CHANNELS,
      maxCols: MAX_OUTPUTS,
      default: [[1]],
      label: "Weights W",
      doc: "Weights W, one row per channel of X, one column per output (at most 8 outputs).",
    },
  ];

  static presetFields(name) {
    const p = quantizationPresets[name];
    return { x: p.X, w: p.W };
  }

  /** W takes one row per channel of X (new entries 0); the explained channel exists. */
  normalize(s, notes) {
    const c = s.x[0].length,
      o = s.w[0].length;
    if (s.w.length !== c) {
      notes.push(`W was fitted to the ${c} channel${c === 1 ? "" : "s"} of X, one row each (missing entries 0).`);
      s.w = Array.from({ length: c }, (_, i) => Array.from({ length: o }, (_, j) => s.w[i]?.[j] ?? 0));
    }
    if (s.channel > c) {
      notes.push(`channel lowered to ${c}, the number of channels of X.`);
      s.channel = c;
    }
  }

  build() {
    const id = uniqueId("quant");
    this.presetSelect = h(
      "select",
      { id: `${id}-preset`, onchange: () => this.onPreset(this.presetSelect.value) },
      Object.entries(quantizationPresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "", disabled: true }, "Your numbers"),
    );
    this.bits = slider({ label: "Bits b", min: 2, max: 16, step: 1, oninput: (bits) => this.set({ bits }) });
    this.alpha = slider({
      label: "Migration strength α",
      min: 0,
      max: 1,
      step: 0.05,
      oninput: (alpha) => this.set({ alpha }),
    });
    // Options are channel indices (0-based); the state's channel is 1-based.
    this.channelSelect = h("select", {
      id: `${id}-channel`,
      onchange: () => this.set({ channel: Number(this.channelSelect.value) + 1 }),
    });
    markSettings({
      preset: this.presetSelect,
      bits: this.bits.input,
      alpha: this.alpha.input,
      channel: this.channelSelect,
    });

    this.editors = h("div", { class: "quantization-editors" });
    this.headline = h("p", { class: "headline" });
    this.table = scrollBox("Per channel", "quantization-table");
    this.ranges = h("div", { class: "quantization-ranges" });
    this.errorChart = h("div", { class: "chart-box" });
    this.levels = scrollBox("Integer levels of X", "quantization-levels");
    this.check = h("div", { class: "quantization-check" });
    this.worked = h("div", { class: "worked" });

    this.frame.append(
      h("div", { class: "controls" }, h("label", { for: `${id}-preset` }, "Example "), this.presetSelect),
      h(
        "p",
        { class: "hint" },
        "Edit any number of X (rows are tokens, columns are channels) or W (rows are the same channels, columns are outputs).",
      ),
      this.editors,
      h("div", { class: "sliders llm-bar" }, this.bits.row, this.alpha.row),
      this.headline,
      this.table,
      h("p", { class: "figure-sub" }, "The range of each channel, before and after smoothing"),
      this.ranges,
      h("p", { class: "figure-sub" }, "The largest quantisation error of each side as α moves"),
      this.errorChart,
      h("p", { class: "figure-sub" }, "The integer levels of X"),
      this.levels,
      h("p", { class: "figure-sub" }, "The check: the output XW"),
      this.check,
      h(
        "div",
        { class: "controls explain" },
        h("label", { for: `${id}-channel` }, "Explain the calculation for channel "),
        this.channelSelect,
      ),
      this.worked,
    );
  }

  onPreset(name) {
    if (!Object.hasOwn(quantizationPresets, name)) return;
    this.set({ preset: name, ...LlmQuantization.presetFields(name), channel: 0 }, { sync: true });
  }

  /** Sets every control from the state: the example list, the editors, the sliders, the channel. */
  sync() {
    const s = this.state;
    const p = LlmQuantization.presetFields(s.preset);
    this.presetSelect.value = same(p.x, s.x) && same(p.w, s.w) ? s.preset : "";
    this.bits.input.value = String(s.bits);
    this.alpha.input.value = String(s.alpha);
    // Fields are named "X t1, ch 2": the row and column headers the reader sees.
    const editor = (name, key, caption, rowName, colName) => {
      const rows = s[key].map((_, i) => rowName(i)),
        cols = s[key][0].map((_, j) => colName(j));
      return matrixEditor({
        name,
        caption: [h("var", {}, name), ` (${caption})`],
        M: s[key],
        rowLabels: rows,
        colLabels: cols,
        step: "0.01",
        cellLabel: (i, j) => `${name} ${rows[i]}, ${cols[j]}`,
        oncell: (i, j, v, input) => this.onCell(key, i, j, v, input),
      });
    };
    fill(
      this.editors,
      editor(
        "X",
        "x",
        "activations",
        (i) => `t${i + 1}`,
        (j) => `ch ${j + 1}`,
      ),
      editor(
        "W",
        "w",
        "weights",
        (i) => `ch ${i + 1}`,
        (j) => `out ${j + 1}`,
      ),
    );
    this.syncChannel(this.result?.largestChannel);
  }

  /** The channel list, the largest-range channel marked (from the core's last result). */
  syncChannel(largest) {
    const c = this.state.x[0].length;
    // Built again only when the channels or the largest one changed: most inputs change neither.
    patch(
      this.channelSelect,
      keep([c, largest], () =>
        Array.from({ length: c }, (_, j) =>
          h("option", { value: j }, `${j + 1}${j === largest ? " (largest activation range)" : ""}`),
        ),
      ),
    );
    this.channelSelect.value = String(this.channelIndex(largest));
  }

  /** The 0-based channel explained: the state's, or the largest-range channel when it is 0. */
  channelIndex(largest) {
    return this.state.channel ? this.state.channel - 1 : (largest ?? 0);
  }

  onCell(key, i, j, v, input) {
    // v is NaN for an empty or unparsable field; the core names it in its message.
    const M = this.state[key].map((row) => row.slice());
    M[i][j] = v;
    this.set({ [key]: M });
    this.presetSelect.value = "";
    markInvalid(input, this.failed);
  }

  /**
   * Everything the figure shows, from the core: the layer at the current α (smoothQuantLayer:
   * ranges, s, both sides quantised before and after, the output XW three ways) and the
   * quantisation errors at each α of the grid for the chart (smoothQuantLayerSweep).
   */
  compute() {
    const { x, w, bits, alpha } = this.state;
    const L = this.core.smoothQuantLayer(x, w, { alpha, bits });
    // The errors of both smoothed tensors at every α of the chart, in one call.
    const sweep = this.core.smoothQuantLayerSweep(x, w, { alpha: ALPHAS, bits });
    const curve = sweep.alpha.map((a, i) => ({
      alpha: a,
      quantXSmoothedMaxAbsError: sweep.quantXSmoothedMaxAbsError[i],
      quantWSmoothedMaxAbsError: sweep.quantWSmoothedMaxAbsError[i],
    }));
    return {
      bits,
      alpha,
      curve,
      xAbsMax: L.xAbsMax,
      wAbsMax: L.wAbsMax,
      quantX: L.quantX,
      quantW: L.quantW,
      now: {
        alpha,
        scales: L.scales,
        xAbsMax: L.xAbsMaxSmoothed,
        wAbsMax: L.wAbsMaxSmoothed,
        xSmoothed: L.xSmoothed,
        wSmoothed: L.wSmoothed,
        quantXSmoothed: L.quantXSmoothed,
        quantWSmoothed: L.quantWSmoothed,
      },
      check: {
        y: L.y,
        yQuantized: L.yQuantized,
        yQuantizedSmoothed: L.yQuantizedSmoothed,
        errorQuantized: L.errorQuantized,
        errorQuantizedSmoothed: L.errorQuantizedSmoothed,
        errorSmoothingAlone: L.errorSmoothingAlone,
      },
      largestChannel: L.largestChannel,
      smallestChannel: L.smallestChannel,
      xLevels: L.xLevels,
      xLevelsSmoothed: L.xLevelsSmoothed,
    };
  }

  render(r) {
    this.syncChannel(r.largestChannel);
    this.bits.out.value = `${r.bits}`;
    this.bits.input.setAttribute("aria-valuetext", `${r.bits} bits, levels −${r.quantX.qmax} to ${r.quantX.qmax}`);
    this.alpha.out.value = fmt(r.alpha, 2);
    const w = r.smallestChannel + 1;
    patch(
      this.headline,
      `With ${r.bits} bits the levels run from −${r.quantX.qmax} to ${r.quantX.qmax}. `,
      `Channel ${w}, the smallest, uses levels up to ±`,
      h("strong", { class: "x-levels" }, r.xLevels[r.smallestChannel]),
      ` of X as it is, and up to ±`,
      h("strong", { class: "x-levels-smoothed" }, r.xLevelsSmoothed[r.smallestChannel]),
      ` after smoothing with α = ${fmt(r.alpha, 2)}.`,
    );
    // Each panel is drawn again only when what it reads changed: a number typed into X that is
    // not its channel's largest leaves the ranges, the table and often the levels as they are.
    const n = r.now;
    patch(
      this.table,
      keep(
        [r.alpha, r.xAbsMax, r.wAbsMax, n.scales, n.xAbsMax, n.wAbsMax, r.xLevels, r.xLevelsSmoothed, r.largestChannel],
        () => this.tableFor(r),
      ),
    );
    patch(
      this.ranges,
      keep([r.alpha, r.xAbsMax, r.wAbsMax, n.xAbsMax, n.wAbsMax], () => this.rangesFor(r)),
    );
    patch(
      this.errorChart,
      keep(
        [
          r.alpha,
          r.curve,
          r.quantX.maxAbsError,
          r.quantW.maxAbsError,
          n.quantXSmoothed.maxAbsError,
          n.quantWSmoothed.maxAbsError,
        ],
        () => this.errorsFor(r),
      ),
    );
    patch(
      this.levels,
      keep(
        [r.alpha, r.quantX.qmax, r.quantX.scale, r.quantX.levels, n.quantXSmoothed.scale, n.quantXSmoothed.levels],
        () => this.levelsFor(r),
      ),
    );
    patch(
      this.check,
      keep([r.alpha, r.bits, r.check], () => this.checkFor(r)),
    );
    this.renderWorked(r);
  }

  /** The output's largest error with and without smoothing, and the levels of the smallest channel. */
  summary(r) {
    const k = r.smallestChannel;
    return (
      `${r.bits} bits, α = ${fmt(r.alpha, 2)}: the output's largest error is ${fmt(r.check.errorQuantizedSmoothed, 4)} smoothed, ${fmt(r.check.errorQuantized, 4)} not; ` +
      `channel ${k + 1}, the smallest, uses levels up to ±${r.xLevelsSmoothed[k]} (±${r.xLevels[k]} not smoothed).`
    );
  }

  /** Per channel: both ranges, s_j, the ranges after smoothing and the levels X uses. */
  tableFor(r) {
    const n = r.now;
    const row = (label, values, digits = 4, cls) =>
      h(
        "tr",
        { class: cls },
        h("th", { scope: "row" }, label),
        values.map((v) => h("td", {}, typeof v === "number" ? fmt(v, digits) : v)),
      );
    return h(
      "table",
      { class: "data-table quantization-channels" },
      h("caption", {}, `Per channel, with α = ${fmt(r.alpha, 2)}`),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", {}),
          r.xAbsMax.map((_, j) =>
            h("th", { scope: "col", class: j === r.largestChannel ? "largest" : null }, `ch ${j + 1}`),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        row(["max|", sym("X", "j"), "|"], r.xAbsMax),
        row(["max|", sym("W", "j"), "|"], r.wAbsMax),
        row([sym("s", "j")], n.scales, 4, "scales"),
        row(["max|", sym("X", "j"), "| / ", sym("s", "j")], n.xAbsMax, 4, "x-after"),
        row(["max|", sym("W", "j"), "| · ", sym("s", "j")], n.wAbsMax, 4, "w-after"),
        row(
          "levels of X",
          r.xLevels.map((l) => `±${l}`),
        ),
        row(
          "levels of X/s",
          r.xLevelsSmoothed.map((l) => `±${l}`),
        ),
      ),
    );
  }

  /** Bars of max|X_j| and max|W_j| per channel, before and after, on one log scale. */
  rangesFor(r) {
    // Whole decades around the nonzero ranges (an all-zero channel's bar stays at the bottom),
    // at least one decade tall.
    const all = [...r.xAbsMax, ...r.wAbsMax, ...r.now.xAbsMax, ...r.now.wAbsMax].filter((v) => v > 0);
    const lo = all.length ? Math.floor(Math.log10(Math.min(...all))) : 0;
    const hi = Math.max(lo + 1, all.length ? Math.ceil(Math.log10(Math.max(...all))) : 1);
    const ticks = Array.from({ length: hi - lo + 1 }, (_, k) => 10 ** (lo + k));
    const y = {
      min: ticks[0],
      max: ticks[ticks.length - 1],
      log: true,
      ticks,
      format: (t) => fmt(t, 6),
      label: "max |·| (log scale)",
    };
    const categories = r.xAbsMax.map((_, j) => `ch ${j + 1}`);
    const chart = (title, xs, ws) =>
      h(
        "div",
        { class: "chart-box" },
        h("p", { class: "chart-title" }, title),
        groupedBarChart({
          title,
          categories,
          y,
          width: 360,
          height: 220,
          x: { name: "channel" },
          series: [
            { values: xs, label: "activations", class: "bar" },
            { values: ws, label: "weights", class: "bar alt" },
          ],
        }),
      );
    return [
      h(
        "div",
        { class: "quantization-pair" },
        chart("X and W as they are", r.xAbsMax, r.wAbsMax),
        chart(`Smoothed, α = ${fmt(r.alpha, 2)}`, r.now.xAbsMax, r.now.wAbsMax),
      ),
      legend([
        { label: "activations max|Xⱼ|", class: "bar" },
        { label: "weights max|Wⱼ|", class: "bar alt" },
      ]),
    ];
  }

  /** Max error of the quantised smoothed X and W against α, with their unsmoothed errors as lines. */
  errorsFor(r) {
    const top = Math.max(
      r.quantX.maxAbsError,
      r.quantW.maxAbsError,
      ...r.curve.flatMap((p) => [p.quantXSmoothedMaxAbsError, p.quantWSmoothedMaxAbsError]),
    );
    const { max, ticks } = niceTicks(top);
    return [
      lineChart({
        title: "Largest quantisation error of the smoothed activations and weights against α",
        width: 440,
        height: 240,
        x: {
          min: 0,
          max: 1,
          ticks: [0, 0.25, 0.5, 0.75, 1],
          format: (t) => fmt(t, 2),
          label: "migration strength α",
          name: "α",
        },
        y: { min: 0, max, ticks, format: (t) => fmt(t, 4), label: "max |error|" },
        series: [
          {
            points: r.curve.map((p) => [p.alpha, p.quantXSmoothedMaxAbsError]),
            class: "series",
            label: "activations X/s",
          },
          {
            points: r.curve.map((p) => [p.alpha, p.quantWSmoothedMaxAbsError]),
            class: "series alt",
            label: "weights s·W",
          },
        ],
        describe: `Marked: α = ${fmt(r.alpha, 2)}, the figure's. As they are, X's largest error is ${fmt(r.quantX.maxAbsError, 4)} and W's ${fmt(r.quantW.maxAbsError, 4)} (the dashed lines).`,
        hlines: [
          { y: r.quantX.maxAbsError, class: "guide accent" },
          { y: r.quantW.maxAbsError, class: "guide" },
        ],
        markers: [
          { x: r.alpha, y: r.now.quantXSmoothed.maxAbsError, class: "marker accent" },
          { x: r.alpha, y: r.now.quantWSmoothed.maxAbsError },
        ],
      }),
      legend([
        { label: "activations X/s", class: "line" },
        { label: "weights s·W", class: "line alt" },
        { label: "X as it is", class: "dashed" },
        { label: "W as it is", class: "dashed alt" },
      ]),
    ];
  }

  /** The integer levels of X before and after smoothing, shaded by |level| / qmax. */
  levelsFor(r) {
    const c = r.xAbsMax.length,
      t = r.quantX.levels.length / c;
    const q = r.quantX.qmax;
    const table = (caption, levels) =>
      gridTable({
        className: "data-table quantization-level-table",
        caption,
        rows: t,
        cols: c,
        head: (j) => `ch ${j + 1}`,
        rowHead: (i) => `t${i + 1}`,
        rowKey: (i) => [q, levels.slice(i * c, (i + 1) * c)],
        cell: (i, j) => {
          const l = levels[i * c + j];
          return h("td", { class: "heat", style: { "--w": String(Math.abs(l) / q) } }, fmt(l));
        },
      });
    return h(
      "div",
      { class: "quantization-pair" },
      table(`X as it is: scale Δ ${fmt(r.quantX.scale, 4)}`, r.quantX.levels),
      table(
        [
          `X/s, α = ${fmt(r.alpha, 2)}: scale Δ `,
          // an exercise may hold it back (quantization-figure.js conceals)
          h("span", { class: "quantization-scale-smoothed" }, fmt(r.now.quantXSmoothed.scale, 4)),
        ],
        r.now.quantXSmoothed.levels,
      ),
    );
  }

  /** The output with full-precision, quantised and quantised smoothed tensors, and the largest errors. */
  checkFor(r) {
    const k = r.check;
    const t = k.y.length,
      o = k.y[0].length;
    const table = (cls, caption, Y) =>
      gridTable({
        className: `data-table ${cls}`,
        caption,
        rows: t,
        cols: o,
        rowHead: (i) => `t${i + 1}`,
        rowKey: (i) => Y[i],
        cell: (i, j) => h("td", {}, fmt(Y[i][j], 3)),
      });
    return [
      scrollBox(
        "Outputs XW",
        "quantization-outputs",
        table("y", "XW, full precision", k.y),
        table("y-quantized", `Quantised X and W, ${r.bits} bits`, k.yQuantized),
        table("y-quantized-smoothed", `Quantised X/s and s·W, α = ${fmt(r.alpha, 2)}`, k.yQuantizedSmoothed),
      ),
      h(
        "p",
        {},
        "Largest error of the output: ",
        h("strong", { class: "error-quantized" }, fmt(k.errorQuantized, 4)),
        " quantising X and W as they are, ",
        h("strong", { class: "error-quantized-smoothed" }, fmt(k.errorQuantizedSmoothed, 4)),
        ` quantising them after smoothing with α = ${fmt(r.alpha, 2)}. `,
        "Smoothing alone changes nothing: (X/s)(s·W) differs from XW by at most ",
        h("span", { class: "error-smoothing-alone" }, fmt(k.errorSmoothingAlone, 4)),
        ", rounding in the last digits.",
      ),
    ];
  }

  /** The calculation for the chosen channel and for one value of the smallest channel. */
  renderWorked(r) {
    const j = this.channelIndex(r.largestChannel),
      J = j + 1,
      a = fmt(r.alpha, 2);
    const n = r.now;
    const x = fmt(r.xAbsMax[j]),
      wv = fmt(r.wAbsMax[j]),
      s = fmt(n.scales[j], 4);
    const c = r.xAbsMax.length,
      o = r.check.y[0].length;
    const k = r.smallestChannel,
      K = k + 1;
    const idx = k; // token 1's entry of channel k: X is flattened row by row
    // The calculation's steps, drawn by the kit (worked.js).
    const steps = workedSteps([
      {
        name: "Ranges",
        lead: [
          "max|",
          sym("X", J),
          `| = ${x}, the largest magnitude in column ${J} of X; max|`,
          sym("W", J),
          `| = ${wv}, the largest in row ${J} of W.`,
        ],
      },
      {
        name: "Smoothing factor",
        formula: `s_${J}`,
        values: [power(x, a), " / ", power(wv, `1 − ${a}`)],
        result: s,
        tail: ".",
      },
      {
        name: "New ranges",
        lead: `Activations ${x} / ${s}`,
        result: fmt(n.xAbsMax[j], 4),
        tail: [
          `; weights ${wv} · ${s} = `,
          h("strong", {}, fmt(n.wAbsMax[j], 4)),
          `. The product is unchanged: channel ${J} of X is divided by what row ${J} of W is multiplied by.`,
        ],
      },
      {
        name: "Scales",
        lead: [
          `With ${r.bits} bits, qmax = ${r.quantX.qmax}, and the scale Δ = max|·| / qmax over the whole tensor:`,
          h(
            "ul",
            {},
            h(
              "li",
              {},
              `activations: ${fmt(absMax(r.xAbsMax))} / ${r.quantX.qmax} = ${fmt(r.quantX.scale, 5)} as they are, ${fmt(absMax(n.xAbsMax), 4)} / ${r.quantX.qmax} = ${fmt(n.quantXSmoothed.scale, 5)} after smoothing;`,
            ),
            h(
              "li",
              {},
              `weights: ${fmt(absMax(r.wAbsMax))} / ${r.quantX.qmax} = ${fmt(r.quantW.scale, 5)} as they are, ${fmt(absMax(n.wAbsMax), 4)} / ${r.quantX.qmax} = ${fmt(n.quantWSmoothed.scale, 5)} after smoothing.`,
            ),
          ),
        ],
      },
      {
        name: "One value",
        lead: [
          `Token 1 in channel ${K} (the smallest range), x = ${fmt(this.state.x[0][k])}. `,
          `As it is: round(${fmt(this.state.x[0][k])} / ${fmt(r.quantX.scale, 5)}) = level ${fmt(r.quantX.levels[idx])}, back to ${fmt(r.quantX.dequantized[idx], 5)}, error ${fmt(r.quantX.errors[idx], 5)}. `,
          "Smoothed: x / ",
          sym("s", K),
          ` = ${fmt(n.xSmoothed[0][k], 5)}, round(${fmt(n.xSmoothed[0][k], 5)} / ${fmt(n.quantXSmoothed.scale, 5)}) = level ${fmt(n.quantXSmoothed.levels[idx])}, back to ${fmt(n.quantXSmoothed.dequantized[idx], 5)}, error ${fmt(n.quantXSmoothed.errors[idx], 5)}. `,
          "Every error is at most half the scale Δ.",
        ],
      },
    ]);
    patch(
      this.worked,
      h(
        "p",
        {},
        `Channel ${J}, α = ${a}, ${r.bits} bits (${c} channel${c === 1 ? "" : "s"}, ${o} output${o === 1 ? "" : "s"}):`,
      ),
      steps,
    );
  }
}

/**
 * Exercise 7: the reader predicts the smoothing factor of the channel with the largest
 * activation range; the answer gives it and the two ranges it leaves.
 */
export class LlmAnswerQuantization extends FigureAnswer {
  static figure = "llm-quantization";
  static followUp = "what are the channel's activation and weight ranges after smoothing?";

  prediction(r, figure) {
    const j = r.largestChannel,
      J = j + 1;
    const x = r.xAbsMax[j],
      w = r.wAbsMax[j];
    const s = r.now.scales[j];
    // s with all of the range moved (α = 1) or none of it (α = 0).
    const sAt = (a) => figure.core.smoothQuant([x], [w], a).scales[0];
    return {
      label: ["Smoothing factor ", sym("s", String(J)), ` of channel ${J}:`],
      value: s,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: r.now.xAbsMax[j],
          text: `That is channel ${J}'s activation range after smoothing, max|X|/s; the question asks for s itself.`,
        },
        {
          value: r.now.wAbsMax[j],
          text: `That is channel ${J}'s weight range after smoothing, max|W|·s; the question asks for s itself.`,
        },
        // The plain ratio of the ranges, and s upside down: slips of the formula's shape.
        {
          value: x / w,
          text: "That is max|X| / max|W| without the powers: s raises the activation range to α and the weight range to 1 − α.",
        },
        {
          value: 1 / s,
          text: "That is 1/s: s is the factor the activations are divided by (and the weights multiplied by), so it is above 1 when the activation range is the larger.",
        },
        {
          value: r.alpha === 1 ? null : sAt(1),
          text: "That leaves the weight range out, as α = 1 would: with α below 1 the weight range divides s, raised to 1 − α.",
        },
      ],
      otherwise:
        "Take the channel's activation range to the power α and divide by its weight range to the power 1 − α.",
    };
  }

  followUpPrediction(r) {
    const j = r.largestChannel,
      J = j + 1;
    const s = r.now.scales[j];
    return {
      label: [
        `Channel ${J}'s activation range after smoothing, max|`,
        sym("X", String(J)),
        "|/",
        sym("s", String(J)),
        ":",
      ],
      value: r.now.xAbsMax[j],
      tolerance: 0.01,
      digits: 4,
      hints: [
        { value: r.xAbsMax[j], text: "That is the range before smoothing: the activations are divided by s." },
        { value: r.xAbsMax[j] * s, text: "The activations are divided by s, and the weights multiplied by it." },
      ],
      otherwise: `Divide the channel's activation range by s${String.fromCharCode(0x2080 + (J % 10))}; the weights' range is multiplied by it.`,
    };
  }

  answer(r) {
    const j = r.largestChannel,
      J = j + 1;
    const x = fmt(r.xAbsMax[j]),
      w = fmt(r.wAbsMax[j]),
      a = fmt(r.alpha, 2);
    const s = fmt(r.now.scales[j], 4);
    const half = r.alpha === 0.5;
    return [
      h(
        "p",
        {},
        `Channel ${J} has activation range ${x} and weight range ${w}; with α = ${a}, `,
        h(
          "span",
          { class: "answer-s" },
          "s = ",
          half ? [`√${x}/√${w}`, " = "] : null,
          power(x, a),
          " / ",
          power(w, `1 − ${a}`),
          " = ",
          h("strong", {}, s),
        ),
        ". The activation range becomes ",
        h("span", { class: "answer-x" }, `${x}/${s} = `, h("strong", {}, fmt(r.now.xAbsMax[j], 4))),
        " and the weight range ",
        h("span", { class: "answer-w" }, `${w}·${s} = `, h("strong", {}, fmt(r.now.wAbsMax[j], 4))),
        ".",
      ),
      h(
        "p",
        {},
        half
          ? "With α = 0.5 the two ranges meet at the geometric mean of the old ones, so the channel is as hard to quantise on either side. "
          : `With α = ${a} the split is uneven: larger α moves more of the range to the weights. `,
        `The product XW is unchanged, because channel ${J} of X is divided by exactly what row ${J} of W is multiplied by.`,
      ),
    ];
  }
}

export const widgets = { "llm-quantization": LlmQuantization, "llm-answer-quantization": LlmAnswerQuantization };
