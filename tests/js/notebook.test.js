// The notebook edition, dist/attention-and-transformers.ipynb (site/notebook.mjs), as the
// build wrote and ran it:
//  - it is a valid nbformat 4.5 notebook (nbformat's own validation, Debian's python3-nbformat),
//    every cell with an id;
//  - it is the build's: the digest of its cells' sources in its metadata is that of the cells it
//    holds (a cell edited by hand is caught), and the digest of the section files it was made from
//    is that of site/sections/ and site/libraries.html now (a notebook older than the sections is
//    caught); its first cell links reader.html, its headings are the sections' titles in order,
//    then the libraries table's and the scenarios', and it has one program cell for each figure of
//    the sections, in order;
//  - each program cell is followed by the figure's drawing cell, site/src/widgets/<name>/<id>.py as
//    it is now, titled with the figure's number; each drawing ran with no error, printed nothing
//    and saved one PNG image of plausible size;
//  - it runs again top to bottom on a fresh kernel (site/notebook-execute.py, nbclient) with no
//    error, and every output equals the saved one, the drawings' images byte for byte;
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
/** The figures' programs; each is followed by its drawing cell (metadata llmmath.drawing); the live
 * figure's cells at the end (metadata llmmath.live) show, not print. */
const codeCells = notebook.cells.filter(
  (c) => c.cell_type === "code" && c.metadata.llmmath?.figure && !c.metadata.llmmath.drawing,
);
const drawingCells = notebook.cells.filter((c) => c.cell_type === "code" && c.metadata.llmmath?.drawing);
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
    "the notebook was made from other sections than site/sections/ and site/libraries.html hold now (rebuild: npm run build:site)",
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
  // the sections' titles, then Figure 9.1's scenarios, the table of where the chapter meets the
  // libraries (site/libraries.html) and the live figure
  assert.deepEqual(headings, [...titles, "Scenarios to diagnose", "From this chapter to your library", "Live figures"]);
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

test("each program cell is followed by its figure's drawing cell, as its figure's folder has it", () => {
  // figure id → its drawing file, in its figure's folder (site/src/widgets/<name>/<id>.py)
  const folders = path.join(ROOT, "site", "src", "widgets");
  const files = new Map();
  for (const folder of fs.readdirSync(folders, { withFileTypes: true }).filter((d) => d.isDirectory()))
    for (const f of fs.readdirSync(path.join(folders, folder.name)).filter((f) => f.endsWith(".py")))
      files.set(f.slice(0, -3), path.join(folders, folder.name, f));
  assert.deepEqual(
    [...files.keys()].sort(),
    codeCells.map((c) => c.metadata.llmmath.figure).sort(),
    "one drawing file for each figure with a program, and no other",
  );
  assert.equal(drawingCells.length, codeCells.length);
  for (const program of codeCells) {
    const id = program.metadata.llmmath.figure;
    const at = notebook.cells.indexOf(program);
    const drawing = notebook.cells[at + 1];
    assert.equal(drawing.cell_type, "code", `${id}: a code cell after the program`);
    assert.deepEqual(drawing.metadata, { llmmath: { figure: id, drawing: true } }, `${id}: its drawing follows it`);
    assert.equal(
      text(drawing.source),
      fs.readFileSync(files.get(id), "utf8").trimEnd(),
      `${id}: the drawing cell is ${path.relative(ROOT, files.get(id))} as it is now (rebuild: npm run build:site)`,
    );
    // the caption after it names the figure; the drawing's title gives the same number
    const caption = notebook.cells[at + 2];
    const number = /^\*\*Figure (\d+\.\d+)\.\*\*/.exec(caption.cell_type === "markdown" ? text(caption.source) : "");
    assert.ok(number, `${id}: its caption follows the drawing`);
    assert.match(
      text(drawing.source),
      new RegExp(`"Figure ${number[1].replace(".", "\\.")} `),
      `${id}: titled Figure ${number[1]}`,
    );
  }
});

