// embed.html under the policies and sandboxes of the hosts that serve and frame it:
// dist/ served on 127.0.0.1, each page with the Content-Security-Policy header a
// host would add (the page's own <meta> policy holds as well: both must allow a thing). A frame
// that may run everything draws; one whose scripts are refused, by a policy or by a sandbox,
// says after a few seconds what it needs; one whose WebAssembly is refused names
// 'wasm-unsafe-eval'. (Downloads in a sandbox: embed.test.js and lms.test.js.)
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist, serve, guideFiles } = require("./browser.js");

const browser = useBrowser(test);

/** The policy the built guide names for `kind` ("script" or "frame"): <code data-policy="kind">. */
function guidePolicy(kind) {
  const html = fs.readFileSync(path.join(dist, "embed-guide.html"), "utf8");
  const m = new RegExp(`<code data-policy="${kind}">([^<]*)</code>`).exec(html);
  if (!m) throw new Error(`dist/embed-guide.html names no policy for ${kind}`);
  return m[1].replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, "&");
}

// The header each first part of a path gives its page: /strict/embed.html, /no-scripts/…
const POLICIES = {
  strict: "script-src 'self' 'wasm-unsafe-eval'; style-src 'self'",
  "no-scripts": "script-src 'none'",
  "no-wasm": "script-src 'self'",
  plain: null,
  // The guide's own words (<code data-policy>), as a course author copies them into a header.
  "guide-script": guidePolicy("script"),
  "guide-frame": guidePolicy("frame"),
};
// The host pages of the frame tests, in a folder of their own beside dist/'s files.
const hosts = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-policy-"));
test.after(() => fs.rmSync(hosts, { recursive: true, force: true }));

let server;
test.before(async () => {
  server = await serve({
    files: (pathname) => {
      const name = path.basename(pathname);
      return fs.existsSync(path.join(hosts, name)) ? path.join(hosts, name) : path.join(dist, name);
    },
    headers: (pathname) => {
      const policy = POLICIES[pathname.split("/")[1]];
      return policy && pathname.endsWith(".html") ? { "content-security-policy": policy } : {};
    },
  });
});
test.after(() => server?.close());

/**
 * Opens `url` (a path on the server, or a whole address), recording console errors, page errors
 * and every Content-Security-Policy violation, in the page and its frames.
 */
async function open(url, { ready = null } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 900, height: 900 });
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
  });
  const response = await page.goto(url.startsWith("/") ? server.origin + url : url);
  if (ready) await page.waitForSelector(ready, { timeout: 15000 });
  return { page, errors, response };
}

const BLOCKED = "#embed-blocked";
const POLICY_NAMED = "script-src 'self' 'wasm-unsafe-eval'";

