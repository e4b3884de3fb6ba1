// The reader on a phone: 320 × 640 and 360 × 740, touch screen, twice the pixels (as a phone
// reports itself to a page). The page does not scroll sideways; chart text is drawn at 11 px or
// more at every width; every control is at least 24 × 24 px (WCAG 2.5.8, inside the figures'
// shadow roots too); whatever scrolls sideways can be scrolled by keyboard; the tall figures'
// sliders stay on screen while their figure is.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");
const { openReader, artifact, CHROMIUM, FLAGS } = require("./browser.js");

const PHONES = [
  [320, 640],
  [360, 740],
];
const contexts = [];

/**
 * A browser context that is a phone (a touch screen) of the given size, or with `touch` false a
 * desktop (browser.js's launch() is a desktop of one size).
 */
async function phone(width, height, touch = true) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-phone-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width, height },
    isMobile: touch,
    hasTouch: touch,
    deviceScaleFactor: touch ? 2 : 1,
  });
  contexts.push({ context, userDataDir });
  return context;
}

test.after(async () => {
  for (const { context, userDataDir } of contexts) {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});

/**
 * The reader at this size with every section laid out (content-visibility skips the sections off
 * screen, and with them their width), after the charts have been fitted to their boxes. The page
 * gets everyElement(): every element of the document and of every (open) shadow root inside it,
 * as [element, the figure or section it belongs to].
 */
async function openLaidOut(context, width, height) {
  const { page, errors } = await openReader(context, { width, height });
  await page.evaluate(async () => {
    for (const s of document.querySelectorAll("main > section")) s.style.contentVisibility = "visible";
    globalThis.everyElement = () => {
      const all = [];
      const walk = (root, where) => {
        for (const el of root.querySelectorAll("*")) {
          all.push([el, where || el.closest("section[id]")?.id || "page"]);
          if (el.shadowRoot) walk(el.shadowRoot, el.id || el.localName);
        }
      };
      walk(document, "");
      return all;
    };
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  return { page, errors };
}

// One reader per phone size, shared by that size's tests (the last of them scrolls it).
const phones = new Map();
function openPhone(width, height) {
  if (!phones.has(width))
    phones.set(
      width,
      phone(width, height).then((context) => openLaidOut(context, width, height)),
    );
  return phones.get(width);
}

/** The chart text drawn smallest: [px, where, text] per <text> of every chart, smallest first. */
function chartText(page) {
  return page.evaluate(() => {
    const sizes = [];
    for (const [el, where] of everyElement()) {
      if (el.localName !== "text" || !el.closest("svg")) continue;
      const svg = el.ownerSVGElement,
        box = svg.getBoundingClientRect(),
        vb = svg.viewBox.baseVal;
      if (!box.width) continue;
      // The drawing's scale on screen times the text's size in the drawing.
      const scale = vb && vb.width ? box.width / vb.width : 1;
      sizes.push([parseFloat(getComputedStyle(el).fontSize) * scale, where, el.textContent]);
    }
    return sizes.sort((a, b) => a[0] - b[0]);
  });
}

for (const [width, height] of PHONES) {
  test(`phone ${width} px: the page does not scroll sideways`, async () => {
    const { page, errors } = await openPhone(width, height);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `the page is ${wide} px wide on a ${width} px screen`);
    await page.screenshot({ path: artifact(`phone-${width}.png`) });
    assert.deepEqual(errors, []);
  });

  test(`phone ${width} px: chart text is drawn at 11 px or more`, async () => {
    const { page } = await openPhone(width, height);
    const sizes = await chartText(page);
    // Every figure with a chart drew some: a check over no text could not fail.
    assert.ok(sizes.length >= 100, `only ${sizes.length} chart texts found`);
    const small = sizes.filter(([px]) => px < 11 - 1e-6);
    assert.deepEqual(
      small.slice(0, 5).map(([px, where, text]) => `${where}: "${text}" at ${px.toFixed(2)} px`),
      [],
    );
  });

  test(`phone ${width} px: every control is at least 24 × 24 px, and sliders are 44 px tall to touch`, async () => {
    const { page } = await openPhone(width, height);
    const controls = await page.evaluate(() =>
      everyElement()
        .filter(([el]) => el.matches("input:not([type=hidden]), select, button, summary, textarea, [role=slider]"))
        .map(([el, where]) => {
          const box = el.getBoundingClientRect();
          const name = el.getAttribute("aria-label") ?? el.labels?.[0]?.textContent ?? el.textContent;
          return {
            where,
            what: `${el.localName}${el.type ? `[${el.type}]` : ""} "${name.trim().slice(0, 30)}"`,
            w: box.width,
            h: box.height,
            slider: el.matches("input[type=range], [role=slider]"),
          };
        })
        // Controls not rendered (a closed <details>, a hidden panel) have no box to touch.
        .filter((c) => c.w > 0 && c.h > 0),
    );
    assert.ok(controls.length >= 200, `only ${controls.length} controls found`);
    const small = controls.filter((c) => c.w < 24 || c.h < 24);
    assert.deepEqual(
      small.map((c) => `${c.where}: ${c.what} is ${c.w.toFixed(0)} × ${c.h.toFixed(0)} px`),
      [],
    );
    const sliders = controls.filter((c) => c.slider);
    assert.ok(sliders.length >= 20, `only ${sliders.length} sliders found`);
    assert.deepEqual(
      sliders.filter((c) => c.h < 44).map((c) => `${c.where}: ${c.what} is ${c.h.toFixed(0)} px tall`),
      [],
    );
  });

  test(`phone ${width} px: whatever scrolls sideways can be scrolled by keyboard`, async () => {
    const { page } = await openPhone(width, height);
    // Laid out once (the sections are content-visibility: auto), a box that overflows takes the
    // focus in the next frame (site/src/scrollable.js): measured again after it.
    await page.evaluate(async () => {
      for (const [el] of everyElement()) void el.scrollWidth;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    const scrollers = await page.evaluate(() =>
      everyElement()
        .filter(([el]) => /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
        .map(([el, where]) => ({
          where,
          what: `${el.localName}.${[...el.classList].join(".")}`,
          // Focusable itself, or holding fields that scroll it into view as they take the focus.
          reachable: (el.tabIndex >= 0 && el.hasAttribute("tabindex")) || !!el.querySelector("input, select, textarea"),
          // An exercise's concealed readout, blurred and hidden from assistive technology until answered.
          concealed: el.getAttribute("aria-hidden") === "true",
        })),
    );
    // At these widths display formulas and tables of numbers do overflow: the check has cases.
    assert.ok(scrollers.length >= 5, `only ${scrollers.length} boxes scroll sideways`);
    assert.deepEqual(
      scrollers.filter((s) => !s.reachable && !s.concealed).map((s) => `${s.where}: ${s.what}`),
      [],
    );
  });

  test(`phone ${width} px: the tall figures' sliders stay on screen while their figure is, and a focused control is not hidden under them`, async () => {
    const { page } = await openPhone(width, height);
    // Every figure more than a screen and a half tall.
    const tall = await page.evaluate(() =>
      [...document.querySelectorAll("[data-figure]")]
        .filter((el) => el.getBoundingClientRect().height > 1.5 * innerHeight)
        .map((el) => el.id),
    );
    assert.ok(tall.length >= 8, `tall figures: ${tall}`);
    for (const id of tall) {
      const steps = await page.evaluate(
        async ({ id, height }) => {
          const figure = document.getElementById(id);
          const bar = figure.shadowRoot.querySelector(".llm-bar");
          if (!bar) return null;
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const top = (el) => el.getBoundingClientRect().top + scrollY;
          const out = [];
          // From where the bar reaches the top of the screen to where the figure's end comes up
          // (measured from above the figure: further down the bar sits stuck at its end).
          scrollTo(0, top(figure) - height);
          await frame();
          const start = top(bar),
            end = top(figure) + figure.getBoundingClientRect().height - bar.getBoundingClientRect().height - 10;
          for (let y = start; y < end; y += height / 2) {
            scrollTo(0, y);
            await frame();
            const b = bar.getBoundingClientRect();
            out.push({ y: Math.round(y - start), top: b.top, bottom: b.bottom });
          }
          return out;
        },
        { id, height },
      );
      assert.ok(steps, `${id} has no bar of sliders that stays on screen (.llm-bar)`);
      assert.ok(steps.length >= 3, `${id}: the figure scrolls by only ${steps.length} half-screens below its bar`);
      for (const s of steps) {
        assert.ok(
          Math.abs(s.top) <= 1 && s.bottom <= height / 4,
          `${id}, ${s.y} px below the bar's place: the bar is at ${s.top.toFixed(0)}–${s.bottom.toFixed(0)} px`,
        );
      }
    }
    // A control that takes the focus where the bar covers it is scrolled clear of the bar.
    const clear = await page.evaluate(async () => {
      const root = document.getElementById("quantization-figure").shadowRoot;
      const bar = root.querySelector(".llm-bar"),
        levels = root.querySelector(".quantization-levels");
      if (!bar) return { covered: false };
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      scrollTo(0, levels.getBoundingClientRect().top + scrollY - 20);
      await frame();
      const covered = levels.getBoundingClientRect().top < bar.getBoundingClientRect().bottom;
      levels.focus();
      await frame();
      return {
        covered,
        focused: root.activeElement === levels,
        top: levels.getBoundingClientRect().top,
        barBottom: bar.getBoundingClientRect().bottom,
      };
    });
    assert.ok(clear.covered && clear.focused, "the levels table was under the bar and took the focus");
    assert.ok(
      clear.top >= clear.barBottom,
      `the focused table starts at ${clear.top} px, under the bar's end at ${clear.barBottom} px`,
    );
    await page.screenshot({ path: artifact(`phone-${width}-quantization-bar.png`) });
    await page.close();
    phones.delete(width);
  });
}

test("at every width, from a phone to a desktop, chart text is 11 px or more", async () => {
  for (const [width, height, touch] of [
    [480, 800, true],
    [768, 1024, true],
    [1280, 900, false],
  ]) {
    const { page } = await openLaidOut(await phone(width, height, touch), width, height);
    const small = (await chartText(page)).filter(([px]) => px < 11 - 1e-6);
    assert.deepEqual(
      small.slice(0, 5).map(([px, where, text]) => `${width} px, ${where}: "${text}" at ${px.toFixed(2)} px`),
      [],
    );
    await page.close();
  }
});

test("a chart is drawn again for its new width when the screen turns, without a new calculation", async () => {
  const context = await phone(360, 740);
  const { page } = await openReader(context, { width: 360, height: 740, hash: "#dilution-figure" });
  const box = () =>
    page.evaluate(() => {
      const el = document.getElementById("dilution-figure");
      const svg = el.shadowRoot.querySelector("svg.chart");
      return { viewBox: svg.getAttribute("viewBox"), width: svg.getBoundingClientRect().width };
    });
  const portrait = await box();
  await page.evaluate(() => {
    globalThis.renders = 0;
    document.getElementById("dilution-figure").addEventListener("llm-change", () => (globalThis.renders += 1));
  });
  await page.setViewportSize({ width: 740, height: 360 });
  // The redraw waits for the width to settle (150 ms).
  await page.waitForFunction(
    (before) =>
      document.getElementById("dilution-figure").shadowRoot.querySelector("svg.chart").getAttribute("viewBox") !==
      before,
    portrait.viewBox,
    { timeout: 30000 },
  );
  const landscape = await box();
  assert.equal(Number(portrait.viewBox.split(" ")[2]), Math.floor(portrait.width), "drawn at its width in portrait");
  assert.ok(landscape.width > portrait.width);
  assert.equal(
    Number(landscape.viewBox.split(" ")[2]),
    Math.min(Math.floor(landscape.width), 520),
    "drawn at its width in landscape",
  );
  // The figure emits llm-change after every calculation: none happened.
  assert.equal(await page.evaluate(() => globalThis.renders), 0, "the figure was computed again");
  await page.close();
});

// On a phone (390 px, touch) every control a finger must hit has a touch area at least 44 px
// tall (WCAG 2.5.5, Apple's and Android's guides): its own box, or its label's, which a tap
// on activates it too. Every control of every figure and exercise is measured, in the shadow
// roots too.
test("phone 390 px: every control of every figure has a touch area at least 44 px tall", async () => {
  const { page } = await openLaidOut(await phone(390, 844), 390, 844);
  const controls = await page.evaluate(() =>
    everyElement()
      .filter(([el]) => el.matches("input:not([type=hidden]), select, button, summary, textarea, [role=slider]"))
      .map(([el, where]) => {
        const box = el.getBoundingClientRect();
        const labels = [...(el.labels ?? [])].map((l) => l.getBoundingClientRect().height);
        const name = el.getAttribute("aria-label") ?? el.labels?.[0]?.textContent ?? el.textContent;
        return {
          where,
          what: `${el.localName}${el.type ? `[${el.type}]` : ""} "${name.trim().slice(0, 30)}"`,
          w: box.width,
          h: box.height,
          touch: Math.max(box.height, ...labels),
        };
      })
      .filter((c) => c.w > 0 && c.h > 0),
  );
  assert.ok(controls.length >= 250, `only ${controls.length} controls found`);
  const small = controls.filter((c) => c.touch < 44 - 0.5);
  assert.deepEqual(
    small.map((c) => `${c.where}: ${c.what} is ${c.touch.toFixed(0)} px tall`),
    [],
    `${small.length} of ${controls.length} controls`,
  );
  await page.screenshot({ path: artifact("phone-390.png") });
  await page.close();
});
