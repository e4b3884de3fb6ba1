// What a served edition must do, whichever server serves it (tests/hosting/nginx.test.js and
// apache.test.js run each of these against their server): every file with the headers the
// declaration gives it (site/hosting.mjs headersFor), its precompressed copies sent by
// Accept-Encoding with the build's bytes, pages revalidated by their ETag, the folder's address
// answered by the chapter, and in Chromium the chapter ready under these headers with no policy
// violation, and a figure framed by a page of another origin drawn and sized.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const { serve, dist, drawAll } = require("../browser/browser.js");
const { declaration, publish, get } = require("./servers.js");

/** The declared headers of `file`, names in lower case as Node gives a response's. */
async function expected(file) {
  const { headersFor } = await declaration();
  return Object.fromEntries(Object.entries(headersFor(file)).map(([k, v]) => [k.toLowerCase(), v]));
}

/** `response`'s headers among `names`, to compare with the declaration's. */
const picked = (response, names) => Object.fromEntries(names.map((n) => [n, response.headers[n]]));

/**
 * Every file of the edition in `root`, asked of `origin` three ways: without Accept-Encoding (the
 * file's own bytes, no Content-Encoding), and, for a compressible file, taking br and gzip (then
 * taking gzip alone): the build's .br, then its .gz, byte for byte, each with Content-Encoding
 * and decoding to the file (a copy left from an earlier build would not);
 * a file the build does not compress is never sent encoded. Each response carries exactly the
 * declared headers (a header sent twice would show as two values joined). Returns how many files
 * were asked for.
 */
async function everyFile(origin, root) {
  const { servedFiles } = await publish();
  const { compressible } = await declaration();
  const files = await servedFiles(root);
  assert.ok(files.includes("reader.html") && files.some((f) => f.startsWith("assets/")), "the edition's files");
  for (const file of files) {
    const want = await expected(file);
    const names = [...Object.keys(want), "content-encoding"];
    const url = `${origin}/${file}`;
    const plain = await get(url);
    assert.equal(plain.status, 200, `${file}: status`);
    assert.deepEqual(picked(plain, names), { ...want, "content-encoding": undefined }, `${file}: headers, not encoded`);
    assert.ok(plain.body.equals(fs.readFileSync(path.join(root, file))), `${file}: its own bytes`);
    assert.match(plain.headers.etag ?? "", /^(W\/)?"[^"]+"$/, `${file}: an ETag`);
    const both = await get(url, { "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await get(url, { "Accept-Encoding": "gzip" });
    if (compressible(file)) {
      assert.deepEqual(picked(both, names), { ...want, "content-encoding": "br" }, `${file}: headers, br`);
      assert.ok(both.body.equals(fs.readFileSync(path.join(root, `${file}.br`))), `${file}: the build's .br`);
      assert.deepEqual(picked(gzip, names), { ...want, "content-encoding": "gzip" }, `${file}: headers, gzip`);
      assert.ok(gzip.body.equals(fs.readFileSync(path.join(root, `${file}.gz`))), `${file}: the build's .gz`);
      // and what the browser reads from them is the file itself
      assert.ok(zlib.brotliDecompressSync(both.body).equals(plain.body), `${file}: its .br is the file`);
      assert.ok(zlib.gunzipSync(gzip.body).equals(plain.body), `${file}: its .gz is the file`);
    } else {
      for (const [r, how] of [
        [both, "br"],
        [gzip, "gzip"],
      ]) {
        assert.deepEqual(
          picked(r, names),
          { ...want, "content-encoding": undefined },
          `${file}: not encoded (${how} taken)`,
        );
        assert.ok(r.body.equals(plain.body), `${file}: its own bytes (${how} taken)`);
      }
    }
  }
  return files.length;
}

/**
 * Caching at work: a page and a hashed file asked again with the ETag they were sent are a 304
 * with the same Cache-Control; the page is revalidated each time (no-cache), the hashed file kept
 * for a year (immutable).
 */
async function revalidation(origin) {
  const { CACHING } = await declaration();
  const asset = fs.readdirSync(path.join(dist, "assets")).find((f) => f.endsWith(".css"));
  for (const [file, caching] of [
    ["reader.html", CACHING.revalidate],
    ["sw.js", CACHING.revalidate],
    [`assets/${asset}`, CACHING.immutable],
  ]) {
    const first = await get(`${origin}/${file}`, { "Accept-Encoding": "br" });
    assert.equal(first.headers["cache-control"], caching, `${file}: Cache-Control`);
    const again = await get(`${origin}/${file}`, { "Accept-Encoding": "br", "If-None-Match": first.headers.etag });
    assert.equal(again.status, 304, `${file}: asked again with its ETag`);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers["cache-control"], caching, `${file}: Cache-Control of the 304`);
  }
  assert.equal(CACHING.immutable, "public, max-age=31536000, immutable");
  assert.equal(CACHING.revalidate, "no-cache");
}

/** The folder's own address answers with the chapter, as a page. */
async function index(origin, root) {
  const r = await get(`${origin}/`);
  assert.equal(r.status, 200);
  assert.ok(r.body.equals(fs.readFileSync(path.join(root, "reader.html"))), "/ is reader.html");
  assert.deepEqual(picked(r, Object.keys(await expected("reader.html"))), await expected("reader.html"));
}

/**
 * Opens `url` in a new page of `context`, recording console errors, page errors, Content-Security-
 * Policy violations (in the page and its frames), responses of 400 and more, and requests to
 * another origin than `origin`'s. Returns { page, response, seen }.
 */
async function openServed(context, url, origin) {
  const page = await context.newPage();
  const seen = { errors: [], violations: [], failed: [], outside: [] };
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} in ${location.href}`);
    });
  });
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    (msg.text().startsWith("CSP violation") ? seen.violations : seen.errors).push(msg.text());
  });
  page.on("pageerror", (e) => seen.errors.push(`page: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) seen.failed.push(`${r.status()} ${r.url()}`);
  });
  page.on("request", (r) => {
    if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith("data:")) seen.outside.push(r.url());
  });
  const response = await page.goto(url);
  return { page, response, seen };
}

