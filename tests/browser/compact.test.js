// A figure made smaller: the view attribute compact, and embed.html?compact,
// keep a figure's chart and the controls that move it and leave out the parts its declaration
// names (compact.hides in site/src/widgets/<name>/<name>-figure.js) and the kit's row of buttons. For
// every figure of the registry: each part it declares is on the page in full and gone in compact,
// the figure is shorter, a control left in view still changes the picture, and the attribute
// added or removed on a live element changes how it is shown and keeps what the reader set.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openFigure, openReader } = require("./browser.js");
const { figures } = require("./registry.js");

const browser = useBrowser(test);

/** What of a figure is in view: for each declared part, how many of its elements are shown. */
function look(page, tag, hides) {
  return page.evaluate(
    ({ tag, hides }) => {
      const el = document.querySelector(tag);
      const frame = el.shadowRoot.querySelector(".llm-frame");
      const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
      const parts = Object.fromEntries(
        [...hides, "> .llm-actions"].map((sel) => {
          const nodes = [...frame.querySelectorAll(`:scope ${sel}`)];
          return [sel, { count: nodes.length, shown: nodes.filter(shown).length }];
        }),
      );
      return { parts, height: el.getBoundingClientRect().height, compact: frame.classList.contains("llm-compact") };
    },
    { tag, hides },
  );
}

/** The picture's markup (the figure's picture selectors), to see it change. */
function picture(page, tag, selectors) {
  return page.evaluate(
    ({ tag, selectors }) =>
      selectors
        .map((s) => [...document.querySelector(tag).shadowRoot.querySelectorAll(s)].map((n) => n.outerHTML).join(""))
        .join("|"),
    { tag, selectors },
  );
}

/**
 * Moves the first control left in view (a slider, a menu, a number field or a stepper button)
 * to another value, as a reader would. Returns what was moved.
 */
async function moveAControl(page, tag) {
  const handle = await page.evaluateHandle((tag) => {
    const root = document.querySelector(tag).shadowRoot;
    const shown = (n) => n.getClientRects().length > 0;
    const sel =
      'input[type="range"], select, input[type="number"], button:not(.llm-skip):not([aria-pressed]), input[type="radio"], input[type="checkbox"]';
    return [...root.querySelectorAll(".llm-frame " + sel)].find((n) => shown(n) && !n.disabled) ?? null;
  }, tag);
  const control = handle.asElement();
  assert.ok(control, `${tag}: compact leaves a control in view`);
  const kind = await control.evaluate((n) => (n.localName === "input" ? n.type : n.localName));
  if (kind === "range") {
    await control.focus();
    await page.keyboard.press("End");
  } else if (kind === "select") {
    const values = await control.evaluate((n) => [...n.options].map((o) => o.value));
    const now = await control.evaluate((n) => n.value);
    await control.selectOption(values.find((v) => v !== now));
  } else if (kind === "number") {
    await control.focus();
    await page.keyboard.press("ArrowUp");
    await control.evaluate((n) => n.dispatchEvent(new Event("change", { bubbles: true })));
  } else {
    await control.click();
  }
  return kind;
}

for (const [name, f] of Object.entries(figures)) {
  test(`${name}: compact leaves out what its declaration names, keeps a control that moves the chart`, async () => {
    const full = await openFigure(browser.context, name, { width: 800 });
    const before = await look(full.page, f.tag, f.compact.hides);
    // a part shown only on paper (the trainer's printed list) is looked for in print
    await full.page.emulateMedia({ media: "print" });
    const printed = await look(full.page, f.tag, f.compact.hides);
    await full.page.close();
    for (const [sel, p] of Object.entries(before.parts)) {
      assert.ok(p.count > 0, `${name}: the declared part ${sel} is in the figure`);
      // the kit's row of buttons is left out on paper in full too
      if (sel !== "> .llm-actions")
        assert.ok(p.shown + printed.parts[sel].shown > 0, `${name}: ${sel} is shown in full, on screen or on paper`);
    }

    const { page, errors } = await openReaderCompact(name);
    const after = await look(page, f.tag, f.compact.hides);
    assert.ok(after.compact, `${name}: the frame is marked compact`);
    for (const [sel, p] of Object.entries(after.parts)) assert.equal(p.shown, 0, `${name}: ${sel} is left out`);
    await page.emulateMedia({ media: "print" });
    for (const [sel, p] of Object.entries((await look(page, f.tag, f.compact.hides)).parts))
      assert.equal(p.shown, 0, `${name}: ${sel} is left out on paper too`);
    await page.emulateMedia({ media: "screen" });
    assert.ok(
      after.height < before.height,
      `${name}: compact is shorter (${after.height} px) than full (${before.height} px)`,
    );

    const chart = await picture(page, f.tag, f.picture);
    const kind = await moveAControl(page, f.tag);
    await page
      .waitForFunction(
        ({ tag, selectors, chart }) =>
          selectors
            .map((s) =>
              [...document.querySelector(tag).shadowRoot.querySelectorAll(s)].map((n) => n.outerHTML).join(""),
            )
            .join("|") !== chart,
        { tag: f.tag, selectors: f.picture, chart },
        { timeout: 30000 },
      )
      .catch(() => assert.fail(`${name}: moving a ${kind} in compact changes the picture`));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** embed.html?widget=<name>&compact, as a course page frames a compact figure. */
function openReaderCompact(name, width = 800) {
  return openReader(browser.context, { file: "embed.html", hash: `?widget=${name}&compact`, width });
}

test("compact added and removed on a live figure changes how it is shown and keeps the reader's settings", async () => {
  const f = figures.sampling;
  const { page, errors } = await openFigure(browser.context, "sampling", { width: 800 });
  await page.evaluate(() => {
    const el = document.querySelector("llm-sampling");
    el.setAttribute("temperature", "1.7");
  });
  await page.waitForFunction(() => document.querySelector("llm-sampling").state.temperature === 1.7);
  const state = await page.evaluate(() => JSON.stringify(document.querySelector("llm-sampling").state));
  const full = await look(page, f.tag, f.compact.hides);

  await page.evaluate(() => document.querySelector("llm-sampling").toggleAttribute("compact", true));
  const small = await look(page, f.tag, f.compact.hides);
  assert.ok(small.compact && small.height < full.height, `compact on: ${small.height} < ${full.height} px`);
  for (const [sel, p] of Object.entries(small.parts)) assert.equal(p.shown, 0, `${sel} left out`);
  assert.equal(await page.evaluate(() => JSON.stringify(document.querySelector("llm-sampling").state)), state);

  await page.evaluate(() => document.querySelector("llm-sampling").removeAttribute("compact"));
  const again = await look(page, f.tag, f.compact.hides);
  assert.ok(!again.compact);
  assert.equal(again.height, full.height, "removing compact gives the full figure back");
  assert.equal(await page.evaluate(() => JSON.stringify(document.querySelector("llm-sampling").state)), state);
  // compact is how the figure is shown, not a part of its state: a link leaves it out
  assert.ok(!/compact/.test(await page.evaluate(() => JSON.stringify(document.querySelector("llm-sampling").state))));
  assert.deepEqual(errors, []);
  await page.close();
});
