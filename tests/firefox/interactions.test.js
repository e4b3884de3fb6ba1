// The reader's figures and exercises worked by keyboard and mouse in Firefox ESR, on one page
// load: each figure recomputes with the core when one of its controls moves, and the exercises
// check a prediction and open their answers, with no page error and no console error.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useFirefox, open, settle, artifact } = require("./firefox.js");
const { figures, trials } = require("../browser/registry.js");

const firefox = useFirefox(test, {
  start: async (session) => {
    await open(session, "reader.html");
    // Counts each figure's llm-change events from here on.
    await session.page.evaluate(() => {
      window.changes = {};
      document.addEventListener("llm-change", (e) => {
        window.changes[e.target.id] = (window.changes[e.target.id] ?? 0) + 1;
      });
    });
  },
});

/** The figure's last result from the core, as text, and its llm-change count so far. */
const snapshot = (id) =>
  firefox.page.evaluate(
    (id) => ({ result: JSON.stringify(document.getElementById(id).result), changes: window.changes[id] ?? 0 }),
    id,
  );

/** Focuses a control inside a figure and presses a key; returns the control's value after it. */
async function press(control, key) {
  await control.focus();
  await firefox.page.keyboard.press(key);
  return control.evaluate((input) => input.value);
}

test("firefox: the diagnosis opens its calculation when the reader clicks the right mechanism, then asks for the assumption and the check", async () => {
  const fig = await firefox.page.$("#diagnose-figure");
  await fig.scrollIntoView();
  const analysisShown = () => fig.evaluate((el) => !el.shadowRoot.querySelector(".diagnose-analysis").hidden);
  assert.equal(await analysisShown(), false, "the calculation waits for the right choice");
  const choices = await firefox.page.$$("#diagnose-figure >>> .diagnose-choice");
  assert.equal(choices.length, 6);
  for (const choice of choices) {
    if (await analysisShown()) break;
    await choice.click();
  }
  assert.equal(await analysisShown(), true);
  assert.match(await fig.evaluate((el) => el.shadowRoot.querySelector(".diagnose-feedback").textContent), /Right: /);
  // Then the assumption and the check, each asked once the step before is right; the right check
  // offers the next scenario.
  const shown = (selector, n) =>
    fig.evaluate((el, [s, n]) => !el.shadowRoot.querySelectorAll(s)[n].hidden, [selector, n]);
  const steps = await firefox.page.$$("#diagnose-figure >>> .diagnose-step");
  assert.equal(steps.length, 2);
  for (const [n, step] of steps.entries()) {
    const done = () => (n === 0 ? shown(".diagnose-step", 1) : shown(".diagnose-next", 0));
    assert.equal(await shown(".diagnose-step", n), true, `step ${n + 2} asked`);
    assert.equal(await done(), false, `step ${n + 2} not yet answered`);
    for (const option of await step.$$("button")) {
      if (await done()) break;
      await option.click();
    }
    assert.equal(await done(), true, `step ${n + 2} answered`);
    assert.match(await step.evaluate((el) => el.querySelector(".diagnose-feedback").textContent), /Right: /);
  }
  assert.deepEqual(firefox.errors, []);
});

// Each figure's first control, as its trial names it (its <name>-figure.js, through the registry).
for (const [name, { id }] of Object.entries(figures)) {
  const selector = trials[name].control;
  test(`firefox: #${id} recomputes with the core when the reader moves its first control by keyboard`, async () => {
    firefox.errors.length = 0;
    const control = await firefox.page.$(`#${id} >>> ${selector}`);
    assert.ok(control, `#${id} has a ${selector}`);
    await control.scrollIntoView();
    const before = await snapshot(id);
    const start = await control.evaluate((input) => input.value);
    // Up, or down where the control is already at its largest value.
    let value = await press(control, "ArrowUp");
    if (value === start) value = await press(control, "ArrowDown");
    assert.notEqual(value, start, `#${id}'s control moved`);
    const after = await snapshot(id);
    assert.ok(after.changes > before.changes, `#${id} sent llm-change`);
    assert.notEqual(after.result, before.result, `#${id}'s result changed`);
    const error = await firefox.page.evaluate(
      (id) => document.getElementById(id).shadowRoot.querySelector(".llm-status.llm-error")?.textContent ?? null,
      id,
    );
    assert.equal(error, null, `#${id} shows an error`);
    assert.deepEqual(firefox.errors, []);
  });
}

test("firefox: the attention figure's own numbers are the core's after the edit", async () => {
  const { shown, fromCore } = await firefox.page.evaluate(async () => {
    const el = document.getElementById("attention-figure");
    // The weights are held back by exercise 1 until it is answered: shown, as its "Show the numbers" does.
    document.querySelector('[for="attention-figure"]').reveal();
    const m = await createLLMMath();
    const { q, k, v, causal } = el.state;
    const rows = [...el.shadowRoot.querySelectorAll(".table-view")[1].querySelectorAll("tbody tr")];
    return {
      shown: rows.map((r) => [...r.querySelectorAll("td")].map((td) => Number(td.textContent.replace("−", "-")))),
      fromCore: m.attention(q, k, v, { causal }).weights,
    };
  });
  shown.forEach((row, i) =>
    row.forEach((cell, j) =>
      assert.ok(Math.abs(cell - fromCore[i][j]) <= 5e-4, `weight ${i},${j}: ${cell} vs ${fromCore[i][j]}`),
    ),
  );
});

test("firefox: exercise 1 takes a typed prediction, says it is right and opens its answer", async () => {
  firefox.errors.length = 0;
  const input = await firefox.page.$("#attention .exercise .predict-input");
  await input.scrollIntoView();
  await input.click({ count: 3 });
  await input.type("1");
  await firefox.page.keyboard.press("Enter");
  const read = () =>
    firefox.page.$eval("#attention .exercise", (ex) => ({
      feedback: [...ex.querySelectorAll(".predict-feedback")].map((p) => p.textContent),
      followUp: !ex.querySelector(".follow-up-step").hidden,
      open: ex.querySelector("details").open,
    }));
  const first = await read();
  assert.match(first.feedback[0], /^Right: /);
  // A right number asks the follow-up, query 1's output, before the answer opens.
  assert.equal(first.followUp, true);
  assert.equal(first.open, false);
  const next = await firefox.page.$("#attention .exercise .follow-up-step .predict-input");
  await next.click({ count: 3 });
  await next.type("1");
  await firefox.page.keyboard.press("Enter");
  const second = await read();
  assert.match(second.feedback[1], /^Right: /);
  assert.equal(second.open, true);
  assert.deepEqual(firefox.errors, []);
});

test("firefox: the quantization exercise's answer opens on 'Show the answer' and shows the figure's numbers", async () => {
  firefox.errors.length = 0;
  const summary = await firefox.page.$("#quantization .exercise details > summary");
  await summary.scrollIntoView();
  assert.equal(await summary.evaluate((s) => s.parentElement.open), false, "the answer starts closed");
  await summary.click();
  const answer = await firefox.page.$eval("#quantization .exercise details", (d) => ({
    open: d.open,
    text: d.textContent,
    height: d.getBoundingClientRect().height,
  }));
  assert.equal(answer.open, true);
  assert.ok(answer.height > 100, `the open answer is ${answer.height} px high`);
  assert.match(answer.text, /Channel \d has activation range [\d.]+ and weight range [\d.]+/);
  await (await firefox.page.$("#quantization .exercise")).screenshot({ path: artifact("firefox-exercise-7.png") });
  await settle(firefox.page);
  assert.deepEqual(firefox.errors, []);
});
