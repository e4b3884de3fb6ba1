// Screen readers and slow devices, in headless Chromium:
//  - each figure speaks through one short, polite live region, once the reader pauses, and a
//    worked calculation is never live; a figure whose numbers an exercise hides does not say them;
//  - every chart is an image with a name, a description with the numbers it shows, and its data
//    as a table that assistive technology reads and the eye does not see;
//  - a figure not yet drawn by its script shows the drawing the page was built with (site/
//    prerender.mjs), or says "Computing the figure…", and says so over that drawing once it has
//    waited, on a slow device and while the engine starts; one whose engine cannot start says so in
//    words, and the reader says it at its top.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, openReader, dist, showNumbers } = require("./browser.js");

const browser = useBrowser(test);

// The kit speaks 700 ms after the last change (site/src/kit/announce.js, ANNOUNCE_DELAY); the
// tests wait twice that before reading what was said.
const PAUSE = 1400;
const COMPUTING = "Computing the figure…";
// A live region is one sentence, not a calculation (the worst were 716 to 871 characters).
const MAX_LIVE = 200;

/**
 * Every widget drawn by the kit (an element whose shadow root holds .llm-frame): its id, its
 * live regions ({ politeness, text, cls }) and how many worked calculations lie inside one.
 * A live region is any element with aria-live other than "off", or with a live role (status
 * and log are polite, alert assertive), or an <output> (its implicit role is status).
 */
function widgetsLive(page) {
  return page.evaluate(() => {
    const politeness = (el) => {
      const live = el.getAttribute("aria-live");
      if (live) return live === "off" ? null : live;
      const role = el.getAttribute("role") ?? (el.localName === "output" ? "status" : null);
      return { status: "polite", log: "polite", alert: "assertive" }[role] ?? null;
    };
    return [...document.querySelectorAll("*")]
      .filter((e) => e.shadowRoot?.querySelector(".llm-frame"))
      .map((w) => {
        const all = [...w.shadowRoot.querySelectorAll("*")];
        const live = all.filter(politeness);
        return {
          id: w.id,
          regions: live.map((el) => ({
            politeness: politeness(el),
            text: el.textContent,
            cls: el.getAttribute("class") ?? el.localName,
          })),
          workedInLive: all.filter(
            (el) => el.matches(".worked, .diagnose-lines, .sampling-drawlist") && live.some((l) => l.contains(el)),
          ).length,
        };
      });
  });
}

function assertLiveRegions(figures, when) {
  assert.ok(figures.length >= 10, `${when}: ${figures.length} figures`);
  for (const f of figures) {
    assert.equal(
      f.regions.length,
      1,
      `${when}: ${f.id} has ${f.regions.length} live regions: ${f.regions.map((r) => `${r.cls} (${r.text.length} characters)`).join(", ")}`,
    );
    assert.equal(f.regions[0].politeness, "polite", `${when}: ${f.id}'s live region is polite`);
    assert.ok(
      f.regions[0].text.length <= MAX_LIVE,
      `${when}: ${f.id} says ${f.regions[0].text.length} characters: ${f.regions[0].text}`,
    );
    assert.equal(f.workedInLive, 0, `${when}: ${f.id} has a worked calculation inside a live region`);
  }
}

/**
 * Records what a figure's live region says from now on ({ text, at }), when the reader pressed a
 * key, typed or clicked in it (inputs), and when the figure drew a change (changes: its
 * llm-change, at the end of the update that restarts its wait to speak), all in the page's
 * performance.now().
 */
function recordSpeech(page, id) {
  return page.evaluate((id) => {
    const el = document.getElementById(id);
    const live = el.shadowRoot.querySelector(".llm-live");
    const record = { said: [], inputs: [], changes: [], before: live.textContent };
    window.__speech = record;
    for (const type of ["keydown", "input", "click"])
      el.addEventListener(type, () => record.inputs.push(performance.now()), true);
    el.addEventListener("llm-change", () => record.changes.push(performance.now()));
    new MutationObserver(() => {
      if (record.said.at(-1)?.text !== live.textContent)
        record.said.push({ text: live.textContent, at: performance.now() });
    }).observe(live, { childList: true, characterData: true, subtree: true });
  }, id);
}

