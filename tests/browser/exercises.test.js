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
const { EXERCISES, setAttr, core } = require("./exercise-list.js");

const browser = useBrowser(test);

/** Types a prediction into an exercise, presses Check (with Enter), and returns the status text. */
async function predict(exercise, text) {
  const input = exercise.locator(".predict-input").first();
  await input.fill(text);
  await input.press("Enter");
  return exercise.locator(".predict-feedback").first().textContent();
}

const RIGHT = /^Right: /;
const WRONG = /^Not yet: /;

test("exercises: each tells a wrong prediction its hint, the core's value right, and follows the figure", async () => {
  const { page, errors } = await openReader(browser.context);
  for (const ex of EXERCISES) {
    // Its own exercise: section 4 has two (4 and 4b), one per figure.
    const exercise = page.locator(`#${ex.section} .exercise:has([for="${ex.figure}"])`);
    const details = exercise.locator("details");
    const label = `exercise ${ex.n}`;
    const value = await core(page, ex.figure, ex.value);
    // The core's value at the page's inputs is the chapter's answer (as printed there).
    assert.ok(Math.abs(value - ex.expected) <= 1e-6, `${label}: core value ${value}`);
    assert.match(
      await exercise.locator(".predict-tolerance").first().textContent(),
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
    assert.match(said, /Now the follow-up, below\./, label);
    // A right first number asks the follow-up, with a field of its own; the answer stays closed.
    assert.equal(await details.getAttribute("open"), null, `${label}: the answer waits for the follow-up`);
    const then = exercise.locator(".follow-up-step");
    assert.equal(await then.isVisible(), true, `${label}: the follow-up is asked`);
    const next = await core(page, ex.figure, ex.followUp);
    assert.ok(Math.abs(next - ex.followUpExpected) <= 1e-6, `${label}: the follow-up's core value ${next}`);
    for (const [guess, hint] of ex.followUpWrong) {
      const told = await predict(then, guess);
      assert.match(told, WRONG, `${label}, follow-up ${guess}: ${told}`);
      assert.match(told, hint, `${label}, follow-up ${guess}: ${told}`);
    }
    assert.equal(await details.getAttribute("open"), null, `${label}: a wrong follow-up keeps the answer closed`);
    const told = await predict(then, String(next));
    assert.match(told, RIGHT, `${label}, follow-up ${next}: ${told}`);
    assert.equal(await details.getAttribute("open"), "", `${label}: a right follow-up opens the answer`);

    // The figure changes: the verdict is withdrawn, and the expected value is the new inputs'.
    await ex.change(page);
    assert.match(
      await exercise.locator(".predict-feedback").first().textContent(),
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
          // The note says the numbers are held back, and offers them, only while they are.
          note: /held back/.test(el.shadowRoot.querySelector(".llm-predict-note")?.textContent ?? ""),
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
  // A right number keeps them held back while the follow-up is asked; its right number reveals them.
  const { expected, ceiling } = await core(page, "speculative-figure", (m, s) =>
    m.speculativeDecoding({ alpha: s.alpha, gamma: s.gamma }),
  ).then((r) => ({ expected: r.expectedTokens, ceiling: r.ceiling }));
  assert.match(await predict(ex5, expected.toFixed(3)), RIGHT);
  for (const sel of concealed["speculative-figure"]) {
    const s = await state("speculative-figure", sel);
    assert.ok(s.blurred && s.hidden, `speculative ${sel} while the follow-up is asked`);
  }
  assert.match(await predict(ex5.locator(".follow-up-step"), ceiling.toFixed(3)), RIGHT);
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
  assert.equal(await page.locator("#cost .exercise:has(llm-answer-cost) details").getAttribute("open"), null);

  // "Go to the exercise" puts the focus in its field.
  await page.locator("#rope-figure").getByRole("button", { name: "Go to the exercise" }).click();
  assert.equal(
    await page.evaluate(() => document.activeElement.closest(".exercise")?.querySelector("h3").textContent),
    "Exercise 3",
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: the form is labelled, its verdict is a polite status, and typed text is read as a number (a fraction, a unit after it, a percentage of a probability), never as markup", async () => {
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

  // A percentage where the answer is not a probability is refused, and said why.
  assert.match(await predict(exercise, "187.5%"), /^Type the number itself, without %/);
  assert.equal(await field.getAttribute("aria-invalid"), "true");
  // A fraction, and a number followed by its unit, are read as the number (exercise 5: 1.875).
  assert.match(await predict(exercise, "15/8"), RIGHT);
  assert.match(await predict(exercise, "1.875 tokens"), RIGHT);
  assert.match(await predict(exercise, "1/0"), /Type a number/);
  // A decimal comma, a true minus sign and a space between thousands are read as numbers.
  assert.match(await predict(exercise, "1,88"), RIGHT);
  assert.equal(await field.getAttribute("aria-invalid"), "false");
  assert.match(await predict(page.locator("#cost .exercise:has(llm-answer-cost)"), "2 048"), /every head in the layer/);
  // A count is right only exactly, and said so.
  assert.match(
    await predict(page.locator("#cost .exercise:has(llm-answer-cost)"), "256"),
    /^Right: the figure's inputs give 256, exactly your number\./,
  );
  assert.match(
    await predict(page.locator("#cost .exercise:has(llm-answer-cost)"), "257"),
    /^Not yet: 257 is not the answer\./,
  );
  assert.match(await predict(page.locator("#attention .exercise"), "−1"), WRONG);
  // Where the answer is a probability (exercise 1: weight 1), a percentage is one too.
  assert.match(await predict(page.locator("#attention .exercise"), "50 %"), WRONG);
  assert.match(await predict(page.locator("#attention .exercise"), "100%"), RIGHT);
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

test("exercise 5: the follow-up's field goes while the ceiling is infinite (α = 1) and comes back with a finite one", async () => {
  const { page, errors } = await openReader(browser.context);
  const form = () => page.evaluate(() => !document.querySelector('[for="speculative-figure"]').second.form.hidden);
  assert.equal(await form(), true, "asked at α = 0.5");
  await setAttr(page, "speculative-figure", "alpha", "1");
  assert.equal(await form(), false, "no number to ask at α = 1: the answer says the tokens grow without end");
  await setAttr(page, "speculative-figure", "alpha", "0.5");
  assert.equal(await form(), true, "asked again at α = 0.5");
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: an input rewrites only what it changed in an exercise, so a selection in the rest stays", async () => {
  const { page, errors } = await openReader(browser.context);
  const before = await page.evaluate(() => {
    const a = /** @type {any} */ (document.querySelector('[for="quantization-figure"]'));
    // The reader selects the tolerance's sentence, which no input of this figure changes.
    const range = document.createRange();
    range.selectNodeContents(a.first.toleranceEl);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    window.__kept = { tolerance: a.first.toleranceEl.firstChild, first: a.body.firstElementChild };
    return { selected: getSelection().toString(), body: a.body.textContent };
  });
  assert.match(before.selected, /^Counted right within /);
  await setAttr(page, "quantization-figure", "alpha", "0.7");
  const after = await page.evaluate(() => {
    const a = /** @type {any} */ (document.querySelector('[for="quantization-figure"]'));
    return {
      selected: getSelection().toString(),
      body: a.body.textContent,
      sameTolerance: a.first.toleranceEl.firstChild === window.__kept.tolerance,
      sameFirst: a.body.firstElementChild === window.__kept.first,
    };
  });
  assert.notEqual(after.body, before.body, "the worked answer follows α");
  assert.equal(after.sameTolerance, true, "the tolerance's text, unchanged, is the same node");
  assert.equal(after.sameFirst, true, "the worked answer's first paragraph is written into, not replaced");
  assert.equal(after.selected, before.selected, "the reader's selection is still there");
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: what is written into a withheld readout other than by a redraw, a new readout, and an element made one are withheld at once", async () => {
  const { page, errors } = await openReader(browser.context);
  const result = await page.evaluate(async () => {
    const root = document.getElementById("quantization-figure").shadowRoot;
    const worked = root.querySelector(".worked");
    // Each write is left to the page's watch before the next (its records come in a microtask).
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const out = { before: [worked.hasAttribute("data-predict-conceal"), /\d/.test(worked.textContent)] };
    // 1. Written straight into it, as a chart that measures itself would: a text and an attribute.
    const text = document.createTreeWalker(worked, NodeFilter.SHOW_TEXT).nextNode();
    text.data = "s = 4.5";
    worked.firstElementChild.setAttribute("title", "0.25 of the range");
    await settle();
    out.written = [text.data, worked.firstElementChild.getAttribute("title")];
    // 2. A new readout drawn into the figure.
    const added = document.createElement("p");
    added.className = "worked";
    added.textContent = "the answer is 7.25";
    root.querySelector(".llm-frame").append(added);
    await settle();
    out.added = [added.hasAttribute("data-predict-conceal"), added.textContent, added.getAttribute("aria-hidden")];
    // 3. An element that becomes one by its class: the headline, which this figure shows.
    const headline = root.querySelector(".headline");
    const shown = /\d/.test(headline.textContent);
    headline.classList.add("worked");
    await settle();
    out.headline = [shown, headline.hasAttribute("data-predict-conceal"), /\d/.test(headline.textContent)];
    return out;
  });
  assert.deepEqual(result.before, [true, false], "the worked calculation starts withheld");
  assert.deepEqual(result.written, ["s = •.•", "•.•• of the range"]);
  assert.deepEqual(result.added, [true, "the answer is •.••", "true"]);
  assert.deepEqual(result.headline, [true, true, false]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercises: concealing a figure again keeps watching the readouts it had withheld", async () => {
  const { page, errors } = await openReader(browser.context);
  const written = await page.evaluate(async () => {
    const answer = /** @type {any} */ (document.querySelector('[for="quantization-figure"]'));
    const worked = document.getElementById("quantization-figure").shadowRoot.querySelector(".worked");
    answer.conceal(); // its readouts are withheld already: a new watch must take them over
    const text = document.createTreeWalker(worked, NodeFilter.SHOW_TEXT).nextNode();
    text.data = "s = 4.5";
    await new Promise((r) => setTimeout(r, 0));
    return [worked.hasAttribute("data-predict-conceal"), text.data];
  });
  assert.deepEqual(written, [true, "s = •.•"]);
  assert.deepEqual(errors, []);
  await page.close();
});
