// Section 6 (alibi) in headless Chromium: slopes, bias map, weight curve and half-distance follow
// the inputs with the core's numbers, and exercise 6's answer follows the selected head.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, openFigure, artifact, shown, num, showNumbers } = require("./browser.js");

const browser = useBrowser(test);

/** The figure's current inputs, and the core's slopes and results for them, from the page. */
function coreForFigure(page) {
  return page.evaluate(async () => {
    const { heads, head, tokens, distance } = document.getElementById("alibi-figure").state;
    const m = await createLLMMath();
    const slopes = m.alibiSlopes(heads);
    const slope = slopes[head - 1];
    return {
      heads,
      head,
      tokens,
      distance,
      slopes,
      slope,
      map: m.alibi({ slope, tokens }),
      far: m.alibi({ slope, tokens: distance + 1 }).relativeWeight[distance],
      halved: m.alibi({ slope: slope / 2 }).halfDistance,
    };
  });
}

test("alibi: the figure starts at head 3 of 8 and shows the core's slopes, bias and half-distance", async () => {
  const { page, errors } = await openFigure(browser.context, "alibi");
  const fig = page.locator("#alibi-figure");
  const core = await coreForFigure(page);
  assert.equal(core.slope, 0.125);
  assert.equal(await fig.locator("rect.bar").count(), 8);
  assert.equal(await fig.locator("rect.selected").count(), 1);
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), core.slope);
  assert.equal(await fig.locator(".alibi-half").textContent(), shown(core.map.halfDistance, 3));
  // The bias map: every visible cell is the core's bias (3 decimals), every masked one is empty.
  const cells = await fig
    .locator(".alibi-table tbody tr")
    .evaluateAll((rows) =>
      rows.map((r) =>
        [...r.querySelectorAll("td")].map((td) => (td.classList.contains("masked") ? null : td.textContent)),
      ),
    );
  assert.equal(cells.length, 8);
  cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      if (core.map.bias[i][j] === null) assert.equal(cell, null, `masked ${i},${j}`);
      else
        assert.ok(
          Math.abs(num(cell) - core.map.bias[i][j]) <= 5e-4,
          `bias ${i},${j}: ${cell} vs ${core.map.bias[i][j]}`,
        );
    }),
  );
  assert.ok(Math.abs(num(await fig.locator(".alibi-factor").textContent()) - core.far) <= 5e-7);
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /0\.693147 \/ 0\.125 = 5\.545177/);
  assert.match(worked, /0\.693147 \/ 0\.0625 = 11\.090355/);
  assert.equal(await fig.locator("svg.chart polyline").count(), 1);
  assert.match(await fig.locator("svg.chart").last().textContent(), /ln 2 \/ m = 5\.55/);
  await fig.screenshot({ path: artifact("alibi-default.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: picking another head, another head count or another distance changes the numbers to the core's", async () => {
  const { page, errors } = await openFigure(browser.context, "alibi");
  const fig = page.locator("#alibi-figure");
  const headline = () => fig.locator(".headline").textContent();
  const before = await headline();
  await fig.getByLabel("Head k").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await headline(), before);
  let core = await coreForFigure(page);
  assert.equal(core.slope, 0.0625);
  assert.equal(await fig.locator(".alibi-half").textContent(), shown(core.map.halfDistance, 3));
  assert.equal(
    await fig.locator(".alibi-table tbody tr").nth(7).locator("td").first().textContent(),
    shown(core.map.bias[7][0], 3),
  );

  // A head count that is not a power of two: the reference code's interleaved slopes.
  await fig.getByLabel("Heads h").fill("12");
  assert.equal(await fig.locator("rect.bar").count(), 12);
  await fig.locator("rect.bar").nth(9).click();
  core = await coreForFigure(page);
  assert.equal(core.head, 10);
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), Number(core.slope.toFixed(6)));
  assert.match(await fig.locator(".worked").textContent(), /every other slope of 16 heads/);

  // The evidence distance moves the marker and the factor, not the slope.
  const slope = await fig.locator(".alibi-slope").textContent();
  await fig.getByLabel("Evidence distance δ").fill("200");
  core = await coreForFigure(page);
  assert.equal(await fig.locator(".alibi-slope").textContent(), slope);
  assert.ok(Math.abs(num(await fig.locator(".alibi-factor").textContent()) - core.far) <= 5e-7);
  assert.match(await fig.locator(".alibi-evidence").textContent(), /Evidence 200 tokens/);

  await fig.getByLabel("Tokens in the bias map").fill("4");
  assert.equal(await fig.locator(".alibi-table tbody tr").count(), 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: exercise 6's answer gives about 5.5 tokens and doubles when the slope halves, then follows the head", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#alibi .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  assert.equal(await details.locator(".answer-about").textContent(), "5.5 tokens");
  const answer = await details.textContent();
  assert.match(answer, /ln 2 \/ 0\.125 ≈ 0\.693 \/ 0\.125 ≈ 5\.545 tokens, about 5\.5 tokens/);
  assert.match(answer, /0\.0625 = 11\.09 tokens/);
  assert.match(answer, /each factor-of-two drop in slope doubles the half-distance/);
  await details.screenshot({ path: artifact("exercise-6.png") });

  await page.locator("#alibi-figure").getByLabel("Head k").fill("4");
  const core = await coreForFigure(page);
  assert.equal(await details.locator(".answer-half").textContent(), shown(core.map.halfDistance, 3));
  assert.equal(await details.locator(".answer-about").textContent(), `${shown(core.map.halfDistance, 1)} tokens`);
  assert.equal(await details.locator(".answer-halved").textContent(), shown(core.halved, 3));
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: the figure fits a phone-width screen and renders in dark mode without errors", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844, colorScheme: "dark" });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.locator("#alibi-figure").getByLabel("Heads h").fill("64");
  assert.equal(await page.locator("#alibi-figure rect.bar").count(), 64);
  await page.locator("#alibi .figure").screenshot({ path: artifact("alibi-390-dark.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: every declared attribute set on the live element redraws the figure with the core's numbers; bad values show a note", async () => {
  const { page, errors } = await openFigure(browser.context, "alibi");
  const fig = page.locator("#alibi-figure");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);

  await setAttr("heads", "16");
  let core = await coreForFigure(page);
  assert.equal(core.heads, 16);
  assert.equal(await fig.locator("rect.bar").count(), 16);
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), Number(core.slope.toFixed(6)));

  const halfBefore = await fig.locator(".alibi-half").textContent();
  await setAttr("head", "12");
  core = await coreForFigure(page);
  assert.equal(core.head, 12);
  assert.equal(await fig.getByLabel("Head k").inputValue(), "12");
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), Number(core.slope.toFixed(6)));
  assert.equal(await fig.locator(".alibi-half").textContent(), shown(core.map.halfDistance, 3));
  assert.notEqual(await fig.locator(".alibi-half").textContent(), halfBefore);
  assert.equal(await fig.locator("rect.selected").count(), 1);

  await setAttr("tokens", "5");
  core = await coreForFigure(page);
  assert.equal(await fig.locator(".alibi-table tbody tr").count(), 5);
  assert.equal(
    await fig.locator(".alibi-table tbody tr").nth(4).locator("td").first().textContent(),
    shown(core.map.bias[4][0], 3),
  );

  await setAttr("distance", "100");
  core = await coreForFigure(page);
  assert.ok(Math.abs(num(await fig.locator(".alibi-factor").textContent()) - core.far) <= 5e-7);
  assert.match(await fig.locator(".alibi-evidence").textContent(), /Evidence 100 tokens/);
  assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")), [
    ["heads", "16"],
    ["head", "12"],
    ["tokens", "5"],
    ["distance", "100"],
  ]);

  // Fewer heads than the selected head: the head follows, and its slider ends at the head count.
  await setAttr("heads", "4");
  core = await coreForFigure(page);
  assert.equal(core.head, 4);
  assert.equal(await fig.locator("rect.bar").count(), 4);
  assert.equal(await fig.getByLabel("Head k").getAttribute("max"), "4");
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), Number(core.slope.toFixed(6)));

  // The clamp is said in a note.
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /head=12 is more than heads=4; head 4 is shown/);

  // Out of range: refused with a note that names the attribute; the figure keeps its numbers.
  const slope = await fig.locator(".alibi-slope").textContent();
  await setAttr("distance", "9999");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /distance="[^"]*" ignored: expected a whole number from 0 to 512/);
  await setAttr("heads", "0");
  assert.match(await notes.textContent(), /heads="[^"]*" ignored: expected a whole number from 1 to 128/);
  assert.equal(await fig.locator(".alibi-slope").textContent(), slope);
  assert.equal(await fig.locator("rect.bar").count(), 4);
  assert.equal(await fig.locator("svg.chart polyline").isVisible(), true);
  assert.match(await fig.locator(".alibi-evidence").textContent(), /Evidence 100 tokens/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: a head beyond the head count from the page's link is clamped with a note, and the figure still shows", async () => {
  const { page, errors } = await openReader(browser.context, { hash: "#alibi?alibi.head=20" });
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#alibi-figure");
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), true);
  assert.match(await notes.textContent(), /head=20 is more than heads=8/);
  const core = await coreForFigure(page);
  assert.equal(core.head, 8);
  assert.equal(await fig.getByLabel("Head k").inputValue(), "8");
  assert.equal(num(await fig.locator(".alibi-slope").textContent()), Number(core.slope.toFixed(6)));
  assert.equal(await fig.locator(".alibi-half").textContent(), shown(core.map.halfDistance, 3));
  assert.equal(await fig.locator("rect.bar").count(), 8);
  assert.equal(await fig.locator("svg.chart polyline").isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test("alibi: an input redraws only the panels it changes: the distance leaves bars and bias table untouched, a head writes new numbers into the same cells", async () => {
  const { page, errors } = await openFigure(browser.context, "alibi");
  const fig = page.locator("#alibi-figure");
  // Mutations under each panel while one slider moves (keep() in dom.js decides what is drawn).
  const moved = (label, value) =>
    page.evaluate(
      ({ label, value }) => {
        const root = document.getElementById("alibi-figure").shadowRoot;
        const panels = {
          bars: root.querySelector(".alibi-bars"),
          map: root.querySelector(".alibi-map"),
          chart: root.querySelector(".alibi-panels > .chart-box"),
        };
        const counts = {};
        const observers = Object.entries(panels).map(([k, el]) => {
          const o = new MutationObserver(() => {});
          o.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
          return [k, o];
        });
        const cells = [...root.querySelectorAll(".alibi-table td.heat")];
        const input = [...root.querySelectorAll(".slider")]
          .find((row) => row.querySelector("label").textContent.includes(label))
          .querySelector("input");
        input.value = String(value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        for (const [k, o] of observers) {
          counts[k] = o.takeRecords().length;
          o.disconnect();
        }
        const after = [...root.querySelectorAll(".alibi-table td.heat")];
        return { counts, sameCells: after.length === cells.length && after.every((td, i) => td === cells[i]) };
      },
      { label, value },
    );

  const distance = await moved("Evidence distance", 41);
  assert.equal(distance.counts.bars, 0, "the bars do not depend on the distance");
  assert.equal(distance.counts.map, 0, "nor does the bias table");
  assert.ok(distance.counts.chart > 0, "the chart's marker moves");

  const head = await moved("Head k", 4);
  assert.equal(head.sameCells, true, "the table keeps its cells when only its numbers change");
  assert.ok(head.counts.map > 0 && head.counts.bars > 0, "a new head's numbers and selected bar are shown");
  const core = await coreForFigure(page);
  assert.equal(core.head, 4);
  const cells = await fig
    .locator(".alibi-table tbody tr")
    .evaluateAll((rows) =>
      rows.map((r) =>
        [...r.querySelectorAll("td")].map((td) => (td.classList.contains("masked") ? null : td.textContent)),
      ),
    );
  cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      if (core.map.bias[i][j] !== null) assert.equal(cell, shown(core.map.bias[i][j], 3), `bias ${i},${j}`);
    }),
  );
  assert.equal(await fig.locator("rect.selected").count(), 1);
  // The mark is drawn over head 4's bar, at its place and size.
  for (const attr of ["x", "y", "width", "height"])
    assert.equal(
      await fig.locator("rect.selected").getAttribute(attr),
      await fig.locator("rect.bar").nth(3).getAttribute(attr),
      attr,
    );
  assert.deepEqual(errors, []);
  await page.close();
});
