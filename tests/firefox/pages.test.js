// Every page a reader or a course author opens, in Firefox ESR from file://: each becomes ready,
// draws every figure and logs no page error and no console error, after being read through to
// its end (Firefox checks a formula's MathML when it lays it out, and rejects what it cannot
// take as a page error).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useFirefox, open, readThrough, settle, assertFiguresDrawn, outside, artifact, dist } = require("./firefox.js");

const firefox = useFirefox(test);

// The figures by their embed name, element and id on the reader: the site's registry
// (site/src/widgets/figures.js).
const { figures: FIGURES } = require("../browser/registry.js");
// The palette as the site declares it (site/src/tokens.js).
const { colour, rgb } = require("../browser/tokens.js");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { drawingsOnPage, assertDrawingsShown, readerWithoutScripts, PLACES_SHOWN } = require("../browser/in-page.js");

test("firefox: the reader becomes ready from file://, draws every figure and logs no error when read to its end", async () => {
  // as a reader: the first screen drawn first, each figure as the reader scrolls near it
  await open(firefox, "reader.html", { lazy: true });
  assert.equal(
    await firefox.page.evaluate(() => document.getElementById("moe-figure").hasAttribute("data-ready")),
    false,
    "a figure far down waits for the reader",
  );
  await readThrough(firefox.page);
  await firefox.page.waitForSelector("html[data-ready]", { timeout: 15000 });
  const drawn = await assertFiguresDrawn(assert, firefox.page, "reader.html");
  for (const { id } of Object.values(FIGURES))
    assert.ok(
      drawn.some((f) => f.id === id),
      `#${id} is on the page`,
    );
  assert.ok((await firefox.page.$$eval("main math", (m) => m.length)) >= 8, "the formulas are MathML");
  await firefox.page.screenshot({ path: artifact("firefox-reader-top.png") });
  const figure = await firefox.page.$("#quantization-figure");
  await figure.scrollIntoView();
  await figure.screenshot({ path: artifact("firefox-quantization-figure.png") });
  assert.deepEqual(firefox.errors, []);
  assert.deepEqual(outside(firefox.requests), [], "requests outside the page's own files");
});

test("firefox: a deep link with a figure's state sets the figure, draws every figure and logs no error", async () => {
  await open(firefox, "reader.html", { suffix: "#quantization?quantization.alpha=0.3" });
  assert.equal(await firefox.page.evaluate(() => document.getElementById("quantization-figure").state.alpha), 0.3);
  await assertFiguresDrawn(assert, firefox.page, "the deep link");
  await firefox.page.screenshot({ path: artifact("firefox-deep-link.png") });
  await readThrough(firefox.page);
  assert.deepEqual(firefox.errors, []);
});

// Sections off screen skip layout (content-visibility: auto). When the section above the target
// is laid out and its figure then draws, Chromium's scroll anchoring keeps the target in place;
// Firefox 153 ESR's does not while the sections are content-visibility: auto (measured: §6 grown
// by 1,000 px moved §7 down by 1,000 px; with the sections visible, §7 stayed).
test("firefox: a link into the chapter, with or without a figure's state, still shows its section once the figures are drawn", async () => {
  for (const suffix of ["#quantization", "#quantization?quantization.alpha=0.3"]) {
    await open(firefox, "reader.html", { suffix, lazy: true });
    await settle(firefox.page, 1500);
    const top = await firefox.page.evaluate(() => document.getElementById("quantization").getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 40, `${suffix}: #quantization is ${Math.round(top)} px from the top of the screen`);
  }
});

for (const [name, { tag }] of Object.entries(FIGURES)) {
  test(`firefox: embed.html?widget=${name} draws its figure with its caption and logs no error`, async () => {
    await open(firefox, "embed.html", { suffix: `?widget=${name}` });
    const [figure] = await assertFiguresDrawn(assert, firefox.page, `embed.html?widget=${name}`);
    assert.equal(figure.tag, tag);
    const caption = await firefox.page.$eval("main > figure > figcaption", (c) => c.textContent);
    assert.match(caption, /Figure \d\.\d/);
    await settle(firefox.page);
    assert.deepEqual(firefox.errors, []);
  });
}

