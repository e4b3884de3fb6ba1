// Minimal SVG charts for the widgets: a line chart, a bar chart and a grouped bar chart, with
// their axes, ticks, guides and legends. Drawing only: every plotted value arrives computed.
import { h } from "../dom.js";

/**
 * lineChart({ width, height, x: {min, max, log, ticks, label, format}, y: {...},
 *             series: [{ points: [[x, y], …], class }], markers: [{ x, y, label, class }],
 *             vlines: [{ x, label, class }], hlines: [{ y, label, class }], title })
 */
export function lineChart(spec) {
  const W = spec.width ?? 520, H = spec.height ?? 260;
  const m = { left: 52, right: 30, top: 14, bottom: 42 };
  const sx = scale(spec.x, m.left, W - m.right);
  const sy = scale(spec.y, H - m.bottom, m.top);
  const { svg, axes } = frame(spec, W, H, m, sy, "chart");
  for (const t of spec.x.ticks ?? []) {
    axes.append(h("line", { x1: sx(t), x2: sx(t), y1: H - m.bottom, y2: H - m.bottom + 4 }));
    axes.append(h("text", { x: sx(t), y: H - m.bottom + 16, "text-anchor": "middle" }, (spec.x.format ?? String)(t)));
  }
  svg.append(axes);
  hlines(svg, spec.hlines, W, m, sy);
  for (const l of spec.vlines ?? []) {
    svg.append(h("line", { x1: sx(l.x), x2: sx(l.x), y1: m.top, y2: H - m.bottom, class: l.class ?? "guide" }));
    if (l.label) svg.append(h("text", { x: sx(l.x) + 4, y: m.top + 12, class: "guide-label" }, l.label));
  }
  for (const s of spec.series ?? []) {
    svg.append(h("polyline", { class: s.class ?? "series", points: s.points.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(" ") }));
  }
  for (const p of spec.markers ?? []) {
    svg.append(h("circle", { cx: sx(p.x), cy: sy(p.y), r: 5, class: p.class ?? "marker" }));
    if (p.label) {
      const right = sx(p.x) < W * 0.7;
      svg.append(h("text", { x: sx(p.x) + (right ? 9 : -9), y: sy(p.y) - 8, "text-anchor": right ? "start" : "end", class: "marker-label" }, p.label));
    }
  }
  return svg;
}

