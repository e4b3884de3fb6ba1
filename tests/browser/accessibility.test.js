// Accessibility audit of the whole reader with axe-core (WCAG 2 A and AA rules), in the light
// and the dark colour scheme, after every widget has rendered.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { useBrowser, openReader } = require("./browser.js");

const browser = useBrowser(test);
const AXE = require.resolve("axe-core/axe.min.js");

async function audit(colorScheme) {
  const { page } = await openReader(browser.context, { colorScheme });
  // The page's Content-Security-Policy refuses injected scripts; evaluate axe's source instead.
  await page.evaluate(require("node:fs").readFileSync(AXE, "utf8"));
  const result = await page.evaluate(() =>
    axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "best-practice"] }, resultTypes: ["violations"] }));
  await page.close();
  return result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}; first at ${v.nodes[0].target.join(" ")}`);
}

for (const scheme of ["light", "dark"]) {
  test(`axe-core finds no accessibility violation in the ${scheme} scheme`, async () => {
    assert.deepEqual(await audit(scheme), []);
  });
}
