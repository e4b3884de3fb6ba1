// Narrow figures: a figure under about 320 px wide, as in a notebook's output
// column or a phone's frame, stacks each slider's label above the slider and keeps every slider
// at least 120 px wide; nothing runs out of the figure sideways, no table hides a sliver of itself
// (under 24 px, half a number) behind a sideways scroll, no number field cuts its number, and
// every control stays a target of 24 × 24 px (axe's target-size). It is the figure's width that counts, not the screen's, so
// each figure is also measured in a 245 px column of a wide window, where no media query for a
// narrow screen applies.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const { useBrowser, openFigure, openReader, artifact } = require("./browser.js");
const { figures } = require("./registry.js");

const browser = useBrowser(test);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

// A slider shorter than this is hard to set to one of its values by finger or mouse: at 120 px a
// 0 … 255 slider still moves by about two positions a pixel.
const MIN_SLIDER = 120;
// The figure width under which labels must stack (the "about 320 px").
const STACK_BELOW = 320;
// Layout rounds boxes to 1/64 px; half a pixel leaves room for that and nothing more.
const SLACK = 0.5;
// A scroll box that hides less than this reads as cut off, not as scrollable.
const SLIVER = 24;

/**
 * Measures every figure in the page: its width, every slider it shows (width, its label's bottom
 * and its own top), how far anything in it runs past its right edge, and how far the page scrolls
 * sideways.
 */
function measure(page) {
  return page.evaluate(
    (SLIVER) =>
      [...document.querySelectorAll("*")]
        .filter((el) => el.localName.startsWith("llm-") && el.shadowRoot)
        .map((figure) => {
          const frame = figure.shadowRoot.querySelector(".llm-frame");
          const sliders = [...figure.shadowRoot.querySelectorAll("input[type=range]")]
            .filter((input) => input.getClientRects().length > 0)
            .map((input) => {
              const r = input.getBoundingClientRect();
              const label = input.labels[0].getBoundingClientRect();
              return {
                name: input.labels[0].textContent.trim(),
                width: r.width,
                top: r.top,
                labelBottom: label.bottom,
              };
            });
          return {
            figure: figure.id || figure.localName,
            width: figure.getBoundingClientRect().width,
            sliders,
            // What the frame holds beyond its own width (a wide table inside a scroll box does not
            // count: the box scrolls, the frame does not grow).
            overflow: frame.scrollWidth - frame.clientWidth,
            // Scroll boxes that hide only a sliver of their content: no reader scrolls a box for a
            // few pixels, so the sliver reads as a value cut off at the figure's edge.
            slivers: [...figure.shadowRoot.querySelectorAll("*")]
              .filter((el) => el.getClientRects().length > 0 && /auto|scroll/.test(getComputedStyle(el).overflowX))
              .map((el) => ({
                box: `${el.localName}.${[...el.classList].join(".")}`,
                by: el.scrollWidth - el.clientWidth,
              }))
              .filter(({ by }) => by > 0 && by < SLIVER),
            // Number fields too narrow for the number they hold (its end cut off inside the field).
            cutFields: [...figure.shadowRoot.querySelectorAll("input[type=number]")]
              .filter((input) => input.getClientRects().length > 0 && input.scrollWidth > input.clientWidth)
              .map(
                (input) =>
                  `${input.getAttribute("aria-label") ?? input.labels[0]?.textContent.trim()} = ${input.value}`,
              ),
            pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        }),
    SLIVER,
  );
}

/** Every fault of one measured figure, as sentences; none when it fits. */
function faults({ figure, width, sliders, overflow, slivers, cutFields, pageOverflow }) {
  const found = [];
  for (const s of sliders) {
    if (s.width < MIN_SLIDER - SLACK) found.push(`${figure} "${s.name}": slider ${s.width.toFixed(1)} px wide`);
    if (width < STACK_BELOW && s.labelBottom > s.top + SLACK)
      found.push(
        `${figure} "${s.name}": label ends at ${s.labelBottom.toFixed(1)}, slider starts at ${s.top.toFixed(1)}`,
      );
  }
  if (overflow > SLACK) found.push(`${figure} at ${width.toFixed(0)} px: its content runs ${overflow} px past it`);
  for (const field of cutFields) found.push(`${figure} at ${width.toFixed(0)} px: the field ${field} cuts its number`);
  for (const { box, by } of slivers) found.push(`${figure} at ${width.toFixed(0)} px: ${box} scrolls by only ${by} px`);
  if (pageOverflow > SLACK) found.push(`${figure}: the page scrolls sideways by ${pageOverflow} px`);
  return found;
}

/** axe's target-size findings in the page, one line each. */
async function targetSize(page) {
  // The page's Content-Security-Policy refuses injected scripts; evaluate axe's source instead.
  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    axe.run(document, { runOnly: { type: "rule", values: ["target-size"] }, resultTypes: ["violations"] }),
  );
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

for (const width of [260, 300]) {
  test(`every figure alone at ${width} px: labels above sliders of ${MIN_SLIDER} px or more, nothing overflows, targets 24 px`, async () => {
    const found = [];
    let counted = 0;
    for (const name of Object.keys(figures)) {
      const { page, errors } = await openFigure(browser.context, name, { width, height: 800 });
      const [m] = await measure(page);
      assert.ok(m.width < STACK_BELOW, `${name}: the figure is ${m.width} px wide at a ${width} px window`);
      counted += m.sliders.length;
      found.push(...faults(m), ...(await targetSize(page)).map((v) => `${name}: ${v}`), ...errors);
      if (name === "sampling" && width === 260) await page.screenshot({ path: artifact("narrow-sampling-260.png") });
      await page.close();
    }
    // Ten figures have sliders (sampling 3, speculative 3, rope 4, alibi 4, …): a check over none
    // could not fail.
    assert.ok(counted >= 20, `only ${counted} sliders measured`);
    assert.deepEqual(found, []);
  });
}

test("every figure in a 245 px column of a wide window (a notebook's output) stacks its labels", async () => {
  const found = [];
  for (const name of Object.keys(figures)) {
    const { page, errors } = await openFigure(browser.context, name, { width: 1280, height: 800 });
    // The column: an element 245 px wide, as a notebook's output area is, the figure moved into it
    // (a figure moved keeps working: it is disconnected and connected again); its width set by the
    // CSSOM, which the page's policy allows (it refuses style attributes in markup, not styles set
    // by script).
    await page.evaluate(async () => {
      const figure = [...document.querySelectorAll("*")].find((el) => el.localName.startsWith("llm-") && el.shadowRoot);
      const column = document.createElement("div");
      column.style.width = "245px";
      figure.before(column);
      column.append(figure);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    const [m] = await measure(page);
    assert.ok(Math.abs(m.width - 245) <= SLACK, `${name}: the column is ${m.width} px wide`);
    found.push(...faults(m), ...errors);
    await page.close();
  }
  assert.deepEqual(found, []);
});

test("the reader at 360 px: every slider at least 120 px wide, labels stacked in figures under 320 px", async () => {
  const { page, errors } = await openReader(browser.context, { width: 360, height: 740 });
  await page.evaluate(async () => {
    for (const s of document.querySelectorAll("main > section")) s.style.contentVisibility = "visible";
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  const all = await measure(page);
  assert.ok(all.reduce((n, f) => n + f.sliders.length, 0) >= 20, "the reader's sliders were measured");
  assert.deepEqual(all.flatMap(faults), []);
  assert.deepEqual(errors, []);
  await page.close();
});
