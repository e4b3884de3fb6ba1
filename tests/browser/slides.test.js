// A reveal.js deck: the guide's recipe (dist/embed-guide.html, <pre
// data-recipe="reveal">) written as a deck's index.html in a temporary folder, beside reveal.js's
// dist/ from npm and the edition's files the guide names, served on 127.0.0.1. At 1280 × 800 the
// figure at the slide size (compact="slide"), in both forms, is drawn when its slide is shown, fits
// the slide's 960 × 700 box with its main controls (.llm-bar) inside it, takes a slider's arrow
// key with the engine's number, and the deck stays on its slide. At 390 px wide reveal.js shows
// the deck as a scrolling page (its scroll view): the figure draws when it is scrolled to.
/* global Reveal */ // reveal.js's, in the deck's page
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { useBrowser, dist, serve, guideRecipe, guideFiles, artifact } = require("./browser.js");

const browser = useBrowser(test);
// reveal.js from npm (a devDependency); its package exports no package.json to resolve by
const reveal = path.join(__dirname, "..", "..", "node_modules", "reveal.js");

// reveal.js's slide, in its own px before it scales the slides to the window (its default size).
const SLIDE = { width: 960, height: 700 };

let folder;
let server;
test.before(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-slides-"));
  fs.writeFileSync(path.join(folder, "index.html"), guideRecipe("reveal"));
  fs.cpSync(path.join(reveal, "dist"), path.join(folder, "dist"), { recursive: true });
  for (const file of new Set([...guideFiles("script"), ...guideFiles("frame"), ...guideFiles("host")]))
    fs.copyFileSync(path.join(dist, file), path.join(folder, file));
  server = await serve({ files: (pathname) => path.join(folder, pathname === "/" ? "index.html" : pathname) });
});
test.after(() => {
  server?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** Opens the deck at `width` × 800, recording errors and every request; waits for reveal.js's ready. */
async function open(width, hash = "") {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 800 });
  const errors = [];
  const requests = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("request", (req) => requests.push(req.url()));
  await page.goto(`${server.origin}/${hash}`);
  await page.waitForSelector(".reveal.ready");
  return { page, errors, requests };
}

/**
 * Waits until the element `selector` names stands still: its box the same two polls (100 ms apart)
 * running, and reveal.js not in a transition between slides.
 */
function standsStill(page, selector, timeout = 30000) {
  return page.waitForFunction(
    (selector) => {
      const el = document.querySelector(selector);
      const now = JSON.stringify(el.getBoundingClientRect());
      window.lastBoxes ??= {};
      const same = now === window.lastBoxes[selector];
      window.lastBoxes[selector] = now;
      return same && !el.closest(".reveal").classList.contains("is-transitioning");
    },
    selector,
    { polling: 100, timeout },
  );
}

/** Whether `inner` lies inside `outer` (boxes in the same px), within 1 px. */
const inside = (inner, outer) =>
  inner.left >= outer.left - 1 &&
  inner.top >= outer.top - 1 &&
  inner.right <= outer.right + 1 &&
  inner.bottom <= outer.bottom + 1;

