// The notebook edition, dist/attention-and-transformers.ipynb: the chapter as a Jupyter
// notebook (nbformat 4.5), made by site/build.mjs from what the page is made from, never by hand:
//   - a first cell that says what the notebook is, with a link to reader.html beside it;
//   - each section of site/sections/*.html, in file order, as Markdown cells: the sections' HTML
//     subset (headings, paragraphs, lists, a table, inline emphasis, code and links) converted
//     here, their TeX \( … \) and \[ … \] written as $…$ and $$…$$ (the sections hold TeX source,
//     which the build typesets only for the pages). A notebook is read like paper: what the page
//     shows on screen only (.screen-only) is left out, what it prints (.print-only) kept, but in
//     an exercise, where it says the answer is in the Solutions at the end; the exercises' answer
//     fields (<llm-answer-…>) and their note on checking one are left out;
//   - for each figure, a code cell: the figure's NumPy program for the settings it opens with,
//     the program Copy as NumPy gives (site/src/takeaway.js numpyProgram, computed in the page by
//     site/prerender.mjs), so that every number it prints is the figure's; then a code cell that
//     draws the figure with Matplotlib from that program's variables (site/src/widgets/<name>/
//     <figure id>.py, as written there: plotting only, it prints nothing); its caption after them;
//   - each exercise with its question and, in a closed <details> "Show the answer", the answer the
//     core computes for the exercise's numbers (site/noscript.mjs exerciseAnswers); the figure an
//     exercise asks about comes after it, as its calculation prints the answer;
//   - at the end, Figure 9.1's scenarios as the printed page has them, each with its three
//     questions and, under "Show the answer", what the Solutions say (scenarioCells).
//   - then the live figure's part, "Live figures": one figure (LIVE_FIGURE) shown live in both
//     forms of the embedding guide's Notebooks recipe, the script embed in an HTML output and a
//     frame of embed.html, from the inputs of its program cell (liveCells).
// The build then runs the notebook on a Python kernel (site/notebook-execute.py, nbclient), so that
// it reads with every program's output in place. Its metadata records two SHA-256 digests: of the
// cells' sources as written here (a cell edited by hand no longer matches) and of the section files
// it was made from (a notebook older than the sections no longer matches); tests/js/notebook.test.js
// checks both.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const NOTEBOOK = "attention-and-transformers.ipynb";
/** Debian's Python, with NumPy, SciPy, Matplotlib and the Jupyter packages (build.sh apt_packages). */
export const PYTHON = "/usr/bin/python3";
/** The figures' folders, where each figure's drawing cell is, site/src/widgets/<name>/<figure id>.py. */
export const FIGURE_FOLDERS = path.join(here, "src", "widgets");

// --- a small HTML reader, for the sections' own subset ---------------------------------------
const VOID = new Set(["br", "hr", "img", "input", "wbr"]);
const ENTITIES = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", nbsp: "\u00a0" };
const decode = (s) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e] ?? m),
  );

/**
 * The tree of `html`: elements as { tag, attrs, children }, text as strings (entities decoded),
 * comments dropped. Stops on an end tag that closes no open element.
 */
