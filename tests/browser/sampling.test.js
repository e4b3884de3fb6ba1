// Section 2, sampling, in headless Chromium: the figure's bars, numbers and draws are the core's
// for the figure's own inputs and follow the sliders, fields and seed; temperature 0 repeats the
// false favourite; exercise 2's answer is 0.4/0.8 = 0.5 at the default and follows Figure 2.2.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers, openFigure, artifact, num } = require("./browser.js");

const browser = useBrowser(test);

/** The chart's token rows, most probable first: [label, after T, cumulative, final]. */
function rows(fig) {
  return fig
    .locator(".sampling-table tbody tr:not(.sampling-cut)")
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector("th").textContent,
        ...[...tr.querySelectorAll("td.num")].map((td) => td.textContent),
      ]),
    );
}

/** What the core returns for the figure's current inputs, computed afresh in the page. */
function fromCore(page, id) {
  return page.evaluate(async (id) => {
    const el = document.getElementById(id);
    const m = await createLLMMath();
    const s = el.state;
    const input = s.probs.length ? { probs: s.probs } : { logits: s.logits };
    const full = m.sampling(input, { temperature: s.temperature, topK: s.topK, topP: s.topP });
    const draws = s.draws === "on" ? m.sample(full.probs, { count: s.count, seed: s.seed }) : [];
    return { full, draws, tokens: s.labels.map((t) => t.trim()) };
  }, id);
}

/** Asserts that the displayed rows are the core's numbers (3 decimals shown, so within 5e-4). */
function assertRowsMatch(shown, core) {
  const { full, tokens } = core;
  assert.equal(shown.length, tokens.length);
  full.order.forEach((t, rank) => {
    const [label, tempered, cumulative, final] = shown[rank];
    assert.equal(label, tokens[t], `row ${rank}`);
    assert.ok(
      Math.abs(num(tempered) - full.tempered[t]) <= 5e-4,
      `${label} after T: ${tempered} vs ${full.tempered[t]}`,
    );
    assert.ok(
      Math.abs(num(cumulative) - full.cumulative[rank]) <= 5e-4,
      `${label} cumulative: ${cumulative} vs ${full.cumulative[rank]}`,
    );
    assert.ok(Math.abs(num(final) - full.probs[t]) <= 5e-4, `${label} final: ${final} vs ${full.probs[t]}`);
  });
}

const drawnTokens = (fig) =>
  fig.locator(".sampling-drawlist .sampling-drawn").evaluateAll((els) => els.map((e) => e.textContent.trim()));

