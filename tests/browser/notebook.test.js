// The notebook edition's code cells (dist/attention-and-transformers.ipynb, site/notebook.mjs) are
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
const { useBrowser, openReader } = require("./browser.js");

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
  const cells = notebook.cells.filter((c) => c.cell_type === "code" && c.metadata.llmmath?.figure);
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
