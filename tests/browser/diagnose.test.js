// Section 9: picking a symptom lands on its calculation, computed by the core.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader } = require("./browser.js");

const browser = useBrowser(test);

const SYMPTOMS = [
  ["Missing context", "attention"],
  ["Different sampled wording", "sampling"],
  ["Positional relationships", "alibi"],
  ["Memory cost", "cost"],
  ["Speed", "speculative"],
  ["Numeric precision", "quantization"],
];

test("every symptom shows its own calculation and links to its section", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const seen = new Set();
  for (const [symptom, section] of SYMPTOMS) {
    await fig.getByLabel(symptom, { exact: true }).check();
    assert.equal(await fig.locator(".diag-card .diag-title").textContent(), symptom);
    const lines = await fig.locator(".diag-lines").textContent();
    assert.ok(lines.length > 20, `${symptom}: calculation shown`);
    assert.ok(!seen.has(lines), `${symptom}: its own calculation`);
    seen.add(lines);
    assert.equal(await fig.locator(".diag-card a").getAttribute("href"), `#${section}`);
    assert.equal(await page.locator(`section#${section}`).count(), 1);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the memory scenario's cache size is the core's and follows the batch input", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  await fig.getByLabel("Memory cost", { exact: true }).check();
  const cfg = { tokens: 32768, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: 16, bytesPerValue: 2 };
  const gib = await page.evaluate(async (c) => (await createLLMMath()).attentionCost(c).kvBytes / 2 ** 30, cfg);
  assert.equal(gib, 64); // 2·16·32768·8·128·32·2 bytes
  assert.match(await fig.locator(".diag-lines").textContent(), /= 64 GiB/);
  await fig.getByLabel("sequences at once").fill("4");
  assert.match(await fig.locator(".diag-lines").textContent(), /= 16 GiB/);
  await fig.getByLabel("sequences at once").fill("0");
  assert.match(await fig.locator(".llm-status").textContent(), /batch must be/);
  assert.match(await fig.locator(".diag-lines").textContent(), /= 16 GiB/, "last good result kept");
  await page.close();
});

test("the missing-context scenario shows the core's weight before and after trimming", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const [before, after] = await page.evaluate(async () => {
    const m = await createLLMMath();
    return [5000, 50].map((n) => m.contextDilution({ relevantScore: 4, distractorScore: 0, distractors: n }).relevantWeight);
  });
  const text = await fig.locator(".diag-lines").textContent();
  assert.ok(text.includes(`${(before * 100).toFixed(2)}%`), `${text} has ${before}`);
  assert.ok(text.includes(`${(after * 100).toFixed(1)}%`), `${text} has ${after}`);
  await page.close();
});
