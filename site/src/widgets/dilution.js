// <llm-context-dilution>: how much attention one relevant key keeps as irrelevant keys are added.
// Attributes: relevant-score, distractor-score, distractors (initial values).
import { fill, fmt, h, pct, uniqueId } from "../dom.js";
import { LlmWidget } from "./base.js";
import { lineChart } from "./plot.js";

// Distractor counts the slider steps through: roughly 1-2-5 per decade, 0 to 100,000.
const COUNTS = [0, 1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
// Where the curve is sampled: integer counts spread evenly on a log axis from 1 to 100,000.
const CURVE_COUNTS = [...new Set(Array.from({ length: 51 }, (_, k) => Math.round(10 ** (k / 10))))];

export class LlmContextDilution extends LlmWidget {
  build() {
    const id = uniqueId("dil");
    const attr = (name, fallback) => {
      const v = Number(this.getAttribute(name));
      return this.hasAttribute(name) && Number.isFinite(v) ? v : fallback;
    };
    const nStart = attr("distractors", 10);
    const slider = (key, label, min, max, step, value) => {
      const input = h("input", { type: "range", id: `${id}-${key}`, min, max, step, value: String(value), oninput: () => this.update() });
      const out = h("output", { for: `${id}-${key}` });
      return { input, out, row: h("div", { class: "slider" }, h("label", { for: `${id}-${key}` }, label), input, out) };
    };
    this.a = slider("a", "Relevant key's score a", -5, 10, 0.5, attr("relevant-score", 2));
    this.b = slider("b", "Each distractor's score b", -5, 10, 0.5, attr("distractor-score", 0));
    const nIndex = COUNTS.reduce((best, c, k) => (Math.abs(c - nStart) < Math.abs(COUNTS[best] - nStart) ? k : best), 0);
    this.n = slider("n", "Distractors n", 0, COUNTS.length - 1, 1, nIndex);
    this.headline = h("p", { class: "headline" });
    this.bar = h("div", { class: "mass-bar", "aria-hidden": "true" });
    this.chart = h("div", { class: "chart-box" });
    this.worked = h("p", { class: "worked" });
    this.append(h("div", { class: "sliders" }, this.a.row, this.b.row, this.n.row), this.headline, this.bar, this.chart, this.worked);
  }

  get inputs() {
    return {
      relevantScore: this.a.input.valueAsNumber,
      distractorScore: this.b.input.valueAsNumber,
      distractors: COUNTS[this.n.input.valueAsNumber],
    };
  }

  compute() {
    const cfg = this.inputs;
    const now = this.core.contextDilution(cfg);
    const curve = CURVE_COUNTS.map((n) => [n, this.core.contextDilution({ ...cfg, distractors: n }).relevantWeight]);
    return { cfg, now, curve };
  }

  render({ cfg, now, curve }) {
    const { relevantScore: a, distractorScore: b, distractors: n } = cfg;
    this.a.out.value = fmt(a, 1);
    this.b.out.value = fmt(b, 1);
    this.n.out.value = n.toLocaleString("en");
    this.n.input.setAttribute("aria-valuetext", `${n} distractors`);
    fill(this.headline, "The relevant key keeps ", h("strong", {}, pct(now.relevantWeight)),
      " of the attention; ", n === 0 ? "there are no distractors." :
        [`the ${n.toLocaleString("en")} distractor${n === 1 ? "" : "s"} share `, h("strong", {}, pct(now.distractorMass)),
          ` (${pct(now.distractorWeight, 2)} each).`]);
    fill(this.bar, h("span", { class: "relevant", style: { width: pct(now.relevantWeight, 3) } }),
      h("span", { class: "distractors", style: { width: pct(now.distractorMass, 3) } }));
    fill(this.chart, lineChartFor(curve, now, n));
    fill(this.worked, h("var", {}, "w"), " = e", h("sup", {}, h("var", {}, "a")), " / (e", h("sup", {}, h("var", {}, "a")),
      " + ", h("var", {}, "n"), "·e", h("sup", {}, h("var", {}, "b")), ") = e", h("sup", {}, fmt(a, 1)),
      " / (e", h("sup", {}, fmt(a, 1)), ` + ${n.toLocaleString("en")}·e`, h("sup", {}, fmt(b, 1)), ") = ",
      h("strong", {}, fmt(now.relevantWeight, 4)));
  }
}

function lineChartFor(curve, now, n) {
  return lineChart({
    title: "Weight of the relevant key against the number of distractors",
    x: { min: 1, max: 100000, log: true, ticks: [1, 10, 100, 1000, 10000, 100000], format: (t) => t.toLocaleString("en"), label: "distractors n (log scale)" },
    y: { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], format: (t) => pct(t, 0), label: "relevant weight" },
    series: [{ points: curve }],
    markers: n >= 1 ? [{ x: n, y: now.relevantWeight, label: pct(now.relevantWeight) }] : [],
  });
}

export const widgets = { "llm-context-dilution": LlmContextDilution };
