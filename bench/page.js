// Benchmark of the pages as readers load and use them (a benchmark, not a test: it reports
// figures and never fails on them). Headless Chromium from file://, each load in a fresh
// context (cold), median and p95 of each figure:
//   - bytes, raw and gzip, of every file a page loads (those present in dist/);
//   - the floor: first contentful paint of a one-paragraph page over RUNS cold loads;
//   - issue 22's load figures, RUNS rounds of three cold loads in turn: the chapter without its
//     figures (reader.html with the widgets' script and reader.js taken out: first contentful
//     paint, DOMContentLoaded), the reader (first contentful paint, data-first-screen, and
//     data-ready once every figure is asked to draw, as a print does) and a deep link
//     (reader.html#quantization: its figure drawn); each of the reader's as a ratio to the text
//     alone's first contentful paint;
//   - the renderer's main thread over TRACED cold loads of reader.html, traced: how much of the
//     time until data-first-screen it was busy, and with what (layout, style, script, its compilation,
//     parsing, paint, garbage collection, loading files);
//   - per widget, input-to-DOM (the handler's synchronous work: the input event until the
//     figure has redrawn, which it does before the event returns) and input-to-next-frame
//     (until the next animation frame after it) over INPUTS inputs spread across all its
//     controls (sliders, number fields, lists, checkboxes), and how many of those inputs
//     missed the next frame;
//   - the wasm heap (memoryStats() of the page's one core) and the JavaScript heap after a
//     garbage collection, right after load and after HEAP_INPUTS inputs spread over every
//     widget: the memory a reader's session keeps; then the JavaScript heap over HEAP_INPUTS
//     inputs more, read STEADY_READINGS times: whether it still grows once warm.
// Writes bench/results.json (bench/api.js adds its figures to it) and prints a short table;
// bench/compare.js prints the full one.
//   node bench/page.js [runs=80] [inputs=200] [heapInputs=10000]
// 80 runs: one cold load's first paint spreads from about 45 to 190 ms on the two-core machine the
// figures come from, and the median of 10 moved by a sixth from run to run, as much as issue 22's
// load budgets leave; over 40 rounds the first paint's ratio (ratios()) still moved from 1.07 to
// 1.17 between runs of one build, its 95 % interval 0.3 wide: 80 narrow it by about √2.
//   LLMMATH_DIST=… to measure another built copy of dist/
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { asset, drawAll, dist, CHROMIUM, FLAGS } = require("../tests/browser/browser.js");
const { readerWithoutScripts } = require("../tests/browser/in-page.js");

const RUNS = Number(process.argv[2] ?? 80);
const INPUTS = Number(process.argv[3] ?? 200);
const HEAP_INPUTS = Number(process.argv[4] ?? 10000);
const STEADY_READINGS = 4;
const TRACED = 3;
const VIEWPORT = { width: 1280, height: 900 };

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const summary = (xs) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });

function bytes() {
  const files = [
    "reader.html",
    "reader.css",
    "reader-head.js",
    "reader.js",
    "llmmath-widgets.js",
    "chapter-math.woff2",
    "llmmath.js",
    "embed.html",
    "reader-standalone.html",
  ];
  // what the pages load is in assets/, under names with a hash (site/build.mjs)
  const hashed = new Set(["reader.css", "reader-head.js", "reader.js", "chapter-math.woff2"]);
  const out = {};
  for (const f of files) {
    const file = path.join(dist, hashed.has(f) ? asset(f) : f);
    if (!fs.existsSync(file)) continue;
    const data = fs.readFileSync(file);
    out[f] = { raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
  }
  // What the reader loads: the page, its style sheet and script, and the script embed (which
  // carries the core), and the formulas' font; llmmath.js alone is for other pages.
  const reader = [
    "reader.html",
    "reader.css",
    "reader-head.js",
    "reader.js",
    "llmmath-widgets.js",
    "chapter-math.woff2",
  ].filter((f) => out[f]);
  out["reader (all it loads)"] = {
    raw: reader.reduce((s, f) => s + out[f].raw, 0),
    gzip: reader.reduce((s, f) => s + out[f].gzip, 0),
  };
  return out;
}

/**
 * RUNS cold loads of a page that has no data-ready (each in a fresh context): waits for its first
 * contentful paint and the load event, then reads `figures` in the page (an object of numbers).
 * Returns each figure's summary.
 */
async function paintedLoads(browser, file, figures) {
  const samples = {};
  for (let i = 0; i < RUNS; i += 1) {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, {
      timeout: 60000,
    });
    for (const [k, x] of Object.entries(await page.evaluate(figures))) (samples[k] ??= []).push(x);
    await context.close();
  }
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, summary(xs)]));
}

