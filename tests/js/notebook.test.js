// The notebook edition, dist/attention-and-transformers.ipynb (site/notebook.mjs, issue 41), as the
// build wrote and ran it:
//  - it is a valid nbformat 4.5 notebook (nbformat's own validation, Debian's python3-nbformat),
//    every cell with an id;
//  - it is the build's: the digest of its cells' sources in its metadata is that of the cells it
//    holds (a cell edited by hand is caught), and the digest of the section files it was made from
//    is that of site/sections/ now (a notebook older than the sections is caught); its first cell
//    links reader.html, its headings are the sections' titles in order, and it has one code cell
//    for each figure of the sections, in order;
//  - it runs again top to bottom on a fresh kernel (site/notebook-execute.py, nbclient) with no
//    error, and every output equals the saved one;
//  - each of the nine exercises (1 to 8, and 4b after 4) has its question and, in a closed
//    <details> "Show the answer", the answer the core computes (site/noscript.mjs);
//  - each code cell prints what the program it holds prints when run on its own with
//    /usr/bin/python3, as a reader runs the figure's Copy as NumPy program. Those programs print
//    the core's numbers: tests/browser/takeaway.test.js runs every figure's program, for the
//    settings the figure opens with and after a change, and compares each printed quantity with
//    the figure's result within 1e-9 relative, and tests/browser/notebook.test.js checks that
//    each cell is, character for character, its figure's Copy as NumPy program on the reader.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { core } = require("./core.js");

const ROOT = path.join(__dirname, "..", "..");
const FILE = path.join(ROOT, "dist", "attention-and-transformers.ipynb");
const PYTHON = "/usr/bin/python3";
const site = (name) => import(pathToFileURL(path.join(ROOT, "site", name)).href);

const notebook = JSON.parse(fs.readFileSync(FILE, "utf8"));
const text = (source) => (Array.isArray(source) ? source.join("") : source);
// the figures' programs; the live figure's cells at the end (metadata llmmath.live) show, not print
const codeCells = notebook.cells.filter((c) => c.cell_type === "code" && c.metadata.llmmath?.figure);
const markdown = notebook.cells.filter((c) => c.cell_type === "markdown").map((c) => text(c.source));
/** Markdown's escapes undone: the text a reader sees. */
const unescaped = (md) => md.replace(/\\([\\`*_[\]<>$|#])/g, "$1");
/** The stdout a code cell saved. */
const stdout = (cell) =>
  cell.outputs
    .filter((o) => o.output_type === "stream" && o.name === "stdout")
    .map((o) => text(o.text))
    .join("");

test("the notebook is valid nbformat 4.5, every cell with an id", () => {
  // The file's JSON as it is: nbformat.read, and validate's warnings left as warnings, would give
  // a cell without an id one and pass it.
  execFileSync(
    PYTHON,
    [
      "-c",
      `import json, sys, warnings, nbformat
warnings.simplefilter("error")
with open(sys.argv[1], encoding="utf-8") as f:
    nbformat.validate(json.load(f))`,
      FILE,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  assert.equal(notebook.nbformat, 4);
  assert.equal(notebook.nbformat_minor, 5);
  const ids = notebook.cells.map((c) => c.id);
  assert.ok(
    ids.every((id) => typeof id === "string" && /^[\w-]{1,64}$/.test(id)),
    "each cell has an id",
  );
  assert.equal(new Set(ids).size, ids.length, "the ids are distinct");
  assert.equal(notebook.metadata.kernelspec.name, "python3");
});

test("the notebook is the build's, from the sections as they are now", async () => {
  const { cellsDigest, sectionsDigest } = await site("notebook.mjs");
  assert.equal(
    cellsDigest(notebook.cells),
    notebook.metadata.llmmath.cells,
    "the cells are those the build wrote: a cell was edited by hand (rebuild: npm run build:site)",
  );
  assert.equal(
    await sectionsDigest(),
    notebook.metadata.llmmath.sections,
    "the notebook was made from other sections than site/sections/ holds now (rebuild: npm run build:site)",
  );
  // what the sections hold, in order: their titles and their figures
  const sections = fs
    .readdirSync(path.join(ROOT, "site", "sections"))
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => fs.readFileSync(path.join(ROOT, "site", "sections", f), "utf8"));
  const titles = sections.map((html) =>
    /<h2\b[^>]*>([\s\S]*?)<\/h2>/
      .exec(html)[1]
      .replace(/<span class="num">(\d+)<\/span>/, "$1.")
      .replace(/<[^>]+>/g, ""),
  );
  const headings = markdown.flatMap((md) => [...md.matchAll(/^## (.*)$/gm)].map((m) => unescaped(m[1])));
  assert.deepEqual(headings, [...titles, "Live figures"]);
  const figures = sections.flatMap((html) =>
    [...html.matchAll(/<llm-(?!answer-)[\w-]+ id="([\w-]+)"/g)].map((m) => m[1]),
  );
  assert.equal(figures.length, 12);
  // every figure but the diagnosis quiz, whose programs would name its answers
  assert.deepEqual(
    codeCells.map((c) => c.metadata.llmmath.figure),
    figures.filter((id) => id !== "diagnose-figure"),
  );
  // the first cell says what the notebook is, beside the interactive edition
  assert.equal(notebook.cells[0].cell_type, "markdown");
  assert.match(markdown[0], /^# Attention and Transformers\n/);
  assert.match(markdown[0], /NumPy/);
  assert.match(markdown[0], /\[the interactive browser edition\]\(reader\.html\)/);
  assert.ok(fs.existsSync(path.join(ROOT, "dist", "reader.html")));
});

test("the notebook runs again on a fresh kernel with no error, and its outputs are the saved ones", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notebook-"));
  try {
    const again = path.join(dir, "again.ipynb");
    execFileSync(PYTHON, [path.join(ROOT, "site", "notebook-execute.py"), FILE, again], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const rerun = JSON.parse(fs.readFileSync(again, "utf8"));
    assert.equal(rerun.cells.length, notebook.cells.length);
    rerun.cells.forEach((cell, i) => {
      if (cell.cell_type !== "code") return;
      const label = `cell ${cell.id} (${cell.metadata.llmmath.figure ?? cell.metadata.llmmath.live})`;
      assert.deepEqual(
        cell.outputs.filter((o) => o.output_type === "error"),
        [],
        `${label} runs without error`,
      );
      assert.deepEqual(cell.outputs, notebook.cells[i].outputs, `${label}: the outputs are the saved ones`);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("each of the nine exercises has its question and the core's answer under Show the answer", async () => {
  const { exerciseAnswers } = await import(pathToFileURL(path.join(ROOT, "site", "noscript.mjs")).href);
  const answers = exerciseAnswers(await core());
  const exercises = notebook.cells.filter((c) => c.metadata.llmmath?.exercise);
  assert.deepEqual(
    exercises.map((c) => c.metadata.llmmath.exercise),
    ["1", "2", "3", "4", "4b", "5", "6", "7", "8"],
  );
  const blocks = markdown.join("\n").match(/<details><summary>Show the answer<\/summary>/g) ?? [];
  assert.equal(blocks.length, 9, "nine answer blocks in the notebook");
  exercises.forEach((cell, i) => {
    const md = text(cell.source);
    const m =
      /^### Exercise (\w+)\n\n([\s\S]+?)\n\n<details><summary>Show the answer<\/summary>\n\n([\s\S]+)\n\n<\/details>$/.exec(
        md,
      );
    assert.ok(m, `exercise ${cell.metadata.llmmath.exercise}: its heading, question and answer block`);
    assert.equal(m[1], String(answers[i].exercise));
    assert.ok(m[2].length > 80, `exercise ${m[1]} asks its question`);
    assert.equal(unescaped(m[3]), answers[i].text, `exercise ${m[1]}: the core's answer`);
  });
});

