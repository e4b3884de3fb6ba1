// Accessibility audit with axe-core (WCAG 2.0 and 2.1, levels A and AA, and best practice) of
// the reader, the embed page (every figure) and the course authors' guide, on a phone (360 px,
// touch screen) and a desktop (1280 px), in the light and the dark colour scheme, after every
// figure has rendered. The reader is audited with every section laid out: content-visibility
// skips the sections off screen, which axe would otherwise pass over.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, drawAll, dist, CHROMIUM, FLAGS } = require("./browser.js");
const { figures } = require("./registry.js");

const browser = useBrowser(test);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
// Every figure by its name (site/src/widgets/figures.js).
const FIGURES = Object.keys(figures);

// A phone: 360 × 740, touch screen (browser.js's context is a desktop).
let phone = null;
const phoneDir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-a11y-phone-"));
test.before(async () => {
  phone = await chromium.launchPersistentContext(phoneDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
});
test.after(async () => {
  await phone?.close();
  fs.rmSync(phoneDir, { recursive: true, force: true });
});
const contextFor = (width) => (width < 600 ? phone : browser.context);

/** Opens dist/<file> (with a query) and waits until `ready` holds in the page. */
async function open(width, colorScheme, file, ready) {
  const page = await contextFor(width).newPage();
  await page.setViewportSize({ width, height: width < 600 ? 740 : 900 });
  await page.emulateMedia({ colorScheme });
  const [name, query] = file.split("?");
  await page.goto(pathToFileURL(path.join(dist, name)).href + (query ? `?${query}` : ""));
  await drawAll(page); // every figure audited, not only those near the screen
  await page.waitForFunction(ready, null, { timeout: 20000 });
  return page;
}

/** axe's violations on the page, one line each. */
async function audit(page) {
  // The pages' Content-Security-Policy refuses injected scripts; evaluate axe's source instead.
  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      resultTypes: ["violations"],
    }),
  );
  return result.violations.map(
    (v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}; first at ${v.nodes[0].target.join(" ")}`,
  );
}

for (const width of [360, 1280]) {
  for (const scheme of ["light", "dark"]) {
    test(`axe-core finds no accessibility violation in the reader at ${width} px, ${scheme} scheme`, async () => {
      const { page } = await openReader(contextFor(width), {
        width,
        height: width < 600 ? 740 : 900,
        colorScheme: scheme,
      });
      await page.evaluate(async () => {
        for (const s of document.querySelectorAll("main > section")) s.style.contentVisibility = "visible";
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      });
      assert.deepEqual(await audit(page), []);
      await page.close();
    });

    test(`axe-core finds no accessibility violation in the authors' guide at ${width} px, ${scheme} scheme`, async () => {
      const page = await open(width, scheme, "embed-guide.html", () =>
        [...document.querySelectorAll("[id^='example-']")].every((el) => el.hasAttribute("data-ready")),
      );
      assert.deepEqual(await audit(page), []);
      await page.close();
    });

    test(`axe-core finds no accessibility violation in the embed page of any figure at ${width} px, ${scheme} scheme`, async () => {
      const found = [];
      for (const name of FIGURES) {
        const page = await open(width, scheme, `embed.html?widget=${name}`, () =>
          document.documentElement.hasAttribute("data-ready"),
        );
        found.push(...(await audit(page)).map((v) => `${name}: ${v}`));
        await page.close();
      }
      assert.deepEqual(found, []);
    });
  }
}