/**
 * The machine's floor for the load figures: the same cold loads of a page with one heading and
 * one paragraph, no style sheet and no script but the mark at its end. Nothing the chapter does
 * can paint sooner than this; a budget below it is not reachable on this machine.
 */
async function floor(browser) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-floor-"));
  const file = path.join(dir, "floor.html");
  fs.writeFileSync(
    file,
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title></head>' +
      "<body><h1>Attention and Transformers</h1><p>One paragraph of text.</p>" +
      '<script>performance.mark("parsed")</script></body></html>\n',
  );
  try {
    return await paintedLoads(browser, file, () => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0].startTime,
      parsed: performance.getEntriesByName("parsed")[0]?.startTime,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const readerUrl = (hash = "", root = dist) => pathToFileURL(path.join(root, "reader.html")).href + hash;

/**
 * The chapter without its figures: a copy of reader.html in a folder of its own with the widgets'
 * script, reader.js and the drawings made at build time taken out (its styles, formulas and
 * reader-head.js kept). What the text alone costs on this machine: the yardstick of issue 22's
 * load budgets. Returns the folder.
 */
function textOnlyCopy() {
  return readerWithoutScripts(dist, { drawings: false });
}

/**
 * Issue 22's load figures, RUNS rounds of three cold loads in turn (each in a fresh context, so
 * that a busier moment of the machine weighs on all three alike; which comes first turns from
 * round to round, so that none always follows the same one): the chapter without its figures
 * (first contentful paint, DOMContentLoaded); the reader (first contentful paint,
 * data-first-screen, then every figure asked to draw at once, as a print does, until data-ready);
 * and a deep link, reader.html#quantization (first contentful paint, data-first-screen, and the
 * moment its figure, #quantization-figure, has drawn). Each load figure of the reader is also
 * given as a ratio to the text alone's first contentful paint (ratios()).
 */
async function pairedLoads(browser) {
  const dir = textOnlyCopy();
  const samples = { text: {}, load: {}, deepLink: {} };
  const push = (where, t) => {
    for (const [k, x] of Object.entries(t)) (samples[where][k] ??= []).push(x);
  };
  const cold = async (url, read, after = async () => {}) => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      await context.addInitScript(() => {
        // When a drawing from the build is on the screen, not only in the page: the mark
        // "drawing shown: <id>" is made before the frame that shows it is laid out and painted;
        // "<…> painted" at the start of the frame after, once that paint is done (at most a frame
        // late).
        const mark = performance.mark.bind(performance);
        performance.mark = (name, ...rest) => {
          const entry = mark(name, ...rest);
          if (name.startsWith("drawing shown: ")) requestAnimationFrame(() => mark(`${name} painted`));
          return entry;
        };
        // when the deep link's figure has drawn (its data-ready attribute, set by the kit)
        new MutationObserver((records, observer) => {
          for (const r of records)
            if (/** @type {Element} */ (r.target).id === "quantization-figure") {
              performance.mark("quantization-figure drawn");
              observer.disconnect();
            }
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
      });
      const page = await context.newPage();
      await page.goto(url);
      await after(page);
      return await page.evaluate(read);
    } finally {
      await context.close();
    }
  };
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const loads = [
        async () =>
          push(
            "text",
            await cold(pathToFileURL(path.join(dir, "reader.html")).href, async () => {
              while (!performance.getEntriesByName("first-contentful-paint").length)
                await new Promise((r) => setTimeout(r, 20));
              return {
                fcp: performance.getEntriesByName("first-contentful-paint")[0].startTime,
                domContentLoaded: performance.getEntriesByType("navigation")[0].domContentLoadedEventStart,
              };
            }),
          ),
        async () =>
          push(
            "load",
            await cold(
              readerUrl(),
              () => ({
                fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
                firstScreenShown: performance.getEntriesByName("data-first-screen-shown")[0]?.startTime,
                // the first screen painted with its figures' drawings: the last of those figures to be
                // (each the frame after its drawing was shown; never before the first paint)
                firstScreenPainted: Math.max(
                  performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
                  ...[...document.querySelectorAll("[data-prerendered]")]
                    .filter((el) => {
                      const box = el.getBoundingClientRect();
                      return box.top + scrollY < innerHeight && box.bottom + scrollY > 0;
                    })
                    .map((el) => performance.getEntriesByName(`drawing shown: ${el.id} painted`)[0]?.startTime ?? NaN),
                ),
                firstScreen: performance.getEntriesByName("data-first-screen")[0]?.startTime,
                ready: performance.getEntriesByName("data-ready")[0]?.startTime,
              }),
              async (page) => {
                await page.waitForSelector("html[data-first-screen]", { timeout: 60000 });
                await drawAll(page);
                await page.waitForSelector("html[data-ready]", { timeout: 60000 });
              },
            ),
          ),
        async () =>
          push(
            "deepLink",
            await cold(
              readerUrl("#quantization"),
              () => ({
                fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
                firstScreen: performance.getEntriesByName("data-first-screen")[0]?.startTime,
                // on the screen: its drawing from the build shown (site/src/drawing.js marks it in
                // the animation frame before the paint), or else drawn by its script
                shown:
                  performance.getEntriesByName("drawing shown: quantization-figure")[0]?.startTime ??
                  performance.getEntriesByName("quantization-figure drawn")[0]?.startTime,
                // the frame after, once painted (NaN where the figure drew before its drawing showed)
                painted:
                  performance.getEntriesByName("drawing shown: quantization-figure painted")[0]?.startTime ?? NaN,
                target: performance.getEntriesByName("quantization-figure drawn")[0]?.startTime,
              }),
              (page) => page.waitForSelector("#quantization-figure[data-ready]", { timeout: 60000 }),
            ),
          ),
      ];
      for (let j = 0; j < loads.length; j += 1) await loads[(i + j) % loads.length]();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const summed = (where) => Object.fromEntries(Object.entries(samples[where]).map(([k, xs]) => [k, summary(xs)]));
  const text = samples.text.fcp;
  const ratio = (xs) => ratios(xs, text);
  return {
    withoutFigures: summed("text"),
    load: summed("load"),
    deepLink: summed("deepLink"),
    ratios: {
      fcp: ratio(samples.load.fcp),
      firstScreenShown: ratio(samples.load.firstScreenShown),
      deepLinkShown: ratio(samples.deepLink.shown),
      firstScreenPainted: ratio(samples.load.firstScreenPainted),
      deepLinkPainted: ratio(samples.deepLink.painted),
      firstScreen: ratio(samples.load.firstScreen),
      deepLinkTarget: ratio(samples.deepLink.target),
    },
  };
}

/** The mean of the middle half of `xs`: a quarter of them dropped at each end. */
function interquartileMean(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const middle = s.slice(Math.floor(s.length / 4), s.length - Math.floor(s.length / 4));
  return middle.reduce((sum, x) => sum + x, 0) / middle.length;
}

/**
 * A load figure of the reader `xs` as a ratio to the text alone's first contentful paint `text`,
 * round by round (xs[i] and text[i] measured in the same round; a round missing either is left
 * out): the ratio of the two interquartile means, with its 95 % interval (the rounds drawn again
 * with replacement, in pairs, 2,000 times, from a fixed seed so that a run's figures can be
 * computed again); the ratio of the medians; and the median of the rounds' own ratios.
 * The interquartile mean is what the budgets are read against. A first paint's time comes in
 * steps of 4 ms on the machine the figures come from and spreads from about 45 to 190 ms: a
 * median moves by whole steps, each a sixteenth of the text alone's 64 ms, and the first paint's
 * ratio of medians over 40 rounds was 1.00 to 1.27 in five runs of the same build; the mean of the
 * middle half is as deaf to the slow tail and resolves less than a step.
 */
function ratios(xs, text) {
  const pairs = xs.map((x, i) => [x, text[i]]).filter(([x, t]) => Number.isFinite(x) && Number.isFinite(t));
  const reader = pairs.map(([x]) => x);
  const alone = pairs.map(([, t]) => t);
  const ofRounds = (rounds) =>
    interquartileMean(rounds.map((i) => reader[i])) / interquartileMean(rounds.map((i) => alone[i]));
  let seed = 22;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const draws = Array.from({ length: 2000 }, () =>
    ofRounds(reader.map(() => Math.floor(random() * reader.length))),
  ).sort((a, b) => a - b);
  return {
    ofInterquartileMeans: ofRounds(reader.map((_, i) => i)),
    interval: [quantile(draws, 0.025), quantile(draws, 0.975)],
    ofMedians: quantile(reader, 0.5) / quantile(alone, 0.5),
    pairedMedian: quantile(
      reader.map((x, i) => x / alone[i]),
      0.5,
    ),
    rounds: reader.length,
  };
}

// What a trace event of the renderer's main thread is, for mainThread(): its own time (its
// children's taken out) goes to the first kind whose pattern matches its name.
const KINDS = [
  ["layout", /^Layout$/],
  ["style", /^(UpdateLayoutTree|RecalcStyle|ParseAuthorStyleSheet)$/],
  ["HTML parsing", /^ParseHTML$/],
  ["paint", /^(Paint|PrePaint|Layerize|Commit|PaintImage|UpdateLayer)$/],
  ["garbage collection", /GC|Scaveng|MarkCompact|MinorMS/],
  ["script compilation", /^V8\.(Compile|Parse|PreParse)|^v8\.compile/],
  ["loading files", /URLLoader|DocumentLoader|ResourceRequest|ResourceFetcher/],
  [
    "script",
    /^(EvaluateScript|FunctionCall|RunMicrotasks|FireIdleCallback|TimerFire|EventDispatch|FireAnimationFrame|v8\.|V8\.)/,
  ],
];
/** The kind of a trace event, or null for a bare task (RunTask), whose own time is counted apart. */
const kindOf = (name) => (name === "RunTask" ? null : (KINDS.find(([, re]) => re.test(name))?.[0] ?? "other"));

/**
 * TRACED cold loads of reader.html under Chromium's tracing: the time from navigation to
 * data-ready, how much of it the renderer's main thread was busy (its top-level tasks), and that
 * busy time by kind. Tracing makes the load itself slower by some percent; what it shows is
 * where the time goes: when the main thread is busy nearly all the time, the load is as fast as
 * the work it does, and only less work (or a faster core) makes it faster.
 */
async function mainThread(browser) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-trace-")), "trace.json");
  const windows = [],
    busy = [],
    kinds = Object.fromEntries([...KINDS.map(([k]) => k), "other"].map((k) => [k, []]));
  try {
    for (let i = 0; i < TRACED; i += 1) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      await browser.startTracing(page, {
        path: file,
        categories: [
          "toplevel",
          "devtools.timeline",
          "blink.user_timing",
          "v8",
          "disabled-by-default-v8.compile",
          "loading",
        ],
      });
      await page.goto(readerUrl());
      await page.waitForSelector("html[data-first-screen]", { timeout: 60000 });
      await browser.stopTracing();
      await context.close();
      const events = JSON.parse(fs.readFileSync(file, "utf8")).traceEvents;
      // The reader's renderer is the one that marked data-first-screen: the trace holds every
      // process's events, and another renderer (a context closed before) may parse HTML in it too.
      const marked = events.find((e) => e.name === "data-first-screen");
      if (marked === undefined) throw new Error("no data-first-screen mark in the trace");
      const parse = events.find((e) => e.name === "ParseHTML" && e.pid === marked.pid);
      const mine = (e) => e.pid === parse.pid && e.tid === parse.tid;
      const start = events.find((e) => e.name === "navigationStart" && e.pid === parse.pid)?.ts ?? parse.ts;
      const end = marked.ts;
      const spans = events
        .filter((e) => mine(e) && e.ph === "X" && e.dur > 0 && e.ts < end && e.ts + e.dur > start)
        .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
      // Each event's own time, clipped to the window: nested events are taken out of their parent.
      const own = {};
      const stack = [];
      let tasks = 0;
      const clipped = (e) => Math.min(e.ts + e.dur, end) - Math.max(e.ts, start);
      for (const e of spans) {
        while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
        const parent = stack[stack.length - 1];
        const kind = kindOf(e.name);
        if (!parent) tasks += clipped(e);
        if (kind) own[kind] = (own[kind] ?? 0) + clipped(e);
        const parentKind = parent ? kindOf(parent.name) : null;
        if (parentKind) own[parentKind] -= clipped(e);
        stack.push(e);
      }
      // A task's time in no named event (the scheduler's own work) is "other".
      const named = Object.values(own).reduce((s, x) => s + x, 0);
      own.other = (own.other ?? 0) + Math.max(0, tasks - named);
      windows.push((end - start) / 1000);
      busy.push(tasks / 1000);
      for (const k of Object.keys(kinds)) kinds[k].push((own[k] ?? 0) / 1000);
    }
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  return {
    window: summary(windows),
    busy: summary(busy),
    kinds: Object.fromEntries(Object.entries(kinds).map(([k, xs]) => [k, summary(xs)])),
  };
}

