// Developer tool: measures the height of each figure's frame page (dist/embed.html?widget=<name>)
// with its defaults, full and compact, at 800 and 360 px wide, and prints them as the figures'
// declarations write them (frameHeight in site/src/widgets/<name>/<name>-figure.js). Run it after a
// change to a figure's layout and copy the numbers; tests/browser/frame-height.test.js checks
// that every declared height stays within 10% of the page's.
//   node tests/browser/heights.js [name…]
"use strict";
const { launch, openReader } = require("./browser.js");
const { figures } = require("./registry.js");

/** The height embed.html posts to its host: its document's, rounded up. */
async function measure(context, name, width, compact) {
  const { page } = await openReader(context, {
    file: "embed.html",
    hash: `?widget=${name}${compact ? "&compact" : ""}`,
    width,
  });
  const height = await page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await page.close();
  return height;
}

if (require.main === module) {
  (async () => {
    const { context, close } = await launch();
    try {
      for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(figures)) {
        const h = {};
        for (const view of ["full", "compact"])
          for (const width of [800, 360])
            h[`${view}${width}`] = await measure(context, name, width, view === "compact");
        console.log(
          `${name}: frameHeight: { full: { 800: ${h.full800}, 360: ${h.full360} }, compact: { 800: ${h.compact800}, 360: ${h.compact360} } },`,
        );
      }
    } finally {
      await close();
    }
  })();
}

module.exports = { measure };
