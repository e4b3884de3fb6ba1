// <llm-context-dilution>: how much attention one relevant key keeps as irrelevant keys are added.
// Attributes: see LlmContextDilution.attributes (relevant-score, distractor-score, distractors).
import { h, patch } from "../../dom.js";
import { fmt, grouped, pct } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { markSettings, slider } from "../../kit/controls.js";
import { lineChart } from "../../kit/plot.js";
import css from "./dilution.css";

// Distractor counts the slider steps through: roughly 1-2-5 per decade, 0 to 100,000.
const COUNTS = [0, 1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
// Where the curve is sampled: integer counts spread evenly on a log axis from 1 to 100,000.
const CURVE_COUNTS = [...new Set(Array.from({ length: 51 }, (_, k) => Math.round(10 ** (k / 10))))];

export class LlmContextDilution extends LlmWidget {
  static styles = css;
  static attributes = [
    { name: "relevant-score", type: "number", min: -5, max: 10, default: 2, doc: "The relevant key's score a." },
    { name: "distractor-score", type: "number", min: -5, max: 10, default: 0, doc: "Each distractor's score b." },
    { name: "distractors", type: "integer", min: 0, max: 100000, default: 10, doc: "The number of distractors n." },
  ];

  build() {
    this.a = slider({
      label: "Relevant key's score a",
      min: -5,
      max: 10,
      step: 0.5,
      oninput: (v) => this.set({ relevantScore: v }),
    });
    this.b = slider({
      label: "Each distractor's score b",
      min: -5,
      max: 10,
      step: 0.5,
      oninput: (v) => this.set({ distractorScore: v }),
    });
    this.n = slider({
      label: "Distractors n",
      min: 0,
      max: COUNTS.length - 1,
      step: 1,
      oninput: (k) => this.set({ distractors: COUNTS[k] }),
    });
    markSettings({ "relevant-score": this.a.input, "distractor-score": this.b.input, distractors: this.n.input });
    this.headline = h("p", { class: "headline" });
    this.bar = h("div", { class: "mass-bar", "aria-hidden": "true" });
    this.chart = h("div", { class: "chart-box" });
    this.worked = h("p", { class: "worked" });
    this.frame.append(
      h("div", { class: "sliders llm-bar" }, this.a.row, this.b.row, this.n.row),
      this.headline,
      this.bar,
      this.chart,
      this.worked,
    );
  }

  sync() {
    const s = this.state;
    this.a.input.value = String(s.relevantScore);
    this.b.input.value = String(s.distractorScore);
    // The slider stands at the listed count nearest the state's (which may be any whole number).
    this.n.input.value = String(
      COUNTS.reduce(
        (best, c, k) => (Math.abs(c - s.distractors) < Math.abs(COUNTS[best] - s.distractors) ? k : best),
        0,
      ),
    );
  }

  compute() {
    const cfg = {
      relevantScore: this.state.relevantScore,
      distractorScore: this.state.distractorScore,
      distractors: this.state.distractors,
    };
    const now = this.core.contextDilution(cfg);
    const sweep = this.core.contextDilutionSweep({ ...cfg, distractors: CURVE_COUNTS });
    const curve = sweep.distractors.map((n, i) => [n, sweep.relevantWeight[i]]);
    return { cfg, now, curve };
  }

  render({ cfg, now, curve }) {
    const { relevantScore: a, distractorScore: b, distractors: n } = cfg;
    this.a.out.value = fmt(a, 1);
    this.b.out.value = fmt(b, 1);
    this.n.out.value = grouped(n);
    this.n.input.setAttribute("aria-valuetext", `${n} distractors`);
    patch(
      this.headline,
      "The relevant key keeps ",
      h("strong", {}, pct(now.relevantWeight)),
      " of the attention; ",
      n === 0
        ? "there are no distractors."
        : [
            `the ${grouped(n)} distractor${n === 1 ? "" : "s"} share `,
            h("strong", {}, pct(now.distractorMass)),
            ` (${pct(now.distractorWeight, 2)} each).`,
          ],
    );
    patch(
      this.bar,
      h("span", { class: "relevant", style: { width: pct(now.relevantWeight, 3) } }),
      h("span", { class: "distractors", style: { width: pct(now.distractorMass, 3) } }),
    );
    patch(this.chart, lineChartFor(curve, now, n));
    patch(
      this.worked,
      h("var", {}, "w"),
      " = e",
      h("sup", {}, h("var", {}, "a")),
      " / (e",
      h("sup", {}, h("var", {}, "a")),
      " + ",
      h("var", {}, "n"),
      "·e",
      h("sup", {}, h("var", {}, "b")),
      ") = e",
      h("sup", {}, fmt(a, 1)),
      " / (e",
      h("sup", {}, fmt(a, 1)),
      ` + ${grouped(n)}·e`,
      h("sup", {}, fmt(b, 1)),
      ") = ",
      h("strong", {}, fmt(now.relevantWeight, 4)),
    );
  }

  /** The relevant key's share of the attention. */
  summary({ cfg, now }) {
    const n = cfg.distractors;
    return `The relevant key keeps ${pct(now.relevantWeight)} of the attention against ${grouped(n)} distractor${n === 1 ? "" : "s"}.`;
  }
}

function lineChartFor(curve, now, n) {
  return lineChart({
    title: "Weight of the relevant key against the number of distractors",
    x: {
      min: 1,
      max: 100000,
      log: true,
      ticks: [1, 10, 100, 1000, 10000, 100000],
      format: (t) => grouped(t),
      label: "distractors n (log scale)",
      name: "distractors n",
    },
    y: { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], format: (t) => pct(t, 0), label: "relevant weight" },
    series: [{ points: curve, label: "relevant key's weight" }],
    markers: n >= 1 ? [{ x: n, y: now.relevantWeight, label: pct(now.relevantWeight) }] : [],
    describe:
      n >= 1
        ? `The marked point, n = ${grouped(n)}, gives ${pct(now.relevantWeight)}.`
        : `With no distractors (n = 0, left of the log axis) the relevant key keeps ${pct(now.relevantWeight)}.`,
  });
}

export const widgets = { "llm-context-dilution": LlmContextDilution };