/**
 * Waits, by the page's own record, until the figure has spoken after its last change (at most
 * 30 s: a stalled machine delays the kit's 700 ms wait; it does not skip it), then PAUSE more, in
 * which nothing further may be said.
 */
async function speechSettled(page) {
  await page.waitForFunction(
    () => {
      const r = window.__speech;
      return r.changes.length > 0 && (r.said.at(-1)?.at ?? -Infinity) > r.changes.at(-1);
    },
    null,
    { timeout: 30000, polling: 100 },
  );
  await page.waitForTimeout(PAUSE);
}

/**
 * Judges what was said while the reader changed a figure in quick steps, against the figure's
 * changes (the kit speaks 700 ms after the last one): each utterance comes at least 650 ms after
 * the change before it, and there is one, after the last change; more only where the changes
 * themselves paused that long (a loaded machine can stall the keys the test sends, or one
 * drawing, and a figure rightly speaks in such a gap). What was said before the first change
 * belongs to what came before (showing the numbers, on a machine slow to send the first key),
 * and is left out. The changes are timed where the kit restarts its wait, at the end of each
 * drawing, not where the key was pressed: a drawing slowed by load moves the two apart.
 * Returns the last utterance.
 */
function judgeSpeech({ said: all, inputs, changes }, who) {
  assert.ok(inputs.length > 0, `${who}: no input reached the figure`);
  assert.ok(changes.length > 0, `${who}: the figure drew no change`);
  const said = all.filter((x) => x.at > changes[0]);
  const pauses = changes.slice(1).filter((t, i) => t - changes[i] >= 650).length;
  assert.ok(
    said.length >= 1 && said.length <= 1 + pauses,
    `${who} said ${said.length} times over ${changes.length} changes with ${pauses} pauses: ${JSON.stringify(said.map((x) => x.text))}`,
  );
  for (const { text, at } of said) {
    const before = changes.filter((t) => t <= at).at(-1);
    assert.ok(
      at - before >= 650,
      `${who} said “${text}” ${Math.round(at - before)} ms after a change, before the reader paused`,
    );
  }
  const last = said.at(-1);
  assert.ok(last.at > changes.at(-1), `${who}: the last thing said came before the last change`);
  return last;
}

/** Opens the figure's readouts that an exercise blurs ("Show the numbers"), if it does. */
async function reveal(fig) {
  const button = fig.locator(".llm-predict-note button", { hasText: "Show the numbers" });
  if (await button.count()) await button.click();
}

