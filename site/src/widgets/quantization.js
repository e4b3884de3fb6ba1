// <llm-quantization>: symmetric integer quantisation of a small activation matrix X with an
// outlier channel and of a weight matrix W, before and after SmoothQuant's smoothing (Xiao et
// al. 2023). The reader edits X and W (or picks an example) and moves the bit width and the
// migration strength α; the figure shows each channel's range before and after, the largest
// quantisation error of both sides for α from 0 to 1, the integer levels each channel uses, the
// error of the output XW, and the calculation for one channel with the current numbers.
//
// Attributes: preset (a key of quantizationPresets, default "outlier"), bits (2 … 16, default 8),
// alpha (0 … 1, default 0.5).
// Properties: result (see compute()), state ({ X, W, bits, alpha }).
import { fill, h, sym, uniqueId } from "../dom.js";
import { fmt } from "../format.js";
import { LlmWidget } from "./base.js";
import { FigureAnswer } from "./answer.js";
import { groupedBarChart, legend, lineChart, niceTicks } from "./plot.js";

// Six tokens × four channels of activations; channel 2 carries the outlier. W is four input
// channels × three outputs. In the first example channel 2's ranges are those of exercise 7.
const W0 = [[0.31, -0.12, 0.22], [-0.5, 0.38, 0.07], [0.9, 0.55, -0.8], [0.14, -0.26, 0.35]];
const withChannel2 = (values) => [
  [0.42, 0, 0.25, -0.9], [-0.81, 0, -0.33, 0.64], [0.27, 0, 0.5, -0.47],
  [1.0, 0, -0.18, 0.3], [-0.55, 0, 0.12, -1.1], [0.73, 0, -0.41, 0.86],
].map((row, i) => row.map((x, j) => (j === 1 ? values[i] : x)));

export const quantizationPresets = {
  outlier: { label: "Outlier channel", X: withChannel2([-8, 6.3, -7.1, 5.2, 7.6, -4.4]), W: W0 },
  strong: { label: "Strong outlier", X: withChannel2([-64, 50, -57, 42, 61, -35]), W: W0 },
  none: { label: "No outlier", X: withChannel2([-1, 0.79, -0.89, 0.65, 0.95, -0.55]), W: W0 },
};

// Where the error curves are sampled: α = 0, 0.05, …, 1.
const ALPHAS = Array.from({ length: 21 }, (_, k) => k / 20);

const clone = (M) => M.map((row) => row.slice());
const rows = (flat, cols) => Array.from({ length: flat.length / cols }, (_, i) => flat.slice(i * cols, (i + 1) * cols));
// The largest of numbers the core returned (a selection for display, not a new quantity).
const absMax = (xs) => Math.max(...xs.map(Math.abs));

/** base^exponent as text, read out as "base to the power exponent". */
function power(base, exponent) {
  return h("span", {}, base, h("sup", {}, h("span", { class: "visually-hidden" }, " to the power "), exponent));
}

export class LlmQuantization extends LlmWidget {
  build() {
    const presetName = quantizationPresets[this.getAttribute("preset")] ? this.getAttribute("preset") : "outlier";
    const attr = (name, fallback, min, max) => {
      const v = Number(this.getAttribute(name));
      return this.hasAttribute(name) && Number.isFinite(v) ? Math.min(Math.max(v, min), max) : fallback;
    };
    this.state = { X: [], W: [], bits: Math.round(attr("bits", 8, 2, 16)), alpha: attr("alpha", 0.5, 0, 1) };
    this.loadPreset(presetName);
    this.channel = null;

    const id = uniqueId("quant");
    this.presetSelect = h("select", { id: `${id}-preset`, onchange: () => this.onPreset() },
      Object.entries(quantizationPresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "", disabled: true }, "Your numbers"));
    this.presetSelect.value = presetName;
    const slider = (key, label, min, max, step, value, onInput) => {
      const input = h("input", { type: "range", id: `${id}-${key}`, min, max, step, value: String(value), oninput: onInput });
      const out = h("output", { for: `${id}-${key}` });
      return { input, out, row: h("div", { class: "slider" }, h("label", { for: `${id}-${key}` }, label), input, out) };
    };
    this.bits = slider("bits", "Bits b", 2, 16, 1, this.state.bits, () => {
      this.state.bits = this.bits.input.valueAsNumber;
      this.update();
    });
    this.alpha = slider("alpha", "Migration strength α", 0, 1, 0.05, this.state.alpha, () => {
      this.state.alpha = this.alpha.input.valueAsNumber;
      this.update();
    });
    this.channelSelect = h("select", { id: `${id}-channel`, onchange: () => {
      this.channel = Number(this.channelSelect.value);
      this.update();
    } });