test("dist/embed.html has nothing inline: its own policy allows no inline script or style, and it loads its script and styles from files beside it", () => {
  const html = fs.readFileSync(path.join(dist, "embed.html"), "utf8");
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(meta, "a policy of its own");
  const policy = Object.fromEntries(
    meta[1].split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
  assert.deepEqual(policy["script-src"], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(policy["style-src"], ["'self'"]);
  assert.doesNotMatch(meta[1], /unsafe-inline|'sha(256|384|512)-|'nonce-/);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.deepEqual(
    scripts.map((m) => [m[1].trim(), m[2]]),
    [
      ['src="llmmath-widgets.js"', ""],
      ['src="llmmath-embed.js"', ""],
    ],
  );
  assert.doesNotMatch(html, /<style\b|\sstyle="|\son[a-z]+="/);
  assert.deepEqual(
    [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]),
    ["llmmath-embed.css"],
  );
});

test("embed.html under a host's header script-src 'self' 'wasm-unsafe-eval'; style-src 'self' draws its figure, which a control changes, with no violation", async () => {
  const { page, errors, response } = await open("/strict/embed.html?widget=sampling", { ready: "html[data-ready]" });
  assert.equal(response.headers()["content-security-policy"], POLICIES.strict, "the header was sent");
  const fig = page.locator("llm-sampling");
  assert.equal(await fig.getAttribute("data-ready"), "");
  assert.equal(await page.locator(".llm-status.llm-error, .llm-pending.llm-error").count(), 0);
  assert.ok((await fig.locator(".sampling-table tbody tr").count()) > 3, "the table of tokens is drawn");
  assert.equal(await page.locator(BLOCKED).count(), 0, "the note for scripts that never ran is gone");
  const rows = () => fig.locator(".sampling-table tbody").first().textContent();
  const before = await rows();
  await fig.getByLabel("Temperature T").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await rows(), before, "the table follows the slider");
  // Styles applied: the page's own sheet (its font) and the figure's (a constructed sheet).
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).paddingTop), "12px");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("embed.html whose scripts a header refuses (script-src 'none') shows, after a delay, a note naming the policy it needs", async () => {
  const { page } = await open("/no-scripts/embed.html?widget=sampling", { ready: "main" });
  const note = page.locator(BLOCKED);
  // Hidden at first and shown after a delay, read from the note's own animation (its delay, then
  // its end), not from a clock: on a loaded machine the page may open after the delay has run,
  // and an opacity read during the fade reads a value between 0 and 1.
  const timing = await page.evaluate(async () => {
    const el = document.getElementById("embed-blocked");
    const [shown] = el.getAnimations();
    const { delay, fill } = shown.effect.getTiming();
    await shown.finished;
    const after = [getComputedStyle(el).opacity, getComputedStyle(el).visibility];
    // without its animation (as before the delay has run) the note is hidden
    shown.cancel();
    const before = [getComputedStyle(el).opacity, getComputedStyle(el).visibility];
    shown.play();
    await shown.finished;
    return { delay, fill, before, after };
  });
  assert.ok(
    timing.delay >= 1500,
    `shown after ${timing.delay} ms, not at once (a frame whose scripts run never shows it)`,
  );
  assert.equal(timing.fill, "forwards");
  assert.deepEqual(timing.before, ["0", "hidden"], "before its delay");
  assert.deepEqual(timing.after, ["1", "visible"], "once its fade has ended");
  assert.ok(await note.isVisible());
  const text = (await note.textContent()).replace(/\s+/g, " ");
  assert.ok(text.includes(POLICY_NAMED), text);
  assert.match(text, /allow-scripts/);
  assert.match(text, /llmmath-widgets\.js, llmmath-embed\.js and llmmath-embed\.css/);
  assert.equal(await page.locator("[data-ready], [data-failed]").count(), 0, "nothing ran, nothing is marked");
  await page.close();
});

test("embed.html whose WebAssembly a header refuses (script-src 'self') says in the figure that its policy needs 'wasm-unsafe-eval'", async () => {
  const { page, response } = await open("/no-wasm/embed.html?widget=sampling", { ready: "html[data-failed]" });
  assert.equal(response.headers()["content-security-policy"], POLICIES["no-wasm"]);
  // A host, or a test, waiting for the frame's figure must not take this for a drawn one.
  assert.equal(await page.locator("[data-ready]").count(), 0, "nothing is marked ready");
  const pending = page.locator("llm-sampling .llm-pending");
  assert.ok(await pending.isVisible());
  assert.equal(
    await pending.textContent(),
    "This figure cannot run: the engine did not start (the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'). The text and the answers still read.",
  );
  assert.equal(await page.locator(BLOCKED).count(), 0, "the scripts ran: their own message is the one shown");
  await page.close();
});

