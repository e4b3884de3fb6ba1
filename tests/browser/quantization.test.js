// Section 7 in headless Chromium: the quantisation figure follows its inputs with the core's
// numbers, and exercise 7's answer is the core's.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers, openFigure, artifact, num, shown } = require("./browser.js");

const browser = useBrowser(test);

/** A displayed number as a JavaScript number ("−0.5" → -0.5, "±43" → 43). */

/** The per-channel table of the figure: { label: [cells…] } keyed by the row class. */
async function channelRows(fig) {
  return fig
    .locator(".quantization-channels tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)));
}

/** What the core says for the figure's current inputs: smoothing, quantisation and levels. */
async function fromCore(page) {
  return page.evaluate(async () => {
    const el = document.getElementById("quantization-figure");
    const m = await createLLMMath();
    const { x: X, w: W, bits, alpha } = el.state;
    const xAbsMax = X[0].map((_, j) => Math.max(...X.map((row) => Math.abs(row[j]))));
    const wAbsMax = W.map((row) => Math.max(...row.map(Math.abs)));
    const sq = m.smoothQuant(xAbsMax, wAbsMax, alpha);
    return { xAbsMax, wAbsMax, sq, quantX: m.quantize(X.flat(), { bits }), alpha, bits };
  });
}

const close = (shown, expected, tol, what) =>
  assert.ok(Math.abs(num(shown) - expected) <= tol, `${what}: shown ${shown}, core ${expected}`);

test("quantization: the figure's ranges and smoothing factors are the core's, and follow α", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  let core = await fromCore(page);
  let rows = await channelRows(fig);
  // Rows: max|X_j|, max|W_j|, s_j, max|X_j|/s_j, max|W_j|·s_j; 4 decimals shown (tolerance 5e-5).
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1}`));
  core.sq.xAbsMax.forEach((x, j) => close(rows[3][j], x, 5e-5, `smoothed max|X_${j + 1}|`));
  core.sq.wAbsMax.forEach((w, j) => close(rows[4][j], w, 5e-5, `smoothed max|W_${j + 1}|`));
  assert.deepEqual(rows[2].map(num).slice(1, 2), [4], "the largest channel's s at α = 0.5");

  const alpha = fig.getByLabel("Migration strength α");
  await alpha.focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await fig.locator(".slider output").nth(1).textContent(), "0.55");
  core = await fromCore(page);
  assert.equal(core.alpha, 0.55);
  const moved = await channelRows(fig);
  assert.notDeepEqual(moved[2], rows[2]);
  core.sq.scales.forEach((s, j) => close(moved[2][j], s, 5e-5, `s_${j + 1} at α = 0.55`));
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: fewer bits coarsen the levels, as the core quantizes them", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  const levelsShown = () => fig.locator(".quantization-level-table").first().locator("tbody td").allTextContents();
  const before = await levelsShown();
  let core = await fromCore(page);
  assert.deepEqual(before.map(num), core.quantX.levels);

  const bits = fig.getByLabel("Bits b");
  await bits.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  core = await fromCore(page);
  assert.equal(core.bits, 4);
  const after = await levelsShown();
  assert.deepEqual(after.map(num), core.quantX.levels);
  assert.notDeepEqual(after, before);
  assert.match(await fig.locator(".headline").textContent(), /levels run from −7 to 7/);
  // The scale Δ in the caption is the core's scale (4 decimals).
  const caption = await fig.locator(".quantization-level-table caption").first().textContent();
  assert.match(caption, /^X as it is: scale Δ /);
  close(caption.split("scale Δ ")[1], core.quantX.scale, 5e-5, "scale Δ");
  await page.screenshot({ path: artifact("quantization-4-bits.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: editing X changes the figure and the output check; a bad cell names the parameter", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  const errorQuantized = () => fig.locator(".error-quantized").textContent();
  const good = await errorQuantized();
  const rows = await channelRows(fig);
  // The channel list marks the channel with the largest activation range, as the core has it.
  const marked = () =>
    fig
      .locator('select[id$="-channel"] option')
      .evaluateAll((os) =>
        os.filter((o) => /\(largest activation range\)$/.test(o.textContent)).map((o) => Number(o.value)),
      );
  const largest = (xAbsMax) => xAbsMax.indexOf(Math.max(...xAbsMax));
  const before = largest((await fromCore(page)).xAbsMax);
  assert.deepEqual(await marked(), [before]);

  await fig.getByLabel("X t1, ch 2").fill("-20");
  const core = await fromCore(page);
  assert.equal(core.xAbsMax[1], 20);
  assert.deepEqual(await marked(), [largest(core.xAbsMax)]);
  const edited = await channelRows(fig);
  close(edited[0][1], 20, 0, "max|X_2|");
  close(edited[2][1], core.sq.scales[1], 5e-5, "s_2");
  assert.notDeepEqual(edited[2], rows[2]);
  assert.notEqual(await errorQuantized(), good);
  assert.equal(await fig.locator("select").first().inputValue(), "");

  const changed = await errorQuantized();
  await fig.getByLabel("X t1, ch 2").fill("");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(await fig.locator(".llm-status").textContent(), /x\[0\]\[1\] must be a finite number, got NaN/);
  assert.equal(await errorQuantized(), changed, "the last good figure stays");
  await fig.getByLabel("X t1, ch 2").fill("-8");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.equal(await errorQuantized(), good);

  // An edit that makes another channel the largest moves the mark with it.
  await fig.getByLabel("X t1, ch 3").fill("-50");
  const now = largest((await fromCore(page)).xAbsMax);
  assert.equal(now, 2);
  assert.notEqual(now, before);
  assert.deepEqual(await marked(), [now]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: exercise 7's answer is s = √8/√0.5 = 4, ranges 8/4 = 2 and 0.5·4 = 2, and follows α", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#quantization .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = details.locator(".answer-body");
  const text = await answer.textContent();
  assert.match(text, /s = √8\/√0\.5 = 8 to the power 0\.5 \/ 0\.5 to the power 1 − 0\.5 = 4\b/);
  assert.match(text, /8\/4 = 2\b/);
  assert.match(text, /0\.5·4 = 2\b/);
  await details.screenshot({ path: artifact("exercise-7.png") });

  const fig = page.locator("#quantization-figure");
  await fig.getByLabel("Migration strength α").fill("0.75");
  const expected = await page.evaluate(async () => (await createLLMMath()).smoothQuant([8], [0.5], 0.75));
  const moved = await answer.textContent();
  assert.notEqual(moved, text);
  close(await answer.locator(".answer-s strong").textContent(), expected.scales[0], 5e-5, "s at α = 0.75");
  close(
    await answer.locator(".answer-x strong").textContent(),
    expected.xAbsMax[0],
    5e-5,
    "activation range at α = 0.75",
  );
  close(await answer.locator(".answer-w strong").textContent(), expected.wAbsMax[0], 5e-5, "weight range at α = 0.75");
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: the presets change the largest channel's range, and the worked calculation uses the figure's numbers", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  await fig.locator("select").first().selectOption("strong");
  const core = await fromCore(page);
  assert.equal(core.xAbsMax[1], 64);
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /max\|X2\| = 64/);
  const s = core.sq.scales[1];
  assert.ok(worked.includes(`= ${Number(s.toFixed(4))}.`), `worked s_2 = ${s}`);
  await fig.locator("select").nth(1).selectOption("2");
  assert.match(await fig.locator(".worked").textContent(), /^Channel 3/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Sets attributes on the live figure, in order. */
async function setAttrs(page, attrs) {
  await page.evaluate((pairs) => {
    const el = document.getElementById("quantization-figure");
    for (const [name, value] of pairs) el.setAttribute(name, value);
  }, Object.entries(attrs));
}

test("quantization: every declared attribute, set on the live element, redraws the figure with the core's numbers", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");

  await setAttrs(page, { preset: "strong" });
  let core = await fromCore(page);
  let rows = await channelRows(fig);
  assert.equal(num(rows[0][1]), 64, "max|X_2| of the strong preset");
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1} (strong)`));

  await setAttrs(page, { bits: "4" });
  core = await fromCore(page);
  assert.equal(core.bits, 4);
  assert.match(await fig.locator(".headline").textContent(), /levels run from −7 to 7/);
  assert.deepEqual(
    (await fig.locator(".quantization-level-table").first().locator("tbody td").allTextContents()).map(num),
    core.quantX.levels,
  );

  await setAttrs(page, { alpha: "0.3" });
  core = await fromCore(page);
  assert.equal(core.alpha, 0.3);
  assert.equal(await fig.locator(".slider output").nth(1).textContent(), "0.3");
  rows = await channelRows(fig);
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1} at α = 0.3`));

  // X with three channels: W keeps its first three rows until it is given too.
  await setAttrs(page, { x: "1,-2,0.5;3,0.25,-1;-0.5,1,2" });
  core = await fromCore(page);
  rows = await channelRows(fig);
  assert.deepEqual(rows[0].map(num), [3, 2, 2]);
  assert.deepEqual(core.xAbsMax, [3, 2, 2]);
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1} of the new X`));
  assert.equal(await fig.getByLabel("X t3, ch 3").inputValue(), "2");

  await setAttrs(page, { w: "0.5,-0.25;1,0.1;-0.2,0.3" });
  core = await fromCore(page);
  rows = await channelRows(fig);
  assert.deepEqual(rows[1].map(num), [0.5, 1, 0.3]);
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1} of the new W`));
  assert.equal(await fig.locator(".quantization-outputs .y tbody tr").first().locator("td").count(), 2, "two outputs");

  await setAttrs(page, { channel: "3" });
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /^Channel 3, α = 0\.3, 4 bits \(3 channels, 2 outputs\)/);
  assert.ok(worked.includes(`= ${Number(core.sq.scales[2].toFixed(4))}.`), `worked s_3 = ${core.sq.scales[2]}`);
  assert.equal(await fig.locator("select").nth(1).inputValue(), "2");

  // The settings reproduce all of it, and nothing was reported.
  const settings = await page.evaluate(() =>
    Object.fromEntries(document.getElementById("quantization-figure").settings("defaults")),
  );
  assert.deepEqual(settings, {
    preset: "strong",
    bits: "4",
    alpha: "0.3",
    channel: "3",
    x: "1,-2,0.5;3,0.25,-1;-0.5,1,2",
    w: "0.5,-0.25;1,0.1;-0.2,0.3",
  });
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: an unknown preset or an out-of-range number shows a note naming it, and the figure stays", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  const notes = fig.locator(".llm-notes");

  await setAttrs(page, { preset: "constructor" });
  assert.ok(await notes.isVisible());
  assert.match(await notes.textContent(), /preset="constructor" ignored: expected one of outlier, strong, none/);
  let core = await fromCore(page);
  let rows = await channelRows(fig);
  assert.equal(num(rows[0][1]), 8, "the default example is drawn");
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1}`));

  await setAttrs(page, { bits: "99" });
  assert.ok(await notes.isVisible());
  assert.match(await notes.textContent(), /bits="99" ignored: expected a whole number from 2 to 16/);
  core = await fromCore(page);
  assert.equal(core.bits, 8);
  assert.match(await fig.locator(".headline").textContent(), /levels run from −127 to 127/);

  await setAttrs(page, { alpha: "1.5" });
  assert.match(await notes.textContent(), /alpha="1\.5" ignored: expected a number from 0 to 1/);
  rows = await channelRows(fig);
  core.sq.scales.forEach((s, j) => close(rows[2][j], s, 5e-5, `s_${j + 1} at α = 0.5`));

  // Within the declared range but past the channels of X: the last channel is explained.
  await setAttrs(page, { channel: "7" });
  assert.match(await notes.textContent(), /channel lowered to 4, the number of channels of X/);
  assert.match(await fig.locator(".worked").textContent(), /^Channel 4, α = 0\.5, 8 bits/);
  assert.ok(await fig.locator(".quantization-channels").isVisible());
  assert.ok(await fig.locator(".chart-box svg").first().isVisible());
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: an all-zero weight channel is smoothed with the reference code's clamp, and §7 says so", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#quantization-figure");
  // Channel 1 of W is all zero: the core used to refuse it; now its max|W| and factor are 1e-5 at least.
  await page.evaluate(() => {
    const el = document.getElementById("quantization-figure");
    el.setAttribute("x", "1,8;2,-4");
    el.setAttribute("w", "0,0;0.5,0.25");
  });
  assert.equal(await fig.locator(".llm-status").textContent(), "", "no error: the figure drew");
  const expected = await page.evaluate(async () => (await createLLMMath()).smoothQuant([2, 8], [0, 0.5], 0.5).scales);
  // s_1 = sqrt(2) / sqrt(1e-5), from the clamped maximum (within the 4 decimals shown).
  assert.ok(Math.abs(expected[0] - Math.sqrt(2) / Math.sqrt(1e-5)) < 1e-9);
  assert.match(
    await fig.locator(".quantization-table").textContent(),
    new RegExp(expected[0].toFixed(2).replace(".", "\\.")),
  );
  assert.match(await page.locator("#quantization").textContent(), /at least\s*10\s*−\s*5|at least 10−5/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("quantization: an edit writes the core's numbers into the cells of the levels and output tables it has, and a new shape builds them anew", async () => {
  const { page, errors } = await openFigure(browser.context, "quantization");
  const fig = page.locator("#quantization-figure");
  const cells = () =>
    fig.evaluate((el) => {
      const read = (sel) =>
        [...el.shadowRoot.querySelectorAll(`${sel} tbody tr`)].map((tr) =>
          [...tr.querySelectorAll("td")].map((td) => td.textContent),
        );
      return {
        levels: [...el.shadowRoot.querySelectorAll(".quantization-level-table")].map((t) =>
          [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
        ),
        y: read("table.y"),
        yQuantized: read("table.y-quantized"),
      };
    });
  const core = () =>
    page.evaluate(async () => {
      const { x, w, bits, alpha } = document.getElementById("quantization-figure").state;
      const L = (await createLLMMath()).smoothQuantLayer(x, w, { alpha, bits });
      return { y: L.y, yQuantized: L.yQuantized, levels: L.quantX.levels, cols: x[0].length };
    });
  const mark = () =>
    fig.evaluate(
      (el) =>
        el.shadowRoot.querySelectorAll(".quantization-level-table td, table.y td").forEach((td) => (td.kept = true)), // a property, not an attribute: patch() writes attributes
    );
  const kept = () =>
    fig.evaluate((el) =>
      [...el.shadowRoot.querySelectorAll(".quantization-level-table td, table.y td")].every((td) => td.kept === true),
    );
  const agrees = async () => {
    const [seen, c] = [await cells(), await core()];
    assert.deepEqual(
      seen.y,
      c.y.map((row) => row.map((v) => shown(v, 3))),
    );
    assert.deepEqual(
      seen.yQuantized,
      c.yQuantized.map((row) => row.map((v) => shown(v, 3))),
    );
    assert.deepEqual(
      seen.levels[0],
      Array.from({ length: c.levels.length / c.cols }, (_, i) =>
        c.levels.slice(i * c.cols, (i + 1) * c.cols).map((l) => shownLevel(l)),
      ),
    );
  };
  await agrees();
  await mark();
  await fig.getByLabel("X t1, ch 2").fill("-20");
  await agrees();
  assert.equal(await kept(), true, "the same cells, new numbers");
  // Another preset may change the shape: the tables follow it, still the core's numbers.
  await fig.locator("select").first().selectOption({ index: 1 });
  await agrees();
  assert.deepEqual(errors, []);
  await page.close();
});

/** A level as the figure writes it: a whole number, − for minus. */
const shownLevel = (l) => String(l).replace("-", "−");
