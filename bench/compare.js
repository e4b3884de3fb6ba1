// The end of ./build.sh bench: one markdown table of every figure in bench/results.json
// (bench/page.js's and bench/api.js's), median and p95 beside its budget, and beside the same
// figure of the stored baseline, bench/baseline.json, flagging what got worse by more than the
// noise this run and the baseline's measured. Printed, and written to bench/results.md (to paste
// into the README). A benchmark, not a test: it never fails on a figure, only when there are no
// results to read.
//
//   node bench/compare.js           the table, against bench/baseline.json when there is one
//   node bench/compare.js --save    also makes this run's results the baseline (commit it)
//
// The rule for "worse" (every figure here is better lower): the median grew by more than the
// noise, where the noise of a figure is the larger of its two runs' spreads, p95 − median. The
// spread is what the figure's own samples say about how much it moves from one timing to the
// next on that machine at that moment: a change within it is not told apart from a busier
// machine. Figures measured once (bytes, heap) have no spread: any growth is flagged, as they
// do not move between runs of the same build. Counts (missed frames) vary like Poisson counts:
// their noise is √(baseline + new), the standard deviation of the difference of two counts.
// Which statistic meets the budget: p95 where the budget names it (input-to-DOM), else the median.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const resultsFile = path.join(__dirname, "results.json");
const baselineFile = path.join(__dirname, "baseline.json");
const tableFile = path.join(__dirname, "results.md");

// The budgets (reported, never failing): issue 10's, and issue 22's load ratios (each to the
// first contentful paint of the chapter without its figures, measured in the same run) and
// Lighthouse's scores on a phone (higher is better: each a least score). The API's are in its
// results (bench/cases.js).
const BUDGET = {
  fcpRatio: 1.1,
  firstScreenRatio: 1.5,
  deepLinkRatio: 2,
  lighthouse: { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 },
  inputToDomP95: 4,
  missedFrames: 0,
  readerGzip: 350 * 1000,
  heapGrowth: 0,
};

/**
 * The figures of one results object, in table order: { key, label, kind, median, p95, budget,
 * judged ("median" or "p95"), unit }. kind: "time" (samples with a spread), "once" (a single
 * value), "count"; unit: "ms", "bytes", "ratio", "count".
 */
