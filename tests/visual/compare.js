// Screenshots of two builds of the site, compared pixel by pixel: the check that a change meant
// to leave every page as it was (a refactor) did.
//   node tests/visual/compare.js BEFORE_DIR AFTER_DIR OUT_DIR [PAGE…]
// BEFORE_DIR and AFTER_DIR are built dist/ folders. OUT_DIR receives the screenshots (before/
// and after/), a picture of each difference (diff/: changed pixels in red over a faded copy of
// the "after" shot) and report.json. Every page is shot at 1280 and 360 px wide in headless
// Chromium, launched as the browser tests launch it (tests/browser/browser.js):
//   reader.html               once every figure has drawn (html[data-ready])
//   embed-guide.html          once every live example has drawn
//   embed.html?widget=NAME    for each figure of the registry (site/src/widgets/figures.js)
//   reader.html, noscript     with scripts off: the figures' elements never defined, as they are
//                             too before the widgets' script runs
//   reader.html, print-dark   @media print where the screen's scheme is dark (1280 px only)
// A page is shot whole with every section laid out (content-visibility leaves the sections off
// screen unpainted), in tiles of TILE px (a capture tens of thousands of px tall is not
// reliable). PAGE… limits the run to those pages, by name: reader, embed-guide, embed-NAME,
// reader-noscript, reader-print-dark. Prints one line per page and width, identical or how many
// pixels differ; exits 0 when every shot is identical, 1 if any differs, 2 on a usage error.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { CHROMIUM, FLAGS, drawAll } = require("../browser/browser.js");
const { figures } = require("../browser/registry.js");

const WIDTHS = [1280, 360];
const HEIGHT = { 1280: 900, 360: 740 };
const TILE = 4096;
// After the page is ready and laid out: no figure has redrawn (llm-change) for this long (ms).
const QUIET = 400;

const [before, after, out] = process.argv.slice(2, 5).map((p) => p && path.resolve(p));
const only = process.argv.slice(5);
if (!before || !after || !out) {
  console.error("usage: node tests/visual/compare.js BEFORE_DIR AFTER_DIR OUT_DIR [PAGE…]");
  process.exit(2);
}
for (const dir of [before, after]) {
  if (!fs.existsSync(path.join(dir, "reader.html"))) {
    console.error(`${dir} is not a built site (no reader.html)`);
    process.exit(2);
  }
}

// Every shot: a name, the file and query, what "drawn" means there, and the context's options.
const everyExampleReady = () =>
  [...document.querySelectorAll("[id^='example-']")].every((el) => el.hasAttribute("data-ready"));