test("every figure has one polite live region of at most 200 characters, no worked calculation in it, and none speaks at the first drawing", async () => {
  const { page, errors } = await openReader(browser.context);
  const figures = await widgetsLive(page);
  assertLiveRegions(figures, "after loading");
  // At most the figure on screen may have said it was computing (on a loaded machine); the others
  // said nothing when they first drew.
  const speaking = figures.filter((f) => f.regions[0].text);
  assert.ok(
    speaking.length <= 1,
    `spoke at the first drawing: ${speaking.map((f) => `${f.id}: ${f.regions[0].text}`).join("; ")}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

// Each figure changed quickly (about ten steps: key presses on a slider, characters typed, or a
// choice), and the readout whose number its summary must then name, as the figure shows it: a
// selector in its shadow root, or { vector: cells } for a row of cells written "(a, b, c)".
const CHANGES = [
  { id: "dilution-figure", slider: "Distractors n", shown: ".headline strong" },
  { id: "sampling-figure", slider: "Temperature T", shown: ".headline strong:last-of-type" },
  { id: "rope-figure", slider: "Query position m", shown: ".headline .rope-scaled" },
  { id: "cost-figure", slider: "Tokens n, in powers of two", shown: ".cost-stats dd strong" },
  { id: "speculative-figure", slider: "Acceptance rate α", shown: ".speculative-headline-expected" },
  { id: "alibi-figure", slider: "Evidence distance δ", shown: ".alibi-factor" },
  { id: "quantization-figure", slider: "Migration strength α", shown: ".error-quantized-smoothed" },
  { id: "moe-figure", cell: "logit of token 1 (The) for expert 1", type: "3.25", shown: ".moe-loss" },
  // Query 1's row of weights, written as the summary writes a vector.
  {
    id: "attention-figure",
    cell: "Q row 1 (The), column 1",
    type: "2.5",
    shown: { vector: ".attention-results .table-view:nth-child(2) tbody tr:first-child td" },
  },
  // The right mechanism, then the calculation's first bold number.
  { id: "diagnose-figure", choose: true, shown: ".diagnose-lines strong" },
];

for (const change of CHANGES) {
  test(`${change.id}: changed in quick steps, its summary is said once, after the pause, and names the new number`, async () => {
    const { page, errors } = await openReader(browser.context, { hash: `#${change.id}` });
    const fig = page.locator(`#${change.id}`);
    await reveal(fig);
    await recordSpeech(page, change.id);
    if (change.slider) {
      await fig.getByLabel(change.slider, { exact: true }).focus();
      for (let i = 0; i < 10; i += 1) await page.keyboard.press("ArrowRight");
    } else if (change.cell) {
      const cell = fig.getByLabel(change.cell, { exact: true });
      await cell.selectText();
      await cell.pressSequentially(change.type, { delay: 40 });
    } else {
      await page.evaluate((id) => {
        const el = document.getElementById(id);
        el.buttons.get(el.current().s.mechanism).click();
      }, change.id);
    }
    await speechSettled(page);
    const record = await page.evaluate(() => window.__speech);
    const { text } = judgeSpeech(record, change.id);
    assert.notEqual(text, record.before);
    assert.ok(text.length > 0 && text.length <= MAX_LIVE, `${text.length} characters: ${text}`);
    const shown = await fig.evaluate(
      (el, shown) =>
        shown.vector
          ? `(${[...el.shadowRoot.querySelectorAll(shown.vector)].map((td) => td.textContent).join(", ")})`
          : el.shadowRoot.querySelector(shown).textContent,
      change.shown,
    );
    assert.ok(shown && text.includes(shown), `the summary “${text}” names the figure's ${shown}`);
    assertLiveRegions(await widgetsLive(page), `after changing ${change.id}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("while an exercise hides a figure's numbers, its summary names the new setting but not the hidden number", async () => {
  const { page } = await openReader(browser.context, { hash: "#sampling-exercise" });
  for (const { id, slider, setting } of [
    { id: "sampling-exercise", slider: "Temperature T", setting: "Temperature " },
    { id: "speculative-figure", slider: "Acceptance rate α", setting: "α = " },
  ]) {
    const fig = page.locator(`#${id}`);
    await fig.scrollIntoViewIfNeeded();
    assert.equal(await fig.getAttribute("data-predict-first"), "", `${id} is concealed by its exercise`);
    await recordSpeech(page, id);
    await fig.getByLabel(slider, { exact: true }).focus();
    for (let i = 0; i < 10; i += 1) await page.keyboard.press("ArrowRight");
    await speechSettled(page);
    const record = await page.evaluate(() => window.__speech);
    const { text } = judgeSpeech(record, id);
    const everything = record.said.map((x) => x.text).join(" ");
    // The exercise's answer and its follow-up's for the figure as it is now, as the answer itself would write them.
    const answers = await page.evaluate((id) => {
      const a = document.querySelector(`[for="${id}"]`);
      return [a.first.expected.value, a.second.expected.value];
    }, id);
    for (const answer of answers)
      for (const digits of [2, 3, 4]) {
        const written = String(Number(answer.toFixed(digits)));
        assert.ok(
          !everything.includes(written),
          `${id}: “${everything}” gives away the answer ${answer} as ${written}`,
        );
      }
    // The new setting as the slider's output shows it.
    const value = await fig
      .getByLabel(slider, { exact: true })
      .evaluate((input) => input.parentElement.querySelector("output").textContent);
    assert.ok(text.includes(`${setting}${value}`), `${id}: “${text}” names the new setting, ${setting}${value}`);
    assert.match(text, /hidden until you answer/);
  }
  await page.close();
});

test("every chart is an image with a name, a description with numbers the figure shows, and a hidden data table; both follow the figure", async () => {
  const { page } = await openReader(browser.context);
  await showNumbers(page); // the charts' descriptions, not held back by an exercise
  const charts = await page.evaluate(() => {
    const out = [];
    const numbers = (text) => (text.replace(/−/g, "-").match(/\d[\d,]*(?:\.\d+)?/g) ?? []).filter((n) => n.length >= 2);
    for (const w of [...document.querySelectorAll("*")].filter((e) => e.shadowRoot?.querySelector(".llm-frame"))) {
      const root = w.shadowRoot;
      // What the eye can read in the figure: text neither hidden nor clipped away, nor the
      // charts' own descriptions and tables.
      const seen = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest("[hidden], .visually-hidden, .chart-data, title") || !el.checkVisibility()) continue;
        seen.push(n.textContent);
      }
      const visible = new Set(numbers(seen.join(" ")));
      for (const svg of root.querySelectorAll("svg.chart")) {
        const description = root.getElementById(svg.getAttribute("aria-describedby") ?? "");
        const table = root.getElementById(svg.getAttribute("aria-details") ?? "");
        const box = table?.parentElement.getBoundingClientRect();
        const live = (el) => !!el?.closest("[aria-live]:not([aria-live=off]), [role=status], [role=log], [role=alert]");
        out.push({
          figure: w.id,
          role: svg.getAttribute("role"),
          name: svg.getAttribute("aria-label"),
          description: description?.textContent ?? null,
          descriptionHidden: description?.hidden ?? null,
          shownInDescription: numbers(description?.textContent ?? "").filter((n) => visible.has(n)),
          caption: table?.caption?.textContent ?? null,
          headers: table ? [...table.querySelectorAll("thead th[scope=col]")].map((th) => th.textContent) : [],
          rows: table?.tBodies[0]?.rows.length ?? 0,
          tableSize: box ? [box.width, box.height] : null,
          live: live(description) || live(table),
        });
      }
    }
    return out;
  });
  // dilution 1, rope 1, cost 1, speculative 1, alibi 2, quantization 3, moe 1.
  assert.ok(charts.length >= 10, `${charts.length} charts`);
  for (const c of charts) {
    const where = `${c.figure}: “${c.name}”`;
    assert.equal(c.role, "img", where);
    assert.ok(c.name, `${where} has a name`);
    assert.ok(c.description, `${where} has a description`);
    assert.equal(c.descriptionHidden, true, `${where}: the description is read, not shown`);
    assert.ok(
      c.shownInDescription.length > 0,
      `${where}: the description “${c.description}” states a number the figure shows`,
    );
    assert.ok(c.caption, `${where}: the table has a caption`);
    assert.ok(c.headers.length >= 2 && c.headers.every(Boolean), `${where}: column headers ${c.headers}`);
    assert.ok(c.rows >= 2, `${where}: ${c.rows} rows`);
    assert.ok(c.tableSize[0] <= 1 && c.tableSize[1] <= 1, `${where}: the table takes ${c.tableSize} px on screen`);
    assert.equal(c.live, false, `${where}: description and table are not live`);
  }
  // The description follows the figure: a new count of distractors is the marked point.
  const fig = page.locator("#dilution-figure");
  const description = () =>
    fig.evaluate((el) => {
      const svg = el.shadowRoot.querySelector("svg.chart");
      return el.shadowRoot.getElementById(svg.getAttribute("aria-describedby")).textContent;
    });
  assert.match(await description(), /The marked point, n = 10, gives/);
  await fig.getByLabel("Distractors n", { exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.getElementById("dilution-figure").state.distractors === 20);
  assert.match(await description(), /The marked point, n = 20, gives/);
  await page.close();
});

