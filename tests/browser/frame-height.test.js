// Frames that fit before they are told: each figure declares the height of its
// frame page with every default (frameHeight in site/src/widgets/<name>/<name>-figure.js), full and
// compact, at 800 and 360 px wide, which the embed code and the guide give a frame. Here each is
// measured as embed.html posts it and must be within 10% of the declaration (fonts and the
// browser's version move a few pixels; a layout change moves more, and tests/browser/heights.js
// prints the new numbers).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser } = require("./browser.js");
const { figures } = require("./registry.js");
const { measure } = require("./heights.js");

const browser = useBrowser(test);
const TOLERANCE = 0.1;

for (const [name, f] of Object.entries(figures)) {
  test(`${name}: the declared frame heights are the page's within ${TOLERANCE * 100}%`, async () => {
    for (const view of ["full", "compact"])
      for (const width of [800, 360]) {
        const declared = f.frameHeight[view][width];
        assert.ok(Number.isInteger(declared) && declared > 0, `${name} ${view} at ${width}: declared`);
        const measured = await measure(browser.context, name, width, view === "compact");
        assert.ok(
          Math.abs(measured - declared) <= TOLERANCE * measured,
          `${name} ${view} at ${width} px wide: measured ${measured} px, declared ${declared} px (tests/browser/heights.js prints the new numbers)`,
        );
      }
  });
}
