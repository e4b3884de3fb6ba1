// Course platforms as they are (issue 21): real sites built with the publishing tools course
// authors use, each page embedding a figure the way embed-guide.html says, and driven with the
// themes' own keyboard scripts. Built once per run into a temporary folder.
//   MkDocs 1.4, default theme: n and p turn the page, s opens search, ? opens the help
//   Sphinx 5.3 with MyST (the route Jupyter Book takes), alabaster with navigation_with_keys:
//   the arrow keys turn the page, / focuses search
// A key typed into a figure's control must do none of that; the same key on the page itself
// must (so the check can fail), and Escape still reaches the page.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist } = require("./browser.js");

const browser = useBrowser(test);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-platforms-"));
test.after(() => fs.rmSync(work, { recursive: true, force: true }));

const FIGURE = '<llm-sampling id="fig" temperature="0.7"></llm-sampling>';

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** An MkDocs site of two pages, the first with the figure (script beside the page, as the guide says). */
function mkdocsSite() {
  const root = path.join(work, "mkdocs");
  write(path.join(root, "mkdocs.yml"), "site_name: Course\nnav:\n  - index.md\n  - next.md\n");
  write(
    path.join(root, "docs", "index.md"),
    `# Sampling\n\nSome text.\n\n<script src="llmmath-widgets.js"></script>\n\n${FIGURE}\n`,
  );
  write(path.join(root, "docs", "next.md"), "# Next\n\nThe next page.\n");
  fs.copyFileSync(path.join(dist, "llmmath-widgets.js"), path.join(root, "docs", "llmmath-widgets.js"));
  execFileSync("mkdocs", ["build", "-q", "-d", path.join(root, "site")], { cwd: root, stdio: "pipe" });
  return path.join(root, "site", "index.html");
}

/** A Sphinx site with MyST pages, alabaster with the arrow keys turning the page. */
function sphinxSite() {
  const root = path.join(work, "sphinx");
  write(
    path.join(root, "conf.py"),
    `project = "Course"
extensions = ["myst_parser"]
html_theme = "alabaster"
html_theme_options = {"navigation_with_keys": True}
html_static_path = ["_static"]
`,
  );
  write(
    path.join(root, "index.md"),
    `# Sampling\n\n\`\`\`{toctree}\nnext\n\`\`\`\n\n<script src="_static/llmmath-widgets.js"></script>\n\n${FIGURE}\n`,
  );
  write(path.join(root, "next.md"), "# Next\n\nThe next page.\n");
  fs.mkdirSync(path.join(root, "_static"), { recursive: true });
  fs.copyFileSync(path.join(dist, "llmmath-widgets.js"), path.join(root, "_static", "llmmath-widgets.js"));
  execFileSync("sphinx-build", ["-q", "-b", "html", root, path.join(root, "_build")], { stdio: "pipe" });
  return path.join(root, "_build", "index.html");
}

/** Opens a built page, waits for its figure, and counts the Escapes that reach its document. */
async function open(file) {
  const page = await browser.context.newPage();
  const errors = [];
  // the themes' own faults from file:// (Debian's MkDocs has no highlight.js, a search worker
  // cannot start from file://) are theirs; an error thrown in our script is ours
  page.on("pageerror", (e) => /llmmath-widgets\.js/.test(e.stack ?? "") && errors.push(e.message));
  const url = pathToFileURL(file).href;
  await page.goto(url);
  await page.waitForSelector("#fig[data-ready]");
  await page.evaluate(() => {
    window.__escapes = 0;
    document.addEventListener("keydown", (e) => e.key === "Escape" && (window.__escapes += 1));
  });
  return { page, url, errors };
}

/** Focuses each kind of control of the figure in turn (a number field, a slider, a button) and presses `keys`. */
async function pressInFigure(page, keys) {
  for (const selector of ['input[type="number"]', 'input[type="range"]', "button"]) {
    const control = page.locator("#fig").locator(selector).first();
    await control.focus();
    for (const key of keys) await page.keyboard.press(key);
  }
}

test("MkDocs (default theme): n, p, s and ? typed in a figure stay in it; on the page they turn it and open its dialogs", async () => {
  const { page, url, errors } = await open(mkdocsSite());
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
  await page.locator("h1").first().click();
  await page.keyboard.press("s");
  await page.waitForSelector("#mkdocs_search_modal.show");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#mkdocs_search_modal.show", { state: "detached" }).catch(() => {});
  await page.locator("h1").first().click();
  await Promise.all([page.waitForURL(/next/), page.keyboard.press("n")]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Sphinx with MyST (alabaster, navigation with keys): arrows and / typed in a figure stay in it; on the page they turn it and focus search", async () => {
  const { page, url, errors } = await open(sphinxSite());
  await pressInFigure(page, ["ArrowRight", "ArrowLeft", "Slash"]);
  await page.waitForTimeout(300);
  assert.equal(page.url(), url, "the page did not turn");
  assert.equal(
    await page.evaluate(() => document.activeElement?.localName),
    "llm-sampling",
    "focus stayed in the figure",
  );
  // The theme's handlers are live: / focuses the search field, the right arrow turns the page.
  await page.locator("h1").first().click();
  await page.keyboard.press("Slash");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "q");
  await page.locator("h1").first().click();
  await Promise.all([page.waitForURL(/next/), page.keyboard.press("ArrowRight")]);
  assert.deepEqual(errors, []);
  await page.close();
});

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