/** Sets a range or number input the way typing or dragging would, with an input event. */
async function setInput(locator, value) {
  await locator.evaluate((el, v) => {
    el.value = v;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, String(value));
}

test("sampling: the figure shows the core's probabilities and follows the temperature slider", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const fig = page.locator("#sampling-figure");
  const before = await rows(fig);
  assertRowsMatch(before, await fromCore(page, "sampling-figure"));
  assert.deepEqual(
    before.map((r) => r[0]),
    ["Sydney", "Canberra", "Melbourne", "Perth", "Brisbane", "Adelaide"],
  );
  assert.equal(await fig.locator(".sampling-table tr.kept").count(), 3, "top-p 0.9 keeps three tokens at T = 1");

  const T = fig.getByLabel("Temperature T");
  await T.focus();
  for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowLeft");
  assert.equal(await fig.locator("output").first().textContent(), "0.7");
  const after = await rows(fig);
  assert.notDeepEqual(after, before);
  assertRowsMatch(after, await fromCore(page, "sampling-figure"));
  // The worked calculation writes the temperature into the exponents: e^(3.2/0.7).
  assert.match(await fig.locator(".worked").textContent(), /e3\.2\/0\.7/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: at temperature 0 every draw is the false favourite “Sydney”, for every seed", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const fig = page.locator("#sampling-figure");
  await fig.getByLabel("Temperature T").focus();
  await page.keyboard.press("Home");
  assert.match(await fig.locator(".headline").textContent(), /greedy: only “Sydney” can be drawn/);
  assert.deepEqual(await drawnTokens(fig), Array(10).fill("Sydney"));
  assertRowsMatch(await rows(fig), await fromCore(page, "sampling-figure"));
  const seed = fig.getByLabel("Seed");
  const oldSeed = await seed.inputValue();
  await fig.getByRole("button", { name: "New seed" }).click();
  // A new seed is drawn at random; the chance it repeats 42 is 2^-32.
  assert.notEqual(await seed.inputValue(), oldSeed);
  assert.deepEqual(await drawnTokens(fig), Array(10).fill("Sydney"));
  assert.match(await fig.locator(".sampling-draws .hint").textContent(), /whatever the seed/);
  await page.locator("#sampling-figure").screenshot({ path: artifact("sampling-greedy.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: the draws are the core's for the seed, vary in wording and replay with the same seed", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const fig = page.locator("#sampling-figure");
  const at42 = await drawnTokens(fig);
  const core42 = await fromCore(page, "sampling-figure");
  assert.deepEqual(
    at42,
    core42.draws.map((t) => core42.tokens[t]),
  );
  assert.ok(new Set(at42).size > 1, `seed 42 at T = 1 gives different continuations: ${at42}`);
  const first = await fig.locator(".sampling-drawlist li").first().textContent();
  assert.equal(first, `The capital of Australia is ${at42[0]}`);

  const seed = fig.getByLabel("Seed");
  await seed.fill("7");
  const at7 = await drawnTokens(fig);
  const core7 = await fromCore(page, "sampling-figure");
  assert.deepEqual(
    at7,
    core7.draws.map((t) => core7.tokens[t]),
  );
  assert.notDeepEqual(at7, at42);
  await seed.fill("42");
  assert.deepEqual(await drawnTokens(fig), at42, "the same seed replays the same draws");

  await fig.getByLabel("Draws", { exact: true }).fill("25");
  assert.equal((await drawnTokens(fig)).length, 25);
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: top-k and top-p cut the rows, and the cuts are the core's", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const fig = page.locator("#sampling-figure");
  await fig.getByLabel("Top-k (0 = off)").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await setInput(fig.getByLabel("Top-p (1 = off)"), 0.6);
  const core = await fromCore(page, "sampling-figure");
  assert.equal(core.full.cutoff, 2);
  assertRowsMatch(await rows(fig), core);
  assert.equal(await fig.locator(".sampling-table tr.kept").count(), core.full.cutoff);
  assert.match(
    await fig
      .locator(".sampling-cut")
      .allTextContents()
      .then((t) => t.join(" | ")),
    /top-k = 2/,
  );
  // top-p 0.6 on the top-2 distribution needs both tokens; the nucleus reaches 1.
  assert.match(await fig.locator(".worked").textContent(), /≥ 0\.6: stop/);

  await setInput(fig.getByLabel("Top-k (0 = off)"), 0);
  await setInput(fig.getByLabel("Top-p (1 = off)"), 0.4);
  const one = await fromCore(page, "sampling-figure");
  assert.deepEqual(one.full.kept, [0]);
  assertRowsMatch(await rows(fig), one);
  assert.match(await fig.locator(".sampling-cut").first().textContent(), /top-p = 0\.4: the nucleus ends here/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: the reader's own logits drive the figure; with Canberra on top, greedy repeats Canberra", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const fig = page.locator("#sampling-figure");
  await fig.getByLabel("Logit of token 2").fill("3.5");
  assert.equal(await fig.locator("select").first().inputValue(), "custom");
  const core = await fromCore(page, "sampling-figure");
  assert.equal(core.full.order[0], 1);
  assertRowsMatch(await rows(fig), core);
  await setInput(fig.getByLabel("Temperature T"), 0);
  assert.deepEqual(await drawnTokens(fig), Array(10).fill("Canberra"));

  await fig.getByLabel("Token 1", { exact: true }).fill(" Sydney, NSW");
  assert.equal((await rows(fig))[1][0], "Sydney, NSW");
  await fig.getByRole("button", { name: "more: Tokens" }).click();
  assert.equal((await rows(fig)).length, 7);
  assertRowsMatch(await rows(fig), await fromCore(page, "sampling-figure"));

  await fig.locator("select").first().selectOption("flat");
  assert.equal((await rows(fig)).length, 8);
  assertRowsMatch(await rows(fig), await fromCore(page, "sampling-figure"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: bad input names the parameter and keeps the last good figure", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#sampling-figure");
  const good = await rows(fig);
  await fig.getByLabel("Logit of token 1").fill("");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(await fig.locator(".llm-status").textContent(), /logits\[0\] must be a finite number, got NaN/);
  assert.deepEqual(await rows(fig), good);
  await fig.getByLabel("Logit of token 1").fill("3.2");
  assert.equal(await fig.locator(".llm-status").textContent(), "");

  await fig.getByLabel("Seed").fill("-1");
  assert.match(await fig.locator(".llm-status").textContent(), /seed must be an integer in \[0, 4294967295\], got -1/);

  // More draws than the widget's settings can carry is refused before the core: the last draws stay.
  await fig.getByLabel("Seed").fill("42");
  await fig.getByLabel("Draws", { exact: true }).fill("200");
  assert.match(await fig.locator(".llm-status").textContent(), /count must be from 1 to 100, got 200/);
  assert.equal((await drawnTokens(fig)).length, 10);
  assert.equal(await fig.getByLabel("Draws", { exact: true }).getAttribute("aria-invalid"), "true");

  const ex = page.locator("#sampling-exercise");
  await ex.getByLabel("Probability of token 1").fill("0.5");
  assert.match(await ex.locator(".llm-status").textContent(), /probs must be an array summing to 1/);
  await page.close();
});

test("sampling: exercise 2's answer is 0.4/0.8 = 0.5 at the default and follows Figure 2.2", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#sampling .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = details.locator(".answer-body");
  const text = await answer.textContent();
  assert.match(text, /0\.4\/0\.8 = 0\.5/);
  assert.match(text, /nucleus is “blue” and “grey”/);
  assert.match(text, /retained mass is 0\.8/);
  assert.match(text, /sampling probability among the retained tokens/);
  assert.match(text, /verifies nothing/);
  await details.screenshot({ path: artifact("exercise-2.png") });

  // Top-p 0.9 takes in a third token: blue ends at 0.4/0.9.
  const ex = page.locator("#sampling-exercise");
  await ex.getByLabel("Top-p (1 = off)").focus();
  for (let i = 0; i < 10; i += 1) await page.keyboard.press("ArrowRight");
  const core = await fromCore(page, "sampling-exercise");
  assert.deepEqual(core.full.kept, [0, 1, 2]);
  const value = await answer.locator(".answer-value").textContent();
  assert.equal(value, `0.4/${core.full.keptMass.toFixed(1)} = ${core.full.probs[0].toFixed(4)}`);
  assert.match(await answer.textContent(), /“blue”, “grey” and “clear”/);

  // Two edits keep the sum at 1: (0.5, 0.3, 0.1, 0.1) at top-p 0.9.
  await ex.getByLabel("Probability of token 1").fill("0.5");
  await ex.getByLabel("Probability of token 2").fill("0.3");
  const edited = await fromCore(page, "sampling-exercise");
  assert.equal(
    await answer.locator(".answer-value").textContent(),
    `0.5/${edited.full.keptMass.toFixed(1)} = ${edited.full.probs[0].toFixed(4)}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("sampling: on a phone-width screen both figures fit without sideways scrolling", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844 });
  for (const id of ["sampling-figure", "sampling-exercise"]) {
    const overflow = await page.evaluate((id) => {
      const el = document.getElementById(id);
      return Math.max(
        ...[el, ...el.shadowRoot.querySelectorAll(".sampling-chart, .worked")].map(
          (e) => e.scrollWidth - e.clientWidth,
        ),
      );
    }, id);
    assert.ok(overflow <= 0, `#${id} overflows by ${overflow}px`);
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  assert.deepEqual(errors, []);
  await page.close();
});

/** The core's sampling() and sample() for explicit inputs, computed afresh in the page. */
function coreFor(page, input, opts, draw = null) {
  return page.evaluate(
    async ({ input, opts, draw }) => {
      const m = await createLLMMath();
      const full = m.sampling(input, opts);
      return { full, draws: draw ? m.sample(full.probs, draw) : [] };
    },
    { input, opts, draw },
  );
}

/** Sets (or, with null, removes) an attribute on the live element. */
function setAttr(page, id, name, value) {
  return page.evaluate(
    ({ id, name, value }) => {
      const el = document.getElementById(id);
      if (value === null) el.removeAttribute(name);
      else el.setAttribute(name, value);
    },
    { id, name, value },
  );
}

const finals = async (fig) => (await rows(fig)).map((r) => num(r[3]));
const near = (shown, want, what) =>
  shown.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 5e-4, `${what} [${i}]: ${x} vs ${want[i]}`));

test("sampling: every declared attribute set on the live element re-renders the figure with the core's numbers", async () => {
  const { page, errors } = await openReader(browser.context);
  const id = "sampling-figure";
  const fig = page.locator(`#${id}`);
  const ex = page.locator("#sampling-exercise");
  const exerciseRows = await rows(ex);
  const sydney = [3.2, 2.9, 1.5, 0.6, 0.4, 0];
  const byOrder = (r) => r.full.order.map((t) => r.full.probs[t]);

  await setAttr(page, id, "temperature", "0.5");
  assert.equal(await fig.locator("output").first().textContent(), "0.5");
  near(
    await finals(fig),
    byOrder(await coreFor(page, { logits: sydney }, { temperature: 0.5, topK: 0, topP: 0.9 })),
    "temperature 0.5",
  );

  await setAttr(page, id, "top-k", "2");
  const k2 = await coreFor(page, { logits: sydney }, { temperature: 0.5, topK: 2, topP: 0.9 });
  near(await finals(fig), byOrder(k2), "top-k 2");
  assert.equal(await fig.locator(".sampling-table tr.kept").count(), k2.full.cutoff);
  assert.match(
    await fig
      .locator(".sampling-cut")
      .allTextContents()
      .then((t) => t.join(" | ")),
    /top-k = 2/,
  );

  await setAttr(page, id, "top-p", "0.3");
  const p3 = await coreFor(page, { logits: sydney }, { temperature: 0.5, topK: 2, topP: 0.3 });
  assert.deepEqual(p3.full.kept, [0]);
  near(await finals(fig), byOrder(p3), "top-p 0.3");
  assert.match(await fig.locator(".sampling-cut").first().textContent(), /top-p = 0\.3/);

  await setAttr(page, id, "top-k", "0");
  await setAttr(page, id, "top-p", "1");
  await setAttr(page, id, "temperature", "1");
  await setAttr(page, id, "logits", "1,2,3");
  assert.equal((await rows(fig)).length, 3, "three logits, three rows");
  const three = await coreFor(
    page,
    { logits: [1, 2, 3] },
    { temperature: 1, topK: 0, topP: 1 },
    { seed: 42, count: 10 },
  );
  near(await finals(fig), byOrder(three), "logits 1,2,3");
  // The example's first three tokens stay; the labels attribute renames them.
  assert.deepEqual(
    (await rows(fig)).map((r) => r[0]),
    ["Melbourne", "Canberra", "Sydney"],
  );
  await setAttr(page, id, "labels", " one| two| three");
  assert.deepEqual(
    (await rows(fig)).map((r) => r[0]),
    ["three", "two", "one"],
  );
  assert.equal(await fig.locator("select").first().inputValue(), "custom");

  await setAttr(page, id, "prompt", "Count:");
  assert.equal(
    await fig.locator(".sampling-drawlist li").first().textContent(),
    `Count: ${["one", "two", "three"][three.draws[0]]}`,
  );

  await setAttr(page, id, "seed", "7");
  const seed7 = await coreFor(
    page,
    { logits: [1, 2, 3] },
    { temperature: 1, topK: 0, topP: 1 },
    { seed: 7, count: 10 },
  );
  assert.deepEqual(
    await drawnTokens(fig),
    seed7.draws.map((t) => ["one", "two", "three"][t]),
  );
  assert.equal(await fig.getByLabel("Seed").inputValue(), "7");
  await setAttr(page, id, "count", "25");
  const count25 = await coreFor(
    page,
    { logits: [1, 2, 3] },
    { temperature: 1, topK: 0, topP: 1 },
    { seed: 7, count: 25 },
  );
  assert.deepEqual(
    await drawnTokens(fig),
    count25.draws.map((t) => ["one", "two", "three"][t]),
  );

  await setAttr(page, id, "probs", "0.5,0.3,0.2");
  assert.match(await fig.locator(".sampling-edit-table thead").textContent(), /Probability p/);
  near(await finals(fig), [0.5, 0.3, 0.2], "probs");
  near(
    await finals(fig),
    byOrder(await coreFor(page, { probs: [0.5, 0.3, 0.2] }, { temperature: 1, topK: 0, topP: 1 })),
    "probs (core)",
  );

  await setAttr(page, id, "draws", "off");
  assert.equal(await fig.locator(".sampling-draws").isVisible(), false);
  assert.doesNotMatch(await fig.locator(".worked").textContent(), /Draw\./);
  await setAttr(page, id, "draws", "on");
  assert.equal(await fig.locator(".sampling-draws").isVisible(), true);
  assert.equal((await drawnTokens(fig)).length, 25);

  // A new preset starts again from the attributes: the preset's numbers, then every other attribute.
  for (const name of ["temperature", "top-k", "top-p", "logits", "probs", "labels", "prompt"])
    await setAttr(page, id, name, null);
  await setAttr(page, id, "preset", "peaked");
  assert.deepEqual(
    (await rows(fig)).map((r) => r[0]),
    ["cold", "warm", "cool", "freezing", "not", "icy"],
  );
  near(
    await finals(fig),
    byOrder(await coreFor(page, { logits: [6, 2.5, 2, 1, 0.5, 0] }, { temperature: 1, topK: 0, topP: 0.9 })),
    "preset peaked",
  );
  assert.equal(await fig.locator("select").first().inputValue(), "peaked");
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);

  // The other instance kept its own state.
  assert.deepEqual(await rows(ex), exerciseRows);
  assert.equal(await ex.locator(".sampling-draws").isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('sampling: preset="constructor" and out-of-range numbers are refused with a note naming the attribute', async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const id = "sampling-exercise";
  const ex = page.locator(`#${id}`);
  const good = await rows(ex);
  const notes = ex.locator(".llm-notes");
  assert.equal(await notes.isVisible(), false);

  await setAttr(page, id, "preset", "constructor");
  await notes.waitFor();
  assert.match(await notes.textContent(), /preset="constructor" ignored/);
  // The figure is still there, with the default example's numbers from the core.
  assert.equal(await ex.locator(".sampling-table").isVisible(), true);
  assert.equal((await rows(ex)).length, 6, "the default example is shown");
  const byOrder = (r) => r.full.order.map((t) => r.full.probs[t]);
  near(
    await finals(ex),
    byOrder(await coreFor(page, { logits: [3.2, 2.9, 1.5, 0.6, 0.4, 0] }, { temperature: 1, topK: 0, topP: 0.9 })),
    "default",
  );

  await setAttr(page, id, "preset", "exercise");
  assert.equal(await notes.isVisible(), false);
  assert.deepEqual(await rows(ex), good);

  await setAttr(page, id, "temperature", "7");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /temperature\b.* ignored: expected a number from 0 to 2\.5/);
  assert.deepEqual(await rows(ex), good, "the last good figure stays");
  assert.equal(await ex.locator(".sampling-table").isVisible(), true);

  await setAttr(page, id, "top-k", "13");
  assert.match(await notes.textContent(), /top-k\b.* ignored: expected a whole number from 0 to 12/);
  await setAttr(page, id, "count", "1000");
  assert.match(await notes.textContent(), /count\b.* ignored: expected a whole number from 1 to 100/);
  assert.deepEqual(await rows(ex), good);
  assert.deepEqual(errors, []);
  await page.close();
});
