// The reader in headless Chromium, opened from file:// as a reader opens it from disk.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { useBrowser, openReader, artifact, dist } = require("./browser.js");

const SECTIONS = ["attention", "sampling", "rope", "cost", "speculative", "alibi", "quantization", "moe", "diagnose"];

const browser = useBrowser(test);

/** Every request must be for a file of dist/ itself: no network, no data: fetches. */
function assertOnlyOwnFiles(requests) {
  const own = "file://" + dist + path.sep;
  const outside = requests.filter((u) => !u.startsWith(own));
  assert.deepEqual(outside, [], "requests outside dist/");
}

test("the reader loads from file://, becomes ready, logs no error and requests only its own files", async () => {
  const { page, errors, requests } = await openReader(browser.context);
  assert.deepEqual(errors, []);
  assertOnlyOwnFiles(requests);
  assert.ok(requests.some((u) => u.endsWith("/llmmath-widgets.js")), "the core and widgets were loaded");
  await page.screenshot({ path: artifact("reader-1280.png"), fullPage: true });
  await page.close();
});

test("the page keeps its conventions: nine sections, answers behind 'Show the answer', llm- widgets", async () => {
  const { page } = await openReader(browser.context);
  const ids = await page.$$eval("main > section[id]", (s) => s.map((x) => x.id));
  for (const id of SECTIONS) assert.ok(ids.includes(id), `section #${id}`);
  const summaries = await page.$$eval("details > summary", (s) => s.map((x) => x.textContent.trim()));
  assert.ok(summaries.length >= 1);
  for (const s of summaries) assert.equal(s, "Show the answer");
  const tags = await page.$$eval("*", (els) => [...new Set(els.map((e) => e.localName).filter((n) => n.includes("-")))]);
  for (const t of tags) assert.ok(t.startsWith("llm-"), `custom element ${t}`);
  assert.ok(tags.includes("llm-attention") && tags.includes("llm-context-dilution"));
  // Formulas are typeset at build time as MathML: no raw TeX delimiters are left.
  const text = await page.textContent("main");
  assert.ok(!/\\\(|\\\[/.test(text), "untypeset TeX in the page");
  assert.ok((await page.$$("main math")).length >= 8, "MathML formulas");
  await page.close();
});

test("the attention figure responds to the mask and to edits, and shows the core's numbers", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#attention-figure");
  const weights = () => fig.locator(".att-view").nth(1).locator("tbody tr").evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)));
  const before = await weights();
  assert.deepEqual(before[0], ["1", "0", "0"]);

  // The displayed weights are the core's, for the figure's own inputs.
  const fromCore = await page.evaluate(async () => {
    const el = document.getElementById("attention-figure");
    const m = await createLLMMath();
    const { q, k, v, causal } = el.state;
    return m.attention(q, k, v, { causal }).weights;
  });
  before.forEach((row, i) => row.forEach((cell, j) =>
    assert.ok(Math.abs(Number(cell.replace("−", "-")) - fromCore[i][j]) <= 5e-4, `weight ${i},${j}: ${cell} vs ${fromCore[i][j]}`)));

  await fig.getByLabel("Causal mask").uncheck();
  const unmasked = await weights();
  assert.notDeepEqual(unmasked[0], before[0]);
  assert.ok(Number(unmasked[0][2]) > 0.5, "without the mask key 3 takes most of query 1's weight");

  // Editing a key changes the scores.
  await fig.getByLabel("K row 3 (sat), column 1").fill("0");
  const edited = await weights();
  assert.notDeepEqual(edited[0], unmasked[0]);
  await page.screenshot({ path: artifact("attention-edited.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("bad input names the parameter and keeps the last good figure", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#attention-figure");
  const output = () => fig.locator(".att-view").nth(2).textContent();
  const good = await output();
  await fig.getByLabel("Q row 1 (The), column 1").fill("");
  await assert.doesNotReject(fig.locator(".llm-status.llm-error").waitFor());
  assert.match(await fig.locator(".llm-status").textContent(), /q\[0\]\[0\] must be a finite number, got NaN/);
  assert.equal(await output(), good);
  await fig.getByLabel("Q row 1 (The), column 1").fill("1");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  await page.close();
});

test("exercise 1's revealed answer shows weights (1, 0, 0) and V1 = (1, 0)", async () => {
  const { page } = await openReader(browser.context);
  const details = page.locator("#attention details");
  await details.locator("summary").click();
  const answer = await details.textContent();
  assert.match(answer, /\(1, 0, 0\)/);
  assert.match(answer, /V1 = \(1, 0\)/);
  assert.match(answer, /masked before normalisation/);
  await details.screenshot({ path: artifact("exercise-1.png") });
  await page.close();
});

test("the context-dilution figure follows its sliders with the core's weight", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#dilution-figure");
  const headline = () => fig.locator(".headline").textContent();
  const before = await headline();
  const expected = await page.evaluate(async () =>
    (await createLLMMath()).contextDilution({ relevantScore: 2, distractorScore: 0, distractors: 10 }).relevantWeight);
  assert.match(before, new RegExp((expected * 100).toFixed(1).replace(".", "\\.") + "%"));
  await fig.getByLabel("Distractors n").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await headline(), before);
  assert.match(await fig.locator(".headline").textContent(), /20 distractors/);
  await page.close();
});

test("on a phone-width screen the page does not scroll sideways", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: artifact("reader-390.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