test("reveal.js at 1280 × 800: the figure at the slide size draws on its slide, fits 960 × 700 with its sliders, and keeps its arrow keys", async () => {
  const { page, errors, requests } = await open(1280);
  assert.equal(await page.evaluate(() => Reveal.getIndices().h), 0, "the deck opens at its first slide");
  // The figure's slide is not shown yet: reveal.js leaves it out of the layout or off the screen.
  // Shown, its figure draws.
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => Reveal.getIndices().h === 1);
  const fig = page.locator("llm-speculative");
  await fig.and(page.locator("[data-ready]")).waitFor({ timeout: 15000 });
  assert.equal(await fig.getAttribute("compact"), "slide", "the recipe's figure is at the slide size");
  // reveal.js's transition: wait until the slide stands still
  await standsStill(page, ".reveal .slides > section.present");

  const m = await page.evaluate(() => {
    const slides = document.querySelector(".reveal .slides");
    const el = document.querySelector("llm-speculative");
    const bar = el.shadowRoot.querySelector(".llm-bar");
    const scale = Reveal.getScale();
    const box = (n) => n.getBoundingClientRect().toJSON();
    return {
      scale,
      slides: box(slides),
      figure: box(el),
      bar: box(bar),
      ready: el.shadowRoot.querySelectorAll(".speculative-figure svg").length,
    };
  });
  // The slide's box: .slides is 960 × 700 at reveal.js's scale, centred in the window.
  assert.ok(Math.abs(m.slides.width - SLIDE.width * m.scale) <= 1, `slides ${m.slides.width} px at scale ${m.scale}`);
  assert.ok(
    Math.abs(m.slides.height - SLIDE.height * m.scale) <= 1,
    `slides ${m.slides.height} px at scale ${m.scale}`,
  );
  assert.ok(m.ready > 0, "the figure's chart is drawn");
  assert.ok(
    inside(m.figure, m.slides),
    `the figure ${JSON.stringify(m.figure)} lies in the slide ${JSON.stringify(m.slides)}`,
  );
  assert.ok(
    inside(m.bar, m.slides) && inside(m.bar, m.figure),
    `its sliders ${JSON.stringify(m.bar)} lie in the slide`,
  );
  await page.screenshot({ path: artifact("slides-1280-script.png") });

  // A slider's arrow key moves the slider, and the figure's numbers are the engine's for the new
  // value; the deck stays on this slide.
  const alpha = fig.getByLabel("Acceptance rate α");
  await alpha.focus();
  const before = Number(await alpha.inputValue());
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((b) => Number(document.querySelector("llm-speculative").state.alpha) > b, before);
  const after = await page.evaluate(() => {
    const el = document.querySelector("llm-speculative");
    return {
      alpha: el.state.alpha,
      gamma: el.state.gamma,
      shown: el.shadowRoot.querySelector(".llm-frame").textContent,
    };
  });
  assert.ok(after.alpha > before, `alpha ${before} → ${after.alpha}`);
  const expected = await page.evaluate(
    async ({ alpha, gamma }) => (await createLLMMath()).speculativeDecoding({ alpha, gamma }).expectedTokens,
    after,
  );
  // the figure writes the number to at most four decimals: within half of the last one
  const shownTokens = Number(/yields ([\d.]+) tokens/.exec(after.shown)?.[1]);
  assert.ok(
    Math.abs(shownTokens - expected) <= 5e-5,
    `the figure shows ${shownTokens} tokens per call, the engine ${expected}`,
  );
  assert.equal(await page.evaluate(() => Reveal.getIndices().h), 1, "the arrow key did not turn the slide");

  // A click on the slide outside the figure gives the keys back to the deck (the guide says so).
  await page.locator(".reveal .slides > section.present h2").click();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => Reveal.getIndices().h === 2);

  // The frame form, on the next slide: drawn, inside the slide with its sliders, its keys its own.
  const frame = await (async () => {
    for (const start = Date.now(); Date.now() - start < 15000; await page.waitForTimeout(50)) {
      const f = page.frame({ url: /embed\.html/ });
      if (f) return f;
    }
    throw new Error("the slide's frame did not open embed.html within 15 s");
  })();
  await frame.waitForSelector("html[data-ready]", { timeout: 15000 });
  const iframe = page.locator(".reveal .slides > section.present iframe");
  // the resizer (llmmath-frame.js) has sized it: its border gone, its height the page's
  await page.waitForFunction(
    () => document.querySelector(".reveal section.present iframe").dataset.llmmathFigure === "speculative",
  );
  // reveal.js's transition to this slide: wait until the frame stands still, as for the first
  // slide; read mid-slide it lay half out
  await standsStill(page, ".reveal section.present iframe", 60000);
  const fb = await iframe.evaluate((n) => n.getBoundingClientRect().toJSON());
  const slidesBox = await page.evaluate(() =>
    document.querySelector(".reveal .slides").getBoundingClientRect().toJSON(),
  );
  assert.ok(inside(fb, slidesBox), `the frame ${JSON.stringify(fb)} lies in the slide ${JSON.stringify(slidesBox)}`);
  const inner = await frame.evaluate(() => {
    const el = document.querySelector("llm-speculative");
    const b = (n) => n.getBoundingClientRect().toJSON();
    return {
      figure: b(el),
      bar: b(el.shadowRoot.querySelector(".llm-bar")),
      page: b(document.documentElement),
      view: innerHeight,
    };
  });
  assert.ok(
    inner.page.height <= inner.view + 1,
    `the frame's page (${inner.page.height} px) fits its frame (${inner.view} px)`,
  );
  assert.ok(inner.bar.bottom <= inner.view, "the frame's sliders are in view");
  await frame.locator("llm-speculative").getByLabel("Draft length γ").focus();
  await page.keyboard.press("ArrowRight");
  await frame.waitForFunction(() => document.querySelector("llm-speculative").state.gamma === 4);
  assert.equal(await page.evaluate(() => Reveal.getIndices().h), 2, "the frame's arrow key did not turn the slide");
  await page.screenshot({ path: artifact("slides-1280-frame.png") });

  assert.deepEqual(errors, []);
  assert.deepEqual(
    requests.filter((u) => !u.startsWith(server.origin)),
    [],
    "no request leaves the deck's folder",
  );
  await page.close();
});

test("reveal.js's scroll view at 390 px: the figure draws when the reader scrolls to it", async () => {
  const { page, errors } = await open(390);
  assert.ok(await page.evaluate(() => Reveal.isScrollView()), "reveal.js shows the deck as a scrolling page");
  const fig = page.locator("llm-speculative");
  assert.equal(await fig.getAttribute("data-ready"), null, "the figure, a screen below, has not drawn yet");
  // The reader scrolls the deck's page a screen at a time (a wheel over it; reveal.js snaps to its
  // slides) until the figure's slide is in view. Each turn of the wheel is waited out: the scroll
  // position must move and then hold still for a few frames before the figure's place is read, or
  // a loaded machine reads the place before the scroll lands and wheels on past the figure.
  await page.mouse.move(195, 400);
  const scroller = page.locator(".reveal-viewport");
  /** The deck's scroll position once it has held still for five frames. */
  const settled = () =>
    scroller.evaluate(async (el) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let last = -1;
      for (let still = 0; still < 5; last = el.scrollTop) {
        await frame();
        still = el.scrollTop === last ? still + 1 : 0;
      }
      return last;
    });
  const inView = () =>
    fig.evaluate((el) => {
      const b = el.getBoundingClientRect();
      return b.top < innerHeight && b.bottom > 0;
    });
  const tops = [await settled()];
  while (!(await inView())) {
    assert.ok(tops.length <= 8, `the figure comes into view within 8 turns of the wheel (scroll tops ${tops})`);
    await page.mouse.wheel(0, 800);
    // The wheel's scroll has begun (or, at the page's end, there is none to wait for).
    await page
      .waitForFunction((before) => document.querySelector(".reveal-viewport").scrollTop !== before, tops.at(-1), {
        timeout: 5000,
      })
      .catch(() => {});
    tops.push(await settled());
  }
  await fig.and(page.locator("[data-ready]")).waitFor({ timeout: 15000 });
  assert.ok(
    (await fig.evaluate((el) => el.shadowRoot.querySelectorAll(".speculative-figure svg").length)) > 0,
    "its chart is drawn",
  );
  await page.screenshot({ path: artifact("slides-390.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
