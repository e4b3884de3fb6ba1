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

test("cost: every declared attribute set on the live element re-renders the figure; bad values are named in a note", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#cost-figure");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const state = () => fig.evaluate((el) => ({ ...el.state }));
  const core = (cfg) => page.evaluate(async (cfg) => (await createLLMMath()).attentionCost(cfg), cfg);
  const value = (label) => fig.getByLabel(label, { exact: true }).inputValue();
  const worked = () => fig.locator(".worked").textContent();

  // The preset loads a real model's context and shape; batch and bytes per value keep their defaults.
  let cfg = { tokens: 1024, heads: 12, kvHeads: 12, headDim: 64, layers: 12, batch: 1, bytesPerValue: 2 };
  await setAttr("preset", "gpt2");
  assert.deepEqual(await state(), { preset: "gpt2", ...cfg });
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "gpt2");
  let expected = await core(cfg);
  assert.equal((await stats(fig))["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(expected.scoresPerHead, 1024 * 1024);

  // Each attribute in turn: [attribute, state key, value, field label, what it must change].
  const steps = [
    ["tokens", "tokens", 64, "Tokens n", (s, e) => assert.equal(s["Scores per head, n²"], count(e.scoresPerHead))],
    ["heads", "heads", 24, "Query heads h", (s, e) => assert.equal(s["Scores per layer"], count(e.scoresPerLayer))],
    ["kv-heads", "kvHeads", 6, "Key-value heads hkv", async (s, e) =>
      assert.match(await worked(), new RegExp(`= ${count(e.kvValuesPerLayer)}\\.`))],
    ["head-dim", "headDim", 32, "Head dimension d", (s, e) => assert.equal(s["QK + AV multiply-adds"], count(e.macs))],
    ["layers", "layers", 3, "Layers L", (s, e) => assert.equal(s["QK + AV multiply-adds"], count(e.macs))],
    ["batch", "batch", 2, "Batch b", (s, e) => assert.equal(s["Scores per layer"], count(e.scoresPerLayer))],
    ["bytes-per-value", "bytesPerValue", 1, "Bytes per value p", async (s, e) =>
      assert.match(await worked(), new RegExp(`\\(${count(e.kvBytes)} bytes\\)`))],
  ];
  for (const [attr, key, v, label, check] of steps) {
    const before = await core(cfg);
    cfg = { ...cfg, [key]: v };
    await setAttr(attr, String(v));
    assert.deepEqual(await state(), { preset: "gpt2", ...cfg }, attr);
    assert.equal(await value(label), String(v), `${attr} shown in its field`);
    expected = await core(cfg);
    assert.notDeepEqual(expected, before, `${attr} changes the core's result`);
    await check(await stats(fig), expected);
  }
  // The shape is no longer GPT-2's; bytes per value 1 is int8; the tokens slider follows tokens.
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "");
  assert.equal(await fig.getByLabel("Precision").inputValue(), "int8");
  assert.equal(await fig.getByLabel("Tokens n, in powers of two").inputValue(), "6");
  // The settings reproduce what the reader sees.
  assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")),
    [["preset", "gpt2"], ["tokens", "64"], ["heads", "24"], ["kv-heads", "6"], ["head-dim", "32"], ["layers", "3"],
      ["batch", "2"], ["bytes-per-value", "1"]]);
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), false);

  // A preset that is not a key of the presets (an inherited property's name) is named and ignored.
  await setAttr("preset", "constructor");
  await notes.waitFor({ state: "visible" });
  assert.match(await notes.textContent(), /preset="constructor" ignored/);
  assert.equal((await state()).preset, "exercise");
  const s = await stats(fig);
  expected = await core((await fig.evaluate((el) => el.inputs)));
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(await fig.locator("svg.chart").count(), 1);

  // A number out of its declared range is named; the figure stays.
  const good = await fig.locator(".cost-stats").textContent();
  await setAttr("heads", "5000");
  assert.match(await notes.textContent(), /heads="[^"]*" ignored: expected a whole number from 1 to 4096/);
  assert.ok(await notes.isVisible());
  assert.equal((await state()).heads, 24);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  await setAttr("tokens", "0");
  assert.match(await notes.textContent(), /tokens="[^"]*" ignored: expected a whole number from 1 to 16777216/);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  assert.equal(await fig.locator("svg.chart").count(), 1);
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});
