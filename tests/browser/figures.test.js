// The registry of the figures (site/src/widgets/figures.js, each figure's declaration in
// site/src/widgets/<name>/<name>-figure.js): every figure declares each of its facets, and the pages find
// the figures by it.
//  - every figure names its element, its widget's module (whose widgets every page registers),
//    its id on the reader and its section, its picture (the parts Download SVG and PNG draw) and
//    its NumPy program (`numpy`, a function of the widget's state and result;
//    tests/browser/takeaway.test.js runs every figure's, through Copy as NumPy); every figure an
//    exercise answers for declares what the exercise conceals; every figure has its trial (what the
//    tests do with it in every browser); every selector declared finds its part in the figure
//    drawn with its defaults (the course authors' guide shows each so);
//  - the kit marks every figure's element with data-figure, its name, and the reader's styles
//    select figures by it, and before the widgets' script has defined them (scripts off) by
//    their place in a <figure>.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, drawAll, dist, CHROMIUM, FLAGS } = require("./browser.js");
const { figures, figureOf, trials } = require("./registry.js");

const browser = useBrowser(test);
const SELECTORS = (xs) => Array.isArray(xs) && xs.every((s) => typeof s === "string" && s.trim() !== "");

/**
 * What the page's widgets say about each figure of the registry, drawn with its defaults in the
 * guide: whether its tag is a widget, how many elements each selector it declares finds, its
 * data-figure; and the figure each exercise answers for.
 */
async function facets() {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(path.join(dist, "embed-guide.html")).href);
  await drawAll(page);
  await page.waitForFunction(
    (names) => names.every((n) => document.getElementById(`example-${n}`)?.hasAttribute("data-ready")),
    Object.keys(figures),
    { timeout: 20000 },
  );
  const seen = await page.evaluate(
    (figures) => {
      const out = { figures: {}, exercises: {} };
      for (const [name, f] of Object.entries(figures)) {
        const cls = customElements.get(f.tag);
        const el = document.getElementById(`example-${name}`);
        const count = (selector) => {
          try {
            return el.shadowRoot.querySelectorAll(selector).length;
          } catch {
            return "not a selector";
          }
        };
        out.figures[name] = {
          widget: Boolean(cls?.attributes),
          found: Object.fromEntries(
            ["picture", "conceals", "trial"].map((facet) => [
              facet,
              Array.isArray(f[facet]) ? f[facet].map((s) => [s, count(s)]) : null,
            ]),
          ),
          mark: el.getAttribute("data-figure"),
        };
      }
      // an exercise's element is its figure's with "answer-" (the script embed adds no list of
      // its elements to the page)
      for (const f of Object.values(figures)) {
        const tag = f.tag.replace(/^llm-/, "llm-answer-");
        if (customElements.get(tag)) out.exercises[tag] = customElements.get(tag).figure;
      }
      return out;
    },
    // the facets that are data (a function, numpy, does not cross into the page), and the
    // selectors of the figure's trial (its control, its readouts, its picture's numbers)
    Object.fromEntries(
      Object.entries(figures).map(([name, { tag, picture, conceals }]) => [
        name,
        {
          tag,
          picture,
          conceals,
          trial: [trials[name].control, trials[name].pictured, trials[name].readouts?.selector].filter(Boolean),
        },
      ]),
    ),
  );
  await page.close();
  return seen;
}

test("registry: a figure's name is its element's without llm-, and its former names (aliases) find it and name no other figure", () => {
  const { figureName } = require("./registry.js");
  for (const [name, f] of Object.entries(figures)) {
    assert.equal(`llm-${name}`, f.tag, name);
    assert.equal(figureName(name), name);
    for (const alias of f.aliases ?? []) {
      assert.ok(!Object.hasOwn(figures, alias), `${alias}, a former name of ${name}, is not another figure's name`);
      assert.equal(figureName(alias), name, alias);
    }
  }
  assert.equal(figureName("dilution"), "context-dilution");
  for (const none of ["constructor", "__proto__", "toString", "", "llm-rope", null])
    assert.equal(figureName(none), null);
});