/**
 * Defines window.__bench in the page: the widgets, their controls, and one input on a control
 * as a reader makes it (the value changed, then the event the control's handler listens to:
 * "input" for sliders and number fields, "change" for lists and checkboxes). Events are
 * dispatched in the page, not sent by Playwright: thousands of inputs take seconds, not a
 * round trip each.
 */
function installDriver() {
  const original = new WeakMap(); // a number field's value before its first input
  const controls = (el) =>
    [
      ...el.shadowRoot.querySelectorAll('input[type="range"], input[type="number"], input[type="checkbox"], select'),
    ].filter((c) => !c.disabled && (c.localName !== "select" || c.options.length > 1));
  // Sliders step forward and wrap; a number field alternates between its value and one step
  // away (its step, else 1 for a whole number, else 0.1, kept within min and max), so the state
  // stays near the defaults; lists take their next enabled option; checkboxes toggle.
  const change = (c) => {
    if (c.type === "range") {
      const lo = Number(c.min),
        hi = Number(c.max),
        step = Number(c.step) || 1,
        now = Number(c.value);
      c.value = String(now + step <= hi ? now + step : lo);
      return "input";
    }
    if (c.type === "number") {
      if (!original.has(c)) original.set(c, c.value);
      const base = original.get(c);
      if (c.value !== base) {
        c.value = base;
      } else {
        const x = Number(base),
          step = Number(c.step) || (Number.isInteger(x) ? 1 : 0.1);
        const up = x + step;
        c.value = String(c.max !== "" && up > Number(c.max) ? x - step : up);
      }
      return "input";
    }
    if (c.type === "checkbox") {
      c.checked = !c.checked;
      return "change";
    }
    const n = c.options.length;
    let i = c.selectedIndex;
    do i = (i + 1) % n;
    while (c.options[i].disabled && i !== c.selectedIndex);
    c.selectedIndex = i;
    return "change";
  };
  window.__bench = {
    errors: 0,
    widgets: () =>
      [...document.querySelectorAll("*")].filter((el) => el.localName.startsWith("llm-") && el.shadowRoot && el.core),
    controls,
    /** One input on the index-th control of el (cycling; controls a redraw replaced are found again). */
    input(el, state, index) {
      if (!state.list || !state.list.length || state.list.some((c) => !c.isConnected)) state.list = controls(el);
      if (!state.list.length) return null;
      const c = state.list[index % state.list.length];
      const type = change(c);
      const t0 = performance.now();
      c.dispatchEvent(new Event(type, { bubbles: true }));
      return performance.now() - t0;
    },
  };
  window.addEventListener("error", () => (window.__bench.errors += 1));
}

