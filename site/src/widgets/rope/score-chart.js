// Figure 3.1's chart (.chart-box) under its menu of offsets (.rope-offsets): the score q̃·k̃/√d
// against the offset m − n from −range to range (r.curve, at r.state.range), with the figure's
// offset marked when it lies on the axis (r.now's offset and scaled).
import { h, keep, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { choice } from "../../kit/controls.js";
import { lineChart, niceScale } from "../../kit/plot.js";
import { RANGES } from "./attributes.js";

/**
 * The chart and the offsets it shows: a part of the figure (rope.js) that holds a control, so it
 * is made with the figure whose state it sets; sync(state) sets the menu, render(r) draws the chart.
 */
export class ScoreChart {
  /** @param {import("./rope.js").LlmRope} figure */
  constructor(figure) {
    this.rangeChoice = choice({
      label: "Offsets m − n shown",
      value: "256",
      onchange: (range) => figure.set({ range }),
      options: RANGES.map((r) => [r, `−${r} … ${r}`]),
    });
    this.chart = h("div", { class: "chart-box" });
    this.nodes = [h("div", { class: "controls rope-offsets" }, this.rangeChoice.row), this.chart];
  }

  sync(s) {
    this.rangeChoice.select.value = s.range;
  }

  /** The chart is drawn again only when its curve (q, k, the frequencies, the range) or its marker moved. */
  render(r) {
    const { now } = r;
    patch(
      this.chart,
      keep([r.curveKey, now.scaled, now.offset], () => chartFor(r)),
    );
  }
}

/** The curve of the scores, with the figure's offset marked when it lies on the axis. */
function chartFor({ state: s, now, curve }) {
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
