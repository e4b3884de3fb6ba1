// Section 1, attention: the <llm-attention> and <llm-context-dilution> figures (each opened
// alone, as embed.html shows it) and exercise 1's answer (in the chapter), in headless
// Chromium, checked against the core.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, openFigure, artifact } = require("./browser.js");

const browser = useBrowser(test);

test("attention: the figure responds to the mask and to edits, and shows the core's numbers", async () => {
  const { page, errors } = await openFigure(browser.context, "attention");
  const fig = page.locator("#attention-figure");
  const weights = () =>
    fig
      .locator(".table-view")
      .nth(1)
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)));
  const before = await weights();
  assert.deepEqual(before[0], ["1", "0", "0"]);

  // The displayed weights are the core's, for the figure's own inputs.
  const fromCore = await page.evaluate(async () => {
    const el = document.getElementById("attention-figure");
    const m = await createLLMMath();
    const { q, k, v, causal } = el.state;
    return m.attention(q, k, v, { causal }).weights;
  });
  before.forEach((row, i) =>
    row.forEach((cell, j) =>
      assert.ok(
        Math.abs(Number(cell.replace("−", "-")) - fromCore[i][j]) <= 5e-4,
        `weight ${i},${j}: ${cell} vs ${fromCore[i][j]}`,
      ),
    ),
  );

  await fig.getByLabel("Causal mask").uncheck();
  const unmasked = await weights();
  assert.notDeepEqual(unmasked[0], before[0]);
  assert.ok(Number(unmasked[0][2]) > 0.5, "without the mask key 3 takes most of query 1's weight");

  // Editing a key changes the scores, and the Example list then names the reader's own numbers.
  const example = fig.getByLabel("Example");
  const shownExample = () => example.evaluate((s) => s.selectedOptions[0]?.textContent ?? "");
  const firstExample = await shownExample();
  assert.notEqual(firstExample, "");
  await fig.getByLabel("K row 3 (sat), column 1").fill("0");
  const edited = await weights();
  assert.notDeepEqual(edited[0], unmasked[0]);
  assert.equal(await shownExample(), "Your own numbers");
  // An example chosen again is named, and the entry for one's own numbers leaves the list.
  const key = await example.evaluate((s) => s.options[0].value);
  await example.selectOption(key);
  assert.equal(await shownExample(), firstExample);
  assert.equal(
    await example.evaluate((s) => [...s.options].filter((o) => !o.hidden).length),
    await example.evaluate((s) => s.options.length - 1),
  );
  // A change of shape (a token more) is one's own numbers too.
  await fig.getByRole("button", { name: "more: Tokens" }).click();
  assert.equal(await shownExample(), "Your own numbers");
  await page.screenshot({ path: artifact("attention-edited.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("attention: bad input names the parameter and keeps the last good figure", async () => {
  const { page } = await openFigure(browser.context, "attention");
  const fig = page.locator("#attention-figure");
  const output = () => fig.locator(".table-view").nth(2).textContent();
  const good = await output();
  await fig.getByLabel("Q row 1 (The), column 1").fill("");
  await assert.doesNotReject(fig.locator(".llm-status.llm-error").waitFor());
  assert.match(await fig.locator(".llm-status").textContent(), /q\[0\]\[0\] must be a finite number, got NaN/);
  assert.equal(await output(), good);
  await fig.getByLabel("Q row 1 (The), column 1").fill("1");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  await page.close();
});

test("attention, moe, sampling: the former attribute name tokens still sets the labels, the name labels wins, and only labels is written", async () => {
  const { page, errors } = await openFigure(browser.context, "attention");
  const fig = page.locator("#attention-figure");
  const rowNames = () => fig.locator(".attention-results .table-view").first().locator("tbody th").allTextContents();
  const attr = (name, value) =>
    page.evaluate(
      ([name, value]) => {
        const el = document.getElementById("attention-figure");
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
      },
      [name, value],
    );
  const settings = () =>
    page.evaluate(() => Object.fromEntries(document.getElementById("attention-figure").settings("defaults")));

  // On the live element: the former name sets the labels, with no note.
  await attr("tokens", "A|B|C");
  assert.deepEqual(await rowNames(), ["A", "B", "C"]);
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);
  assert.deepEqual(await settings(), { labels: "A|B|C" });
  // Both names: labels wins, whether it comes first or the former name changes after it.
  await attr("labels", "x|y|z");
  assert.deepEqual(await rowNames(), ["x", "y", "z"]);
  await attr("tokens", "P|Q|R");
  assert.deepEqual(await rowNames(), ["x", "y", "z"]);
  // Without labels, the former name is in force again.
  await attr("labels", null);
  assert.deepEqual(await rowNames(), ["P", "Q", "R"]);

  // An element written with the former name, as a course page before the rename has it: each of
  // the three figures whose rows are labelled starts from it, and writes labels.
  const written = await page.evaluate(async () => {
    const out = {};
    for (const [tag, tokens, both] of [
      ["llm-attention", "one|two|three", false],
      ["llm-moe", "a|b|c|d|e|f|g|h", false],
      ["llm-sampling", " s1| s2| s3| s4| s5| s6", false],
      ["llm-sampling", " old| s2| s3| s4| s5| s6", true],
    ]) {
      const el = document.createElement(tag);
      el.setAttribute("tokens", tokens);
      if (both) el.setAttribute("labels", " new| s2| s3| s4| s5| s6");
      document.body.append(el);
      el.drawNow(); // at the page's end, far from the screen: drawn now rather than when scrolled to
      await el.ready;
      out[`${tag}${both ? " both" : ""}`] = {
        labels: el.state.labels.join("|"),
        tokens: "tokens" in el.state,
        written: el.settings("defaults").map(([n]) => n),
        notes: el.notes,
      };
      el.remove();
    }
    return out;
  });
  assert.deepEqual(written, {
    "llm-attention": { labels: "one|two|three", tokens: false, written: ["labels"], notes: [] },
    "llm-moe": { labels: "a|b|c|d|e|f|g|h", tokens: false, written: ["labels"], notes: [] },
    "llm-sampling": { labels: " s1| s2| s3| s4| s5| s6", tokens: false, written: ["labels"], notes: [] },
    "llm-sampling both": { labels: " new| s2| s3| s4| s5| s6", tokens: false, written: ["labels"], notes: [] },
  });
  assert.deepEqual(errors, []);
  await page.close();
});