test("firefox: the course authors' guide shows every figure live and logs no error", async () => {
  await open(firefox, "embed-guide.html", { ready: null });
  for (const name of Object.keys(FIGURES))
    await firefox.page.waitForSelector(`#example-${name}[data-ready]`, { timeout: 15000 });
  await firefox.page.waitForSelector("#example-compact[data-ready]", { timeout: 15000 });
  const drawn = await assertFiguresDrawn(assert, firefox.page, "embed-guide.html");
  // one live example of each figure, and the compact one
  assert.equal(drawn.length, Object.keys(FIGURES).length + 1);
  await readThrough(firefox.page);
  assert.deepEqual(firefox.errors, []);
});

test("firefox: the one-file edition becomes ready, draws every figure and logs no error when read to its end", async () => {
  await open(firefox, "reader-standalone.html", { lazy: true });
  await readThrough(firefox.page);
  await firefox.page.waitForSelector("html[data-ready]", { timeout: 15000 });
  const drawn = await assertFiguresDrawn(assert, firefox.page, "reader-standalone.html");
  assert.ok(drawn.length >= Object.keys(FIGURES).length);
  assert.deepEqual(firefox.errors, []);
  assert.deepEqual(outside(firefox.requests), [], "requests outside the file itself");
});

test("firefox: printing (its own PDF) adds the Solutions and each figure's settings, names no file path, and takes them away after", async () => {
  await open(firefox, "reader.html");
  // What the print handlers added, read by a listener that runs after theirs.
  await firefox.page.evaluate(() => {
    addEventListener("beforeprint", () => {
      window.__printed = {
        solutions: document.querySelectorAll(".print-solutions .print-solution").length,
        exercises: document.querySelectorAll(".exercise").length,
        settings: [...document.querySelectorAll("main figure > .print-settings")].map((p) => p.textContent),
        figures: document.querySelectorAll("main figure").length,
        state: document.getElementById("print-state").textContent,
      };
    });
  });
  const pdf = await firefox.page.pdf({ format: "A4", printBackground: true });
  assert.ok(pdf.length > 100000, `a PDF of ${pdf.length} bytes`);
  const printed = await firefox.page.evaluate(() => window.__printed);
  assert.ok(printed, "the print ran the page's handlers");
  assert.ok(printed.solutions >= printed.exercises && printed.exercises >= 8, JSON.stringify(printed));
  assert.equal(printed.settings.length, printed.figures);
  // in the words of each figure's controls ("Causal mask: on"), not as attributes (causal=true)
  for (const s of printed.settings) {
    assert.match(s, /^Settings: /);
    assert.doesNotMatch(s, /[\w)-]=\S/);
  }
  assert.doesNotMatch(printed.state, /file:/);
  // After the print, nothing it added is left.
  assert.equal(
    await firefox.page.evaluate(() => document.querySelectorAll(".print-solutions, .print-settings").length),
    0,
  );
  assert.deepEqual(firefox.errors, []);
});

