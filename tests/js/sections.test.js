// The chapter's sections as files (site/sections.mjs): the committed ones read in order with
// their numbers and titles, and each break of the shape in a copy stops the reading, naming the
// file.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const ROOT = path.join(__dirname, "..", "..");
const FOLDER = path.join(ROOT, "site", "sections");
const load = () => import(pathToFileURL(path.join(ROOT, "site", "sections.mjs")).href);

test("the committed sections: the introduction, then 1 to 9 in file order, each titled", async () => {
  const { readSections } = await load();
  const sections = readSections();
  assert.deepEqual(
    sections.map((s) => s.id),
    fs
      .readdirSync(FOLDER)
      .filter((f) => f.endsWith(".html"))
      .sort()
      .map((f) => f.slice(3, -5)),
  );
  assert.equal(sections[0].number, null, "the introduction is not numbered");
  assert.deepEqual(
    sections.slice(1).map((s) => s.number),
    sections.slice(1).map((_, i) => String(i + 1)),
  );
  const cost = sections.find((s) => s.id === "cost");
  assert.equal(cost.title, "Growing context: what it costs");
  assert.equal(cost.file, path.join("site", "sections", "04-cost.html"));
});

/** A copy of the sections with one file's text changed by `edit`, read. */
async function readChanged(name, edit) {
  const { readSections } = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-sections-"));
  try {
    for (const f of fs.readdirSync(FOLDER)) {
      const text = fs.readFileSync(path.join(FOLDER, f), "utf8");
      fs.writeFileSync(path.join(dir, f), f === name ? edit(text) : text);
    }
    return readSections(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("a section whose id is not its file's name, misnumbered, or without its <h2> stops the reading", async () => {
  await assert.rejects(
    readChanged("04-cost.html", (t) => t.replace('<section id="cost"', '<section id="costs"')),
    /04-cost\.html: its <section> has the id "costs", its file name says "cost"/,
  );
  await assert.rejects(
    readChanged("05-speculative.html", (t) => t.replace('<span class="num">5</span>', '<span class="num">6</span>')),
    /05-speculative\.html: numbered 6, but it is the chapter's numbered section 5/,
  );
  await assert.rejects(
    readChanged("02-sampling.html", (t) => t.replace(/<h2\b[^>]*>[\s\S]*?<\/h2>/, "")),
    /02-sampling\.html: does not open with <section id="…"> and its <h2>/,
  );
});
