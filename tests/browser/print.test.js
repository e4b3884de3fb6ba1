// The chapter's formulas and the chapter on paper. The formulas' font (site/fonts/):
// it loads from the page's own files under each page's policy, from file:// and over http; it
// has every character the formulas draw; with it brackets stretch and an aligned derivation
// lines up. In print (site/reader.css @media print, the print handlers of site/src/reader.js):
// no controls, every exercise's answer, the address of the figures' state on the first page,
// figures with their captions first, pages that fill (poppler's pdftoppm and pdftotext read
// Chromium's PDF), and the screen as the reader left it afterwards.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");
const { execFileSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, openReader, asset, dist, guideFiles } = require("./browser.js");

const browser = useBrowser(test);
const FAMILY = "Chapter Math";

// --- the font files ------------------------------------------------------------------------

/** The tables of a WOFF2 font (W3C WOFF2 §4–5: header, table directory, one Brotli stream). */
function woff2Tables(buf) {
  assert.equal(buf.toString("latin1", 0, 4), "wOF2", "a WOFF2 file");
  const KNOWN = [
    "cmap",
    "head",
    "hhea",
    "hmtx",
    "maxp",
    "name",
    "OS/2",
    "post",
    "cvt ",
    "fpgm",
    "glyf",
    "loca",
    "prep",
    "CFF ",
    "VORG",
    "EBDT",
    "EBLC",
    "gasp",
    "hdmx",
    "kern",
    "LTSH",
    "PCLT",
    "VDMX",
    "vhea",
    "vmtx",
    "BASE",
    "GDEF",
    "GPOS",
    "GSUB",
    "EBSC",
    "JSTF",
    "MATH",
  ];
  const numTables = buf.readUInt16BE(12);
  const compressedSize = buf.readUInt32BE(20);
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i += 1) {
      const b = buf[at++];
      value = value * 128 + (b & 0x7f);
      if (!(b & 0x80)) return value;
    }
    throw new Error("bad UIntBase128");
  };
  const entries = [];
  for (let i = 0; i < numTables; i += 1) {
    const flags = buf[at++];
    let tag = KNOWN[flags & 0x3f];
    if ((flags & 0x3f) === 63) {
      tag = buf.toString("latin1", at, at + 4);
      at += 4;
    }
    const version = flags >> 6;
    const length = base128();
    // glyf and loca are transformed at version 0, every other table at any version but 0
    const transformed = tag === "glyf" || tag === "loca" ? version !== 3 : version !== 0;
    entries.push({ tag, length: transformed ? base128() : length });
  }
  const data = zlib.brotliDecompressSync(buf.subarray(at, at + compressedSize));
  const tables = {};
  let offset = 0;
  for (const { tag, length } of entries) {
    tables[tag] = data.subarray(offset, offset + length);
    offset += length;
  }
  return tables;
}

/** The code points a cmap table maps to a glyph (formats 4 and 12). */
function cmapCodePoints(cmap) {
  const points = new Set();
  const n = cmap.readUInt16BE(2);
  for (let i = 0; i < n; i += 1) {
    const sub = cmap.readUInt32BE(4 + i * 8 + 4);
    const format = cmap.readUInt16BE(sub);
    if (format === 12) {
      const groups = cmap.readUInt32BE(sub + 12);
      for (let g = 0; g < groups; g += 1) {
        const start = cmap.readUInt32BE(sub + 16 + g * 12);
        const end = cmap.readUInt32BE(sub + 20 + g * 12);
        for (let c = start; c <= end; c += 1) points.add(c);
      }
    } else if (format === 4) {
      const segs = cmap.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14,
        starts = ends + segs * 2 + 2,
        deltas = starts + segs * 2,
        ranges = deltas + segs * 2;
      for (let s = 0; s < segs; s += 1) {
        const end = cmap.readUInt16BE(ends + s * 2),
          start = cmap.readUInt16BE(starts + s * 2);
        const delta = cmap.readInt16BE(deltas + s * 2),
          range = cmap.readUInt16BE(ranges + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c += 1) {
          const glyph =
            range === 0 ? (c + delta) & 0xffff : cmap.readUInt16BE(ranges + s * 2 + range + (c - start) * 2);
          if (glyph !== 0) points.add(c);
        }
      }
    }
  }
  return points;
}

