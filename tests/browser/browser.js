// Starts Debian's headless Chromium through playwright-core (no browser download) and opens
// pages of dist/ from file://, recording console errors, page errors and every request.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

// LLMMATH_DIST: another built copy of dist/ (a helper building in parallel); default dist/.
const dist = path.resolve(process.env.LLMMATH_DIST || path.join(__dirname, "..", "..", "dist"));
const artifacts = path.resolve(__dirname, "..", "..", "build", "test-artifacts");

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// As root Chromium needs --no-sandbox; the rest keep it from reaching for the network.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--metrics-recording-only",
];

async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
  });
  const close = async () => {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * Opens dist/<file> in a new page of `context` at the given viewport and waits for
 * html[data-ready]. Returns { page, errors, requests }: console and page errors, and the URL
 * of every request the page made.
 */
async function openReader(
  context,
  { file = "reader.html", width = 1280, height = 900, colorScheme = "light", hash = "" } = {},
) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  const errors = [];
  const requests = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("request", (req) => requests.push(req.url()));
  const url = pathToFileURL(path.join(dist, file)).href + hash;
  await page.goto(url);
  await page.waitForSelector("html[data-ready]", { timeout: 15000 });
  return { page, errors, requests, url };
}

/**
 * Opens one figure alone, as a course author's frame shows it (dist/embed.html?widget=<name>),
 * for tests of that figure: a page of one widget loads in a fraction of the chapter's time.
 * Options and result as openReader's; the element keeps its id (e.g. #rope-figure).
 */
function openFigure(context, name, options = {}) {
  return openReader(context, { ...options, file: "embed.html", hash: `?widget=${encodeURIComponent(name)}` });
}

/**
 * Starts one Chromium for a test file: registers node:test before/after hooks and returns an
 * object whose `context` is the running browser's context.
 */
function useBrowser(test) {
  let browser;
  test.before(async () => {
    browser = await launch();
  });
  test.after(async () => {
    await browser?.close();
  });
  return {
    get context() {
      return browser.context;
    },
  };
}

/** A number as the page writes it (site/src/dom.js fmt): rounded, trailing zeros dropped, true minus. */
function shown(x, digits) {
  return String(Number(x.toFixed(digits))).replace("-", "−");
}

/** The number in a cell's text as the page writes it ("−0.5", "×0.0067", "±127"). */
function num(text) {
  return Number(text.trim().replace(/−/g, "-").replace(/^[×±]/, ""));
}

function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}

/**
 * Shows every figure's readouts that an exercise holds back, as each figure's "Show the numbers"
 * does: held back, they do not follow the figure's redraws (dom.js freeze), so a test that reads
 * them on the reader page reads what a reader sees after pressing it.
 */
function showNumbers(page) {
  return page.evaluate(() => {
    for (const el of document.querySelectorAll("*"))
      if (el.localName.startsWith("llm-answer-") && el.concealed) el.reveal();
  });
}

module.exports = {
  launch,
  useBrowser,
  openReader,
  openFigure,
  showNumbers,
  artifact,
  dist,
  shown,
  num,
  CHROMIUM,
  FLAGS,
};