async function openReader(context, root = dist) {
  const page = await context.newPage();
  await page.goto(readerUrl("", root));
  await drawAll(page); // every figure, not only those near the screen
  await page.waitForSelector("html[data-ready]", { timeout: 60000 });
  await page.evaluate(installDriver);
  return page;
}

/**
 * INPUTS inputs across every control of every widget, one per frame, timing each. The frame
 * interval is measured first with nothing to do; an input whose next frame came more than
 * half an interval late missed it (the input runs right after a frame's callbacks, so its
 * next frame is normally one interval later).
 */
async function inputs(browser, root = dist, raw = false) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await openReader(context, root);
  const result = await page.evaluate(async (count) => {
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const gaps = [];
    let last = (await nextFrame(), performance.now());
    for (let i = 0; i < 30; i += 1) {
      await nextFrame();
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    gaps.sort((a, b) => a - b);
    const frameMs = gaps[gaps.length >> 1];
    const out = { frameMs, widgets: {} };
    for (const el of window.__bench.widgets()) {
      const state = {},
        dom = [],
        frame = [];
      let misses = 0;
      const errorsBefore = window.__bench.errors;
      el.scrollIntoView({ block: "center" }); // its frames drawn as a reader sees them
      await nextFrame();
      for (let i = 0; i < count; i += 1) {
        const t0 = performance.now();
        const d = window.__bench.input(el, state, i);
        if (d === null) break;
        dom.push(d);
        await nextFrame();
        const f = performance.now() - t0;
        frame.push(f);
        if (f > 1.5 * frameMs) misses += 1;
      }
      el.reset();
      if (dom.length)
        out.widgets[el.id || el.localName] = {
          dom,
          frame,
          misses,
          controls: state.list.length,
          errors: window.__bench.errors - errorsBefore,
        };
    }
    return out;
  }, INPUTS);
  await context.close();
  const widgets = {};
  for (const [id, r] of Object.entries(result.widgets)) {
    widgets[id] = {
      controls: r.controls,
      inputToDom: summary(r.dom),
      inputToFrame: summary(r.frame),
      ...(raw ? { dom: r.dom } : {}),
      missedFrames: r.misses,
      pageErrors: r.errors,
    };
  }
  return { frameMs: result.frameMs, widgets };
}