function figures(r) {
  const out = [];
  const add = (f) => out.push({ judged: "median", ...f });
  if (r.bytes) {
    for (const [file, b] of Object.entries(r.bytes)) {
      const total = file.startsWith("reader (");
      add({
        key: `bytes.${file}.raw`,
        label: `bytes, ${file}, raw`,
        kind: "once",
        unit: "bytes",
        median: b.raw,
        p95: b.raw,
      });
      add({
        key: `bytes.${file}.gzip`,
        label: `bytes, ${file}, gzip`,
        kind: "once",
        unit: "bytes",
        median: b.gzip,
        p95: b.gzip,
        budget: total ? BUDGET.readerGzip : undefined,
      });
    }
  }
  if (r.floor) {
    add({
      key: "floor.fcp",
      label: `floor: a page of one paragraph, cold (${r.floor.fcp.n} runs): first contentful paint`,
      kind: "time",
      unit: "ms",
      ...pick(r.floor.fcp),
    });
  }
  if (r.withoutFigures) {
    const w = r.withoutFigures;
    add({
      key: "withoutFigures.fcp",
      label: `the chapter without its figures (reader.html without its scripts), cold (${w.fcp.n} runs): first contentful paint`,
      kind: "time",
      unit: "ms",
      ...pick(w.fcp),
    });
    add({
      key: "withoutFigures.domContentLoaded",
      label: "the chapter without its figures: DOMContentLoaded (the text read and laid out)",
      kind: "time",
      unit: "ms",
      ...pick(w.domContentLoaded),
    });
  }
  if (r.load) {
    const l = r.load;
    const runs = `${l.fcp.n} run${l.fcp.n === 1 ? "" : "s"}`;
    add({
      key: "cold load.fcp",
      label: `cold load (${runs}): first contentful paint`,
      kind: "time",
      unit: "ms",
      ...pick(l.fcp),
    });
    add({
      key: "cold load.firstScreenShown",
      label:
        "cold load: data-first-screen-shown (the first screen's figures on it, drawn at build time or by their script)",
      kind: "time",
      unit: "ms",
      ...pick(l.firstScreenShown),
    });
    add({
      key: "cold load.firstScreenPainted",
      label: "cold load: the first screen painted with its figures' drawings (the frame after each was shown)",
      kind: "time",
      unit: "ms",
      ...pick(l.firstScreenPainted),
    });
    add({
      key: "cold load.firstScreen",
      label: "cold load: data-first-screen (the first screen's figures drawn by their script)",
      kind: "time",
      unit: "ms",
      ...pick(l.firstScreen),
    });
    add({
      key: "cold load.ready",
      label: "cold load: data-ready, every figure asked to draw at the first screen (as a print does)",
      kind: "time",
      unit: "ms",
      ...pick(l.ready),
    });
  }
  if (r.deepLink) {
    const d = r.deepLink;
    add({
      key: "deep link #quantization.fcp",
      label: "deep link #quantization: first contentful paint",
      kind: "time",
      unit: "ms",
      ...pick(d.fcp),
    });
    add({
      key: "deep link #quantization.shown",
      label: "deep link #quantization: its figure on the screen",
      kind: "time",
      unit: "ms",
      ...pick(d.shown),
    });
    add({
      key: "deep link #quantization.painted",
      label: "deep link #quantization: its figure painted (the frame after it was shown)",
      kind: "time",
      unit: "ms",
      ...pick(d.painted),
    });
    add({
      key: "deep link #quantization.target",
      label: "deep link #quantization: its figure drawn by its script",
      kind: "time",
      unit: "ms",
      ...pick(d.target),
    });
  }
  if (r.ratios) {
    // Read against the budget: the ratio of interquartile means (bench/page.js ratios()), with its
    // 95 % interval and the ratio of medians beside it (a baseline measured before gives only the
    // ratio of medians, and the median of the rounds' ratios).
    for (const [k, what, budget] of [
      ["fcp", "first contentful paint", BUDGET.fcpRatio],
      ["firstScreenShown", "first screen shown", BUDGET.firstScreenRatio],
      ["deepLinkShown", "#quantization's figure shown", BUDGET.deepLinkRatio],
      ["firstScreenPainted", "first screen painted with its drawings", undefined],
      ["deepLinkPainted", "#quantization's figure painted", undefined],
      ["firstScreen", "first screen drawn by its script", undefined],
      ["deepLinkTarget", "#quantization's figure drawn by its script", undefined],
    ]) {
      const q = r.ratios[k];
      if (!q) continue;
      const value = q.ofInterquartileMeans ?? q.ofMedians;
      const how =
        q.ofInterquartileMeans === undefined
          ? `ratio of medians; paired: ${q.pairedMedian.toFixed(2)}×`
          : `ratio of interquartile means${q.rounds ? ` over ${q.rounds} rounds` : ""}, 95 % interval ${q.interval.map((v) => v.toFixed(2)).join(" to ")}; of medians: ${q.ofMedians.toFixed(2)}×`;
      add({
        key: `ratios.${k}`,
        label: `${what} / the text alone's first contentful paint (${how})`,
        kind: "once",
        unit: "ratio",
        median: value,
        p95: value,
        budget,
      });
    }
  }
  if (r.lighthouse) {
    const lh = r.lighthouse;
    for (const [c, least] of Object.entries(BUDGET.lighthouse)) {
      const s = lh.scores[c];
      add({
        key: `lighthouse.${c}`,
        label: `Lighthouse ${lh.version} on a phone, ${lh.page} served by nginx (${lh.runs} runs): ${c} (lowest ${s.min})`,
        kind: "once",
        unit: "score",
        median: s.median,
        p95: s.median,
        least,
      });
    }
    const m = lh.metrics;
    add({
      key: "lighthouse.tbt",
      label: "Lighthouse: total blocking time",
      kind: "once",
      unit: "ms",
      median: m.tbt,
      p95: m.tbt,
    });
    add({
      key: "lighthouse.lcp",
      label: "Lighthouse: largest contentful paint (simulated)",
      kind: "once",
      unit: "ms",
      median: m.lcp,
      p95: m.lcp,
    });
    add({
      key: "lighthouse.cls",
      label: "Lighthouse: cumulative layout shift",
      kind: "once",
      unit: "shift",
      median: m.cls,
      p95: m.cls,
    });
  }
  if (r.mainThread) {
    const m = r.mainThread;
    add({
      key: "mainThread.window",
      label: `cold load, traced (${m.window.n} runs): navigation to data-first-screen`,
      kind: "time",
      unit: "ms",
      ...pick(m.window),
    });
    add({
      key: "mainThread.busy",
      label: "cold load, traced: the renderer's main thread busy in that time",
      kind: "time",
      unit: "ms",
      ...pick(m.busy),
    });
    for (const [kind, s] of Object.entries(m.kinds)) {
      add({
        key: `mainThread.${kind}`,
        label: `cold load, traced: of the busy time, ${kind === "other" ? "other (tasks' own time the trace does not name)" : kind}`,
        kind: "time",
        unit: "ms",
        ...pick(s),
      });
    }
  }
  if (r.inputs) {
    for (const [id, w] of Object.entries(r.inputs.widgets)) {
      const n = w.inputToDom.n;
      const errors = w.pageErrors ? `, ${w.pageErrors} page errors` : "";
      add({
        key: `inputs.${id}.dom`,
        label: `${id} (${n} inputs, ${w.controls} controls${errors}): input-to-DOM`,
        kind: "time",
        unit: "ms",
        ...pick(w.inputToDom),
        budget: BUDGET.inputToDomP95,
        judged: "p95",
      });
      add({
        key: `inputs.${id}.frame`,
        label: `${id}: input-to-next-frame`,
        kind: "time",
        unit: "ms",
        ...pick(w.inputToFrame),
      });
      add({
        key: `inputs.${id}.missed`,
        label: `${id}: inputs that missed the next frame (frame ${r.inputs.frameMs.toFixed(1)} ms)`,
        kind: "count",
        unit: "count",
        median: w.missedFrames,
        p95: w.missedFrames,
        budget: BUDGET.missedFrames,
      });
    }
  }
  if (r.heap) {
    const h = r.heap;
    const growth = (k) => (h.afterInputs[k] ?? NaN) - (h.afterLoad[k] ?? NaN);
    const heapRow = (k, what, budget) => {
      add({
        key: `heap.${k}`,
        label: `${what} after load`,
        kind: "once",
        unit: "bytes",
        median: h.afterLoad[k],
        p95: h.afterLoad[k],
      });
      add({
        key: `heap.${k}.growth`,
        label: `${what}: growth after ${h.inputs} inputs over ${h.widgets} widgets${h.errors ? ` (${h.errors} page errors)` : ""}`,
        kind: "once",
        unit: "bytes",
        median: growth(k),
        p95: growth(k),
        budget,
      });
    };
    heapRow("bytesInUse", "wasm heap in use", BUDGET.heapGrowth);
    heapRow("memoryBytes", "wasm memory", BUDGET.heapGrowth);
    heapRow("jsHeapBytes", "JavaScript heap (after GC)", undefined);
    if (h.steady) {
      // Growth over the second run of inputs, against the noise of its readings: the largest
      // move between two consecutive ones (a heap after GC still moves by tens of kB).
      const rs = h.steady.readings;
      const growth = rs[rs.length - 1] - rs[0];
      const noise = Math.max(...rs.slice(1).map((x, i) => Math.abs(x - rs[i])));
      add({
        key: "heap.jsHeapBytes.steady",
        label: `JavaScript heap (after GC): growth over ${h.steady.inputs} inputs more, once warm (read ${rs.length} times; noise: the largest move between two readings, ${value(noise, "bytes")})`,
        kind: "once",
        unit: "bytes",
        median: growth,
        p95: growth,
        budget: BUDGET.heapGrowth,
        tolerance: noise,
      });
    }
  }
  if (r.api) {
    for (const [name, c] of Object.entries(r.api.cases)) {
      const size = c.size === "widget" ? "widget size" : "large";
      const core = c.coreMs ? `, the wasm core alone ${time(c.coreMs.median)}` : "";
      add({
        key: `api.${name}.ratio`,
        label: `API / native, ${name} (${size}: ${c.what}; native ${time(c.nativeMs.median)}${core}, API ${time(c.apiMs.median)} per call)`,
        kind: "time",
        unit: "ratio",
        ...pick(c.ratio),
        budget: c.budget ?? undefined,
        bound: c.bound?.median,
      });
      if (c.ratioFloat64) {
        add({
          key: `api.${name}.ratioFloat64`,
          label: `API / native, ${name}, Float64Array (API ${time(c.apiFloat64Ms.median)} per call)`,
          kind: "time",
          unit: "ratio",
          ...pick(c.ratioFloat64),
          budget: c.budget ?? undefined,
          bound: c.bound?.median,
        });
      }
      if (c.bound) {
        add({
          key: `api.${name}.bound`,
          label: `bound, ${name}: (the wasm core alone + a copy of the result, ${time(c.resultCopyMs.median)}) / native, the least any boundary could give`,
          kind: "time",
          unit: "ratio",
          ...pick(c.bound),
        });
      }
    }
  }
  return out;
}