const htmlReady = () => document.documentElement.hasAttribute("data-ready");
const SHOTS = [
  { name: "reader", file: "reader.html", ready: htmlReady },
  { name: "embed-guide", file: "embed-guide.html", ready: everyExampleReady },
  ...Object.keys(figures).map((name) => ({
    name: `embed-${name}`,
    file: "embed.html",
    query: `?widget=${name}`,
    ready: htmlReady,
  })),
  { name: "reader-noscript", file: "reader.html", ready: null, context: { javaScriptEnabled: false } },
  {
    name: "reader-print-dark",
    file: "reader.html",
    ready: htmlReady,
    context: { colorScheme: "dark" },
    media: "print",
    widths: [1280],
  },
];
const unknown = only.filter((name) => !SHOTS.some((s) => s.name === name));
if (unknown.length) {
  console.error(`no page named ${unknown.join(", ")}; the pages: ${SHOTS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

/** Opens a shot's page in `context` at `width` and waits until it is drawn and settled. */
async function open(context, dir, shot, width) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: HEIGHT[width] });
  if (shot.media) await page.emulateMedia({ media: shot.media });
  await page.goto(pathToFileURL(path.join(dir, shot.file)).href + (shot.query ?? ""));
  if (!shot.ready) {
    // Scripts off: Playwright's evaluate still runs, but no timer or animation frame fires.
    await page.waitForLoadState("load");
    await page.evaluate(() => {
      for (const s of document.querySelectorAll("main > section")) s.style.contentVisibility = "visible";
      return document.fonts.ready.then(() => undefined);
    });
    await page.waitForTimeout(500);
    return page;
  }
  // A figure draws as it comes near the screen: every one is asked to draw now, as the browser
  // tests do, before the page is ready.
  await drawAll(page);
  await page.waitForFunction(shot.ready, null, { timeout: 30000 });
  // Every section laid out; then wait until no figure has redrawn for QUIET ms (a chart fitted
  // to the box it now has).
  await page.evaluate(async (quiet) => {
    let last = performance.now();
    document.addEventListener("llm-change", () => (last = performance.now()), true);
    for (const s of document.querySelectorAll("main > section")) s.style.contentVisibility = "visible";
    await document.fonts.ready;
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await frame();
    while (performance.now() - last < quiet) await new Promise((resolve) => setTimeout(resolve, quiet / 4));
    await frame();
  }, QUIET);
  return page;
}

/** The page's full height in px, and its screenshots as PNG tiles of at most TILE px. */
async function shoot(page, width) {
  const height = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
  const tiles = [];
  for (let y = 0; y < height; y += TILE) {
    const clip = { x: 0, y, width, height: Math.min(TILE, height - y) };
    tiles.push(await page.screenshot({ clip, fullPage: true, animations: "disabled", caret: "hide" }));
  }
  return { height, tiles };
}

/**
 * Compares two PNGs in a page (canvas pixels, exact RGBA): { width, height, differing, diff },
 * the size of each, the number of pixels that differ over the area both cover plus the pixels
 * only one covers, and a PNG of the differences (null when there are none).
 */
function compareImages(page, a, b) {
  return page.evaluate(
    async ({ a, b }) => {
      const load = async (data) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        return img;
      };
      const pixels = (img, w, h) => {
        const c = new OffscreenCanvas(w, h);
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, w, h).data;
      };
      const [ia, ib] = [await load(a), await load(b)];
      const w = Math.max(ia.naturalWidth, ib.naturalWidth),
        h = Math.max(ia.naturalHeight, ib.naturalHeight);
      const p = pixels(ia, w, h),
        q = pixels(ib, w, h);
      const inA = (x, y) => x < ia.naturalWidth && y < ia.naturalHeight;
      const inB = (x, y) => x < ib.naturalWidth && y < ib.naturalHeight;
      const canvas = new OffscreenCanvas(w, h);
      const g = canvas.getContext("2d");
      const shown = g.createImageData(w, h);
      let differing = 0;
      for (let y = 0; y < h; y += 1) {
        for (let x = 0; x < w; x += 1) {
          const i = 4 * (y * w + x);
          const same =
            inA(x, y) === inB(x, y) &&
            p[i] === q[i] &&
            p[i + 1] === q[i + 1] &&
            p[i + 2] === q[i + 2] &&
            p[i + 3] === q[i + 3];
          if (same) {
            // The "after" shot, faded towards white.
            for (let k = 0; k < 3; k += 1) shown.data[i + k] = 255 - (255 - q[i + k]) * 0.25;
          } else {
            differing += 1;
            shown.data[i] = 230;
            shown.data[i + 1] = 0;
            shown.data[i + 2] = 0;
          }
          shown.data[i + 3] = 255;
        }
      }
      let diff = null;
      if (differing) {
        g.putImageData(shown, 0, 0);
        const blob = await canvas.convertToBlob({ type: "image/png" });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let s = "";
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        diff = btoa(s);
      }
      return { a: [ia.naturalWidth, ia.naturalHeight], b: [ib.naturalWidth, ib.naturalHeight], differing, diff };
    },
    { a: a.toString("base64"), b: b.toString("base64") },
  );
}

(async () => {
  for (const sub of ["before", "after", "diff"]) fs.mkdirSync(path.join(out, sub), { recursive: true });
  for (const f of fs.readdirSync(path.join(out, "diff"))) fs.rmSync(path.join(out, "diff", f));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const comparer = await (await browser.newContext()).newPage();
  const report = [];
  let anyDiffer = false;
  try {
    for (const shot of SHOTS.filter((s) => !only.length || only.includes(s.name))) {
      for (const width of shot.widths ?? WIDTHS) {
        const context = await browser.newContext({ colorScheme: "light", ...shot.context });
        const taken = {};
        for (const [side, dir] of [
          ["before", before],
          ["after", after],
        ]) {
          const page = await open(context, dir, shot, width);
          taken[side] = await shoot(page, width);
          await page.close();
        }
        await context.close();
        const label = `${shot.name}@${width}`;
        let differing = 0;
        const tiles = Math.max(taken.before.tiles.length, taken.after.tiles.length);
        for (let t = 0; t < tiles; t += 1) {
          const file = `${label}${tiles > 1 ? `-${String(t).padStart(2, "0")}` : ""}.png`;
          const a = taken.before.tiles[t],
            b = taken.after.tiles[t];
          if (a) fs.writeFileSync(path.join(out, "before", file), a);
          if (b) fs.writeFileSync(path.join(out, "after", file), b);
          if (!a || !b) {
            // A tile only one side has: every one of its pixels differs.
            differing += await comparer.evaluate(
              async (data) => {
                const img = new Image();
                img.src = `data:image/png;base64,${data}`;
                await img.decode();
                return img.naturalWidth * img.naturalHeight;
              },
              (a ?? b).toString("base64"),
            );
            continue;
          }
          const c = await compareImages(comparer, a, b);
          differing += c.differing;
          if (c.diff) fs.writeFileSync(path.join(out, "diff", file), Buffer.from(c.diff, "base64"));
        }
        const entry = {
          page: shot.name,
          width,
          heights: [taken.before.height, taken.after.height],
          identical: differing === 0,
          differing,
        };
        report.push(entry);
        anyDiffer ||= differing > 0;
        const size =
          entry.heights[0] === entry.heights[1]
            ? `${width}×${entry.heights[0]}`
            : `${width}×${entry.heights[0]} → ${width}×${entry.heights[1]}`;
        console.log(
          `${differing === 0 ? "identical" : "DIFFERENT"}  ${label.padEnd(28)} ${size.padEnd(22)} ${differing} pixels differ`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  fs.writeFileSync(path.join(out, "report.json"), `${JSON.stringify({ before, after, report }, null, 2)}\n`);
  console.log(
    `${report.filter((r) => r.identical).length} of ${report.length} identical; screenshots and report.json in ${out}`,
  );
  process.exit(anyDiffer ? 1 : 0);
})().catch((error) => {
  console.error(error);
  process.exit(2);
});
