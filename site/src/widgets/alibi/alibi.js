// <llm-alibi>: attention with linear biases (Press et al. 2022). The reader picks the number of
// heads (their slopes drawn as bars), one head, the size of the bias map and the distance of a
// piece of evidence, and sees the bias −m·(i − j) as a heat map, the factor e^(−m·δ) by which
// it scales a key's weight against the distance δ with the half-distance ln 2 / m marked (once
// exercise 6 no longer holds it back), and the calculation written out.
//
// Attributes: see LlmAlibi.attributes (heads, head (1-based), tokens (size of the bias map),
// distance (of the evidence)).
// Properties: state ({ heads, head, tokens, distance }), result ({ inputs, slopes,
// halfDistances, slope, halfDistance, map, span, curve, halved, ln2 }; inputs is a copy of the
// state it was computed from): everything comes from the core's alibiSlopes() and alibi().
import { gridTable, h, keep, patch, uniqueId } from "../../dom.js";
import { fmt, pct } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { FigureAnswer } from "../../kit/answer.js";
import { markSettings, scrollBox, slider } from "../../kit/controls.js";
import { workedSteps } from "../../kit/worked.js";
import css from "./alibi.css";
import { barChart, lineChart, niceScale } from "../../kit/plot.js";

const MAX_HEADS = 128;
const MAX_MAP = 12;
const MAX_DISTANCE = 512;

// The chart's distance axis: the smallest power of two from 8 up that holds 2.5 half-distances
// and the evidence (screen mapping: a rounded axis length).
function chartSpan(halfDistance, distance) {
  let span = 8;
  while (span < MAX_DISTANCE && (span < 2.5 * halfDistance || span < distance)) span *= 2;
  return span;
}

// For the written-out slope formula: whether h is a power of two, and the largest power of two
// below it (index bookkeeping for the label; the slope itself comes from the core).
const isPowerOfTwo = (x) => (x & (x - 1)) === 0;
const powerBelow = (x) => {
  let p = 1;
  while (p * 2 < x) p *= 2;
  return p;
};

export class LlmAlibi extends LlmWidget {
  static styles = css;
  static attributes = [
    {
      name: "heads",
      type: "integer",
      min: 1,
      max: MAX_HEADS,
      default: 8,
      doc: "The number of heads h, whose slopes are shown as bars.",
    },
    {
      name: "head",
      type: "integer",
      min: 1,
      max: MAX_HEADS,
      default: 3,
      doc: "The selected head k (1-based; at most heads) whose bias and weight factor are shown.",
    },
    {
      name: "tokens",
      type: "integer",
      min: 2,
      max: MAX_MAP,
      default: 8,
      doc: "The number of tokens in the bias map (its rows and columns).",
    },
    {
      name: "distance",
      type: "integer",
      min: 0,
      max: MAX_DISTANCE,
      default: 40,
      doc: "The distance δ in tokens of the evidence whose weight factor is shown.",
    },
  ];

  /** The selected head is one of the heads. */
  normalize(s, notes) {
    if (s.head > s.heads) {
      notes.push(`head=${s.head} is more than heads=${s.heads}; head ${s.heads} is shown.`);
      s.head = s.heads;
    }
  }

  build() {
    this.ids = uniqueId("alibi");
    this.headsCtl = slider({
      label: "Heads h",
      min: 1,
      max: MAX_HEADS,
      oninput: (v) => this.set({ heads: v }, { sync: true }),
    });
    this.headCtl = slider({ label: "Head k", min: 1, max: MAX_HEADS, oninput: (v) => this.set({ head: v }) });
    this.tokensCtl = slider({
      label: "Tokens in the bias map",
      min: 2,
      max: MAX_MAP,
      oninput: (v) => this.set({ tokens: v }),
    });
    this.distanceCtl = slider({
      label: "Evidence distance δ",
      min: 0,
      max: MAX_DISTANCE,
      oninput: (v) => this.set({ distance: v }),
    });
    markSettings({
      heads: this.headsCtl.input,
      head: this.headCtl.input,
      tokens: this.tokensCtl.input,
      distance: this.distanceCtl.input,
    });

    this.bars = h("div", { class: "chart-box alibi-bars" });
    this.headline = h("p", { class: "headline" });
    this.evidence = h("p", { class: "alibi-evidence" });
    this.map = h("div", { class: "alibi-map" });
    this.chart = h("div", { class: "chart-box" });
    this.worked = h("div", { class: "worked" });
    this.frame.append(
      h("div", { class: "sliders llm-bar" }, this.headsCtl.row, this.headCtl.row),
      this.bars,
      this.headline,
      h("div", { class: "sliders alibi-map-controls" }, this.tokensCtl.row, this.distanceCtl.row),
      this.evidence,
      h("div", { class: "alibi-panels" }, this.map, this.chart),
      this.worked,
    );
  }

