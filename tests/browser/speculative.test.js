// Section 5, speculative decoding: the <llm-speculative> figure and exercise 5's answer in
// headless Chromium, checked against the core's speculativeDecoding for the same inputs.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers, openFigure, artifact, shown } = require("./browser.js");

const browser = useBrowser(test);

/**
 * In the page, with a fresh core: speculativeDecoding for the figure's current inputs, and the
 * best draft length found by asking the core for every γ from 0 to 20.
 */
function coreForFigure(page) {
  return page.evaluate(async () => {
    const m = await createLLMMath();
    // The figure's α, γ and c (its state also holds the measuring panel's rounds and seed).
    const { alpha, gamma, costRatio } = document.getElementById("speculative-figure").state;
    const cfg = { alpha, gamma, costRatio };
    const now = m.speculativeDecoding(cfg);
    let best = { gamma: 0, speedup: -1 };
    for (let g = 0; g <= 20; g += 1) {
      const s = m.speculativeDecoding({ ...cfg, gamma: g }).speedup;
      if (s > best.speedup) best = { gamma: g, speedup: s };
    }
    return { cfg, now, best };
  });
}

/** The page's number format for these values: up to `digits` decimals, trailing zeros dropped. */

test("speculative: the figure starts at α = 0.5, γ = 3 and shows the core's tokens, ceiling and improvement", async () => {
  const { page, errors } = await openFigure(browser.context, "speculative");
  const fig = page.locator("#speculative-figure");
  const { cfg, now, best } = await coreForFigure(page);
  assert.deepEqual(cfg, { alpha: 0.5, gamma: 3, costRatio: 0.1 });
  assert.equal(now.expectedTokens, 1.875);
  const headline = await fig.locator(".headline").textContent();
  assert.equal(await fig.locator(".speculative-headline-expected").textContent(), "1.875");
  assert.match(headline, /never more than 2 however long/);
  assert.equal(await fig.locator(".speculative-headline-speedup").textContent(), `${shown(now.speedup, 3)}×`);
  assert.equal(await fig.locator(".speculative-headline-best").textContent(), `γ = ${best.gamma}`);
  // One bar per possible number of tokens, labelled with the core's probabilities.
  const bars = await fig
    .locator(".speculative-bars li")
    .evaluateAll((li) => li.map((x) => x.getAttribute("aria-label")));
  assert.deepEqual(
    bars,
    now.tokenProbs.map((p, j) => `${j + 1} token${j ? "s" : ""}: ${shown(p * 100, 2)}%`),
  );
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /= \(1 − 0\.0625\) \/ 0\.5 = 0\.9375 \/ 0\.5 = 1\.875\./);
  assert.match(worked, /= 1\.875 \/ 1\.3 = 1\.442×/);
  assert.match(worked, /1 \/ \(1 − α\) = 1 \/ 0\.5 = 2\./);
  assert.match(
    worked,
    new RegExp(`= 1\\.875 / \\(3·0\\.1 \\+ 1\\) = 1\\.875 / 1\\.3 = ${shown(now.speedup, 3).replace(".", "\\.")}×`),
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("speculative: moving the sliders changes the numbers, the chart and the bars, always as the core computes them", async () => {
  const { page, errors } = await openFigure(browser.context, "speculative");
  const fig = page.locator("#speculative-figure");
  const chart = () => fig.locator("svg.chart").innerHTML();
  const chartBefore = await chart();

  await fig.getByLabel("Draft length γ").focus();
  await page.keyboard.press("ArrowRight");
  let { now } = await coreForFigure(page);
  assert.equal(now.expectedTokens, 1.9375);
  assert.equal(await fig.locator(".speculative-headline-expected").textContent(), "1.9375");
  assert.equal(await fig.locator(".speculative-bars li").count(), 5);
  assert.notEqual(await chart(), chartBefore);

  // α from 0.5 to 0.8 in steps of 0.01: the ceiling and the best draft length move.
  await fig.getByLabel("Acceptance rate α").focus();
  for (let k = 0; k < 30; k += 1) await page.keyboard.press("ArrowRight");
  let best;
  ({ now, best } = await coreForFigure(page));
  assert.equal(await fig.locator(".speculative-headline-expected").textContent(), shown(now.expectedTokens, 4));
  assert.match(
    await fig.locator(".headline").textContent(),
    new RegExp(`never more than ${shown(now.ceiling, 4)} however`),
  );
  assert.equal(await fig.locator(".speculative-headline-speedup").textContent(), `${shown(now.speedup, 3)}×`);
  assert.equal(await fig.locator(".speculative-headline-best").textContent(), `γ = ${best.gamma}`);

  // Drafting that costs more than it is accepted never pays: the best draft length is 0.
  await fig.getByLabel("Cost ratio c (draft step / target step)").focus();
  await page.keyboard.press("End");
  ({ best } = await coreForFigure(page));
  assert.equal(best.gamma, 0);
  assert.equal(await fig.locator(".speculative-headline-best").textContent(), "γ = 0");
  await fig.screenshot({ path: artifact("speculative-moved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("speculative: exercise 5's answer gives 1.875 tokens and the ceiling 2, and follows the figure", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#speculative .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = await details.locator(".answer-body").textContent();
  assert.match(answer, /\(1 − 0\.54\) \/ \(1 − 0\.5\) = \(1 − 0\.0625\) \/ 0\.5 = 0\.9375 \/ 0\.5 = 1\.875 tokens/);
  assert.match(answer, /ceiling 1 \/ \(1 − 0\.5\) = 2:/);
  await details.screenshot({ path: artifact("exercise-5.png") });

  await page.locator("#speculative-figure").getByLabel("Acceptance rate α").focus();
  for (let k = 0; k < 10; k += 1) await page.keyboard.press("ArrowLeft");
  const { cfg, now } = await coreForFigure(page);
  assert.equal(cfg.alpha, 0.4);
  const after = await details.locator(".answer-body").textContent();
  assert.match(after, /With α = 0\.4 and γ = 3/);
  assert.equal(await details.locator(".answer-expected").textContent(), shown(now.expectedTokens, 4));
  assert.equal(await details.locator(".answer-ceiling").textContent(), shown(now.ceiling, 4));
  assert.deepEqual(errors, []);
  await page.close();
});

test("speculative: every declared attribute set on the live element redraws the figure with the core's numbers; bad values show a note", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#speculative-figure");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const expected = () => fig.locator(".speculative-headline-expected").textContent();
  const speedup = () => fig.locator(".speculative-headline-speedup").textContent();

  await setAttr("alpha", "0.8");
  let { cfg, now } = await coreForFigure(page);
  assert.deepEqual(cfg, { alpha: 0.8, gamma: 3, costRatio: 0.1 });
  assert.equal(await expected(), shown(now.expectedTokens, 4));
  assert.notEqual(await expected(), "1.875");
  assert.equal(await fig.getByLabel("Acceptance rate α").inputValue(), "0.8");

  await setAttr("gamma", "5");
  ({ cfg, now } = await coreForFigure(page));
  assert.equal(cfg.gamma, 5);
  assert.equal(await fig.locator(".speculative-bars li").count(), 6);
  assert.equal(await expected(), shown(now.expectedTokens, 4));
  assert.equal(await fig.getByLabel("Draft length γ").inputValue(), "5");

  const speedupBefore = await speedup();
  await setAttr("cost-ratio", "0.3");
  ({ cfg, now } = await coreForFigure(page));
  assert.deepEqual(cfg, { alpha: 0.8, gamma: 5, costRatio: 0.3 });
  assert.equal(await speedup(), `${shown(now.speedup, 3)}×`);
  assert.notEqual(await speedup(), speedupBefore);
  assert.match(
    await fig.locator(".worked").textContent(),
    new RegExp(`\\(5·0\\.3 \\+ 1\\) = ${shown(now.expectedTokens, 4).replace(".", "\\.")} / 2\\.5 = `),
  );
  assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")), [
    ["alpha", "0.8"],
    ["gamma", "5"],
    ["cost-ratio", "0.3"],
  ]);

  // Out of range: refused with a note that names the attribute; the figure keeps its numbers.
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), false);
  await setAttr("alpha", "1.5");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /alpha="[^"]*" ignored: expected a number from 0 to 1/);
  assert.equal(await expected(), shown(now.expectedTokens, 4));
  assert.equal(await fig.evaluate((el) => el.state.alpha), 0.8);
  await setAttr("gamma", "2.5");
  assert.match(await notes.textContent(), /gamma="[^"]*" ignored: expected a whole number from 0 to 20/);
  await setAttr("cost-ratio", "-1");
  assert.match(await notes.textContent(), /cost-ratio="[^"]*" ignored: expected a number from 0 to 1/);
  assert.equal(await fig.locator("svg.chart").count(), 1);
  assert.equal(await fig.locator("svg.chart").isVisible(), true);
  assert.equal(await fig.locator(".speculative-bars li").count(), 6);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The measuring panel: the log's counts by row class, and each estimate's [α, predicted tokens] by key. */
function panel(fig) {
  return fig.locator(".speculative-measure").evaluate((el) => ({
    counts: Object.fromEntries(
      [...el.querySelectorAll(".speculative-log td[class]")].map((td) => [td.className, td.textContent]),
    ),
    estimates: Object.fromEntries(
      [...el.querySelectorAll(".speculative-estimates tr[data-estimate]")].map((tr) => [
        tr.dataset.estimate,
        [
          tr.querySelector(".speculative-estimate").textContent,
          tr.querySelector(".speculative-predicted").textContent,
          tr.className,
        ],
      ]),
    ),
    text: el.textContent,
  }));
}

test("speculative: the measuring panel measures α back from the core's simulated log; accepted / proposed visibly does not", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the log's mean, not held back by its exercise
  const fig = page.locator("#speculative-figure");
  const core = (cfg) =>
    page.evaluate(async (cfg) => {
      const m = await createLLMMath();
      const log = m.speculativeMeasure(cfg);
      const predict = (a) => m.speculativeDecoding({ alpha: a, gamma: cfg.gamma }).expectedTokens;
      return {
        log,
        predicted: [log.acceptedPerProposed, log.acceptedPerChecked, log.alphaFromMeanTokens].map(predict),
      };
    }, cfg);

  // The figure starts at α = 0.5, γ = 3, with 10,000 logged calls from seed 1.
  assert.deepEqual(await fig.evaluate((el) => [el.state.rounds, el.state.seed]), [10000, 1]);
  const { log, predicted } = await core({ alpha: 0.5, gamma: 3, rounds: 10000, seed: 1 });
  let p = await panel(fig);
  assert.deepEqual(p.counts, {
    "speculative-proposed": "30,000",
    "speculative-checked": log.checked.toLocaleString("en"),
    "speculative-accepted": log.accepted.toLocaleString("en"),
    "speculative-mean": shown(log.meanTokens, 4),
  });
  assert.deepEqual(p.estimates.proposed, [
    shown(log.acceptedPerProposed, 4),
    shown(predicted[0], 4),
    "speculative-wrong",
  ]);
  assert.deepEqual(p.estimates.checked, [
    shown(log.acceptedPerChecked, 4),
    shown(predicted[1], 4),
    "speculative-right",
  ]);
  assert.deepEqual(p.estimates.mean, [shown(log.alphaFromMeanTokens, 4), shown(predicted[2], 4), "speculative-right"]);
  // What the issue computed in expectation: accepted / proposed → (α + α² + α³)/3 = 0.2917, which
  // fed back into the figure predicts ≈ 1.40 tokens per call instead of 1.875. Over 10^4 calls
  // the estimate's standard error is 0.0035, so ±0.02 (more than 5 of them) cannot flake.
  assert.ok(Math.abs(log.acceptedPerProposed - 0.2917) < 0.02, `accepted / proposed ${log.acceptedPerProposed}`);
  assert.ok(predicted[0] < 1.5, `tokens per call predicted from accepted / proposed: ${predicted[0]}`);
  // The two right estimates land within 0.02 of α (their standard errors are about 0.004), and so
  // predict close to 1.875.
  assert.ok(Math.abs(log.acceptedPerChecked - 0.5) < 0.02 && Math.abs(log.alphaFromMeanTokens - 0.5) < 0.02);
  assert.ok(Math.abs(predicted[1] - 1.875) < 0.06 && Math.abs(predicted[2] - 1.875) < 0.06);
  assert.match(p.text, /Wrong: it counts the drafts after a rejection, which were never checked, as rejected\./);
  assert.match(p.text, /A simulated log of 10,000 target calls at α = 0\.5, γ = 3 \(seed 1\)/);

  // A longer draft: accepted / proposed falls further, the right estimates stay near α.
  await fig.evaluate((el) => el.setAttribute("gamma", "8"));
  const longer = await core({ alpha: 0.5, gamma: 8, rounds: 10000, seed: 1 });
  p = await panel(fig);
  assert.equal(p.estimates.proposed[0], shown(longer.log.acceptedPerProposed, 4));
  assert.ok(longer.log.acceptedPerProposed < log.acceptedPerProposed - 0.1);
  assert.equal(p.estimates.checked[0], shown(longer.log.acceptedPerChecked, 4));

  // rounds and seed are declared settings: set live, the log is the core's for them, and the same
  // seed replays the same log.
  await fig.evaluate((el) => el.setAttribute("rounds", "500"));
  await fig.evaluate((el) => el.setAttribute("seed", "7"));
  const small = await core({ alpha: 0.5, gamma: 8, rounds: 500, seed: 7 });
  p = await panel(fig);
  assert.equal(p.counts["speculative-checked"], small.log.checked.toLocaleString("en"));
  assert.equal(await fig.getByLabel("Target calls logged").inputValue(), "500");
  assert.equal(await fig.getByLabel("Seed").inputValue(), "7");
  await fig.getByLabel("Seed").fill("8");
  assert.notDeepEqual((await panel(fig)).counts, p.counts);
  await fig.getByLabel("Seed").fill("7");
  assert.deepEqual((await panel(fig)).counts, p.counts);
  assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")), [
    ["gamma", "8"],
    ["rounds", "500"],
    ["seed", "7"],
  ]);
  await fig.evaluate((el) => el.setAttribute("rounds", "200000"));
  assert.match(
    await fig.locator(".llm-notes").textContent(),
    /rounds="200000" ignored: expected a whole number from 1 to 100000/,
  );

  // Without drafts there is nothing to measure, and the panel says so.
  await fig.evaluate((el) => el.setAttribute("gamma", "0"));
  assert.match((await panel(fig)).text, /With γ = 0 no draft is proposed/);
  await fig.locator(".speculative-measure").screenshot({ path: artifact("speculative-measure.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
