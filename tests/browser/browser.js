// Starts Debian's headless Chromium through playwright-core (no browser download) and opens
// pages of dist/ from file://, recording console errors, page errors and every request.
"use strict";
const { chromium } = require("playwright-core");
const { drawEveryFigure } = require("./in-page.js");
const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const net = require("node:net");
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
 * Draws every figure of the page now, as printing does (site/src/print.js): a figure draws when it
 * comes near the screen, so a test that reads every figure of a long page asks them all first.
 * Waits for the elements to be defined (the widgets' script is async); each draws as soon as the
 * engine is loaded.
 */
async function drawAll(page) {
  await page.evaluate(drawEveryFigure, 15000);
}

/** A TCP port on 127.0.0.1 that nothing listens on now (for a server a test starts itself). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Opens dist/<file> in a new page of `context` at the given viewport, draws every figure
 * (drawAll; `lazy` leaves them to draw as they come near the screen, as for a reader) and waits
 * for `ready` (html[data-ready] unless told, or html[data-first-screen] when lazy). Returns
 * { page, errors, requests }: console and page errors, and the URL of every request the page made.
 */
async function openReader(
  context,
  {
    file = "reader.html",
    width = 1280,
    height = 900,
    colorScheme = "light",
    hash = "",
    lazy = false,
    ready = lazy ? "html[data-first-screen]" : "html[data-ready]",
  } = {},
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
  if (!lazy) await drawAll(page);
  await page.waitForSelector(ready, { timeout: 15000 });
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

/**
 * The path in dist/ of the file the pages load for `name` ("reader.css" →
 * "assets/reader.0123456789.css"): site/build.mjs writes what the pages load under names carrying
 * a hash of their content, exactly one per name.
 */
function asset(name) {
  const ext = path.extname(name);
  const pattern = new RegExp(
    `^${path.basename(name, ext).replace(/[.]/g, "\\.")}\\.[0-9a-f]{10}${ext.replace(".", "\\.")}$`,
  );
  const found = fs.readdirSync(path.join(dist, "assets")).filter((f) => pattern.test(f));
  if (found.length !== 1) throw new Error(`dist/assets/ has ${found.length} files for ${name}: ${found.join(", ")}`);
  return `assets/${found[0]}`;
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

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".woff2": "font/woff2",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/**
 * Serves files on 127.0.0.1, on a port of its own, as a course's web server would, for one test.
 * `body(pathname)` gives the text of a page made by the test (or null), `files(pathname)` names
 * the file a request's path stands for otherwise (or null: a 404); `headers(pathname)` gives the
 * response's extra headers (a Content-Security-Policy). Resolves to { origin, requests, missing,
 * close }: requests holds every path asked for, in order, missing those answered 404.
 * @param {{ files: (pathname: string) => string | null, body?: (pathname: string) => string | null, headers?: (pathname: string) => Record<string, string> }} options
 */
function serve({ files, body = () => null, headers = () => ({}) }) {
  const requests = [];
  const missing = [];
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, "http://127.0.0.1");
    requests.push(pathname);
    if (pathname === "/favicon.ico") return res.writeHead(204).end(); // the browser's own request
    const made = body(pathname);
    const file = made === null ? files(pathname) : null;
    // the type of what is sent: a folder's address (/page/) sends its index.html
    const type = TYPES[path.extname(file ?? pathname)] ?? "application/octet-stream";
    if (made !== null) {
      res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...headers(pathname) });
      return res.end(made);
    }
    if (!file || !fs.existsSync(file)) {
      missing.push(pathname);
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...headers(pathname) });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        requests,
        missing,
        // Chromium keeps its connections open after a page closes; close() would wait for them
        // (measured: up to two minutes), so they are ended with it.
        close: () => {
          const closed = new Promise((r) => server.close(r));
          server.closeAllConnections();
          return closed;
        },
      }),
    ),
  );
}

/**
 * A snippet of the course authors' guide as a course author copies it: the text of
 * dist/embed-guide.html's <pre data-recipe="name"> (its markup unescaped), so that a test runs
 * the guide's own words.
 */
function guideRecipe(name) {
  const html = fs.readFileSync(path.join(dist, "embed-guide.html"), "utf8");
  const m = new RegExp(`<pre data-recipe="${name}"><code>([\\s\\S]*?)</code></pre>`).exec(html);
  if (!m) throw new Error(`dist/embed-guide.html has no <pre data-recipe="${name}">`);
  return m[1]
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/**
 * The files the course authors' guide tells an author to copy for an embed, `kind` "script",
 * "frame" or "host" (its "What to copy": <code data-copy="kind">), in the guide's order, from
 * dist/embed-guide.html.
 */
function guideFiles(kind) {
  const html = fs.readFileSync(path.join(dist, "embed-guide.html"), "utf8");
  const files = [...html.matchAll(new RegExp(`<code data-copy="${kind}">([^<]+)</code>`, "g"))].map((m) => m[1]);
  if (files.length === 0) throw new Error(`dist/embed-guide.html names no file to copy for ${kind}`);
  return files;
}

module.exports = {
  drawAll,
  freePort,
  serve,
  guideRecipe,
  guideFiles,
  launch,
  useBrowser,
  openReader,
  openFigure,
  showNumbers,
  artifact,
  asset,
  dist,
  shown,
  num,
  CHROMIUM,
  FLAGS,
};
