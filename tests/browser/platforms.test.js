// Course platforms as they are: real sites built with the publishing tools
// course authors use, each page embedding a figure with the snippets of the course authors'
// guide (read from the built dist/embed-guide.html, <pre data-recipe>, so the guide and the test
// cannot drift), served from 127.0.0.1 and driven with the themes' own keyboard scripts. Each
// site is built once per run, in a temporary folder.
//   MkDocs 1.4, default theme: n and p turn the page, s opens search, ? opens the help
//   MkDocs with Material 8.2 and instant navigation: n and p turn the page, s, f and / open search
//   Sphinx 5.3 with MyST and the book theme (Jupyter Book's look), set up from the guide's
//   _config.yml as Jupyter Book passes it on: the arrow keys turn the page, / focuses search
//   Sphinx with alabaster, from the guide's conf.py, navigation with keys on: the same keys
//   Hugo 0.111 and pandoc 2.17, with a theme's shortcut script (fixtures/theme-keys.js)
// For each: the figure draws, a slider moved changes its picture, a key typed into the figure's
// controls does nothing to the site while the same key on the page does (so the check can fail),
// Escape still reaches the page, and every request goes to the site itself.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist, serve, guideRecipe, guideFiles, artifact } = require("./browser.js");
const { figures } = require("./registry.js");

const browser = useBrowser(test);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-platforms-"));
const servers = [];
test.after(async () => {
  for (const s of servers) await s.close();
  fs.rmSync(work, { recursive: true, force: true });
});
const WIDGETS = path.join(dist, "llmmath-widgets.js");
const THEME_KEYS = path.join(__dirname, "fixtures", "theme-keys.js");

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Serves a built site's folder from 127.0.0.1 as a web server does (a folder's index.html). */
async function host(root) {
  const server = await serve({
    files: (pathname) => {
      const file = path.join(root, decodeURIComponent(pathname));
      if (!file.startsWith(root)) return null;
      return pathname.endsWith("/") ? path.join(file, "index.html") : file;
    },
  });
  servers.push(server);
  return server;
}

// --- the sites, each as the guide says --------------------------------------------------------

/** MkDocs, default theme or Material with instant navigation: pages start, sampling (the figure), next. */
function mkdocsSite(name, theme, siteUrl = "") {
  const root = path.join(work, name);
  write(
    path.join(root, "mkdocs.yml"),
    `site_name: Course\n${siteUrl ? `site_url: ${siteUrl}/\n` : ""}${theme}nav:\n  - index.md\n  - sampling.md\n  - next.md\n${guideRecipe("mkdocs-yml")}\n`,
  );
  write(path.join(root, "docs", "index.md"), "# Start\n\nThe course begins.\n");
  write(path.join(root, "docs", "sampling.md"), `# Sampling\n\nSome text.\n\n${guideRecipe("mkdocs-page")}\n`);
  write(path.join(root, "docs", "next.md"), "# Next\n\nThe next page.\n");
  fs.copyFileSync(WIDGETS, path.join(root, "docs", "llmmath-widgets.js"));
  execFileSync("mkdocs", ["build", "-q", "-d", path.join(root, "site")], { cwd: root, stdio: "pipe" });
  return path.join(root, "site");
}

/**
 * Sphinx with MyST: pages index (the figure, then the table of contents) and next. `settings`
 * is the text of conf.py's settings from the guide.
 */
function sphinxSite(name, settings) {
  const root = path.join(work, name);
  write(path.join(root, "conf.py"), `project = "Course"\nextensions = ["myst_parser"]\n${settings}\n`);
  write(
    path.join(root, "index.md"),
    `# Rotary embeddings\n\nSome text.\n\n${guideRecipe("myst-page")}\n\n\`\`\`{toctree}\nnext\n\`\`\`\n`,
  );
  write(path.join(root, "next.md"), "# Next\n\nThe next page.\n");
  fs.mkdirSync(path.join(root, "_static"), { recursive: true });
  fs.copyFileSync(WIDGETS, path.join(root, "_static", "llmmath-widgets.js"));
  execFileSync("sphinx-build", ["-q", "-b", "html", root, path.join(root, "_build")], { stdio: "pipe" });
  return path.join(root, "_build");
}

