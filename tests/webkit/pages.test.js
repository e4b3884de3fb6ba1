// Every page a reader or a course author opens, in WebKitGTK: the reader at a laptop's width
// (1280 px) and a phone's (390 px), the course authors' guide and the one-file edition, each read
// through to its end with every figure drawn and no page error; the reader's chart text in the
// page's fonts; its Copy link giving a link that opens the figure as it was; and the reader and
// the one-file edition from disk (file://), as a reader keeps them. Screenshots of the reader at
// both widths land in build/test-artifacts/webkit-*.png.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const {
  useWebKit,
  open,
  openFile,
  waitFor,
  pageErrors,
  outsideRequests,
  readThrough,
  assertFiguresDrawn,
  artifact,
  decodePng,
  KEYS,
  dist,
} = require("./webkit.js");
const { figures: FIGURES } = require("../browser/registry.js");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { drawingsOnPage, assertDrawingsShown, readerWithoutScripts, PLACES_SHOWN } = require("../browser/in-page.js");

const webkit = useWebKit(test);

/** Screenshots of the top of the page and of two sections rich in charts, at the viewport's width. */
async function screenshots(width) {
  const { session } = webkit;
  await session.execute(() => scrollTo(0, 0));
  await session.screenshot(artifact(`webkit-reader-${width}-top.png`));
  for (const id of ["cost", "sampling"]) {
    // the section's figure at the top of the screen, as a reader scrolls to it
    await session.execute((id) => document.getElementById(`${id}-figure`).scrollIntoView(), id);
    await session.screenshot(artifact(`webkit-reader-${width}-${id}.png`));
  }
}

/** Every figure of the registry on the page, drawn, with no error in it. */
async function assertEveryFigure(what) {
  const drawn = await assertFiguresDrawn(assert, webkit, what);
  for (const { id } of Object.values(FIGURES))
    assert.ok(
      drawn.some((f) => f.id === id),
      `${what}: #${id} is on the page`,
    );
  return drawn;
}

// The reader at 1280 px read through, in this test or by the one before: its address then.
let readReader = null;

test("webkit: the reader at 1280 px becomes ready, draws every figure and logs no page error when read to its end", async () => {
  readReader = null;
  // as a reader: the first screen first, each figure drawn as the reader comes near it
  const url = await open(webkit, "reader.html", { lazy: true });
  await readThrough(webkit);
  await waitFor(webkit, "html[data-ready]", 20000);
  await assertEveryFigure("reader.html");
  assert.ok(
    await webkit.session.execute(() => document.querySelectorAll("main math").length >= 8),
    "the formulas are MathML",
  );
  await screenshots(1280);
  readReader = url;
  assert.deepEqual(await pageErrors(webkit), []);
  assert.deepEqual(await outsideRequests(webkit), [], "requests outside the site");
  assert.deepEqual(webkit.server.missing, [], "files the page asked for and the site lacks");
});

// --- chart text in the page's fonts ---------------------------------------------------------
// Every <text> of every figure's charts (SVG in the figure's shadow root), on the reader read
// through: (1) its computed font-family is the page's sans-serif stack, var(--sans); (2) it is
// drawn in that computed font: its length equals the same text's in a <text> beside it given
// that font, size and weight outright; (3) none of its characters is drawn with a serif face's
// glyph: each character is drawn large in the chart's font, in the generic sans-serif and serif
// families and in the page's own serif stack (var(--serif), the body text), one screenshot of all,
// and where sans-serif and a serif draw the character differently, the chart's must not be that
// serif's.

/** The reader's chart text, with its computed font, and the page's stacks as computed. */
function chartText() {
  return webkit.session.execute(() => {
    const probe = document.createElement("span");
    document.body.append(probe);
    const stack = (v) => {
      probe.style.fontFamily = `var(--${v})`;
      return getComputedStyle(probe).fontFamily;
    };
    const fonts = { sans: stack("sans"), serif: stack("serif") };
    probe.remove();
    const labels = [];
    for (const el of document.querySelectorAll("*")) {
      if (!el.localName.startsWith("llm-") || !el.shadowRoot || !el.constructor.attributes) continue;
      for (const t of el.shadowRoot.querySelectorAll("svg text")) {
        if (!t.textContent.trim()) continue;
        const cs = getComputedStyle(t);
        // beside it, at the chart's scale (SVG text is laid out at the size it is drawn)
        const twin = document.createElementNS("http://www.w3.org/2000/svg", "text");
        twin.style.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        twin.textContent = t.textContent;
        t.after(twin);
        labels.push({
          figure: el.id,
          text: t.textContent,
          family: cs.fontFamily,
          weight: cs.fontWeight,
          style: cs.fontStyle,
          length: t.getComputedTextLength(),
          twin: twin.getComputedTextLength(),
        });
        twin.remove();
      }
    }
    return { fonts, labels };
  });
}

const CELL = 48; // px: a character drawn at 32 px, with room around it

