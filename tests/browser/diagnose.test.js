// Section 9: picking a symptom lands on its calculation, computed by the core.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, shown } = require("./browser.js");

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

// One non-default value for every declared attribute: [attribute, value, symptom, field label,
// what the core gives for it (computed in the page), the text the figure must then show].
const ATTRIBUTE_CASES = [
  ["missing-context-relevant-score", "6", "missing-context", "relevant key's score a",
    async () => (await createLLMMath()).contextDilution({ relevantScore: 6, distractorScore: 0, distractors: 5000 }).relevantWeight,
    (w) => `= ${shown(w * 100, 2)}%`],
  ["missing-context-distractor-score", "1", "missing-context", "distractor score b",
    async () => (await createLLMMath()).contextDilution({ relevantScore: 4, distractorScore: 1, distractors: 5000 }).relevantWeight,
    (w) => `= ${shown(w * 100, 2)}%`],
  ["missing-context-distractors", "200", "missing-context", "distractor tokens n",
    async () => (await createLLMMath()).contextDilution({ relevantScore: 4, distractorScore: 0, distractors: 200 }).relevantWeight,
    (w) => `+ 200·e0) = ${shown(w * 100, 2)}%`],
  ["missing-context-trimmed", "7", "missing-context", "after trimming to n",
    async () => (await createLLMMath()).contextDilution({ relevantScore: 4, distractorScore: 0, distractors: 7 }).relevantWeight,
    (w) => `trimmed to 7 other tokens: ${shown(w * 100, 2)}%`],
  ["sampled-wording-z1", "3", "sampled-wording", "logit of “1919”",
    async () => (await createLLMMath()).sampling({ logits: [3, 1.6, 0.4] }, { temperature: 0.8 }).probs[0],
    (p) => `P(1919) = ${shown(p * 100, 1)}%`],
  ["sampled-wording-z2", "2.5", "sampled-wording", "logit of “1920”",
    async () => (await createLLMMath()).sampling({ logits: [2.2, 2.5, 0.4] }, { temperature: 0.8 }).probs[1],
    (p) => `P(1920) = ${shown(p * 100, 1)}%`],
  ["sampled-wording-z3", "1.5", "sampled-wording", "logit of “1918”",
    async () => (await createLLMMath()).sampling({ logits: [2.2, 1.6, 1.5] }, { temperature: 0.8 }).probs[2],
    (p) => `P(1918) = ${shown(p * 100, 1)}%`],
  ["sampled-wording-temperature", "1.5", "sampled-wording", "temperature T",
    async () => (await createLLMMath()).sampling({ logits: [2.2, 1.6, 0.4] }, { temperature: 1.5 }).probs[0],
    (p) => `At T = 1.5: P(1919) = ${shown(p * 100, 1)}%`],
  ["position-heads", "16", "position", "attention heads",
    async () => (await createLLMMath()).alibiSlopes(16),
    (slopes) => `Slopes of 16 heads run from ${shown(slopes[0], 4)} to ${shown(slopes[15], 6)}.`],
  ["memory-tokens", "8192", "memory", "context tokens",
    async () => (await createLLMMath()).attentionCost({ tokens: 8192, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: 16, bytesPerValue: 2 }).kvBytes / 2 ** 30,
    (gib) => `· 16 · 8,192 · 8 · 128 · 32 layers · 2 bytes = ${gib} GiB`],
  ["memory-batch", "8", "memory", "sequences at once",
    async () => (await createLLMMath()).attentionCost({ tokens: 32768, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: 8, bytesPerValue: 2 }).kvBytes / 2 ** 30,
    (gib) => `· 8 · 32,768 · 8 · 128 · 32 layers · 2 bytes = ${gib} GiB`],
  ["memory-bytes-per-value", "0.5", "memory", "bytes per value",
    async () => (await createLLMMath()).attentionCost({ tokens: 32768, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: 16, bytesPerValue: 0.5 }).kvBytes / 2 ** 30,
    (gib) => `· 32 layers · 0.5 bytes = ${gib} GiB`],
  ["speed-alpha", "0.8", "speed", "acceptance rate α",
    async () => (await createLLMMath()).speculativeDecoding({ alpha: 0.8, gamma: 4, costRatio: 0.05 }).expectedTokens,
    (t) => `Expected tokens per large-model call: ${shown(t, 3)} (`],
  ["speed-gamma", "8", "speed", "draft length γ",
    async () => (await createLLMMath()).speculativeDecoding({ alpha: 0.6, gamma: 8, costRatio: 0.05 }).expectedTokens,
    (t) => `Expected tokens per large-model call: ${shown(t, 3)} (`],
  ["speed-cost-ratio", "0.2", "speed", "cost ratio c",
    async () => (await createLLMMath()).speculativeDecoding({ alpha: 0.6, gamma: 4, costRatio: 0.2 }).speedup,
    (x) => `= ${shown(x, 3)}×`],
  ["precision-outlier", "120", "precision", "outlier magnitude",
    async () => (await createLLMMath()).quantize([120, 0.82, -0.37, 0.15, -0.06], { bits: 8 }).scale,
    (step) => `at 8 bits: step ${shown(step, 4)},`],
  ["precision-bits", "4", "precision", "bits",
    async () => (await createLLMMath()).quantize([60, 0.82, -0.37, 0.15, -0.06], { bits: 4 }).scale,
    (step) => `at 4 bits: step ${shown(step, 4)},`],
];

