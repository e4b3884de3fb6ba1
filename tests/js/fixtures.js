// Reads the reference-value files of tests/fixtures/ (format in fixture_format.py there): a list of
// cases, each mapping a value name to a matrix (array of rows).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function load(file) {
  const text = fs.readFileSync(path.join(__dirname, "..", "fixtures", file), "utf8");
  const cases = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const words = line.trim().split(/\s+/);
    if (words[0] === "case") {
      cases.push({ name: words[1], values: {} });
      continue;
    }
    const [name, rows, cols] = [words[0], Number(words[1]), Number(words[2])];
    const numbers = words.slice(3).map((w) => (/^-?nan$/i.test(w) ? NaN : Number(w)));
    if (numbers.length !== rows * cols) throw new Error(`${file}: ${name} has a wrong count`);
    const M = [];
    for (let i = 0; i < rows; i++) M.push(numbers.slice(i * cols, (i + 1) * cols));
    cases.at(-1).values[name] = M;
  }
  return cases;
}

module.exports = { load };