/**
 * Draws each character of `cells` ({ char, weight, style }) in each family of `families`, in a
 * grid over the page; resolves to the screenshot's pixels and each drawing's top-left corner.
 */
async function drawCells(cells, families) {
  const { session } = webkit;
  const corners = await session.execute(
    (cells, families, CELL) => {
      const NS = "http://www.w3.org/2000/svg";
      const cover = document.createElement("div");
      cover.id = "webkit-glyphs";
      cover.style.cssText = "position: fixed; inset: 0; background: #fff; z-index: 2147483647";
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("width", String(innerWidth));
      svg.setAttribute("height", String(innerHeight));
      cover.append(svg);
      document.body.append(cover);
      const across = Math.floor(innerWidth / CELL);
      let n = 0;
      return cells.map(({ char, weight, style }) =>
        families.map((family) => {
          const [x, y] = [(n % across) * CELL, Math.floor(n / across) * CELL];
          n++;
          const t = document.createElementNS(NS, "text");
          t.setAttribute("x", String(x + 8));
          t.setAttribute("y", String(y + 36));
          t.style.font = `${style} ${weight} 32px ${family}`;
          t.style.fill = "#000";
          t.textContent = char;
          svg.append(t);
          return [x, y];
        }),
      );
    },
    cells,
    families,
    CELL,
  );
  const bottom = Math.max(...corners.flat().map(([, y]) => y)) + CELL;
  const png = decodePng(await session.screenshot(artifact("webkit-chart-glyphs.png")));
  await session.execute(() => document.getElementById("webkit-glyphs").remove());
  assert.ok(bottom <= png.height, `the characters fit on one screen (${bottom} px of ${png.height})`);
  return { png, corners };
}

/** Whether two cells of the screenshot hold the same pixels (a grey level apart at most). */
function sameCell({ width, channels, data }, [x1, y1], [x2, y2]) {
  for (let j = 0; j < CELL; j++)
    for (let i = 0; i < CELL * channels; i++) {
      const a = data[((y1 + j) * width + x1) * channels + i];
      const b = data[((y2 + j) * width + x2) * channels + i];
      if (Math.abs(a - b) > 1) return false;
    }
  return true;
}

test("webkit: the reader's chart text is in the page's fonts: its sans-serif stack as computed and as drawn, and no character in a serif face", async () => {
  if (!readReader || (await webkit.session.url()) !== readReader) {
    await open(webkit, "reader.html");
    await readThrough(webkit);
  }
  const { fonts, labels } = await chartText();
  assert.ok(labels.length >= 100, `${labels.length} chart labels on the page read through`);
  const figuresWithCharts = new Set(labels.map((l) => l.figure));
  assert.ok(figuresWithCharts.size >= 8, `charts in ${[...figuresWithCharts].join(", ")}`);
  for (const l of labels) {
    assert.equal(l.family, fonts.sans, `#${l.figure} "${l.text}": its computed font-family`);
    // the same text in the same font: the same glyphs, the same length (0.1% for rounding)
    assert.ok(
      Math.abs(l.length - l.twin) <= 1e-3 * l.twin,
      `#${l.figure} "${l.text}" is ${l.length} px long, ${l.twin} px in its computed font`,
    );
  }
  const cells = new Map();
  for (const l of labels)
    for (const char of l.text) if (char.trim()) cells.set(`${char} ${l.weight} ${l.style}`, { char, ...l });
  const families = [fonts.sans, "sans-serif", "serif", fonts.serif];
  const { png, corners } = await drawCells([...cells.values()], families);
  const serifs = [];
  let told = 0;
  [...cells.values()].forEach(({ char, weight }, i) => {
    const [chart, sans, ...others] = corners[i];
    others.forEach((serif, k) => {
      if (sameCell(png, sans, serif)) return; // drawn alike in sans-serif and in this serif
      told++;
      if (sameCell(png, chart, serif)) serifs.push(`"${char}" (weight ${weight}) as in ${families[k + 2]}`);
    });
  });
  assert.ok(told >= cells.size, `${told} comparisons could tell sans-serif from serif, of ${2 * cells.size}`);
  assert.deepEqual(serifs, [], "chart characters drawn with a serif face's glyph");
});

