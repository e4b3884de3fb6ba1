// Keeping the reader's view together (issue 19, items 2, 5 and 7): on a laptop each exercise's
// field docks at the bottom of the screen while its figure fills it, and goes back to its place
// as the place comes into view; on a phone each way between a figure and its question is one
// tap; a tall figure's main controls stay on screen while the reader scrolls through it; a
// figure can be skipped with one key press; and a formula takes the focus only where it scrolls.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, artifact } = require("./browser.js");
const { EXERCISES } = require("./exercise-list.js");

const browser = useBrowser(test);

const frames = (page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Scrolls the page so that the figure `id`'s top is `y` px from the top of the screen. */
async function scrollFigureTo(page, id, y) {
  await page.evaluate(
    ([id, y]) => scrollTo(0, document.getElementById(id).getBoundingClientRect().top + scrollY - y),
    [id, y],
  );
  await frames(page);
}

/** Where the exercise's field for figure `id` is, on the screen and in the page. */
function field(page, id) {
  return page.evaluate((id) => {
    const answer = document.querySelector(`[for="${id}"]`);
    const step = answer.current();
    const box = step.box.getBoundingClientRect();
    const figure = document.getElementById(id).getBoundingClientRect();
    return {
      docked: step.box.classList.contains("predict-docked"),
      top: box.top,
      bottom: box.bottom,
      figureTop: figure.top,
      figureBottom: figure.bottom,
      screen: innerHeight,
      focused: document.activeElement === step.input,
    };
  }, id);
}

test("laptop: while a figure fills the screen its exercise's field is docked at the bottom, and goes back as its place comes into view", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280, height: 800 });
  let covered = 0;
  for (const ex of EXERCISES) {
    // The figure's top at the top of the screen: the figure fills it, the question is below.
    await scrollFigureTo(page, ex.figure, 0);
    const docked = await field(page, ex.figure);
    assert.ok(docked.docked, `exercise ${ex.n}: docked while the figure fills the screen: ${JSON.stringify(docked)}`);
    assert.ok(
      Math.abs(docked.bottom - docked.screen) <= 1 && docked.top > docked.screen / 2,
      `exercise ${ex.n}: the docked field lies along the bottom of the screen: ${JSON.stringify(docked)}`,
    );
    // The figure is in view above it.
    assert.ok(docked.figureTop <= 1 && docked.figureBottom > docked.top, `exercise ${ex.n}: ${JSON.stringify(docked)}`);
    if (ex.n === 5) await page.screenshot({ path: artifact("reach-docked-1280.png") });
    // A control of the figure that takes the focus under the dock is scrolled clear of it: the
    // last control of the figure that is not held back, brought under the dock, then focused.
    const clear = await page.evaluate(async (id) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const figure = document.getElementById(id);
      const control = [...figure.shadowRoot.querySelectorAll("input, select, button")]
        .filter((el) => el.getBoundingClientRect().height > 0 && !el.closest("[inert], .llm-bar, .llm-actions"))
        .at(-1);
      if (!control) return null;
      scrollTo(0, scrollY + control.getBoundingClientRect().top - innerHeight + 25);
      await frame();
      const dock = document.querySelector(".predict-docked");
      if (!dock || control.getBoundingClientRect().top < dock.getBoundingClientRect().top) return null;
      control.focus();
      await frame();
      return { bottom: control.getBoundingClientRect().bottom, dock: dock.getBoundingClientRect().top };
    }, ex.figure);
    if (clear) {
      covered += 1;
      assert.ok(
        clear.bottom <= clear.dock + 1,
        `exercise ${ex.n}: a focused control under the dock: ${JSON.stringify(clear)}`,
      );
    }
    // Scrolled on to the exercise: the field is in its place, in view, no longer docked.
    await page.evaluate((id) => document.querySelector(`[for="${id}"]`).scrollIntoView({ block: "end" }), ex.figure);
    await frames(page);
    const placed = await field(page, ex.figure);
    assert.ok(!placed.docked && placed.bottom <= placed.screen, `exercise ${ex.n}: ${JSON.stringify(placed)}`);

    // Above the figure, nothing is docked.
    await scrollFigureTo(page, ex.figure, 900);
    assert.equal((await field(page, ex.figure)).docked, false, `exercise ${ex.n}: docked above its figure`);
  }
  assert.ok(covered >= 4, `a control was brought under the dock in ${covered} figures`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("laptop: a prediction typed into the docked field is checked there, and the follow-up takes the dock", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280, height: 800 });
  const ex = EXERCISES.find((e) => e.n === 5);
  await scrollFigureTo(page, ex.figure, -200);
  assert.ok((await field(page, ex.figure)).docked);
  const docked = page.locator(".predict-docked");
  await docked.locator("input").fill("2");
  await docked.locator("input").press("Enter");
  assert.match(await docked.locator(".predict-feedback").textContent(), /^Not yet: .*ceiling/);
  const scroll = await page.evaluate(() => scrollY);
  const value = await page.evaluate((id) => document.querySelector(`[for="${id}"]`).first.expected.value, ex.figure);
  await docked.locator("input").fill(String(value));
  await docked.locator("input").press("Enter");
  // The follow-up's field is docked now, with the focus, and the page has not moved.
  const next = await page.evaluate((id) => {
    const a = document.querySelector(`[for="${id}"]`);
    return {
      second: a.second.box.classList.contains("predict-docked"),
      first: a.first.box.classList.contains("predict-docked"),
      focused: document.activeElement === a.second.input,
      places: document.querySelectorAll(".predict-dock-place").length,
    };
  }, ex.figure);
  assert.deepEqual(next, { second: true, first: false, focused: true, places: 1 });
  assert.equal(await page.evaluate(() => scrollY), scroll);
  await page.screenshot({ path: artifact("reach-follow-up-docked-1280.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("phone: nothing docks, and between each figure and its question is one tap each way", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844 });
  for (const ex of EXERCISES) {
    await scrollFigureTo(page, ex.figure, -300);
    assert.equal((await field(page, ex.figure)).docked, false, `exercise ${ex.n} docked on a phone`);
    // From the figure: its note's "Go to the exercise" puts the field in view, with the focus.
    await page.locator(`#${ex.figure}`).getByRole("button", { name: "Go to the exercise" }).click();
    await frames(page);
    const at = await field(page, ex.figure);
    assert.ok(at.focused && at.top >= 0 && at.bottom <= at.screen, `exercise ${ex.n}: ${JSON.stringify(at)}`);
    // And back: the figure from its top, the focus on its note's button, one tap from the field again.
    await page
      .locator(`#${ex.section} .exercise:has([for="${ex.figure}"])`)
      .getByRole("button", { name: /^Back to (Figure \d\.\d|the figure)$/ })
      .click();
    await frames(page);
    const back = await page.evaluate((id) => {
      const figure = document.getElementById(id);
      const active = figure.shadowRoot.activeElement;
      return { top: figure.getBoundingClientRect().top, focus: active?.textContent };
    }, ex.figure);
    assert.ok(Math.abs(back.top) <= 2, `exercise ${ex.n}: the figure's top is at ${back.top}`);
    assert.equal(back.focus, "Go to the exercise", `exercise ${ex.n}`);
  }
  await page.screenshot({ path: artifact("reach-back-390.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("laptop: every figure taller than the screen keeps its main controls at the top of the screen while it scrolls by", async () => {
  const height = 800;
  const { page, errors } = await openReader(browser.context, { width: 1280, height });
  const tall = await page.evaluate(
    (height) =>
      [...document.querySelectorAll("[data-figure]")]
        .filter((el) => el.getBoundingClientRect().height > height)
        .map((el) => el.id),
    height,
  );
  assert.ok(tall.length >= 7, `tall figures: ${tall}`);
  for (const id of tall) {
    const bar = await page.evaluate((id) => {
      const el = document.getElementById(id).shadowRoot.querySelector(".llm-bar");
      return el && { height: el.getBoundingClientRect().height, controls: el.querySelectorAll("input, select").length };
    }, id);
    assert.ok(bar && bar.controls >= 1, `${id} has no bar of main controls (.llm-bar)`);
    assert.ok(bar.height <= height / 4, `${id}: its bar is ${bar.height} px tall`);
    // From where the bar meets the top of the screen to the figure's last screen.
    await scrollFigureTo(page, id, 0);
    const { figure, offset } = await page.evaluate((id) => {
      const el = document.getElementById(id);
      const box = el.getBoundingClientRect();
      return {
        figure: box.height,
        offset: el.shadowRoot.querySelector(".llm-bar").getBoundingClientRect().top - box.top,
      };
    }, id);
    for (let y = offset + 50; y < figure - bar.height - 300; y += height / 2) {
      await scrollFigureTo(page, id, -y);
      const b = await page.evaluate(
        (id) => document.getElementById(id).shadowRoot.querySelector(".llm-bar").getBoundingClientRect(),
        id,
      );
      assert.ok(Math.abs(b.top) <= 1, `${id}, ${y} px into the figure: its bar is at ${b.top} px`);
    }
  }
  await scrollFigureTo(page, "quantization-figure", -1200);
  await page.screenshot({ path: artifact("reach-bar-1280.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("keyboard: each figure starts with “Skip Figure N” (“Skip this figure” without a numbered caption), shown while focused, from which Tab goes on after the figure", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280, height: 800 });
  const ids = await page.evaluate(() => [...document.querySelectorAll("figure [data-figure]")].map((el) => el.id));
  assert.ok(ids.length >= 10, `figures: ${ids}`);
  for (const id of ids) {
    const skip = page.locator(`#${id}`).getByRole("button", { name: /^Skip (Figure \d\.\d|this figure)$/ });
    assert.equal(await skip.count(), 1, `${id} has one skip button`);
    await skip.focus();
    const shown = await skip.evaluate((b) => b.getBoundingClientRect().width > 20);
    assert.ok(shown, `${id}: the skip button shows while it has the focus`);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    // The focus has left the figure, and stands after it in the page.
    const after = await page.evaluate((id) => {
      const figure = document.getElementById(id);
      const active = document.activeElement;
      return {
        inside: active === figure || figure.contains(active),
        following: !!(figure.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING),
      };
    }, id);
    assert.deepEqual(after, { inside: false, following: true }, id);
    // Without the skip, Tab from the figure's last control leaves it too: its end mark is no stop
    // of its own (issue 40: "End of Figure N" was one more Tab stop in every figure).
    const last = await page.evaluate((id) => {
      const root = document.getElementById(id).shadowRoot;
      const stops = [
        ...root.querySelectorAll('button, input, select, textarea, a[href], summary, [tabindex="0"]'),
      ].filter(
        (el) => !el.disabled && !el.closest("[inert]") && el.checkVisibility() && !el.classList.contains("llm-skip"),
      );
      stops.at(-1)?.focus();
      return root.activeElement === stops.at(-1) ? stops.at(-1).outerHTML.slice(0, 80) : null;
    }, id);
    assert.ok(last, `${id}: no last control to focus`);
    await page.keyboard.press("Tab");
    const next = await page.evaluate((id) => {
      const figure = document.getElementById(id);
      return figure.contains(document.activeElement) ? (figure.shadowRoot.activeElement?.textContent ?? "?") : null;
    }, id);
    assert.equal(next, null, `${id}: Tab from ${last} stayed in the figure, on “${next}”`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("keyboard: a display formula takes the focus only where it is wider than its column", async () => {
  for (const width of [1280, 390]) {
    const { page, errors } = await openReader(browser.context, { width, height: 800 });
    // Every section laid out as the reader reaches it (a section off the screen is not, and its
    // boxes are measured once it is), a screen at a time, each given frames to measure its boxes.
    await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await frame();
      }
    });
    await frames(page);
    // the boxes' widths now, each section laid out to be measured
    await page.evaluate(() => {
      for (const box of document.querySelectorAll('math[display="block"], .table-scroll')) void box.scrollWidth;
    });
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('math[display="block"], .table-scroll')].map((box) => ({
        scrolls: box.scrollWidth > box.clientWidth + 1,
        focusable: box.getAttribute("tabindex") === "0",
      })),
    );
    assert.ok(boxes.length >= 20, `${boxes.length} formulas and tables`);
    const wrong = boxes.filter((b) => b.scrolls !== b.focusable);
    assert.deepEqual(
      wrong,
      [],
      `${width} px: ${wrong.length} boxes focusable where they do not scroll, or not where they do`,
    );
    if (width === 1280) assert.ok(boxes.filter((b) => b.focusable).length <= 3, `${width} px: few formulas overflow`);
    else
      assert.ok(
        boxes.some((b) => b.focusable),
        `${width} px: some formulas overflow a phone's column`,
      );
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("laptop screens: the contents show to the offline button without scrolling their box, at 1280 × 800 and 1366 × 768", async () => {
  // issue 40: at 800 px the button was cut off at the foot of the sticky contents
  for (const [width, height] of [
    [1280, 800],
    [1366, 768],
  ]) {
    const { page, errors } = await openReader(browser.context, { width, height });
    await page.evaluate(() => scrollTo(0, 3000));
    const seen = await page.evaluate(() => {
      const toc = document.querySelector("nav.toc").getBoundingClientRect();
      const button = document.getElementById("offline-keep").getBoundingClientRect();
      return { inBox: button.top >= toc.top && button.bottom <= toc.bottom, onScreen: button.bottom <= innerHeight };
    });
    assert.deepEqual(seen, { inBox: true, onScreen: true }, `${width} × ${height}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