const pick = (s) => ({ median: s?.median, p95: s?.p95 }); // a figure a run (an older baseline) lacks reads "?"

/** A time in milliseconds, with the unit that keeps it readable. */
function time(ms) {
  if (!Number.isFinite(ms)) return "?";
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(ms >= 0.1 ? 0 : ms >= 0.01 ? 1 : 2)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

function value(x, unit) {
  if (x === undefined || x === null || Number.isNaN(x)) return "?";
  if (unit === "ms") return time(x);
  if (unit === "ratio") return `${x.toFixed(2)}×`;
  if (unit === "bytes") return Math.abs(x) >= 10000 ? `${(x / 1000).toFixed(1)} kB` : `${x} B`;
  if (unit === "shift") return x.toFixed(3);
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/**
 * "ok" or "over" against the budget (on the statistic it names), "" without one. An API figure
 * over its budget whose bound (the wasm core alone and the result's copy) is over it too says
 * so: no boundary could meet that budget with this build of the core.
 */
function judge(f) {
  if (f.least !== undefined) return !Number.isFinite(f.median) ? "?" : f.median >= f.least ? "ok" : "**under**";
  if (f.budget === undefined) return "";
  const x = f.judged === "p95" ? f.p95 : f.median;
  if (!Number.isFinite(x)) return "?";
  if (x <= f.budget) return "ok";
  if (f.tolerance !== undefined && x <= f.budget + f.tolerance) return "ok, within noise";
  return f.bound > f.budget ? `**over**; bound ${f.bound.toFixed(2)}× over too` : "**over**";
}

function budgetText(f) {
  if (f.least !== undefined) return `≥ ${f.least}`;
  if (f.budget === undefined) return "";
  const stat = f.judged === "p95" ? "p95 " : "";
  if (f.unit === "ratio") return `${stat}≤ ${f.budget}×`;
  if (f.unit === "ms") return `${stat}≤ ${f.budget} ms`;
  if (f.unit === "bytes") return f.budget === 0 ? "0" : `≤ ${f.budget / 1000} kB`;
  return `${stat}≤ ${f.budget}`;
}

/** The change against the baseline's figure, and whether it is worse beyond the noise. */
function change(now, base) {
  if (!base || !Number.isFinite(base.median) || !Number.isFinite(now.median))
    return { text: base ? "?" : "new", worse: false };
  // a score is better higher: it is worse when it fell
  const delta = now.unit === "score" ? base.median - now.median : now.median - base.median;
  let noise;
  if (now.kind === "time") noise = Math.max(now.p95 - now.median, base.p95 - base.median);
  else if (now.kind === "count") noise = Math.sqrt(now.median + base.median);
  else noise = 0;
  const worse = delta > noise;
  // shown as it moved (a score that fell reads −)
  const moved = now.median - base.median;
  const p = Math.abs((100 * moved) / base.median);
  const pct = base.median !== 0 ? ` (${moved >= 0 ? "+" : "−"}${p.toFixed(p < 1 ? 2 : 0)}%)` : "";
  const sign = moved >= 0 ? "+" : "−";
  const text = moved === 0 ? "same" : `${sign}${value(Math.abs(moved), now.unit)}${pct}`;
  return {
    text: worse
      ? `**worse**: ${text}, noise ${value(noise, now.unit)}`
      : delta > 0
        ? `${text}, within noise ${value(noise, now.unit)}`
        : text,
    worse,
  };
}

function machineLine(r) {
  const m = r.machine ?? {};
  return (
    `${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, ${m.os ?? ""}; Node ${m.node}, Chromium ${m.chromium ?? "?"}; ` +
    `load average at start ${m.loadAverage?.join(", ") ?? "?"}`
  );
}

function table(results, baseline) {
  const lines = [];
  const counts = (r) =>
    `${r.runs} cold loads, ${r.inputsPerWidget} inputs per widget, ${r.heap?.inputs} heap inputs` +
    (r.api
      ? `; API ${Object.entries(r.api.rounds)
          .map(([size, n]) => `${n} rounds ${size === "widget" ? "at widget size" : size}`)
          .join(", ")}`
      : "");
  lines.push(`Benchmark of ${results.date}: ${counts(results)}.`, "");
  lines.push(`Machine: ${machineLine(results)}.`, "");
  if (baseline) {
    lines.push(`Baseline: ${baseline.date} (${counts(baseline)}), machine: ${machineLine(baseline)}.`);
    if (
      JSON.stringify([baseline.machine?.cpus, baseline.machine?.model, baseline.machine?.chromium]) !==
      JSON.stringify([results.machine?.cpus, results.machine?.model, results.machine?.chromium])
    ) {
      lines.push("", "The baseline ran on another machine or browser: its figures compare only roughly.");
    }
    lines.push("");
  } else {
    lines.push("No baseline (bench/baseline.json): `node bench/compare.js --save` makes this run the baseline.", "");
  }
  lines.push(
    'Budget judged on the median unless it says p95. "worse": the median grew by more than the noise (bench/compare.js).',
    "",
  );
  const base = new Map((baseline ? figures(baseline) : []).map((f) => [f.key, f]));
  lines.push("| figure | median | p95 | budget | | baseline | change |", "|---|---:|---:|---|---|---:|---|");
  let worse = 0,
    over = 0;
  for (const f of figures(results)) {
    const b = base.get(f.key);
    const c = change(f, b);
    worse += c.worse;
    const j = judge(f);
    over += j.includes("over");
    const p95 = f.kind === "time" ? value(f.p95, f.unit) : "";
    lines.push(
      `| ${f.label} | ${value(f.median, f.unit)} | ${p95} | ${budgetText(f)} | ${j} | ${b ? value(b.median, b.unit) : ""} | ${baseline ? c.text : ""} |`,
    );
  }
  lines.push(
    "",
    `${over} figures over budget${baseline ? `, ${worse} worse than the baseline beyond the noise` : ""}.`,
  );
  return lines.join("\n");
}

let results;
try {
  results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
} catch (error) {
  console.error(`bench/compare.js: no results to read (${error.message}); run bench/page.js and bench/api.js first`);
  process.exit(1);
}
let baseline = null;
if (fs.existsSync(baselineFile)) baseline = JSON.parse(fs.readFileSync(baselineFile, "utf8"));
const text = table(results, baseline);
fs.writeFileSync(tableFile, `${text}\n`);
console.log(text);
console.log(`\n(written to ${path.relative(process.cwd(), tableFile)})`);
if (process.argv.includes("--save")) {
  fs.writeFileSync(baselineFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`This run is now the baseline: ${path.relative(process.cwd(), baselineFile)} (commit it).`);
}