test("webkit: Copy link on the reader gives the figure's link with its new setting, and that link opens the figure so", async () => {
  const { session } = webkit;
  await open(webkit, "reader.html");
  const id = "speculative-figure";
  // α up two steps: one typed into the slider (WebDriver's send keys focuses it), one pressed
  // where the focus now is (WebDriver's actions)
  const control = await session.find('input[type="range"]', `#${id}`);
  await session.sendKeys(control, KEYS.ArrowUp);
  await session.press("ArrowUp");
  const alpha = await session.execute((id) => document.getElementById(id).state.alpha, id);
  assert.equal(alpha, 0.52);
  await session.click(await session.find(".llm-copy-link", `#${id}`));
  const { label, link } = await session.execute((id) => {
    const panel = document.getElementById(id).shadowRoot.querySelector(".llm-panel");
    return { label: panel.querySelector("strong").textContent, link: panel.querySelector("textarea").value };
  }, id);
  // copied, the click being the reader's gesture; the link is the panel's text either way
  assert.equal(label, "Link copied to the clipboard");
  assert.equal(link, `${webkit.server.origin}/reader.html#${id}?speculative.alpha=0.52`);
  await open(webkit, "reader.html", { suffix: link.slice(link.indexOf("#")) });
  assert.equal(await session.execute((id) => document.getElementById(id).state.alpha, id), 0.52);
  const top = await session.execute((id) => document.getElementById(id).getBoundingClientRect().top, id);
  // at the top, within the few pixels a figure drawn above it may still move it by (seen: −2 px)
  assert.ok(top > -40 && top < 200, `the figure is at the top of the screen (${Math.round(top)} px)`);
  assert.deepEqual(await pageErrors(webkit), []);
});

// WebKit has no scroll anchoring: as the figures near a place in the page draw (a screen above it
// too), what stands above the place grows, and without the reader's hold (reader.js holdAnchor) the
// place would run off the screen (measured: §2 1,400 to 2,400 px above its top).
test("webkit: a link to a place in the page, at the load and from within it, keeps that place at the top as the figures near it draw", async () => {
  const top = (id) => webkit.session.execute((id) => document.getElementById(id).getBoundingClientRect().top, id);
  await open(webkit, "reader.html", { suffix: "#sampling", lazy: true });
  await waitFor(webkit, "#sampling-figure[data-ready]", 20000);
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(
    Math.abs(await top("sampling")) < 40,
    `#sampling opened: ${Math.round(await top("sampling"))} px from the top`,
  );
  for (const id of ["quantization", "rope"]) {
    await webkit.session.execute((id) => {
      location.hash = `#${id}`;
    }, id);
    await waitFor(webkit, `#${id}-figure[data-ready]`, 20000);
    await new Promise((r) => setTimeout(r, 1500));
    const at = await top(id);
    assert.ok(Math.abs(at) < 40, `#${id} reached from within the page: ${Math.round(at)} px from the top`);
  }
  assert.deepEqual(await pageErrors(webkit), []);
});

test("webkit: the reader at 390 px, a phone's width, draws every figure, runs no wider than the screen and logs no page error when read to its end", async () => {
  const { session } = webkit;
  webkit.size = [390, 844];
  try {
    await open(webkit, "reader.html", { lazy: true });
    await readThrough(webkit);
    await waitFor(webkit, "html[data-ready]", 20000);
    await assertEveryFigure("reader.html at 390 px");
    await screenshots(390);
    assert.equal(await session.execute(() => document.documentElement.scrollWidth), 390, "the page's width");
    assert.deepEqual(await pageErrors(webkit), []);
  } finally {
    webkit.size = [1280, 900];
  }
});

test("webkit: the course authors' guide shows every figure live and logs no page error when read to its end", async () => {
  await open(webkit, "embed-guide.html", { ready: "#example-compact[data-ready]" });
  for (const name of Object.keys(FIGURES)) await waitFor(webkit, `#example-${name}[data-ready]`, 15000);
  const drawn = await assertFiguresDrawn(assert, webkit, "embed-guide.html");
  // one live example of each figure, and the compact one
  assert.equal(drawn.length, Object.keys(FIGURES).length + 1);
  await readThrough(webkit);
  assert.deepEqual(await pageErrors(webkit), []);
  assert.deepEqual(webkit.server.missing, [], "files the page asked for and the site lacks");
});

test("webkit: the one-file edition becomes ready, draws every figure and logs no page error when read to its end", async () => {
  await open(webkit, "reader-standalone.html", { lazy: true });
  await readThrough(webkit);
  await waitFor(webkit, "html[data-ready]", 20000);
  await assertEveryFigure("reader-standalone.html");
  assert.deepEqual(await pageErrors(webkit), []);
  assert.deepEqual(await outsideRequests(webkit), [], "requests outside the file itself");
});

test("webkit: from disk (file://), the reader and the one-file edition become ready and draw every figure", async () => {
  for (const file of ["reader.html", "reader-standalone.html"]) {
    await openFile(webkit, file);
    await assertEveryFigure(`${file} from file://`);
  }
});

test("webkit: before the figures' scripts have run, the first screen's figure, and a linked section's, show the drawings the page was built with, styled", async () => {
  const dir = readerWithoutScripts(dist);
  try {
    for (const [hash, id] of PLACES_SHOWN) {
      await webkit.session.navigate("about:blank");
      await webkit.session.navigate(pathToFileURL(path.join(dir, "reader.html")).href + hash);
      await waitFor(webkit, "html[data-first-screen-shown]", 20000);
      await webkit.session.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assertDrawingsShown(assert, await webkit.session.execute(drawingsOnPage), [id], `webkit ${hash || "top"}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
