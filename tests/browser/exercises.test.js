// The eight exercises ask before they tell, in headless Chromium on one page load: for each,
// a common wrong prediction is told wrong with the hint for the step that went wrong, the core's
// value is told right (within the stated tolerance) and opens the answer, and after the figure's
// inputs change the expected value follows them (the old right value is then told wrong). Until
// a right prediction or a request, the figure's readouts that state the answer are blurred and
// hidden from assistive technology.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, artifact, shown } = require("./browser.js");

const browser = useBrowser(test);

/**
 * `fn(m, state, el)` evaluated in the page with a fresh core, the figure's state and element.
 * Passed as source text: the page's Content-Security-Policy refuses eval from its own scripts.
 */
function core(page, id, fn) {
  return page.evaluate(`(async () => {
    const el = document.getElementById(${JSON.stringify(id)});
    const m = await createLLMMath();
    return (${fn.toString()})(m, el.state, el);
  })()`);
}

/** Sets a figure's attribute, as a page or a course author would. */
function setAttr(page, id, name, value) {
  return page.evaluate(([id, name, value]) => document.getElementById(id).setAttribute(name, value), [id, name, value]);
}

/** Types a prediction into an exercise, presses Check (with Enter), and returns the status text. */
async function predict(exercise, text) {
  const input = exercise.locator(".predict-input");
  await input.fill(text);
  await input.press("Enter");
  return exercise.locator(".predict-feedback").textContent();
}

const RIGHT = /^Right: /;
const WRONG = /^Not yet: /;