test("attention: exercise 1's answer, opened on request, shows weights (1, 0, 0) and V1 = (1, 0)", async () => {
  const { page } = await openReader(browser.context);
  const details = page.locator("#attention .exercise details");
  assert.equal(await details.getAttribute("open"), null, "the answer waits for a prediction or a request");
  await details.locator("summary").click();
  const answer = await details.textContent();
  assert.match(answer, /\(1, 0, 0\)/);
  assert.match(answer, /V1 = \(1, 0\)/);
  assert.match(answer, /masked keys are removed before normalisation/);
  await details.screenshot({ path: artifact("exercise-1.png") });
  await page.close();
});

test("attention: the context-dilution figure follows its sliders with the core's weight", async () => {
  const { page } = await openFigure(browser.context, "context-dilution");
  const fig = page.locator("#dilution-figure");
  const headline = () => fig.locator(".headline").textContent();
  const before = await headline();
  const expected = await page.evaluate(
    async () =>
      (await createLLMMath()).contextDilution({ relevantScore: 2, distractorScore: 0, distractors: 10 }).relevantWeight,
  );
  assert.match(before, new RegExp((expected * 100).toFixed(1).replace(".", "\\.") + "%"));
  await fig.getByLabel("Distractors n").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await headline(), before);
  assert.match(await fig.locator(".headline").textContent(), /20 distractors/);
  await page.close();
});

test("attention: Large scores (§1): the core gives queries 1 and 2 nearly all their weight on one key and query 3 an even split", async () => {
  const { page } = await openFigure(browser.context, "attention");
  const fig = page.locator("#attention-figure");
  await fig.getByLabel("Example").selectOption("sharp");
  const weights = await page.evaluate(async () => {
    const { q, k, v, causal } = document.getElementById("attention-figure").state;
    return (await createLLMMath()).attention(q, k, v, { causal }).weights;
  });
  // Scores differ by 100/√2 ≈ 35 for queries 1 and 2, so the rest is below e^−35: 0.99 is loose.
  assert.ok(Math.max(...weights[0]) > 0.99 && Math.max(...weights[1]) > 0.99, JSON.stringify(weights));
  // Query 3 scores every key 200/√2: equal scores, equal weights up to rounding (1e-12).
  for (const w of weights[2]) assert.ok(Math.abs(w - 1 / 3) < 1e-12, `query 3 weight ${w}`);
  await page.close();
});
