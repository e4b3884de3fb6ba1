// The guide's VitePress recipe: a VitePress site made as the guide's section
// "VitePress" says, from its own snippets in the built dist/embed-guide.html: the packed package
// installed from its file with npm offline, the theme and configuration as written, a page with
// the element and a page with a frame whose files sit in docs/public/. Built once by VitePress
// (this repository's, 1.6, linked into the project as a course author's install would put it),
// served from 127.0.0.1 and opened in Chromium.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { useBrowser, dist, serve, guideRecipe, guideFiles } = require("./browser.js");

const browser = useBrowser(test);
const root = path.join(__dirname, "..", "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-vitepress-"));
const project = path.join(work, "course");
const docs = path.join(project, "docs");
let server;
test.after(async () => {
  await server?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

// The guide's element, α = 0.8 and γ = 5: (1 − 0.8⁶) / (1 − 0.8) = 0.737856 / 0.2 tokens per call.
const ELEMENT_TOKENS = 3.68928;

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Runs a command in the project; returns { status, output }. */
function run(command, args) {
  const r = spawnSync(command, args, { cwd: project, encoding: "utf8", timeout: 180000 });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}` };
}

// The site, built once for both tests: the package installed by the guide's command, offline;
// VitePress and Vue linked from this repository's node_modules, where npm would have put them.
let built;
function build() {
  built ??= (() => {
    write(path.join(project, "package.json"), `${JSON.stringify({ name: "course", private: true, type: "module" })}\n`);
    const m = /^npm install \.\/([\w.-]+\.tgz)$/.exec(guideRecipe("vite-install"));
    assert.ok(m, "the guide's install recipe names the packed file");
    fs.copyFileSync(path.join(dist, m[1]), path.join(project, m[1]));
    const installed = run("npm", [
      ...["install", `./${m[1]}`, "--offline", "--cache", path.join(work, "npm-cache")],
      ...["--no-audit", "--no-fund", "--ignore-scripts"],
    ]);
    assert.equal(installed.status, 0, installed.output);
    for (const name of ["vitepress", "vue"])
      fs.symlinkSync(path.join(root, "node_modules", name), path.join(project, "node_modules", name));

    // The configuration: the recipe's for the element, with the frame recipe's head entry added
    // (one site holds both pages).
    const config = guideRecipe("vitepress-config");
    const head = /head: \[.*\],/.exec(guideRecipe("vitepress-frame-config"));
    assert.ok(head, "the frame recipe's configuration has a head entry");
    write(
      path.join(docs, ".vitepress", "config.js"),
      config.replace("export default {", `export default {\n  ${head[0]}`),
    );
    write(path.join(docs, ".vitepress", "theme", "index.js"), `${guideRecipe("vitepress-theme")}\n`);
    write(path.join(docs, "index.md"), `# Week 5\n\nSome text.\n\n${guideRecipe("vitepress-page")}\n`);
    write(path.join(docs, "frame.md"), `# Sampling\n\nSome text.\n\n${guideRecipe("vitepress-frame-page")}\n`);
    for (const f of [...guideFiles("frame"), ...guideFiles("host")])
      write(path.join(docs, "public", f), fs.readFileSync(path.join(dist, f)));

    const vitepress = path.join(project, "node_modules", "vitepress", "bin", "vitepress.js");
    const r = run(process.execPath, [vitepress, "build", "docs"]);
    assert.equal(r.status, 0, `vitepress build:\n${r.output}`);
    return path.join(docs, ".vitepress", "dist");
  })();
  return built;
}

/** The built site on 127.0.0.1 (a folder's address is its index.html, a page's its .html). */
async function site() {
  const out = build();
  server ??= await serve({
    files: (pathname) => {
      const file = path.join(out, decodeURIComponent(pathname));
      if (!file.startsWith(out)) return null;
      if (pathname.endsWith("/")) return path.join(file, "index.html");
      return fs.existsSync(file) ? file : `${file}.html`;
    },
  });
  return server;
}

/** A page of the site in Chromium, recording errors and every request. */
async function open(address) {
  const { origin } = await site();
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 900 });
  const errors = [];
  const requests = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(`console: ${msg.text()}`));
  page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`${origin}${address}`);
  return { page, errors, requests, origin };
}

test("VitePress, the guide's theme and configuration: the element in a page's Markdown draws with the engine's numbers and follows its slider", async () => {
  const { page, errors, requests, origin } = await open("/");
  await page.waitForSelector("llm-speculative[data-ready]", { timeout: 20000 });
  const fig = page.locator("llm-speculative");
  assert.match(guideRecipe("vitepress-page"), /^<llm-speculative alpha="0\.8" gamma="5"><\/llm-speculative>$/);
  const state = await fig.evaluate((el) => el.state);
  assert.deepEqual([state.alpha, state.gamma], [0.8, 5], "the Markdown's attributes reached the element");
  // the headline shows four decimals: within half of the last one
  const shown = Number(await fig.locator(".speculative-headline-expected").textContent());
  assert.ok(Math.abs(shown - ELEMENT_TOKENS) <= 5e-5, `the figure shows ${shown} tokens per call for α 0.8, γ 5`);
  await fig.getByLabel("Acceptance rate α").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((before) => document.querySelector("llm-speculative").state.alpha !== before, 0.8);
  assert.deepEqual(
    requests.filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u)),
    [],
    "no request leaves the site",
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("VitePress, the guide's frame: its files from public/, drawn, as tall as its page by the resizer in head", async () => {
  const { page, errors } = await open("/frame.html");
  const frameEl = page.locator('iframe[src*="embed.html"]');
  await frameEl.waitFor();
  const frame = page.frames().find((f) => /embed\.html/.test(f.url()));
  assert.ok(frame, "the frame's page loaded");
  await frame.waitForSelector("html[data-ready]", { timeout: 20000 });
  // the resizer's work, waited for as a state: the frame as tall as its page
  await page.waitForFunction(
    () => document.querySelector('iframe[src*="embed.html"]').dataset.llmmathFigure === "sampling",
    null,
    { timeout: 20000 },
  );
  const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await page.waitForFunction(
    (h) => Math.abs(document.querySelector('iframe[src*="embed.html"]').getBoundingClientRect().height - h) <= 1,
    inner,
    { timeout: 20000 },
  );
  assert.equal(await frame.evaluate(() => document.querySelector("llm-sampling").state.temperature), 0.7);
  assert.deepEqual(errors, []);
  await page.close();
});
