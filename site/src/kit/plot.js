// Minimal SVG charts for the widgets: a line chart, a bar chart and a grouped bar chart, with
// their axes, ticks, guides and legends, and the axes several figures share (logAxis,
// tokensAxis). Drawing only: every plotted value arrives computed.
import { h, keep, patch, uniqueId, whenPatched } from "../dom.js";
import { fmt, fmtCount, superscript } from "../format.js";

/**
 * lineChart({ width, height, x: {min, max, log, ticks, label, format}, y: {...},
 *             series: [{ points: [[x, y], …], class }], markers: [{ x, y, label, class }],
 *             vlines: [{ x, label, class }], hlines: [{ y, label, class }], title,
 *             areas: [{ points: [[x, y], …], class, label }], margin: { left, … } })
 * `areas`, when given, are drawn under the series stacked in their order from the axis's
 * bottom: each band from the top of the one before it (or y.min) to that top plus its own y, at
 * the same x as the first area's points. The description and data table give each area's own
 * values, not the stacked ones. `margin` widens the plot's margins (px) for long tick labels.
 */
export function lineChart(spec, box) {
  const { W, H, m } = layout(spec, box, 520, 260, { left: 52, right: 30, top: 14, bottom: 42, ...spec.margin });
  const sx = scale(spec.x, m.left, W - m.right);
  const sy = scale(spec.y, H - m.bottom, m.top);
  const svg = chartSvg(spec, W, H, "chart");
  // The axes change far less often than the curves and markers: a part kept while everything
  // drawn in it stays (keep(), dom.js).
  const xTicks = (spec.x.ticks ?? []).map((t) => [sx(t), (spec.x.format ?? String)(t)]);
  const shown = everyFitting(xTicks);
  const yTicks = (spec.y.ticks ?? []).map((t) => [sy(t), (spec.y.format ?? String)(t)]);
  svg.append(
    keep(["line-axes", W, H, m, xTicks, shown, yTicks], () => {
      const axes = axesGroup(W, H, m, yTicks);
      xTicks.forEach(([x, label], i) => {
        axes.append(h("line", { x1: x, x2: x, y1: H - m.bottom, y2: H - m.bottom + 4 }));
        if (i % shown === 0) axes.append(h("text", { x, y: H - m.bottom + 16, "text-anchor": "middle" }, label));
      });
      return axes;
    }),
  );
  hlines(svg, spec.hlines, W, m, sy);
  stackedAreas(svg, spec.areas, sx, sy, spec.y.min);
  for (const l of spec.vlines ?? []) {
    svg.append(h("line", { x1: sx(l.x), x2: sx(l.x), y1: m.top, y2: H - m.bottom, class: l.class ?? "guide" }));
    if (l.label)
      svg.append(h("text", { ...beside(sx(l.x), 4, l.label, 11, W), y: m.top + 12, class: "guide-label" }, l.label));
  }
  for (const s of spec.series ?? []) {
    svg.append(
      h("polyline", {
        class: s.class ?? "series",
        points: s.points.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(" "),
      }),
    );
  }
  for (const p of spec.markers ?? []) {
    svg.append(h("circle", { cx: sx(p.x), cy: sy(p.y), r: 5, class: p.class ?? "marker" }));
    if (p.label)
      svg.append(
        h(
          "text",
          { ...beside(sx(p.x), 9, p.label, 12, W, sx(p.x) < W * 0.7), y: sy(p.y) - 8, class: "marker-label" },
          p.label,
        ),
      );
  }
  return described(fitted(svg, spec, lineChart, box), spec, box, lineText);
}

/**
 * The stacked bands of a line chart (see lineChart): placing each band on the ones below it is
 * where it is drawn (screen mapping); the values are the widget's.
 */
