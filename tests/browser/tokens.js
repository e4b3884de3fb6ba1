// The palette as the site declares it, for the CommonJS tests: site/src/tokens.js (an ES module)
// bundled by esbuild and run here, as registry.js does with the figures; so a test checks the
// colours a page shows against the declaration, not against a copy of it.
//   const { colour, rgb } = require("./tokens.js");
//   colour("panel", "dark") → "#1f2125"; rgb("#1f2125") → "rgb(31, 33, 37)", as computed
"use strict";
const path = require("node:path");
const { buildSync } = require("esbuild");

const SOURCE = path.join(__dirname, "..", "..", "site", "src", "tokens.js");

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

/** "#1f2125" → "rgb(31, 33, 37)", as a computed colour reads. */
function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

module.exports = { ...load(), rgb, SOURCE };