export function parseHtml(html, file) {
  const root = { tag: "#root", attrs: {}, children: [] };
  const stack = [root];
  const token = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*(\/?)>|[^<]+/g;
  let m;
  let at = 0;
  while ((m = token.exec(html))) {
    if (m.index !== at) throw new Error(`${file}: cannot read the HTML at “${html.slice(at, at + 40)}”`);
    at = token.lastIndex;
    const top = stack[stack.length - 1];
    if (m[0].startsWith("<!--")) continue;
    if (!m[2]) {
      top.children.push(decode(m[0]));
      continue;
    }
    const tag = m[2].toLowerCase();
    if (m[1]) {
      if (top.tag !== tag) throw new Error(`${file}: </${tag}> closes <${top.tag}>`);
      stack.pop();
      continue;
    }
    const attrs = {};
    for (const a of m[3].matchAll(/([\w-]+)(?:="([^"]*)")?/g)) attrs[a[1]] = decode(a[2] ?? "");
    const el = { tag, attrs, children: [] };
    top.children.push(el);
    if (!VOID.has(tag) && !m[4]) stack.push(el);
  }
  if (at !== html.length || stack.length !== 1) throw new Error(`${file}: unclosed <${stack[stack.length - 1].tag}>`);
  return root;
}

const classes = (el) => (el.attrs?.class ?? "").split(/\s+/).filter(Boolean);
const hasClass = (el, c) => typeof el !== "string" && classes(el).includes(c);

// --- Markdown ---------------------------------------------------------------------------------
/** Text outside formulas, with the characters Markdown would read as markup escaped. */
const escapeText = (s) => s.replace(/([\\`*_[\]<>$|#])/g, "\\$1");

/**
 * TeX for a notebook's $…$: on one line, and without a bare < or > (which a Markdown renderer can
 * take for the start of an HTML tag before the formula is typeset); in a table cell a | would
 * split the cell, so it is written \vert.
 */
const texFor = (tex, inTable) => {
  let t = tex.trim().replace(/\s+/g, " ").replace(/</g, "\\lt ").replace(/>/g, "\\gt ");
  if (inTable) t = t.replace(/\|/g, "\\vert ");
  return t;
};

/** A text node as Markdown: its formulas as $…$ (inline) or $$…$$ (display), the rest escaped. */
function textMarkdown(text, ctx) {
  const parts = [];
  const formula = /\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g;
  let last = 0;
  let m;
  const plain = (s) => parts.push(escapeText(s.replace(/\s+/g, " ")));
  while ((m = formula.exec(text))) {
    plain(text.slice(last, m.index));
    last = formula.lastIndex;
    if (m[1] !== undefined) parts.push(`\n\n$$${texFor(m[1], ctx.table)}$$\n\n`);
    else parts.push(`$${texFor(m[2], ctx.table)}$`);
  }
  plain(text.slice(last));
  return parts.join("");
}

/** The inline content of `el` as Markdown on one line (display formulas aside). */
function inline(el, ctx) {
  return el.children
    .map((c) => {
      if (typeof c === "string") return textMarkdown(c, ctx);
      if (hasClass(c, "screen-only") || c.tag.startsWith("llm-")) return "";
      // An exercise's words for paper say where its answer is printed ("in the Solutions at the
      // end"); the notebook has it under the question.
      if (ctx.exercise && hasClass(c, "print-only")) return "";
      const inner = () => inline(c, ctx);
      switch (c.tag) {
        case "em":
        case "dfn":
        case "cite":
        case "var":
          return wrap("*", inner());
        case "strong":
          return wrap("**", inner());
        case "code":
          return `\`${textOf(c)}\``;
        case "a": {
          // A link inside the chapter goes to the interactive edition, where every id is.
          const href = c.attrs.href ?? "";
          return `[${inner()}](${href.startsWith("#") ? `reader.html${href}` : href})`;
        }
        case "span":
          // a section's number: "1 Attention…" reads as "1. Attention…" in a heading
          return hasClass(c, "num") ? `${inner()}.` : inner();
        case "br":
          return "  \n";
        case "sub":
        case "sup":
          return `<${c.tag}>${inner()}</${c.tag}>`;
        default:
          throw new Error(`${ctx.file}: <${c.tag}> inside a paragraph: the notebook has no Markdown for it`);
      }
    })
    .join("");
}
/** `text` between `mark`s, its spaces at either end outside them (CommonMark needs them so). */
function wrap(mark, text) {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  return m[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : text;
}
const textOf = (el) => (typeof el === "string" ? el : el.children.map(textOf).join(""));
/** A paragraph's Markdown: its lines trimmed, a display formula on lines of its own. */
const tidy = (s) =>
  s
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/** A <table> as a Markdown table, its <caption> in italics above it. */
function table(el, ctx) {
  const rows = [];
  let caption = "";
  const walk = (node) => {
    for (const c of node.children) {
      if (typeof c === "string") continue;
      if (c.tag === "caption") caption = tidy(inline(c, ctx));
      else if (c.tag === "tr")
        rows.push(
          c.children.filter((x) => typeof x !== "string").map((cell) => tidy(inline(cell, { ...ctx, table: true }))),
        );
      else walk(c);
    }
  };
  walk(el);
  if (!rows.length) throw new Error(`${ctx.file}: a table without rows`);
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const lines = [line(rows[0]), line(rows[0].map(() => "---")), ...rows.slice(1).map(line)];
  return [caption ? wrap("*", caption) : "", lines.join("\n")].filter(Boolean).join("\n\n");
}

/**
 * The cells of one section's HTML (its <section> element): Markdown cells of its text, and, for
 * each figure and exercise, the cells `figure(element, captionMarkdown)` and
 * `exercise(div, questionMarkdown)` return.
 */
export function sectionCells(html, file, { figure, exercise }) {
  const ctx = { file, table: false, exercise: false };
  const root = parseHtml(html, file);
  const cells = [];
  // A figure an exercise asks about comes after the exercise: its calculation prints what the
  // exercise asks the reader to predict, which the page holds back until a prediction is committed
  // and a notebook cannot. Its cells wait here for the exercise (see the "div" case).
  const asked = new Map();
  const answerField = (el) =>
    typeof el !== "string" && (el.tag.startsWith("llm-answer-") ? el : el.children.map(answerField).find(Boolean));
  const target = (div) => answerField(div)?.attrs.for;
  const findExercises = (el) => {
    if (typeof el === "string") return;
    if (hasClass(el, "exercise") && target(el)) asked.set(target(el), null);
    el.children.forEach(findExercises);
  };
  findExercises(root);
  let blocks = [];
  const flush = () => {
    if (blocks.length) cells.push(markdownCell(blocks.join("\n\n")));
    blocks = [];
  };
  const block = (el) => {
    if (typeof el === "string") {
      const md = tidy(textMarkdown(el, ctx));
      if (md) blocks.push(md);
      return;
    }
    if (hasClass(el, "screen-only")) return;
    switch (el.tag) {
      case "#root":
      case "section":
      case "div":
        if (hasClass(el, "exercise")) {
          flush();
          const question = [];
          const saved = blocks;
          blocks = question;
          ctx.exercise = true;
          // what the page says of checking a prediction in its field: for the screen, as print has it
          for (const c of el.children) if (!hasClass(c, "note")) block(c);
          ctx.exercise = false;
          blocks = saved;
          cells.push(...exercise(el, question.join("\n\n")));
          const held = asked.get(target(el));
          if (held) {
            cells.push(
              markdownCell(
                "*After the exercise, the figure: its calculation and drawing for the inputs it opens with.*",
              ),
              ...held,
            );
            asked.set(target(el), null);
          }
          return;
        }
        for (const c of el.children) block(c);
        return;
      case "h2":
        blocks.push(`## ${tidy(inline(el, ctx))}`);
        return;
      case "h3":
        blocks.push(`### ${tidy(inline(el, ctx))}`);
        return;
      case "p":
        blocks.push(tidy(inline(el, ctx)));
        return;
      case "blockquote":
        blocks.push(
          tidy(inline(el, ctx))
            .split("\n")
            .map((l) => `> ${l}`)
            .join("\n"),
        );
        return;
      case "ul":
      case "ol": {
        const items = el.children.filter((c) => typeof c !== "string");
        blocks.push(
          items
            .map((li, i) => `${el.tag === "ol" ? `${i + 1}.` : "-"} ${tidy(inline(li, ctx)).replace(/\n/g, "\n   ")}`)
            .join("\n"),
        );
        return;
      }
      case "table":
        blocks.push(table(el, ctx));
        return;
      case "figure": {
        flush();
        const widget = el.children.find((c) => typeof c !== "string" && c.tag.startsWith("llm-"));
        const caption = el.children.find((c) => typeof c !== "string" && c.tag === "figcaption");
        if (!widget?.attrs.id) throw new Error(`${file}: a <figure> without a figure element with an id`);
        const made = figure(widget, caption ? tidy(inline(caption, ctx)) : "");
        if (asked.has(widget.attrs.id)) asked.set(widget.attrs.id, made);
        else cells.push(...made);
        return;
      }
      default:
        if (el.tag.startsWith("llm-answer-")) return;
        throw new Error(`${file}: <${el.tag}> between paragraphs: the notebook has no Markdown for it`);
    }
  };
  block(root);
  flush();
  for (const [id, held] of asked)
    if (held)
      throw new Error(`${file}: #${id} comes after the exercise that asks about it: the notebook puts it after`);
  return cells;
}

// --- the notebook -------------------------------------------------------------------------------
let cellCount = 0;
/** A cell's id (nbformat 4.5): its place in the notebook, the same at every build. */
const nextId = () => `cell-${String(++cellCount).padStart(3, "0")}`;
const markdownCell = (source, metadata = {}) => ({ cell_type: "markdown", id: nextId(), metadata, source });
const codeCell = (source, metadata = {}) => ({
  cell_type: "code",
  execution_count: null,
  id: nextId(),
  metadata,
  outputs: [],
  source,
});

/** The SHA-256 of the cells' sources, in order, each after its type: what the build wrote. */
export function cellsDigest(cells) {
  const hash = createHash("sha256");
  for (const c of cells) {
    const source = Array.isArray(c.source) ? c.source.join("") : c.source;
    hash.update(`${c.cell_type}\n${source.length}\n${source}`);
  }
  return hash.digest("hex");
}

/**
 * The SHA-256 of site/sections/*.html as committed, in file order, then of site/libraries.html:
 * what the notebook was made from.
 */
export async function sectionsDigest() {
  const dir = path.join(here, "sections");
  const hash = createHash("sha256");
  for (const name of (await readdir(dir)).filter((f) => f.endsWith(".html")).sort())
    hash.update(`${name}\n${await readFile(path.join(dir, name), "utf8")}`);
  hash.update(`libraries.html\n${await readFile(path.join(here, "libraries.html"), "utf8")}`);
  return hash.digest("hex");
}

/** The id of the heading of the scenarios' part: Jupyter and nbconvert give a heading its text as id. */
const SCENARIOS_ANCHOR = "Scenarios-to-diagnose";
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * Figure 9.1's scenarios (its paperScenarios(), as site/prerender.mjs read them from the page: in
 * the figure's first order, their calculations computed by the core) as the notebook's last part,
 * as the printed page has them: each scenario's story and its three questions with their choices,
 * then, in a closed <details> "Show the answer", the mechanism and why, the assumption and the
 * check that matter and why, and the calculation with the story's numbers.
 */
function scenarioCells(scenarios) {
  if (!Array.isArray(scenarios) || scenarios.length < 12)
    throw new Error("the notebook's scenarios: Figure 9.1 gave no list of its scenarios (paperScenarios)");
  const ctx = { file: "Figure 9.1's scenarios", table: false, exercise: false };
  /** A line of the figure's markup as Markdown. */
  const markup = (html) => tidy(inline(parseHtml(html, ctx.file), ctx));
  const cells = [
    markdownCell(
      [
        "## Scenarios to diagnose",
        `These are Figure 9.1's ${scenarios.length} scenarios, with the questions the figure asks. For each, ` +
          "choose the mechanism that explains what the user saw, then the assumption that matters most, then the " +
          "check that would tell you, before you open its answers. The calculations under the answers are the " +
          "core's, for the numbers of the story.",
      ].join("\n\n"),
    ),
  ];
  scenarios.forEach((s, k) => {
    const questions = s.questions.map(
      (q, i) =>
        `**${i + 1}. ${escapeText(q.question)}**\n\n${q.choices.map((c, j) => `- (${LETTERS[j]}) ${escapeText(c)}`).join("\n")}`,
    );
    const answer = [
      `**${escapeText(s.mechanism)}.** ${escapeText(s.because)}`,
      `*The assumption that matters:* ${escapeText(s.assumption.text)} ${escapeText(s.assumption.why)}`,
      `*The check:* ${escapeText(s.check.text)} ${escapeText(s.check.why)}`,
      `*The calculation:*\n\n${s.calculation.map((line) => `- ${markup(line)}`).join("\n")}`,
    ];
    cells.push(
      markdownCell(
        [
          `### Scenario ${k + 1}. ${escapeText(s.title)}`,
          escapeText(s.story),
          ...questions,
          `<details><summary>Show the answer</summary>\n\n${answer.join("\n\n")}\n\n</details>`,
        ].join("\n\n"),
        { llmmath: { scenario: s.id } },
      ),
    );
  });
  return cells;
}

/**
 * figure id → the source of its drawing cell: every .py file of the figures' folders
 * (site/src/widgets/<name>/<figure id>.py, beside the figure's other facets).
 */
export async function notebookDrawings() {
  const files = [];
  for (const folder of (await readdir(FIGURE_FOLDERS, { withFileTypes: true })).filter((d) => d.isDirectory()))
    for (const f of await readdir(path.join(FIGURE_FOLDERS, folder.name)))
      if (f.endsWith(".py")) files.push(path.join(FIGURE_FOLDERS, folder.name, f));
  const entries = await Promise.all(files.map(async (f) => [path.basename(f, ".py"), await readFile(f, "utf8")]));
  const ids = entries.map(([id]) => id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new Error(`site/src/widgets: two drawings for #${twice}`);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

// --- a live figure ------------------------------------------------------------------------------
/** The figure the notebook shows live at its end, in both forms (embed-guide.html#notebooks). */
export const LIVE_FIGURE = "sampling-figure";
/** A Python string literal, in double quotes unless the text (HTML) has them; none needs an escape. */
const pyString = (s) => {
  if (/\\|\n|(?=.*")(?=.*')/.test(s))
    throw new Error(`the live figure's cells: ${s} in a Python string would need escapes`);
  return s.includes('"') ? `'${s}'` : `"${s}"`;
};

/**
 * The code of a cell that shows figure `name` (its registry entry `figure`) live, starting from
 * `attrs` ([[attribute, value], …]), in its two forms, each relative to the notebook's folder:
 *   script  an HTML output: the widgets' script (llmmath-widgets.js) and the figure's element
 *   frame   IPython's IFrame of embed.html, its attributes as the address's parameters; shown as
 *           HTML only, for its plain text names where Python keeps the object, which changes at
 *           every run (and a saved output must not)
 * The notebook's last cells are these; the guide's Notebooks recipe shows them too (site/build.mjs).
 */
export function liveCode({ name, figure, attrs }) {
  const quoted = (v) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  // IFrame takes the frame's parameters as Python keywords
  const keyword = attrs.find(([n]) => !/^[a-z_]\w*$/.test(n));
  if (keyword) throw new Error(`${name}: the attribute ${keyword[0]} is no Python keyword for IFrame`);
  const element = `<${figure.tag}${attrs.map(([n, v]) => ` ${n}="${quoted(v)}"`).join("")}></${figure.tag}>`;
  return {
    element,
    script: [
      "from IPython.display import HTML",
      "",
      `HTML(${pyString('<script src="llmmath-widgets.js"></script>')}`,
      `     ${pyString(element)})`,
    ].join("\n"),
    frame: [
      "from IPython.display import IFrame, display",
      "",
      `frame = IFrame("embed.html", width="100%", height=${figure.frameHeight.full[800]}, widget=${pyString(name)}, ${attrs.map(([n, v]) => `${n}=${pyString(v)}`).join(", ")},`,
      `               extras=[${pyString(`title="${quoted(figure.title)}"`)}])`,
      'display(frame, include=["text/html"])',
    ].join("\n"),
  };
}

/**
 * The closing cells: a figure live where the notebook's front end runs scripts, in the two forms
 * of liveCode, each starting from the attributes the figure has in its section, which are the
 * inputs its program cell above computes with. `live`: the figure's element and caption as the
 * section has them; `figures`: the registry (site/src/widgets/figures.js).
 */
function liveCells({ el, caption }, figures) {
  const [name, figure] = Object.entries(figures).find(([, f]) => f.id === el.attrs.id) ?? [];
  if (!figure) throw new Error(`the figures' registry has no figure #${el.attrs.id}`);
  const number = /^\*\*(Figure [\d.]+)\.\*\*/.exec(caption)?.[1];
  if (!number) throw new Error(`#${el.attrs.id}: its caption does not start with its number`);
  // its attributes but its id, which is the reader's (a second element with it would be a second id)
  const code = liveCode({ name, figure, attrs: Object.entries(el.attrs).filter(([n]) => n !== "id") });
  return [
    markdownCell(
      [
        "## Live figures",
        `Where the notebook's front end runs the scripts of an output (Jupyter Notebook and JupyterLab with a trusted notebook, nbconvert's HTML of it), a figure itself can be shown here, computed by the chapter's engine in your browser as in [the interactive edition](reader.html). The two cells below show ${number}, each starting from the inputs of its program above; change them in the figure.`,
        "The first includes the figures' script and writes the figure's element; the second frames `embed.html`, the page that shows one figure. Both need the edition's files beside this notebook, as they are in its folder `dist/`. Which form works where, and why, is in the embedding guide's [Notebooks](embed-guide.html#notebooks).",
      ].join("\n\n"),
    ),
    codeCell(
      [
        `# ${number}, live: the figures' script (llmmath-widgets.js, beside this notebook) and the figure's`,
        `# element. Its attributes are the inputs of the figure's program above; another attribute changes`,
        `# where it starts, e.g. ${code.element.replace(/><\//, ' temperature="0.7"></')}.`,
        code.script,
      ].join("\n"),
      { llmmath: { live: "script" } },
    ),
    codeCell(
      [
        `# The same figure in a frame: embed.html (beside this notebook) shows the figure named by widget=,`,
        `# its attributes given as the other parameters (temperature="0.7" would be one more). Only the`,
        `# frame's HTML is shown: its plain text names where Python keeps it, different at every run.`,
        code.frame,
      ].join("\n"),
      { llmmath: { live: "frame" } },
    ),
  ];
}

/**
 * The notebook (nbformat 4.5, unexecuted) of `sections` ({ file, html } in order, the model facts
 * filled in as for the page), `programs` (figure id → its NumPy program; the reader's opening
 * figure, in the page's frame rather than a section, has one too, unused), `drawings` (figure id
 * → its drawing cell, notebookDrawings()), `answers` (exerciseAnswers(core)) and `scenarios`
 * (Figure 9.1's paperScenarios()); `title` and `kicker` are the reader's; `libraries` ({ file,
 * html }) is the table of where the chapter meets the libraries, put after the scenarios;
 * `figures`, the figures' registry (for the live figure at the end).
 */
export function notebookOf({
  sections,
  programs,
  drawings,
  answers,
  scenarios,
  title,
  kicker,
  libraries,
  figures,
  digest,
}) {
  cellCount = 0;
  let live = null;
  const cells = [
    markdownCell(
      [
        `# ${escapeText(title)}`,
        `*${escapeText(kicker)}*`,
        "This notebook is the chapter with its figures' calculations in Python: each figure is a code cell " +
          "that computes the figure's numbers with NumPy, for the settings it opens with, and prints them, then " +
          "a cell that draws the figure with Matplotlib. Every number is the interactive edition's: each " +
          "calculation is the program its figure's “Copy as NumPy” gives, and the chapter's tests check those " +
          "programs against the chapter's engine. The outputs are saved, so running the cells is optional; " +
          "they need Python 3 with NumPy, SciPy and Matplotlib.",
        "Each exercise asks you to predict a number before its figure: the figure it asks about comes after " +
          "it, with the answer under “Show the answer” between them. The scenarios of section 9, with their " +
          "answers, close the notebook.",
        "Read the calculations in order, or open [the interactive browser edition](reader.html), beside this " +
          "file, to change the examples and see the figures drawn.",
      ].join("\n\n"),
    ),
  ];
  for (const s of sections) {
    cells.push(
      ...sectionCells(s.html, s.file, {
        figure: (el, caption) => {
          // Figure 9.1 is a quiz: its program is the calculation of a scenario's mechanism, which
          // would name the answer the scenario asks the reader to find (the page gives it once
          // the mechanism is chosen). Its scenarios come at the notebook's end (scenarioCells), each
          // with its questions before its answers.
          if (el.tag === "llm-diagnose")
            return [
              markdownCell(
                `*Figure 9.1 asks you to diagnose scenarios, and its calculations would name their mechanisms. Its ${scenarios.length} scenarios are at [the end of this notebook](#${SCENARIOS_ANCHOR}), each with its answers under “Show the answer”; take them in [the interactive edition](reader.html#diagnose) to choose step by step and change their numbers.*`,
              ),
              ...(caption ? [markdownCell(caption)] : []),
            ];
          if (el.attrs.id === LIVE_FIGURE) live = { el, caption };
          const program = programs[el.attrs.id];
          if (typeof program !== "string") throw new Error(`${s.file}: no NumPy program for #${el.attrs.id}`);
          const drawing = drawings[el.attrs.id];
          if (typeof drawing !== "string")
            throw new Error(
              `${s.file}: no drawing for #${el.attrs.id}: write ${el.attrs.id}.py in its figure's folder, ` +
                `site/src/widgets/${el.tag.replace(/^llm-/, "")}/, ` +
                "the Matplotlib code that draws the figure from its program's variables",
            );
          return [
            codeCell(program.trimEnd(), { llmmath: { figure: el.attrs.id } }),
            codeCell(drawing.trimEnd(), { llmmath: { figure: el.attrs.id, drawing: true } }),
            ...(caption ? [markdownCell(caption)] : []),
          ];
        },
        exercise: (div, question) => {
          const heading = div.children.find((c) => typeof c !== "string" && c.tag === "h3");
          const name = /^Exercise (\w+)$/.exec(heading ? textOf(heading) : "")?.[1];
          const answer = answers.find((a) => String(a.exercise) === name);
          if (!answer) throw new Error(`${s.file}: no answer for the exercise headed “${heading && textOf(heading)}”`);
          return [
            markdownCell(
              `${question}\n\n<details><summary>Show the answer</summary>\n\n${escapeText(answer.text)}\n\n</details>`,
              { llmmath: { exercise: String(answer.exercise) } },
            ),
          ];
        },
      }),
    );
  }
  cells.push(...scenarioCells(scenarios));
  // Where the chapter's definitions meet the libraries' (site/libraries.html): a heading, a
  // paragraph and a table, which the guide shows too.
  if (libraries) {
    const none = (what) => () => {
      throw new Error(`${libraries.file}: a ${what}, which the notebook takes only from a section`);
    };
    cells.push(...sectionCells(libraries.html, libraries.file, { figure: none("figure"), exercise: none("exercise") }));
  }
  if (!live) throw new Error(`site/sections: no figure #${LIVE_FIGURE} for the notebook's live figure`);
  cells.push(...liveCells(live, figures));
  return {
    cells,
    metadata: {
      kernelspec: { display_name: "Python 3", language: "python", name: "python3" },
      language_info: { name: "python" },
      llmmath: { cells: cellsDigest(cells), sections: digest },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/**
 * Writes `out`/attention-and-transformers.ipynb and runs it (site/notebook-execute.py), so that it
 * holds every cell's output. See notebookOf for the arguments.
 */
export async function writeNotebook(out, args) {
  const file = path.join(out, NOTEBOOK);
  const notebook = notebookOf({ ...args, drawings: await notebookDrawings(), digest: await sectionsDigest() });
  await writeFile(file, `${JSON.stringify(notebook, null, 1)}\n`);
  execFileSync(PYTHON, [path.join(here, "notebook-execute.py"), file, file], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return file;
}