/**
 * The wasm heap and the JavaScript heap right after load and after HEAP_INPUTS inputs, spread
 * round-robin over every widget and its controls. Inputs run in batches of 100 with a yield to
 * the event loop between (the page's own tasks run as they would between a reader's inputs);
 * the JavaScript heap is read after a garbage collection (through the DevTools protocol), so
 * that only what the page keeps counts.
 */
async function heap(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await openReader(context);
  const cdp = await context.newCDPSession(page);
  const read = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    const js = (await cdp.send("Runtime.getHeapUsage")).usedSize;
    const wasm = await page.evaluate(() => {
      const core = window.__bench.widgets()[0].core;
      // memoryStats() is the API's diagnostic; a build before it had only memoryInUse().
      if (core.memoryStats) return core.memoryStats();
      return { bytesInUse: core.memoryInUse(), memoryBytes: core.HEAP8?.buffer.byteLength };
    });
    return { ...wasm, jsHeapBytes: js };
  };
  const afterLoad = await read();
  const started = Date.now();
  // `count` more inputs, going on from where the last batch stopped.
  const batch = (count) =>
    page.evaluate(async (count) => {
      const widgets = window.__bench.widgets();
      const b = (window.__heapRun ??= { states: widgets.map(() => ({})), i: 0 });
      const errorsBefore = window.__bench.errors;
      let n = 0;
      for (const end = b.i + 10 * count; n < count && b.i < end; b.i += 1) {
        const w = b.i % widgets.length;
        if (window.__bench.input(widgets[w], b.states[w], Math.floor(b.i / widgets.length)) !== null) n += 1;
        if (b.i % 100 === 99) await new Promise((r) => setTimeout(r, 0));
      }
      return { inputs: n, widgets: widgets.length, errors: window.__bench.errors - errorsBefore };
    }, count);
  const done = await batch(HEAP_INPUTS);
  const seconds = (Date.now() - started) / 1000;
  const afterInputs = await read();
  // Then HEAP_INPUTS more in STEADY_READINGS batches, the JavaScript heap read after each: once
  // the engine has compiled what the inputs run and the page's bounded caches are full, a page
  // that keeps nothing per input stops growing; what the readings still move by is the noise.
  const readings = [afterInputs.jsHeapBytes];
  let errors = done.errors;
  for (let k = 0; k < STEADY_READINGS; k += 1) {
    errors += (await batch(HEAP_INPUTS / STEADY_READINGS)).errors;
    readings.push((await read()).jsHeapBytes);
  }
  await context.close();
  return { ...done, errors, seconds, afterLoad, afterInputs, steady: { inputs: HEAP_INPUTS, readings } };
}