  /** Sets the sliders from the state; the head slider goes up to the number of heads. */
  sync() {
    const s = this.state;
    this.headsCtl.input.value = String(s.heads);
    this.headCtl.input.max = String(s.heads);
    this.headCtl.input.value = String(s.head);
    this.tokensCtl.input.value = String(s.tokens);
    this.distanceCtl.input.value = String(s.distance);
  }

  selectHead(k) {
    this.set({ head: k }, { sync: true });
  }

  compute() {
    const { heads, head, tokens, distance } = this.state;
    const inputs = { heads, head, tokens, distance };
    // Every head's slope and half-distance in one call.
    const { slopes, halfDistances } = this.core.alibiHeads(inputs.heads);
    const slope = slopes[inputs.head - 1];
    const halfDistance = halfDistances[inputs.head - 1];
    // The bias map and the decay curve over the chart's span + 1 distances, in one call.
    const span = chartSpan(halfDistance, inputs.distance);
    const map = this.core.alibi({ slope, tokens: inputs.tokens, distances: span + 1 });
    const curve = map.relativeWeight;
    const halved = this.core.alibi({ slope: slope / 2 });
    // ln 2 itself, for the written-out division: the half-distance of slope 1 (asked once).
    this.ln2 = this.ln2 ?? this.core.alibi({ slope: 1 }).halfDistance;
    const ln2 = this.ln2;
    return { inputs, slopes, halfDistances, slope, halfDistance, map, span, curve, halved, ln2 };
  }

  render(r) {
    const { inputs, slope, halfDistance, curve } = r;
    this.headsCtl.out.value = String(inputs.heads);
    this.headCtl.out.value = String(inputs.head);
    this.tokensCtl.out.value = String(inputs.tokens);
    this.distanceCtl.out.value = String(inputs.distance);
    this.distanceCtl.input.setAttribute("aria-valuetext", `${inputs.distance} tokens`);
    this.headCtl.input.setAttribute("aria-valuetext", `head ${inputs.head}, slope ${fmt(slope, 6)}`);

    // Each panel is drawn again only when what it shows changed: the bars with the heads or the
    // selected head, the map with the slope or its size, the chart with the slope, span or evidence.
    patch(
      this.bars,
      keep([inputs.heads, inputs.head], () => this.barsFor(r)),
    );

    patch(
      this.headline,
      `Head ${inputs.head} of ${inputs.heads}: slope m = `,
      h("strong", { class: "alibi-slope" }, fmt(slope, 6)),
      ". A key's weight halves every ",
      h("strong", { class: "alibi-half" }, fmt(halfDistance, 3)),
      " tokens of distance.",
    );
    const w = curve[inputs.distance];
    patch(
      this.evidence,
      `Evidence ${inputs.distance} token${inputs.distance === 1 ? "" : "s"} before the query (δ) is weighted `,
      h("strong", { class: "alibi-factor" }, `×${fmt(w, 6)}`),
      w >= 1e-4 ? ` (${pct(w, 2)})` : "",
      " compared with the same key at distance 0, other things equal.",
    );

    patch(
      this.map,
      keep([slope, inputs.tokens], () => this.mapFor(r)),
    );
    patch(
      this.chart,
      keep([slope, r.span, inputs.distance], () => this.chartFor(r)),
    );
    this.renderWorked(r);
  }

  /** The bar chart of every head's slope, the selected head's bar marked. */
  barsFor({ inputs, slopes }) {
    const y = niceScale(0, Math.max(...slopes), 4);
    return barChart({
      title: `Slopes of the ${inputs.heads} heads; the selected head's bar is marked`,
      height: 190,
      y: { min: 0, max: y.max, ticks: y.ticks, format: (t) => fmt(t, 4), label: "slope m" },
      x: { label: "head k", name: "head k" },
      valueFormat: (v) => fmt(v, 4),
      marked: inputs.head - 1,
      bars: slopes.map((s, k) => ({
        label: String(k + 1),
        value: s,
        // the slope alone: each head's half-distance is exercise 6's answer and its follow-up's
        title: `head ${k + 1}: slope ${fmt(s, 6)}`,
        onclick: () => this.selectHead(k + 1),
      })),
    });
  }

  /**
   * The selected head's slope, half-distance and the evidence's weight factor; not the
   * half-distance while exercise 6 asks for it.
   */
  summary({ inputs, slope, halfDistance, curve }, { concealed }) {
    const head = `Head ${inputs.head} of ${inputs.heads}, slope ${fmt(slope, 6)}`;
    const evidence = `evidence ${inputs.distance} token${inputs.distance === 1 ? "" : "s"} back is weighted ×${fmt(curve[inputs.distance], 6)}`;
    return concealed
      ? `${head}: ${evidence}.`
      : `${head}: a key's weight halves every ${fmt(halfDistance, 3)} tokens; ${evidence}.`;
  }