/** The font a page uses: dist/assets/chapter-math.<hash>.woff2, or the one its styles carry as a data: URL. */
function pageFont(file) {
  if (file === "reader.html") return fs.readFileSync(path.join(dist, asset("chapter-math.woff2")));
  // embed.html's font is inside its style sheet, a file beside it
  const sheet = file === "embed.html" ? "llmmath-embed.css" : file;
  const m = /url\("data:font\/woff2;base64,([A-Za-z0-9+/=]+)"\)/.exec(fs.readFileSync(path.join(dist, sheet), "utf8"));
  assert.ok(m, `${sheet} carries ${file}'s font as a data: URL`);
  return Buffer.from(m[1], "base64");
}

// MathML Core draws a one-letter <mi> italic (text-transform: math-auto): the code point that
// draws, as Chromium maps it (its letters in Unicode's Mathematical Alphanumeric Symbols).
const ITALIC_MORE = {
  "\u0131": 0x1d6a4,
  "\u0237": 0x1d6a5,
  "\u2207": 0x1d6fb,
  "\u2202": 0x1d715,
  "\u03f5": 0x1d716,
  "\u03d1": 0x1d717,
  "\u03f0": 0x1d718,
  "\u03d5": 0x1d719,
  "\u03f1": 0x1d71a,
  "\u03d6": 0x1d71b,
};
function italic(ch) {
  const u = ch.codePointAt(0);
  if (ch === "h") return 0x210e;
  if (u >= 0x41 && u <= 0x5a) return 0x1d434 + u - 0x41;
  if (u >= 0x61 && u <= 0x7a) return 0x1d44e + u - 0x61;
  if (u >= 0x391 && u <= 0x3a9) return 0x1d6e2 + u - 0x391;
  if (u >= 0x3b1 && u <= 0x3c9) return 0x1d6fc + u - 0x3b1;
  return ITALIC_MORE[ch] ?? u;
}

const decode = (s) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&");

/** Every code point the <math> of a built page draws (not the TeX of <annotation>), with where. */
function drawnCodePoints(html) {
  const drawn = new Map();
  for (const [math] of html.matchAll(/<math[\s>][\s\S]*?<\/math>/g)) {
    const body = math.replace(/<annotation[\s\S]*?<\/annotation>/g, "");
    if (/<m(sqrt|root)[\s>]/.test(body)) drawn.set(0x221a, "a radical");
    for (const [, tag, attrs, raw] of body.matchAll(/<(mi|mn|mo|mtext|ms)(\s[^>]*)?>([^<]*)<\/\1>/g)) {
      const text = decode(raw);
      const chars = [...text];
      const auto = tag === "mi" && chars.length === 1 && !/mathvariant="normal"/.test(attrs ?? "");
      for (const ch of chars) {
        if (/\s|\p{Cf}/u.test(ch)) continue; // spaces, and invisible operators (U+2061)
        drawn.set(auto ? italic(ch) : ch.codePointAt(0), text);
      }
    }
  }
  return drawn;
}

// --- helpers ---------------------------------------------------------------------------------