/** conf.py's settings from the guide's _config.yml, as Jupyter Book hands its sphinx.config on. */
function jupyterBookSettings() {
  const yml = path.join(work, "_config.yml");
  write(yml, guideRecipe("jupyter-book-config"));
  return execFileSync(
    "python3",
    [
      "-c",
      "import sys, yaml\nfor k, v in yaml.safe_load(open(sys.argv[1]))['sphinx']['config'].items(): print(f'{k} = {v!r}')",
      yml,
    ],
    { encoding: "utf8" },
  );
}

/** Hugo: a page with the figure and a second page, in a bare layout with a theme's shortcut script. */
function hugoSite() {
  const root = path.join(work, "hugo");
  write(path.join(root, "hugo.toml"), `baseURL = "/"\ntitle = "Course"\n${guideRecipe("hugo-config")}\n`);
  const layout = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<script src="/theme-keys.js"></script></head><body><h1>{{ .Title }}</h1><main>{{ .Content }}</main></body></html>\n`;
  write(path.join(root, "layouts", "_default", "single.html"), layout);
  write(path.join(root, "layouts", "_default", "list.html"), layout);
  write(
    path.join(root, "content", "sampling.md"),
    `---\ntitle: Sampling\n---\n\nSome text.\n\n${guideRecipe("hugo-page")}\n`,
  );
  fs.mkdirSync(path.join(root, "static"), { recursive: true });
  fs.copyFileSync(WIDGETS, path.join(root, "static", "llmmath-widgets.js"));
  fs.copyFileSync(THEME_KEYS, path.join(root, "static", "theme-keys.js"));
  execFileSync("hugo", ["--quiet", "--destination", path.join(root, "public")], { cwd: root, stdio: "pipe" });
  return path.join(root, "public");
}

/** pandoc: the guide's page and command, with a theme's shortcut script in the header. */
function pandocSite() {
  const root = path.join(work, "pandoc");
  write(path.join(root, "page.md"), `# Speculative decoding\n\nSome text.\n\n${guideRecipe("pandoc-page")}\n`);
  write(path.join(root, "keys.html"), '<script src="theme-keys.js"></script>\n');
  fs.copyFileSync(WIDGETS, path.join(root, "llmmath-widgets.js"));
  fs.copyFileSync(THEME_KEYS, path.join(root, "theme-keys.js"));
  // the command as an author types it, in a shell
  const command = guideRecipe("pandoc-command").trim();
  assert.match(command, /^pandoc /);
  execFileSync("sh", ["-c", `${command} --include-in-header keys.html`], { cwd: root, stdio: "pipe" });
  return root;
}

// --- what every site must show ----------------------------------------------------------------

/** Opens `url`, collecting every request, and waits for its figure (the one element of a figure). */
async function open(url) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 900 });
  const errors = [];
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  // the themes' own faults (a search index a test site lacks) are theirs; one in our script is ours
  page.on("pageerror", (e) => /llmmath-widgets\.js/.test(e.stack ?? "") && errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("[data-figure][data-ready]", { timeout: 15000 });
  await page.evaluate(() => {
    window.__escapes = 0;
    document.addEventListener("keydown", (e) => e.key === "Escape" && (window.__escapes += 1));
  });
  return { page, errors, requests };
}

/** The figure's picture (its registry's picture selectors) as markup, to see it change. */
function picture(page) {
  return page.evaluate(
    (pictures) => {
      const el = document.querySelector("[data-figure][data-ready]");
      return pictures[el.dataset.figure]
        .map((s) => [...el.shadowRoot.querySelectorAll(s)].map((n) => n.outerHTML).join(""))
        .join("|");
    },
    Object.fromEntries(Object.entries(figures).map(([n, f]) => [n, f.picture])),
  );
}

/** Moves the figure's first slider to its end, as a reader does, and sees the picture change. */
async function sliderChangesPicture(page, site) {
  const before = await picture(page);
  const slider = page.locator("[data-figure][data-ready]").locator('input[type="range"]').first();
  await slider.focus();
  await page.keyboard.press("End");
  await page
    .waitForFunction((b) => {
      const el = document.querySelector("[data-figure][data-ready]");
      return el && el.shadowRoot.innerHTML.length > 0 && b !== null;
    }, before)
    .catch(() => {});
  await page.waitForTimeout(100);
  assert.notEqual(await picture(page), before, `${site}: moving a slider changes the figure`);
}

/** Focuses each kind of control of the figure in turn (a number field, a slider, a button) and presses `keys`. */
async function pressInFigure(page, keys) {
  for (const selector of ['input[type="number"]', 'input[type="range"]', "button"]) {
    const control = page.locator("[data-figure][data-ready]").locator(selector).first();
    await control.focus();
    for (const key of keys) await page.keyboard.press(key);
  }
}