test("registry: every figure declares its element, widget's module, id, section, picture and NumPy program, and what an exercise on it conceals", async () => {
  const seen = await facets();
  const tags = new Set(),
    ids = new Set();
  const answered = new Set(Object.values(seen.exercises));
  for (const [name, f] of Object.entries(figures)) {
    assert.match(f.tag ?? "", /^llm-[a-z]+(-[a-z]+)*$/, `${name}: its element`);
    assert.ok(!tags.has(f.tag) && !ids.has(f.id), `${name}: its element and id are its own`);
    tags.add(f.tag);
    ids.add(f.id);
    assert.match(f.id ?? "", /^[a-z]+(-[a-z]+)*$/, `${name}: its id on the reader`);
    assert.match(f.section ?? "", /^[a-z]+$/, `${name}: its section`);
    assert.match(f.module ?? "", /^[a-z]+(-[a-z]+)*\.js$/, `${name}: its widget's module`);
    const s = seen.figures[name];
    assert.ok(s.widget, `${name}: <${f.tag}> is a widget`);
    assert.equal(s.mark, name, `${name}: the kit marks its element data-figure="${name}"`);
    // Download SVG and PNG: the parts of its picture, each drawn.
    assert.ok(SELECTORS(f.picture) && f.picture.length > 0, `${name}: declares its picture (selectors of its parts)`);
    for (const [selector, n] of s.found.picture)
      assert.ok(n > 0, `${name}: its picture's part ${selector} is in the figure (${n})`);
    // Copy as NumPy: the figure's program, a function of the widget's state and result.
    assert.equal(typeof f.numpy, "function", `${name}: declares its NumPy program (numpy)`);
    // Its trial, which the tests make in every browser: a control, one number shown beside the
    // engine's, the numbers its picture carries; and but for the diagnosis (whose programs are
    // its scenarios'), a change, its program's printed numbers and the readouts that show them.
    const t = trials[name];
    assert.equal(typeof t?.control, "string", `${name}: its trial names the control a reader moves first`);
    assert.equal(typeof t.pictured, "string", `${name}: its trial names the numbers its picture carries`);
    assert.equal(typeof t.engine?.shown, "function", `${name}: trial.engine.shown reads a number it shows`);
    assert.equal(typeof t.engine?.core, "function", `${name}: trial.engine.core asks the engine for it`);
    if (name !== "diagnose") {
      assert.equal(typeof t.change, "object", `${name}: trial.change, a change of its inputs`);
      assert.equal(typeof t.prints, "function", `${name}: trial.prints, what its program prints`);
      assert.equal(typeof t.readouts?.values, "function", `${name}: trial.readouts, which printed numbers it shows`);
    }
    for (const [selector, n] of s.found.trial)
      assert.ok(n > 0, `${name}: its trial's ${selector} is in the figure (${n})`);
    // An exercise blurs what states its answer: the figure says what that is, and only a figure
    // an exercise answers for says it.
    if (answered.has(f.tag)) {
      assert.ok(
        SELECTORS(f.conceals),
        `${name}: an exercise answers for <${f.tag}>, so it declares what the exercise conceals`,
      );
      for (const [selector, n] of s.found.conceals)
        assert.ok(n > 0, `${name}: the readout ${selector} it conceals is in the figure (${n})`);
    } else {
      assert.equal(
        f.conceals,
        undefined,
        `${name}: no exercise answers for <${f.tag}>, yet it declares what one conceals`,
      );
    }
  }
  assert.ok(Object.keys(seen.exercises).length >= 8, "the exercises");
  for (const [tag, figure] of Object.entries(seen.exercises)) {
    assert.ok(figureOf(figure), `<${tag}> answers for <${figure}>, a figure of the registry`);
  }
});

test("registry: the reader's figures are selected by data-figure, and before their script by their place in a figure", async () => {
  const names = new Map(Object.entries(figures).map(([name, f]) => [f.tag, name]));
  const look = () =>
    [...document.querySelectorAll("*")]
      .filter((el) => el.localName.startsWith("llm-") && !el.localName.startsWith("llm-answer-"))
      .map((el) => ({
        tag: el.localName,
        id: el.id,
        mark: el.getAttribute("data-figure"),
        defined: el.matches(":defined"),
        minHeight: getComputedStyle(el).minHeight,
        display: getComputedStyle(el).display,
        inset: getComputedStyle(el).getPropertyValue("--llm-inset").trim(),
      }));
  const { page, errors } = await openReader(browser.context);
  const drawn = await page.evaluate(look);
  assert.ok(drawn.length >= Object.keys(figures).length, `${drawn.length} figures`);
  for (const f of drawn) {
    assert.deepEqual([f.defined, f.mark], [true, names.get(f.tag)], `#${f.id}: its name`);
    assert.deepEqual([f.display, f.minHeight, f.inset], ["block", "64px", "0"], `#${f.id}: placed by reader.css`);
  }
  assert.deepEqual(errors, []);
  await page.close();
  // Scripts off: the elements are never defined, and take the same room; the build wrote their
  // mark with their drawings (site/prerender.mjs), which the parser shows.
  const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const off = await (await b.newContext({ javaScriptEnabled: false })).newPage();
    await off.goto(pathToFileURL(path.join(dist, "reader.html")).href);
    const bare = await off.evaluate(look);
    // nothing to press that needs a script: the offline copy is kept by offline.js
    assert.equal(await off.locator("#offline-keep").isVisible(), false, "Keep this chapter with scripts off");
    assert.deepEqual(
      bare.map((f) => f.id),
      drawn.map((f) => f.id),
    );
    for (const f of bare) {
      assert.deepEqual([f.defined, f.mark], [false, names.get(f.tag)], `#${f.id} with scripts off`);
      // the opening figure holds the room of its drawing, as before its script has drawn it
      assert.deepEqual(
        [f.display, f.minHeight, f.inset],
        ["block", f.id === "opening-attention" ? "270px" : "64px", "0"],
        `#${f.id} with scripts off: placed by reader.css`,
      );
    }
  } finally {
    await b.close();
  }
});