module.exports = { inputs, summary };

if (require.main === module) main();

async function main() {
  const plain = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const started = Date.now();
    const results = {
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        chromium: plain.version(),
        os: `${os.type()} ${os.release()}`,
        // the machine is shared: its load when the run started says how quiet it was
        loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
      },
      date: new Date().toISOString(),
      dist,
      runs: RUNS,
      inputsPerWidget: INPUTS,
      bytes: bytes(),
      floor: await floor(plain),
      ...(await pairedLoads(plain)),
      mainThread: await mainThread(plain),
      inputs: await inputs(plain),
      heap: await heap(plain),
    };
    results.seconds = (Date.now() - started) / 1000;
    fs.writeFileSync(path.join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const ms = (s) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} ms`;
    const m = results.machine;
    console.log(
      `machine: ${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, Node ${m.node}, Chromium ${m.chromium}, load ${m.loadAverage.join(" ")}`,
    );
    console.log("bytes (raw / gzip):");
    for (const [f, b] of Object.entries(results.bytes))
      console.log(`  ${f.padEnd(24)} ${String(b.raw).padStart(9)} / ${String(b.gzip).padStart(8)}`);
    console.log(`cold load over ${RUNS} runs (median / p95):`);
    console.log(`  ${"floor".padEnd(14)} FCP ${ms(results.floor.fcp)}  (a page of one paragraph: the machine's floor)`);
    console.log(
      `  ${"no figures".padEnd(14)} FCP ${ms(results.withoutFigures.fcp)}  DOMContentLoaded ${ms(results.withoutFigures.domContentLoaded)}  (reader.html without its scripts)`,
    );
    const l = results.load;
    const d = results.deepLink;
    console.log(
      `  ${"reader.html".padEnd(14)} FCP ${ms(l.fcp)}  first screen shown ${ms(l.firstScreenShown)}, painted ${ms(l.firstScreenPainted)}, drawn by its script ${ms(l.firstScreen)}  every figure asked, ready ${ms(l.ready)}`,
    );
    console.log(
      `  ${"#quantization".padEnd(14)} FCP ${ms(d.fcp)}  its figure shown ${ms(d.shown)}, painted ${ms(d.painted)}, drawn by its script ${ms(d.target)}`,
    );
    const x = (r) =>
      `${r.ofInterquartileMeans.toFixed(2)}× [${r.interval.map((v) => v.toFixed(2)).join("–")}] (of medians ${r.ofMedians.toFixed(2)}×)`;
    const q = results.ratios;
    console.log(
      `  to the text alone's FCP: FCP ${x(q.fcp)}, first screen shown ${x(q.firstScreenShown)} (painted ${x(q.firstScreenPainted)}; by its script ${x(q.firstScreen)}), #quantization's figure shown ${x(q.deepLinkShown)} (painted ${x(q.deepLinkPainted)}; by its script ${x(q.deepLinkTarget)})`,
    );
    const mt = results.mainThread;
    console.log(
      `main thread over ${TRACED} traced loads (median): busy ${mt.busy.median.toFixed(0)} of ${mt.window.median.toFixed(0)} ms until data-first-screen; ` +
        Object.entries(mt.kinds)
          .map(([k, s]) => `${k} ${s.median.toFixed(0)}`)
          .join(", "),
    );
    console.log(
      `inputs (${INPUTS} per widget across its controls; median / p95; frame ${results.inputs.frameMs.toFixed(1)} ms):`,
    );
    for (const [id, r] of Object.entries(results.inputs.widgets)) {
      console.log(
        `  ${id.padEnd(22)} to DOM ${ms(r.inputToDom)}  to next frame ${ms(r.inputToFrame)}  missed frames ${r.missedFrames}` +
          `  (${r.controls} controls${r.pageErrors ? `, ${r.pageErrors} page errors` : ""})`,
      );
    }
    const h = results.heap;
    const kib = (x) => (x === undefined ? "?" : `${(x / 1024).toFixed(1)} KiB`);
    console.log(
      `heap after load / after ${h.inputs} inputs over ${h.widgets} widgets (${h.seconds.toFixed(0)} s${h.errors ? `, ${h.errors} page errors` : ""}):`,
    );
    console.log(
      `  wasm in use ${kib(h.afterLoad.bytesInUse)} / ${kib(h.afterInputs.bytesInUse)}, wasm memory ${kib(h.afterLoad.memoryBytes)} / ${kib(h.afterInputs.memoryBytes)}, ` +
        `JavaScript heap ${kib(h.afterLoad.jsHeapBytes)} / ${kib(h.afterInputs.jsHeapBytes)}`,
    );
    console.log(`(${results.seconds.toFixed(0)} s)`);
  } finally {
    await plain.close();
  }
}