/** Every request went to the site (or is a data: or blob: address made in the page). */
function allRequestsLocal(requests, server, site) {
  const away = requests.filter((u) => !u.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(u));
  assert.deepEqual(away, [], `${site}: no request leaves the site`);
}

/**
 * Screenshots of the page at a desktop's and a phone's width, scrolled to the figure, for looking
 * at: build/test-artifacts/platform-<site>-<width>.png.
 */
async function shoot(page, site) {
  for (const width of [1280, 390]) {
    // a page opened at that width, as a reader's is (a theme lays out its sidebar as it loads)
    const shot = await browser.context.newPage();
    await shot.setViewportSize({ width, height: 900 });
    await shot.goto(page.url());
    const figure = shot.locator("[data-figure][data-ready]").first();
    await figure.waitFor({ timeout: 15000 });
    await figure.evaluate((el) => el.scrollIntoView());
    await shot.waitForTimeout(200);
    await shot.screenshot({ path: artifact(`platform-${site}-${width}.png`) });
    await shot.close();
  }
}

/** Clicks the page's heading, so that a key pressed next goes to the page, not a figure. */
async function focusPage(page) {
  await page.locator("h1").first().click();
}

// --- the sites --------------------------------------------------------------------------------

test("MkDocs (default theme): the guide's recipe draws the figure; n, p, s and ? typed in it stay in it; on the page they turn it and open its dialogs", async () => {
  // the theme's highlight.js comes from a CDN unless the site turns it off, as an offline course does
  const server = await host(mkdocsSite("mkdocs", "theme:\n  name: mkdocs\n  highlightjs: false\n"));
  const url = `${server.origin}/sampling/`;
  const { page, errors, requests } = await open(url);
  await sliderChangesPicture(page, "MkDocs");
  await shoot(page, "mkdocs");
  await pressInFigure(page, ["n", "p", "s", "Shift+Slash", "Escape"]);
  await page.waitForTimeout(300);
  assert.equal(page.url(), url, "the page did not turn");
  assert.equal(
    await page.locator("#mkdocs_search_modal.show, #mkdocs_keyboard_modal.show").count(),
    0,
    "no dialog opened",
  );
  assert.ok((await page.evaluate(() => window.__escapes)) >= 3, "Escape reaches the page");
  // The theme's handlers are live: s on the page opens search, n turns the page.
  await focusPage(page);
  await page.keyboard.press("s");
  await page.waitForSelector("#mkdocs_search_modal.show");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#mkdocs_search_modal.show", { state: "detached" }).catch(() => {});
  await focusPage(page);
  await Promise.all([page.waitForURL(/next/), page.keyboard.press("n")]);
  allRequestsLocal(requests, server, "MkDocs");
  assert.deepEqual(errors, []);
  await page.close();
});

