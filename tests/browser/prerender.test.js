// The figures' drawings made at build time (site/prerender.mjs, issue 22's first screen first):
// every figure of the reader's pages comes with its first drawing, made by the core as the figure
// makes it, shown with the text before any script has run, inert until the figure draws, and
// given way to the figure's own drawing without moving the page. Where a drawing would say
// something the figure would not (no scripts to answer its controls, settings in the address, an
// exercise's answer), it is not shown or says nothing more than the figure does.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, dist, CHROMIUM, FLAGS } = require("./browser.js");
const { drawingsOnPage, assertEveryDrawingShown, readerWithoutScripts } = require("./in-page.js");

const browser = useBrowser(test);

const read = (file) => fs.readFileSync(path.join(dist, file), "utf8");

/** The figures' elements written in a page: [{ tag, id, attributes, body }]. */
function figureElements(html) {
  return [...html.matchAll(/<(llm-(?!answer-)[a-z-]+) id="([^"]+)"([^>]*)>([\s\S]*?)<\/\1>/g)].map((m) => ({
    tag: m[1],
    id: m[2],
    attributes: m[3],
    body: m[4],
  }));
}

// The reader as it stands before the figures' scripts have run (in-page.js readerWithoutScripts).
let scriptless;
test.before(() => {
  scriptless = readerWithoutScripts(dist);
});
test.after(() => fs.rmSync(scriptless, { recursive: true, force: true }));

/** Opens the script-less reader; returns { page, errors } (console errors include policy violations). */
async function openScriptless({ hash = "", width = 1280, height = 900 } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(pathToFileURL(path.join(scriptless, "reader.html")).href + hash);
  return { page, errors };
}

/** Each figure's text as drawn in the page (its live region, which speaks later, left out). */
function figureTexts(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-figure][id]")].map((el) => {
        const frame = /** @type {Element} */ (el.shadowRoot?.querySelector(".llm-frame"));
        if (!frame) return [el.id, null];
        const copy = /** @type {Element} */ (frame.cloneNode(true));
        for (const x of copy.querySelectorAll(".llm-live")) x.remove();
        // a text area shows its value, which a drawing writes as its text
        const areas = [...frame.querySelectorAll("textarea")];
        [...copy.querySelectorAll("textarea")].forEach((a, i) => (a.textContent = areas[i].value));
        return [el.id, copy.textContent.replace(/\s+/g, " ").trim()];
      }),
    ),
  );
}

