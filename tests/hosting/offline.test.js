// Offline after one visit, by choice (site/src/offline.js, site/sw.js), in Chromium against the
// edition served by nginx with the guide's configuration (tests/hosting/servers.js), in one
// browser profile kept from test to test (a persistent context: the worker and its cache survive
// reloads), as one reader's browser would:
//   keep (by keyboard) → the server stopped → the chapter reloads with every figure drawn, no error;
//   a changed edition published (a changed page; then a changed style sheet, renamed; sw.js and
//   the compressed copies written again by the build's own site/publish.mjs) → the next visit
//   shows it, its copy replaces the old one → the server stopped → the new chapter reloads;
//   remove → nothing of ours is kept, and with the server stopped the chapter no longer opens.
// And where it cannot work: from file://, and over plain http from a name that is not this machine's.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, drawAll, artifact, CHROMIUM, FLAGS } = require("../browser/browser.js");
const { serveAsTheGuideSays, startNginx, publish, stopAll } = require("./servers.js");
const { openServed } = require("./checks.js");

const browser = useBrowser(test);
let served;
let server;
let include;
let port;
let origin;
let page;
let seen;

test.before(async () => {
  ({ served, server, include } = await serveAsTheGuideSays("nginx"));
  ({ port, origin } = server);
});
test.after(async () => {
  await stopAll();
  if (served) fs.rmSync(served.dir, { recursive: true, force: true });
});

/** The version and files of the served sw.js. */
function worker() {
  const sw = fs.readFileSync(path.join(served.root, "sw.js"), "utf8");
  return {
    version: /^const VERSION = "(\w+)";$/m.exec(sw)[1],
    files: JSON.parse(/^const FILES = (.*);$/m.exec(sw)[1]),
  };
}
/** The names of the caches of the page's origin. */
const cacheNames = () => page.evaluate(() => caches.keys());
/** The addresses kept in one cache (null if there is no such cache: looking does not make one). */
const cached = (name) =>
  page.evaluate(
    async (n) => ((await caches.has(n)) ? (await (await caches.open(n)).keys()).map((r) => r.url) : null),
    name,
  );
/** Waits until the origin's caches are exactly `names`, for at most `ms`; returns what they are then. */
async function cachesBecome(names, ms) {
  let now;
  for (const start = Date.now(); Date.now() - start < ms; await new Promise((r) => setTimeout(r, 200))) {
    now = await cacheNames();
    if (JSON.stringify(now) === JSON.stringify(names)) break;
  }
  return now;
}
const status = () => page.locator("#offline-status").textContent();
/**
 * Every widget on the page draws (asked at once, as printing does; html[data-ready] first). A file
 * that did not load (one the kept copy lacks, with the server stopped) fails it by name,
 * rather than as a wait for data-ready that runs out.
 */
async function drawn() {
  await drawAll(page);
  const start = Date.now();
  while ((await page.locator("html[data-ready]").count()) === 0) {
    assert.deepEqual(seen.failed, [], "files that did not load");
    assert.ok(Date.now() - start < 60000, "html[data-ready] not set within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  const waiting = await page.evaluate(() =>
    [...document.body.querySelectorAll("*")]
      .filter((el) => el.localName.startsWith("llm-") && customElements.get(el.localName))
      .filter((el) => !el.hasAttribute("data-ready"))
      .map((el) => el.localName),
  );
  assert.deepEqual(waiting, [], "widgets not drawn");
}
const clean = () => ({ errors: [], violations: [], failed: [], outside: [] });
/**
 * Empties the browser's HTTP cache (not the worker's caches): with the server stopped, only the
 * kept copy may then give the chapter a file. The hashed files are kept a year by that cache,
 * which served a file missing from the copy as if it were there.
 */
async function emptyHttpCache() {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
}
/** Forgets what the page has logged so far. */
function forget() {
  for (const k of Object.keys(seen)) seen[k].length = 0;
}

test("over plain http from a name that is not this machine's, the control says the copy needs https", async () => {
  // chapter.test resolves to 127.0.0.1 but is not a secure context, as http://example.org is not
  const insecure = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, "--host-resolver-rules=MAP chapter.test 127.0.0.1"],
  });
  try {
    const p = await insecure.newPage();
    const errors = [];
    p.on("pageerror", (e) => errors.push(e.message));
    p.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await p.goto(`http://chapter.test:${port}/reader.html`);
    await p.waitForSelector("html[data-first-screen]", { timeout: 20000 });
    assert.equal(await p.evaluate(() => window.isSecureContext), false);
    await p.locator("#offline-keep").click();
    assert.match(await p.locator("#offline-status").textContent(), /keeps a copy only of a page served over https/);
    assert.equal(await p.evaluate(() => navigator.serviceWorker?.controller ?? null), null);
    assert.deepEqual(errors, []);
  } finally {
    await insecure.close();
  }
});

