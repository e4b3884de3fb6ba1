// Section 8 in headless Chromium: the mixture-of-experts figure routes with the core, follows
// its inputs, and exercise 8's answer is the core's.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, openFigure, artifact, num } = require("./browser.js");

const browser = useBrowser(test);

/** The core's routing of the figure's current logits and top-k. */
async function fromCore(page) {
  return page.evaluate(async () => {
    const el = document.getElementById("moe-figure");
    const m = await createLLMMath();
    return m.moeRoute(el.state.logits, el.state.topK);
  });
}

/** What the figure shows: dispatch column, per-expert table rows and the loss. */
async function shown(fig) {
  return {
    to: await fig.locator(".moe-dispatch td.moe-to").allTextContents(),
    experts: await fig
      .locator(".moe-experts tbody tr")
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent))),
    loss: await fig.locator(".moe-loss").textContent(),
  };
}

/** The figure's numbers equal the core's (4 decimals shown: tolerance 5e-5). */
function assertMatches(s, core) {
  assert.deepEqual(
    s.to,
    core.assignments.map((a) => a.map((j) => `E${j + 1}`).join(", ")),
  );
  core.counts.forEach((c, j) => {
    assert.equal(num(s.experts[j][0]), c, `count of expert ${j + 1}`);
    assert.ok(Math.abs(num(s.experts[j][1]) - core.f[j]) <= 5e-5, `f_${j + 1}`);
    assert.ok(Math.abs(num(s.experts[j][2]) - core.p[j]) <= 5e-5, `p_${j + 1}`);
    assert.ok(Math.abs(num(s.experts[j][3]) - core.terms[j]) <= 5e-5, `term ${j + 1}`);
  });
  assert.ok(Math.abs(num(s.loss) - core.loss) <= 5e-5, `loss ${s.loss} vs ${core.loss}`);
}

