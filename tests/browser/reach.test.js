// Keeping the reader's view together: on a laptop each exercise's
// field docks at the bottom of the screen while its figure fills it, and goes back to its place
// as the figure's last row comes onto the screen, never lying over that row or the exercise
// after it; on a phone each way between a figure and its question is one tap; a tall
// figure's main controls stay on screen while the reader scrolls through it; a figure can be
// skipped with one key press; and a formula takes the focus only where it scrolls.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const { useBrowser, openReader, artifact } = require("./browser.js");
const { EXERCISES } = require("./exercise-list.js");

const browser = useBrowser(test);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

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
    // of its own ("End of Figure N" was once one more Tab stop in every figure).
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
  // At 800 px the button was once cut off at the foot of the sticky contents
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

/**
 * In the page: scrolls through the figure `id` in steps of `step` px, from its top at the top of
 * the screen until its exercise's field is in its place on the screen, and at each step, once
 * the page has settled (two frames after the scroll, and no transition running), reads where the
 * docked field is and what lies under it. A control of the figure's body that the dock passes
 * over (as the screen's edge passes over it) is focused, as Tab would, and must then be clear of
 * the dock. Returns the steps at which a field was docked and what was wrong at each.
 */
async function throughFigure([id, step]) {
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  // A transition or animation still running (an endless one, a spinner, is not waited for).
  const moving = () =>
    document
      .getAnimations()
      .some((a) => a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity);
  const settle = async () => {
    await frames();
    while (moving()) await frames();
  };
  const CONTROLS =
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"], [role="button"], [role="link"], [role="slider"], [role="checkbox"], [role="radio"], [role="tab"]';
  /** Every control in `root` and in the shadow roots within it. */
  const controls = (root, out = []) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.matches(CONTROLS)) out.push(el);
      if (el.shadowRoot) controls(el.shadowRoot, out);
    }
    return out;
  };
  /** The element of the document that holds `el` (the figure, for an element of its shadow root). */
  const host = (el) => {
    while (el.getRootNode() !== document) el = el.getRootNode().host;
    return el;
  };
  const name = (el) =>
    `<${el.localName}${el.className ? ` class="${el.className.baseVal ?? el.className}"` : ""}> “${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30)}”`;
  const over = (r, d) =>
    r.bottom > d.top + 0.5 && r.top < d.bottom - 0.5 && r.right > d.left + 0.5 && r.left < d.right - 0.5;
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    // a visually hidden element (the figure's Skip, shown only with the focus) is 1 px
    return r.width >= 2 && r.height >= 2 && el.checkVisibility({ visibilityProperty: true }) && !el.closest("[inert]");
  };
  const figure = document.getElementById(id);
  const answer = document.querySelector(`[for="${id}"]`);
  const top = figure.getBoundingClientRect().top + scrollY;
  const all = controls(document);
  const docked = [];
  const wrong = [];
  for (let y = 0; y < 20000; y += step) {
    scrollTo(0, top + y);
    await settle();
    const dock = document.querySelector(".predict-docked");
    if (dock) {
      docked.push(y);
      const d = dock.getBoundingClientRect();
      // Nor is the exercise's text, its question, which the reader reads before the field.
      const exercise = (answer.closest(".exercise") ?? answer).getBoundingClientRect();
      if (exercise.top < d.bottom - 0.5) wrong.push(`${y} px: the exercise's text is under the dock`);
      for (const el of all) {
        if (dock.contains(el) || !seen(el) || !over(el.getBoundingClientRect(), d)) continue;
        // What follows the figure's body (its last row, its caption, the exercise), or any other
        // control of the page, is never under the dock.
        if (host(el) !== figure || figure.actions.contains(el)) {
          wrong.push(`${y} px: ${name(el)} lies under the dock`);
          continue;
        }
        // A control of the figure's body, passed over: focused, it is scrolled clear.
        el.focus();
        await settle();
        const now = document.querySelector(".predict-docked")?.getBoundingClientRect();
        if (now && over(el.getBoundingClientRect(), now))
          wrong.push(`${y} px: ${name(el)}, focused, stays under the dock`);
        el.blur();
        scrollTo(0, top + y);
        await settle();
      }
    }
    const place = (document.querySelector(".predict-dock-place") ?? answer.current().box).getBoundingClientRect();
    if (!dock && place.bottom <= innerHeight) break;
  }
  return { docked, wrong };
}

// The docked field once lay over the figure's Reset / Copy / Download row and the
// exercise's text near the figure's end (axe-core: 11 targets partly covered).
test("the docked field never lies over a figure's last row or its exercise, at 1280 × 800, 1366 × 768, 390 × 844 and 360 × 740, and axe-core's target-size rule finds nothing while it is docked", async () => {
  for (const [width, height] of [
    [1280, 800],
    [1366, 768],
    [390, 844],
    [360, 740],
  ]) {
    const { page, errors } = await openReader(browser.context, { width, height });
    await page.evaluate(AXE);
    const ids = await page.evaluate(() =>
      [...document.querySelectorAll("[for]")]
        .filter((a) => a.localName.startsWith("llm-answer"))
        .map((a) => a.getAttribute("for")),
    );
    assert.equal(ids.length, 9, `the exercises' figures: ${ids}`);
    const laptop = width >= 1280;
    const wrong = [];
    for (const id of ids) {
      const walk = await page.evaluate(throughFigure, [id, 100]);
      wrong.push(...walk.wrong.map((w) => `${id}, ${w}`));
      const { docked } = walk;
      // The field docks on a laptop while the figure fills the screen, and never on a phone.
      if (laptop) assert.ok(docked.includes(0), `${width} × ${height}, ${id}: docked at ${docked}`);
      else assert.deepEqual(docked, [], `${width} × ${height}, ${id}`);
      // axe's target-size rule (a target partly covered by another is too small), over the
      // figure and its exercise with its docked field, with the figure's top at the top of the
      // screen and at the last step with the field docked, near the figure's end: for the
      // shortest figure, the one whose docked field is tallest (its label wraps) and the longest
      // (each run takes seconds). Over the whole page the rule also counts, wherever the page is
      // scrolled, each figure's Reset / Copy row as under its own sticky bar, which lies over that
      // row only while the row leaves the screen at the top.
      const audited = laptop && ["attention-figure", "alibi-figure", "model-figure"].includes(id);
      for (const y of audited ? [0, docked.at(-1)] : []) {
        await scrollFigureTo(page, id, -y);
        await page.waitForFunction(
          () =>
            document.querySelector(".predict-docked") &&
            !document
              .getAnimations()
              .some((a) => a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity),
        );
        const found = await page.evaluate(async (id) => {
          const figure = document.getElementById(id);
          const exercise = document.querySelector(`[for="${id}"]`).closest(".exercise");
          const result = await axe.run(
            { include: [figure, exercise] },
            { runOnly: ["target-size"], resultTypes: ["violations"] },
          );
          return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`));
        }, id);
        wrong.push(...found.map((f) => `${id}, ${y} px, axe: ${f}`));
        if (id === "alibi-figure" && y > 0) await page.screenshot({ path: artifact(`reach-dock-end-${width}.png`) });
      }
    }
    assert.deepEqual(wrong, [], `${width} × ${height}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
