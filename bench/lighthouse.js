// Lighthouse on a phone against the hosted edition (a benchmark, not a test: it reports figures and
// never fails on them). dist/ is served on 127.0.0.1 by Debian's nginx with the hosting guide's own
// configuration (dist/hosting.html, started as tests/hosting/ starts it: Brotli and gzip copies,
// the headers, caching), and Lighthouse (npm, locked) runs its default configuration, a mid-range
// phone: a 412 × 823 screen, slow 4G simulated (150 ms round trips, 1.6 Mbit/s) and a CPU four times
// slower than this machine's, against Debian's Chromium, RUNS times, each in a fresh Chromium.
// The median of each category's score and of each metric goes into bench/results.json
// ("lighthouse"), beside page.js's and api.js's figures; bench/compare.js prints them with the
// budgets of issue 22: performance ≥ 95, accessibility, best practices and SEO 100.
//
//   node bench/lighthouse.js [runs=5] [page=reader.html]
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { serveAsTheGuideSays, stopAll } = require("../tests/hosting/servers.js");
const { CHROMIUM, FLAGS } = require("../tests/browser/browser.js");

const RUNS = Number(process.argv[2] ?? 5);
const PAGE = process.argv[3] ?? "reader.html";
const resultsFile = path.join(__dirname, "results.json");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
// The metrics the performance score weighs (Lighthouse 12: FCP 10 %, SI 10 %, LCP 25 %, TBT 30 %,
// CLS 25 %), and time to interactive, which it reports but no longer weighs.
const METRICS = [
  ["fcp", "first-contentful-paint"],
  ["lcp", "largest-contentful-paint"],
  ["tbt", "total-blocking-time"],
  ["cls", "cumulative-layout-shift"],
  ["si", "speed-index"],
  ["tti", "interactive"],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const { served, server } = await serveAsTheGuideSays("nginx");
  const url = `${server.origin}/${PAGE}`;
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const chrome = await chromeLauncher.launch({
        chromePath: CHROMIUM,
        chromeFlags: ["--headless=new", ...FLAGS],
        logLevel: "silent",
      });
      try {
        const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
        if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
        const failing = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && ["binary", "numeric"].includes(a.scoreDisplayMode))
          .map((a) => a.id);
        runs.push({
          scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(lhr.categories[c].score * 100)])),
          metrics: Object.fromEntries(METRICS.map(([k, id]) => [k, lhr.audits[id].numericValue])),
          failing,
        });
        const s = runs.at(-1).scores;
        console.log(
          `  run ${i + 1}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s["best-practices"]}, SEO ${s.seo}; ` +
            `TBT ${Math.round(runs.at(-1).metrics.tbt)} ms, CLS ${runs.at(-1).metrics.cls.toFixed(3)}`,
        );
      } finally {
        await chrome.kill();
      }
    }
  } finally {
    await stopAll();
    fs.rmSync(served.dir, { recursive: true, force: true });
  }
  const lighthouseResults = {
    page: PAGE,
    runs: runs.length,
    version: require("lighthouse/package.json").version,
    scores: Object.fromEntries(
      CATEGORIES.map((c) => [
        c,
        { median: median(runs.map((r) => r.scores[c])), min: Math.min(...runs.map((r) => r.scores[c])) },
      ]),
    ),
    metrics: Object.fromEntries(METRICS.map(([k]) => [k, median(runs.map((r) => r.metrics[k]))])),
    // audits below full marks in any run, with how many runs
    failing: Object.entries(
      runs.flatMap((r) => r.failing).reduce((n, id) => ({ ...n, [id]: (n[id] ?? 0) + 1 }), {}),
    ).map(([id, n]) => `${id} (${n}/${runs.length})`),
  };
  const results = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, "utf8")) : {};
  results.lighthouse = lighthouseResults;
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  const s = lighthouseResults.scores;
  console.log(
    `Lighthouse ${lighthouseResults.version}, a phone, ${url.replace(/^http:\/\/[^/]+/, "")}, median of ${runs.length}: ` +
      `performance ${s.performance.median}, accessibility ${s.accessibility.median}, best practices ${s["best-practices"].median}, SEO ${s.seo.median}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