test("MkDocs with Material and instant navigation: the figure draws on a page reached without a reload; n, p, s, / and f typed in it stay in it, on the page they act", async () => {
  // instant navigation needs the site's address (site_url); the site is built once it is served
  const root = path.join(work, "material", "site");
  fs.mkdirSync(root, { recursive: true });
  const server = await host(root);
  mkdocsSite(
    "material",
    "theme:\n  name: material\n  font: false\n  features:\n    - navigation.instant\n",
    server.origin,
  );
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => /llmmath-widgets\.js/.test(e.stack ?? "") && errors.push(e.message));
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => customElements.get("llm-sampling"));
  await page.evaluate(() => (window.__samePage = true));
  // instant navigation: the link is followed by the theme's script, the document stays
  await page.locator('a[href="sampling/"]').first().click();
  await page.waitForSelector("llm-sampling[data-ready]", { timeout: 15000 });
  assert.equal(await page.evaluate(() => window.__samePage), true, "reached by instant navigation");
  assert.match(page.url(), /\/sampling\/$/);
  await page.evaluate(() => {
    window.__escapes = 0;
    document.addEventListener("keydown", (e) => e.key === "Escape" && (window.__escapes += 1));
  });
  await sliderChangesPicture(page, "Material");
  await shoot(page, "material");
  const url = page.url();
  await pressInFigure(page, ["n", "p", "s", "Slash", "f", "Escape"]);
  await page.waitForTimeout(300);
  assert.equal(page.url(), url, "the page did not turn");
  assert.equal(await page.locator("#__search").isChecked(), false, "search did not open");
  assert.ok((await page.evaluate(() => window.__escapes)) >= 3, "Escape reaches the page");
  // The theme's handlers are live: s on the page opens search, n turns the page.
  await focusPage(page);
  await page.keyboard.press("s");
  await page.waitForFunction(() => document.getElementById("__search").checked);
  await page.keyboard.press("Escape");
  await focusPage(page);
  await Promise.all([page.waitForURL(/next/), page.keyboard.press("n")]);
  // back to the figure's page, instantly again: it draws anew
  await page.goBack();
  await page.waitForSelector("llm-sampling[data-ready]", { timeout: 15000 });
  assert.equal(await page.evaluate(() => window.__samePage), true);
  allRequestsLocal(requests, server, "Material");
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [name, theme, settings] of [
  ["the book theme, set up from the guide's _config.yml", 'html_theme = "sphinx_book_theme"', jupyterBookSettings],
  [
    "alabaster with navigation by keys, set up from the guide's conf.py",
    'html_theme = "alabaster"\nhtml_theme_options = {"navigation_with_keys": True}',
    () => guideRecipe("sphinx-conf"),
  ],
]) {
  test(`Sphinx with MyST (${name}): the script is deferred, the figure draws; arrows and / typed in it stay in it, on the page they turn it and focus search`, async () => {
    const root = sphinxSite(name.split(" ")[1], `${theme}\n${settings()}`);
    const html = fs.readFileSync(path.join(root, "index.html"), "utf8");
    assert.match(html, /<script defer="defer" src="_static\/llmmath-widgets\.js"><\/script>/);
    const server = await host(root);
    const url = `${server.origin}/index.html`;
    const { page, errors, requests } = await open(url);
    await sliderChangesPicture(page, "Sphinx");
    await shoot(page, `sphinx-${name.includes("book") ? "book" : "alabaster"}`);
    await pressInFigure(page, ["ArrowRight", "ArrowLeft", "Slash"]);
    await page.waitForTimeout(300);
    assert.equal(page.url(), url, "the page did not turn");
    assert.equal(
      await page.evaluate(() => document.activeElement?.localName),
      "llm-rope",
      "focus stayed in the figure",
    );
    // The theme's handlers are live: / focuses the search field, the right arrow turns the page.
    await focusPage(page);
    await page.keyboard.press("Slash");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "q");
    await focusPage(page);
    await Promise.all([page.waitForURL(/next/), page.keyboard.press("ArrowRight")]);
    allRequestsLocal(requests, server, "Sphinx");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const [site, build, file] of [
  ["Hugo", hugoSite, "sampling/"],
  ["pandoc", pandocSite, "page.html"],
]) {
  test(`${site}: the guide's recipe keeps the figure in the page and draws it; a theme's shortcut keys typed in it stay in it`, async () => {
    const root = build();
    const html = fs.readFileSync(path.join(root, file.endsWith("/") ? `${file}index.html` : file), "utf8");
    assert.doesNotMatch(html, /raw HTML omitted/, `${site} kept the element`);
    const server = await host(root);
    const { page, errors, requests } = await open(`${server.origin}/${file}`);
    await sliderChangesPicture(page, site);
    await shoot(page, site.toLowerCase());
    await pressInFigure(page, ["n", "p", "s", "Slash", "ArrowRight"]);
    assert.deepEqual(await page.evaluate(() => window.__shortcuts), [], "no shortcut reached the site");
    await focusPage(page);
    await page.keyboard.press("n");
    assert.deepEqual(await page.evaluate(() => window.__shortcuts), ["n"], "the site's shortcuts are live");
    allRequestsLocal(requests, server, site);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// --- the frame recipes -------------------------------------------------------------------------

/** Copies the files the guide says a frame needs (and the host's resizer) into `folder`. */
function copyFrameFiles(folder, host = folder) {
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(host, { recursive: true });
  for (const f of guideFiles("frame")) fs.copyFileSync(path.join(dist, f), path.join(folder, f));
  for (const f of guideFiles("host")) fs.copyFileSync(path.join(dist, f), path.join(host, f));
}

/**
 * A course page's frame of a figure: drawn, sized by the resizer to the whole of its page (no
 * scrolling inside), a slider in it changes the picture, and the site's keys typed in it do
 * nothing to the page around it.
 */
async function checkFrame(page, site, keys) {
  const frameEl = page.locator('iframe[src*="embed.html"]');
  await frameEl.waitFor();
  // The element is there before its page: wait for the frame to have gone to embed.html (on a
  // busy machine it was still about:blank when asked at once)
  const frame = await (await frameEl.elementHandle()).contentFrame();
  assert.ok(frame, `${site}: the frame's page loaded`);
  await frame.waitForURL(/embed\.html/, { timeout: 15000 });
  await frame.waitForSelector("[data-figure][data-ready]", { timeout: 15000 });
  const fits = async () => {
    const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const outer = await frameEl.evaluate((f) => f.getBoundingClientRect().height);
    return { inner, outer };
  };
  // the resizer acts on the frame's message: the frame is as tall as its page
  let size;
  for (let i = 0; i < 50; i++) {
    size = await fits();
    if (Math.abs(size.outer - size.inner) <= 1) break;
    await page.waitForTimeout(100);
  }
  assert.ok(
    Math.abs(size.outer - size.inner) <= 1,
    `${site}: the frame takes its full height (${JSON.stringify(size)})`,
  );
  const url = page.url();
  const before = await frame.evaluate(() => document.querySelector("[data-figure]").shadowRoot.innerHTML);
  const slider = frame.locator("[data-figure]").locator('input[type="range"]').first();
  await slider.focus();
  await page.keyboard.press("End");
  await frame.waitForFunction((b) => document.querySelector("[data-figure]").shadowRoot.innerHTML !== b, before);
  for (const key of keys) await page.keyboard.press(key);
  await page.waitForTimeout(300);
  assert.equal(page.url(), url, `${site}: keys typed in the frame did not turn the page`);
}

test("MkDocs, a frame as the guide writes it (../embed.html, the resizer in mkdocs.yml): drawn, full height, a slider changes it, the theme's keys stay in it", async () => {
  const root = path.join(work, "mkdocs-frame");
  write(
    path.join(root, "mkdocs.yml"),
    `site_name: Course\ntheme:\n  name: mkdocs\n  highlightjs: false\nnav:\n  - sampling.md\n  - next.md\n${guideRecipe("mkdocs-frame-yml")}\n`,
  );
  write(path.join(root, "docs", "sampling.md"), `# Sampling\n\nSome text.\n\n${guideRecipe("mkdocs-frame-page")}\n`);
  write(path.join(root, "docs", "next.md"), "# Next\n\nThe next page.\n");
  copyFrameFiles(path.join(root, "docs"));
  execFileSync("mkdocs", ["build", "-q", "-d", path.join(root, "site")], { cwd: root, stdio: "pipe" });
  const server = await host(path.join(root, "site"));
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 900 });
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`${server.origin}/sampling/`);
  await checkFrame(page, "MkDocs frame", ["n", "s"]);
  assert.deepEqual(server.missing, [], "every file the frame asked for was there");
  allRequestsLocal(requests, server, "MkDocs frame");
  await page.close();
});

test("Sphinx, a frame as the guide writes it (html_extra_path, the resizer in html_js_files): drawn, full height, a slider changes it, the arrows stay in it", async () => {
  const root = path.join(work, "sphinx-frame");
  write(
    path.join(root, "conf.py"),
    `project = "Course"\nextensions = ["myst_parser"]\nhtml_theme = "alabaster"\nhtml_theme_options = {"navigation_with_keys": True}\n${guideRecipe("sphinx-frame-conf")}\n`,
  );
  write(
    path.join(root, "index.md"),
    `# Rotary embeddings\n\n${guideRecipe("sphinx-frame-page")}\n\n\`\`\`{toctree}\nnext\n\`\`\`\n`,
  );
  write(path.join(root, "next.md"), "# Next\n\nThe next page.\n");
  copyFrameFiles(path.join(root, "frames"), path.join(root, "_static"));
  execFileSync("sphinx-build", ["-q", "-b", "html", root, path.join(root, "_build")], { stdio: "pipe" });
  const server = await host(path.join(root, "_build"));
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 900 });
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`${server.origin}/index.html`);
  await checkFrame(page, "Sphinx frame", ["ArrowRight", "ArrowLeft"]);
  assert.deepEqual(server.missing, [], "every file the frame asked for was there");
  allRequestsLocal(requests, server, "Sphinx frame");
  await page.close();
});

