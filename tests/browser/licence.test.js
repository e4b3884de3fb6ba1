// The open licence: the code under MIT, the text and figures under CC BY 4.0,
// said the same way in every place a lecturer looks: package.json (the repository's and the packed
// package's, whose "license" npm shows), the LICENSE files inside dist/llmmath-attention-*.tgz as
// npm installs it, the chapter's footer and the embedding guide's section on reuse and credit.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist, openReader, guideRecipe } = require("./browser.js");

const browser = useBrowser(test);
const root = path.join(__dirname, "..", "..");

// The SPDX expression: both licences apply, each to its part (platforms.md, "Licences").
const SPDX = "(MIT AND CC-BY-4.0)";
const CC_BY = "https://creativecommons.org/licenses/by/4.0/";

const rootPackage = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/** The packed package's files, unpacked by tar as npm unpacks them: { name → text }. */
function packedFiles() {
  const file = `llmmath-attention-${rootPackage.version}.tgz`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-licence-"));
  try {
    const r = spawnSync("tar", ["-xzf", path.join(dist, file), "-C", work], { encoding: "utf8" });
    assert.equal(r.status, 0, `tar -xzf dist/${file}: ${r.stderr}`);
    const dir = path.join(work, "package");
    return Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

test("package.json names MIT and CC BY 4.0, here and in the packed package, which carries both texts", () => {
  assert.equal(rootPackage.license, SPDX);
  const site = JSON.parse(fs.readFileSync(path.join(root, "site", "package.json"), "utf8"));
  assert.equal(site.license, SPDX, "site/package.json");

  const files = packedFiles();
  const packed = JSON.parse(files["package.json"]);
  assert.equal(packed.license, SPDX, "the packed package.json");
  for (const name of ["LICENSE", "LICENSE-text"]) {
    assert.ok(Object.hasOwn(files, name), `${name} is in the .tgz (it has ${Object.keys(files).join(", ")})`);
    assert.equal(files[name], fs.readFileSync(path.join(root, name), "utf8"), `the packed ${name} is the repository's`);
  }
  assert.match(
    files.LICENSE,
    /^MIT License\n\nCopyright \(c\) 2026 The authors of The Mathematics of Large Language Models\n/,
  );
  assert.match(files.LICENSE, /Permission is hereby granted, free of charge, to any person obtaining a copy/);
  assert.ok(files["LICENSE-text"].includes(CC_BY), "LICENSE-text names CC BY 4.0's address");
  assert.match(files["LICENSE-text"], /Creative Commons Attribution 4\.0 International/);
});

test("each file a course author copies beside a page opens with a line naming it and both licences", () => {
  const files = ["llmmath-widgets.js", "llmmath-embed.js", "llmmath-frame.js", "llmmath-embed.css"];
  for (const file of files) {
    const first = fs.readFileSync(path.join(dist, file), "utf8").split("\n", 1)[0];
    assert.match(
      first,
      /^\/\*! (\S+): Attention and Transformers, chapter 8 of The Mathematics of Large Language Models/,
      file,
    );
    assert.equal(first.split(": ")[0], `/*! ${file}`, `${file} names itself`);
    assert.match(first, /MIT licence \(LICENSE\), text and figures under CC BY 4\.0 \(LICENSE-text\)\. \*\/$/, file);
  }
  // the widgets' file, as the reader loads it under its hashed name, too
  const hashed = fs.readdirSync(path.join(dist, "assets")).filter((f) => /^llmmath-widgets\.[0-9a-f]+\.js$/.test(f));
  assert.equal(hashed.length, 1, hashed.join(", "));
  assert.ok(fs.readFileSync(path.join(dist, "assets", hashed[0]), "utf8").startsWith("/*! llmmath-widgets.js: "));
});

test("the chapter's footer names both licences, links them and says how to credit", async () => {
  const { page, errors } = await openReader(browser.context, { lazy: true });
  const line = page.locator(".colophon p.licence");
  assert.equal(await line.count(), 1);
  assert.ok(await line.isVisible());
  const text = (await line.textContent()).replace(/\s+/g, " ");
  assert.match(text, /text and figures are under CC BY 4\.0, its code under the MIT licence/);
  assert.match(text, /crediting “Attention and Transformers”, The Mathematics of Large Language Models, chapter 8/);
  const links = await line.locator("a").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  // no outside address on the page: the licences' texts are the guide's links
  assert.deepEqual(links, [["how to credit, and the licences", "embed-guide.html#licence"]]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the guide says what a lecturer may do with the files and gives a credit line", async () => {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(path.join(dist, "embed-guide.html")).href + "#licence");
  const section = page.locator("section#licence");
  assert.equal(
    (await section.locator("h2").textContent()).trim(),
    "What you may do with these files, and how to credit them",
  );
  const text = (await section.textContent()).replace(/\s+/g, " ");
  assert.match(text, /Creative Commons Attribution 4\.0 licence \(CC BY 4\.0\)/);
  assert.match(text, /under the MIT licence/);
  assert.ok(text.includes(SPDX), "the section gives the package's license field");
  const hrefs = await section.locator("a[rel=license]").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  // the texts beside the guide, in the edition's copy of the package
  assert.deepEqual(hrefs, ["package/LICENSE-text", "package/LICENSE"]);
  for (const href of hrefs) assert.ok(fs.existsSync(path.join(dist, href)), `${href} is in dist/`);
  // The credit line gives what CC BY 4.0 asks of a credit (its section 3(a)): the work and who
  // made it, the licence with its address, and whether it was changed.
  const credit = guideRecipe("credit");
  assert.match(credit, /^From “Attention and Transformers”, The Mathematics of Large Language Models, chapter 8/);
  assert.ok(credit.includes(`CC BY 4.0 (${CC_BY})`), credit);
  assert.match(credit, /Changed: /);
  await page.close();
});
