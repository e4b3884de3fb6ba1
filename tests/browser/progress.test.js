// The reader's progress for a host (site/src/progress.js): the "llm-progress"
// event on document and <html data-progress>, as a host page sees them while the reader commits
// predictions in the reader; and the progress given back by a host (the attribute set before the
// page's script runs, the "llm-progress-restore" event), after which the exercises show what was
// committed. Figure 9.1 alone reports its score the same way.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, openFigure, guideRecipe } = require("./browser.js");
const { core } = require("./exercise-list.js");

const browser = useBrowser(test);

// What a host page does: the guide's recipe (<pre data-recipe="progress">), run as the first
// script of the page, before the chapter's, with a saveProgress of the host's that keeps each
// progress told. Injected by the browser at the document's start (an init script), so the page's
// policy does not refuse it; it waits for <html>, which the recipe reads.
const RECIPE = guideRecipe("progress").replace(/<\/?script>/g, "");
const HOST = `window.progressSeen = [];
function saveProgress(progress) { window.progressSeen.push(progress); }
new MutationObserver((_, observer) => {
  if (!document.documentElement) return;
  observer.disconnect();
  ${RECIPE}
}).observe(document, { childList: true });`;

/** The last progress event's detail and the attribute's JSON, read together. */
const told = (page) =>
  page.evaluate(() => ({
    event: window.progressSeen.at(-1) ?? null,
    events: window.progressSeen.length,
    attribute: JSON.parse(document.documentElement.getAttribute("data-progress") ?? "null"),
  }));

const EXERCISE_NAMES = ["1", "2", "3", "4", "4b", "5", "6", "7", "8"];

/** Types a number into the exercise's current field and checks it; resolves once its status line says so. */
async function predict(exercise, text) {
  // The step asked now, fixed before the check: a right first number shows the follow-up's.
  const step = exercise
    .locator(".predict-step:visible")
    .nth((await exercise.locator(".predict-step:visible").count()) - 1);
  await step.locator(".predict-input").fill(text);
  await step.locator(".predict-input").press("Enter");
  await step.locator(".predict-feedback:not(:empty)").waitFor();
}

test("llm-progress and data-progress follow the exercises and Figure 9.1, the same JSON both ways", async () => {
  const context = browser.context;
  await context.addInitScript(HOST);
  const { page, errors } = await openReader(context);

  // At the start: nine exercises, none committed; Figure 9.1's 15 scenarios of three steps each.
  let now = await told(page);
  // (JSON keeps the object's order: whole numbers first, so "4b" comes last; a host reads by name)
  assert.deepEqual(Object.keys(now.attribute.exercises).sort(), [...EXERCISE_NAMES].sort());
  for (const name of EXERCISE_NAMES)
    assert.deepEqual(now.attribute.exercises[name], { committed: false, right: false, tries: 0 }, name);
  assert.deepEqual(
    { ...now.attribute.diagnosis, settings: undefined },
    { right: 0, answered: 0, total: 45, settings: undefined },
  );
  assert.deepEqual(now.attribute.score, { raw: 0, max: 9 + 45 });
  assert.equal(now.attribute.complete, false);
  assert.deepEqual(now.event, now.attribute, "the event told what the attribute holds");

  // Exercise 1: a wrong number commits it, not right; then the core's value and the follow-up's.
  const one = page.locator('#attention .exercise:has([for="attention-figure"])');
  await predict(one, "0.5");
  now = await told(page);
  assert.deepEqual(now.attribute.exercises["1"], { committed: true, right: false, tries: 1 });
  assert.deepEqual(now.event, now.attribute);
  const weight = await core(
    page,
    "attention-figure",
    (m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).weights[0][0],
  );
  await predict(one, String(weight));
  const output = await core(
    page,
    "attention-figure",
    (m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).output[0][0],
  );
  await predict(one, String(output));
  assert.equal(await one.locator("details").getAttribute("open"), "", "the right follow-up opened the answer");
  now = await told(page);
  assert.deepEqual(now.attribute.exercises["1"], { committed: true, right: true, tries: 3 });
  assert.deepEqual(now.attribute.score, { raw: 1, max: 54 });
  assert.deepEqual(now.event, now.attribute);

  // Exercise 2's answer opened on request: committed, and not right, even after its number is typed.
  const two = page.locator('#sampling .exercise:has([for="sampling-exercise"])');
  await two.locator("details > summary").click();
  await page.waitForFunction(() => JSON.parse(document.documentElement.dataset.progress).exercises["2"].committed);
  const p = await core(
    page,
    "sampling-exercise",
    (m, s) => m.sampling({ probs: s.probs }, { temperature: s.temperature, topK: s.topK, topP: s.topP }).probs[0],
  );
  await two.locator(".predict-input").first().fill(String(p));
  await two.locator(".predict-input").first().press("Enter");
  await two.locator(".predict-right").first().waitFor();
  now = await told(page);
  assert.deepEqual(now.attribute.exercises["2"], { committed: true, right: false, tries: 1 });

  // Figure 9.1: a first choice at the first scenario, clicked, counts as answered; right if it is
  // the scenario's mechanism.
  await page.locator("#diagnose-figure .diagnose-choice").first().click();
  await page.waitForFunction(() => JSON.parse(document.documentElement.dataset.progress).diagnosis.answered === 1);
  const diagnosis = await page.evaluate(() => {
    const el = /** @type {any} */ (document.getElementById("diagnose-figure"));
    const [picked] = el.state.picks;
    return { picked, right: el.current().s.mechanism === picked ? 1 : 0 };
  });
  now = await told(page);
  assert.equal(now.attribute.diagnosis.right, diagnosis.right);
  assert.equal(now.attribute.diagnosis.settings, `picks=${diagnosis.picked}`);
  assert.deepEqual(now.attribute.score, { raw: 1 + diagnosis.right, max: 54 });
  assert.deepEqual(now.event, now.attribute);
  assert.equal(now.attribute.complete, false, "seven exercises are not committed");
  assert.deepEqual(errors, []);
  await page.close();
});

