// A learning platform's page framing a figure: the frame is the
// guide's own snippet (dist/embed-guide.html, <pre data-recipe="lms">), pasted into a page served
// on 127.0.0.1 under the platform's policy, Content-Security-Policy: default-src 'self' (no
// inline script, no inline style on the host), beside the platform's resizer: a stand-in for
// Canvas's (fixtures/lms-resize.js, acting on lti.frameResize), or dist/llmmath-frame.js (ours).
// The figure is drawn and answers a control; the theme's shortcut keys typed in it never reach
// the platform's page; the frame takes the whole height of its page; Download SVG, which the
// sandbox refuses, claims no file and offers the picture as text; nothing leaves 127.0.0.1.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { useBrowser, dist, serve, guideRecipe, artifact } = require("./browser.js");

const browser = useBrowser(test);
const fixtures = path.join(__dirname, "fixtures");
const HOST_POLICY = "default-src 'self'";

// The platform's page: the guide's snippet as a course author pastes it, and the platform's
// scripts, external files. /canvas.html resizes with the Canvas stand-in, /ours.html with
// llmmath-frame.js.
const snippet = guideRecipe("lms");
const RESIZERS = { canvas: "lms-resize.js", ours: "llmmath-frame.js" };
const hostPage = (resizer) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Week 3 · Sampling</title>
<link rel="stylesheet" href="lms.css">
</head>
<body>
<div class="lms-bar">Introduction to language models · Week 3</div>
<main class="lms-content">
<h1>Sampling</h1>
<p>Before you read on, try the figure: lower the temperature and watch the distribution sharpen.</p>
${snippet}
<p id="after">After the figure, the page goes on.</p>
</main>
<script src="lms-keys.js"></script>
<script src="${resizer}"></script>
</body>
</html>
`;

let server;
test.before(async () => {
  server = await serve({
    files: (pathname) => {
      const name = path.basename(pathname);
      return fs.existsSync(path.join(fixtures, name)) ? path.join(fixtures, name) : path.join(dist, name);
    },
    headers: (pathname) => (/(canvas|ours)\.html$/.test(pathname) ? { "content-security-policy": HOST_POLICY } : {}),
    // the host pages are made here, not read from a file
    body: (pathname) => {
      const m = /\/(canvas|ours)\.html$/.exec(pathname);
      return m ? hostPage(RESIZERS[m[1]]) : null;
    },
  });
});
test.after(() => server?.close());

/** Opens a host page at `width`, recording errors and every request of the page and its frame. */
async function open(name, width) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = [];
  const requests = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("request", (req) => requests.push(req.url()));
  const response = await page.goto(`${server.origin}/${name}`);
  assert.equal(response.headers()["content-security-policy"], HOST_POLICY, "the platform's policy was sent");
  await page.waitForSelector("iframe");
  // the snippet's frame loads lazily (loading="lazy"): its page comes once the browser starts it
  let frame = null;
  for (let i = 0; i < 100 && !frame; i++) {
    frame = page.frame({ url: /embed\.html/ });
    if (!frame) await page.waitForTimeout(50);
  }
  assert.ok(frame, "the snippet's frame is on the page");
  await frame.waitForSelector("llm-sampling[data-ready]", { timeout: 15000 });
  return { page, frame, errors, requests };
}

/**
 * Waits until the frame's box is the height of the page inside it (within 2 px) and has stayed so
 * for half a second; returns the last measures, settled or not: { frame, inside, scrolls,
 * figureBottom, viewport }.
 */
async function settledHeights(page, frame) {
  const measure = async () => {
    const box = await page.evaluate(() => document.querySelector("iframe").clientHeight);
    // the height of the frame's page itself (its root's box), not scrollHeight, which is never
    // less than the frame: a frame too tall for its page would pass by that
    const inner = await frame.evaluate(() => ({
      inside: document.documentElement.getBoundingClientRect().height,
      scrolls: document.documentElement.scrollHeight > innerHeight,
      figureBottom: document.querySelector("main > figure").getBoundingClientRect().bottom,
      viewport: innerHeight,
    }));
    return { frame: box, ...inner };
  };
  let last = await measure();
  let since = Date.now();
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    await page.waitForTimeout(100);
    const now = await measure();
    const fits = Math.abs(now.frame - now.inside) <= 2;
    if (!fits || now.frame !== last.frame) since = Date.now();
    last = now;
    if (fits && Date.now() - since > 500) break;
  }
  return last;
}

/** The figure's table of tokens, as text, and its chart, each bar's width: what a moved control changes. */
const table = (frame) => frame.locator("llm-sampling .sampling-table tbody").first().textContent();
const bars = (frame) =>
  frame.locator("llm-sampling .sampling-table tbody .sampling-bar").evaluateAll((els) => els.map((e) => e.style.width));

for (const [name, width] of [
  ["canvas", 1280],
  ["canvas", 390],
  ["ours", 1280],
  ["ours", 390],
]) {
  test(`a learning platform's page (${name === "canvas" ? "Canvas's lti.frameResize" : "llmmath-frame.js"}, ${width} px) under default-src 'self': the guide's frame draws, answers a control, takes its full height, keeps its keys, claims no download, and asks nothing of another host`, async () => {
    const { page, frame, errors, requests } = await open(`${name}.html`, width);
    const iframe = page.locator("iframe");
    assert.equal(await iframe.getAttribute("sandbox"), "allow-scripts", "the guide's sandbox");
    assert.match(await iframe.getAttribute("src"), /^embed\.html\?widget=sampling&temperature=0\.7$/);
    assert.equal(await frame.locator("llm-sampling").getAttribute("temperature"), "0.7");
    assert.ok((await frame.locator("llm-sampling .sampling-table tbody tr").count()) > 3, "the figure is drawn");

    // The frame takes the height of its page, and the figure is not cut off at its bottom.
    let h = await settledHeights(page, frame);
    assert.ok(Math.abs(h.frame - h.inside) <= 2, `the frame is ${h.frame} px high, its page ${h.inside} px`);
    assert.ok(h.figureBottom <= h.viewport, `the figure ends at ${h.figureBottom} px, the frame at ${h.viewport} px`);
    assert.equal(h.scrolls, false, "nothing to scroll inside the frame");
    if (name === "canvas") assert.ok((await page.evaluate(() => window.lmsResizes)) > 0, "Canvas's resizer did it");

    // A control moved changes the figure; the frame follows its new height.
    const before = { table: await table(frame), bars: await bars(frame) };
    assert.ok(before.bars.length >= 12 && before.bars.every((w) => /^\d+(\.\d+)?%$/.test(w)), before.bars.join());
    await frame.locator("llm-sampling").getByLabel("Temperature T").focus();
    await frame.page().keyboard.press("ArrowLeft");
    assert.equal(await frame.locator("llm-sampling").evaluate((el) => el.state.temperature), 0.65);
    assert.notEqual(await table(frame), before.table, "the table follows the slider");
    assert.notDeepEqual(await bars(frame), before.bars, "and so do the chart's bars");

    // The themes' shortcut keys typed in the figure's field, slider and button reach no handler
    // of the platform's page (keys do not cross documents; the check is that nothing forwards them).
    const keys = ["n", "p", "s", "Slash", "Shift+Slash", "f", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
    await frame.evaluate(() => {
      window.figureKeys = 0;
      const root = document.querySelector("llm-sampling").shadowRoot;
      root.addEventListener("keydown", (e) => e.key !== "Shift" && (window.figureKeys += 1), { capture: true });
    });
    for (const selector of ['input[type="number"]', 'input[type="range"]', "button"]) {
      await frame.locator("llm-sampling").locator(selector).first().focus();
      for (const key of keys) await page.keyboard.press(key);
    }
    assert.equal(await frame.evaluate(() => window.figureKeys), 3 * keys.length, "the figure had every key");
    assert.deepEqual(await page.evaluate(() => window.hostKeys), [], "no key reached the platform's page");
    assert.equal(page.url(), `${server.origin}/${name}.html`, "the page did not turn");
    h = await settledHeights(page, frame);
    assert.ok(Math.abs(h.frame - h.inside) <= 2, `after the changes: the frame ${h.frame} px, its page ${h.inside} px`);
    // The counter counts: a key on the page itself reaches it.
    await page.locator("h1").click();
    await page.keyboard.press("n");
    assert.deepEqual(await page.evaluate(() => window.hostKeys), ["n"]);
    assert.equal(page.url(), `${server.origin}/${name}.html#next-page`, "and turns the page");

    // The whole page in one screen: a full-page screenshot leaves a sandboxed frame's lower part
    // unpainted (the frame paints in a process of its own, what was near the screen).
    await page.setViewportSize({ width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifact(`lms-${name}-${width}.png`) });
    const outside = requests.filter((u) => !u.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(u));
    assert.deepEqual(outside, [], "requests that left 127.0.0.1");
    assert.deepEqual(errors, []);

    // The guide's sandbox has no allow-downloads: Download SVG brings no file, and the figure
    // does not say it did; it offers the picture as text, and the frame grows with its panel.
    const fig = frame.locator("llm-sampling");
    const came = page
      .waitForEvent("download", { timeout: 2500 })
      .then((d) => d.suggestedFilename())
      .catch(() => null);
    await fig.locator(".llm-download-svg").click();
    assert.equal(await came, null, "no file came");
    const note = await fig.locator(".llm-panel:not([hidden]) .llm-takeaway-note").textContent();
    assert.doesNotMatch(note, /Downloaded/);
    assert.match(note, /If no file came, this frame may not save files \(a sandbox without allow-downloads\)/);
    await fig.locator(".llm-panel .llm-copy-svg").click();
    assert.match(
      await fig.locator(".llm-panel textarea").inputValue(),
      /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
    h = await settledHeights(page, frame);
    assert.ok(
      Math.abs(h.frame - h.inside) <= 2,
      `with the panel open: the frame ${h.frame} px, its page ${h.inside} px`,
    );
    await page.close();
  });
}