test("moe: the default routing splits the traffic (0.5, 0.5, 0, 0), with the core's f, p and loss", async () => {
  const { page, errors } = await openFigure(browser.context, "moe");
  const fig = page.locator("#moe-figure");
  const core = await fromCore(page);
  assert.deepEqual(core.f, [0.5, 0.5, 0, 0]);
  const s = await shown(fig);
  assertMatches(s, core);
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 8);
  const worked = await fig.locator(".worked").textContent();
  assert.ok(
    worked.includes(`= ${core.terms.map((t) => Number(t.toFixed(4))).join(" + ")} = ${Number(core.loss.toFixed(4))}.`),
    worked,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("moe: top-k, edits, presets and the number of experts change the routing as the core does", async () => {
  const { page, errors } = await openFigure(browser.context, "moe");
  const fig = page.locator("#moe-figure");
  const first = await shown(fig);

  await fig.getByLabel("Experts per token, top-k").selectOption("2");
  let s = await shown(fig);
  assert.notEqual(s.loss, first.loss);
  assertMatches(s, await fromCore(page));
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 16);

  await fig.getByLabel("Experts per token, top-k").selectOption("1");
  await fig.getByLabel("logit of token 1 (The) for expert 3").fill("4");
  s = await shown(fig);
  assert.equal(s.to[0], "E3");
  assertMatches(s, await fromCore(page));

  await fig.locator("select").first().selectOption("collapsed");
  s = await shown(fig);
  assert.deepEqual(
    s.experts.map((r) => num(r[0])),
    [8, 0, 0, 0],
  );
  assertMatches(s, await fromCore(page));

  await fig.getByRole("button", { name: "more: Experts" }).click();
  s = await shown(fig);
  assert.equal(s.experts.length, 5);
  assertMatches(s, await fromCore(page));
  await page.screenshot({ path: artifact("moe-edited.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("moe: a bad logit names the parameter and keeps the last good figure", async () => {
  const { page } = await openFigure(browser.context, "moe");
  const fig = page.locator("#moe-figure");
  const good = await shown(fig);
  await fig.getByLabel("logit of token 2 (cat) for expert 1").fill("");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(
    await fig.locator(".llm-status").textContent(),
    /routerLogits\[1\]\[0\] must be a finite number, got NaN/,
  );
  assert.deepEqual(await shown(fig), good);
  await fig.getByLabel("logit of token 2 (cat) for expert 1").fill("1.2");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  await page.close();
});

test("moe: exercise 8's answer is 4·(0.5·0.25 + 0.5·0.25) = 1 and follows the figure's traffic", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#moe .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = details.locator(".answer-body");
  let text = await answer.textContent();
  assert.match(text, /4·\(0\.5·0\.25 \+ 0\.5·0\.25\) = 1\b/);
  assert.match(text, /f = \(1, 0, 0, 0\), gives 4·\(1·0\.25\) = 1\b/);
  assert.match(text, /f = p = \(1, 0, 0, 0\), gives 4·\(1·1\) = 4 = N/);
  await details.screenshot({ path: artifact("exercise-8.png") });

  // A second traffic split from the figure: under even router weights the loss stays 1.
  await page.locator("#moe-figure select").first().selectOption("balanced");
  const core = await fromCore(page);
  const even = await page.evaluate(
    async (f) => (await createLLMMath()).moeLoadBalance(f, [0.25, 0.25, 0.25, 0.25]),
    core.f,
  );
  text = await answer.textContent();
  assert.ok(text.includes(`f = (${core.f.join(", ")})`), text);
  assert.match(text, /4·\(0\.25·0\.25 \+ 0\.25·0\.25 \+ 0\.25·0\.25 \+ 0\.25·0\.25\) = 1\b/);
  assert.equal(num(await answer.locator(".answer-loss strong").textContent()), even.loss);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Sets attributes on the live figure, in order. */
async function setAttrs(page, attrs) {
  await page.evaluate((pairs) => {
    const el = document.getElementById("moe-figure");
    for (const [name, value] of pairs) el.setAttribute(name, value);
  }, Object.entries(attrs));
}

test("moe: every declared attribute, set on the live element, redraws the routing with the core's numbers", async () => {
  const { page, errors } = await openFigure(browser.context, "moe");
  const fig = page.locator("#moe-figure");
  const first = await shown(fig);

  await setAttrs(page, { preset: "collapsed" });
  let s = await shown(fig);
  assert.deepEqual(
    s.experts.map((r) => num(r[0])),
    [8, 0, 0, 0],
  );
  assert.notEqual(s.loss, first.loss);
  assertMatches(s, await fromCore(page));

  await setAttrs(page, { "top-k": "2" });
  s = await shown(fig);
  assertMatches(s, await fromCore(page));
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 16);
  assert.equal(await fig.getByLabel("Experts per token, top-k").inputValue(), "2");

  // Three tokens and three experts: the token labels follow the rows.
  await setAttrs(page, { logits: "2,0,1;0,3,1;1,1,4" });
  s = await shown(fig);
  assert.equal(s.experts.length, 3);
  assert.equal(s.to.length, 3);
  assertMatches(s, await fromCore(page));
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 6);

  await setAttrs(page, { labels: "x|y|z" });
  assert.deepEqual(await fig.locator(".moe-dispatch tbody th").allTextContents(), ["x", "y", "z"]);
  assert.equal(await fig.getByLabel("logit of token 3 (z) for expert 3").inputValue(), "4");
  assertMatches(await shown(fig), await fromCore(page));

  const settings = await page.evaluate(() =>
    Object.fromEntries(document.getElementById("moe-figure").settings("defaults")),
  );
  assert.deepEqual(settings, { preset: "collapsed", "top-k": "2", labels: "x|y|z", logits: "2,0,1;0,3,1;1,1,4" });
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("moe: an unknown preset or an out-of-range top-k shows a note naming it, and the figure stays", async () => {
  const { page, errors } = await openFigure(browser.context, "moe");
  const fig = page.locator("#moe-figure");
  const notes = fig.locator(".llm-notes");

  await setAttrs(page, { preset: "constructor" });
  assert.ok(await notes.isVisible());
  assert.match(await notes.textContent(), /preset="constructor" ignored: expected one of balanced, between, collapsed/);
  let core = await fromCore(page);
  assert.deepEqual(core.f, [0.5, 0.5, 0, 0], "the default example is routed");
  assertMatches(await shown(fig), core);

  await setAttrs(page, { "top-k": "9" });
  assert.ok(await notes.isVisible());
  assert.match(await notes.textContent(), /top-k="9" ignored: expected a whole number from 1 to 8/);
  assertMatches(await shown(fig), await fromCore(page));
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 8);

  // Within the declared range but above the number of experts: top-k stops at 4.
  await setAttrs(page, { "top-k": "6" });
  core = await fromCore(page);
  assert.equal(await page.evaluate(() => document.getElementById("moe-figure").state.topK), 4);
  assert.match(await notes.textContent(), /top-k lowered to 4, the number of experts/);
  assertMatches(await shown(fig), core);
  assert.equal(await fig.locator(".moe-dispatch td.chosen").count(), 32);
  assert.ok(await fig.locator(".moe-bars svg").isVisible());
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});