  /** The bias map: a table of the bias of each query and key, shaded by the weight factor it causes. */
  mapFor({ inputs, map }) {
    const n = inputs.tokens;
    const table = gridTable({
      className: "alibi-table",
      rows: n,
      cols: n,
      head: (j) => String(j + 1),
      corner: "i \\ j",
      rowHead: (i) => String(i + 1),
      attrs: { "aria-labelledby": `${this.ids}-map` },
      cell: (i, j) => {
        if (map.bias[i][j] === null)
          return h(
            "td",
            { class: "masked", title: "masked: key after the query" },
            h("span", { class: "visually-hidden" }, "masked"),
          );
        const w = map.relativeWeight[i - j];
        return h(
          "td",
          { class: "heat", title: `distance ${i - j}: weight ×${fmt(w, 4)}`, style: { "--w": String(w) } },
          fmt(map.bias[i][j], 3),
        );
      },
    });
    return [
      h(
        "p",
        { class: "alibi-map-title", id: `${this.ids}-map` },
        "Bias −m·(i − j) added to the score of query i (row) for key j (column); shade: the weight factor it causes",
      ),
      scrollBox("Bias table", "alibi-scroll", table),
    ];
  }

  chartFor({ inputs, halfDistance, span, curve }) {
    const ticks = [0, span / 4, span / 2, (3 * span) / 4, span];
    return lineChart({
      // True whether or not exercise 6 holds the half-distance's line back (alibi-figure.js): the
      // title promises no mark; the line, when drawn, carries its own label.
      title: "Weight factor e^(−m·δ) against the distance δ: it falls to ½ at the half-distance ln 2 / m",
      x: {
        min: 0,
        max: span,
        ticks,
        format: (t) => fmt(t, 0),
        label: "distance δ = i − j (tokens)",
        name: "distance δ",
      },
      y: { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], format: (t) => fmt(t, 2), label: "weight factor" },
      series: [{ points: curve.map((v, d) => [d, v]), label: "weight factor" }],
      describe: `The evidence, at δ = ${inputs.distance}, is weighted ×${fmt(curve[inputs.distance], 4)}; the factor is ½ at δ = ln 2 / m = ${fmt(halfDistance, 2)}.`,
      vlines: [{ x: halfDistance, label: `ln 2 / m = ${fmt(halfDistance, 2)}` }],
      hlines: [{ y: 0.5, class: "guide faint" }],
      markers: [
        {
          x: inputs.distance,
          y: curve[inputs.distance],
          label: `δ = ${inputs.distance}: ×${fmt(curve[inputs.distance], 4)}`,
        },
      ],
    });
  }

  /** The slope, one bias, the weight factor, the half-distance and the halved slope, with the current numbers. */
  renderWorked({ inputs, slope, halfDistance, map, curve, halved, ln2 }) {
    const { heads: hh, head: k, tokens: n, distance: dist } = inputs;
    const two = (exp) => h("span", {}, "2", h("sup", {}, exp));
    let slopeStep;
    if (isPowerOfTwo(hh)) {
      slopeStep = [`h = ${hh} is a power of two, so head k has slope `, two("−8k/h"), ": ", two(`−8·${k}/${hh}`)];
    } else {
      const p = powerBelow(hh);
      slopeStep =
        k <= p
          ? [
              `h = ${hh} is not a power of two; the first ${p} heads take the slopes of ${p} heads, `,
              two(`−8k/${p}`),
              ": ",
              two(`−8·${k}/${p}`),
            ]
          : [
              `h = ${hh} is not a power of two; heads after the first ${p} take every other slope of ${2 * p} heads, `,
              two(`−8k′/${2 * p}`),
              ` with k′ = 1, 3, 5, …: here k′ = ${2 * (k - p) - 1}, `,
              two(`−8·${2 * (k - p) - 1}/${2 * p}`),
            ];
    }
    const e = (exp) => h("span", {}, "e", h("sup", {}, exp));
    // The calculation's steps, drawn by the kit (worked.js).
    patch(
      this.worked,
      workedSteps([
        { name: "Slope", lead: slopeStep, result: fmt(slope, 10), tail: "." },
        {
          name: "Bias",
          lead: `Query i adds −m·(i − j) to its score for key j ≤ i. In the map, query ${n} and key 1: −${fmt(slope, 10)} × (${n} − 1)`,
          result: fmt(map.bias[n - 1][0], 10),
          tail: ".",
        },
        {
          name: "Weight factor",
          lead: [
            "Adding b to a score multiplies its exponential, and so the key's weight before normalisation, by ",
            e("b"),
            `. A key δ = ${dist} tokens back, against one at distance 0: `,
            e("−m·δ"),
            " = ",
            e(`−${fmt(slope, 10)} × ${dist}`),
          ],
          result: fmt(curve[dist], 10),
          tail: ".",
        },
        {
          name: "Half-distance",
          lead: [e("−m·δ"), ` = ½ when δ = ln 2 / m = ${fmt(ln2, 6)} / ${fmt(slope, 10)}`],
          result: fmt(halfDistance, 6),
          tail: ` tokens; every further ${fmt(halfDistance, 3)} tokens halve the weight again.`,
        },
        {
          name: "Half the slope",
          lead: `ln 2 / (m/2) = ${fmt(ln2, 6)} / ${fmt(slope / 2, 10)}`,
          result: fmt(halved.halfDistance, 6),
          tail: " tokens, twice as far.",
        },
      ]),
    );
  }
}

