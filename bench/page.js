// Benchmark of the pages as readers load and use them (a benchmark, not a test: it reports
// figures and never fails on them). Headless Chromium from file://, each load in a fresh
// context (cold), median and p95 of each figure:
//   - bytes, raw and gzip, of every file a page loads;
//   - first contentful paint, data-first-screen and data-ready of reader.html over RUNS cold
//     loads, and the same for a deep link (reader.html#quantization);
//   - per widget, input-to-DOM (the handler's synchronous work: the input event until the
//     figure's llm-change) and input-to-next-frame (until the next animation frame after it)
//     over INPUTS slider steps.
// Writes bench/results.json and prints a table.
//   node bench/page.js [runs=10] [inputs=200]
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { dist, CHROMIUM, FLAGS } = require("../tests/browser/browser.js");

const RUNS = Number(process.argv[2] ?? 10);
const INPUTS = Number(process.argv[3] ?? 200);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const summary = (xs) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });

function bytes() {
  const files = ["reader.html", "reader.css", "reader.js", "llmmath-widgets.js", "llmmath.js", "embed.html", "reader-standalone.html"];
  const out = {};
  for (const f of files) {
    const data = fs.readFileSync(path.join(dist, f));
    out[f] = { raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
  }
  const reader = ["reader.html", "reader.css", "reader.js", "llmmath-widgets.js"];
  out["reader (all it loads)"] = {
    raw: reader.reduce((s, f) => s + out[f].raw, 0),
    gzip: reader.reduce((s, f) => s + out[f].gzip, 0),
  };
  return out;
}

async function loads(browser, hash) {
  const fcp = [], first = [], ready = [];
  for (let i = 0; i < RUNS; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(path.join(dist, "reader.html")).href + hash);
    await page.waitForSelector("html[data-ready]", { timeout: 60000 });
    const t = await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      first: performance.getEntriesByName("data-first-screen")[0]?.startTime,
      ready: performance.getEntriesByName("data-ready")[0]?.startTime,
    }));
    fcp.push(t.fcp);
    first.push(t.first);
    ready.push(t.ready);
    await context.close();
  }
  return { fcp: summary(fcp), firstScreen: summary(first), ready: summary(ready) };
}

/** Steps every range slider of every figure back and forth, timing each input. */
async function inputs(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(path.join(dist, "reader.html")).href);
  await page.waitForSelector("html[data-ready]", { timeout: 60000 });
  const result = await page.evaluate(async (count) => {
    const out = {};
    const figures = [...document.querySelectorAll("[id]")].filter((el) => el.localName.startsWith("llm-") && el.shadowRoot);
    for (const el of figures) {
      const sliders = [...el.shadowRoot.querySelectorAll('input[type="range"]')];
      if (!sliders.length) continue;
      const dom = [], frame = [];
      for (let i = 0; i < count; i += 1) {
        const s = sliders[i % sliders.length];
        const lo = Number(s.min), hi = Number(s.max), step = Number(s.step) || 1;
        const now = Number(s.value);
        s.value = String(now + step <= hi ? now + step : lo);
        const t0 = performance.now();
        s.dispatchEvent(new Event("input", { bubbles: true }));
        dom.push(performance.now() - t0);
        await new Promise((r) => requestAnimationFrame(() => r()));
        frame.push(performance.now() - t0);
      }
      el.reset();
      out[el.id] = { dom, frame };
    }
    return out;
  }, INPUTS);
  await context.close();
  const out = {};
  for (const [id, { dom, frame }] of Object.entries(result)) out[id] = { inputToDom: summary(dom), inputToFrame: summary(frame) };
  return out;
}

(async () => {
  const plain = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const results = {
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      date: new Date().toISOString(),
      runs: RUNS,
      bytes: bytes(),
      load: await loads(plain, ""),
      deepLink: await loads(plain, "#quantization"),
      inputs: await inputs(plain),
    };
    fs.writeFileSync(path.join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const ms = (s) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} ms`;
    console.log(`machine: ${results.machine.cpus} × ${results.machine.model}, ${results.machine.memoryGiB} GiB, ${results.machine.node}`);
    console.log("bytes (raw / gzip):");
    for (const [f, b] of Object.entries(results.bytes)) console.log(`  ${f.padEnd(24)} ${String(b.raw).padStart(9)} / ${String(b.gzip).padStart(8)}`);
    console.log(`cold load over ${RUNS} runs (median / p95):`);
    for (const [name, r] of [["reader.html", results.load], ["#quantization", results.deepLink]]) {
      console.log(`  ${name.padEnd(14)} FCP ${ms(r.fcp)}  first screen ${ms(r.firstScreen)}  ready ${ms(r.ready)}`);
    }
    console.log(`inputs (${INPUTS} slider steps per figure; median / p95):`);
    for (const [id, r] of Object.entries(results.inputs)) console.log(`  ${id.padEnd(22)} to DOM ${ms(r.inputToDom)}  to next frame ${ms(r.inputToFrame)}`);
  } finally {
    await plain.close();
  }
})();