test("progress given back: data-progress set before the page's script, and llm-progress-restore later", async () => {
  const saved = {
    version: 1,
    exercises: {
      1: { committed: true, right: true, tries: 3 },
      "4b": { committed: true, right: false, tries: 0 },
      // not an exercise of the chapter, and not a number of tries: dropped
      99: { committed: true, right: true, tries: 1 },
      5: { committed: true, right: "yes", tries: -4 },
    },
    diagnosis: { settings: "picks=memory&scenario=1&nonsense=1" },
  };
  const page = await browser.context.newPage();
  // A host that saved the progress (a SCORM package's suspend data) writes it on <html> before
  // the chapter's scripts run.
  await page.addInitScript((json) => {
    new MutationObserver((_, observer) => {
      if (!document.documentElement) return;
      document.documentElement.setAttribute("data-progress", json);
      observer.disconnect();
    }).observe(document, { childList: true });
  }, JSON.stringify(saved));
  const { pathToFileURL } = require("node:url");
  const path = require("node:path");
  const { dist } = require("./browser.js");
  await page.goto(pathToFileURL(path.join(dist, "reader.html")).href);
  await page.waitForSelector("html[data-first-screen]");
  await page.waitForFunction(() => JSON.parse(document.documentElement.dataset.progress ?? "{}").version === 1);
  // data-progress is rewritten once read: the progress as the page has it now.
  await page.waitForFunction(() => document.documentElement.dataset.progress.includes('"total":45'));
  const now = await page.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual(now.exercises["1"], { committed: true, right: true, tries: 3 });
  assert.deepEqual(now.exercises["4b"], { committed: true, right: false, tries: 0 });
  assert.deepEqual(now.exercises["5"], { committed: true, right: false, tries: 0 });
  assert.equal(now.exercises["99"], undefined);
  assert.equal(now.diagnosis.answered, 1);
  assert.equal(now.diagnosis.settings, "picks=memory");
  // The exercise shows what was committed: its answer open, its figure's numbers shown, and why.
  const one = page.locator('#attention .exercise:has([for="attention-figure"])');
  assert.equal(await one.locator("details").getAttribute("open"), "");
  assert.match(
    await one.locator(".predict-feedback").first().textContent(),
    /^On an earlier visit you predicted this right \(3 numbers checked\)/,
  );
  assert.equal(
    await page.locator("#attention-figure[data-predict-first]").count(),
    0,
    "the figure's numbers are shown",
  );
  const three = page.locator('#rope .exercise:has([for="rope-figure"])');
  assert.equal(await three.locator("details").getAttribute("open"), null, "an exercise not saved stays closed");

  // Later, by the event: exercise 3 committed.
  await page.evaluate(() =>
    document.dispatchEvent(
      new CustomEvent("llm-progress-restore", {
        detail: JSON.stringify({ exercises: { 3: { committed: true, right: true, tries: 1 } } }),
      }),
    ),
  );
  assert.equal(await three.locator("details").getAttribute("open"), "");
  const after = await page.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual(after.exercises["3"], { committed: true, right: true, tries: 1 });
  assert.deepEqual(after.exercises["1"], { committed: true, right: true, tries: 3 }, "what was there stays");
  await page.close();
});