test("every declared attribute set on the live element redraws the figure with the core's numbers; bad values show a note", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const lines = fig.locator(".diag-lines");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const removeAttr = (name) => fig.evaluate((el, n) => el.removeAttribute(n), name);

  // Every declared attribute is covered below, each with a value that is not its default.
  const decls = await fig.evaluate((el) => el.constructor.attributes.map((d) => [d.name, String(d.default)]));
  assert.deepEqual(decls.map(([n]) => n).sort(), ["symptom", ...ATTRIBUTE_CASES.map(([n]) => n)].sort());
  for (const [name, value] of ATTRIBUTE_CASES) assert.notEqual(value, decls.find(([n]) => n === name)[1], name);

  // symptom: the card, the picker and the calculation follow.
  await setAttr("symptom", "memory");
  assert.equal(await fig.locator(".diag-card .diag-title").textContent(), "Memory cost");
  assert.equal(await fig.getByLabel("Memory cost", { exact: true }).isChecked(), true);
  const gib = await page.evaluate(async () => (await createLLMMath()).attentionCost({ tokens: 32768, heads: 32, kvHeads: 8, headDim: 128, layers: 32, batch: 16, bytesPerValue: 2 }).kvBytes / 2 ** 30);
  assert.ok((await lines.textContent()).includes(`= ${gib} GiB`));

  for (const [name, value, symptom, label, fromCore, expected] of ATTRIBUTE_CASES) {
    await setAttr("symptom", symptom);
    const before = await lines.textContent();
    await setAttr(name, value);
    const want = expected(await page.evaluate(fromCore));
    const text = await lines.textContent();
    assert.ok(text.includes(want), `${name}="${value}": "${text}" shows "${want}"`);
    assert.notEqual(text, before, `${name}: redrawn`);
    assert.equal(await fig.getByLabel(label, { exact: true }).inputValue(), value, `${name}: its field shows it`);
    assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")),
      [["symptom", symptom], [name, value]].filter(([n, v]) => n !== "symptom" || v !== "missing-context"), `${name}: the embed code's settings`);
    await removeAttr(name);
    assert.equal(await lines.textContent(), before, `${name} removed: back to the default`);
  }

  // A name that is no symptom, or an out-of-range number: refused with a note that names the
  // attribute; the figure keeps its scenario and numbers.
  await setAttr("symptom", "memory");
  const shownBefore = await lines.textContent();
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), false);
  await setAttr("symptom", "constructor");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /symptom="[^"]*" ignored: expected one of missing-context, /);
  await setAttr("symptom", "__proto__");
  assert.match(await notes.textContent(), /symptom="[^"]*" ignored/);
  await setAttr("memory-batch", "5000");
  assert.match(await notes.textContent(), /memory-batch="[^"]*" ignored: expected a whole number from 1 to 4096/);
  await setAttr("memory-bytes-per-value", "-1");
  assert.match(await notes.textContent(), /memory-bytes-per-value="[^"]*" ignored: expected a number from 0.5 to 4/);
  assert.equal(await fig.locator(".diag-card .diag-title").textContent(), "Memory cost");
  assert.equal(await lines.textContent(), shownBefore);
  assert.equal(await lines.isVisible(), true);

  // The same from the start: a new element with bad attributes shows the notes and the default.
  const fresh = await page.evaluate(async () => {
    const el = document.createElement("llm-diagnose");
    el.setAttribute("symptom", "constructor");
    el.setAttribute("speed-gamma", "99");
    document.getElementById("diagnose-figure").after(el);
    await el.ready;
    const root = el.shadowRoot;
    const out = { notes: root.querySelector(".llm-notes").textContent, hidden: root.querySelector(".llm-notes").hidden,
      title: root.querySelector(".diag-title").textContent, lines: root.querySelector(".diag-lines").textContent };
    el.remove();
    return out;
  });
  assert.equal(fresh.hidden, false);
  assert.match(fresh.notes, /symptom="constructor" ignored/);
  assert.match(fresh.notes, /speed-gamma="99" ignored: expected a whole number from 0 to 32/);
  assert.equal(fresh.title, "Missing context");
  assert.ok(fresh.lines.length > 20, "its calculation shown");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the reader's symptom and inputs are the figure's settings, and a link with them reproduces the figure", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  await fig.getByLabel("Speed", { exact: true }).check();
  await fig.getByLabel("draft length γ").fill("6");
  await fig.getByLabel("Memory cost", { exact: true }).check();
  await fig.getByLabel("sequences at once").fill("4");
  assert.match(await fig.locator(".diag-lines").textContent(), /= 16 GiB/);
  const settings = await fig.evaluate((el) => el.settings("attributes"));
  assert.deepEqual(settings, [["symptom", "memory"], ["memory-batch", "4"], ["speed-gamma", "6"]]);
  await page.close();

  const hash = `#diagnose?${settings.map(([n, v]) => `diagnose.${n}=${v}`).join("&")}`;
  const again = (await openReader(browser.context, { hash })).page;
  const fig2 = again.locator("#diagnose-figure");
  assert.equal(await fig2.getByLabel("Memory cost", { exact: true }).isChecked(), true);
  assert.equal(await fig2.getByLabel("sequences at once").inputValue(), "4");
  assert.match(await fig2.locator(".diag-lines").textContent(), /= 16 GiB/);
  await fig2.getByLabel("Speed", { exact: true }).check();
  assert.equal(await fig2.getByLabel("draft length γ").inputValue(), "6");
  assert.equal(await fig2.locator(".llm-notes").isVisible(), false);
  await again.close();
});
