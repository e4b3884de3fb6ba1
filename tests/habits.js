// The checks that need no build of the core, run first by ./build.sh test:
//   node tests/habits.js types    (npm run types) tsc over the page's and the boundary's
//                                 JavaScript against dist/llmmath.d.ts (tsconfig.json)
//   node tests/habits.js lint     (npm run lint) ESLint (eslint.config.js), Prettier's check of
//                                 the JavaScript (.prettierrc.json) and clang-format's of the C++
//                                 (.clang-format), side by side, that README.md's table of
//                                 figures lists those of site/src/widgets/figures.js, and that no
//                                 concept takes more places than ARCHITECTURE.md's recipe says
//                                 (LLMMATH_CONCEPTS_SHOW=1 prints each concept's places) and no
//                                 class of the page is longer than 400 lines
//   node tests/habits.js format   (npm run format) writes what lint checks: Prettier, then
//                                 clang-format, over the same files
// Each check is one tool over the whole tree; its findings are printed as the tool prints them,
// then one closing line, "<suite>: N passed, N failed" (checks, not files), which build.sh's
// summary counts. Exits 1 when a check fails.
"use strict";
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

// The C++ formatter is Debian's package (build.sh installs it); another major version formats
// differently, so the check says so instead of reporting the whole tree.
const CLANG_FORMAT = "clang-format";
const CLANG_FORMAT_MAJOR = 14;

// ESLint and Prettier keep what they found unchanged since the last run, by content.
const ESLINT_CACHE = ["--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/"];

// What Prettier formats: the project's JavaScript (.prettierignore leaves out what is generated).
const JS_FILES = "**/*.{js,mjs,cjs}";

/** The C++ of core/, bindings/, tests/ and bench/: tracked, or new and not ignored. */
function cppFiles() {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "core", "bindings", "tests", "bench"],
    { cwd: root, encoding: "utf8" },
  );
  const files = listed.split("\0").filter((f) => /\.(cpp|hpp|h|cc|inc)$/.test(f));
  return [...new Set(files)].filter((f) => fs.existsSync(path.join(root, f)));
}

/** Why clang-format cannot be the one the .clang-format was made for, or null. */
function clangFormatProblem() {
  let version;
  try {
    version = execFileSync(CLANG_FORMAT, ["--version"], { encoding: "utf8" });
  } catch {
    return `${CLANG_FORMAT} is not installed (Debian package clang-format; ./build.sh test installs it)`;
  }
  const major = Number(/version (\d+)\./.exec(version)?.[1]);
  return major === CLANG_FORMAT_MAJOR
    ? null
    : `${CLANG_FORMAT} ${major} is not the locked ${CLANG_FORMAT_MAJOR} (Debian 12's): ${version.trim()}`;
}

/**
 * The figures README.md's table names ("| 1.1 | … | `<llm-attention>` | `attention` |") against
 * site/src/widgets/figures.js, the list they are copied from: "" when they agree, else what differs.
 */
async function readmeFigures() {
  // the registry as the tests read it (bundled by esbuild: its figure files import site/src/numpy.js)
  const { figures } = require("./browser/registry.js");
  const listed = new Map();
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  for (const [, tag, name] of readme.matchAll(/^\| [\d.]+ \| [^|]+ \| `<(llm-[a-z-]+)>` \| `([a-z-]+)` \|$/gm)) {
    listed.set(name, tag);
  }
  const problems = [];
  for (const [name, { tag }] of Object.entries(figures)) {
    if (!listed.has(name)) problems.push(`README.md: the table of figures lacks ${name} (<${tag}>)`);
    else if (listed.get(name) !== tag) problems.push(`README.md: ${name} is <${tag}>, not <${listed.get(name)}>`);
  }
  for (const name of listed.keys()) {
    if (!Object.hasOwn(figures, name)) problems.push(`README.md: the table of figures names ${name}, not a figure`);
  }
  return problems.join("\n");
}