test("every figure of the reader's pages carries its drawing, inert, with no style attribute a policy would refuse", () => {
  for (const file of ["reader.html", "reader-standalone.html"]) {
    const figures = figureElements(read(file));
    assert.equal(figures.length, 13, `${file}: the chapter's 13 figures`);
    for (const f of figures) {
      assert.match(f.attributes, /\sdata-prerendered(\s|$)/, `${file} #${f.id}`);
      assert.match(f.attributes, /\sdata-figure="[a-z-]+"/, `${file} #${f.id}`);
      assert.match(f.body, /^<template shadowrootmode="open">[\s\S]*<\/template>$/, `${file} #${f.id}`);
      assert.match(f.body, /<div class="llm-frame[^"]*"[^>]* inert=""/, `${file} #${f.id}: its frame is inert`);
      assert.doesNotMatch(f.body, /\sstyle="/, `${file} #${f.id}: a style attribute`);
      assert.doesNotMatch(f.body, /<script/, `${file} #${f.id}`);
    }
  }
  // reader.html's drawings are styled by files (a host's style-src 'self' allows them), the
  // one-file edition's by blocks its own policy allows by their hashes
  assert.doesNotMatch(figureElements(read("reader.html"))[0].body, /<style>/);
  const standalone = read("reader-standalone.html");
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(standalone)[1];
  const crypto = require("node:crypto");
  for (const f of figureElements(standalone)) {
    assert.doesNotMatch(f.body, /<link /, `reader-standalone.html #${f.id} loads a file`);
    for (const [, css] of f.body.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      const hash = `'sha256-${crypto.createHash("sha256").update(css, "utf8").digest("base64")}'`;
      assert.ok(policy.includes(hash), `reader-standalone.html #${f.id}: a style block its policy does not allow`);
    }
  }
});

test("before any figure's script has run, each figure is on the screen, drawn as the figure draws it", async () => {
  const before = await openScriptless();
  // the first screen is known and shown without the engine; it is never drawn live here
  await before.page.waitForSelector("html[data-first-screen-shown]", { timeout: 10000 });
  assert.equal(await before.page.locator("html[data-first-screen]").count(), 0);
  const drawn = await figureTexts(before.page);
  const seen = await before.page.evaluate(() => {
    const el = document.getElementById("opening-attention");
    const frame = el.shadowRoot.querySelector(".llm-frame");
    const box = frame.getBoundingClientRect();
    const skip = el.shadowRoot.querySelector(".llm-skip");
    return {
      height: box.height,
      inert: frame.inert,
      display: getComputedStyle(frame).display,
      // styled by its sheets: "Skip this figure" is out of sight until focused (widget.css)
      skipPosition: skip ? getComputedStyle(skip).position : null,
      defined: customElements.get("llm-attention") !== undefined,
    };
  });
  assert.equal(seen.defined, false, "no script defined the figures");
  assertEveryDrawingShown(assert, await before.page.evaluate(drawingsOnPage), "Chromium");
  assert.equal(seen.inert, true);
  assert.notEqual(seen.display, "none");
  assert.ok(seen.height > 200, `the opening figure's drawing is ${seen.height} px tall`);
  assert.equal(seen.skipPosition, "absolute", "the drawing's styles applied");
  assert.deepEqual(before.errors, [], "no error and no policy violation");
  await before.page.close();

  const live = await openReader(browser.context);
  const texts = await figureTexts(live.page);
  assert.deepEqual(live.errors, []);
  await live.page.close();
  assert.deepEqual(Object.keys(drawn).sort(), Object.keys(texts).sort());
  for (const id of Object.keys(texts)) {
    assert.ok(drawn[id] && drawn[id].length > 20, `#${id} has no drawing`);
    assert.equal(drawn[id], texts[id], `#${id}: the drawing the page was built with is not what the figure draws`);
  }
});

test("a drawing withholds what the figure's exercise withholds: no digit of an answer is in the page", async () => {
  const { page, errors } = await openScriptless();
  const held = await page.evaluate(() =>
    [...document.querySelectorAll("[data-predict-first]")].map((el) => {
      const withheld = [...el.shadowRoot.querySelectorAll("[data-predict-conceal]")];
      return {
        id: el.id,
        count: withheld.length,
        digits: withheld
          .flatMap((w) => [w, ...w.querySelectorAll("*")])
          .flatMap((n) => [
            ...[...n.childNodes].filter((c) => c.nodeType === 3).map((c) => c.data),
            n.getAttribute("value") ?? "",
            n.getAttribute("aria-label") ?? "",
            n.getAttribute("title") ?? "",
          ])
          .filter((t) => /\d/.test(t)),
        blurred: withheld.length ? getComputedStyle(withheld[0]).filter : "",
      };
    }),
  );
  assert.ok(held.length >= 7, `${held.length} exercise figures`);
  for (const f of held) {
    assert.ok(f.count > 0, `#${f.id} withholds nothing`);
    assert.deepEqual(f.digits, [], `#${f.id} shows what its exercise withholds`);
    assert.match(f.blurred, /blur/, `#${f.id}: the withheld readouts are not blurred`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("each drawing gives way to its figure in place, on a phone and a laptop: the same boxes, and the figure's controls answer", async () => {
  /** Every figure's height, and where the opening figure and what follows it are. */
  const boxes = (page) =>
    page.evaluate(() => {
      const out = Object.fromEntries(
        [...document.querySelectorAll("[data-figure][id]")].map((el) => [el.id, el.getBoundingClientRect().height]),
      );
      out["opening top"] = document.getElementById("opening-attention").getBoundingClientRect().top;
      out["after the opening"] = document.querySelector(".opening + *")?.getBoundingClientRect().top ?? 0;
      return out;
    });
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ]) {
    const { page } = await openScriptless({ width, height });
    await page.waitForSelector("html[data-first-screen-shown]");
    const drawn = await boxes(page);
    await page.close();
    // every figure drawn by its script (the far ones too, as a print asks them)
    const live = await openReader(browser.context, { width, height });
    const drawnLive = await boxes(live.page);
    assert.equal(Object.keys(drawn).length, 15);
    for (const k of Object.keys(drawn))
      assert.ok(
        Math.abs(drawn[k] - drawnLive[k]) <= 4,
        `at ${width} px, ${k}: ${drawn[k]} px drawn at build time, ${drawnLive[k]} px by its script`,
      );
    // live now: the causal mask's box answers
    const weights = () =>
      live.page.evaluate(
        () => document.getElementById("opening-attention").shadowRoot.querySelector(".attention-results").textContent,
      );
    const before = await weights();
    await live.page.evaluate(() =>
      /** @type {HTMLInputElement} */ (
        document.getElementById("opening-attention").shadowRoot.querySelector('input[type="checkbox"]')
      ).click(),
    );
    assert.notEqual(await weights(), before, "the causal mask's box changed nothing");
    assert.deepEqual(live.errors, []);
    await live.page.close();
  }
});

test("without scripts the drawings are not shown, and a link with settings shows each figure only as it draws them", async () => {
  const off = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const page = await (await off.newContext({ javaScriptEnabled: false })).newPage();
    await page.goto(pathToFileURL(path.join(dist, "reader.html")).href);
    const shown = await page.evaluate(() => ({
      scripting: matchMedia("(scripting: none)").matches,
      frame: getComputedStyle(document.getElementById("quantization-figure").shadowRoot.querySelector(".llm-frame"))
        .display,
    }));
    assert.deepEqual(shown, { scripting: true, frame: "none" }, "a drawing shown to a reader whose scripts are off");
  } finally {
    await off.close();
  }

  // settings in the address: the drawings (which do not have them) are hidden, the room kept
  const { page: linked } = await openScriptless({ hash: "#quantization?quantization.bits=4" });
  await linked.waitForTimeout(300);
  const hidden = await linked.evaluate(() => {
    const el = document.getElementById("quantization-figure");
    return { visibility: getComputedStyle(el).visibility, height: el.getBoundingClientRect().height };
  });
  assert.equal(hidden.visibility, "hidden");
  assert.ok(hidden.height > 200, "the hidden drawing keeps its room");
  await linked.close();
  const live = await openReader(browser.context, { lazy: true, hash: "#quantization?quantization.bits=4" });
  await live.page.waitForSelector("#quantization-figure[data-ready]");
  const bits = await live.page.evaluate(() => ({
    visibility: getComputedStyle(document.getElementById("quantization-figure")).visibility,
    state: /** @type {any} */ (document.getElementById("quantization-figure")).state.bits,
  }));
  assert.deepEqual(bits, { visibility: "visible", state: 4 });
  assert.deepEqual(live.errors, []);
  await live.page.close();
});