/** Writes a host page into the hosts' folder: `body` after an <h1>, external scripts only. */
function hostPage(name, body) {
  fs.writeFileSync(
    path.join(hosts, name),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${name}</title></head>
<body>
<h1>A course page</h1>
${body}
</body>
</html>
`,
  );
  return name;
}

test("embed.html under exactly the guide's policy for a frame, as a header, draws, responds and saves its PNG with no violation", async () => {
  const { page, errors, response } = await open("/guide-frame/embed.html?widget=sampling", {
    ready: "html[data-ready]",
  });
  assert.equal(response.headers()["content-security-policy"], POLICIES["guide-frame"], "the header was sent");
  assert.match(POLICIES["guide-frame"], /^default-src 'self'; /, "the guide's policy starts from default-src 'self'");
  const fig = page.locator("llm-sampling");
  const rows = () => fig.locator(".sampling-table tbody").first().textContent();
  const before = await rows();
  await fig.getByLabel("Temperature T").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await rows(), before, "the table follows the slider");
  // The captions' formula font, a data: address in llmmath-embed.css, loads: a refused font
  // would fail here (and fall back silently on screen).
  const fonts = await page.evaluate(() =>
    Promise.all(
      [...document.fonts].map((f) =>
        f.load().then(
          () => `${f.family} loaded`,
          () => `${f.family} refused`,
        ),
      ),
    ),
  );
  assert.ok(fonts.length > 0, "llmmath-embed.css declares its font");
  assert.ok(
    fonts.every((f) => f.endsWith("loaded")),
    fonts.join(", "),
  );
  const [png] = await Promise.all([page.waitForEvent("download"), fig.locator(".llm-download-png").click()]);
  assert.equal(png.suggestedFilename(), "sampling-figure.png");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a page with the script embed under exactly the guide's policy for it, as a header, draws its figure with no violation", async () => {
  hostPage(
    "script-host.html",
    '<script src="llmmath-widgets.js"></script>\n<llm-speculative alpha="0.8" gamma="5"></llm-speculative>',
  );
  const { page, errors, response } = await open("/guide-script/script-host.html", {
    ready: "llm-speculative[data-ready]",
  });
  assert.equal(response.headers()["content-security-policy"], POLICIES["guide-script"], "the header was sent");
  assert.equal(await page.locator("llm-speculative .llm-pending.llm-error").count(), 0);
  const state = await page.evaluate(() => document.querySelector("llm-speculative").state);
  assert.deepEqual([state.alpha, state.gamma], [0.8, 5], "the element's attributes");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("embed.html in a frame sandboxed without allow-scripts shows the note at once, and the page's words for scripts that are off", async () => {
  hostPage(
    "no-scripts-host.html",
    '<iframe id="frame" src="embed.html?widget=sampling" title="Sampling" sandbox="" width="800" height="600"></iframe>',
  );
  const { page } = await open("/plain/no-scripts-host.html", { ready: "iframe" });
  const frame = page.frameLocator("#frame");
  // where scripting is off, no script can remove it: it need not wait (no delay before its fade,
  // read from its animation rather than timed, which a loaded machine would slow)
  assert.equal(
    await frame.locator(BLOCKED).evaluate((el) => getComputedStyle(el).animationDelay),
    "0s",
    "the note's delay where scripting is off",
  );
  await frame.locator(BLOCKED).waitFor({ state: "visible", timeout: 30000 });
  const text = (await frame.locator(BLOCKED).textContent()).replace(/\s+/g, " ");
  assert.ok(text.includes(POLICY_NAMED), text);
  assert.match(text, /sandbox must include allow-scripts/);
  assert.ok(await frame.locator(".noscript").isVisible(), "the <noscript> note too");
  await page.close();
});

test("embed.html in a sandboxed frame opened from file:// says that the browser refused the files beside it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-policy-file-"));
  try {
    for (const f of guideFiles("frame")) fs.copyFileSync(path.join(dist, f), path.join(dir, f));
    fs.writeFileSync(
      path.join(dir, "host.html"),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body><iframe id="frame" src="embed.html?widget=sampling" title="Sampling" sandbox="allow-scripts" width="800" height="600"></iframe></body></html>',
    );
    const { page } = await open(pathToFileURL(path.join(dir, "host.html")).href, { ready: "iframe" });
    const note = page.frameLocator("#frame").locator(BLOCKED);
    await note.waitFor({ state: "visible", timeout: 30000 });
    assert.match((await note.textContent()).replace(/\s+/g, " "), /sandboxed frame opened from file:\/\/: serve/);
    await page.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
