// The figures' drawings made at build time (site/prerender.mjs, the first screen first):
// every figure of the reader's pages carries its first drawing, made by the core as the figure
// makes it, in a <noscript data-drawing> (text where scripts run); the page shows the drawings of its first screen,
// and of the screen below, before the figures' script has run (site/src/first-screen.js,
// drawing.js), inert until the figure draws, and each gives way to the figure's own drawing
// without moving the page. Where scripts do not run, the parser shows each drawing (a declarative
// shadow root in the <noscript>), still. Where a drawing would say something the figure would not
// (settings in the address, an exercise's answer), it is not shown or says nothing more than the
// figure does.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, asset, dist, artifact, CHROMIUM, FLAGS } = require("./browser.js");
const { drawingsOnPage, assertDrawingsShown, readerWithoutScripts, PLACES_SHOWN } = require("./in-page.js");

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
  await page.waitForSelector("html[data-first-screen-shown]", { timeout: 10000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return { page, errors };
}

/**
 * Fails unless the live figure `id` kept none of its drawing's style sheets: none of the rules of
 * a drawing's own classes (.llm-drawn-N) is left in its shadow root, and no sheet is there twice.
 */
async function assertDrawingSheetsGone(page, id) {
  const sheets = await page.evaluate(
    (id) =>
      document
        .getElementById(id)
        .shadowRoot.adoptedStyleSheets.map((sheet) => [...sheet.cssRules].map((r) => r.cssText).join("\n")),
    id,
  );
  assert.deepEqual(
    sheets.filter((text) => text.includes(".llm-drawn-")),
    [],
    `#${id} keeps its drawing's styles`,
  );
  assert.equal(new Set(sheets).size, sheets.length, `#${id} has a style sheet twice`);
}

/**
 * Each figure's text as the screen shows it (its live region, which speaks later, and what is not
 * laid out, display: none, left out): its shadow root's frame, or with `fromTemplates` the
 * drawing its data block holds, put for the purpose in a shadow root of its own with the styles
 * the page gives it (the kit's, then its own), as drawing.js shows it.
 */
function figureTexts(page, fromTemplates = false) {
  return page.evaluate((fromTemplates) => {
    const sheet = (css) => {
      const s = new CSSStyleSheet();
      s.replaceSync(css);
      return s;
    };
    const kit = document.getElementById("llm-drawing-kit")?.content.querySelector("style")?.textContent ?? "";
    /** The drawing of `el`'s <noscript>, laid out in a shadow root of a new element; its frame. */
    const laidOut = (el) => {
      const parsed = document.createElement("template");
      parsed.innerHTML = el.querySelector(":scope > noscript[data-drawing]")?.textContent ?? "";
      const templates = [...parsed.content.querySelectorAll("template")];
      const drawing = /** @type {HTMLTemplateElement} */ (templates.find((t) => t.hasAttribute("shadowrootmode")));
      for (const link of drawing.content.querySelectorAll("link")) link.remove();
      const styles = templates.flatMap((t) => [...t.content.querySelectorAll("style")]);
      const host = document.createElement("div");
      document.body.append(host);
      const root = host.attachShadow({ mode: "open" });
      root.adoptedStyleSheets = [kit, ...styles.map((style) => style.textContent ?? "")].map(sheet);
      for (const style of styles) style.remove();
      root.append(drawing.content);
      return root.querySelector(".llm-frame");
    };
    const text = (frame) => {
      const all = [...frame.querySelectorAll("*")];
      const copy = /** @type {Element} */ (frame.cloneNode(true));
      const copies = [...copy.querySelectorAll("*")];
      const unshown = all.flatMap((el, i) =>
        getComputedStyle(el).display === "none" && !el.parentElement?.closest("select") ? [copies[i]] : [],
      );
      for (const x of [...unshown, ...copy.querySelectorAll(".llm-live, style")]) x.remove();
      // a text area shows its value, which a drawing writes as its text
      const areas = [...frame.querySelectorAll("textarea")];
      [...copy.querySelectorAll("textarea")].forEach((a, i) => (a.textContent = areas[i].value));
      return copy.textContent.replace(/\s+/g, " ").trim();
    };
    return Object.fromEntries(
      [...document.querySelectorAll("[data-figure][id]")].map((el) => {
        const frame = fromTemplates ? laidOut(el) : el.shadowRoot?.querySelector(".llm-frame");
        return [el.id, frame ? text(frame) : null];
      }),
    );
  }, fromTemplates);
}

test("every figure of the reader's pages carries its drawing, inert, with its styles as text a policy has no need to allow", () => {
  for (const file of ["reader.html", "reader-standalone.html"]) {
    const html = read(file);
    const figures = figureElements(html);
    assert.equal(figures.length, 13, `${file}: the chapter's 13 figures`);
    for (const f of figures) {
      assert.match(f.attributes, /\sdata-prerendered(\s|$)/, `${file} #${f.id}`);
      assert.match(f.attributes, /\sdata-figure="[a-z-]+"/, `${file} #${f.id}`);
      // reader.html: the drawing's styles as text, then its shadow root for a reader without
      // scripts, which links the kit's and its own as files; the one-file edition: its styles in it
      const shape =
        file === "reader.html"
          ? /^<noscript data-drawing><template><style>[\s\S]*?<\/style><\/template><div data-drawing-host[^>]*><template shadowrootmode="open"><link rel="stylesheet" href="assets\/drawing-kit\.[0-9a-f]{10}\.css"><link rel="stylesheet" href="assets\/drawing-[a-z-]+\.[0-9a-f]{10}\.css">([\s\S]*)<\/template><\/div><\/noscript>$/
          : /^<noscript data-drawing><div data-drawing-host[^>]*><template shadowrootmode="open"><style>[\s\S]*?<\/style><style>[\s\S]*?<\/style>([\s\S]*)<\/template><\/div><\/noscript>$/;
      const [, markup = ""] = shape.exec(f.body) ?? [];
      assert.ok(markup, `${file} #${f.id}: ${f.body.slice(0, 300)}`);
      assert.match(markup, /<div class="llm-frame[^"]*"[^>]* inert=""/, `${file} #${f.id}: its frame is inert`);
      // a style attribute would be refused by a policy without 'unsafe-inline'; a file would be asked for
      assert.doesNotMatch(markup, /\sstyle="|<link |<script|<style/, `${file} #${f.id}`);
    }
    // What a figure would show on no screen and in no print is left out of its drawing, kept as an
    // empty element (site/prerender.mjs emptyUnshown): the compact opening figure's Q, K and V
    // editors; what print shows is kept (an exercise's note of what it holds back).
    const opening = /** @type {{ body: string }} */ (figures.find((f) => f.id === "opening-attention"));
    assert.match(opening.body, /<div class="attention-editors"><\/div>/, `${file}: the opening drawing's editors`);
    assert.doesNotMatch(opening.body, /<input type="number"/, `${file}: the opening drawing keeps hidden editors`);
    const elements = opening.body.match(/<[a-z]/g)?.length ?? 0;
    assert.ok(elements < 100, `${file}: the opening drawing has ${elements} elements`);
    const attention = /** @type {{ body: string }} */ (figures.find((f) => f.id === "attention-figure"));
    assert.match(attention.body, /<span class="llm-predict-print">The numbers Exercise \d/, `${file}: print's note`);
    // the kit's styles once, before the first figure
    assert.equal(html.split('<template id="llm-drawing-kit"><style>').length, 2, `${file}: the kit's styles`);
    assert.ok(html.indexOf('id="llm-drawing-kit"') < html.indexOf("<llm-attention"), file);
  }
});

test("the drawings are what the figures draw, and before any script has run the first screen shows its own", async () => {
  const before = await openScriptless();
  assert.equal(await before.page.locator("html[data-first-screen]").count(), 0, "nothing drew live");
  assertDrawingsShown(assert, await before.page.evaluate(drawingsOnPage), ["opening-attention"], "the top");
  const drawn = await figureTexts(before.page, true);
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

test("a link to a section shows its figure's drawing, just below the screen it opens at, before any script has run", async () => {
  const { page, errors } = await openScriptless({ hash: "#quantization" });
  const all = assertDrawingsShown(
    assert,
    await page.evaluate(drawingsOnPage),
    ["quantization-figure"],
    "#quantization",
  );
  // far from there, none
  for (const id of ["opening-attention", "attention-figure", "diagnose-figure"])
    assert.equal(all.find((f) => f.id === id)?.shown, false, `#${id} was shown, far from the link's place`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the figures' script is asked for only once a frame has painted the text and the first screen is shown, at the top and at a link's place", async () => {
  // Fetched ahead (a preload), its 900 kB were read and parsed on another thread while the page
  // was still being read, and a link's figure came later (first-screen.js, startWidgets).
  for (const hash of ["", "#quantization"]) {
    const where = hash || "the top";
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    // when the first animation frame after reader-head.js ran began (it has added the font's
    // preload), on the page's clock: this callback runs before the page's own in each frame
    await page.addInitScript(() => {
      const look = () => {
        if (document.head?.querySelector('link[rel="preload"][as="font"]') != null)
          /** @type {any} */ (window).__firstFrame = performance.now();
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    const asked = [];
    page.on("request", (req) => req.url().endsWith(asset("llmmath-widgets.js")) && asked.push(req));
    await page.goto(pathToFileURL(path.join(dist, "reader.html")).href + hash);
    await page.waitForSelector("html[data-first-screen]");
    // every request for it has been made once its figures are defined (on a loaded machine the
    // one request may still be on its way when the first screen is marked)
    await page.waitForFunction(() => customElements.get("llm-attention") !== undefined);
    const [origin, shown, painted] = await page.evaluate(() => [
      performance.timeOrigin,
      performance.getEntriesByName("data-first-screen-shown")[0]?.startTime,
      /** @type {any} */ (window).__firstFrame,
    ]);
    assert.equal(asked.length, 1, `${where}: the figures' script asked for ${asked.length} times`);
    assert.equal(typeof shown, "number", `${where}: no data-first-screen-shown`);
    assert.equal(typeof painted, "number", `${where}: no frame after reader-head.js`);
    // the request's start, on the page's clock: after the frame that paints the text read so far
    // began, always (first-screen.js starts it in a task after that frame). After the first screen
    // was shown too, unless that screen waited for the script itself: a figure the parser had not
    // read to its end when the first screen was known (a loaded machine) is drawn by its script,
    // and the mark waits for it.
    const at = asked[0].timing().startTime - origin;
    assert.ok(
      at > painted,
      `${where}: the figures' script asked for at ${at} ms, before the first frame after reader-head.js began at ${painted} ms`,
    );
    const waited = await page.evaluate(() => document.documentElement.hasAttribute("data-first-screen-by-script"));
    if (!waited)
      assert.ok(
        at > shown,
        `${where}: the figures' script asked for at ${at} ms, before the first screen was shown at ${shown} ms`,
      );
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("at the top, the first frame after reader-head.js paints the text alone, and the opening figure's drawing follows within two frames", async () => {
  // Shown before that frame, the drawing made the first paint later by more than a tenth of the
  // text alone's (first-screen.js, textFirst).
  for (let round = 0; round < 3; round += 1) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    // As each animation frame begins (this callback runs before the page's own): whether
    // reader-head.js has run (it has added the font's preload) and the opening figure shows its drawing.
    await page.addInitScript(() => {
      const frames = [];
      /** @type {any} */ (window).__frames = frames;
      const look = () => {
        const ran = document.head?.querySelector('link[rel="preload"][as="font"]') != null;
        const drawing = document.getElementById("opening-attention")?.shadowRoot?.querySelector(".llm-frame") != null;
        if (ran || frames.length > 0) frames.push(drawing);
        if (frames.length < 6) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.goto(pathToFileURL(path.join(dist, "reader.html")).href);
    await page.waitForFunction(() => /** @type {any} */ (window).__frames.length >= 6);
    const frames = await page.evaluate(() => /** @type {any} */ (window).__frames);
    assert.equal(frames[0], false, `round ${round}: the first frame after reader-head.js showed the drawing`);
    const first = frames.indexOf(true);
    assert.ok(first >= 1 && first <= 2, `round ${round}: the drawing shown as frame ${first} began (${frames})`);
    assert.ok(frames.slice(first).every(Boolean), `round ${round}: the drawing went again (${frames})`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a drawing withholds what the figure's exercise withholds: no digit of an answer is in the page", async () => {
  const { page, errors } = await openScriptless();
  const held = await page.evaluate(() =>
    [...document.querySelectorAll("[data-predict-first]")].map((el) => {
      const template = document.createElement("template");
      template.innerHTML = el.querySelector(":scope > noscript[data-drawing]")?.textContent ?? "";
      const drawing = /** @type {HTMLTemplateElement} */ (template.content.querySelector("template[shadowrootmode]"));
      const withheld = [...drawing.content.querySelectorAll("[data-predict-conceal]")];
      return {
        id: el.id,
        count: withheld.length,
        digits: withheld
          .flatMap((w) => [w, ...w.querySelectorAll("*")])
          .flatMap((n) => [
            ...[...n.childNodes].filter((c) => c.nodeType === 3).map((c) => /** @type {Text} */ (c).data),
            n.getAttribute("value") ?? "",
            n.getAttribute("aria-label") ?? "",
            n.getAttribute("title") ?? "",
          ])
          .filter((t) => /\d/.test(t)),
        // the rule that blurs them, in the drawing's own styles
        blurs: /\[data-predict-conceal\][^{]*\{[^}]*blur/.test(
          template.content.querySelector("template:not([shadowrootmode])")?.content.querySelector("style")
            ?.textContent ?? "",
        ),
      };
    }),
  );
  assert.ok(held.length >= 7, `${held.length} exercise figures`);
  for (const f of held) {
    assert.ok(f.count > 0, `#${f.id} withholds nothing`);
    assert.deepEqual(f.digits, [], `#${f.id} shows what its exercise withholds`);
    assert.ok(f.blurs, `#${f.id}: the withheld readouts are not blurred`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a drawing gives way to its figure in place, on a phone and a laptop: the same boxes, and the figure's controls answer", async () => {
  /** The figure's height, where it is in its section and where what follows its <figure> is. */
  const boxes = (page, id) =>
    page.evaluate((id) => {
      const el = /** @type {HTMLElement} */ (document.getElementById(id));
      const r = el.getBoundingClientRect();
      const next = el.closest("figure")?.nextElementSibling?.getBoundingClientRect();
      // within its section (what is above the section, figures not drawn yet among it, may differ)
      const section = (el.closest("main > section") ?? document.body).getBoundingClientRect();
      return { height: r.height, top: r.top - section.top, next: (next?.top ?? 0) - r.top };
    }, id);
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ]) {
    // a link's figure a screen below its place (on a phone, #quantization's is further)
    const places = width > 800 ? PLACES_SHOWN : PLACES_SHOWN.filter(([hash]) => !hash);
    for (const [hash, id] of places) {
      const { page } = await openScriptless({ width, height, hash });
      const drawn = await boxes(page, id);
      assert.ok((await page.evaluate(drawingsOnPage)).find((f) => f.id === id)?.shown, `#${id} shown`);
      await page.close();
      const live = await openReader(browser.context, { width, height, hash, lazy: true });
      await live.page.waitForSelector(`#${id}[data-ready]`);
      const drawnLive = await boxes(live.page, id);
      for (const k of ["height", "top", "next"])
        assert.ok(
          Math.abs(drawn[k] - drawnLive[k]) <= 4,
          `at ${width} px, #${id}'s ${k}: ${drawn[k]} px drawn at build time, ${drawnLive[k]} px by its script`,
        );
      await assertDrawingSheetsGone(live.page, id);
      assert.deepEqual(live.errors, []);
      if (id === "opening-attention") {
        // live now: the causal mask's box answers
        const weights = () =>
          live.page.evaluate(
            () =>
              document.getElementById("opening-attention").shadowRoot.querySelector(".attention-results").textContent,
          );
        const before = await weights();
        await live.page.evaluate(() =>
          /** @type {HTMLInputElement} */ (
            document.getElementById("opening-attention").shadowRoot.querySelector('input[type="checkbox"]')
          ).click(),
        );
        assert.notEqual(await weights(), before, "the causal mask's box changed nothing");
      }
      await live.page.close();
    }
  }
});

test("a figure its script has taken shows its drawing itself, and keeps none of the drawing's styles once live", async () => {
  // The order CI met once, where the parse is slower: the figures' script defined the figures
  // before first-screen.js showed the drawings of the screen below a link's place, and a drawing
  // shown into a figure its script had taken brought style sheets the figure did not know of.
  // Made certain here: the figures' script runs once the page is read, and first-screen.js's
  // frames (its watch of the parse) are held until the script has defined the figures, then run
  // before any figure starts.
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.addInitScript(() => {
    const frame = window.requestAnimationFrame.bind(window);
    const defined = customElements.whenDefined("llm-quantization");
    let taken = false;
    defined.then(() => (taken = true));
    window.requestAnimationFrame = (callback) =>
      taken ? frame(callback) : (defined.then(() => callback(performance.now())), 0);
    document.addEventListener("DOMContentLoaded", () => {
      const head = /** @type {HTMLScriptElement} */ (document.querySelector("script[data-widgets]"));
      head.setAttribute("data-started", "");
      const script = document.createElement("script");
      script.src = /** @type {string} */ (head.getAttribute("data-widgets"));
      document.head.append(script);
    });
  });
  await page.goto(pathToFileURL(path.join(dist, "reader.html")).href + "#quantization");
  await page.waitForSelector("#quantization-figure[data-ready]");
  await assertDrawingSheetsGone(page, "quantization-figure");
  assert.deepEqual(errors, []);
  await page.close();
});

test("without scripts every figure shows its drawing, styled, with what its exercise withholds held back, and the opening caption beside it; with settings in the address none is shown, where each figure shows itself as it draws them", async () => {
  const off = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const context = await off.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    for (const file of ["reader.html", "reader-standalone.html"]) {
      const page = await context.newPage();
      /** @type {string[]} */
      const errors = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("requestfailed", (r) => errors.push(`${r.url()}: ${r.failure()?.errorText}`));
      await page.goto(pathToFileURL(path.join(dist, file)).href);
      await page.waitForLoadState("load");
      const figures = await page.evaluate(() =>
        [...document.querySelectorAll("[data-prerendered]")].map((el) => {
          const host = el.querySelector("[data-drawing-host]");
          const frame = host?.shadowRoot?.querySelector(".llm-frame");
          const withheld = [...(host?.shadowRoot?.querySelectorAll("[data-predict-conceal]") ?? [])];
          return {
            id: el.id,
            height: frame ? frame.getBoundingClientRect().height : 0,
            inert: frame?.hasAttribute("inert") ?? false,
            // the kit's styles: the frame's panel and type, not the page's
            styled: frame
              ? getComputedStyle(frame).backgroundColor !== "rgba(0, 0, 0, 0)" &&
                /sans/i.test(getComputedStyle(frame).fontFamily)
              : false,
            exercise: el.hasAttribute("data-predict-first"),
            blurred: withheld
              .filter((w) => w.getBoundingClientRect().height > 0)
              .map((w) => getComputedStyle(w).filter),
          };
        }),
      );
      assert.equal(figures.length, 13, `${file}: the chapter's 13 figures`);
      for (const f of figures) {
        assert.ok(f.height > 60 && f.inert && f.styled, `${file} #${f.id} without scripts: ${JSON.stringify(f)}`);
        if (f.exercise)
          assert.ok(
            f.blurred.length > 0 && f.blurred.every((filter) => /blur/.test(filter)),
            `${file} #${f.id}: what its exercise withholds, without scripts: ${JSON.stringify(f.blurred)}`,
          );
      }
      // the opening figure beside its caption, each as wide as with scripts
      const opening = await page.evaluate(() => {
        const box = (el) => /** @type {Element} */ (el).getBoundingClientRect();
        return {
          figure: box(document.getElementById("opening-attention")).width,
          caption: box(document.querySelector(".opening figcaption")).width,
        };
      });
      assert.ok(
        Math.abs(opening.figure - 322) <= 2 && opening.caption > 300,
        `${file}: the opening figure and its caption: ${JSON.stringify(opening)}`,
      );
      if (file === "reader.html") await page.screenshot({ path: artifact("reader-scripts-off.png") });
      assert.deepEqual(errors, [], `${file} without scripts`);
      await page.close();
    }
  } finally {
    await off.close();
  }

  // settings in the address: the drawings, which do not have them, are not shown
  const { page: linked } = await openScriptless({ hash: "#quantization?quantization.bits=4" });
  assert.deepEqual(
    (await linked.evaluate(drawingsOnPage)).filter((f) => f.shown).map((f) => f.id),
    [],
    "a drawing shown for a link with settings",
  );
  await linked.close();
  const live = await openReader(browser.context, { lazy: true, hash: "#quantization?quantization.bits=4" });
  await live.page.waitForSelector("#quantization-figure[data-ready]");
  const bits = await live.page.evaluate(
    () => /** @type {any} */ (document.getElementById("quantization-figure")).state.bits,
  );
  assert.equal(bits, 4);
  assert.deepEqual(live.errors, []);
  await live.page.close();
});