/** Hugo, a frame: the guide's embed code in a page's Markdown, the frame's files in static/. */
function hugoFrameSite() {
  const root = path.join(work, "hugo-frame");
  write(path.join(root, "hugo.toml"), `baseURL = "/"\ntitle = "Course"\n${guideRecipe("hugo-config")}\n`);
  const layout = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<script src="/theme-keys.js"></script></head><body><h1>{{ .Title }}</h1><main>{{ .Content }}</main></body></html>\n`;
  write(path.join(root, "layouts", "_default", "single.html"), layout);
  write(path.join(root, "layouts", "_default", "list.html"), layout);
  write(
    path.join(root, "content", "sampling.md"),
    `---\ntitle: Sampling\n---\n\nSome text.\n\n${guideRecipe("hugo-frame-page")}\n`,
  );
  copyFrameFiles(path.join(root, "static"));
  fs.copyFileSync(THEME_KEYS, path.join(root, "static", "theme-keys.js"));
  execFileSync("hugo", ["--quiet", "--destination", path.join(root, "public")], { cwd: root, stdio: "pipe" });
  return path.join(root, "public");
}

/** pandoc, a frame: the guide's embed code in the Markdown, the frame's files beside the page. */
function pandocFrameSite() {
  const root = path.join(work, "pandoc-frame");
  write(path.join(root, "page.md"), `# Speculative decoding\n\nSome text.\n\n${guideRecipe("pandoc-frame-page")}\n`);
  write(path.join(root, "keys.html"), '<script src="theme-keys.js"></script>\n');
  copyFrameFiles(root);
  fs.copyFileSync(THEME_KEYS, path.join(root, "theme-keys.js"));
  const command = guideRecipe("pandoc-command").trim();
  execFileSync("sh", ["-c", `${command} --include-in-header keys.html`], { cwd: root, stdio: "pipe" });
  return root;
}