/**
 * Exercise 6: the reader predicts the selected head's half-distance; the answer writes out
 * ln 2 / m and what halving the slope does to it.
 */
export class LlmAnswerAlibi extends FigureAnswer {
  static figure = "llm-alibi";
  static followUp =
    "what is that distance for a slope half as steep, and what happens to it each time the slope is halved?";

  prediction(r) {
    const { slope, halfDistance, halved, ln2 } = r;
    return {
      label: [
        "Distance at which the bias halves a key's weight, for head ",
        String(r.inputs.head),
        " (m = ",
        fmt(slope, 10),
        "):",
      ],
      value: halfDistance,
      tolerance: 0.05,
      digits: 3,
      unit: "tokens",
      hints: [
        // 1/m and m·ln 2: the two slips of "the distance where −m·δ reaches ln 2".
        {
          value: 1 / slope,
          text: "That is 1/m, the distance at which the bias reaches −1: that multiplies the weight by e^(−1) ≈ 0.37, not ½. Halving needs m·δ = ln 2, so δ = ln 2 / m.",
        },
        {
          value: ln2 * slope,
          text: "You multiplied ln 2 by m: the bias −m·δ reaches −ln 2 at δ = ln 2 / m, so divide by the slope.",
        },
        {
          value: halved.halfDistance,
          text: "That is the half-distance of a slope half as steep, m/2; this head's slope is m.",
        },
        {
          value: Math.log10(2) / slope,
          text: "That used log₁₀ 2 ≈ 0.301; the weight is e^(−m·δ), so the logarithm is the natural one, ln 2 ≈ 0.693.",
        },
      ],
      otherwise:
        "The bias −m·δ multiplies a key's weight by e^(−m·δ) relative to distance 0: solve e^(−m·δ) = ½ for δ.",
    };
  }

  followUpPrediction(r) {
    const { halfDistance, halved } = r;
    return {
      label: "The distance for a slope half as steep, m/2:",
      value: halved.halfDistance,
      tolerance: 0.05,
      digits: 3,
      unit: "tokens",
      hints: [
        {
          value: halfDistance / 2,
          text: "That halves the distance. A gentler slope lowers the bias more slowly, so the weight takes longer to halve.",
        },
      ],
      otherwise: "Solve e^(−(m/2)·δ) = ½ for δ, as before.",
    };
  }

  answer(r) {
    const { slope, halfDistance, halved, ln2 } = r;
    return [
      h(
        "p",
        {},
        "The bias multiplies a key's weight by ",
        h("span", {}, "e", h("sup", {}, "−m·δ")),
        " relative to distance 0, which is ½ when δ = ln 2 / m. With m = ",
        fmt(slope, 10),
        ": ln 2 / ",
        fmt(slope, 10),
        " ≈ ",
        fmt(ln2, 3),
        " / ",
        fmt(slope, 10),
        " ≈ ",
        h("span", { class: "answer-half" }, fmt(halfDistance, 3)),
        " tokens, about ",
        h("strong", { class: "answer-about" }, `${fmt(halfDistance, 1)} tokens`),
        ".",
      ),
      h(
        "p",
        {},
        "Halving the slope to ",
        fmt(slope / 2, 10),
        " gives ln 2 / ",
        fmt(slope / 2, 10),
        " = ",
        h("strong", { class: "answer-halved" }, fmt(halved.halfDistance, 3)),
        " tokens: each factor-of-two drop in slope doubles the half-distance, ",
        "because the half-distance is inversely proportional to the slope.",
      ),
    ];
  }
}

export const widgets = { "llm-alibi": LlmAlibi, "llm-answer-alibi": LlmAnswerAlibi };