test("each drawing cell ran with no error, printed nothing and saved one PNG image of its figure", () => {
  for (const cell of drawingCells) {
    const id = cell.metadata.llmmath.figure;
    assert.deepEqual(
      cell.outputs.map((o) => o.output_type),
      ["display_data"],
      `${id}: one output, the figure (no error, no printing, no value shown)`,
    );
    const png = Buffer.from(text(cell.outputs[0].data["image/png"] ?? ""), "base64");
    assert.equal(png.subarray(0, 8).toString("hex"), "89504e470d0a1a0a", `${id}: a PNG`);
    assert.equal(png.subarray(12, 16).toString("latin1"), "IHDR");
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    // a figure of 7 × 3.5 inches at 100 dots an inch, trimmed to what is drawn (bbox "tight")
    assert.ok(width >= 600 && width <= 800, `${id}: ${width} pixels wide, about 700 expected`);
    assert.ok(height >= 300 && height <= 420, `${id}: ${height} pixels high, about 350 expected`);
    // an empty figure of that size compresses to a few kB; the drawings are 30–60 kB
    assert.ok(png.length > 20000, `${id}: ${png.length} bytes, too few for a drawn figure`);
  }
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
      const label = `cell ${cell.id} (${cell.metadata.llmmath.figure ?? cell.metadata.llmmath.live}${cell.metadata.llmmath.drawing ? ", drawing" : ""})`;
      assert.deepEqual(
        cell.outputs.filter((o) => o.output_type === "error"),
        [],
        `${label} runs without error`,
      );
      // Matplotlib's Agg writes the same PNG bytes at every run (its one text chunk, Software,
      // names its version), so the drawings' images are compared too.
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
  const blocks =
    exercises
      .map((c) => text(c.source))
      .join("\n")
      .match(/<details><summary>Show the answer<\/summary>/g) ?? [];
  assert.equal(blocks.length, 9, "nine answer blocks in the exercises");
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

test("a figure an exercise asks about comes after the exercise, not before it", () => {
  // Each figure's program prints what its exercise asks the reader to predict: the exercise's
  // figure is its <llm-answer-… for>, read from the sections.
  const sections = fs
    .readdirSync(path.join(ROOT, "site", "sections"))
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => fs.readFileSync(path.join(ROOT, "site", "sections", f), "utf8"));
  const asked = sections.flatMap((html) => [...html.matchAll(/<llm-answer-[\w-]+ for="([\w-]+)"/g)].map((m) => m[1]));
  assert.equal(asked.length, 9);
  const at = (pred) => notebook.cells.findIndex(pred);
  const exercises = notebook.cells.filter((c) => c.metadata.llmmath?.exercise);
  exercises.forEach((exercise, i) => {
    const figure = asked[i];
    const question = at((c) => c === exercise);
    const program = at((c) => c.cell_type === "code" && c.metadata.llmmath.figure === figure);
    assert.ok(program > question, `exercise ${exercise.metadata.llmmath.exercise}: #${figure} comes after it`);
    // and nothing but its lead-in between them
    assert.equal(program - question, 2, `exercise ${exercise.metadata.llmmath.exercise}: #${figure} follows at once`);
  });
});

test("Figure 9.1's scenarios follow the sections, each with its three questions before its answers", async () => {
  const { scenarios, mechanisms } = (await site("scenarios.mjs")).readScenarios();
  const cells = notebook.cells.filter((c) => c.metadata.llmmath?.scenario);
  assert.equal(cells.length, scenarios.length);
  assert.deepEqual(
    new Set(cells.map((c) => c.metadata.llmmath.scenario)),
    new Set(scenarios.map((s) => s.id)),
    "every scenario once",
  );
  const label = (id) => mechanisms.find((m) => m.id === id).label;
  for (const cell of cells) {
    const s = scenarios.find((x) => x.id === cell.metadata.llmmath.scenario);
    const md = unescaped(text(cell.source));
    const [asked, answer] = md.split("<details><summary>Show the answer</summary>");
    assert.ok(answer?.trimEnd().endsWith("</details>"), `${s.id}: its answers in a closed <details>`);
    assert.ok(asked.includes(s.title) && asked.includes(s.story), `${s.id}: its title and story`);
    const choices = (list) => list.map((c) => c.text);
    for (const choice of [...mechanisms.map((m) => m.label), ...choices(s.assumptions), ...choices(s.checks)])
      assert.ok(
        asked.includes(`) ${choice}\n`) || asked.endsWith(`) ${choice}\n\n`),
        `${s.id}: the choice “${choice}”`,
      );
    // the answers under the questions, none above them
    const right = (list) => list.find((c) => c.right);
    assert.ok(answer.includes(`**${label(s.mechanism)}.** ${s.because}`), `${s.id}: the mechanism and why`);
    assert.ok(answer.includes(`${right(s.assumptions).text} ${right(s.assumptions).why}`), `${s.id}: the assumption`);
    assert.ok(answer.includes(`${right(s.checks).text} ${right(s.checks).why}`), `${s.id}: the check`);
    assert.ok(!asked.includes(s.because), `${s.id}: the why is not above the answer block`);
    // the calculation, computed by the core in the page: at least one line with a number
    const calculation = answer.split("*The calculation:*")[1] ?? "";
    assert.match(calculation, /^- .*\d/m, `${s.id}: its calculation`);
  }
  // after the sections, the heading before them
  const first = notebook.cells.indexOf(cells[0]);
  assert.match(text(notebook.cells[first - 1].source), /^## Scenarios to diagnose\n/);
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