function stackedAreas(svg, areas, sx, sy, base) {
  let below = null;
  for (const a of areas ?? []) {
    const top = a.points.map(([x, y], i) => [x, (below ? below[i][1] : 0) + y]);
    const floor = below ?? a.points.map(([x]) => [x, base]);
    const px = ([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`;
    svg.append(
      h("path", { class: a.class ?? "area", d: `M${[...top.map(px), ...[...floor].reverse().map(px)].join("L")}Z` }),
    );
    below = top;
  }
}

// What every chart shares: the <svg> with its title and an axes group holding both axis lines,
// the y ticks with grid lines and labels, and the axis titles. Returns { svg, axes }.
/**
 * A bar chart's <svg> and its axes, a part kept while the layout, the y ticks and the x labels
 * ([[x px, label], …]) stay: moving one bar builds the bars alone.
 */
function frame(spec, W, H, m, sy, cls, xLabels, props = {}) {
  const yTicks = (spec.y.ticks ?? []).map((t) => [sy(t), (spec.y.format ?? String)(t)]);
  const axes = keep(["bar-axes", W, H, m, yTicks, xLabels], () => {
    const g = axesGroup(W, H, m, yTicks);
    for (const [x, label] of xLabels) g.append(h("text", { x, y: H - m.bottom + 16, "text-anchor": "middle" }, label));
    return g;
  });
  return { svg: chartSvg(spec, W, H, cls, props), axes };
}

function chartSvg(spec, W, H, cls, props = {}) {
  const svg = h("svg", { viewBox: `0 0 ${W} ${H}`, class: cls, role: "img", "aria-label": spec.title ?? "", ...props });
  if (spec.title) svg.append(h("title", {}, spec.title));
  return svg;
}

/** The axes group: both axis lines, the y ticks [[y px, label], …] with grid lines, the axis titles. */
function axesGroup(W, H, m, yTicks) {
  const axes = h("g", { class: "axes" });
  axes.append(h("line", { x1: m.left, y1: H - m.bottom, x2: W - m.right, y2: H - m.bottom }));
  axes.append(h("line", { x1: m.left, y1: m.top, x2: m.left, y2: H - m.bottom }));
  for (const [y, label] of yTicks) {
    axes.append(h("line", { x1: m.left - 4, x2: m.left, y1: y, y2: y, class: "tick" }));
    axes.append(h("line", { x1: m.left, x2: W - m.right, y1: y, y2: y, class: "grid" }));
    axes.append(h("text", { x: m.left - 7, y: y + 4, "text-anchor": "end" }, label));
  }
  // Axis titles, on the lines layout() gave them.
  m.xTitle.forEach((line, i) =>
    axes.append(
      h(
        "text",
        {
          x: (m.left + W - m.right) / 2,
          y: H - 6 - LINE * (m.xTitle.length - 1 - i),
          "text-anchor": "middle",
          class: "label",
        },
        line,
      ),
    ),
  );
  const mid = (m.top + H - m.bottom) / 2;
  m.yTitle.forEach((line, i) =>
    axes.append(
      h(
        "text",
        {
          x: 12 + LINE * i,
          y: mid,
          "text-anchor": "middle",
          class: "label",
          transform: `rotate(-90 ${12 + LINE * i} ${mid})`,
        },
        line,
      ),
    ),
  );
  return axes;
}

// Horizontal guide lines with optional labels at the right end.
function hlines(svg, lines, W, m, sy) {
  for (const l of lines ?? []) {
    svg.append(h("line", { x1: m.left, x2: W - m.right, y1: sy(l.y), y2: sy(l.y), class: l.class ?? "guide" }));
    if (l.label)
      svg.append(
        h("text", { x: W - m.right - 4, y: sy(l.y) - 5, "text-anchor": "end", class: "guide-label" }, l.label),
      );
  }
}

// Maps data coordinates to pixels (screen mapping, not the chapter's mathematics).
function scale(axis, p0, p1) {
  const f = axis.log ? Math.log10 : (v) => v;
  const a = f(axis.min),
    b = f(axis.max);
  // A degenerate axis (min = max) puts every value at its start instead of dividing by zero.
  const span = b - a || 1;
  return (v) => p0 + ((f(Math.min(Math.max(v, axis.min), axis.max)) - a) / span) * (p1 - p0);
}

// --- drawing for the width on screen -------------------------------------------------------
// A chart is laid out in CSS px at the width its box has (viewBox = its size on screen), so that
// its text stays 11 to 12 px on a phone instead of shrinking with a desktop drawing scaled down.
// At or above its design width (spec.width) it is drawn as designed and scales up with its box,
// as before. Each chart is fitted when it is first laid out and again when its box's width
// changes (a phone turned, a window resized); only the drawing is redone, from the spec it was
// given: the core is not called again.
const LINE = 14; // px from one line of a two-line axis title (12 px text) to the next
const MIN_WIDTH = 160; // px: narrower than this a chart scales down rather than lose its plot

/**
 * The drawing's width W and height H for a box `box` px wide (undefined: not yet laid out), and
 * its margins m, with the axis titles' lines as m.xTitle and m.yTitle.
 */
function layout(spec, box, W0, H0, margins) {
  const design = spec.width ?? W0,
    tall = spec.height ?? H0;
  const narrow = box > 0 && box < design;
  const W = narrow ? Math.max(Math.floor(box), MIN_WIDTH) : design;
  // A narrower chart gives up at most a fifth of its height, so its plot keeps some room.
  let H = narrow ? Math.round(tall * Math.max(0.8, W / design)) : tall;
  const m = { ...margins };
  // An axis title longer than the drawing takes two lines; the margin beside it grows by one.
  const centre = (m.left + W - m.right) / 2;
  m.xTitle = titleLines(spec.x?.label, 2 * Math.min(centre, W - centre) - 8);
  if (m.xTitle.length > 1) {
    m.bottom += LINE;
    H += LINE;
  }
  const mid = (m.top + H - m.bottom) / 2;
  m.yTitle = titleLines(spec.y?.label, 2 * Math.min(mid, H - mid) - 4);
  if (m.yTitle.length > 1) m.left += LINE;
  return { W, H, m };
}

/** A title as one line, or as two of about equal width when it is longer than `room` px. */
function titleLines(text, room) {
  if (!text) return [];
  if (textWidth(text, 12) <= room) return [text];
  const words = text.split(" ");
  let best = [text],
    widest = Infinity;
  for (let k = 1; k < words.length; k += 1) {
    const lines = [words.slice(0, k).join(" "), words.slice(k).join(" ")];
    const w = Math.max(...lines.map((l) => textWidth(l, 12)));
    if (w < widest) [best, widest] = [lines, w];
  }
  return best;
}

/**
 * Labels along an axis, as [position, text] in order: the smallest k such that every k-th label
 * clears its neighbour by 6 px (11 px text). Thinned labels keep their ticks.
 */
function everyFitting(items) {
  const w = items.map(([, text]) => textWidth(text, 11));
  for (let k = 1; k < items.length; k += 1) {
    let clear = true;
    for (let i = 0; i + k < items.length && clear; i += k)
      clear = Math.abs(items[i + k][0] - items[i][0]) >= (w[i] + w[i + k]) / 2 + 6;
    if (clear) return k;
  }
  return Math.max(items.length, 1);
}

/**
 * Where a label beside a point at x goes: right of it (the preference, `right`) or left, whichever
 * keeps the label inside the drawing's width W. Returns the text's x and text-anchor.
 */
function beside(x, gap, label, px, W, right = true) {
  const w = textWidth(label, px, 600);
  if (right && x + gap + w > W - 2 && x - gap - w >= 2) right = false;
  else if (!right && x - gap - w < 2 && x + gap + w <= W - 2) right = true;
  return right ? { x: x + gap, "text-anchor": "start" } : { x: x - gap, "text-anchor": "end" };
}

let measure, measureFont;
// Widths already measured: a figure redrawn at each input labels its axes with the same few
// texts again. Emptied when it grows past WIDTHS_KEPT.
const widths = new Map();
const WIDTHS_KEPT = 2000;
/** The width of `text` in px at `px` px (sans-serif; an estimate of 0.6 em a character without a canvas). */
function textWidth(text, px, weight = 400) {
  const key = `${weight} ${px} ${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  measure ??= globalThis.document?.createElement("canvas").getContext("2d") ?? null;
  if (!measure) return String(text).length * px * 0.6;
  const font = `${weight} ${px}px system-ui, sans-serif`;
  if (font !== measureFont) measure.font = measureFont = font; // parsed again at each write
  // 5% over the measured width: the page's own sans-serif may run a little wider.
  const width = measure.measureText(String(text)).width * 1.05;
  if (widths.size >= WIDTHS_KEPT) widths.clear();
  widths.set(key, width);
  return width;
}

const fits = new WeakMap(); // a chart's <svg> → { spec, draw, box, timer }
let resizes = null;

/** Registers a chart drawn for no box yet, so that it is fitted to its box once laid out. */
function fitted(svg, spec, draw, box) {
  if (box !== undefined || typeof ResizeObserver !== "function") return svg;
  fits.set(svg, { spec, draw, box: undefined, timer: 0 });
  resizes ??= new ResizeObserver(refit);
  whenPatched(svg, (kept) => adopt(kept, svg));
  // Observed once the drawing has gone where it goes, unless a redraw wrote it into the chart
  // already on the page (adopt()), which is observed already: observing each new drawing and
  // leaving it at once cost the observer's work at every input.
  queueMicrotask(() => {
    if (fits.has(svg)) resizes.observe(svg);
  });
  return svg;
}

/**
 * A new drawing `svg` is being written into the chart `kept` already on the page (a widget's
 * redraw, dom.js patch()): `kept` takes the new spec for its later fits, and the drawing written
 * is the one for the width `kept` was fitted to, so the chart is not drawn at its design width
 * and then again at its own in the same frame.
 */
function adopt(kept, svg) {
  const fit = fits.get(svg);
  fits.delete(svg);
  const before = fits.get(kept);
  if (!before) {
    fits.set(kept, fit);
    resizes.observe(kept);
    return svg;
  }
  // The same object, so that a refit already waiting for its 150 ms draws the new spec.
  before.spec = fit.spec;
  before.draw = fit.draw;
  // Drawn without a box, a chart has its design width; a box at least that wide draws the same.
  const design = Number(svg.getAttribute("viewBox").split(" ")[2]);
  if (!(before.box > 0) || before.box >= design) return svg;
  const next = fit.draw(fit.spec, before.box);
  for (const name of ["aria-describedby", "aria-details"])
    if (svg.hasAttribute(name)) next.setAttribute(name, svg.getAttribute(name));
  return next;
}

// The first fit is made at once, before the chart is painted; a later change of width redraws
// once the box has kept its new width for 150 ms, and the drawing scales until then.
function refit(entries) {
  for (const { target: svg, contentRect } of entries) {
    const fit = fits.get(svg);
    if (!fit || !svg.isConnected) {
      // Replaced by a newer drawing (widgets redraw on every input).
      resizes.unobserve(svg);
      continue;
    }
    if (!(contentRect.width > 0) || contentRect.width === fit.box) continue;
    clearTimeout(fit.timer);
    if (fit.box === undefined) redraw(svg, fit, contentRect.width);
    else fit.timer = setTimeout(() => svg.isConnected && redraw(svg, fit, svg.getBoundingClientRect().width), 150);
  }
}

/** Draws the chart again for a box `box` px wide, into the same <svg>. */
function redraw(svg, fit, box) {
  fit.box = box;
  const next = fit.draw(fit.spec, box);
  if (next.getAttribute("viewBox") === svg.getAttribute("viewBox")) return; // the same layout
  for (const { name, value } of next.attributes) svg.setAttribute(name, value);
  patch(svg, [...next.childNodes]);
}

/**
 * barChart({ width, height, y: {min, max, ticks, label, format}, x: {label},
 *            bars: [{ label, value, title, class, onclick }], marked, title, valueFormat })
 * Vertical bars from y.min, one per entry, labelled underneath (every label when they fit,
 * otherwise a thinned set); valueFormat, when given, writes each value above its bar; marked,
 * when given, is the index of a bar drawn again over it with the class "selected".
 */
export function barChart(spec, box) {
  const { W, H, m } = layout(spec, box, 520, 220, { left: 52, right: 14, top: 18, bottom: 42 });
  const sy = scale(spec.y, H - m.bottom, m.top);
  const bars = spec.bars ?? [];
  const slot = (W - m.left - m.right) / Math.max(bars.length, 1);
  const gap = Math.min(slot * 0.2, 6);
  // Label every k-th bar so that labels stay about 22 px apart, or further when they are wider.
  const every = Math.max(Math.ceil(22 / slot), everyFitting(bars.map((b, i) => [i * slot, b.label])));
  const xLabels = [];
  bars.forEach((b, i) => {
    if (i % every === 0 || i === bars.length - 1)
      xLabels.push([m.left + i * slot + gap / 2 + (slot - gap) / 2, b.label]);
  });
  // One listener for every bar's click, on the chart: bars without listeners of their own are
  // compared natively when the chart is drawn again, and only the ones that changed are written.
  const onclick = bars.some((b) => b.onclick)
    ? (/** @type {MouseEvent} */ e) => {
        const rect = /** @type {Element} */ (e.target).closest?.("rect.bar");
        const all = [.../** @type {Element} */ (e.currentTarget).querySelectorAll("rect.bar")];
        const i = rect ? all.indexOf(rect) : -1;
        if (i >= 0) bars[i].onclick?.(e);
      }
    : undefined;
  const { svg, axes } = frame(spec, W, H, m, sy, "chart bar-chart", xLabels, { onclick });
  const place = (b, i) => {
    const top = sy(b.value);
    return {
      x: m.left + i * slot + gap / 2,
      y: top,
      width: Math.max(slot - gap, 1),
      height: Math.max(H - m.bottom - top, 0),
    };
  };
  const values = spec.valueFormat && slot >= 34 ? bars.map((b) => spec.valueFormat(b.value)) : null;
  // The bars, a part kept while they stay: marking another bar (spec.marked) draws the mark alone.
  svg.append(
    keep(["bars", W, H, m, spec.y, bars.map((b) => [b.value, b.label, b.title, b.class]), values], () => {
      const g = h("g", { class: "bars" });
      bars.forEach((b, i) => {
        const at = place(b, i);
        g.append(
          h("rect", { ...at, class: b.class ? `bar ${b.class}` : "bar" }, b.title ? h("title", {}, b.title) : null),
        );
        if (values)
          g.append(
            h(
              "text",
              { x: at.x + (slot - gap) / 2, y: at.y - 4, "text-anchor": "middle", class: "bar-value" },
              values[i],
            ),
          );
      });
      return g;
    }),
  );
  // The marked bar, drawn again over its bar (clicks go through it to the bar).
  const marked = bars[spec.marked ?? -1];
  if (marked) svg.append(h("rect", { ...place(marked, spec.marked), class: "selected" }));
  svg.prepend(axes);
  return described(fitted(svg, spec, barChart, box), spec, box, barText);
}

/**
 * meterChart({ width, height, max, parts: [{ label, value, class }], limit: { value, label },
 *              format, title, x: { label, name }, describe })
 * One horizontal bar of `parts` laid end to end from 0 (weights, then a cache) on a scale from 0
 * to `max`, with a line at `limit` (the memory it must fit in) and each part's value written
 * below the bar when it has room. Drawing only: every value arrives computed.
 */
export function meterChart(spec, box) {
  const { W, H, m } = layout(spec, box, 520, 92, { left: 12, right: 16, top: 24, bottom: 34 });
  const sx = scale({ min: 0, max: spec.max }, m.left, W - m.right);
  const svg = chartSvg(spec, W, H, "chart meter-chart");
  const fmtV = spec.format ?? String;
  const barTop = m.top,
    barH = Math.max(H - m.top - m.bottom, 12);
  svg.append(h("rect", { x: m.left, y: barTop, width: W - m.left - m.right, height: barH, class: "meter-track" }));
  let at = 0;
  const labels = [];
  for (const p of spec.parts ?? []) {
    // Where a part starts is where the one before it ends (screen mapping).
    const x0 = sx(at),
      x1 = sx(at + p.value);
    svg.append(
      h(
        "rect",
        { x: x0.toFixed(1), y: barTop, width: Math.max(x1 - x0, 0).toFixed(1), height: barH, class: p.class ?? "bar" },
        h("title", {}, `${p.label}: ${fmtV(p.value)}`),
      ),
    );
    labels.push([x0, x1, p]);
    at += p.value;
  }
  // Each part's name under it, where it is wide enough; the description says them all.
  for (const [x0, x1, p] of labels) {
    const text = p.label;
    if (x1 - x0 >= textWidth(text, 11) + 6)
      svg.append(
        h(
          "text",
          { x: ((x0 + x1) / 2).toFixed(1), y: barTop + barH + 14, "text-anchor": "middle", class: "meter-label" },
          text,
        ),
      );
  }
  if (spec.limit) {
    const x = sx(spec.limit.value);
    svg.append(h("line", { x1: x, x2: x, y1: barTop - 8, y2: barTop + barH + 4, class: "guide meter-limit" }));
    if (spec.limit.label)
      svg.append(
        h(
          "text",
          { ...beside(x, 4, spec.limit.label, 11, W, false), y: barTop - 10, class: "guide-label" },
          spec.limit.label,
        ),
      );
  }
  return described(fitted(svg, spec, meterChart, box), spec, box, meterText);
}

/** A meter in words (each part, then the limit) and as a table (a row each). */
function meterText(spec) {
  const f = spec.format ?? String;
  const parts = spec.parts ?? [];
  const rows = parts.map((p) => [p.label, f(p.value)]);
  if (spec.limit) rows.push([spec.limit.label ?? "limit", f(spec.limit.value)]);
  return {
    sentences: [
      `${parts.map((p) => `${p.label} ${f(p.value)}`).join(", ")}${spec.limit ? `, against ${spec.limit.label ?? "a limit"} of ${f(spec.limit.value)}` : ""}.`,
    ],
    caption: spec.title ?? "",
    columns: [spec.x?.name ?? "part", spec.y?.name ?? "bytes"],
    rows,
  };
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
  // limits as exact decimals, like the ticks (0.6, not 0.6000000000000001)
  const min = Number((Math.floor(lo / step) * step).toPrecision(12));
  const max = Number((Math.ceil(hi / step) * step).toPrecision(12));
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
export function groupedBarChart(spec, box) {
  const { W, H, m } = layout(spec, box, 520, 260, { left: 52, right: 14, top: 14, bottom: 42 });
  const sy = scale(spec.y, H - m.bottom, m.top);
  const fmtY = spec.y.format ?? String;
  const groups = spec.categories.length,
    perGroup = Math.max(1, spec.series.length);
  const band = (W - m.left - m.right) / groups;
  const barW = (band * 0.76) / perGroup;
  const bars = h("g", { class: "bars" });
  const every = everyFitting(spec.categories.map((cat, c) => [band * c, cat]));
  const xLabels = spec.categories.flatMap((cat, c) => (c % every === 0 ? [[m.left + band * (c + 0.5), cat]] : []));
  const { svg, axes } = frame(spec, W, H, m, sy, "chart bar-chart", xLabels);
  spec.categories.forEach((cat, c) => {
    const x0 = m.left + band * c + band * 0.12;
    spec.series.forEach((s, k) => {
      const v = s.values[c];
      const top = sy(v),
        base = sy(spec.y.min);
      bars.append(
        h(
          "rect",
          {
            x: (x0 + barW * k).toFixed(1),
            y: Math.min(top, base).toFixed(1),
            width: Math.max(barW - 1.5, 1).toFixed(1),
            height: Math.abs(base - top).toFixed(1),
            class: s.class ?? "bar",
          },
          h("title", {}, `${s.label ? s.label + ", " : ""}${cat}: ${fmtY(v)}`),
        ),
      );
    });
  });
  svg.append(axes, bars);
  hlines(svg, spec.hlines, W, m, sy);
  return described(fitted(svg, spec, groupedBarChart, box), spec, box, groupedText);
}

/** A legend for a chart: legend([{ label, class }]) → a list of swatches whose class matches the series'. */
export function legend(items) {
  return h(
    "ul",
    { class: "chart-legend" },
    items.map((it) => h("li", {}, h("span", { class: `swatch ${it.class ?? ""}`, "aria-hidden": "true" }), it.label)),
  );
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

// --- the axes several figures share -----------------------------------------------------------
// Where to draw, not what a figure computes: each gives lineChart's x or y ({ min, max, log,
// ticks, format }, and for tokens the label and the words of a value).

/**
 * A logarithmic axis over whole powers of `base` (10 or 2) from lo to hi, with at most six
 * ticks, a power apart or more; a bound at or below 0 counts as base⁰ (lo) or base¹ (hi).
 * `format` writes a tick, by default as the power: 10⁴, 2¹⁰.
 * @param {number} lo
 * @param {number} hi
 * @param {{ base?: 2 | 10, format?: (t: number) => string }} [options]
 */
export function logAxis(lo, hi, { base = 10, format } = {}) {
  const log = base === 2 ? Math.log2 : Math.log10;
  const a = Math.floor(log(lo > 0 ? lo : 1)),
    b = Math.max(Math.ceil(log(hi > 0 ? hi : base)), a + 1);
  const every = Math.max(1, Math.ceil((b - a) / 6));
  const ticks = [];
  for (let k = a; k <= b; k += every) ticks.push(base ** k);
  return {
    min: base ** a,
    max: base ** b,
    log: true,
    ticks,
    format: format ?? ((t) => `${base}${superscript(Math.round(log(t)))}`),
  };
}

/** Token counts at an axis's ticks: 1024 → "1K", 1048576 → "1M". */
export function fmtTokens(t) {
  if (t >= 2 ** 20) return `${t / 2 ** 20}M`;
  if (t >= 2 ** 10) return `${t / 2 ** 10}K`;
  return String(t);
}

/**
 * The tokens axis of the cost figures: 1 to `max` tokens, logarithmic, ticks at powers of two
 * `every` doublings apart (by default so that there are at most seven), labelled 1K, 1M.
 * @param {number} max
 * @param {{ every?: number, label?: string, name?: string }} [options]
 */
export function tokensAxis(max, { every, label = "tokens (log scale)", name = "tokens" } = {}) {
  const top = Math.floor(Math.log2(max));
  const step = every ?? Math.max(1, Math.ceil(top / 6));
  const ticks = [];
  for (let k = 0; k <= top; k += step) ticks.push(2 ** k);
  return { min: 1, max, log: true, ticks, format: fmtTokens, label, name, valueFormat: (t) => fmtCount(t) };
}

// --- what a screen reader gets ---------------------------------------------------------------
// Every chart is an image (role="img") named by its title and described, in words with the
// current numbers, by a hidden paragraph (aria-describedby): the value of each series at the x
// axis's ticks (or each bar's), then `describe`, the widget's own sentence about what is marked.
// Its data follow it as a visually hidden table (aria-details) with a caption and headers. Both
// are made again with every drawing the widget asks for; a chart redrawn for the width of its
// box (fitted, above) keeps the ones it has, which its spec gave.
//
// Options, in every chart's spec: describe (text: the current point, in a sentence), data
// ({ caption, columns, rows } to replace the table made from the series or bars); x.name and
// y.name (short column headers, else the axis labels); x.valueFormat, y.valueFormat (how a value
// is written in the description and table; else x.format for x, and two significant digits, as
// the eye reads a chart, for y); series[i].label (a line's or a group's name).
const MAX_ROWS = 41; // table rows of a line chart: every k-th point beyond, as a reader can take in

/**
 * The chart `svg` as the widgets receive it: with its description and data table after it (a
 * fragment of three), or alone when it is redrawn for a box `box` px wide.
 */
function described(svg, spec, box, text) {
  if (box !== undefined) return svg;
  const { sentences, caption, columns, rows } = text(spec);
  const id = uniqueId("chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", spec.title ?? "");
  svg.setAttribute("aria-describedby", `${id}-description`);
  svg.setAttribute("aria-details", `${id}-data`);
  const data = spec.data ?? { caption, columns, rows };
  const fragment = document.createDocumentFragment();
  fragment.append(
    h(
      "p",
      { id: `${id}-description`, class: "chart-description", hidden: true },
      [...sentences, spec.describe].filter(Boolean).map(capitalised).join(" "),
    ),
    h(
      "div",
      { class: "chart-data visually-hidden" },
      h(
        "table",
        { id: `${id}-data` },
        h("caption", {}, data.caption ?? spec.title ?? ""),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            data.columns.map((c) => h("th", { scope: "col" }, c)),
          ),
        ),
        // The rows, as the curve, change less often than what is marked on it.
        keep(["chart-rows", data.rows], () =>
          h(
            "tbody",
            {},
            data.rows.map(([head, ...cells]) =>
              h(
                "tr",
                {},
                h("th", { scope: "row" }, head),
                cells.map((c) => h("td", {}, c)),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  fragment.prepend(svg);
  return fragment;
}

/** A sentence starting with a word gets its capital; one starting with a symbol (f, p, α) keeps it. */
const capitalised = (t) => (/^[a-z]{2}/.test(t) ? t[0].toUpperCase() + t.slice(1) : t);

/** A value as read off a chart: two significant digits (the figure's readouts give it exactly). */
function approx(v) {
  if (!Number.isFinite(v) || v === 0) return fmt(v);
  const r = Number(v.toPrecision(2));
  return Math.abs(r) >= 1000 ? fmtCount(r, 6) : fmt(r, 12);
}

const ordinal = (k) => `${k}${[11, 12, 13].includes(k % 100) ? "th" : (["th", "st", "nd", "rd"][k % 10] ?? "th")}`;
const axisName = (axis, otherwise = "") => axis?.name ?? axis?.label ?? otherwise;
const marked = (spec) =>
  [...(spec.markers ?? []), ...(spec.vlines ?? []), ...(spec.hlines ?? [])].map((m) => m.label).filter(Boolean);

/** A line chart in words (each series at the x ticks) and as a table (its points, thinned to MAX_ROWS). */
function lineText(spec) {
  const fx = spec.x.valueFormat ?? spec.x.format ?? approx,
    fy = spec.y.valueFormat ?? approx;
  const series = [...(spec.areas ?? []), ...(spec.series ?? [])].filter((s) => s.points.length);
  const named = (s) => s.label ?? spec.y.name ?? spec.y.label ?? "value";
  const ticks = new Set(spec.x.ticks ?? []);
  const sentences = series.map((s) => {
    let at = s.points.filter(([x]) => ticks.has(x));
    if (at.length < 2) at = [s.points[0], s.points[s.points.length - 1]];
    return `${named(s)}, by ${axisName(spec.x, "x")}: ${at.map(([x, y]) => `${fy(y)} at ${fx(x)}`).join(", ")}.`;
  });
  if (!spec.describe && marked(spec).length) sentences.push(`Marked: ${marked(spec).join("; ")}.`);
  const first = series[0]?.points ?? [];
  const k = Math.ceil(first.length / (MAX_ROWS - 1)) || 1;
  const xs = first.filter((_, i) => i % k === 0 || i === first.length - 1).map(([x]) => x);
  const lookup = series.map((s) => new Map(s.points.map(([x, y]) => [x, y])));
  return {
    sentences,
    caption: `${spec.title ?? ""}${k > 1 ? ` (every ${ordinal(k)} of ${first.length} points)` : ""}`,
    columns: [axisName(spec.x, "x"), ...series.map(named)],
    rows: xs.map((x) => [fx(x), ...lookup.map((m) => (m.has(x) ? fy(m.get(x)) : "—"))]),
  };
}

/** A bar chart in words (each bar, or the first and last of many) and as a table (every bar). */
function barText(spec) {
  const fy = spec.y.valueFormat ?? spec.valueFormat ?? approx;
  const bars = spec.bars ?? [];
  const items = bars.map((b) => `${fy(b.value)} for ${b.label}`);
  const listed = items.length <= 12 ? items.join(", ") : `from ${items[0]} to ${items[items.length - 1]}`;
  return {
    sentences: bars.length ? [`${axisName(spec.y, "value")}, by ${axisName(spec.x, "bar")}: ${listed}.`] : [],
    caption: spec.title ?? "",
    columns: [axisName(spec.x, "bar"), axisName(spec.y, "value")],
    rows: bars.map((b) => [b.label, fy(b.value)]),
  };
}

/** A grouped bar chart in words (each series over the categories) and as a table (a row per category). */
function groupedText(spec) {
  const fy = spec.y.valueFormat ?? approx;
  const sentences = spec.series.map(
    (s) =>
      `${s.label ?? axisName(spec.y, "value")}: ${spec.categories.map((c, i) => `${fy(s.values[i])} for ${c}`).join(", ")}.`,
  );
  if (!spec.describe && marked(spec).length) sentences.push(`Marked: ${marked(spec).join("; ")}.`);
  return {
    sentences,
    caption: spec.title ?? "",
    columns: [axisName(spec.x, "category"), ...spec.series.map((s) => s.label ?? axisName(spec.y, "value"))],
    rows: spec.categories.map((c, i) => [c, ...spec.series.map((s) => fy(s.values[i]))]),
  };
}