    this.editors = h("div", { class: "quant-editors" });
    this.headline = h("p", { class: "headline" });
    this.table = h("div", { class: "quant-table" });
    this.ranges = h("div", { class: "quant-ranges" });
    this.errorChart = h("div", { class: "chart-box" });
    this.levels = h("div", { class: "quant-levels" });
    this.check = h("div", { class: "quant-check" });
    this.worked = h("div", { class: "worked", "aria-live": "polite" });

    this.append(
      h("div", { class: "controls" }, h("label", { for: `${id}-preset` }, "Example "), this.presetSelect),
      h("p", { class: "hint" }, "Edit any number of X (rows are tokens, columns are channels) or W (rows are the same channels, columns are outputs)."),
      this.editors,
      h("div", { class: "sliders" }, this.bits.row, this.alpha.row),
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
      h("div", { class: "controls" }, h("label", { for: `${id}-channel` }, "Explain the calculation for channel "), this.channelSelect),
      this.worked,
    );
    this.syncEditors();
  }

  loadPreset(name) {
    const p = quantizationPresets[name];
    this.state.X = clone(p.X);
    this.state.W = clone(p.W);
    this.channel = null;
  }

  onPreset() {
    this.loadPreset(this.presetSelect.value);
    this.syncEditors();
    this.update();
  }

  syncEditors() {
    fill(this.editors,
      this.matrixEditor("X", "activations", this.state.X, (i) => `t${i + 1}`, (j) => `ch ${j + 1}`),
      this.matrixEditor("W", "weights", this.state.W, (i) => `ch ${i + 1}`, (j) => `out ${j + 1}`));
  }

  matrixEditor(name, caption, M, rowName, colName) {
    return h("table", { class: "matrix-editor" },
      h("caption", {}, h("var", {}, name), ` (${caption})`),
      h("thead", {}, h("tr", {}, h("td", {}), M[0].map((_, j) => h("th", { scope: "col" }, colName(j))))),
      h("tbody", {}, M.map((row, i) => h("tr", {},
        h("th", { scope: "row" }, rowName(i)),
        row.map((x, j) => h("td", {}, h("input", {
          type: "number", step: "0.01", value: String(x), inputmode: "decimal",
          "aria-label": `${name} ${rowName(i)}, ${colName(j)}`,
          oninput: (e) => this.onCell(M, i, j, e.target),
        })))))));
  }

  onCell(M, i, j, input) {
    // valueAsNumber is NaN for an empty or unparsable field; the core names it in its message.
    M[i][j] = input.valueAsNumber;
    this.presetSelect.value = "";
    this.update();
    input.setAttribute("aria-invalid", this.status.classList.contains("llm-error") ? "true" : "false");
  }

  /**
   * Everything the figure shows, from the core's smoothQuantLayer: the layer at the current α
   * (ranges, s, both sides quantised before and after, the output XW three ways) and the
   * quantisation errors at each α of the grid for the chart.
   */
  compute() {
    const { X, W, bits, alpha } = this.state;
    const layer = (a) => this.core.smoothQuantLayer(X, W, { alpha: a, bits });
    const L = layer(alpha);
    const curve = ALPHAS.map((a) => {
      const p = layer(a);
      return { alpha: a, qX: p.quantXSmoothed, qW: p.quantWSmoothed };
    });
    return {
      bits, alpha, curve,
      xAbsMax: L.xAbsMax, wAbsMax: L.wAbsMax,
      plainX: L.quantX, plainW: L.quantW,
      now: { alpha, scales: L.scales, xAbsMax: L.xAbsMaxSmoothed, wAbsMax: L.wAbsMaxSmoothed,
        Xs: L.xSmoothed, Ws: L.wSmoothed, qX: L.quantXSmoothed, qW: L.quantWSmoothed },
      check: { Y: L.y, Yplain: L.yQuantized, Ysmooth: L.yQuantizedSmoothed,
        errPlain: L.errorQuantized, errSmooth: L.errorQuantizedSmoothed, errIdentity: L.errorSmoothingAlone },
      outlier: L.largestChannel, weakest: L.smallestChannel,
      levelsPlain: L.xLevels, levelsSmooth: L.xLevelsSmoothed,
    };
  }

  render(r) {
    const c = r.xAbsMax.length;
    if (this.channel === null || this.channel >= c) this.channel = r.outlier;
    fill(this.channelSelect, r.xAbsMax.map((_, j) => h("option", { value: j }, `${j + 1}${j === r.outlier ? " (largest activation range)" : ""}`)));
    this.channelSelect.value = String(this.channel);
    this.bits.out.value = `${r.bits}`;
    this.bits.input.setAttribute("aria-valuetext", `${r.bits} bits, levels −${r.plainX.qmax} to ${r.plainX.qmax}`);
    this.alpha.out.value = fmt(r.alpha, 2);
    const w = r.weakest + 1;
    fill(this.headline, `With ${r.bits} bits the levels run from −${r.plainX.qmax} to ${r.plainX.qmax}. `,
      `Channel ${w}, the smallest, uses levels up to ±`, h("strong", { class: "levels-plain" }, r.levelsPlain[r.weakest]),
      ` of X as it is, and up to ±`, h("strong", { class: "levels-smooth" }, r.levelsSmooth[r.weakest]),
      ` after smoothing with α = ${fmt(r.alpha, 2)}.`);
    this.renderTable(r);
    this.renderRanges(r);
    this.renderErrors(r);
    this.renderLevels(r);
    this.renderCheck(r);
    this.renderWorked(r);
  }

  /** Per channel: both ranges, s_j, the ranges after smoothing and the levels X uses. */
  renderTable(r) {
    const n = r.now;
    const row = (label, values, digits = 4, cls) => h("tr", { class: cls },
      h("th", { scope: "row" }, label), values.map((v) => h("td", {}, typeof v === "number" ? fmt(v, digits) : v)));
    fill(this.table, h("table", { class: "att-table quant-channels" },
      h("caption", {}, `Per channel, with α = ${fmt(r.alpha, 2)}`),
      h("thead", {}, h("tr", {}, h("td", {}), r.xAbsMax.map((_, j) =>
        h("th", { scope: "col", class: j === r.outlier ? "outlier" : null }, `ch ${j + 1}`)))),
      h("tbody", {},
        row(["max|", sym("X", "j"), "|"], r.xAbsMax),
        row(["max|", sym("W", "j"), "|"], r.wAbsMax),
        row([sym("s", "j")], n.scales, 4, "scales"),
        row(["max|", sym("X", "j"), "| / ", sym("s", "j")], n.xAbsMax, 4, "x-after"),
        row(["max|", sym("W", "j"), "| · ", sym("s", "j")], n.wAbsMax, 4, "w-after"),
        row("levels of X", r.levelsPlain.map((l) => `±${l}`)),
        row("levels of X/s", r.levelsSmooth.map((l) => `±${l}`)))));
  }

  /** Bars of max|X_j| and max|W_j| per channel, before and after, on one log scale. */
  renderRanges(r) {
    const all = [...r.xAbsMax, ...r.wAbsMax, ...r.now.xAbsMax, ...r.now.wAbsMax];
    const lo = Math.floor(Math.log10(Math.min(...all))), hi = Math.ceil(Math.log10(Math.max(...all)));
    const ticks = Array.from({ length: hi - lo + 1 }, (_, k) => 10 ** (lo + k));
    const y = { min: ticks[0], max: ticks[ticks.length - 1], log: true, ticks, format: (t) => fmt(t, 6), label: "max |·| (log scale)" };
    const categories = r.xAbsMax.map((_, j) => `ch ${j + 1}`);
    const chart = (title, xs, ws) => h("div", { class: "chart-box" }, h("p", { class: "chart-title" }, title),
      groupedBarChart({ title, categories, y, width: 360, height: 220,
        series: [{ values: xs, label: "activations", class: "bar" }, { values: ws, label: "weights", class: "bar alt" }] }));
    fill(this.ranges,
      h("div", { class: "quant-pair" },
        chart("X and W as they are", r.xAbsMax, r.wAbsMax),
        chart(`Smoothed, α = ${fmt(r.alpha, 2)}`, r.now.xAbsMax, r.now.wAbsMax)),
      legend([{ label: "activations max|Xⱼ|", class: "bar" }, { label: "weights max|Wⱼ|", class: "bar alt" }]));
  }

  /** Max error of the quantised smoothed X and W against α, with their unsmoothed errors as lines. */
  renderErrors(r) {
    const top = Math.max(r.plainX.maxAbsError, r.plainW.maxAbsError, ...r.curve.flatMap((p) => [p.qX.maxAbsError, p.qW.maxAbsError]));
    const { max, ticks } = niceTicks(top);
    fill(this.errorChart, lineChart({
      title: "Largest quantisation error of the smoothed activations and weights against α",
      width: 440, height: 240,
      x: { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], format: (t) => fmt(t, 2), label: "migration strength α" },
      y: { min: 0, max, ticks, format: (t) => fmt(t, 4), label: "max |error|" },
      series: [
        { points: r.curve.map((p) => [p.alpha, p.qX.maxAbsError]), class: "series" },
        { points: r.curve.map((p) => [p.alpha, p.qW.maxAbsError]), class: "series alt" },
      ],
      hlines: [
        { y: r.plainX.maxAbsError, class: "guide accent" },
        { y: r.plainW.maxAbsError, class: "guide" },
      ],
      markers: [{ x: r.alpha, y: r.now.qX.maxAbsError, class: "marker accent" }, { x: r.alpha, y: r.now.qW.maxAbsError }],
    }), legend([
      { label: "activations X/s", class: "line" }, { label: "weights s·W", class: "line alt" },
      { label: "X as it is", class: "dashed" }, { label: "W as it is", class: "dashed alt" },
    ]));
  }

  /** The integer levels of X before and after smoothing, shaded by |level| / qmax. */
  renderLevels(r) {
    const c = r.xAbsMax.length;
    const q = r.plainX.qmax;
    const table = (caption, levels) => h("table", { class: "att-table quant-level-table" }, h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("td", {}), r.xAbsMax.map((_, j) => h("th", { scope: "col" }, `ch ${j + 1}`)))),
      h("tbody", {}, rows(levels, c).map((row, i) => h("tr", {}, h("th", { scope: "row" }, `t${i + 1}`),
        row.map((l) => h("td", { class: "heat", style: { "--w": String(Math.abs(l) / q) } }, fmt(l)))))));
    fill(this.levels, h("div", { class: "quant-pair" },
      table(`X as it is: step ${fmt(r.plainX.scale, 4)}`, r.plainX.levels),
      table(`X/s, α = ${fmt(r.alpha, 2)}: step ${fmt(r.now.qX.scale, 4)}`, r.now.qX.levels)));
  }

  /** The output with full-precision, quantised and quantised smoothed tensors. */
  renderCheck(r) {
    const k = r.check;
    const outTable = (caption, Y, cls) => h("table", { class: `att-table ${cls}` }, h("caption", {}, caption),
      h("tbody", {}, Y.map((row, i) => h("tr", {}, h("th", { scope: "row" }, `t${i + 1}`), row.map((y) => h("td", {}, fmt(y, 3)))))));
    fill(this.check,
      h("div", { class: "quant-outputs" },
        outTable("XW, full precision", k.Y, "out-full"),
        outTable(`Quantised X and W, ${r.bits} bits`, k.Yplain, "out-plain"),
        outTable(`Quantised X/s and s·W, α = ${fmt(r.alpha, 2)}`, k.Ysmooth, "out-smooth")),
      h("p", {}, "Largest error of the output: ", h("strong", { class: "err-plain" }, fmt(k.errPlain, 4)), " quantising X and W as they are, ",
        h("strong", { class: "err-smooth" }, fmt(k.errSmooth, 4)), ` quantising them after smoothing with α = ${fmt(r.alpha, 2)}. `,
        "Smoothing alone changes nothing: (X/s)(s·W) differs from XW by at most ", h("span", { class: "err-identity" }, fmt(k.errIdentity, 4)),
        ", rounding in the last digits."));
  }

  /** The calculation for the chosen channel and for one value of the smallest channel. */
  renderWorked(r) {
    const j = this.channel, J = j + 1, a = fmt(r.alpha, 2);
    const n = r.now;
    const x = fmt(r.xAbsMax[j]), wv = fmt(r.wAbsMax[j]), s = fmt(n.scales[j], 4);
    const c = r.xAbsMax.length, o = r.check.Y[0].length;
    const k = r.weakest, K = k + 1;
    const idx = k; // token 1's entry of channel k: X is flattened row by row
    const steps = h("ol", {},
      h("li", {}, h("strong", {}, "Ranges. "), "max|", sym("X", J), "| = ", x, ", the largest magnitude in column ", J,
        " of X; max|", sym("W", J), "| = ", wv, ", the largest in row ", J, " of W."),
      h("li", {}, h("strong", {}, "Smoothing factor. "), sym("s", J), " = ", power(x, a), " / ", power(wv, `1 − ${a}`),
        " = ", h("strong", {}, s), "."),
      h("li", {}, h("strong", {}, "New ranges. "), "Activations ", x, " / ", s, " = ", h("strong", {}, fmt(n.xAbsMax[j], 4)),
        "; weights ", wv, " · ", s, " = ", h("strong", {}, fmt(n.wAbsMax[j], 4)),
        ". The product is unchanged: channel ", J, " of X is divided by what row ", J, " of W is multiplied by."),
      h("li", {}, h("strong", {}, "Steps. "), `With ${r.bits} bits, qmax = ${r.plainX.qmax}, and Δ = max|·| / qmax over the whole tensor:`,
        h("ul", {},
          h("li", {}, "activations: ", fmt(absMax(r.xAbsMax)), ` / ${r.plainX.qmax} = `, fmt(r.plainX.scale, 5), " as they are, ",
            fmt(absMax(n.xAbsMax), 4), ` / ${r.plainX.qmax} = `, fmt(n.qX.scale, 5), " after smoothing;"),
          h("li", {}, "weights: ", fmt(absMax(r.wAbsMax)), ` / ${r.plainX.qmax} = `, fmt(r.plainW.scale, 5), " as they are, ",
            fmt(absMax(n.wAbsMax), 4), ` / ${r.plainX.qmax} = `, fmt(n.qW.scale, 5), " after smoothing."))),
      h("li", {}, h("strong", {}, "One value. "), `Token 1 in channel ${K} (the smallest range), x = ${fmt(this.state.X[0][k])}. `,
        "As it is: round(", fmt(this.state.X[0][k]), " / ", fmt(r.plainX.scale, 5), ") = level ", fmt(r.plainX.levels[idx]),
        ", back to ", fmt(r.plainX.dequantized[idx], 5), ", error ", fmt(r.plainX.errors[idx], 5), ". ",
        "Smoothed: x / ", sym("s", K), " = ", fmt(n.Xs[0][k], 5), ", round(", fmt(n.Xs[0][k], 5), " / ", fmt(n.qX.scale, 5), ") = level ",
        fmt(n.qX.levels[idx]), ", back to ", fmt(n.qX.dequantized[idx], 5), ", error ", fmt(n.qX.errors[idx], 5), ". ",
        "Every error is at most half a step."));
    fill(this.worked, h("p", {}, `Channel ${J}, α = ${a}, ${r.bits} bits (${c} channels, ${o} outputs):`), steps);
  }
}