test("each code cell prints what its program prints when run on its own with python3 and NumPy", () => {
  for (const cell of codeCells) {
    const label = cell.metadata.llmmath.figure;
    const printed = execFileSync(PYTHON, ["-"], { input: text(cell.source), encoding: "utf8" });
    assert.ok(printed.length > 0, `${label} prints its numbers`);
    // one quantity a line, name = value, as every figure's program prints (site/src/numpy.js);
    // a few programs add the tokens or words the figure shows
    assert.match(printed, /^\w+ = \S/m, `${label} prints quantities`);
    assert.equal(stdout(cell), printed, `${label}: the notebook's saved output is the program's`);
  }
});

test("the notebook ends with its live figure in both forms, shown by the kernel's HTML outputs", async () => {
  const { LIVE_FIGURE } = await site("notebook.mjs");
  const live = notebook.cells.slice(-2);
  assert.deepEqual(
    live.map((c) => [c.cell_type, c.metadata.llmmath?.live]),
    [
      ["code", "script"],
      ["code", "frame"],
    ],
  );
  // the figure's element as its section writes it, but its id: the inputs of its program cell
  const element = fs
    .readdirSync(path.join(ROOT, "site", "sections"))
    .map((f) => fs.readFileSync(path.join(ROOT, "site", "sections", f), "utf8"))
    .map((html) => new RegExp(`<(llm-[\\w-]+) id="${LIVE_FIGURE}"([^>]*)>`).exec(html))
    .find(Boolean);
  assert.ok(element, `a section holds #${LIVE_FIGURE}`);
  const [script, frame] = live.map((c) => c.outputs);
  // the script embed: the HTML the cell's value is, with the plain text IPython gives an HTML object
  assert.deepEqual(
    script.map((o) => [o.output_type, Object.keys(o.data).sort()]),
    [["execute_result", ["text/html", "text/plain"]]],
  );
  assert.equal(
    text(script[0].data["text/html"]),
    `<script src="llmmath-widgets.js"></script><${element[1]}${element[2]}></${element[1]}>`,
  );
  assert.equal(text(script[0].data["text/plain"]), "<IPython.core.display.HTML object>");
  // the frame: HTML only, with the same inputs as parameters of embed.html
  assert.deepEqual(
    frame.map((o) => [o.output_type, Object.keys(o.data)]),
    [["display_data", ["text/html"]]],
  );
  const src = /<iframe[^>]*\ssrc="([^"]+)"/.exec(text(frame[0].data["text/html"]))?.[1];
  const params = new URLSearchParams(src.replace(/^embed\.html\?/, ""));
  const attrs = Object.fromEntries([...element[2].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.fromEntries(params), { widget: element[1].replace(/^llm-/, ""), ...attrs });
  // what the addresses name is beside the notebook
  for (const file of ["llmmath-widgets.js", "embed.html"])
    assert.ok(fs.existsSync(path.join(ROOT, "dist", file)), file);
});