test("Figure 9.1 alone (embed.html) reports its score", async () => {
  const { page, errors } = await openFigure(browser.context, "diagnose");
  await page.evaluate(() => document.getElementById("diagnose-figure").setAttribute("picks", "memory"));
  await page.waitForFunction(() => JSON.parse(document.documentElement.dataset.progress).diagnosis.answered === 1);
  const now = await page.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual(now.exercises, {});
  assert.equal(now.diagnosis.total, 45);
  assert.equal(now.score.max, 45);
  assert.equal(now.complete, false);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Figure 9.1 framed from another origin: llmmath-frame.js hands its progress to the host, on the frame, and from no other frame", async () => {
  const fs = require("node:fs");
  const path = require("node:path");
  const { serve, dist } = require("./browser.js");
  // The edition on one origin: embed.html and its files, and a page that is not ours posting a
  // progress message as ours would (a page of the same site, or one our frame was sent to).
  const FAKE = `<!doctype html><title>Not a figure</title><script>
parent.postMessage({ type: "llmmath:progress", progress: { version: 1, fake: true }, figure: "diagnose", frame: null }, "*");
</script>`;
  const edition = await serve({
    files: (pathname) => path.join(dist, path.basename(pathname)),
    body: (pathname) => (pathname === "/other.html" ? FAKE : null),
  });
  // The course page on another: the frame script and two frames, ours and the other page.
  const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title>
<script src="llmmath-frame.js"></script>
<script>
  window.frameSeen = [];
  document.addEventListener("llm-progress", (event) => frameSeen.push({ from: event.target.id, detail: event.detail }));
</script></head><body>
<iframe id="other" src="${edition.origin}/other.html" title="Another page" onload="window.otherLoaded = true"></iframe>
<iframe id="ours" src="${edition.origin}/embed.html?widget=diagnose&amp;frame=week5" title="Figure 9.1" width="900" height="700"></iframe>
</body></html>`;
  const frameScript = fs.readFileSync(path.join(dist, "llmmath-frame.js"));
  const host = await serve({
    files: () => null,
    body: (pathname) => ({ "/host.html": HOST_PAGE, "/llmmath-frame.js": frameScript })[pathname] ?? null,
  });
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  try {
    await page.goto(`${host.origin}/host.html`);
    await page.waitForFunction(() => window.otherLoaded === true);
    const frame = page.frame({ url: /embed\.html/ });
    await frame.waitForSelector("html[data-ready]");
    // The frame's first progress, at its start: none answered.
    await page.waitForFunction(() => window.frameSeen.some((s) => s.from === "ours"));
    // The reader answers one step in the frame: the host hears of it.
    await frame.evaluate(() => document.getElementById("diagnose-figure").setAttribute("picks", "memory"));
    await page.waitForFunction(() =>
      window.frameSeen.some((s) => s.from === "ours" && s.detail.diagnosis?.answered === 1),
    );
    const seen = await page.evaluate(() => window.frameSeen);
    const last = seen.filter((s) => s.from === "ours").at(-1).detail;
    // what the frame's own page says, passed on whole
    const inFrame = await frame.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
    assert.deepEqual(last, inFrame);
    assert.equal(last.diagnosis.total, 45);
    assert.equal(last.complete, false);
    // and the frame carries it as JSON, for a script that arrives later
    assert.deepEqual(JSON.parse(await page.locator("#ours").getAttribute("data-progress")), inFrame);
    // The other page's message, posted before ours changed (one queue: it was handled first), was not.
    assert.deepEqual(
      seen.filter((s) => s.from !== "ours"),
      [],
      "a progress message from a frame that is not embed.html",
    );
    assert.equal(await page.locator("#other").getAttribute("data-progress"), null);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    edition.close();
    host.close();
  }
});