// What every chart shares: the <svg> with its title and an axes group holding both axis lines,
// the y ticks with grid lines and labels, and the axis titles. Returns { svg, axes }.
function frame(spec, W, H, m, sy, cls) {
  const svg = h("svg", { viewBox: `0 0 ${W} ${H}`, class: cls, role: "img", "aria-label": spec.title ?? "" });
  if (spec.title) svg.append(h("title", {}, spec.title));
  const axes = h("g", { class: "axes" });
  axes.append(h("line", { x1: m.left, y1: H - m.bottom, x2: W - m.right, y2: H - m.bottom }));
  axes.append(h("line", { x1: m.left, y1: m.top, x2: m.left, y2: H - m.bottom }));
  for (const t of spec.y.ticks ?? []) {
    axes.append(h("line", { x1: m.left - 4, x2: m.left, y1: sy(t), y2: sy(t), class: "tick" }));
    axes.append(h("line", { x1: m.left, x2: W - m.right, y1: sy(t), y2: sy(t), class: "grid" }));
    axes.append(h("text", { x: m.left - 7, y: sy(t) + 4, "text-anchor": "end" }, (spec.y.format ?? String)(t)));
  }
  if (spec.x?.label) axes.append(h("text", { x: (m.left + W - m.right) / 2, y: H - 6, "text-anchor": "middle", class: "label" }, spec.x.label));
  if (spec.y.label) axes.append(h("text", { x: 12, y: (m.top + H - m.bottom) / 2, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 12 ${(m.top + H - m.bottom) / 2})` }, spec.y.label));
  return { svg, axes };
}

// Horizontal guide lines with optional labels at the right end.
function hlines(svg, lines, W, m, sy) {
  for (const l of lines ?? []) {
    svg.append(h("line", { x1: m.left, x2: W - m.right, y1: sy(l.y), y2: sy(l.y), class: l.class ?? "guide" }));
    if (l.label) svg.append(h("text", { x: W - m.right - 4, y: sy(l.y) - 5, "text-anchor": "end", class: "guide-label" }, l.label));
  }
}

// Maps data coordinates to pixels (screen mapping, not the chapter's mathematics).
function scale(axis, p0, p1) {
  const f = axis.log ? Math.log10 : (v) => v;
  const a = f(axis.min), b = f(axis.max);
  // A degenerate axis (min = max) puts every value at its start instead of dividing by zero.
  const span = b - a || 1;
  return (v) => p0 + ((f(Math.min(Math.max(v, axis.min), axis.max)) - a) / span) * (p1 - p0);
}

/**
 * barChart({ width, height, y: {min, max, ticks, label, format}, x: {label},
 *            bars: [{ label, value, title, class, onclick }], title, valueFormat })
 * Vertical bars from y.min, one per entry, labelled underneath (every label when they fit,
 * otherwise a thinned set); valueFormat, when given, writes each value above its bar.
 */
export function barChart(spec) {
  const W = spec.width ?? 520, H = spec.height ?? 220;
  const m = { left: 52, right: 14, top: 18, bottom: 42 };
  const sy = scale(spec.y, H - m.bottom, m.top);
  const bars = spec.bars ?? [];
  const slot = (W - m.left - m.right) / Math.max(bars.length, 1);
  const gap = Math.min(slot * 0.2, 6);
  const { svg, axes } = frame(spec, W, H, m, sy, "chart bar-chart");
  // Label every k-th bar so that labels stay about 22 px apart.
  const every = Math.max(1, Math.ceil(22 / slot));
  bars.forEach((b, i) => {
    const x = m.left + i * slot + gap / 2;
    const top = sy(b.value);
    const rect = h("rect", { x, y: top, width: Math.max(slot - gap, 1), height: Math.max(H - m.bottom - top, 0),
      class: b.class ? `bar ${b.class}` : "bar", onclick: b.onclick }, b.title ? h("title", {}, b.title) : null);
    svg.append(rect);
    if (spec.valueFormat && slot >= 34) {
      svg.append(h("text", { x: x + (slot - gap) / 2, y: top - 4, "text-anchor": "middle", class: "bar-value" }, spec.valueFormat(b.value)));
    }
    if (i % every === 0 || i === bars.length - 1) {
      axes.append(h("text", { x: x + (slot - gap) / 2, y: H - m.bottom + 16, "text-anchor": "middle" }, b.label));
    }
  });
  svg.prepend(axes);
  return svg;
}

/**
 * Round axis limits and ticks around the data range [lo, hi]: about `count` steps of 1, 2, 2.5
 * or 5 times a power of ten. Screen mapping only. Returns { min, max, ticks }.
 */
export function niceScale(lo, hi, count = 4) {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) / 2 : 1;
    lo -= pad;
    hi += pad;
  }
  const rough = (hi - lo) / count;
  const unit = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * unit).find((s) => s >= rough);
  const min = Math.floor(lo / step) * step, max = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let k = 0; min + k * step <= max + step / 2; k += 1) ticks.push(Number((min + k * step).toPrecision(12)));
  return { min, max, ticks };
}

/**
 * groupedBarChart({ width, height, categories: [label, …], y: {min, max, log, ticks, label, format},
 *            series: [{ values: [v, …], label, class }], hlines: [{ y, label, class }], title })
 * Grouped bars: one group per category, one bar per series in each group, each drawn up from
 * y.min (on a log axis y.min must be above 0). Each bar carries a tooltip "series, category: value".
 */
export function groupedBarChart(spec) {
  const W = spec.width ?? 520, H = spec.height ?? 260;
  const m = { left: 52, right: 14, top: 14, bottom: 42 };
  const sy = scale(spec.y, H - m.bottom, m.top);
  const fmtY = spec.y.format ?? String;
  const { svg, axes } = frame(spec, W, H, m, sy, "chart bar-chart");
  const groups = spec.categories.length, perGroup = Math.max(1, spec.series.length);
  const band = (W - m.left - m.right) / groups;
  const barW = (band * 0.76) / perGroup;
  const bars = h("g", { class: "bars" });
  spec.categories.forEach((cat, c) => {
    const x0 = m.left + band * c + band * 0.12;
    axes.append(h("text", { x: m.left + band * (c + 0.5), y: H - m.bottom + 16, "text-anchor": "middle" }, cat));
    spec.series.forEach((s, k) => {
      const v = s.values[c];
      const top = sy(v), base = sy(spec.y.min);
      bars.append(h("rect", { x: (x0 + barW * k).toFixed(1), y: Math.min(top, base).toFixed(1), width: Math.max(barW - 1.5, 1).toFixed(1),
        height: Math.abs(base - top).toFixed(1), class: s.class ?? "bar" },
        h("title", {}, `${s.label ? s.label + ", " : ""}${cat}: ${fmtY(v)}`)));
    });
  });
  svg.append(axes, bars);
  hlines(svg, spec.hlines, W, m, sy);
  return svg;
}

/** A legend for a chart: legend([{ label, class }]) → a list of swatches whose class matches the series'. */
export function legend(items) {
  return h("ul", { class: "chart-legend" }, items.map((it) =>
    h("li", {}, h("span", { class: `swatch ${it.class ?? ""}`, "aria-hidden": "true" }), it.label)));
}

/**
 * Axis ticks for [0, max] at 1, 2 or 5 times a power of ten, about `count` of them; returns
 * { max, ticks } with max rounded up to the last tick (layout, not the chapter's mathematics).
 */
export function niceTicks(max, count = 4) {
  if (!(max > 0) || !Number.isFinite(max)) return { max: 1, ticks: [0, 0.5, 1] };
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw);
  const n = Math.ceil(max / step - 1e-9);
  const ticks = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { max: ticks[n], ticks };
}
