// Developer tool: screenshots of dist/reader.html for looking at the page.
//   node tests/browser/screenshot.js [width] [section-id] [dark]
// writes build/test-artifacts/shot-<width>[-<section>][-dark].png
"use strict";
const { launch, openReader, artifact } = require("./browser.js");

(async () => {
  const width = Number(process.argv[2] ?? 1280);
  const section = process.argv[3];
  const dark = process.argv[4] === "dark";
  const { context, close } = await launch();
  try {
    const { page, errors } = await openReader(context, { width, colorScheme: dark ? "dark" : "light" });
    const name = `shot-${width}${section ? "-" + section.replace(/[^a-z0-9-]/gi, "") : ""}${dark ? "-dark" : ""}.png`;
    if (section) {
      await page
        .locator(section.startsWith("#") || section.startsWith(".") ? section : `#${section}`)
        .first()
        .screenshot({ path: artifact(name) });
    } else {
      await page.screenshot({ path: artifact(name), fullPage: true });
    }
    console.log(artifact(name));
    if (errors.length) console.log(errors.join("\n"));
  } finally {
    await close();
  }
})();
