// The figures as the site declares them, for the CommonJS tests: site/src/widgets/figures.js (an
// ES module, with each figure's declaration in site/src/widgets/<name>/<name>-figure.js) bundled by
// esbuild and run here, as site/build.mjs reads it. Synchronous, so that a test file can name one
// test per figure; every test that needs the list of figures, or a figure's id, tag, picture or
// conceals, reads it from here rather than keeping a copy.
//   const { figures, figureNamed, figureOf, trials } = require("./registry.js");
// `trials` holds, by figure name, each figure's `trial`, the second export of its <name>-figure.js:
// what the tests do with it in every browser (its control, a change, its program's numbers, its
// readouts, one number beside the engine's). The pages never import a trial; only this file does.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { buildSync } = require("esbuild");

const WIDGETS = path.join(__dirname, "..", "..", "site", "src", "widgets");
const SOURCE = path.join(WIDGETS, "figures.js");

function load() {
  // each figure's folder, site/src/widgets/<name>/, holds its declaration, <name>-figure.js
  const names = fs
    .readdirSync(WIDGETS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(WIDGETS, d.name, `${d.name}-figure.js`)))
    .map((d) => d.name)
    .sort();
  const contents = [
    `export * from "./figures.js";`,
    ...names.map((name, i) => `import { trial as trial${i} } from "./${name}/${name}-figure.js";`),
    `export const trials = { ${names.map((name, i) => `${JSON.stringify(name)}: trial${i}`).join(", ")} };`,
  ].join("\n");
  const { outputFiles } = buildSync({
    stdin: { contents, resolveDir: WIDGETS, sourcefile: "registry-entry.js" },
    bundle: true,
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const module = { exports: {} };
  new Function("module", "exports", outputFiles[0].text)(module, module.exports);
  const { figures } = module.exports;
  // Each figure's folder and declaration file are its name's, and hold its trial (and no other
  // folder has a declaration).
  const listed = Object.keys(figures).sort();
  if (JSON.stringify(listed) !== JSON.stringify(names))
    throw new Error(`site/src/widgets/*/*-figure.js are ${names.join(", ")}; figures.js lists ${listed.join(", ")}`);
  return module.exports;
}

module.exports = { ...load(), SOURCE };
