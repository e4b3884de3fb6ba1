// Section 4, growing context: the <llm-cost> figure and exercise 4's answer in headless Chromium,
// checked against the core's attentionCost for the same inputs.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, artifact } = require("./browser.js");

const browser = useBrowser(test);

/** The figure's result cards as { term: value }. */
function stats(fig) {
  return fig.locator(".cost-stat").evaluateAll((cards) =>
    Object.fromEntries(cards.map((c) => [c.querySelector("dt").textContent.trim(), c.querySelector("dd strong").textContent])));
}

/** attentionCost computed in the page by a fresh core, for the figure's current inputs. */
function coreForFigure(page, changes = {}) {
  return page.evaluate(async (changes) => {
    const el = document.getElementById("cost-figure");
    return (await createLLMMath()).attentionCost({ ...el.inputs, ...changes });
  }, changes);
}

const count = (x) => x.toLocaleString("en");

test("cost: the figure starts at exercise 4's layer and shows the core's counts", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#cost-figure");
  const expected = await coreForFigure(page);
  assert.equal(expected.scoresPerHead, 256);
  const s = await stats(fig);
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(s["Scores per layer"], count(expected.scoresPerLayer));
  assert.equal(s["Key-value cache"], "16 KiB");
  assert.equal(expected.kvBytes, 16 * 1024);
  assert.equal(s["QK + AV multiply-adds"], count(expected.macs));
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /n² = 16² = 256/);
  assert.match(worked, new RegExp(`2·1·16·8·32 = ${count(expected.kvValuesPerLayer)}`));
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: changing the head dimension and the context changes the cards, the chart and the calculation", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#cost-figure");
  const chart = () => fig.locator("svg.chart").innerHTML();
  const chartBefore = await chart();
  await fig.getByLabel("Head dimension d").fill("64");
  let expected = await coreForFigure(page);
  assert.equal(expected.kvValuesPerLayer, 16384);
  let s = await stats(fig);
  assert.equal(s["Scores per head, n²"], "256");
  assert.equal(s["QK + AV multiply-adds"], count(expected.macs));
  assert.equal(s["Key-value cache"], "32 KiB");
  assert.notEqual(await chart(), chartBefore);

  // The slider steps the context through powers of two.
  await fig.getByLabel("Tokens n, in powers of two").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await fig.getByLabel("Tokens n", { exact: true }).inputValue(), "32");
  expected = await coreForFigure(page);
  s = await stats(fig);
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(s["Scores per layer"], count(expected.scoresPerLayer));
  assert.match(await fig.locator(".worked").textContent(), /n² = 32² = 1,024/);
  assert.match(await fig.locator(".cost-legend").textContent(), new RegExp(count(expected.scoresPerLayer)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: real-model presets load their configuration and list the cache per token from the core", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#cost-figure");
  const row = (name) => fig.locator(".cost-table tbody tr", { hasText: name });
  assert.match(await row("Llama-2-7B").textContent(), /524,288 bytes/);
  assert.match(await row("Llama-3-8B").textContent(), /131,072 bytes/);
  await row("Llama-3-8B").getByRole("button").click();
  const value = (label) => fig.getByLabel(label, { exact: true }).inputValue();
  assert.deepEqual([await value("Query heads h"), await value("Key-value heads hkv"), await value("Head dimension d"), await value("Layers L")],
    ["32", "8", "128", "32"]);
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "llama3_8b");
  const expected = await coreForFigure(page);
  assert.equal(expected.kvBytesPerToken, 131072);
  const s = await stats(fig);
  assert.equal(s["Cache added per token"], "128 KiB");
  assert.equal(s["Key-value cache"], "1 GiB");
  assert.equal(expected.kvBytes, 2 ** 30);
  // The context is the reader's, not the model's: changing it keeps the model chosen.
  await fig.getByLabel("Tokens n", { exact: true }).fill("1000");
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "llama3_8b");
  assert.equal((await coreForFigure(page)).kvBytes, 131072000);
  assert.equal((await stats(fig))["Key-value cache"], "125 MiB");

  // Precision presets set the bytes per value; the table follows them.
  await fig.getByLabel("Precision").selectOption("int4");
  assert.equal(await value("Bytes per value p"), "0.5");
  assert.equal((await stats(fig))["Cache added per token"], "32 KiB");
  assert.match(await row("Llama-2-7B").textContent(), /131,072 bytes/);
  await fig.screenshot({ path: artifact("cost-llama3.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: key-value heads that do not divide the heads are named and the last figure kept", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#cost-figure");
  const good = await fig.locator(".cost-stats").textContent();
  await fig.getByLabel("Key-value heads hkv").fill("3");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(await fig.locator(".llm-status").textContent(), /kvHeads must be a divisor of heads/);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  assert.equal(await fig.getByLabel("Key-value heads hkv").getAttribute("aria-invalid"), "true");
  await fig.getByLabel("Key-value heads hkv").fill("2");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.notEqual(await fig.locator(".cost-stats").textContent(), good);
  await page.close();
});

test("cost: exercise 4's answer gives 256 scores and 8,192 values, and what doubling d does", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#cost details");
  await details.locator("summary").click();
  const answer = await details.locator("llm-answer-cost").textContent();
  assert.match(answer, /16² = 256 scores per head/);
  assert.match(answer, /2·16·8·32 = 8,192 values/);
  const doubled = await coreForFigure(page, { headDim: 64 });
  const single = await coreForFigure(page, { layers: 1 });
  assert.match(answer, /scores per head: 256 → 256, unchanged/);
  assert.match(answer, new RegExp(`cached values per layer: 8,192 → ${count(doubled.kvValuesPerLayer)}, doubled`));
  assert.match(answer, new RegExp(`multiply-adds per layer: ${count(single.macs)} → ${count(doubled.macs)}, doubled`));
  await details.screenshot({ path: artifact("exercise-4.png") });

  // The answer follows the figure.
  await page.locator("#cost-figure").getByLabel("Tokens n", { exact: true }).fill("100");
  const after = await details.locator("llm-answer-cost").textContent();
  assert.match(after, /100² = 10,000 scores per head/);
  const now = await coreForFigure(page);
  assert.match(after, new RegExp(`2·100·8·32 = ${count(now.kvValuesPerLayer)} values`));
  assert.deepEqual(errors, []);
  await page.close();
});