/** Exercise 7: the smoothing factor of the outlier channel and the ranges it leaves. */
export class LlmAnswerQuantization extends FigureAnswer {
  answer(r) {
    const j = r.outlier, J = j + 1;
    const x = fmt(r.xAbsMax[j]), w = fmt(r.wAbsMax[j]), a = fmt(r.alpha, 2);
    const s = fmt(r.now.scales[j], 4);
    const half = r.alpha === 0.5;
    return [
      h("p", {}, `Channel ${J} has activation range ${x} and weight range ${w}; with α = ${a}, `,
        h("span", { class: "answer-s" }, "s = ",
          half ? [`√${x}/√${w}`, " = "] : null, power(x, a), " / ", power(w, `1 − ${a}`), " = ", h("strong", {}, s)),
        ". The activation range becomes ", h("span", { class: "answer-x" }, `${x}/${s} = `, h("strong", {}, fmt(r.now.xAbsMax[j], 4))),
        " and the weight range ", h("span", { class: "answer-w" }, `${w}·${s} = `, h("strong", {}, fmt(r.now.wAbsMax[j], 4))), "."),
      h("p", {}, half
        ? "With α = 0.5 the two ranges meet at the geometric mean of the old ones, so the channel is as hard to quantise on either side. "
        : `With α = ${a} the split is uneven: larger α moves more of the range to the weights. `,
      `The product XW is unchanged, because channel ${J} of X is divided by exactly what row ${J} of W is multiplied by.`),
    ];
  }
}

export const widgets = { "llm-quantization": LlmQuantization, "llm-answer-quantization": LlmAnswerQuantization };
