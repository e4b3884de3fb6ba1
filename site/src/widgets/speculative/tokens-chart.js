// Figure 5.1's chart (.chart-box) and its legend (.speculative-legend): the expected tokens per
// target call and the walltime improvement against the draft length γ (r.curve), the best γ
// (r.best) and the ceiling 1/(1 − α) (r.now.ceiling) as guides, and the figure's γ marked on both
// curves (r.cfg.gamma, r.now's expectedTokens and speedup).
import { h, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { lineChart } from "../../kit/plot.js";
import { GAMMA_MAX } from "./attributes.js";

/** The chart and its legend: a part of the figure (speculative.js): the nodes it places, and render(r) from compute()'s result. */
export class TokensChart {
  constructor() {
    this.chart = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "speculative-legend" });
    this.nodes = [h("div", {}, this.chart, this.legend)];
  }

  /** The two curves with their guides and the figure's γ marked, then the legend in words. */
  render({ cfg, now, curve, best }) {
    const maxE = Math.max(...curve.map((p) => p.expectedTokens));
    // Show the ceiling line when it is not far above the curve; otherwise say where it is.
    const ceilingShown = Number.isFinite(now.ceiling) && now.ceiling <= 1.6 * maxE;
    // A little headroom so the ceiling line does not sit on the frame.
    const y = linearAxis(1.08 * (ceilingShown ? Math.max(maxE, now.ceiling) : maxE));
    patch(
      this.chart,
      lineChart({
        title: "Expected tokens per target call and walltime improvement against the draft length",
        x: { min: 0, max: GAMMA_MAX, ticks: [0, 5, 10, 15, 20], label: "draft length γ" },
        y: { ...y, label: "tokens per call / improvement ×" },
        series: [
          {
            points: curve.map((p) => [p.gamma, p.expectedTokens]),
            class: "series speculative-tokens",
            label: "expected tokens per call",
          },
          {
            points: curve.map((p) => [p.gamma, p.speedup]),
            class: "series speculative-speedup",
            label: "walltime improvement ×",
          },
        ],
        // The values are the chart's, as the eye reads them (two digits): exercise 5 asks for the
        // tokens per call to within 0.01.
        describe: `Marked: the figure's draft length γ = ${cfg.gamma}, and the best, γ = ${best.gamma}${ceilingShown ? `; the ceiling 1/(1 − α) is ${fmt(now.ceiling, 3)}` : ""}.`,
        hlines: ceilingShown
          ? [{ y: now.ceiling, label: `ceiling ${fmt(now.ceiling, 3)}`, class: "guide speculative-ceiling" }]
          : [],
        vlines: [{ x: best.gamma, class: "guide speculative-best" }],
        markers: [
          { x: cfg.gamma, y: now.expectedTokens, class: "marker speculative-tokens" },
          { x: cfg.gamma, y: now.speedup, class: "marker speculative-speedup" },
        ],
      }),
    );
    patch(
      this.legend,
      h(
        "li",
        {},
        h("span", { class: "swatch speculative-tokens", "aria-hidden": "true" }),
        "Expected tokens per target call",
      ),
      h("li", {}, h("span", { class: "swatch speculative-speedup", "aria-hidden": "true" }), "Walltime improvement, ×"),
      h(
        "li",
        {},
        h("span", { class: "swatch speculative-best", "aria-hidden": "true" }),
        `Best draft length, γ = ${best.gamma}`,
      ),
      h(
        "li",
        {},
        Number.isFinite(now.ceiling) ? h("span", { class: "swatch speculative-ceiling", "aria-hidden": "true" }) : null,
        Number.isFinite(now.ceiling)
          ? [`Ceiling 1/(1 − α) = ${fmt(now.ceiling, 3)}`, ceilingShown ? "" : ", above the chart"]
          : "No ceiling at α = 1",
      ),
    );
  }
}

// A linear axis from 0 to a round value at or above top, with four to six ticks (screen mapping).
function linearAxis(top) {
  const steps = [0.25, 0.5, 1, 2, 5, 10, 20, 50];
  const step = steps.find((s) => top / s <= 5) ?? 100;
  const max = Math.ceil(top / step - 1e-9) * step || step;
  const ticks = [];
  for (let t = 0; t <= max + 1e-9; t += step) ticks.push(t);
  return { min: 0, max, ticks, format: (t) => fmt(t, 2) };
}
