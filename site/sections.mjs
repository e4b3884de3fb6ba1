// The chapter's sections as files: every site/sections/NN-<id>.html, in file-name order, each one
// <section id="<id>"> that opens with its <h2>, the section's title. Read here once, for
// everything that needs a section's id, number or title: the reader's table of contents
// (site/build.mjs) and the links Figure 9.1's scenarios give to the section of their mechanism
// (site/scenarios.mjs). A file that breaks the shape stops the build, naming the file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const FILE = /^(\d\d)-([a-z]+)\.html$/;

/**
 * @typedef {object} Section
 * @property {string} file     its path from the repository's root (site/sections/04-cost.html)
 * @property {string} path     its absolute path
 * @property {string} id       its <section>'s id, which is also its file's name after the number
 * @property {string} heading  its <h2>'s HTML, number included
 * @property {string | null} number  the number its <h2> gives it (<span class="num">4</span>),
 *                             null for the unnumbered introduction
 * @property {string} titleHtml  its <h2>'s HTML without the number
 * @property {string} title    its title as plain text ("Growing context: what it costs")
 * @property {string} html     the whole file
 */

/**
 * Every section, in file order; numbered sections must be numbered 1, 2, … in that order.
 * @param {string} [dir] the sections' folder (tests give another)
 * @returns {Section[]}
 */
export function readSections(dir = path.join(here, "sections")) {
  const root = path.join(here, "..");
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".html"))
    .sort();
  let numbered = 0;
  return names.map((name) => {
    const abs = path.join(dir, name);
    const file = path.relative(root, abs);
    const named = FILE.exec(name);
    if (!named) throw new Error(`${file}: expected a name NN-<id>.html`);
    const html = readFileSync(abs, "utf8");
    const m = /^<section id="([\w-]+)"[^>]*>\s*<h2\b[^>]*>([\s\S]*?)<\/h2>/.exec(html);
    if (!m) throw new Error(`${file}: does not open with <section id="…"> and its <h2>`);
    if (m[1] !== named[2])
      throw new Error(`${file}: its <section> has the id "${m[1]}", its file name says "${named[2]}"`);
    const n = /^<span class="num">(\d+)<\/span>\s*([\s\S]*)$/.exec(m[2]);
    if (n && Number(n[1]) !== ++numbered)
      throw new Error(`${file}: numbered ${n[1]}, but it is the chapter's numbered section ${numbered}`);
    const titleHtml = n ? n[2] : m[2];
    const title = titleHtml
      .replace(/<[^>]*>/g, "")
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
      .trim();
    return { file, path: abs, id: m[1], heading: m[2], number: n ? n[1] : null, titleHtml, title, html };
  });
}
