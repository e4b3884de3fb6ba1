// The figures as the site declares them, for the CommonJS tests: site/src/widgets/figures.js (an
// ES module, with each figure's declaration in site/src/widgets/<name>-figure.js) bundled by
// esbuild and run here, as site/build.mjs reads it. Synchronous, so that a test file can name one
// test per figure; every test that needs the list of figures, or a figure's id, tag, picture or
// conceals, reads it from here rather than keeping a copy.
//   const { figures, figureNamed, figureOf } = require("./registry.js");
"use strict";
const path = require("node:path");
const { buildSync } = require("esbuild");

const SOURCE = path.join(__dirname, "..", "..", "site", "src", "widgets", "figures.js");

function load() {
  const { outputFiles } = buildSync({
    entryPoints: [SOURCE],
    bundle: true,
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const module = { exports: {} };
  new Function("module", "exports", outputFiles[0].text)(module, module.exports);
  return module.exports;
}

module.exports = { ...load(), SOURCE };