test("from file:// the control says the file is already on the disk, and registers nothing", async () => {
  const { page: p, errors } = await openReader(browser.context);
  await p.locator("#offline-keep").click();
  assert.match(
    await p.locator("#offline-status").textContent(),
    /a file on your disk, so it already opens with no network/,
  );
  assert.equal(await p.locator('link[rel="manifest"]').count(), 0, "no manifest from file://");
  assert.deepEqual(errors, []);
  await p.close();
});

test("keep, by keyboard: the worker caches exactly the chapter's files under its version, and the control says what is kept", async () => {
  ({ page, seen } = await openServed(browser.context, `${origin}/reader.html`, origin));
  // no answer at all (the server stopped): a file the kept copy lacks
  page.on("requestfailed", (r) => seen.failed.push(`${r.failure()?.errorText ?? "failed"} ${r.url()}`));
  await drawn();
  const { version, files } = worker();
  const box = page.locator("#offline");
  const size = await box.getAttribute("data-size");
  assert.equal(
    await status(),
    `Keeps the chapter, ${files.length} files (${size}), in this browser, so that it opens with no network.`,
  );
  assert.equal(await page.locator("#offline-status").getAttribute("role"), "status");
  assert.deepEqual(await cacheNames(), [], "nothing is kept before the reader asks");
  await page.locator("#offline-keep").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    () => /^Kept in this browser/.test(document.getElementById("offline-status").textContent),
    null,
    {
      timeout: 20000,
    },
  );
  assert.match(await status(), new RegExp(`the chapter, ${files.length} files \\(${size.replace(".", "\\.")}\\)`));
  assert.match(await status(), /To remove them: the button above, or this site's data in your browser's settings/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "offline-remove", "the focus moves to Remove");
  assert.equal(await page.locator("#offline-keep").isVisible(), false);
  const name = `llmmath-attention ${origin}/ ${version}`;
  assert.deepEqual(await cacheNames(), [name]);
  assert.deepEqual((await cached(name)).sort(), files.map((f) => `${origin}/${f}`).sort());
  // the control, kept, passes axe (its source evaluated: the page's policy refuses an injected script)
  await page.evaluate(fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"));
  const axe = await page.evaluate(() => axe.run("#offline").then((r) => r.violations.map((v) => `${v.id}: ${v.help}`)));
  assert.deepEqual(axe, []);
  await page.screenshot({
    path: artifact("hosting-offline-kept.png"),
    clip: await box.boundingBox().then((b) => ({ x: 0, y: Math.max(0, b.y - 300), width: 1280, height: 500 })),
  });
  assert.deepEqual(seen, clean());
});

test("the server stopped: the chapter reloads from the kept copy, every figure drawn, with no error", async () => {
  await server.stop();
  await emptyHttpCache();
  forget();
  const response = await page.reload();
  assert.ok(response.fromServiceWorker(), "the page came from the worker");
  await drawn();
  assert.match(await status(), /^Kept in this browser/);
  await page.screenshot({ path: artifact("hosting-offline-reloaded.png") });
  assert.deepEqual(seen, clean());
});

/**
 * Publishes a changed edition into the served folder as a build would write it: the chapter's
 * heading becomes `heading`; with `restyle`, its style sheet changes too, under its new hashed
 * name; then the build's last steps (site/publish.mjs: sw.js and the control's counts, the
 * compressed copies). Restarts nginx on the same port (the same origin). Returns sw.js before and after.
 */
