// Section 3 (rope) in headless Chromium: the figure follows its inputs with the core's numbers,
// moving both positions keeps the score, and exercise 3's answer follows the figure.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers, openFigure, artifact, shown } = require("./browser.js");

const browser = useBrowser(test);

/** The core's rope() for the figure's current inputs, called in the page. */
function coreForFigure(page) {
  return page.evaluate(async () => {
    const s = document.getElementById("rope-figure").state;
    const opts = s.useFreqs ? { pairing: s.pairing, freqs: s.freqs } : { pairing: s.pairing, base: s.base };
    return (await createLLMMath()).rope(s.q, s.k, s.m, s.n, opts);
  });
}

test("rope: the figure starts at the exercise and shows the core's scores, per-pair parts and angles", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#rope-figure");
  const core = await coreForFigure(page);
  assert.equal(core.raw.toFixed(10), "1.9997999867");
  // 10 decimals, as the chapter gives them
  assert.equal(await fig.locator(".headline .rope-scaled").textContent(), core.scaled.toFixed(10));
  assert.equal(await fig.locator(".headline .rope-raw").textContent(), core.raw.toFixed(10));
  assert.equal(await fig.locator(".rope-dial").count(), 2);
  const worked = await fig.locator(".worked").textContent();
  for (const p of core.pairScores) assert.ok(worked.includes(shown(p, 10)), `pair part ${p}`);
  assert.match(worked, /2 × 0\.01 = 0\.02 rad/);
  // The chart's curve is the core's scaled score at every offset.
  const checks = await page.evaluate(async () => {
    const el = document.getElementById("rope-figure");
    const m = await createLLMMath();
    const s = el.state;
    return el.result.curve
      .filter((_, i) => i % 64 === 0)
      .map(([o, y]) => [y, m.rope(s.q, s.k, o, 0, { freqs: s.freqs }).scaled]);
  });
  assert.ok(checks.length >= 8);
  for (const [shown, expected] of checks) assert.equal(shown, expected);
  assert.equal(await fig.locator("svg.chart polyline").count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: changing the query position changes the angles and the score, to the core's values", async () => {
  const { page, errors } = await openFigure(browser.context, "rope");
  const fig = page.locator("#rope-figure");
  const before = await fig.locator(".headline").textContent();
  const dialsBefore = await fig.locator(".rope-dials").textContent();
  await fig.getByLabel("Query position m", { exact: true }).focus();
  for (let i = 0; i < 28; i += 1) await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.getElementById("rope-figure").state.m), 30);
  assert.notEqual(await fig.locator(".headline").textContent(), before);
  assert.notEqual(await fig.locator(".rope-dials").textContent(), dialsBefore);
  const core = await coreForFigure(page);
  assert.equal(await fig.locator(".headline .rope-scaled").textContent(), shown(core.scaled, 10));
  assert.match(await fig.locator(".rope-dials").textContent(), /q: 0\.3 rad/);
  // The number field takes positions beyond the slider.
  await fig.getByLabel("Key position n, exact").fill("5000");
  const far = await coreForFigure(page);
  assert.equal(far.raw, await page.evaluate(() => document.getElementById("rope-figure").result.now.raw));
  assert.equal(await fig.locator(".headline .rope-raw").textContent(), shown(far.raw, 10));
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: 'move both' turns every pair but leaves the score unchanged", async () => {
  const { page, errors } = await openFigure(browser.context, "rope");
  const fig = page.locator("#rope-figure");
  await fig.getByLabel("Example").selectOption("roformer");
  const score = await fig.locator(".headline .rope-scaled").textContent();
  const dials = await fig.locator(".rope-dials").textContent();
  await fig.getByRole("button", { name: "+1,000" }).click();
  assert.equal(await fig.locator(".headline .rope-scaled").textContent(), score);
  assert.notEqual(await fig.locator(".rope-dials").textContent(), dials);
  const readout = await fig.locator(".rope-moved").textContent();
  assert.match(readout, /\(5, 2\) → \(1005, 1002\)/);
  assert.match(readout, /unchanged to 10 decimals/);
  assert.equal(await fig.locator(".rope-before").textContent(), await fig.locator(".rope-after").textContent());
  const core = await coreForFigure(page);
  assert.deepEqual(await page.evaluate(() => document.getElementById("rope-figure").state.m), 1005);
  assert.equal(await fig.locator(".headline .rope-raw").textContent(), shown(core.raw, 10));
  await fig.screenshot({ path: artifact("rope-moved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: base, dimension and pairing change the frequencies and the score", async () => {
  const { page, errors } = await openFigure(browser.context, "rope");
  const fig = page.locator("#rope-figure");
  await fig.getByLabel("Example").selectOption("mixed");
  const thetas = () => page.evaluate(() => document.getElementById("rope-figure").result.now.thetas);
  assert.deepEqual(await thetas(), [1, 0.1, 0.01, 0.001]);
  await fig.getByLabel("Base", { exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await fig.locator(".slider output").nth(1).textContent(), "100,000");
  const t = await thetas();
  assert.equal(t[0], 1);
  assert.ok(t[3] < 0.001);
  await fig.getByLabel("Dimension d").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await fig.locator(".rope-dial").count(), 5);
  const before = await fig.locator(".headline .rope-raw").textContent();
  await fig.getByLabel("Pairs").selectOption("half");
  assert.notEqual(await fig.locator(".headline .rope-raw").textContent(), before);
  const core = await coreForFigure(page);
  assert.equal(await fig.locator(".headline .rope-raw").textContent(), shown(core.raw, 10));
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: bad input names the parameter and keeps the last good figure", async () => {
  const { page } = await openFigure(browser.context, "rope");
  const fig = page.locator("#rope-figure");
  const good = await fig.locator(".headline").textContent();
  await fig.getByLabel("q coordinate 1").fill("");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(await fig.locator(".llm-status").textContent(), /q\[1\]/);
  assert.equal(await fig.locator(".headline").textContent(), good);
  await fig.getByLabel("q coordinate 1").fill("0");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  await page.close();
});

test("rope: exercise 3's answer gives cos(0.02) + cos(0.0002) ≈ 1.9997999867 and 0.9998999933, then follows the figure", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#rope .exercise details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = await details.textContent();
  assert.match(answer, /cos\(0\.02\) \+ cos\(0\.0002\)/);
  assert.match(answer, /1\.9997999867/);
  assert.match(answer, /Divided by √4: 0\.9998999933/);
  await details.screenshot({ path: artifact("exercise-3.png") });

  await page.locator("#rope-figure").getByLabel("Query position m, exact").fill("3");
  const core = await coreForFigure(page);
  assert.equal(core.angles[0][0], 0.03);
  const changed = await details.textContent();
  assert.match(changed, /cos\(0\.03\) \+ cos\(0\.0003\)/);
  assert.equal(await details.locator(".answer-raw").textContent(), shown(core.raw, 10));
  assert.equal(await details.locator(".answer-scaled").textContent(), shown(core.scaled, 10));
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: the figure fits a phone-width screen and renders in dark mode without errors", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844, colorScheme: "dark" });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.locator("#rope-figure").getByLabel("Example").selectOption("hf_llama3");
  assert.equal(await page.locator("#rope-figure .rope-dial").count(), 8);
  await page.locator("#rope .figure").screenshot({ path: artifact("rope-390-dark.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: every declared attribute, set on the live element, redraws the figure with the core's numbers; bad values show a note", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#rope-figure");
  const raw = () => fig.locator(".headline .rope-raw").textContent();
  const setAttr = (name, value) =>
    page.evaluate(([n, v]) => document.getElementById("rope-figure").setAttribute(n, v), [name, value]);
  const state = () => page.evaluate(() => document.getElementById("rope-figure").state);
  /** Sets one attribute and checks the headline's raw score changed to the core's for the new state. */
  async function setAndCheck(name, value, check) {
    const before = await raw();
    await setAttr(name, value);
    const core = await coreForFigure(page);
    const after = await raw();
    assert.equal(after, shown(core.raw, 10), `${name}: the headline shows the core's raw score`);
    if (check) await check(core);
    else assert.notEqual(after, before, `${name}="${value}" changed the score`);
  }

  // The preset first: a new preset starts again from the element's attributes.
  await setAndCheck("preset", "mixed", async () => {
    assert.equal(await fig.locator(".rope-dial").count(), 4);
    assert.equal(await fig.getByLabel("Example").inputValue(), "mixed");
  });
  await setAndCheck("m", "20");
  assert.match(await fig.locator(".headline").textContent(), /at m = 20, n = 3/);
  await setAndCheck("n", "5");
  assert.equal(await fig.getByLabel("Key position n, exact").inputValue(), "5");
  await setAndCheck("d", "6", async () => {
    assert.equal(await fig.locator(".rope-dial").count(), 3);
    assert.equal(await fig.locator(".slider output").first().textContent(), "6");
  });
  await setAndCheck("base", "1000", async (core) => {
    assert.equal(await fig.locator(".slider output").nth(1).textContent(), "1,000");
    assert.match(await fig.locator(".rope-dials").textContent(), new RegExp(`= ${shown(core.thetas[1], 6)}`));
  });
  await setAndCheck("pairing", "half");
  assert.equal(await fig.getByLabel("Pairs").inputValue(), "half");
  await setAndCheck("q", "1,2,0,1,-1,0.5");
  assert.equal(await fig.getByLabel("q coordinate 1").inputValue(), "2");
  await setAndCheck("k", "0.5,-1,1,0,2,1");
  assert.equal(await fig.getByLabel("k coordinate 4").inputValue(), "2");
  await setAndCheck("use-freqs", "true", async () => {
    assert.equal(await fig.getByLabel("Frequencies θ").inputValue(), "freqs");
    assert.equal(await fig.getByLabel("θ 0, frequency of pair 0").count(), 1);
  });
  await setAndCheck("freqs", "0.3,0.02,0.001", async (core) => {
    assert.deepEqual(core.thetas, [0.3, 0.02, 0.001]);
    assert.equal(await fig.getByLabel("θ 2, frequency of pair 2").inputValue(), "0.001");
  });
  // The chart's range: the curve now runs over −16 … 16 with the core's scores.
  await setAndCheck("range", "16", async () => {
    const ends = await page.evaluate(async () => {
      const el = document.getElementById("rope-figure");
      const s = el.state;
      const m = await createLLMMath();
      const { scaled } = m.ropeScores(s.q, s.k, [-16, 16], { pairing: s.pairing, freqs: s.freqs });
      return { curve: [el.result.curve[0], el.result.curve.at(-1)], scaled, n: el.result.curve.length };
    });
    assert.equal(ends.n, 33);
    assert.deepEqual(ends.curve, [
      [-16, ends.scaled[0]],
      [16, ends.scaled[1]],
    ]);
    const ticks = await fig.locator("svg.chart").textContent();
    assert.ok(ticks.includes("−16") && ticks.includes("16") && !ticks.includes("256"), ticks);
  });
  // The explained pair: the worked calculation writes out pair 2's part, the core's.
  await setAndCheck("pair", "2", async (core) => {
    const worked = await fig.locator(".worked").textContent();
    assert.match(worked, /^Pair 2 of q/);
    assert.ok(worked.includes(`= ${shown(core.pairScores[2], 10)}`), worked);
    assert.equal(await fig.locator(".rope-dial.selected figcaption strong").textContent(), "pair 2");
  });
  const s = await state();
  assert.deepEqual(
    [s.preset, s.m, s.n, s.d, s.base, s.pairing, s.useFreqs, s.range, s.pair],
    ["mixed", 20, 5, 6, 1000, "half", true, "16", 2],
  );
  assert.deepEqual(
    [s.q, s.k, s.freqs],
    [
      [1, 2, 0, 1, -1, 0.5],
      [0.5, -1, 1, 0, 2, 1],
      [0.3, 0.02, 0.001],
    ],
  );
  // The settings reproduce the figure: a new element given them reaches the same state.
  const same = await page.evaluate(async () => {
    const el = document.getElementById("rope-figure");
    const copy = document.createElement("llm-rope");
    for (const [name, value] of el.settings("defaults")) copy.setAttribute(name, value);
    document.body.append(copy);
    copy.drawNow(); // at the page's end, far from the screen: drawn now rather than when scrolled to
    await copy.ready;
    const out = JSON.stringify(copy.state) === JSON.stringify(el.state) && copy.result.now.raw === el.result.now.raw;
    copy.remove();
    return out;
  });
  assert.ok(same, "settings('defaults') reproduce the state");
  const notes = fig.locator(".llm-notes");
  assert.ok(await notes.isHidden());

  // A preset that is not one of the figure's: a note names it, and the figure is still drawn.
  await setAttr("preset", "constructor");
  await notes.waitFor();
  assert.match(await notes.textContent(), /preset="constructor" ignored/);
  assert.equal((await state()).preset, "exercise");
  assert.equal(await fig.locator(".rope-dial").count(), 3);
  assert.equal(await raw(), shown((await coreForFigure(page)).raw, 10));
  // Numbers out of range: each is named in the note, and the figure keeps its last state.
  for (const [name, value] of [
    ["d", "40"],
    ["m", "-3"],
    ["base", "1"],
    ["pair", "9"],
  ]) {
    const before = await raw();
    await setAttr(name, value);
    assert.ok(await notes.isVisible(), `${name}="${value}" shows a note`);
    assert.match(await notes.textContent(), new RegExp(`\\b${name}="[^"]*" ignored`));
    assert.equal(await raw(), before);
    assert.ok((await fig.locator(".rope-dial").count()) > 0);
    assert.ok(await fig.locator("svg.chart polyline").isVisible());
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("rope: the pairing names say whose code pairs how: halves are GPT-NeoX's and Hugging Face Llama's, neighbours RoFormer's and Meta's Llama's", async () => {
  const { page, errors } = await openFigure(browser.context, "rope");
  const fig = page.locator("#rope-figure");
  const options = await fig
    .getByLabel("Pairs")
    .locator("option")
    .evaluateAll((os) => Object.fromEntries(os.map((o) => [o.value, o.textContent])));
  assert.equal(options.half, "halves, (x[i], x[i+d/2]): GPT-NeoX, Hugging Face Llama");
  assert.equal(options.interleaved, "interleaved, (x[2i], x[2i+1]): RoFormer, Meta's Llama");
  for (const text of Object.values(options)) assert.doesNotMatch(text, /Llama code/);
  // The attribute's documentation (the embed guide's table) says the same.
  const doc = await fig.evaluate((el) => el.constructor.attributes.find((d) => d.name === "pairing").doc);
  assert.match(doc, /half \(x\[i\], x\[i\+d\/2\]\) as in GPT-NeoX and the Hugging Face Llama code/);
  assert.match(doc, /interleaved \(x\[2i\], x\[2i\+1\]\) as in RoFormer and Meta's Llama code/);
  // The example with Llama 3's base is named for the layout it uses, and still pairs halves.
  const examples = await fig
    .getByLabel("Example")
    .locator("option")
    .evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(
    examples.find(([v]) => v === "hf_llama3"),
    ["hf_llama3", "Llama 3 base 500,000, d = 16, halves as in Hugging Face and GPT-NeoX"],
  );
  assert.ok(!examples.some(([, t]) => /Llama 3 layout/.test(t)));
  await fig.getByLabel("Example").selectOption("hf_llama3");
  const s = await fig.evaluate((el) => el.state);
  assert.deepEqual([s.pairing, s.base, s.d], ["half", 500000, 16]);
  assert.equal(await fig.locator(".headline .rope-raw").textContent(), shown((await coreForFigure(page)).raw, 10));
  assert.deepEqual(errors, []);
  await page.close();
});
