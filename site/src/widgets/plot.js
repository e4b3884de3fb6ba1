// A minimal SVG line chart for the widgets: axes, ticks, one or more polylines and markers.
// Drawing only: every plotted value arrives computed.
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
  const svg = h("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": spec.title ?? "" });
  if (spec.title) svg.append(h("title", {}, spec.title));
  const axes = h("g", { class: "axes" });
  axes.append(h("line", { x1: m.left, y1: H - m.bottom, x2: W - m.right, y2: H - m.bottom }));
  axes.append(h("line", { x1: m.left, y1: m.top, x2: m.left, y2: H - m.bottom }));
  for (const t of spec.x.ticks ?? []) {
    axes.append(h("line", { x1: sx(t), x2: sx(t), y1: H - m.bottom, y2: H - m.bottom + 4 }));
    axes.append(h("text", { x: sx(t), y: H - m.bottom + 16, "text-anchor": "middle" }, (spec.x.format ?? String)(t)));
  }
  for (const t of spec.y.ticks ?? []) {
    axes.append(h("line", { x1: m.left - 4, x2: m.left, y1: sy(t), y2: sy(t), class: "tick" }));
    axes.append(h("line", { x1: m.left, x2: W - m.right, y1: sy(t), y2: sy(t), class: "grid" }));
    axes.append(h("text", { x: m.left - 7, y: sy(t) + 4, "text-anchor": "end" }, (spec.y.format ?? String)(t)));
  }
  if (spec.x.label) axes.append(h("text", { x: (m.left + W - m.right) / 2, y: H - 6, "text-anchor": "middle", class: "label" }, spec.x.label));
  if (spec.y.label) axes.append(h("text", { x: 12, y: (m.top + H - m.bottom) / 2, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 12 ${(m.top + H - m.bottom) / 2})` }, spec.y.label));
  svg.append(axes);
  for (const l of spec.hlines ?? []) {
    svg.append(h("line", { x1: m.left, x2: W - m.right, y1: sy(l.y), y2: sy(l.y), class: l.class ?? "guide" }));
    if (l.label) svg.append(h("text", { x: W - m.right - 4, y: sy(l.y) - 5, "text-anchor": "end", class: "guide-label" }, l.label));
  }
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

// Maps data coordinates to pixels (screen mapping, not the chapter's mathematics).
function scale(axis, p0, p1) {
  const f = axis.log ? Math.log10 : (v) => v;
  const a = f(axis.min), b = f(axis.max);
  return (v) => p0 + ((f(Math.min(Math.max(v, axis.min), axis.max)) - a) / (b - a)) * (p1 - p0);
}
