// The notebook edition's program cells (dist/attention-and-transformers.ipynb, site/notebook.mjs) are
// the programs the reader's figures give now: for each, Copy as NumPy on dist/reader.html, the
// figure as it opens, gives the cell's source, character for character. tests/browser/
// takeaway.test.js runs those programs and compares every quantity they print with the figure's
// result, the core's, within 1e-9 relative; tests/js/notebook.test.js checks that each cell's
// saved output is its program's. Together: every number the notebook prints is the core's.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, openReader, serve, dist } = require("./browser.js");

const browser = useBrowser(test);
const notebook = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "..", "dist", "attention-and-transformers.ipynb"), "utf8"),
);
const text = (source) => (Array.isArray(source) ? source.join("") : source);

/** Presses the figure's Copy as NumPy and returns the program its panel shows (or its note). */
async function copyAsNumpy(page, id) {
  const fig = page.locator(`#${id}`);
  await fig.scrollIntoViewIfNeeded();
  await fig.locator(".llm-copy-numpy").click();
  const panel = fig.locator(".llm-panel:not([hidden])");
  await panel.waitFor();
  const area = panel.locator("textarea");
  return (await area.count()) ? { program: await area.inputValue() } : { note: await panel.textContent() };
}

test("each code cell of the notebook is its figure's Copy as NumPy program, as the figure opens", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280 });
  // The exercises hold back their figures' numbers until asked (the diagnosis quiz has no cell:
  // its programs would name its answers).
  await page.evaluate(async () => {
    for (const a of document.querySelectorAll("[for]")) /** @type {any} */ (a).reveal?.();
  });
  // the programs, not the drawing cell after each (metadata llmmath.drawing) nor the live figure's
  const cells = notebook.cells.filter(
    (c) => c.cell_type === "code" && c.metadata.llmmath?.figure && !c.metadata.llmmath.drawing,
  );
  assert.equal(cells.length, 11);
  for (const cell of cells) {
    const id = cell.metadata.llmmath.figure;
    const { program, note } = await copyAsNumpy(page, id);
    assert.ok(program, `#${id}: no program, the panel says: ${note}`);
    assert.equal(text(cell.source), program.trimEnd(), `#${id}: the notebook's cell is the figure's program`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the hosted reader and the one-file edition offer the notebook, and what each downloads is dist's notebook", async () => {
  const expected = fs.readFileSync(path.join(dist, "attention-and-transformers.ipynb"));
  // reader.html as a host serves it: opened from disk, Chromium lets no file:// page name a
  // download (its origin is opaque), and opens the notebook's text instead, to be saved from there
  // (README.md says so). The one-file edition carries the notebook in its link, a data: address.
  const server = await serve({ files: (p) => path.join(dist, p) });
  try {
    for (const address of [
      `${server.origin}/reader.html`,
      pathToFileURL(path.join(dist, "reader-standalone.html")).href,
    ]) {
      const page = await browser.context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(address);
      const link = page.getByRole("link", { name: "Download as a Jupyter notebook" });
      assert.equal(await link.count(), 1, `${address}: one link`);
      assert.equal(
        await link.getAttribute("download"),
        "attention-and-transformers.ipynb",
        `${address}: its file name`,
      );
      const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60000 }), link.click()]);
      assert.equal(download.suggestedFilename(), "attention-and-transformers.ipynb", address);
      assert.ok(
        fs.readFileSync(await download.path()).equals(expected),
        `${address}: the download is dist/attention-and-transformers.ipynb`,
      );
      assert.deepEqual(errors, [], address);
      await page.close();
    }
  } finally {
    server.close();
  }
});
