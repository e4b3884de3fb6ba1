// Section 4, your model: the <llm-model> figure in headless Chromium, alone in embed.html (and on
// the reader for its link), checked against the core's modelFromConfigText, modelCost and
// modelCostSweep for the same configuration and inputs, with the real config.json files of
// data/models/ as the built-in models.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, openFigure, openReader, dist, artifact } = require("./browser.js");

const browser = useBrowser(test);
const FIXTURES = path.join(__dirname, "..", "..", "data", "models");
const fixture = (id) => fs.readFileSync(path.join(FIXTURES, `${id}.json`), "utf8");
// The page's own formatting, so that a readout is compared with the core's number as written.
const format = import(pathToFileURL(path.join(__dirname, "..", "..", "site", "src", "format.js")).href);

/** The figure's result cards as { term: value }. */
const stats = (fig) =>
  fig
    .locator(".model-stat")
    .evaluateAll((cards) =>
      Object.fromEntries(
        cards.map((c) => [c.querySelector("dt").textContent.trim(), c.querySelector("dd strong").textContent]),
      ),
    );

/** The cache chart's data table: its header and its rows, as text. */
const cacheTable = (fig) =>
  fig.locator(".model-cache .chart-data table").evaluate((t) => ({
    columns: [...t.querySelectorAll("thead th")].map((th) => th.textContent),
    rows: [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
  }));

/** modelCost and modelCostSweep by a fresh core, for `text` at the figure's current inputs. */
function coreFor(page, text, tokens) {
  return page.evaluate(
    async ({ text, tokens }) => {
      const el = document.getElementById("model-figure");
      const core = await createLLMMath();
      const shape = core.modelFromConfigText(text);
      const { batch, kvBytesPerElement, mlaCache } = el.inputs;
      return {
        shape,
        now: core.modelCost(shape, el.inputs),
        sweep: tokens ? core.modelCostSweep(shape, { tokens, batch, kvBytesPerElement, mlaCache }) : null,
      };
    },
    { text, tokens },
  );
}

const figureOf = async (options = {}, query = "") => {
  const opened = await openFigure(browser.context, "model", options);
  if (query) {
    await opened.page.goto(`${opened.url}${query}`);
    await opened.page.waitForSelector("html[data-ready]");
  }
  return { ...opened, fig: opened.page.locator("#model-figure") };
};

test("model: Llama 3.1 8B at 32,768 tokens and a batch of 4: the readouts, the chart's table and the calculation are the core's", async () => {
  const { fmtBytes, fmtCount } = await format;
  const { page, errors, fig } = await figureOf({}, "&model=llama-3.1-8b&tokens=32768&batch=4");
  const table = await cacheTable(fig);
  const tokens = table.rows.map(([t]) => Number(t.replace(/,/g, "")));
  const { shape, now, sweep } = await coreFor(page, fixture("llama-3.1-8b"), tokens);
  assert.equal(now.kvBytes, 16 * 2 ** 30); // 2·8·128 elements × 32,768 × 32 layers × 4 × 2 bytes
  const s = await stats(fig);
  assert.equal(s["Key-value cache"], fmtBytes(now.kvBytes));
  assert.equal(s["Cache per token"], fmtBytes(now.kvBytesPerToken));
  assert.equal(s.Weights, fmtBytes(now.weightsBytes));
  assert.equal(s["Largest batch that fits"], fmtCount(now.fit.maxBatch));
  assert.equal(s["Longest context that fits"], fmtCount(now.fit.maxTokens));
  // One column per kind of layer present (full only), then the whole cache.
  assert.deepEqual(table.columns, ["tokens", "full layers (32)", "whole cache"]);
  assert.ok(table.rows.length > 5);
  table.rows.forEach(([, full, whole], i) => {
    assert.equal(full, fmtBytes(sweep.byKind[0].bytes[i]), `full at ${tokens[i]}`);
    assert.equal(whole, fmtBytes(sweep.kvBytes[i]), `whole at ${tokens[i]}`);
  });
  assert.equal(tokens.at(-1), shape.maxContext);
  const read = await fig.locator(".model-kinds").textContent();
  assert.equal(read, "32 layers: 32 full");
  const worked = await fig.locator(".worked").textContent();
  assert.match(
    worked,
    /2·8·128 = 2,048 elements per token and layer × 32,768 tokens held × 32 layers × 4 sequences × 2 bytes = 16 GiB \(17,179,869,184 bytes\)/,
  );
  assert.match(
    worked,
    new RegExp(
      `${fmtCount(now.params.total)} parameters stored as bf16, scales included: ${fmtBytes(now.weightsBytes)}`,
    ),
  );
  assert.match(
    await fig.locator(".model-flops-now").textContent(),
    new RegExp(`equal at ${fmtCount(now.crossoverTokens)} tokens`),
  );
  // Not a latent model: no choice of the latent cache's convention.
  assert.equal(await fig.getByLabel("Latent cache counted as").isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: gpt-oss-20b's sliding layers hold 128 tokens: their area is flat beyond 128, the full layers' grows", async () => {
  const { page, errors, fig } = await figureOf({}, "&model=gpt-oss-20b");
  assert.equal(await fig.locator(".model-kinds").textContent(), "24 layers: 12 full, 12 sliding (128 tokens)");
  const table = await cacheTable(fig);
  const col = (name) => table.columns.indexOf(name);
  const sliding = col("sliding layers (12)"),
    full = col("full layers (12)");
  assert.ok(sliding > 0 && full > 0, table.columns.join(", "));
  const beyond = table.rows.filter(([x]) => Number(x.replace(/,/g, "")) >= 128);
  assert.ok(beyond.length > 5);
  assert.deepEqual(
    new Set(beyond.map((r) => r[sliding])).size,
    1,
    "the sliding layers' cache is the same from 128 tokens on",
  );
  assert.equal(beyond[0][sliding], "3 MiB"); // 12 layers × 2·8·64 × 128 tokens × 2 bytes
  assert.equal(table.rows[0][sliding], "24 KiB"); // at 1 token
  assert.equal(new Set(beyond.map((r) => r[full])).size, beyond.length, "the full layers' cache grows");
  assert.match(await fig.locator(".worked").textContent(), /× 128 tokens held \(the window\) × 12 layers/);
  await fig.screenshot({ path: artifact("model-gpt-oss.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: DeepSeek-V3's latent cache is far smaller than the same cache expanded per head", async () => {
  const { fmtBytes } = await format;
  const { page, errors, fig } = await figureOf({}, "&model=deepseek-v3&tokens=131072");
  const choice = fig.getByLabel("Latent cache counted as");
  assert.equal(await choice.isVisible(), true);
  const latent = await coreFor(page, fixture("deepseek-v3"));
  assert.equal((await stats(fig))["Key-value cache"], fmtBytes(latent.now.kvBytes));
  assert.match(await fig.locator(".worked").textContent(), /latent \+ rotary key = 512 \+ 64 = 576 elements/);
  await choice.selectOption("expanded");
  const expanded = await coreFor(page, fixture("deepseek-v3"));
  assert.equal((await stats(fig))["Key-value cache"], fmtBytes(expanded.now.kvBytes));
  // (128·(128 + 64) + 128·128) / (512 + 64) = 40,960 / 576 ≈ 71.
  assert.ok(expanded.now.kvBytes > 70 * latent.now.kvBytes, `${expanded.now.kvBytes} against ${latent.now.kvBytes}`);
  assert.match(await fig.locator(".model-cache .chart-legend").textContent(), /latent, for comparison/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: bad JSON shows the core's message with its line and column, and the last model stays drawn", async () => {
  const { page, errors, fig } = await figureOf();
  const text = fig.getByLabel("config.json", { exact: true });
  const before = await page.evaluate(() => document.getElementById("model-figure").result.now.kvBytes);
  const chart = await fig.locator(".model-cache svg.chart").innerHTML();
  await text.fill('{\n  "model_type": "llama",\n  "num_hidden_layers": 32,,\n}');
  const message = await fig.locator(".model-message").textContent();
  assert.match(message, /^Not read: config\.json, line 3, column \d+: .+The figure still shows the last model read\.$/);
  assert.equal(await text.getAttribute("aria-invalid"), "true");
  assert.equal(await fig.locator(".model-cache svg.chart").innerHTML(), chart);
  assert.equal(await page.evaluate(() => document.getElementById("model-figure").result.now.kvBytes), before);
  // A configuration that parses but lacks a field: the core's message names it.
  await text.fill('{"model_type": "llama", "hidden_size": 4096}');
  assert.match(await fig.locator(".model-message").textContent(), /num_hidden_layers/);
  assert.equal(await fig.locator(".model-cache svg.chart").innerHTML(), chart);
  // A good one is read, and the mark goes.
  await text.fill(fixture("gpt-oss-20b"));
  assert.equal(await fig.locator(".model-message").textContent(), "");
  assert.equal(await text.getAttribute("aria-invalid"), "false");
  assert.equal(await fig.locator(".model-kinds").textContent(), "24 layers: 12 full, 12 sliding (128 tokens)");
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: a file saved with a byte-order mark is read; a model_type with a right-to-left override is shown isolated", async () => {
  // The mark was once refused with an invisible character in the message, and an
  // override in model_type reordered the title line around it
  const { page, errors, fig } = await figureOf();
  const text = fig.getByLabel("config.json", { exact: true });
  await text.fill(`\uFEFF${fixture("gpt-oss-20b")}`);
  assert.equal(await fig.locator(".model-message").textContent(), "");
  assert.equal(await text.getAttribute("aria-invalid"), "false");
  assert.equal(await fig.locator(".model-kinds").textContent(), "24 layers: 12 full, 12 sliding (128 tokens)");
  const turned = JSON.parse(fixture("llama-3.1-8b"));
  turned.model_type = "\u202Ellama";
  await text.fill(JSON.stringify(turned));
  assert.equal(await fig.locator(".model-message").textContent(), "");
  const title = fig.locator(".model-read-title");
  assert.equal(await title.locator("bdi.model-type").textContent(), "\u202Ellama");
  // the override stays inside its isolate: the closing parenthesis after it is laid out last
  const order = await title.evaluate((p) => {
    const range = document.createRange();
    const last = p.lastChild;
    range.setStart(last, last.length - 1);
    range.setEnd(last, last.length);
    const paren = range.getBoundingClientRect().left;
    const type = p.querySelector("bdi.model-type").getBoundingClientRect();
    return { paren, typeRight: type.right };
  });
  assert.ok(order.paren >= order.typeRight - 0.5, `")" at ${order.paren}, model_type ends at ${order.typeRight}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: a pasted configuration travels in the reader's link and comes back; one too large for it is named by the model before, with a note", async () => {
  const { page, errors } = await openReader(browser.context, { hash: "#model-figure" });
  const fig = page.locator("#model-figure");
  await fig.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.getElementById("model-figure").hasAttribute("data-ready"));
  const small = JSON.stringify({ ...JSON.parse(fixture("llama-3.1-8b")), num_hidden_layers: 16 });
  await fig.getByLabel("config.json", { exact: true }).fill(small);
  await fig.getByLabel("Batch b").fill("3");
  await page.waitForFunction(() => location.hash.includes("model.config=") && location.hash.includes("model.batch=3"));
  const hash = await page.evaluate(() => location.hash);
  const kv = await page.evaluate(() => document.getElementById("model-figure").result.now.kvBytes);
  const again = await openReader(browser.context, { hash });
  const fig2 = again.page.locator("#model-figure");
  await fig2.scrollIntoViewIfNeeded();
  await again.page.waitForFunction(() => document.getElementById("model-figure").hasAttribute("data-ready"));
  const back = await again.page.evaluate(() => {
    const el = document.getElementById("model-figure");
    return { model: el.state.model, kv: el.result.now.kvBytes, layers: el.result.shape.layers };
  });
  assert.deepEqual(back, { model: "custom", kv, layers: 16 });
  assert.equal(await fig2.locator(".model-kinds").textContent(), "16 layers: 16 full");

  // Too large for a link: the link names the built-in model shown before, and the figure says so.
  await fig.getByLabel("Model", { exact: true }).selectOption("gpt-oss-20b");
  const large = JSON.stringify({ ...JSON.parse(fixture("llama-3.1-8b")), note: "x".repeat(2000) }, null, 2);
  await fig.getByLabel("config.json", { exact: true }).fill(large);
  const note = fig.locator(".model-link-note");
  assert.equal(await note.isVisible(), true);
  assert.match(
    await note.textContent(),
    /longer than the 1,500 characters a link carries: Copy link names gpt-oss-20b instead/,
  );
  const settings = await page.evaluate(() => document.getElementById("model-figure").settings());
  assert.deepEqual(Object.fromEntries(settings), { model: "gpt-oss-20b", batch: "3" });
  assert.equal(await fig.locator(".model-kinds").textContent(), "32 layers: 32 full");
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await page.close();
  await again.page.close();
});

test('model: a configuration given inline as a <script type="application/json"> child is the figure\'s, and a dropped file replaces it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-model-"));
  try {
    fs.copyFileSync(path.join(dist, "llmmath-widgets.js"), path.join(dir, "llmmath-widgets.js"));
    const inline = JSON.stringify({ ...JSON.parse(fixture("llama-3.1-8b")), num_hidden_layers: 8 }, null, 2);
    fs.writeFileSync(
      path.join(dir, "course.html"),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title></head><body>
<llm-model id="model-figure" tokens="1024" batch="2"><script type="application/json">${inline}</script></llm-model>
<script src="llmmath-widgets.js"></script></body></html>`,
    );
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(pathToFileURL(path.join(dir, "course.html")).href);
    await page.waitForFunction(() => document.getElementById("model-figure")?.hasAttribute("data-ready"));
    const fig = page.locator("#model-figure");
    assert.equal(await fig.locator(".model-kinds").textContent(), "8 layers: 8 full");
    const { now } = await coreFor(page, inline);
    // 8 layers × 2·8·128 × 1,024 tokens × 2 sequences × 2 bytes = 64 MiB
    assert.equal(now.kvBytes, 64 * 2 ** 20);
    assert.equal((await stats(fig))["Key-value cache"], "64 MiB");
    assert.equal(await fig.getByLabel("Model", { exact: true }).inputValue(), "custom");

    // A file dropped on the figure is read as a pasted one.
    await fig.evaluate((el, text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], "config.json", { type: "application/json" }));
      el.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, fixture("gpt-oss-20b"));
    await page.waitForFunction(() => document.getElementById("model-figure").result.shape.layers === 24);
    assert.equal(await fig.locator(".model-kinds").textContent(), "24 layers: 12 full, 12 sliding (128 tokens)");
    assert.equal(await fig.getByLabel("config.json", { exact: true }).inputValue(), fixture("gpt-oss-20b"));
    // Reset goes back to the page's own configuration.
    await fig.getByRole("button", { name: "Reset" }).click();
    assert.equal(await fig.locator(".model-kinds").textContent(), "8 layers: 8 full");
    assert.deepEqual(errors, []);
    await page.close();

    // With the script in the page's head, the element is connected before its child is parsed:
    // the figure still starts from the inline configuration once it arrives.
    fs.writeFileSync(
      path.join(dir, "course-head.html"),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title>
<script src="llmmath-widgets.js"></script></head><body>
<llm-model id="model-figure" tokens="1024" batch="2">
  <script type="application/json">${inline}</script>
</llm-model></body></html>`,
    );
    const early = await browser.context.newPage();
    early.on("pageerror", (e) => errors.push(e.message));
    await early.goto(pathToFileURL(path.join(dir, "course-head.html")).href);
    await early.waitForFunction(() => document.getElementById("model-figure")?.hasAttribute("data-ready"));
    assert.equal(await early.locator("#model-figure .model-kinds").textContent(), "8 layers: 8 full");
    assert.deepEqual(errors, []);
    await early.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("model: chunked layers (a pasted Llama 4 configuration) hold their chunk: their area is flat beyond it", async () => {
  // No built-in model has chunked layers; Llama 4 Scout's text shape, cut to 8 layers, pasted
  const llama4 = JSON.stringify({
    model_type: "llama4",
    text_config: {
      model_type: "llama4_text",
      num_hidden_layers: 8,
      hidden_size: 5120,
      num_attention_heads: 40,
      num_key_value_heads: 8,
      head_dim: 128,
      intermediate_size: 8192,
      intermediate_size_mlp: 16384,
      num_local_experts: 16,
      num_experts_per_tok: 1,
      vocab_size: 202048,
      attention_chunk_size: 8192,
      max_position_embeddings: 10485760,
    },
  });
  const { page, errors, fig } = await figureOf();
  await fig.getByLabel("config.json", { exact: true }).fill(llama4);
  assert.equal(await fig.locator(".model-message").textContent(), "");
  assert.match(await fig.locator(".model-kinds").textContent(), /^8 layers: 2 full, 6 chunked \(8,192 tokens\)$/);
  const table = await cacheTable(fig);
  const chunked = table.columns.indexOf("chunked layers (6)");
  assert.ok(chunked > 0, table.columns.join(", "));
  const beyond = table.rows.filter(([x]) => Number(x.replace(/,/g, "")) >= 8192);
  assert.ok(beyond.length > 5);
  assert.equal(
    new Set(beyond.map((r) => r[chunked])).size,
    1,
    "the chunked layers' cache is the same from 8,192 tokens on",
  );
  const { now } = await coreFor(page, llama4);
  const shown = await page.evaluate(() => document.getElementById("model-figure").result.now);
  assert.deepEqual(shown.byKind, now.byKind);
  assert.match(await fig.locator(".worked").textContent(), /tokens held \(the chunk\) × 6 layers/);
  await fig.screenshot({ path: artifact("model-llama4-chunked.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

/** The verdict's sentences, the readouts and the fields the tests read. */
const verdict = (fig) => fig.locator(".model-verdict").innerText();
const field = (fig, label) => fig.getByLabel(label, { exact: true });

test("model: a context past the model's limit is shown at the limit, slider and field agreeing, with a note; picking a model moves the context there", async () => {
  const { fmtBytes, fmtCount } = await format;
  // a link asks GPT-2 (1,024 positions) for 32,768 tokens
  const { page, errors, fig } = await figureOf({}, "&model=gpt2&tokens=32768");
  assert.equal(await field(fig, "Tokens n").inputValue(), "1024");
  assert.equal(await fig.locator(".model-context output").textContent(), "1,024");
  const note = fig.locator(".model-cap-note");
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /32,768 tokens were asked for; GPT-2 small reads at most 1,024/);
  const { now } = await coreFor(page, fixture("gpt2"));
  assert.equal(now.beyondContext, true); // the figure asks at the state's tokens: the core flags it
  const s = await stats(fig);
  assert.equal(s["Key-value cache"], fmtBytes(2 * 12 * 64 * 12 * 1024 * 2)); // at 1,024, not 32,768
  assert.match(await verdict(fig), /each sequence can reach the model's 1,024-token limit/);
  // the reader picks Gemma 2 9B (8,192 positions) from the list: the context becomes 8,192
  await fig.getByLabel("Model", { exact: true }).selectOption("gemma-2-9b");
  await page.waitForFunction(() => document.getElementById("model-figure").state.tokens === 8192);
  assert.equal(await note.isVisible(), false);
  const gemma = await coreFor(page, fixture("gemma-2-9b"));
  assert.equal(gemma.now.beyondContext, false);
  assert.equal((await stats(fig))["Key-value cache"], fmtBytes(gemma.now.kvBytes));
  // the marker is the cache at 8,192 (Gemma 2 9B's 21 sliding layers hold 4,096 of them): within
  // the chart, which ends at 8K
  assert.equal(gemma.now.kvBytes, 2 * 8 * 256 * 2 * (21 * 8192 + 21 * 4096));
  assert.match(
    await fig.locator(".model-cache").textContent(),
    new RegExp(`At the marked context of 8,192 tokens the cache is ${fmtBytes(gemma.now.kvBytes)}`),
  );
  assert.equal(fmtCount(gemma.now.fit.maxTokens), (await stats(fig))["Longest context that fits"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: the file's weight format is read and shown, and can be overridden", async () => {
  const { fmtBytes } = await format;
  const { page, errors, fig } = await figureOf({}, "&model=deepseek-v3&tokens=4096");
  const { shape, now } = await coreFor(page, fixture("deepseek-v3"));
  assert.equal(shape.weights.format, "fp8-block128");
  assert.equal(now.weightsFormat, "fp8-block128");
  const s = await stats(fig);
  assert.equal(s.Weights, fmtBytes(shape.weights.bytes)); // 627 GiB, not the 1.22 TiB of bf16
  assert.equal(s.Weights, "627 GiB");
  assert.match(await fig.locator(".model-read").innerText(), /fp8-block128, 627 GiB/);
  assert.match(
    await fig.locator(".model-weights-note").innerText(),
    /FP8 \(e4m3\) with a float32 scale per 128 × 128 block/,
  );
  await fig.getByLabel("Weights stored").selectOption("bf16");
  await page.waitForFunction(() => document.getElementById("model-figure").state.weightFormat === "bf16");
  const bf16 = await coreFor(page, fixture("deepseek-v3"));
  assert.equal((await stats(fig)).Weights, fmtBytes(bf16.now.weightsBytes));
  assert.equal((await stats(fig)).Weights, "1.22 TiB");
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: DeepSeek-V3 needs 16 × H100 by its weights alone, and fits on 8 × H200 with the spare and the floor said", async () => {
  const { fmtBytes, fmtCount, fmtRate } = await format;
  const { page, errors, fig } = await figureOf({}, "&model=deepseek-v3&tokens=32768&batch=8");
  // one H100: the weights alone do not fit; the verdict names how many devices they need
  const one = await coreFor(page, fixture("deepseek-v3"));
  assert.equal(one.now.fit.limitedBy, "weights");
  assert.equal(one.now.fit.devicesNeeded, 16);
  const first = await verdict(fig);
  assert.match(first, /The weights alone do not fit/);
  assert.match(first, /They need 16 × H100 SXM 80 GB \(split over 16\)/);
  assert.doesNotMatch(first, /Largest batch 0/);
  // eight H200s
  await fig.getByLabel("Device", { exact: true }).selectOption("h200");
  await field(fig, "Devices").fill("8");
  await page.waitForFunction(() => document.getElementById("model-figure").state.devices === 8);
  assert.match(await verdict(fig), /Fits on 8 × H200 SXM 141 GB \(split over 8\)/);
  const eight = await coreFor(page, fixture("deepseek-v3"));
  assert.equal(eight.now.tensorParallel, 8);
  assert.equal(eight.now.fit.fits, true);
  const text = await verdict(fig);
  assert.match(text, new RegExp(`\\(split over 8\\): ${fmtBytes(eight.now.fit.spareBytes)} to spare per device`));
  assert.match(text, new RegExp(`the memory stops each sequence at ${fmtCount(eight.now.fit.maxTokens)} tokens`));
  assert.match(text, new RegExp(`Decoding floor: ${fmtRate(eight.now.decode.tokensPerSecond)} tokens/s`));
  assert.equal((await stats(fig))["Decoding floor"], `${fmtRate(eight.now.decode.tokensPerSecond)} tokens/s`);
  // the calculation writes the floor out: bytes moved over the bandwidth
  const worked = await fig.locator(".worked").innerText();
  assert.match(worked, new RegExp(`${fmtBytes(eight.now.decode.bytesPerStep)} ÷ 4,800 GB/s`));
  assert.match(worked, /57\.4 of 256 experts a layer touched/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: the speed chart is the core's floor along the context, and a custom device's bandwidth sets it", async () => {
  const { page, errors, fig } = await figureOf({}, "&model=llama-3.1-8b&tokens=8192&batch=4");
  const speed = fig.locator(".model-speed");
  assert.equal(await speed.isVisible(), true);
  const rows = await fig.locator(".model-speed .chart-data tbody tr").count();
  assert.ok(rows > 10);
  const sweep = await page.evaluate(async () => {
    const el = document.getElementById("model-figure");
    const core = await createLLMMath();
    const shape = el.result.shape;
    return core.modelCostSweep(shape, { ...el.inputs, tokens: el.result.sweep.tokens }).tokensPerSecond;
  });
  assert.deepEqual(
    await page.evaluate(() => document.getElementById("model-figure").result.sweep.tokensPerSecond),
    sweep,
  );
  assert.ok(sweep[0] > sweep.at(-1)); // a longer cache to read each step
  // a custom device with a slower memory: the floor follows the typed bandwidth (the rest the H100's)
  await fig.getByLabel("Device", { exact: true }).selectOption("custom");
  await field(fig, "Bandwidth (GB/s)").fill("1000");
  await page.waitForFunction(() => document.getElementById("model-figure").state.bandwidth === 1000);
  const slow = await page.evaluate(() => document.getElementById("model-figure").result.now.decode);
  assert.equal(slow.memorySeconds, slow.bytesPerStep / 1e12);
  assert.match(await fig.locator(".model-device-note").innerText(), /custom device: .*1,000 GB\/s/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: sliding layers keep their window or every token, as the engine is set", async () => {
  const { fmtBytes } = await format;
  const { page, errors, fig } = await figureOf({}, "&model=gpt-oss-20b&tokens=8192");
  const windowed = await coreFor(page, fixture("gpt-oss-20b"));
  assert.equal((await stats(fig))["Key-value cache"], fmtBytes(windowed.now.kvBytes));
  await fig.getByLabel("Windowed layers keep").selectOption("full");
  await page.waitForFunction(() => document.getElementById("model-figure").state.slidingCache === "full");
  const full = await coreFor(page, fixture("gpt-oss-20b"));
  assert.equal(full.now.kvBytes, 2 * 8 * 64 * 2 * 24 * 8192);
  assert.equal((await stats(fig))["Key-value cache"], fmtBytes(full.now.kvBytes));
  // a model without windows has no such choice
  await fig.getByLabel("Model", { exact: true }).selectOption("llama-3.1-8b");
  await page.waitForFunction(() => document.getElementById("model-figure").state.model === "llama-3.1-8b");
  assert.equal(await fig.getByLabel("Windowed layers keep").isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test("model: the embed code of a pasted configuration carries it", async () => {
  const { page, errors, fig } = await figureOf({}, "");
  // a configuration longer than a link carries (DeepSeek-V3's, with its spaces)
  const text = fixture("deepseek-v3").replace(
    '"model_type": "deepseek_v3"',
    '"model_type": "deepseek_v3", "note": "' + "x".repeat(1600) + '"',
  );
  await fig.locator(".model-text").fill(text);
  await page.waitForFunction(() => document.getElementById("model-figure").tooLarge());
  const carried = await page.evaluate(() => document.getElementById("model-figure").embedData());
  assert.deepEqual(carried.settings[0], ["model", "custom"]);
  assert.equal(
    carried.settings.some(([n]) => n === "config"),
    false,
  );
  assert.equal(JSON.parse(carried.inline).kv_lora_rank, 512);
  // a short one goes in the config attribute
  await fig.locator(".model-text").fill(JSON.stringify({ ...JSON.parse(fixture("llama-3.1-8b")) }));
  await page.waitForFunction(() => document.getElementById("model-figure").state.config !== "");
  assert.equal(await page.evaluate(() => document.getElementById("model-figure").embedData()), null);
  assert.deepEqual(errors, []);
  await page.close();
});

// Exercise 4b, by hand from Llama 3.1 8B's config.json (bf16, untied embeddings): 8,030,261,248
// parameters, 525,336,576 of them the input embedding (128,256 × 4,096), of which a step reads
// one row of 4,096; a cache of 32 layers · 8 KV heads · 128 · 2 (key and value) · 2 bytes per token.
const HAND = (() => {
  const weights = (8030261248 - 525336576 + 4096) * 2; // 15,009,857,536 bytes
  const cache = 4096 * 32 * 8 * 128 * 2 * 2; // 536,870,912 bytes
  return { weights, cache, tokensPerSecond: 3350e9 / (weights + cache) }; // 215.479…
})();

test("model: exercise 4b expects the core's decoding floor for Llama 3.1 8B on one H100 SXM at 4,096 tokens, and for a batch of 8 in its follow-up, hints the typical wrong numbers, and holds the figure's tokens a second back until both are right", async () => {
  // The core in Node, at the exercise's stated inputs, against the calculation by hand.
  const m = await require(path.join(dist, "llmmath.js"))();
  const { deviceById, servingDevices } = await import(
    pathToFileURL(path.join(__dirname, "..", "..", "site", "src", "widgets", "model", "model-devices.js")).href
  );
  const h100 = deviceById("h100-sxm");
  const shape = m.modelFromConfigText(fixture("llama-3.1-8b"));
  const full = m.modelCost(shape, {
    tokens: 4096,
    batch: 1,
    devices: servingDevices(h100),
  });
  const d = full.decode;
  // Whole bytes: exact. The rate: a quotient of the same doubles, to 1e-9 relative.
  assert.equal(d.weightsBytesRead, HAND.weights);
  assert.equal(d.kvBytesRead, HAND.cache);
  assert.ok(Math.abs(d.tokensPerSecond / HAND.tokensPerSecond - 1) < 1e-9, `${d.tokensPerSecond}`);
  assert.equal(d.bound, "memory");
  const { fmtRate, fmtBytes } = await format;

  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#model-figure");
  const answer = page.locator("llm-answer-model");
  const exercise = page.locator("#cost .exercise", { has: answer });
  assert.equal(await exercise.locator("h3").textContent(), "Exercise 4b");
  // The figure opens at the exercise's statement.
  const state = await fig.evaluate((el) => ({ ...el.state }));
  assert.deepEqual(
    [state.model, state.tokens, state.batch, state.device, state.devices, state.weightFormat],
    ["llama-3.1-8b", 4096, 1, "h100-sxm", 1, "file"],
  );
  // The expected value is the core's, for the figure as it is; the tolerance about 2%.
  const expected = await answer.evaluate((el) => ({ ...el.first.expected, hints: undefined, label: undefined }));
  assert.ok(Math.abs(expected.value - d.tokensPerSecond) <= 1e-9 * d.tokensPerSecond, `${expected.value}`);
  assert.equal(expected.tolerance, 4); // 2% of 215.5, to one figure
  assert.match(await exercise.locator(".predict-tolerance").first().textContent(), /Counted right within 4,/);

  // Before a right prediction the figure's speed readouts are withheld and say no rate.
  const rate = `${fmtRate(d.tokensPerSecond)} tokens/s`;
  const speedParts = [".model-verdict-speed", ".model-speed-stat", ".model-speed", ".model-worked-speed"];
  const readouts = () =>
    fig.evaluate(
      (el, selectors) =>
        selectors.map((s) => {
          const node = el.shadowRoot.querySelector(s);
          return { s, concealed: node.hasAttribute("data-predict-conceal"), text: node.textContent };
        }),
      speedParts,
    );
  for (const r of await readouts()) {
    assert.equal(r.concealed, true, `${r.s} held back`);
    assert.ok(!r.text.includes(fmtRate(d.tokensPerSecond)), `${r.s}: "${r.text}"`);
  }
  assert.ok(!(await fig.evaluate((el) => el.shadowRoot.textContent)).includes(rate), "no rate anywhere in the figure");
  // Nor does the section's text around the question state it (its examples are another model's);
  // the worked answers wait, closed, in their <details>; a <noscript>'s content (the answer for a
  // reader without scripts, a drawing) is text no one sees or hears where scripts run.
  const around = await page.locator("#cost").evaluate((section) => {
    const copy = section.cloneNode(true);
    for (const body of copy.querySelectorAll("details.answer, noscript")) body.remove();
    return copy.textContent;
  });
  assert.doesNotMatch(around, /\b215(\.\d+)? tokens/);

  /** Types a prediction, presses Check, and returns the status line (written within the submit). */
  const predict = async (text) => {
    await exercise.locator(".predict-input").first().fill(text);
    await exercise.locator(".predict-input").first().press("Enter");
    return exercise.locator(".predict-feedback").first().textContent();
  };
  // The typical wrong numbers, each computed here from the core's bytes over the same bandwidth.
  const B = h100.bandwidthGBs * 1e9;
  const wrong = [
    [B / d.weightsBytesRead, /reads the weights and no cache/], // 223.2: the cache forgotten
    [B / (full.weightsBytes + d.kvBytesRead), /reads the whole input embedding at every step/], // 201.8
    [B / full.weightsBytes, /every weight, the whole input embedding among them, and no cache/], // 208.6
    [1 / d.computeSeconds, /the arithmetic's floor/], // 57,645: operations over the peak
  ];
  for (const [x, hint] of wrong) {
    const said = await predict(x.toFixed(1));
    assert.match(said, /^Not yet: /, said);
    assert.match(said, hint, said);
  }
  for (const r of await readouts()) assert.equal(r.concealed, true, `${r.s} still held back after wrong numbers`);

  // A right number (the rounded floor, within the tolerance) asks the follow-up: a batch of 8.
  const said = await predict("215");
  assert.match(said, /^Right: the figure's inputs give 215\.5, and 215 is within 4 of it\. Now the follow-up/, said);
  assert.equal(await exercise.locator("details").getAttribute("open"), null);
  const batched = m.modelCost(shape, {
    tokens: 4096,
    batch: 8,
    devices: servingDevices(h100),
  }).decode;
  // By hand: the weights once with 8 rows of the embedding, and 8 caches, over the bandwidth; 8 tokens a step.
  const byHand = (8 * 3350e9) / (HAND.weights + 7 * 4096 * 2 + 8 * HAND.cache); // 1,388.2…
  assert.ok(Math.abs(batched.tokensPerSecond / byHand - 1) < 1e-9, `${batched.tokensPerSecond}`);
  const then = exercise.locator(".follow-up-step");
  assert.equal(await then.isVisible(), true);
  const expectedThen = await answer.evaluate((el) => el.second.expected.value);
  assert.ok(Math.abs(expectedThen - batched.tokensPerSecond) <= 1e-9 * byHand, `${expectedThen}`);
  const predictThen = async (text) => {
    await then.locator(".predict-input").fill(text);
    await then.locator(".predict-input").press("Enter");
    return then.locator(".predict-feedback").textContent();
  };
  for (const [x, hint] of [
    [8 * d.tokensPerSecond, /each sequence brings its own cache/], // 1,723.8: the cache read once
    [batched.tokensPerSecond / 8, /each sequence's share/], // 173.5
  ]) {
    const told = await predictThen(x.toFixed(1));
    assert.match(told, /^Not yet: /, told);
    assert.match(told, hint, told);
  }
  for (const r of await readouts()) assert.equal(r.concealed, true, `${r.s} held back until the follow-up`);
  assert.match(await predictThen(batched.tokensPerSecond.toFixed(0)), /^Right: /);
  assert.equal(await exercise.locator("details").getAttribute("open"), "");
  for (const r of await readouts()) {
    assert.equal(r.concealed, false, `${r.s} shown`);
    if (r.s !== ".model-speed") assert.ok(r.text.includes(rate), `${r.s}: "${r.text}" states ${rate}`);
  }
  const worked = await exercise.locator(".answer-body").textContent();
  for (const part of [
    `${fmtBytes(d.weightsBytesRead)} (15,009,857,536 bytes)`,
    `${fmtBytes(d.kvBytesRead)} (536,870,912 bytes)`,
    "15,546,728,448 bytes ÷ 3,350 GB/s",
    "memory-bound",
    "215.5 tokens/s",
    `${batched.tokensPerSecond.toFixed(1).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} tokens/s in all`,
  ])
    assert.ok(worked.includes(part), `the worked answer states ${part}: ${worked}`);
  await exercise.screenshot({ path: artifact("exercise-4b.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// The figure's ranges are the core's where the core sets one: each number such an attribute takes,
// at the top of its range, reaches modelCost and is taken, and the next number up is refused by
// the core, naming the parameter. (The limits are written in model.hpp and again in the figure's
// attributes.js; this holds the two together, as cost.test.js does for Figure 4.1.) A custom
// device's memory, bandwidth and peak, and the reserve, have ranges of the figure's own, inside
// the core's (any positive finite number): their tops are taken.
test("model: each attribute's range is modelCost's where the core has one: its top taken, the next number up refused", async () => {
  const { page, errors } = await figureOf();
  const checked = await page.evaluate(async () => {
    const el = document.getElementById("model-figure");
    const core = await createLLMMath();
    // where each ranged attribute goes in modelCost's options, by what factor, and whether its
    // range is the core's (else the figure's own, inside it)
    const reach = {
      tokens: { path: ["tokens"], core: true },
      batch: { path: ["batch"], core: true },
      devices: { path: ["devices", "count"], core: true },
      block: { path: ["blockTokens"], core: true },
      utilization: { path: ["memoryUtilization"], core: true },
      memory: { path: ["devices", "memoryBytes"], scale: 2 ** 30 },
      bandwidth: { path: ["devices", "bandwidthBytesPerSecond"], scale: 1e9 },
      peak: { path: ["devices", "flopsPerSecond"], scale: 1e12 },
      reserve: { path: ["reserveBytes"], scale: 2 ** 30 },
    };
    const read = (o, path) => path.reduce((v, k) => v?.[k], o);
    const withValue = (o, [k, ...rest], v) => ({ ...o, [k]: rest.length ? withValue(o[k], rest, v) : v });
    const shape = el.shapeOf(el.source());
    const out = [];
    for (const a of el.constructor.attributes) {
      if (!["integer", "number"].includes(a.type) || a.max === undefined) continue;
      const to = reach[a.name];
      if (!to) {
        out.push({ name: a.name, missing: true });
        continue;
      }
      el.setAttribute(a.name, String(a.max));
      const inputs = el.inputs;
      const value = read(inputs, to.path);
      let taken = true,
        refused = "";
      try {
        core.modelCost(shape, inputs);
      } catch (e) {
        taken = String(e.message);
      }
      if (to.core) {
        const next = a.type === "integer" ? a.max + 1 : a.max * (1 + 2 ** -52);
        try {
          core.modelCost(shape, withValue(inputs, to.path, next));
        } catch (e) {
          refused = String(e.message);
        }
      }
      out.push({
        name: a.name,
        key: `opts.${to.path.join(".")}`,
        core: !!to.core,
        max: a.max * (to.scale ?? 1),
        value,
        taken,
        refused,
      });
      el.removeAttribute(a.name);
    }
    return out;
  });
  assert.deepEqual(
    checked.filter((c) => c.missing).map((c) => c.name),
    [],
    "every ranged attribute has its place in modelCost's options here",
  );
  assert.ok(checked.filter((c) => c.core).length >= 5, `${checked.length} ranged attributes`);
  for (const c of checked) {
    assert.equal(c.value, c.max, `${c.name}: the figure passes its top, ${c.max}, as ${c.key}`);
    assert.equal(c.taken, true, `${c.name} at its top: modelCost takes it`);
    if (c.core)
      assert.match(
        c.refused,
        new RegExp(`^${c.key.replace(/\./g, "\\.")} must be`),
        `${c.name}: one past ${c.max} is refused by the core`,
      );
  }
  assert.deepEqual(errors, []);
  await page.close();
});