test("firefox: embed.html?scheme= pins the figure and its page, and with scheme auto the figure follows a theme toggled on the page", async () => {
  // The frame's page, the figure's host, and its panel: the palette's values (site/src/tokens.js).
  const look = () =>
    firefox.page.evaluate(() => {
      const el = document.getElementById("alibi-figure");
      const frame = el.shadowRoot.querySelector(".llm-frame");
      return [
        getComputedStyle(document.documentElement).backgroundColor,
        el.getAttribute("data-scheme"),
        getComputedStyle(frame).getPropertyValue("--bg").trim(),
        getComputedStyle(frame).backgroundColor,
        getComputedStyle(frame).colorScheme,
      ];
    });
  const expect = (s) => [rgb(colour("bg", s)), s, colour("bg", s), rgb(colour("panel", s)), s];
  const DARK = expect("dark");
  const LIGHT = expect("light");
  await open(firefox, "embed.html", { suffix: "?widget=alibi&scheme=dark" });
  assert.deepEqual(await look(), DARK, "?scheme=dark");
  await open(firefox, "embed.html", { suffix: "?widget=alibi&scheme=light" });
  assert.deepEqual(await look(), LIGHT, "?scheme=light");
  // auto, on a page that says Material's slate, then its default, as its palette toggle does
  await firefox.page.evaluate(() => {
    document.getElementById("alibi-figure").setAttribute("scheme", "auto");
    document.body.setAttribute("data-md-color-scheme", "slate");
  });
  await firefox.page.waitForFunction(() => document.getElementById("alibi-figure").dataset.scheme === "dark");
  assert.deepEqual((await look()).slice(1), DARK.slice(1), "auto on slate");
  await firefox.page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "default"));
  await firefox.page.waitForFunction(() => document.getElementById("alibi-figure").dataset.scheme === "light");
  assert.deepEqual((await look()).slice(1), LIGHT.slice(1), "auto on default");
  assert.deepEqual(firefox.errors, []);
});

test("firefox: embed.html served with a header policy that refuses WebAssembly names 'wasm-unsafe-eval'; one that refuses its scripts shows the note naming the policy it needs", async (t) => {
  // dist/ on 127.0.0.1, each page with the header a host would add (the /no-wasm/… and
  // /no-scripts/… of a path choose it); tests/browser/policy.test.js does the same in Chromium.
  const { serve } = require("../browser/browser.js");
  const POLICIES = { "no-wasm": "script-src 'self'", "no-scripts": "script-src 'none'" };
  const server = await serve({
    files: (pathname) => path.join(dist, path.basename(pathname)),
    headers: (pathname) =>
      pathname.endsWith(".html") ? { "content-security-policy": POLICIES[pathname.split("/")[1]] } : {},
  });
  t.after(() => server.close());
  const page = firefox.page;
  await page.goto(`${server.origin}/no-wasm/embed.html?widget=sampling`);
  await page.waitForSelector("html[data-failed]", { timeout: 15000 });
  await page.waitForFunction(() =>
    document.querySelector("llm-sampling")?.shadowRoot?.querySelector(".llm-pending")?.textContent.includes("engine"),
  );
  assert.equal(
    await page.evaluate(
      () => document.querySelector("llm-sampling").shadowRoot.querySelector(".llm-pending").textContent,
    ),
    "This figure cannot run: the engine did not start (the page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'). The text and the answers still read.",
  );
  await page.goto(`${server.origin}/no-scripts/embed.html?widget=sampling`);
  await page.waitForFunction(() => getComputedStyle(document.getElementById("embed-blocked")).opacity === "1", {
    timeout: 30000,
  });
  const note = await page.evaluate(() => document.getElementById("embed-blocked").textContent.replace(/\s+/g, " "));
  assert.ok(note.includes("script-src 'self' 'wasm-unsafe-eval'"), note);
});

test("firefox: before the figures' scripts have run, the first screen's figure, and a linked section's, show the drawings the page was built with, styled, and nothing logs an error", async () => {
  const dir = readerWithoutScripts(dist);
  try {
    for (const [hash, id] of PLACES_SHOWN) {
      firefox.errors.length = 0;
      await firefox.page.goto("about:blank");
      await firefox.page.goto(pathToFileURL(path.join(dir, "reader.html")).href + hash);
      await firefox.page.waitForSelector("html[data-first-screen-shown]", { timeout: 15000 });
      await settle(firefox.page);
      assertDrawingsShown(assert, await firefox.page.evaluate(drawingsOnPage), [id], `firefox ${hash || "top"}`);
      assert.deepEqual(firefox.errors, []);
      // for the eye: the drawing as Firefox shows it
      await (await firefox.page.$(`#${id}`)).screenshot({ path: artifact(`firefox-drawing-${id}.png`) });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