for (const [site, build, file] of [
  ["Hugo", hugoFrameSite, "sampling/"],
  ["pandoc", pandocFrameSite, "page.html"],
]) {
  test(`${site}, a frame as the guide writes it: drawn, full height, a slider changes it, the theme's keys stay in it`, async () => {
    const root = build();
    const html = fs.readFileSync(path.join(root, file.endsWith("/") ? `${file}index.html` : file), "utf8");
    assert.doesNotMatch(html, /raw HTML omitted/, `${site} kept the frame`);
    assert.match(html, /<iframe src="[^"]*embed\.html\?widget=/, `${site} wrote the frame`);
    const server = await host(root);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1000, height: 900 });
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`${server.origin}/${file}`);
    await checkFrame(page, `${site} frame`, ["n", "p", "ArrowRight"]);
    assert.deepEqual(await page.evaluate(() => window.__shortcuts), [], "no key typed in the frame reached the site");
    assert.deepEqual(server.missing, [], "every file the frame asked for was there");
    allRequestsLocal(requests, server, `${site} frame`);
    await page.close();
  });
}

test("a misspelt attribute name gets a note naming the nearest setting, written to the console once; id, class, data- and aria- attributes are not settings and get none", async () => {
  const dir = path.join(work, "misspelt");
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(dist, "llmmath-widgets.js"), path.join(dir, "llmmath-widgets.js"));
  write(
    path.join(dir, "page.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title></head><body>
<script src="llmmath-widgets.js"></script>
<llm-sampling id="fig" temprature="0.2" class="wide" data-course="1" aria-label="Sampling"></llm-sampling>
<llm-speculative id="other" class="x" data-y="2" title="Speculative decoding"></llm-speculative>
</body></html>`,
  );
  const page = await browser.context.newPage();
  const warnings = [];
  page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
  await page.goto(pathToFileURL(path.join(dir, "page.html")).href);
  await page.waitForSelector("#fig[data-ready]");
  await page.waitForSelector("#other[data-ready]");
  const note = "temprature is not a setting of this figure; ignored (temperature?).";
  assert.equal(await page.locator("#fig .llm-notes").textContent(), `Settings: ${note}`);
  assert.equal(await page.locator("#other .llm-notes").isVisible(), false);
  // A later change redraws the figure; the note stays, and is not written again.
  await page.evaluate(() => document.getElementById("fig").setAttribute("top-k", "3"));
  await page.waitForFunction(() => document.getElementById("fig").state.topK === 3);
  assert.deepEqual(warnings, [`<llm-sampling id="fig">: ${note}`]);
  await page.close();
});
