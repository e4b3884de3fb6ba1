// nbconvert's HTML of the notebook edition, as a lecturer makes and opens it: the
// embedding guide's recipe (dist/embed-guide.html, <pre data-recipe="nbconvert">: Debian's
// nbconvert, with MathJax and require.js copied beside the page) run in a folder of its own that
// links dist/'s files, and the page it writes opened in Chromium from file://. On that page:
//  - each of the nine exercises (1 to 8, and 4b) has its "Show the answer", closed;
//  - MathJax, from beside the page, typesets every formula of the Markdown;
//  - the live figure, the script embed of the notebook's "Live figures", draws, starting from the
//    final probabilities and the draws the notebook's program for that figure prints, and answers
//    a change of its temperature slider with the engine's numbers; the framed figure draws too,
//    from the same numbers;
//  - no request leaves the folder, and the console shows no error.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, guideRecipe, dist, num } = require("./browser.js");

const browser = useBrowser(test);
const NOTEBOOK = "attention-and-transformers.ipynb";
const notebook = JSON.parse(fs.readFileSync(path.join(dist, NOTEBOOK), "utf8"));
const text = (source) => (Array.isArray(source) ? source.join("") : source);

let folder;
test.before(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-nbconvert-"));
  // the edition's files beside the notebook, as in dist/
  for (const name of fs.readdirSync(dist)) fs.symlinkSync(path.join(dist, name), path.join(folder, name));
  // the guide's commands as they are, with Debian's python3 (the one on a developer's PATH may
  // be another, without nbconvert)
  execFileSync("bash", ["-e", "-c", guideRecipe("nbconvert")], {
    cwd: folder,
    env: { ...process.env, PATH: `/usr/bin:/bin:${process.env.PATH}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
});
test.after(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/**
 * Opens the converted page, recording console and page errors (of the page and its frames) and
 * every request, and waits for MathJax to have typeset it (the template queues the typesetting
 * when MathJax starts; a callback queued after it runs when it is done).
 */
async function openConverted() {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = [];
  const requests = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("request", (req) => requests.push(req.url()));
  await page.goto(pathToFileURL(path.join(folder, "attention-and-transformers.html")).href);
  // the limit is for a machine busy with other builds: MathJax typesets some 360 formulas here
  await page.waitForFunction(() => /** @type {any} */ (window).MathJax?.isReady === true, null, { timeout: 120000 });
  await page.evaluate(() => new Promise((done) => /** @type {any} */ (window).MathJax.Hub.Queue(done)));
  return { page, errors, requests };
}

/** Asserts that every request stayed in the folder of the page (or was data the page holds). */
function assertStayedHome(requests) {
  const home = pathToFileURL(folder).href + "/";
  const away = requests.filter((url) => !url.startsWith(home) && !url.startsWith("data:"));
  assert.deepEqual(away, [], "no request leaves the page's folder");
}

/**
 * The images of the code cells' outputs (a figure drawn by Matplotlib is one), in order, each as
 * { loaded, width }: loaded once the browser has decoded it.
 */
function outputImages(page) {
  return page
    .locator(".jp-OutputArea-output img")
    .evaluateAll((imgs) =>
      imgs.map((img) => ({ loaded: img.complete && img.naturalWidth > 0, width: img.naturalWidth })),
    );
}

/** The quantity `name` as a program cell's saved output prints it ("name = [ … ]"). */
function printed(cell, name) {
  const out = cell.outputs
    .filter((o) => o.output_type === "stream")
    .map((o) => text(o.text))
    .join("");
  const m = new RegExp(`^${name} = (.+)$`, "m").exec(out);
  assert.ok(m, `the program cell prints ${name}`);
  return JSON.parse(m[1]);
}

/** The figure's final probabilities as its chart writes them (3 decimals), by token label. */
function shownFinal(fig) {
  return fig
    .locator(".sampling-table tbody tr:not(.sampling-cut)")
    .evaluateAll((trs) =>
      Object.fromEntries(
        trs.map((tr) => [tr.querySelector("th").textContent, [...tr.querySelectorAll("td.num")].at(-1).textContent]),
      ),
    );
}

test("nbconvert's page has the nine closed answer blocks and typesets every formula offline", async () => {
  const { page, errors, requests } = await openConverted();
  const blocks = await page.locator("details").evaluateAll((all) =>
    all.map((d) => ({
      exercise: d.closest(".jp-Cell")?.querySelector("h3")?.textContent.replace(/¶$/, "").trim(),
      summary: d.querySelector("summary")?.textContent,
      open: d.open,
      answer: d.textContent.slice(d.querySelector("summary")?.textContent.length).trim(),
      // what the closed block shows beyond its summary: nothing, in px
      shown: d.getBoundingClientRect().height - (d.querySelector("summary")?.getBoundingClientRect().height ?? 0),
    })),
  );
  // the exercises' blocks, then the scenarios' at the end
  const exercises = blocks.filter((b) => /^Exercise /.test(b.exercise));
  assert.deepEqual(
    exercises.map((b) => b.exercise),
    ["1", "2", "3", "4", "4b", "5", "6", "7", "8"].map((n) => `Exercise ${n}`),
  );
  const scenarios = blocks.slice(exercises.length);
  assert.equal(scenarios.length, notebook.cells.filter((c) => c.metadata.llmmath?.scenario).length);
  for (const b of scenarios) {
    assert.match(b.exercise, /^Scenario \d+\. /);
    assert.equal(b.summary, "Show the answer", `${b.exercise}: its summary`);
    assert.equal(b.open, false, `${b.exercise}: closed`);
    assert.equal(b.shown, 0, `${b.exercise}: the answers are not shown until asked`);
  }
  for (const b of exercises) {
    assert.equal(b.summary, "Show the answer", `${b.exercise}: its summary`);
    assert.equal(b.open, false, `${b.exercise}: closed`);
    assert.match(b.answer, new RegExp(`^${b.exercise}: \\S`), `${b.exercise}: its answer is in the block`);
    assert.equal(b.shown, 0, `${b.exercise}: the answer is not shown until asked`);
  }
  // Every formula of the Markdown, $…$ and $$…$$ (a \$ is a dollar sign), is typeset: MathJax
  // keeps one element of jax for each, with its output beside it, and none is a TeX error.
  const markdown = notebook.cells
    .filter((c) => c.cell_type === "markdown")
    .map((c) => text(c.source))
    .join("\n\n");
  const formulas = markdown.match(/(?<!\\)\$\$[\s\S]+?\$\$|(?<!\\)\$(?!\$)[\s\S]+?(?<!\\)\$/g) ?? [];
  assert.ok(formulas.length > 100, `the notebook's Markdown has its formulas (${formulas.length})`);
  const typeset = await page.evaluate(() => {
    const hub = /** @type {any} */ (window).MathJax.Hub;
    const jax = hub.getAllJax();
    return {
      count: jax.length,
      drawn: jax.filter((j) => document.getElementById(`${j.inputID}-Frame`)).length,
      // a TeX error is shown as its source (the configuration's noErrors), an unknown command in
      // red (noUndefined); the MathML MathJax keeps beside each says which
      errors: document.querySelectorAll(".mjx-noError, .mjx-merror, merror, [mathcolor='red']").length,
    };
  });
  assert.equal(typeset.count, formulas.length, "one typeset formula for each of the Markdown's");
  assert.equal(typeset.drawn, typeset.count, "each typeset formula is drawn");
  assert.equal(typeset.errors, 0, "no formula is a TeX error");
  // every figure's drawing, decoded at the size Matplotlib saved it (about 7 in at 100 dpi)
  const images = await outputImages(page);
  assert.equal(images.length, notebook.cells.filter((c) => c.metadata.llmmath?.drawing).length);
  assert.equal(images.length, 11);
  for (const [i, img] of images.entries()) {
    assert.ok(img.loaded, `drawing ${i + 1} is decoded`);
    assert.ok(img.width >= 600 && img.width <= 800, `drawing ${i + 1} is ${img.width} px wide`);
  }
  assertStayedHome(requests);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the live figure draws from the notebook's numbers and follows its temperature with the engine's", async () => {
  const { LIVE_FIGURE } = await import(pathToFileURL(path.join(__dirname, "..", "..", "site", "notebook.mjs")).href);
  const program = notebook.cells.find((c) => c.metadata.llmmath?.figure === LIVE_FIGURE);
  const live = notebook.cells.filter((c) => c.metadata.llmmath?.live).map((c) => c.metadata.llmmath.live);
  assert.deepEqual(live, ["script", "frame"], "the notebook ends with the live figure in both forms");
  const probs = printed(program, "probs");
  const draws = printed(program, "draws");

  const { page, errors, requests } = await openConverted();
  // the script embed: the figure's element in the page itself
  const fig = page.locator(".jp-OutputArea-output llm-sampling");
  assert.equal(await fig.count(), 1);
  await fig.scrollIntoViewIfNeeded();
  await page.locator(".jp-OutputArea-output llm-sampling[data-ready]").waitFor({ timeout: 60000 });
  // the framed figure, drawn at once in its page
  const frame = page.frameLocator('.jp-OutputArea-output iframe[src^="embed.html?"]');
  const framed = frame.locator("llm-sampling");
  await frame.locator("llm-sampling[data-ready]").waitFor({ timeout: 60000 });

  // Both start where the notebook's program is: its final probabilities (printed at full
  // precision from long doubles; the engine's doubles agree within 1e-12) and its seeded draws.
  const read = (el) => el.evaluate((e) => ({ probs: [...e.result.full.probs], draws: [...e.result.draws] }));
  for (const [form, el] of [
    ["script", fig],
    ["frame", framed],
  ]) {
    const start = await read(el);
    assert.equal(start.probs.length, probs.length, `${form}: the notebook's tokens`);
    start.probs.forEach((p, i) =>
      assert.ok(Math.abs(p - probs[i]) <= 1e-12, `${form}: token ${i}: ${p} vs ${probs[i]}`),
    );
    assert.deepEqual(start.draws, draws, `${form}: the notebook's draws`);
  }

  // A reader moves the temperature slider down by six steps of 0.05, to T = 0.7.
  const slider = fig.getByLabel("Temperature T");
  await slider.focus();
  for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowLeft");
  assert.equal(await fig.evaluate((e) => e.state.temperature), 0.7);
  // the engine's numbers for the figure's inputs now, computed afresh by the page's engine
  const core = await fig.evaluate(async (e) => {
    const m = await /** @type {any} */ (window).createLLMMath();
    const s = e.state;
    const input = s.probs.length ? { probs: s.probs } : { logits: s.logits };
    const full = m.sampling(input, { temperature: s.temperature, topK: s.topK, topP: s.topP });
    return { probs: [...full.probs], labels: s.labels.map((t) => t.trim()) };
  });
  assert.ok(
    Math.abs(core.probs[0] - probs[0]) > 0.01,
    `the change moves the favourite's probability (${core.probs[0]} vs ${probs[0]})`,
  );
  const now = await read(fig);
  now.probs.forEach((p, i) => assert.ok(Math.abs(p - core.probs[i]) <= 1e-15, `token ${i}: ${p} vs ${core.probs[i]}`));
  const shown = await shownFinal(fig);
  core.labels.forEach((label, i) =>
    assert.ok(
      Math.abs(num(shown[label]) - core.probs[i]) <= 5e-4,
      `${label}: the chart's ${shown[label]} vs the engine's ${core.probs[i]}`,
    ),
  );
  assertStayedHome(requests);
  assert.deepEqual(errors, []);
  await page.close();
});