// The most places a concept may take: the files that name it (its own files outside its figure's
// folder: the concept in their name, "model.hpp", "test_model.cpp"), its figure's folder
// (site/src/widgets/<name>/, one place however many parts its figure is made of: its widget and
// their parts, styles, declaration, presets, notebook drawings) and the files that list it
// (import the files of, or key a table by, at least half of the concepts: figures.js,
// adapters.hpp), data and fixtures aside. ARCHITECTURE.md's recipe ("Adding a concept") says the
// same number.
const CONCEPT_PLACES = 12;
const DATA = /^(data|tests\/fixtures|tests\/fuzz\/corpus|tests\/visual|site\/scenarios)\/|^bench\/baseline\.json$/;

/**
 * Each concept (a declaration in bindings/api/, or a figure's widget module) with its places, as
 * "concept N: file, folder/ (its files), file (lists)…" lines; "" when none has more than
 * CONCEPT_PLACES and the recipe says that number, else the lines and what is wrong.
 */
async function conceptFiles() {
  const { figures } = require("./browser/registry.js");
  const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f && !DATA.test(f) && fs.existsSync(path.join(root, f)));
  const api = path.join(root, "bindings", "api");
  const concepts = new Set(
    fs
      .readdirSync(api)
      .filter((f) => f.endsWith(".js") && !["generate.js", "index.js"].includes(f))
      .map((f) => f.slice(0, -3)),
  );
  for (const f of Object.values(figures)) concepts.add(f.module.replace(/\.js$/, ""));
  const byFigure = Object.fromEntries(Object.entries(figures).map(([n, f]) => [n, f.module.replace(/\.js$/, "")]));
  const words = (file) => path.basename(file).split(/[-_.]/);
  // each figure's folder, one place of its concept, listed with the files in it
  const folderOf = (f) => /^site\/src\/widgets\/([a-z-]+)\//.exec(f)?.[1];
  const folders = new Map(Object.keys(figures).map((n) => [n, tracked.filter((f) => folderOf(f) === n)]));
  const outside = tracked.filter((f) => !folders.has(folderOf(f)));
  const own = new Map(
    [...concepts].map((c) => [
      c,
      [
        ...outside.filter((f) => words(f).includes(c)),
        ...[...folders]
          .filter(([n]) => byFigure[n] === c)
          .map(([n, files]) => `site/src/widgets/${n}/ (${files.map((f) => path.basename(f)).join(", ")})`),
      ],
    ]),
  );
  // The concepts a file lists: those whose files it imports, or whose names (or their figures')
  // key its tables, when they are at least half of them.
  const lists = new Map();
  for (const f of outside) {
    if (!/\.(js|mjs|cjs|hpp|cpp|py|css|html)$/.test(f) || [...concepts].some((c) => words(f).includes(c))) continue;
    const text = fs.readFileSync(path.join(root, f), "utf8");
    const imported = new Set(),
      keyed = new Set();
    for (const m of text.matchAll(/(?:#include\s+"|from\s+"|require\("|import\s+")([^"]+)"/g))
      for (const w of words(m[1])) if (concepts.has(w)) imported.add(w);
    for (const m of text.matchAll(/^\s*["']?([a-z][a-z-]*)["']?\s*[:,]/gm)) {
      const c = concepts.has(m[1]) ? m[1] : byFigure[m[1]];
      if (c) keyed.add(c);
    }
    const named = [imported, keyed].filter((s) => s.size * 2 >= concepts.size).flatMap((s) => [...s]);
    if (named.length) lists.set(f, new Set(named));
  }
  const lines = [],
    over = [];
  for (const c of [...concepts].sort()) {
    const files = [...own.get(c), ...[...lists].filter(([, set]) => set.has(c)).map(([f]) => `${f} (lists)`)];
    lines.push(`${c} ${files.length}: ${files.join(", ")}`);
    if (files.length > CONCEPT_PLACES) over.push(`${c} takes ${files.length} places, more than ${CONCEPT_PLACES}`);
  }
  const recipe = fs.readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
  const said = /A new function with its figure takes at most\s+(\d+)\s+places/.exec(recipe)?.[1];
  if (Number(said) !== CONCEPT_PLACES)
    over.push(
      `ARCHITECTURE.md says "A new function with its figure takes at most ${said} places", not ${CONCEPT_PLACES}`,
    );
  if (process.env.LLMMATH_CONCEPTS_SHOW || over.length) return [...lines, ...over].join("\n");
  return "";
}

// The longest a class of the page may be, in lines from its "class" to its closing brace: a figure
// larger than that is composed from parts (ARCHITECTURE.md, the recipe's item 7), as is the kit.
const CLASS_LINES = 400;

/**
 * The classes of the page's JavaScript (site/) longer than CLASS_LINES, as "file:line class Name,
 * N lines" lines; "" when none is. Prettier's layout makes a class end at the first line after
 * its head that is its own indentation and a closing brace.
 */
async function classLengths() {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "site"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => /\.(js|mjs)$/.test(f) && fs.existsSync(path.join(root, f)));
  const long = [];
  for (const f of files) {
    const lines = fs.readFileSync(path.join(root, f), "utf8").split("\n");
    lines.forEach((line, i) => {
      const head = /^(\s*)(?:export\s+)?(?:default\s+)?class\s+(\w+)[^{]*\{\s*$/.exec(line);
      if (!head) return;
      const end = lines.findIndex((l, j) => j > i && l === `${head[1]}}`);
      const length = (end < 0 ? lines.length : end) - i + 1;
      if (length > CLASS_LINES) long.push(`${f}:${i + 1} class ${head[2]}, ${length} lines (at most ${CLASS_LINES})`);
    });
  }
  return long.join("\n");
}

const checks = {
  types: () => [
    {
      name: "tsc",
      problem: fs.existsSync(path.join(root, "dist", "llmmath.d.ts"))
        ? null
        : "dist/llmmath.d.ts is missing: build first (./build.sh)",
      command: [bin("tsc"), "-p", "tsconfig.json"],
    },
  ],
  lint: () => [
    {
      name: "eslint",
      command: [bin("eslint"), "--max-warnings", "0", ...ESLINT_CACHE, "."],
    },
    {
      name: "prettier",
      command: [bin("prettier"), "--check", "--cache", "--cache-strategy", "content", JS_FILES],
    },
    {
      name: "clang-format",
      problem: clangFormatProblem(),
      command: [CLANG_FORMAT, "--dry-run", "-Werror", ...cppFiles()],
    },
    { name: "readme", run: readmeFigures },
    { name: "concepts", run: conceptFiles },
    { name: "classes", run: classLengths },
  ],
  format: () => [
    { name: "prettier", command: [bin("prettier"), "--write", "--log-level", "warn", JS_FILES] },
    { name: "clang-format", problem: clangFormatProblem(), command: [CLANG_FORMAT, "-i", ...cppFiles()] },
  ],
};

/**
 * Runs one check, a command or a function of this file (`run`, resolving to its findings);
 * resolves to { name, ok, output } (stdout and stderr as they came).
 */
function run({ name, command, problem, run: own }) {
  if (problem) return Promise.resolve({ name, ok: false, output: `${problem}\n` });
  if (own) {
    return own().then(
      (found) => ({ name, ok: !found, output: found ? `${found}\n` : "" }),
      (error) => ({ name, ok: false, output: `${error.stack}\n` }),
    );
  }
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (error) => resolve({ name, ok: false, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) =>
      resolve({ name, ok: code === 0, output: code === 0 ? output : `${output}(exit ${code ?? signal})\n` }),
    );
  });
}

async function main(suite) {
  if (!Object.hasOwn(checks, suite)) {
    console.error("usage: node tests/habits.js types|lint|format");
    process.exit(2);
  }
  // The checks of lint read and write nothing in common: they run side by side (two cores).
  // format's write files, one tool after the other.
  const list = checks[suite]();
  const results = [];
  if (suite === "format") for (const check of list) results.push(await run(check));
  else results.push(...(await Promise.all(list.map(run))));
  for (const { name, ok, output } of results) {
    console.log(`--- ${name}: ${ok ? "ok" : "FAILED"}`);
    if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${suite}: ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main(process.argv[2]);