/**
 * The chapter in Chromium, served: every figure drawn (drawAll, then html[data-ready]), the page's header policy
 * as declared, and no violation of it, no console or page error, no request refused or outside.
 */
async function readerInChromium(context, origin) {
  const { page, response, seen } = await openServed(context, `${origin}/reader.html`, origin);
  await drawAll(page); // every figure, not only those near the screen
  await page.waitForSelector("html[data-ready]", { timeout: 20000 });
  const want = await expected("reader.html");
  assert.equal(response.headers()["content-security-policy"], want["content-security-policy"]);
  const widgets = await page.evaluate(() =>
    [...document.body.querySelectorAll("*")]
      .filter((el) => el.localName.startsWith("llm-") && customElements.get(el.localName))
      .map((el) => [el.localName, el.hasAttribute("data-ready")]),
  );
  assert.ok(widgets.length >= 10, `${widgets.length} widgets`);
  assert.deepEqual(
    widgets.filter(([, ready]) => !ready),
    [],
    "every widget drawn",
  );
  // the manifest is linked over http, and Chromium read it without complaint
  assert.equal(await page.locator('link[rel="manifest"]').getAttribute("href"), "manifest.webmanifest");
  assert.deepEqual(seen, { errors: [], violations: [], failed: [], outside: [] });
  await page.close();
}

/**
 * A course page of another origin (127.0.0.1, another port) frames embed.html from the server
 * in a sandbox that allows scripts, and sizes it with llmmath-frame.js (a copy beside the page):
 * the figure draws with no violation, and the frame takes the figure's height. The same page
 * framing the chapter itself is refused (frame-ancestors 'self').
 */
async function framedEmbed(context, origin, artifactPath) {
  const host = await serve({
    body: (pathname) =>
      pathname === "/course.html"
        ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title></head><body>
<h1>A course page</h1>
<iframe id="figure" src="${origin}/embed.html?widget=sampling&amp;temperature=0.7" title="Figure 2.1" sandbox="allow-scripts" width="800" height="200"></iframe>
<script src="llmmath-frame.js"></script>
<iframe id="chapter" src="${origin}/reader.html" title="The chapter" width="800" height="200"></iframe>
</body></html>`
        : null,
    files: (pathname) => (pathname === "/llmmath-frame.js" ? path.join(dist, "llmmath-frame.js") : null),
  });
  try {
    const { page, seen } = await openServed(context, `${host.origin}/course.html`, origin);
    const frame = page.frameLocator("#figure");
    await frame.locator("html[data-ready]").waitFor({ timeout: 20000 });
    await page.waitForFunction(() => document.getElementById("figure").style.height !== "", null, { timeout: 10000 });
    const inner = await (await page.$("#figure")).contentFrame();
    const height = await inner.evaluate(() => document.documentElement.scrollHeight);
    const sized = await page.evaluate(() => parseFloat(document.getElementById("figure").style.height));
    // the frame is as tall as its page (rounded up to a pixel), far from the 200 px it started with
    assert.ok(Math.abs(sized - height) <= 1, `frame ${sized} px, its page ${height} px`);
    assert.ok(sized > 400, `frame ${sized} px`);
    // the chapter refuses to be framed by another site: an error page stands in its frame
    const chapter = await (await page.$("#chapter")).contentFrame();
    for (let waited = 0; !chapter.url().startsWith("chrome-error:") && waited < 10000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(chapter.url(), /^chrome-error:/, "the chapter framed by another origin");
    if (artifactPath) await page.screenshot({ path: artifactPath, fullPage: true });
    // requests of the course page's own (the page, its copy of llmmath-frame.js) are not outside
    seen.outside = seen.outside.filter((u) => !u.startsWith(`${host.origin}/`));
    // Chromium reports the refused frame as a console error of the course page: the one expected
    const refused = seen.errors.filter((e) => /Refused to (frame|display)|frame-ancestors/.test(e));
    assert.equal(refused.length, 1, seen.errors.join("\n"));
    seen.errors = seen.errors.filter((e) => !refused.includes(e));
    assert.deepEqual(seen, { errors: [], violations: [], failed: [], outside: [] });
    await page.close();
  } finally {
    await host.close();
  }
}

module.exports = { everyFile, revalidation, index, readerInChromium, framedEmbed, openServed, expected };
