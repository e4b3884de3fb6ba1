// Starts Debian's Firefox ESR through puppeteer-core (WebDriver BiDi, no browser download, no
// separate driver) and opens pages of dist/ from file://, recording page errors and console
// errors. Firefox reports MathML it rejects (an <msub> with three children) as page errors,
// which Chromium does not: every page a reader or a course author opens must log none.
"use strict";
const puppeteer = require("puppeteer-core");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { drawEveryFigure, figuresOnPage, assertEveryFigureDrawn } = require("../browser/in-page.js");

// LLMMATH_DIST: another built copy of dist/ (a helper building in parallel); default dist/.
const dist = path.resolve(process.env.LLMMATH_DIST || path.join(__dirname, "..", "..", "dist"));
const artifacts = path.resolve(__dirname, "..", "..", "build", "test-artifacts");

const FIREFOX = process.env.FIREFOX_PATH || "/usr/bin/firefox-esr";

// puppeteer-core's own profile preferences already keep Firefox off the network (updates, safe
// browsing, telemetry, remote settings). These add what they leave on, and put back the one
// they relax: a page from file:// may read only itself, as in the Firefox a reader uses.
const PREFS = {
  "security.fileuri.strict_origin_policy": true,
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "network.dns.disablePrefetch": true,
  "network.prefetch-next": false,
  "browser.region.network.url": "",
  "browser.topsites.contile.enabled": false,
  "toolkit.telemetry.enabled": false,
  "toolkit.telemetry.server": "",
};

/** Starts a headless Firefox with a fresh profile; close() quits it and removes the profile. */
async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-firefox-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    extraPrefsFirefox: PREFS,
  });
  const close = async () => {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { browser, close };
}

/**
 * Starts one Firefox for a test file and gives it one page: registers node:test before/after
 * hooks and returns an object whose `page` is that page and whose `errors` are the page and
 * console errors since the last open(). `start(session)`, if given, runs once the page is there
 * (a second before hook would not wait for the first in this Node).
 */
function useFirefox(test, { width = 1280, height = 900, start } = {}) {
  const session = { browser: null, page: null, errors: [], requests: [] };
  let firefox;
  test.before(async () => {
    firefox = await launch();
    session.browser = firefox.browser;
    session.page = await firefox.browser.newPage();
    await session.page.setViewport({ width, height });
    session.page.on("console", (msg) => {
      if (msg.type() === "error") session.errors.push(`console: ${msg.text()}`);
    });
    session.page.on("pageerror", (err) => session.errors.push(`page: ${err.message}`));
    // Firefox reports no request for file:// itself; anything else it reports is a fetch.
    session.page.on("request", (req) => session.requests.push(req.url()));
    if (start) await start(session);
  });
  test.after(async () => {
    await firefox?.close();
  });
  return session;
}

/**
 * Opens dist/<file> (with an optional query or fragment) in the session's page, after clearing
 * its errors, draws every figure (as printing does: a figure draws as it comes near the screen;
 * `lazy` leaves them so) and waits for `ready` (html[data-ready] unless told, or
 * html[data-first-screen] when lazy).
 */
async function open(
  session,
  file,
  { lazy = false, ready = lazy ? "html[data-first-screen]" : "html[data-ready]", suffix = "" } = {},
) {
  session.errors.length = 0;
  session.requests.length = 0;
  const url = pathToFileURL(path.join(dist, file)).href + suffix;
  // The same file with another fragment would only scroll the page: load it afresh.
  const page = pathToFileURL(path.join(dist, file)).href;
  if (session.page.url().split(/[?#]/)[0] === page) await session.page.goto("about:blank");
  await session.page.goto(url);
  if (!lazy) await drawAll(session.page);
  if (ready) await session.page.waitForSelector(ready, { timeout: 15000 });
  return url;
}

/** Draws every figure of the page now (tests/browser/in-page.js drawEveryFigure). */
async function drawAll(page) {
  await page.evaluate(drawEveryFigure, 15000);
}

/**
 * Scrolls through the whole page as a reader does, so that every section is laid out (sections
 * off screen skip layout, and Firefox checks a formula's MathML only when it lays it out), then
 * gives the browser a moment to report what it found.
 */
async function readThrough(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await frame();
    }
    window.scrollTo(0, 0);
    await frame();
  });
  await settle(page);
}

/** Waits a little, so that errors Firefox reports after a step arrive before they are checked. */
async function settle(page, ms = 300) {
  await page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), ms);
}

/** Fails unless every figure is ready, shows no error and drew its figure (in-page.js); returns them. */
async function assertFiguresDrawn(assert, page, what) {
  return assertEveryFigureDrawn(assert, await page.evaluate(figuresOnPage), what);
}

/** Requests that left the page's own files (Firefox reports data: URLs, never file://). */
function outside(requests) {
  return requests.filter((u) => !u.startsWith("data:") && !u.startsWith("file:"));
}

function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}

module.exports = {
  launch,
  useFirefox,
  open,
  readThrough,
  settle,
  assertFiguresDrawn,
  outside,
  artifact,
  dist,
  FIREFOX,
  PREFS,
};