/** Status of the page's FontFace objects of the formulas' family, once a formula is on screen. */
const mathFontStatus = (page) =>
  page.evaluate(async (family) => {
    const math = document.querySelector("math");
    math?.scrollIntoView();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await document.fonts.ready;
    return {
      faces: [...document.fonts].filter((f) => f.family.replace(/"/g, "") === family).map((f) => f.status),
      used: math ? getComputedStyle(math).fontFamily : null,
    };
  }, FAMILY);

/** A static server of dist/ on 127.0.0.1; resolves to { url, close }. */
function serveDist() {
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2" };
  const server = http.createServer((req, res) => {
    const file = path.join(dist, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(dist + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

// --- the font --------------------------------------------------------------------------------

test("font: each edition loads the formulas' font from itself, under its policy, from file:// and over http", async () => {
  const own = pathToFileURL(dist).href + "/";
  const pages = [
    { file: "reader.html" },
    { file: "reader-standalone.html" },
    { file: "embed.html", query: "?widget=rope" },
  ];
  for (const { file, query = "" } of pages) {
    const page = await browser.context.newPage();
    const errors = [],
      requests = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
    });
    page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
    page.on("request", (req) => requests.push(req.url()));
    await page.goto(pathToFileURL(path.join(dist, file)).href + query);
    await page.waitForSelector("html[data-first-screen], html[data-ready]", { timeout: 15000 });
    const { faces, used } = await mathFontStatus(page);
    assert.deepEqual(faces, ["loaded"], `${file}: the ${FAMILY} face`);
    assert.match(used, new RegExp(`^"?${FAMILY}"?,`), `${file}: formulas use it first`);
    assert.deepEqual(errors, [], `${file}: no error (a refused font is a CSP error)`);
    // Nothing outside dist/ (data: URLs are the pages' own bytes); reader.html fetches the font
    // beside it, embed.html its script and style sheet, a one-file page nothing but itself.
    const fetched = requests.filter((u) => !u.startsWith("data:"));
    assert.deepEqual(
      fetched.filter((u) => !u.startsWith(own)),
      [],
      `${file}: requests outside dist/`,
    );
    const names = new Set(fetched.map((u) => u.slice(own.length).split(/[?#]/)[0]));
    if (file === "reader.html") assert.ok(names.has(asset("chapter-math.woff2")), "reader.html fetched its font");
    else if (file === "embed.html")
      // the guide's files for a frame, no font file: its font is inside llmmath-embed.css
      assert.deepEqual([...names].sort(), guideFiles("frame").sort(), "embed.html loads the guide's files");
    else assert.deepEqual([...names], [file], `${file} is one file`);
    await page.close();
  }

  // Over http, as ./build.sh serve gives it: font-src 'self' allows the file beside the page.
  const server = await serveDist();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    const fonts = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    page.on("response", (res) => {
      if (res.url().endsWith(".woff2")) fonts.push(`${res.status()} ${res.url()}`);
    });
    await page.goto(`${server.url}reader.html`);
    await page.waitForSelector("html[data-first-screen]", { timeout: 15000 });
    assert.deepEqual((await mathFontStatus(page)).faces, ["loaded"], "over http");
    assert.deepEqual(fonts, [`200 ${server.url}${asset("chapter-math.woff2")}`]);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("font: it has a MATH table and every character the formulas of each page draw (else run site/fonts/subset.py)", () => {
  for (const file of ["reader.html", "reader-standalone.html", "embed.html"]) {
    const tables = woff2Tables(pageFont(file));
    assert.ok(tables.MATH?.length > 0, `${file}: the font's MATH table (what stretches brackets)`);
    const has = cmapCodePoints(tables.cmap);
    const drawn = drawnCodePoints(fs.readFileSync(path.join(dist, file), "utf8"));
    assert.ok(drawn.size > (file === "embed.html" ? 10 : 80), `${file}: ${drawn.size} characters drawn`);
    const missing = [...drawn]
      .filter(([u]) => !has.has(u))
      .map(
        ([u, where]) => `U+${u.toString(16).toUpperCase().padStart(4, "0")} ${String.fromCodePoint(u)} (in "${where}")`,
      );
    assert.deepEqual(missing, [], `${file}: characters its font lacks`);
  }
});

test("font: brackets stretch to what they enclose, and the rows of the aligned derivation line up at =", async () => {
  const { page } = await openReader(browser.context);
  const m = await page.evaluate(async () => {
    const mathOf = (tex) =>
      [...document.querySelectorAll("annotation")].find((a) => a.textContent.includes(tex))?.closest("math");
    const show = async (el) => {
      el.scrollIntoView({ block: "center" });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await document.fonts.ready;
    };
    const height = (el) => el.getBoundingClientRect().height;
    // Attention(Q, K, V) = softmax( QKᵀ/√d + M ) V: a plain bracket and one around a fraction.
    const softmax = mathOf("\\operatorname{softmax}\\!\\left(");
    await show(softmax);
    const parens = [...softmax.querySelectorAll("mo")].filter((mo) => mo.textContent === "(");
    // R(α) = ( cos α  −sin α ; sin α  cos α ): the matrix's bracket against R's.
    const rotation = mathOf("R(\\alpha) = \\begin{pmatrix}");
    await show(rotation);
    const rParens = [...rotation.querySelectorAll("mo")].filter((mo) => mo.textContent === "(");
    // The two rows of section 3's derivation, each starting with "=".
    const aligned = mathOf("\\begin{aligned}");
    await show(aligned);
    const eqs = [...aligned.querySelectorAll("mtr")].map(
      (tr) => [...tr.querySelectorAll("mo")].find((mo) => mo.textContent === "=").getBoundingClientRect().left,
    );
    return {
      plain: height(parens.find((p) => p.getAttribute("stretchy") === "false")),
      fence: height(parens.find((p) => p.getAttribute("fence") === "true")),
      rPlain: height(rParens[0]),
      matrix: height(rParens[rParens.length - 1]),
      matrixRows: height(rotation.querySelector("mtable")),
      eqs,
    };
  });
  // A bracket around a fraction spans numerator and denominator: at least twice a plain one
  // (measured 57 px against 19; without a MATH font both are 19).
  assert.ok(m.fence >= 2 * m.plain, `softmax's bracket ${m.fence} px, a plain one ${m.plain} px`);
  // The matrix's bracket covers its two rows (to 90 %: the glyph sizes are discrete).
  assert.ok(
    m.matrix >= 0.9 * m.matrixRows && m.matrix >= 1.8 * m.rPlain,
    `matrix bracket ${m.matrix} px, rows ${m.matrixRows} px, R's ${m.rPlain} px`,
  );
  // The = of both rows start at the same x, to half a pixel (measured equal; 11 px apart before).
  assert.equal(m.eqs.length, 2);
  assert.ok(Math.abs(m.eqs[0] - m.eqs[1]) <= 0.5, `= at x ${m.eqs.join(" and ")}`);
  await page.close();
});

// --- print -----------------------------------------------------------------------------------

/** What print shows, measured under print media between a beforeprint and an afterprint. */
const printView = (page) =>
  page.evaluate(() => {
    const visible = (el) => !!el && el.checkVisibility();
    const widgets = [...document.querySelectorAll("*")].filter(
      (el) => el.localName.startsWith("llm-") && el.shadowRoot,
    );
    const deep = (sel) => widgets.flatMap((w) => [...w.shadowRoot.querySelectorAll(sel)]);
    const stateEl = document.getElementById("print-state");
    const first = document.querySelector("main");
    const solutions = document.querySelector(".print-solutions");
    return {
      pageControls: [
        ...document.querySelectorAll(
          ".skip, .toc, .toc a, .notation-link, .predict button, .predict-back, .exercise .note, .exercise details.answer",
        ),
      ]
        .filter(visible)
        .map((el) => el.className || el.localName),
      // Figure 9.1 on paper: every scenario with its questions, and no button of the one asked on screen.
      diagnose: {
        scenarios: deep(".diagnose-print-scenario").filter(visible).length,
        buttons: deep(".diagnose-card button").filter(visible).length,
        solved: [...document.querySelectorAll(".print-solution")]
          .filter((d) => /^Figure 9\.1/.test(d.querySelector("h3").textContent))
          .map((d) => d.querySelectorAll(":scope > ol > li").length),
      },
      figureControls: deep(
        ".llm-actions button, .controls, .sliders, input[type=range], .llm-predict-note button, .llm-skip",
      )
        .filter(visible)
        .map((el) => el.className || el.localName),
      // Each exercise: its question's field printed as a line, its follow-up's question, and its
      // answer not in the text.
      exercises: [...document.querySelectorAll(".exercise")].map((ex) => ({
        name: ex.querySelector("h3").textContent,
        fields: [...ex.querySelectorAll(".predict-input")].filter(visible).length,
        followUp: visible(ex.querySelector(".follow-up")),
        answer: visible(ex.querySelector("details.answer")),
        text: ex.innerText,
      })),
      solutions: solutions && {
        shown: visible(solutions),
        last: !solutions.nextElementSibling,
        items: [...solutions.querySelectorAll(".print-solution")].map((d) => ({
          name: d.querySelector("h3").textContent,
          text: d.textContent.trim().length,
        })),
      },
      // What each exercise's answer says now, to compare with its printed solution.
      bodies: [...document.querySelectorAll(".exercise .answer-body")].map((b) => b.textContent.trim().length),
      state: stateEl && {
        shown: visible(stateEl),
        text: stateEl.textContent,
        beforeMain: !!(stateEl.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING),
        top: stateEl.getBoundingClientRect().top + scrollY,
      },
      href: location.href,
      opening: document.querySelector(".opening > .print-settings")?.textContent,
      unworded: widgets.flatMap((w) =>
        w.constructor.attributes
          .filter((d) => !w.shadowRoot.querySelector(`[data-setting="${d.name}"]`) && !d.label && d.print !== false)
          .map((d) => `${w.id}: ${d.name}`),
      ),
      figures: [...document.querySelectorAll("main figure")].map((f) => {
        const caption = f.querySelector(":scope > figcaption");
        const widget = f.querySelector("[data-figure]");
        const settings = f.querySelector(":scope > .print-settings");
        return {
          id: widget?.id,
          // the caption held to the figure's top edge and to what follows it
          captionBreaks: caption && [getComputedStyle(caption).breakBefore, getComputedStyle(caption).breakAfter],
          captionFirst: !!caption && caption.getBoundingClientRect().top < widget.getBoundingClientRect().top,
          settings: visible(settings) ? settings.textContent : null,
        };
      }),
      // Held back on paper as on the screen: no digit in a concealed readout, and the note says where the answer is.
      held: [...document.querySelectorAll("[data-predict-first]")].map((el) => ({
        id: el.id,
        digits: [...el.shadowRoot.querySelectorAll("[data-predict-conceal]")].some((r) => /\d/.test(r.textContent)),
        note: el.shadowRoot.querySelector(".llm-predict-print")?.checkVisibility() ?? false,
      })),
      text: document.body.innerText,
      // every text a printed page shows, the figures' shadow trees too
      printed: (() => {
        const out = [];
        const walk = (root) => {
          const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let n = w.nextNode(); n; n = w.nextNode()) {
            const el = n.parentElement;
            if (el && n.data.trim() && el.checkVisibility() && getComputedStyle(el).visibility !== "hidden")
              out.push(n.data);
          }
          for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
        };
        walk(document.body);
        return out.join(" ").replace(/\s+/g, " ");
      })(),
    };
  });

// What the screen asks of a reader that paper cannot do (the copy once printed "Untick Causal mask", "drag the
// temperature", "click a bar to pick it", "Change any input", then "Edit the router logits", "load
// a real model", "choose one to load it" and each section's "Things to try"). "Press et al." is a
// citation, and §9's stories may say what their people did ("paste the same question").
const INTERACTIVE =
  /\b(?:[Dd]rag(?:ging)?|[Cc]lick(?:ing)?|[Tt]ap|[Uu]ntick|[Tt]ick the|press(?:ing)?|[Tt]ype an?|[Pp]aste a model|[Dd]rop the file|[Pp]ick a|[Uu]se the slider|[Cc]hange any input|[Hh]over(?: over)?|[Ss]croll|[Ee]dit the|load a real model|choose one to load|Things to try)\b/g;

const fire = (page, type) => page.evaluate((type) => dispatchEvent(new Event(type)), type);
const screenView = (page) =>
  page.evaluate(() => ({
    open: [...document.querySelectorAll(".exercise details")].map((d) => d.open),
    blurred: [...document.querySelectorAll("[data-predict-first]")].map((el) => el.id),
    notes: [...document.querySelectorAll("[data-predict-first]")].filter((el) =>
      el.shadowRoot.querySelector(".llm-predict-note"),
    ).length,
    state: getComputedStyle(document.getElementById("print-state")).display,
    added: document.querySelectorAll(".print-settings, .print-solutions").length,
    html: document.querySelector("main").innerHTML.length,
  }));

test("print: a workbook — questions with a line to write on, answers in the Solutions at the end, each figure with its settings and its caption first, nothing to press", async () => {
  const { page, errors } = await openReader(browser.context);
  // The reader changes figures: their printed settings must say so. Figure 3.1's query moved,
  // and Figure 2.1 with top-k on (0, its default here, means off).
  await page.evaluate(() => {
    document.getElementById("rope-figure").set({ m: 9 }, { sync: true });
    document.getElementById("sampling-figure").set({ topK: 3 }, { sync: true });
  });
  const screen = await screenView(page);
  assert.ok(screen.blurred.length >= 5, `figures held back until their exercise is answered: ${screen.blurred}`);
  assert.ok(screen.open.length >= 8 && screen.open.every((o) => !o), "the answers start closed");

  await page.emulateMedia({ media: "print" });
  await fire(page, "beforeprint");
  const p = await printView(page);
  assert.deepEqual(p.pageControls, [], "page controls visible in print");
  assert.deepEqual(p.figureControls, [], "figure controls visible in print");
  assert.ok(p.exercises.length >= 8);
  for (const ex of p.exercises) {
    assert.ok(ex.fields >= 1, `${ex.name}: its question has a line to write on`);
    assert.equal(ex.answer, false, `${ex.name}: its answer is not printed under it`);
    // No words for the screen: nothing is blurred or hidden until a check on paper.
    assert.doesNotMatch(ex.text, /until you check|Show the answer|blurred|Back to/, ex.name);
    assert.match(ex.text, /The answers are in the Solutions at the end|Exercise 8/, ex.name);
  }
  for (const ex of p.exercises.filter((e) => e.name !== "Exercise 8" || e.followUp))
    assert.ok(ex.followUp, `${ex.name}: its follow-up's question is printed`);
  // The Solutions: last in the chapter, one for each exercise, each the worked answer as the page has it now.
  assert.ok(p.solutions?.shown && p.solutions.last, JSON.stringify(p.solutions));
  const exercises = p.solutions.items.filter((i) => /^Exercise \d/.test(i.name));
  assert.deepEqual(
    exercises.map((i) => i.name.split(" (")[0]),
    p.exercises.map((e) => e.name),
  );
  for (const [i, item] of exercises.entries())
    assert.ok(item.text > 40 && item.text >= p.bodies[i], `${item.name}: ${item.text} characters`);
  // Figure 9.1: its fifteen scenarios to work through, and their answers among the Solutions.
  assert.deepEqual(p.diagnose, { scenarios: 15, buttons: 0, solved: [15] });
  // The held-back readouts stay held back, and each figure's note says where the answer is.
  assert.ok(p.held.length >= 5);
  for (const h of p.held) assert.deepEqual(h, { id: h.id, digits: false, note: true });
  // The state: from a file on disk, no path (it means nothing on paper), on the first page.
  assert.ok(p.state?.shown, "the state is printed");
  assert.doesNotMatch(p.text, /file:\/\//, "a file:// path is printed");
  assert.match(p.state.text, /each figure as it was when printed, with its settings under it/);
  assert.ok(p.state.beforeMain && p.state.top < (297 / 25.4) * 96, `at ${p.state.top} px`);
  // Every figure: its caption first and held to what follows it (a figure may run over a page
  // between its parts, the "fills its pages" test below), its settings under it.
  assert.ok(p.figures.length >= 11);
  for (const f of p.figures) {
    assert.deepEqual(f.captionBreaks, ["avoid", "avoid"], `figure ${f.id}'s caption`);
    assert.ok(f.captionFirst, `figure ${f.id}'s caption comes before it`);
    assert.match(f.settings ?? "", /^Settings: /, `figure ${f.id} prints its settings`);
  }
  // Each setting in the words of the figure's own controls (not, as once, "preset=exercise" for the
  // dog example, "memory=0, bandwidth=0, peak=0" beside a listed device): the label, then what
  // the control shows, and no setting at the value that means "not set".
  const settingsOf = (id) => p.figures.find((f) => f.id === id).settings;
  for (const f of p.figures) {
    assert.doesNotMatch(f.settings, /[\w)-]=\S/, `figure ${f.id}: an attribute written name=value`);
    assert.doesNotMatch(
      f.settings,
      /\b(memory|bandwidth|peak|Memory \(GiB\)|Bandwidth \(GB\/s\)|Peak \(TFLOPS\)): 0\b/i,
      f.id,
    );
  }
  assert.match(settingsOf("rope-figure"), /; Query position m: 9; /);
  // The opening figure, compact, shows no example menu: its own numbers are its settings.
  assert.match(
    p.opening,
    /^Settings: Causal mask: off; Tokens: the, dog, bit, the, man; Queries Q: \(0, 0\), \(0, 2\), /,
  );
  assert.match(settingsOf("attention-figure"), /^Settings: Example: Exercise 1: [^;]+; Causal mask: on; /);
  assert.match(settingsOf("sampling-figure"), /; Top-k: 3; /);
  assert.doesNotMatch(settingsOf("sampling-exercise"), /Top-k/, "top-k 0 is no top-k: not a setting");
  assert.match(settingsOf("model-figure"), /; Device: H100 SXM 80 GB; /);
  assert.doesNotMatch(settingsOf("model-figure"), /Memory \(GiB\)|Bandwidth|Peak/, "a listed device brings its own");
  assert.match(settingsOf("cost-figure"), /; Key-value heads hkv: 8; /);
  assert.doesNotMatch(settingsOf("cost-figure"), /Model width|Feed-forward size/, "0 leaves the linear layers out");
  // Every setting of every figure can be put in words: a control of the figure sets it, or its
  // declaration names it, or it means nothing on paper.
  assert.deepEqual(p.unworded, [], "settings with neither a control nor a label");
  // No interactive wording anywhere on paper.
  const asking = [...p.printed.matchAll(INTERACTIVE)].map((m) =>
    p.printed.slice(Math.max(0, m.index - 50), m.index + 50),
  );
  assert.deepEqual(asking, [], "printed words that ask the reader to do what paper cannot");

  // After printing, the screen is as the reader left it, with nothing added.
  await fire(page, "afterprint");
  await page.emulateMedia({ media: "screen" });
  assert.equal(screen.notes, screen.blurred.length, "each held-back figure says why");
  assert.deepEqual(await screenView(page), screen, "the screen after printing");
  assert.deepEqual(errors, []);
  await page.close();
});

test("print: over http the state is the page's address, which carries the figures' settings", async () => {
  const server = http.createServer((req, res) => {
    const file = path.join(dist, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file)) return res.writeHead(404).end();
    const type = file.endsWith(".html") ? "text/html" : file.endsWith(".css") ? "text/css" : "text/javascript";
    res.writeHead(200, { "content-type": file.endsWith(".woff2") ? "font/woff2" : type }).end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/reader.html`);
    await page.waitForSelector("html[data-first-screen]", { timeout: 15000 });
    await page.evaluate(() => document.getElementById("rope-figure").set({ m: 9 }, { sync: true }));
    await page.emulateMedia({ media: "print" });
    await fire(page, "beforeprint");
    const p = await printView(page);
    assert.ok(p.href.includes("rope.m=9"), `the address carries the state: ${p.href}`);
    assert.ok(p.state.text.includes(p.href), `printed: ${p.state.text}`);
    await fire(page, "afterprint");
    await page.close();
  } finally {
    server.close();
  }
});

test("print: a figure the reader never came near is drawn for the paper (the handlers draw every figure)", async () => {
  const { page, errors } = await openReader(browser.context, { lazy: true });
  const far = () =>
    page.evaluate(() =>
      ["moe-figure", "diagnose-figure"].map((id) => document.getElementById(id).hasAttribute("data-ready")),
    );
  assert.deepEqual(await far(), [false, false], "not drawn before the print");
  await page.pdf({ format: "A4" });
  assert.deepEqual(await far(), [true, true], "drawn by the print");
  await page.waitForSelector("html[data-ready]", { timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * How far down each page of a PDF its content reaches: poppler's pdftoppm draws the pages in grey
 * at 20 dpi, and a page's lowest row with a pixel darker than near-white is its content's foot
 * (a figure's frame counts, as it does to the eye). Returned as fractions of the content box,
 * whose top and foot are the highest and lowest content of any page (the @page margins).
 */
function pageFill(pdf) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-print-"));
  try {
    fs.writeFileSync(path.join(dir, "copy.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", "20", "-gray", path.join(dir, "copy.pdf"), path.join(dir, "page")]);
    const spans = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".pgm"))
      .sort()
      .map((f) => {
        const pgm = fs.readFileSync(path.join(dir, f));
        const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString("latin1", 0, 40));
        const [width, height] = [Number(m[1]), Number(m[2])];
        const pixels = pgm.subarray(m[0].length);
        const inked = [];
        for (let y = 0; y < height; y += 1)
          if (pixels.subarray(y * width, (y + 1) * width).some((v) => v < 240)) inked.push(y);
        return inked.length ? [inked[0], inked[inked.length - 1]] : [height, 0];
      });
    const top = Math.min(...spans.map(([first]) => first));
    const foot = Math.max(...spans.map(([, last]) => last));
    return spans.map(([, last]) => Math.max(0, last - top) / (foot - top));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each page's text (poppler's pdftotext), its white space collapsed. */
const pageTexts = (pdf) =>
  execFileSync("pdftotext", ["-", "-"], { input: pdf, maxBuffer: 64 << 20 })
    .toString("utf8")
    .split("\f")
    .map((text) => text.replace(/\s+/g, " ").trim());

test("print: Chromium's A4 PDF (page.pdf) runs the print handlers, fills its pages, and the page is as it was after", async (t) => {
  const { page, errors } = await openReader(browser.context);
  const screen = await screenView(page);
  // Where the print styles start a new page (the Solutions): the first words of each part that
  // must start one, read under print media with the print handlers' additions in place.
  await page.emulateMedia({ media: "print" });
  await fire(page, "beforeprint");
  const forced = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => /^(page|left|right|recto|verso)$/.test(getComputedStyle(el).breakBefore) && el.checkVisibility())
      .map((el) => el.innerText.replace(/\s+/g, " ").trim().slice(0, 40)),
  );
  await fire(page, "afterprint");
  // null, not "screen": an emulated medium holds for page.pdf() too, which would print the screen
  await page.emulateMedia({ media: null });
  assert.deepEqual(
    forced.map((words) => words.split(" ")[0]),
    ["Solutions"],
    "the parts that start a new page",
  );

  const pdf = await page.pdf({ format: "A4", printBackground: true });
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
  t.diagnostic(`${pages} A4 pages`);
  assert.ok(pages >= 20 && pages <= 80, `${pages} pages`);
  // page.pdf() prints as the browser does: the print handlers ran, and ran back.
  assert.match(await page.textContent("#print-state"), /each figure as it was when printed/);
  assert.deepEqual(await screenView(page), screen);
  assert.deepEqual(errors, []);

  // No page less than a third full but the last and one before a new page starts (once,
  // pages 11 and 27 of the copy were 23 % and 6 % full, a figure kept whole having gone to the
  // next page). The foot is read to one 20-dpi pixel row, under 0.5 % of a page.
  const fill = pageFill(pdf);
  const texts = pageTexts(pdf);
  assert.equal(fill.length, pages, "pdftoppm drew every page");
  const starts = forced.map((words) => texts.findIndex((text) => text.startsWith(words)));
  assert.ok(
    starts.every((i) => i > 0),
    `each new page's start found: ${forced.map((w, k) => `"${w}" on page ${starts[k] + 1}`)}`,
  );
  t.diagnostic(`fill: ${fill.map((f, i) => `${i + 1}:${Math.round(f * 100)}%`).join(" ")}`);
  const short = fill
    .map((f, i) => ({ page: i + 1, fill: Math.round(f * 100) / 100 }))
    .filter(({ page, fill }) => fill < 1 / 3 && page < pages && !starts.includes(page));
  assert.deepEqual(short, [], "pages less than a third full");
  await page.close();
});