async function publishChange({ heading, restyle = false }) {
  const before = worker();
  const root = served.root;
  const readerFile = path.join(root, "reader.html");
  let html = fs.readFileSync(readerFile, "utf8");
  const changed = html.replace(/<h1>[^<]*<\/h1>/, `<h1>${heading}</h1>`);
  assert.notEqual(changed, html, "the heading changed");
  html = changed;
  let renamed = null;
  if (restyle) {
    const oldCss = before.files.find((f) => /^assets\/reader\.[0-9a-f]{10}\.css$/.test(f));
    const css = `${fs.readFileSync(path.join(root, oldCss), "utf8")}\n/* ${heading} */\n`;
    const newCss = `assets/reader.${crypto.createHash("sha256").update(css).digest("hex").slice(0, 10)}.css`;
    fs.writeFileSync(path.join(root, newCss), css);
    fs.rmSync(path.join(root, oldCss));
    html = html.replace(`href="${oldCss}"`, `href="${newCss}"`);
    renamed = { oldCss, newCss };
  }
  fs.writeFileSync(readerFile, html);
  const { writeOffline, precompress } = await publish();
  await writeOffline(root);
  await precompress(root);
  for (const f of fs.readdirSync(root, { recursive: true }))
    fs.chmodSync(path.join(root, f), fs.statSync(path.join(root, f)).isDirectory() ? 0o755 : 0o644);
  const after = worker();
  await server.stop();
  server = await startNginx({ dir: served.dir, root, include, port });
  return { before, after, renamed };
}

/** The next visit after a publication: the new page at once, then its copy in place of the old. */
async function nextVisit(heading, after) {
  forget();
  await page.goto(`${origin}/reader.html`);
  await drawn();
  assert.equal(await page.locator("h1").textContent(), heading, "the new page at once");
  // the new worker installs beside the old, keeps the new files, and deletes the old copy
  const name = `llmmath-attention ${origin}/ ${after.version}`;
  assert.deepEqual(await cachesBecome([name], 30000), [name], "the new copy, and only it");
  assert.deepEqual((await cached(name)).sort(), after.files.map((f) => `${origin}/${f}`).sort());
  const page0 = await page.evaluate(async (n) => (await (await caches.open(n)).match("reader.html")).text(), name);
  assert.match(page0, new RegExp(`<h1>${heading}</h1>`), "the copy keeps the new page");
  assert.deepEqual(seen, clean());
}

/** The server stopped: the page reloads from the copy, with `heading`. */
async function offlineAgain(heading) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, { timeout: 10000 });
  await server.stop();
  await emptyHttpCache();
  forget();
  await page.reload();
  await drawn();
  assert.equal(await page.locator("h1").textContent(), heading);
  assert.deepEqual(seen, clean());
}

test("a new edition with a changed page (the same file names): the next visit shows it, and its copy replaces the old one", async () => {
  const heading = "Attention and Transformers, the second printing";
  const { before, after } = await publishChange({ heading });
  assert.deepEqual(after.files, before.files, "the same files");
  assert.notEqual(after.version, before.version, "a new version for a changed page");
  await nextVisit(heading, after);
});

test("the server stopped again: the second printing reloads from its copy", () =>
  offlineAgain("Attention and Transformers, the second printing"));

test("a new edition with a changed style sheet (a new hashed name): the copy keeps the new file, not the old", async () => {
  const heading = "Attention and Transformers, the third printing";
  const { after, renamed } = await publishChange({ heading, restyle: true });
  assert.ok(after.files.includes(renamed.newCss) && !after.files.includes(renamed.oldCss));
  await nextVisit(heading, after);
  await offlineAgain(heading);
});

test("remove, by keyboard: the worker unregistered and its caches deleted; the chapter no longer opens without the server", async () => {
  await page.locator("#offline-remove").focus();
  await page.keyboard.press(" ");
  await page.waitForFunction(() => /removed/.test(document.getElementById("offline-status").textContent), null, {
    timeout: 10000,
  });
  assert.equal(await page.evaluate(() => document.activeElement.id), "offline-keep", "the focus moves to Keep");
  assert.deepEqual(await cacheNames(), []);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r ?? null)), null);
  await assert.rejects(page.reload(), /ERR_CONNECTION_REFUSED/);
  await page.close();
});
