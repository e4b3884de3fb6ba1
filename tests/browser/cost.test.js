// Section 4, growing context: the <llm-cost> figure and exercise 4's answer in headless Chromium,
// checked against the core's attentionCost for the same inputs.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers, openFigure, artifact, shown } = require("./browser.js");

const browser = useBrowser(test);

/** The figure's result cards as { term: value }. */
function stats(fig) {
  return fig
    .locator(".cost-stat")
    .evaluateAll((cards) =>
      Object.fromEntries(
        cards.map((c) => [c.querySelector("dt").textContent.trim(), c.querySelector("dd strong").textContent]),
      ),
    );
}

/** attentionCost computed in the page by a fresh core, for the figure's current inputs. */
function coreForFigure(page, changes = {}) {
  return page.evaluate(async (changes) => {
    const el = document.getElementById("cost-figure");
    return (await createLLMMath()).attentionCost({ ...el.inputs, ...changes });
  }, changes);
}

const count = (x) => x.toLocaleString("en");
/** A count as the page's fmtCount writes it below 10^15: at most two decimals (a crossover can be fractional). */
const count2 = (x) => x.toLocaleString("en", { maximumFractionDigits: 2 });

test("cost: the figure starts at exercise 4's layer and shows the core's counts", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#cost-figure");
  const expected = await coreForFigure(page);
  assert.equal(expected.scoresPerHead, 256);
  const s = await stats(fig);
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(s["Scores per layer"], count(expected.scoresPerLayer));
  assert.equal(s["Key-value cache"], "16 KiB");
  assert.equal(expected.kvBytes, 16 * 1024);
  assert.equal(s["QK + AV multiply-adds"], count(expected.macs));
  const worked = await fig.locator(".worked").textContent();
  assert.match(worked, /n² = 16² = 256/);
  assert.match(worked, new RegExp(`2·1·16·8·32 = ${count(expected.kvValuesPerLayer)}`));
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: changing the head dimension and the context changes the cards, the chart and the calculation", async () => {
  const { page, errors } = await openFigure(browser.context, "cost");
  const fig = page.locator("#cost-figure");
  const chart = () => fig.locator("svg.chart").innerHTML();
  const chartBefore = await chart();
  await fig.getByLabel("Head dimension d").fill("64");
  let expected = await coreForFigure(page);
  assert.equal(expected.kvValuesPerLayer, 16384);
  let s = await stats(fig);
  assert.equal(s["Scores per head, n²"], "256");
  assert.equal(s["QK + AV multiply-adds"], count(expected.macs));
  assert.equal(s["Key-value cache"], "32 KiB");
  assert.notEqual(await chart(), chartBefore);

  // The slider steps the context through powers of two.
  await fig.getByLabel("Tokens n, in powers of two").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await fig.getByLabel("Tokens n", { exact: true }).inputValue(), "32");
  expected = await coreForFigure(page);
  s = await stats(fig);
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(s["Scores per layer"], count(expected.scoresPerLayer));
  assert.match(await fig.locator(".worked").textContent(), /n² = 32² = 1,024/);
  assert.match(await fig.locator(".cost-legend").textContent(), new RegExp(count(expected.scoresPerLayer)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: real-model presets load their configuration and list the cache per token from the core", async () => {
  const { page, errors } = await openFigure(browser.context, "cost");
  const fig = page.locator("#cost-figure");
  const row = (name) => fig.locator(".cost-table tbody tr", { hasText: name });
  assert.match(await row("Llama-2-7B").textContent(), /524,288 bytes/);
  assert.match(await row("Llama-3-8B").textContent(), /131,072 bytes/);
  await row("Llama-3-8B").getByRole("button").click();
  const value = (label) => fig.getByLabel(label, { exact: true }).inputValue();
  assert.deepEqual(
    [
      await value("Query heads h"),
      await value("Key-value heads hkv"),
      await value("Head dimension d"),
      await value("Layers L"),
    ],
    ["32", "8", "128", "32"],
  );
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "llama3_8b");
  const expected = await coreForFigure(page);
  assert.equal(expected.kvBytesPerToken, 131072);
  const s = await stats(fig);
  assert.equal(s["Cache added per token"], "128 KiB");
  assert.equal(s["Key-value cache"], "1 GiB");
  assert.equal(expected.kvBytes, 2 ** 30);
  // The context is the reader's, not the model's: changing it keeps the model chosen.
  await fig.getByLabel("Tokens n", { exact: true }).fill("1000");
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "llama3_8b");
  assert.equal((await coreForFigure(page)).kvBytes, 131072000);
  assert.equal((await stats(fig))["Key-value cache"], "125 MiB");

  // Precision presets set the bytes per value; the table follows them.
  await fig.getByLabel("Precision").selectOption("int4");
  assert.equal(await value("Bytes per value p"), "0.5");
  assert.equal((await stats(fig))["Cache added per token"], "32 KiB");
  assert.match(await row("Llama-2-7B").textContent(), /131,072 bytes/);
  await fig.screenshot({ path: artifact("cost-llama3.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: key-value heads that do not divide the heads are named and the last figure kept", async () => {
  const { page } = await openFigure(browser.context, "cost");
  const fig = page.locator("#cost-figure");
  const good = await fig.locator(".cost-stats").textContent();
  await fig.getByLabel("Key-value heads hkv").fill("3");
  await fig.locator(".llm-status.llm-error").waitFor();
  assert.match(await fig.locator(".llm-status").textContent(), /kvHeads must be a divisor of heads/);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  assert.equal(await fig.getByLabel("Key-value heads hkv").getAttribute("aria-invalid"), "true");
  await fig.getByLabel("Key-value heads hkv").fill("2");
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.notEqual(await fig.locator(".cost-stats").textContent(), good);
  await page.close();
});

test("cost: exercise 4's answer gives 256 scores and 8,192 values, and what doubling d does", async () => {
  const { page, errors } = await openReader(browser.context);
  const details = page.locator("#cost .exercise:has(llm-answer-cost) details");
  // The answer waits for a right prediction or a request: here, the request.
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  const answer = await details.locator(".answer-body").textContent();
  assert.match(answer, /16² = 256 scores per head/);
  assert.match(answer, /2·16·8·32 = 8,192 values/);
  const doubled = await coreForFigure(page, { headDim: 64 });
  const single = await coreForFigure(page, { layers: 1 });
  assert.match(answer, /scores per head: 256 → 256, unchanged/);
  assert.match(answer, new RegExp(`cached values per layer: 8,192 → ${count(doubled.kvValuesPerLayer)}, doubled`));
  assert.match(answer, new RegExp(`multiply-adds per layer: ${count(single.macs)} → ${count(doubled.macs)}, doubled`));
  await details.screenshot({ path: artifact("exercise-4.png") });

  // The answer follows the figure.
  await page.locator("#cost-figure").getByLabel("Tokens n", { exact: true }).fill("100");
  const after = await details.locator(".answer-body").textContent();
  assert.match(after, /100² = 10,000 scores per head/);
  const now = await coreForFigure(page);
  assert.match(after, new RegExp(`2·100·8·32 = ${count(now.kvValuesPerLayer)} values`));
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: every declared attribute set on the live element re-renders the figure; bad values are named in a note", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#cost-figure");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const state = () => fig.evaluate((el) => ({ ...el.state }));
  // The state names the width and feed-forward size by their attributes (hidden-size,
  // intermediate-size); attentionCost by hidden and intermediate.
  const api = ({ hiddenSize, intermediateSize, ...rest }) =>
    hiddenSize === undefined ? rest : { ...rest, hidden: hiddenSize, intermediate: intermediateSize };
  const core = (cfg) => page.evaluate(async (cfg) => (await createLLMMath()).attentionCost(cfg), api(cfg));
  const value = (label) => fig.getByLabel(label, { exact: true }).inputValue();
  const worked = () => fig.locator(".worked").textContent();

  // The preset loads a real model's context and shape; batch and bytes per value keep their defaults.
  let cfg = {
    tokens: 1024,
    heads: 12,
    kvHeads: 12,
    headDim: 64,
    layers: 12,
    batch: 1,
    kvBytesPerElement: 2,
    hiddenSize: 768,
    intermediateSize: 3072,
    gatedMlp: false,
  };
  await setAttr("preset", "gpt2");
  assert.deepEqual(await state(), { preset: "gpt2", ...cfg });
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "gpt2");
  let expected = await core(cfg);
  assert.equal((await stats(fig))["Scores per head, n²"], count(expected.scoresPerHead));
  assert.equal(expected.scoresPerHead, 1024 * 1024);

  // Each attribute in turn: [attribute, state key, value, field label, what it must change].
  const steps = [
    ["tokens", "tokens", 64, "Tokens n", (s, e) => assert.equal(s["Scores per head, n²"], count(e.scoresPerHead))],
    ["heads", "heads", 24, "Query heads h", (s, e) => assert.equal(s["Scores per layer"], count(e.scoresPerLayer))],
    [
      "kv-heads",
      "kvHeads",
      6,
      "Key-value heads hkv",
      async (s, e) => assert.match(await worked(), new RegExp(`= ${count(e.kvValuesPerLayer)}\\.`)),
    ],
    ["head-dim", "headDim", 32, "Head dimension d", (s, e) => assert.equal(s["QK + AV multiply-adds"], count(e.macs))],
    ["layers", "layers", 3, "Layers L", (s, e) => assert.equal(s["QK + AV multiply-adds"], count(e.macs))],
    ["batch", "batch", 2, "Batch b", (s, e) => assert.equal(s["Scores per layer"], count(e.scoresPerLayer))],
    [
      "kv-bytes-per-element",
      "kvBytesPerElement",
      1,
      "Bytes per value p",
      async (s, e) => assert.match(await worked(), new RegExp(`\\(${count(e.kvBytes)} bytes\\)`)),
    ],
    [
      "hidden-size",
      "hiddenSize",
      512,
      "Model width dmodel",
      (s, e) => assert.equal(s["Linear-layer multiply-adds"], count(e.linearMacsPerLayer)),
    ],
    [
      "intermediate-size",
      "intermediateSize",
      2048,
      "Feed-forward size dff",
      (s, e) => assert.equal(s["Attention overtakes at"], count2(e.crossoverTokens)),
    ],
  ];
  for (const [attr, key, v, label, check] of steps) {
    const before = await core(cfg);
    cfg = { ...cfg, [key]: v };
    await setAttr(attr, String(v));
    assert.deepEqual(await state(), { preset: "gpt2", ...cfg }, attr);
    assert.equal(await value(label), String(v), `${attr} shown in its field`);
    expected = await core(cfg);
    assert.notDeepEqual(expected, before, `${attr} changes the core's result`);
    await check(await stats(fig), expected);
  }
  // gated-mlp: a third feed-forward matrix raises the linear layers' count and the crossover.
  {
    const before = await core(cfg);
    cfg = { ...cfg, gatedMlp: true };
    await setAttr("gated-mlp", "true");
    assert.deepEqual(await state(), { preset: "gpt2", ...cfg }, "gated-mlp");
    assert.equal(await fig.getByLabel("Gated feed-forward (three matrices, as in Llama)").isChecked(), true);
    expected = await core(cfg);
    assert.ok(expected.crossoverTokens > before.crossoverTokens);
    assert.equal((await stats(fig))["Attention overtakes at"], count2(expected.crossoverTokens));
  }
  // The shape is no longer GPT-2's; bytes per value 1 is int8; the tokens slider follows tokens.
  assert.equal(await fig.getByLabel("Configuration").inputValue(), "");
  assert.equal(await fig.getByLabel("Precision").inputValue(), "int8");
  assert.equal(await fig.getByLabel("Tokens n, in powers of two").inputValue(), "6");
  // The settings reproduce what the reader sees.
  assert.deepEqual(await fig.evaluate((el) => el.settings("defaults")), [
    ["preset", "gpt2"],
    ["tokens", "64"],
    ["heads", "24"],
    ["kv-heads", "6"],
    ["head-dim", "32"],
    ["layers", "3"],
    ["batch", "2"],
    ["kv-bytes-per-element", "1"],
    ["hidden-size", "512"],
    ["intermediate-size", "2048"],
    ["gated-mlp", "true"],
  ]);
  // The names these four had before (the cost figure's own) are still read, as the declarations
  // say; the settings write the names.
  for (const [former, key, v] of [
    ["d-model", "hiddenSize", 640],
    ["ffn-dim", "intermediateSize", 2560],
    ["gated", "gatedMlp", false],
    ["bytes-per-value", "kvBytesPerElement", 0.5],
  ]) {
    await fig.evaluate(
      (el, name) => el.removeAttribute(name),
      key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    );
    await setAttr(former, String(v));
    assert.equal((await state())[key], v, `${former} sets ${key}`);
  }
  const written = Object.fromEntries(await fig.evaluate((el) => el.settings("defaults")));
  assert.equal(written["kv-bytes-per-element"], "0.5");
  assert.equal(written["hidden-size"], "640");
  assert.equal(written["intermediate-size"], "2560");
  for (const former of ["d-model", "ffn-dim", "gated", "bytes-per-value"]) assert.ok(!(former in written), former);
  const notes = fig.locator(".llm-notes");
  assert.equal(await notes.isVisible(), false);

  // A preset that is not a key of the presets (an inherited property's name) is named and ignored.
  await setAttr("preset", "constructor");
  await notes.waitFor({ state: "visible" });
  assert.match(await notes.textContent(), /preset="constructor" ignored/);
  assert.equal((await state()).preset, "exercise");
  const s = await stats(fig);
  expected = await core(await fig.evaluate((el) => el.inputs));
  assert.equal(s["Scores per head, n²"], count(expected.scoresPerHead));
  // Two charts: the hidden-size, intermediate-size and gated-mlp attributes still count the linear
  // layers.
  assert.equal(await fig.locator("svg.chart").count(), 2);

  // A number out of its declared range is named; the figure stays.
  const good = await fig.locator(".cost-stats").textContent();
  await setAttr("heads", "5000");
  assert.match(await notes.textContent(), /heads="[^"]*" ignored: expected a whole number from 1 to 4096/);
  assert.ok(await notes.isVisible());
  assert.equal((await state()).heads, 24);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  await setAttr("tokens", "0");
  assert.match(await notes.textContent(), /tokens="[^"]*" ignored: expected a whole number from 1 to 1073741824/);
  assert.equal(await fig.locator(".cost-stats").textContent(), good);
  assert.equal(await fig.locator("svg.chart").count(), 2);
  assert.equal(await fig.locator(".llm-status").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: with a model's width and feed-forward size the figure shows where attention's arithmetic overtakes the linear layers' (Llama-2-7B ≈ 25,000 tokens)", async () => {
  const { page, errors } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#cost-figure");
  // Exercise 4's lone layer has no width: the second chart says what to give instead of a crossover.
  assert.match(await fig.locator(".cost-linear-off").textContent(), /Give the model width/);
  assert.equal(await fig.locator(".cost-stat", { hasText: "Attention overtakes at" }).count(), 0);

  await fig.locator(".cost-table tbody tr", { hasText: "Llama-2-7B" }).getByRole("button").click();
  assert.deepEqual(await fig.evaluate((el) => [el.state.hiddenSize, el.state.intermediateSize, el.state.gatedMlp]), [
    4096,
    11008,
    true,
  ]);
  const expected = await coreForFigure(page);
  // The issue's reference: the full-square QK + AV multiply-adds equal the linear layers' at
  // ≈ 25,000 tokens for Llama-2-7B; the core's closed form gives exactly 24,704.
  assert.equal(expected.crossoverTokens, 24704);
  const s = await stats(fig);
  assert.equal(s["Attention overtakes at"], "24,704");
  assert.equal(s["Linear-layer multiply-adds"], "8.289 × 10¹¹");
  // At its 4,096-token context attention is the smaller share: 14.2% (the core's 0.1422…).
  assert.ok(expected.attentionShare < 0.5);
  assert.equal(s["Attention's share"], `${shown(expected.attentionShare * 100, 1)}%`);
  const legend = await fig.locator(".cost-linear-legend").textContent();
  assert.match(legend, /Equal at n = 24,704 tokens; here attention does 14\.2% of the arithmetic/);
  assert.equal(
    await fig.locator(".cost-linear-legend .cost-linear-macs").textContent(),
    count(expected.linearMacsPerLayer),
  );
  // The chart marks the crossover with a labelled guide, and both lines are drawn.
  assert.equal(await fig.locator(".cost-linear svg.chart line.cost-crossover").count(), 1);
  assert.equal(await fig.locator(".cost-linear svg.chart text", { hasText: "n = 24,704" }).count(), 1);
  assert.equal(await fig.locator(".cost-linear svg.chart polyline").count(), 2);
  const worked = await fig.locator(".worked").textContent();
  assert.match(
    worked,
    new RegExp(
      `= ${count(expected.projectionMacsPerLayer)}, plus 3·b·n·dmodel·dff = 3·1·4,096·4,096·11,008 = ${count(expected.ffnMacsPerLayer)}`,
    ),
  );
  assert.match(worked, /= 24,704 tokens, whatever the batch/);

  // Past the crossover attention does most of the arithmetic.
  await fig.getByLabel("Tokens n", { exact: true }).fill("32768");
  const past = await coreForFigure(page);
  assert.ok(past.attentionShare > 0.5);
  assert.equal((await stats(fig))["Attention's share"], `${shown(past.attentionShare * 100, 1)}%`);

  // Every real model's crossover, from its published width and feed-forward size, in the table.
  const crossovers = await page.evaluate(async () => {
    const m = await createLLMMath();
    const el = document.getElementById("cost-figure");
    return el.result.models.map(({ key, preset: p }) => [
      key,
      m.attentionCost({
        tokens: 1,
        heads: p.heads,
        kvHeads: p.kvHeads,
        headDim: p.headDim,
        hidden: p.hidden,
        intermediate: p.intermediate,
        gatedMlp: p.gatedMlp,
      }).crossoverTokens,
    ]);
  });
  assert.equal(crossovers.length, 5);
  const cells = await fig.locator(".cost-table td.crossover").allTextContents();
  assert.deepEqual(
    cells,
    crossovers.map(([, n]) => count2(n)),
  );
  assert.deepEqual(
    crossovers.find(([k]) => k === "llama2_7b"),
    ["llama2_7b", 24704],
  );
  await fig.screenshot({ path: artifact("cost-crossover.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: the context reaches 2^30 tokens, exactly, and 2^30 + 1 is refused by name", async () => {
  const { page, errors } = await openFigure(browser.context, "cost");
  const fig = page.locator("#cost-figure");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  await setAttr("tokens", String(2 ** 30));
  assert.equal(await fig.evaluate((el) => el.state.tokens), 2 ** 30);
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);
  const expected = await coreForFigure(page);
  // 2^60 scores per head is exact in a double; the calculation shows it in scientific notation.
  assert.equal(expected.scoresPerHead, 2 ** 60);
  assert.match(await fig.locator(".worked").textContent(), /n² = 1,073,741,824² = 1\.153 × 10¹⁸\./);
  assert.equal(await fig.getByLabel("Tokens n, in powers of two").inputValue(), "30");
  assert.equal(await fig.getByLabel("Tokens n, in powers of two").getAttribute("max"), "30");
  // The chart's axis reaches the context: past 2^24 (16M), with a tick at 2^28 (256M).
  assert.match(await fig.locator("svg.chart").first().textContent(), /16M256M/);
  await setAttr("tokens", String(2 ** 30 + 1));
  assert.match(
    await fig.locator(".llm-notes").textContent(),
    /tokens="1073741825" ignored: expected a whole number from 1 to 1073741824/,
  );
  assert.equal(await fig.evaluate((el) => el.state.tokens), 2 ** 30);
  assert.deepEqual(errors, []);
  await page.close();
});

test("cost: section 4's rule for doubling the prompt (2 + 2a) and its factors at the crossover and four times it are the core's, for every model", async () => {
  const { page, errors } = await openReader(browser.context);
  const prose = await page
    .locator("#cost p", { hasText: "Doubling the prompt" })
    .evaluate((p) => p.textContent.replace(/\s+/g, " "));
  // The factors as the prose states them, to the one decimal it gives.
  const stated = (where) => {
    const m = prose.match(new RegExp(`(\\d+\\.\\d) times at ${where}`));
    assert.ok(m, `section 4 states the factor at ${where}`);
    return m[1];
  };
  const atCrossover = stated("the crossover");
  const atFour = stated("four times the crossover");
  // In the page: every model with linear layers (the declared presets), its crossover n* from
  // attentionCost, and one layer's arithmetic (attention + linear) at n and 2n for n = n*, 4n*.
  const models = await page.evaluate(async () => {
    const core = await createLLMMath();
    const Cost = /** @type {any} */ (customElements.get("llm-cost"));
    const choices = Cost.attributes.find((a) => a.name === "preset").choices;
    const work = (/** @type {any} */ r) => r.macsPerLayer + r.linearMacsPerLayer;
    // presetFields names the sizes as the state does; attentionCost as modelFromConfig does
    const api = ({ hiddenSize, intermediateSize, ...rest }) => ({
      ...rest,
      hidden: hiddenSize,
      intermediate: intermediateSize,
    });
    return choices
      .map((key) => ({ key, cfg: api(Cost.presetFields(key)) }))
      .filter(({ cfg }) => cfg.hidden > 0)
      .map(({ key, cfg }) => {
        const crossover = core.attentionCost({ ...cfg, tokens: 1 }).crossoverTokens;
        const at = (k) => {
          // a whole number of tokens: the crossover need not be one
          const n = Math.round(k * crossover);
          const one = core.attentionCost({ ...cfg, tokens: n });
          return {
            n,
            factor: work(core.attentionCost({ ...cfg, tokens: 2 * n })) / work(one),
            share: one.attentionShare,
          };
        };
        return { key, crossover, one: at(1), four: at(4) };
      });
  });
  assert.ok(models.length >= 5, `models with linear layers: ${models.map((m) => m.key)}`);
  for (const { key, crossover, one, four } of models) {
    // The rule: attention's part quadruples and the linear part doubles, so the factor is
    // 2 + 2a; both sides are ratios of exact integer counts, so they agree to rounding (1e-12).
    for (const { factor, share } of [one, four])
      assert.ok(Math.abs(factor - (2 + 2 * share)) < 1e-12, `${key}: ${factor} against 2 + 2·${share}`);
    // Rounding the crossover to whole tokens moves the factor by at most 2/n* (< 1e-3 here), far
    // below the prose's one decimal.
    assert.ok(crossover > 2000, `${key}: crossover ${crossover}`);
    assert.equal(one.factor.toFixed(1), atCrossover, `${key} at n = ${one.n}: ${one.factor}`);
    assert.equal(four.factor.toFixed(1), atFour, `${key} at n = ${four.n}: ${four.factor}`);
  }
  assert.match(prose, /2\s*\+\s*2a/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The figure's ranges are the core's: each number an attribute takes, at the top of its range,
// reaches attentionCost and is taken; the next number up is refused by the core, naming the
// parameter. (The limits are written in cost.hpp and again in the figure's attributes.js; this
// holds the two together: the batch attribute once stayed at 4096 when the core took 2^20.)
test("cost: each attribute's range is attentionCost's: its top taken, the next number up refused", async () => {
  const { page, errors } = await openFigure(browser.context, "cost");
  const checked = await page.evaluate(async () => {
    const el = document.getElementById("cost-figure");
    const core = await createLLMMath();
    // the linear layers on and every head sharing a key-value head's range, so that each limit
    // is the only one in play
    const base = { "hidden-size": "4096", "intermediate-size": "14336", heads: "4096" };
    const out = [];
    for (const a of el.constructor.attributes) {
      if (!["integer", "number"].includes(a.type) || a.max === undefined) continue;
      for (const [name, value] of Object.entries(base)) el.setAttribute(name, value);
      const before = el.inputs;
      el.setAttribute(a.name, String(a.max));
      const after = el.inputs;
      const keys = Object.keys(after).filter((k) => after[k] !== before[k]);
      // an attribute whose top is already the base's, or the state's, changes nothing
      const key = keys[0] ?? Object.keys(after).find((k) => after[k] === a.max);
      const next = a.type === "integer" ? a.max + 1 : a.max * (1 + 2 ** -52);
      let taken = true,
        refused = "";
      try {
        core.attentionCost(after);
      } catch (e) {
        taken = String(e.message);
      }
      try {
        core.attentionCost({ ...after, [key]: next });
      } catch (e) {
        refused = String(e.message);
      }
      out.push({ name: a.name, key, max: a.max, value: after[key], taken, refused });
      el.removeAttribute(a.name);
    }
    return out;
  });
  assert.ok(checked.length >= 9, `${checked.length} ranged attributes`);
  for (const c of checked) {
    assert.equal(c.value, c.max, `${c.name}: the figure keeps ${c.max}, its top, as attentionCost's ${c.key}`);
    assert.equal(c.taken, true, `${c.name} = ${c.max}: attentionCost takes it`);
    assert.match(c.refused, new RegExp(`^${c.key} must be`), `${c.name}: one past ${c.max} is refused by the core`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