/** A copy of `files` of dist/ in a folder of their own; returns the folder. */
function copyOf(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-sr-"));
  for (const f of files) fs.cpSync(path.join(dist, f), path.join(dir, f), { recursive: true });
  test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openFile(file, { ready }) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await ready(page);
  return { page, errors };
}

const CANNOT_RUN =
  "This figure cannot run: the engine did not start (the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'). The text and the answers still read.";

/** Each widget's placeholder text (visible or not) and live region, once every one has settled. */
function settled(page) {
  return page.evaluate(async () => {
    const widgets = [...document.querySelectorAll("*")].filter(
      (e) => e.localName.startsWith("llm-") && !e.localName.startsWith("llm-answer-"),
    );
    await Promise.all(widgets.map((el) => customElements.whenDefined(el.localName)));
    for (const el of widgets) el.drawNow(); // every one, not only those near the screen
    await Promise.all(widgets.map((el) => el.ready));
    return widgets.map((el) => {
      const p = el.shadowRoot.querySelector(".llm-pending");
      return {
        id: el.id,
        pending: p?.textContent ?? null,
        visible: p?.checkVisibility() ?? false,
        live: el.shadowRoot.querySelector(".llm-live")?.textContent ?? null,
      };
    });
  });
}

test("on a course page whose policy forbids WebAssembly, every figure says in words that it cannot run, its exercise does not pretend to check, and nothing throws", async () => {
  const dir = copyOf(["llmmath-widgets.js"]);
  fs.copyFileSync(path.join(__dirname, "fixtures", "no-wasm.html"), path.join(dir, "no-wasm.html"));
  const { page, errors } = await openFile(path.join(dir, "no-wasm.html"), { ready: () => {} });
  const figures = await settled(page);
  assert.equal(figures.length, 10);
  for (const f of figures) {
    assert.equal(f.pending, CANNOT_RUN, f.id);
    assert.ok(f.visible, `${f.id}: the message is on screen`);
  }
  // Said aloud once for the page, not by every figure.
  assert.ok(figures.filter((f) => f.live).length <= 1, JSON.stringify(figures.map((f) => f.live)));
  const answer = page.locator("llm-answer-attention");
  await answer.locator("input").first().fill("1");
  await answer.getByRole("button", { name: "Check" }).click();
  assert.match(
    await answer.getByRole("status").textContent(),
    /cannot check a prediction here: its engine did not start/,
  );
  assert.match(await answer.locator(".answer-body").textContent(), /its engine did not start here/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the reader without its engine shows one notice under its title, each exercise's answer under it behind a disclosure, and sets data-error", async () => {
  const dir = copyOf(fs.readdirSync(dist));
  const html = fs.readFileSync(path.join(dir, "reader.html"), "utf8");
  assert.ok(html.includes(" 'wasm-unsafe-eval'"), "the reader's policy allows WebAssembly: remove it for this test");
  fs.writeFileSync(path.join(dir, "reader.html"), html.replace(" 'wasm-unsafe-eval'", ""));
  // the first figure that cannot start says so for the page (the others, far down, wait)
  const { page, errors } = await openFile(path.join(dir, "reader.html"), {
    ready: (p) => p.waitForSelector("html[data-error]", { timeout: 20000 }),
  });
  assert.equal(
    await page.getAttribute("html", "data-error"),
    "the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'",
  );
  const notice = page.locator(".engine-notice");
  assert.equal(await notice.count(), 1);
  assert.equal(await notice.getAttribute("role"), "alert");
  assert.match(
    await notice.locator("p").first().textContent(),
    /The figures cannot run here\. The chapter's calculation engine did not start \(the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'\)/,
  );
  const box = await notice.boundingBox();
  assert.ok(box && box.y < 900, `the notice is on the first screen (at ${box?.y} px)`);
  assert.match(
    await notice.textContent(),
    /each exercise's answer, as computed when the page was built, is under the exercise/,
  );
  // each exercise's answer under it, closed: 1 to 8 and 4b
  const answers = await page.evaluate(() =>
    [...document.querySelectorAll(".exercise > details.noscript-answer")].map((d) => [
      d.closest(".exercise")?.querySelector("h3")?.textContent,
      d.open,
      /\d/.test(d.textContent ?? ""),
    ]),
  );
  assert.deepEqual(
    answers,
    ["1", "2", "3", "4", "4b", "5", "6", "7", "8"].map((n) => [`Exercise ${n}`, false, true]),
    "the exercises' answers, each under its exercise, behind a disclosure",
  );
  for (const f of await settled(page)) assert.equal(f.pending, CANNOT_RUN, f.id);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Opens the reader at `hash` with the CPU slowed `rate` times (and, with `engineDelay`, the
 * engine's WebAssembly.instantiate held back that many ms), recording at every animation frame
 * until `id` has drawn: whether it is built, drawn, and shows "Computing the figure…", and which
 * figures said that aloud.
 */
async function slowLoad(id, { rate, engineDelay = 0 }) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.addInitScript(
    ({ id, engineDelay, COMPUTING }) => {
      if (engineDelay) {
        for (const name of ["instantiate", "instantiateStreaming"]) {
          const original = WebAssembly[name];
          WebAssembly[name] = (...args) =>
            new Promise((resolve) => setTimeout(resolve, engineDelay)).then(() => original.apply(WebAssembly, args));
        }
      }
      const record = { frames: [], speakers: [] };
      window.__slow = record;
      const frame = () => {
        const el = document.getElementById(id);
        const root = el?.shadowRoot;
        if (root?.querySelector(".llm-frame")) {
          const p = root.querySelector(".llm-pending");
          record.frames.push({
            built: !!root.querySelector(".llm-status"),
            // the drawing the page was built with, inert until the figure draws (site/prerender.mjs)
            drawing: !!root.querySelector(".llm-frame[inert]"),
            ready: el.hasAttribute("data-ready"),
            computing: !!p?.isConnected && p.textContent === COMPUTING && p.checkVisibility(),
          });
          for (const w of document.querySelectorAll("*")) {
            if (w.shadowRoot?.querySelector(".llm-live")?.textContent === COMPUTING && !record.speakers.includes(w.id))
              record.speakers.push(w.id);
          }
          if (el.hasAttribute("data-ready")) return;
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    },
    { id, engineDelay, COMPUTING },
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  await page.goto(pathToFileURL(path.join(dist, "reader.html")).href + `#${id}`);
  await page.waitForSelector(`#${id}[data-ready]`, { timeout: 90000 });
  await page.waitForTimeout(PAUSE); // what a figure that said "computing" says once drawn
  const record = await page.evaluate(() => window.__slow);
  const after = await page.locator(`#${id}`).evaluate((el) => ({
    pending: !!el.shadowRoot.querySelector(".llm-pending"),
    live: el.shadowRoot.querySelector(".llm-live")?.textContent ?? null,
  }));
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await page.close();
  return { ...record, after, errors };
}

test("with the CPU slowed 6 times, the figure on screen shows the drawing the page was built with, or “Computing the figure…”, until it has drawn", async () => {
  const { frames, after, errors } = await slowLoad("attention-figure", { rate: 6 });
  const waiting = frames.filter((f) => !f.ready);
  assert.ok(waiting.length > 0, "frames painted before the figure drew");
  assert.equal(
    waiting.filter((f) => !f.computing && !f.drawing).length,
    0,
    `of ${waiting.length} frames before the figure drew, these show neither its drawing nor Computing`,
  );
  assert.ok(
    waiting.some((f) => f.drawing),
    "the drawing the page was built with is shown before the figure draws",
  );
  assert.equal(after.pending, false, "the placeholder is gone once the figure has drawn");
  assert.deepEqual(errors, []);
});

test("while the engine is slow to start, the figure on screen says “Computing the figure…” over its drawing and aloud, and no other figure does", async () => {
  const { frames, speakers, after, errors } = await slowLoad("attention-figure", { rate: 2, engineDelay: 3000 });
  const waiting = frames.filter((f) => !f.ready);
  assert.ok(waiting.length > 0, "frames before the engine started");
  assert.equal(
    waiting.filter((f) => !f.computing && !f.drawing).length,
    0,
    `of ${waiting.length} frames before the figure drew, these show neither its drawing nor Computing`,
  );
  // 3 s of waiting: past the kit's 600 ms, the drawing says why its controls do not answer yet
  const told = waiting.filter((f) => f.drawing && f.computing);
  assert.ok(
    told.length > waiting.length / 2,
    `${told.length} of ${waiting.length} frames say Computing over the drawing`,
  );
  assert.deepEqual(speakers, ["attention-figure"], "only the figure on screen says it is computing");
  assert.equal(after.pending, false);
  assert.notEqual(after.live, COMPUTING, "once drawn it no longer says Computing");
  assert.deepEqual(errors, []);
});