// Each exercise: its section, figure, the core's value at the page's inputs (`value`, checked
// against `expected` with the tolerance the exercise states), wrong predictions with the hint
// each must get, a change of the figure's inputs and the value after it. Every expected value is
// the core's, computed in the page from the figure's state; `expected` is the chapter's answer.
const EXERCISES = [
  {
    n: 1,
    section: "attention",
    figure: "attention-figure",
    expected: 1,
    tolerance: 0.01,
    value: (m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).weights[0][0],
    wrong: [
      // softmax(0.7071, 0, 2.1213)[0] = 0.1783: the masked keys let into the denominator
      ["0.178", /you divided by the sum over all the keys, the future ones too/],
      ["0.7071", /key 1's score q₁·k₁\/√d, before the softmax/],
      ["0", /key 1 is at query 1's own position/],
      ["0.5", /Look at row 1 of the scores/],
    ],
    change: (page) => setAttr(page, "attention-figure", "causal", "false"),
  },
  {
    n: 2,
    section: "sampling",
    figure: "sampling-exercise",
    expected: 0.5,
    tolerance: 0.01,
    value: (m, s) =>
      m.sampling({ probs: s.probs }, { temperature: s.temperature, topK: s.topK, topP: s.topP }).probs[0],
    wrong: [
      ["0.4", /before the filter\. The nucleus keeps only part of the mass, and the sampler renormalises/],
      ["0.8", /the mass the nucleus retains, not the token's probability/],
      ["0.25", /Sort the tokens, most probable first/],
    ],
    // Top-p 1: no filter, so "blue" keeps 0.4 and 0.5 is now wrong.
    change: (page) => setAttr(page, "sampling-exercise", "top-p", "1"),
  },
  {
    n: 3,
    section: "rope",
    figure: "rope-figure",
    expected: 0.9998999933,
    tolerance: 0.00005,
    value: (m, s) => m.rope(s.q, s.k, s.m, s.n, { pairing: s.pairing, freqs: s.freqs }).scaled,
    right: "0.9999",
    wrong: [
      ["1.9998", /That is the raw score q̃·k̃; the score divides it by √d = √4/],
      ["1", /the score with no rotation at all/],
      ["2", /no rotation, and without dividing by √d/],
      ["0.5", /Each pair contributes the dot product of its two rotated halves/],
    ],
    // Query at 100: the pairs turn by 1 and 0.01 rad, a score of about 0.77.
    change: (page) => setAttr(page, "rope-figure", "m", "100"),
  },
  {
    n: 4,
    section: "cost",
    figure: "cost-figure",
    expected: 256,
    tolerance: 0,
    value: (m, s) =>
      m.attentionCost({ tokens: s.tokens, heads: s.heads, headDim: s.headDim, kvHeads: s.kvHeads }).scoresPerHead,
    wrong: [
      ["16", /one score per token\. Each of the n queries is scored against each of the n keys/],
      ["2,048", /counts the scores of every head in the layer/],
      ["8192", /the layer's KV cache holds/],
      ["255", /count the \(query, key\) pairs/],
    ],
    change: (page) => setAttr(page, "cost-figure", "tokens", "32"),
  },
  {
    n: 5,
    section: "speculative",
    figure: "speculative-figure",
    expected: 1.875,
    tolerance: 0.01,
    value: (m, s) => m.speculativeDecoding({ alpha: s.alpha, gamma: s.gamma }).expectedTokens,
    wrong: [
      ["2", /the ceiling 1\/\(1 − α\), the limit as γ grows/],
      // eq. 1 at α = (0.5 + 0.25 + 0.125)/3 = 0.2917, the naive accepted ÷ proposed: 1.4016
      ["1.40", /dividing the accepted drafts by the proposed ones, which undercounts α/],
      ["1.75", /the sum runs to α\^γ/],
      ["4", /the most one call can yield/],
      ["2.5", /the target stops at the first rejection/],
      ["3", /add 1 \+ α \+ α² \+ … up to α\^γ/],
    ],
    change: (page) => setAttr(page, "speculative-figure", "alpha", "0.8"),
  },
  {
    n: 6,
    section: "alibi",
    figure: "alibi-figure",
    expected: 5.545177,
    tolerance: 0.05,
    value: (m, s) => m.alibi({ slope: m.alibiSlopes(s.heads)[s.head - 1] }).halfDistance,
    right: "5.5",
    wrong: [
      ["8", /That is 1\/m, the distance at which the bias reaches −1/],
      ["0.0866", /You multiplied ln 2 by m/],
      ["11.09", /a slope half as steep/],
      ["2.41", /log₁₀ 2/],
      ["6", /solve e\^\(−m·δ\) = ½ for δ/],
    ],
    // Head 4 of 8: slope 1/16, twice the distance.
    change: (page) => setAttr(page, "alibi-figure", "head", "4"),
  },
  {
    n: 7,
    section: "quantization",
    figure: "quantization-figure",
    expected: 4,
    tolerance: 0.01,
    // s of the channel with the largest activation range, the one the exercise asks about.
    value: (m, s) => {
      const L = m.smoothQuantLayer(s.x, s.w, { alpha: s.alpha, bits: s.bits });
      return L.scales[L.largestChannel];
    },
    wrong: [
      ["2", /activation range after smoothing, max\|X\|\/s/],
      ["16", /max\|X\| \/ max\|W\| without the powers/],
      ["0.25", /That is 1\/s/],
      ["8", /as α = 1 would/],
      ["3", /to the power α and divide by its weight range to the power 1 − α/],
    ],
    change: (page) => setAttr(page, "quantization-figure", "alpha", "0.75"),
  },
  {
    n: 8,
    section: "moe",
    figure: "moe-figure",
    expected: 1,
    tolerance: 0.01,
    value: (m, s) => {
      const f = m.moeRoute(s.logits, s.topK).f;
      return m.moeLoadBalance(
        f,
        f.map(() => 1 / f.length),
      ).loss;
    },
    wrong: [
      ["0.25", /without the factor N = 4/],
      ["4", /a full collapse/],
      ["0.5", /expert 1's term alone/],
      ["2", /multiply by N/],
    ],
    // Even router weights give 1 for every split: that is the exercise's point, so its value
    // cannot move. The change makes the router's own loss (a hint's value) and the worked sum
    // follow instead.
    change: (page) => setAttr(page, "moe-figure", "preset", "collapsed"),
  },
];

test("exercises: each tells a wrong prediction its hint, the core's value right, and follows the figure", async () => {
  const { page, errors } = await openReader(browser.context);
  for (const ex of EXERCISES) {
    const exercise = page.locator(`#${ex.section} .exercise`);
    const details = exercise.locator("details");
    const label = `exercise ${ex.n}`;
    const value = await core(page, ex.figure, ex.value);
    // The core's value at the page's inputs is the chapter's answer (as printed there).
    assert.ok(Math.abs(value - ex.expected) <= 1e-6, `${label}: core value ${value}`);
    assert.match(
      await exercise.locator(".predict-tolerance").textContent(),
      ex.tolerance === 0
        ? /Counted right exactly/
        : new RegExp(`Counted right within ${String(ex.tolerance).replace(".", "\\.")}`),
      label,
    );

    assert.equal(await details.getAttribute("open"), null, `${label}: the answer starts closed`);
    for (const [guess, hint] of ex.wrong) {
      const said = await predict(exercise, guess);
      assert.match(said, WRONG, `${label}, ${guess}: ${said}`);
      assert.match(said, hint, `${label}, ${guess}: ${said}`);
    }
    assert.equal(await details.getAttribute("open"), null, `${label}: a wrong number does not open the answer`);

    const right = ex.right ?? String(value);
    const said = await predict(exercise, right);
    assert.match(said, RIGHT, `${label}, ${right}: ${said}`);
    assert.equal(await details.getAttribute("open"), "", `${label}: a right number opens the answer`);

    // The figure changes: the verdict is withdrawn, and the expected value is the new inputs'.
    await ex.change(page);
    assert.match(
      await exercise.locator(".predict-feedback").textContent(),
      /The figure has changed since you checked/,
      label,
    );
    const after = await core(page, ex.figure, ex.value);
    if (ex.n === 8) {
      assert.ok(Math.abs(after - 1) <= 1e-9, `${label}: even router weights still give ${after}`);
      const routerLoss = await core(page, ex.figure, (m, s) => m.moeRoute(s.logits, s.topK).loss);
      assert.match(await predict(exercise, routerLoss.toFixed(4)), /the figure's own router probabilities/, label);
      // Every token now goes to expert 1: the worked sum has one term.
      assert.match(await exercise.locator(".answer-loss").textContent(), /^4·\(1·0\.25\) = 1$/);
    } else {
      assert.ok(
        Math.abs(after - value) > 2 * Math.max(ex.tolerance, 1e-9),
        `${label}: the change moves the value (${value} → ${after})`,
      );
      assert.match(await predict(exercise, right), WRONG, `${label}: the old value ${right} after the change`);
      assert.match(await predict(exercise, String(after)), RIGHT, `${label}: the new value ${after}`);
    }
  }
  await page.locator("#speculative .exercise").screenshot({ path: artifact("exercise-5-checked.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: the figure's readouts are blurred and hidden from assistive technology until a right number or a request", async () => {
  const { page, errors } = await openReader(browser.context);
  // Per figure, selectors that must be concealed before the exercise is tried.
  const concealed = {
    "attention-figure": [".attention-results .table-view:nth-child(2)", ".worked"],
    "sampling-exercise": [".headline", ".sampling-worked"],
    "rope-figure": [".headline", ".worked"],
    "cost-figure": [".cost-stats", ".worked"],
    "speculative-figure": [".headline", ".worked", ".speculative-predicted"],
    "alibi-figure": [".headline", ".worked"],
    "quantization-figure": [".quantization-table", ".worked"],
  };
  const state = (id, sel) =>
    page.evaluate(
      ([id, sel]) => {
        const el = document.getElementById(id);
        const targets = [...el.shadowRoot.querySelectorAll(sel)];
        return {
          count: targets.length,
          blurred: targets.every((t) => getComputedStyle(t).filter.includes("blur")),
          hidden: targets.every((t) => t.getAttribute("aria-hidden") === "true"),
          clear: targets.every((t) => getComputedStyle(t).filter === "none" && !t.hasAttribute("aria-hidden")),
          note: !!el.shadowRoot.querySelector(".llm-predict-note"),
        };
      },
      [id, sel],
    );
  for (const [id, sels] of Object.entries(concealed)) {
    for (const sel of sels) {
      const s = await state(id, sel);
      assert.ok(s.count >= 1 && s.blurred && s.hidden && s.note, `${id} ${sel} before: ${JSON.stringify(s)}`);
    }
  }
  // The scores of Figure 1.1, from which exercise 1 is worked out, stay readable.
  assert.ok((await state("attention-figure", ".attention-results .table-view:nth-child(1)")).clear);
  await page.locator("#attention-figure").screenshot({ path: artifact("exercise-1-concealed.png") });

  // A wrong number keeps them concealed; a redraw of the figure conceals its new readouts too.
  const ex5 = page.locator("#speculative .exercise");
  assert.match(await predict(ex5, "2"), WRONG);
  await setAttr(page, "speculative-figure", "gamma", "4");
  for (const sel of concealed["speculative-figure"]) {
    const s = await state("speculative-figure", sel);
    assert.ok(s.blurred && s.hidden, `speculative ${sel} after a wrong number and a redraw`);
  }
  // A right number reveals them.
  const expected = await core(
    page,
    "speculative-figure",
    (m, s) => m.speculativeDecoding({ alpha: s.alpha, gamma: s.gamma }).expectedTokens,
  );
  assert.match(await predict(ex5, expected.toFixed(3)), RIGHT);
  for (const sel of concealed["speculative-figure"])
    assert.ok((await state("speculative-figure", sel)).clear, `speculative ${sel} after`);
  // Blurred, the readouts did not follow the redraw (dom.js freeze); shown, they are the figure's numbers now (γ = 4).
  assert.equal(
    await page.locator("#speculative-figure .speculative-headline-expected").textContent(),
    shown(expected, 4),
  );
  assert.match(await page.locator("#speculative-figure .worked").textContent(), /γ = 4/);
  assert.equal((await state("speculative-figure", ".headline")).note, false);

  // Opening the answer reveals them (on its toggle event, which the browser fires in a task of its own after the click).
  await page.locator("#alibi .exercise summary").click();
  await page.waitForFunction(() => !document.getElementById("alibi-figure").hasAttribute("data-predict-first"));
  for (const sel of concealed["alibi-figure"])
    assert.ok((await state("alibi-figure", sel)).clear, `alibi ${sel} after Show the answer`);

  // So does the figure's own "Show the numbers", which leaves the answer closed.
  await page.locator("#cost-figure").getByRole("button", { name: "Show the numbers" }).click();
  for (const sel of concealed["cost-figure"])
    assert.ok((await state("cost-figure", sel)).clear, `cost ${sel} after Show the numbers`);
  assert.equal(await page.locator("#cost .exercise details").getAttribute("open"), null);

  // "Go to the exercise" puts the focus in its field.
  await page.locator("#rope-figure").getByRole("button", { name: "Go to the exercise" }).click();
  assert.equal(
    await page.evaluate(() => document.activeElement.closest(".exercise")?.querySelector("h3").textContent),
    "Exercise 3",
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: the form is labelled, its verdict is a polite status, and typed text is read as a number, never as markup", async () => {
  const { page, errors } = await openReader(browser.context);
  const exercise = page.locator("#speculative .exercise");
  const field = exercise.getByLabel("Tokens per target call, on average:");
  assert.equal(await field.count(), 1);
  const status = exercise.getByRole("status");
  assert.equal(await status.getAttribute("aria-live"), "polite");

  // Not a number: said so, the field marked invalid, and nothing parsed as markup.
  await field.fill("<img src=x onerror=alert(1)>");
  await exercise.getByRole("button", { name: "Check" }).click();
  assert.match(await status.textContent(), /Type a number/);
  assert.equal(await field.getAttribute("aria-invalid"), "true");
  assert.equal(await page.locator(".exercise img").count(), 0);

  // A decimal comma, a true minus sign and a space between thousands are read as numbers.
  assert.match(await predict(exercise, "1,88"), RIGHT);
  assert.equal(await field.getAttribute("aria-invalid"), "false");
  assert.match(await predict(page.locator("#cost .exercise"), "2 048"), /every head in the layer/);
  // A count is right only exactly, and said so.
  assert.match(
    await predict(page.locator("#cost .exercise"), "256"),
    /^Right: the figure's inputs give 256, exactly your number\./,
  );
  assert.match(await predict(page.locator("#cost .exercise"), "257"), /^Not yet: 257 is not the answer\./);
  assert.match(await predict(page.locator("#attention .exercise"), "−1"), WRONG);
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercise 1: with Look-up loaded, the answer no longer calls a tied score the largest in the row", async () => {
  const { page, errors } = await openReader(browser.context);
  const answer = page.locator("llm-answer-attention .answer-body");
  // The exercise's own example: key 3's score 2.121 is above every score query 1 sees.
  assert.match(await answer.textContent(), /key 3's is the largest in the row, above every score query 1 can see/);
  await setAttr(page, "attention-figure", "preset", "lookup");
  // Look-up: every one of query 1's scores is 0 (query (0, 0, 1) against keys with no third component).
  const row = await core(page, "attention-figure", (m, s) => m.attention(s.q, s.k, s.v, { causal: true }).scores[0]);
  assert.ok(row.length === 6 && row.every((x) => x === 0), `query 1's scores ${row}`);
  const text = await answer.textContent();
  assert.doesNotMatch(text, /largest in the row/);
  assert.match(
    text,
    /Future keys 2, 3, 4, 5, 6 have scores 0, 0, 0, 0, 0; none is above the best score query 1 can see, 0\./,
  );
  assert.match(text, /masked keys are removed before normalisation/);
  assert.deepEqual(errors, []);
  await page.close();
});
