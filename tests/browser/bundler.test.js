// The bundler recipe: a Vite project made as the guide's section
// "Bundlers" says, with the guide's own snippets read from the built dist/embed-guide.html (the
// package installed from its packed file with npm offline, the import lines as the page's script,
// the element as its HTML, under a strict Content-Security-Policy), built by `vite build` (this
// repository's Vite), served from 127.0.0.1 and opened in Chromium; the installed core in Node;
// then the package's TypeScript declarations, used by a project's own TypeScript. Everything is
// made once per run in a temporary folder.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist, artifact, serve, guideRecipe } = require("./browser.js");

const browser = useBrowser(test);
const root = path.join(__dirname, "..", "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-bundler-"));
const project = path.join(work, "course-site");
test.after(() => fs.rmSync(work, { recursive: true, force: true }));

// Exercise 5 of the chapter, α = 0.5 and γ = 3: (1 − 0.5⁴) / (1 − 0.5) = 0.9375 / 0.5 tokens per
// call, the number the guide's engine recipe prints.
const EXERCISE_5 = 1.875;
// The guide's element, α = 0.8 and γ = 5: (1 − 0.8⁶) / (1 − 0.8) = 0.737856 / 0.2.
const ELEMENT_TOKENS = 3.68928;
// The strict policy a course site may set, which the guide says is enough: nothing inline, nothing
// from elsewhere, WebAssembly allowed.
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'none'";

// The guide's snippets, as a course author copies them.
const recipes = Object.fromEntries(
  ["vite-install", "vite-main", "vite-html", "vite-core"].map((name) => [name, guideRecipe(name)]),
);

/** Runs a command in the project; returns { status, output } (stdout and stderr together). */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { cwd: project, encoding: "utf8", timeout: 180000, ...options });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}` };
}

// The project as a course author starts it, the packed file copied beside its package.json and
// installed by the guide's command, with npm kept off the network (its own cache, empty) — the
// package needs nothing from a registry.
let installed;
function install() {
  installed ??= (() => {
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(
      path.join(project, "package.json"),
      `${JSON.stringify({ name: "course-site", private: true, type: "module" }, null, 2)}\n`,
    );
    const m = /^npm install \.\/([\w.-]+\.tgz)$/.exec(recipes["vite-install"] ?? "");
    assert.ok(m, `the guide's install recipe is "npm install ./<file>.tgz": ${recipes["vite-install"]}`);
    const file = m[1];
    assert.ok(fs.existsSync(path.join(dist, file)), `dist/${file}, the file the guide names, exists`);
    fs.copyFileSync(path.join(dist, file), path.join(project, file));
    const r = run("npm", [
      "install",
      `./${file}`,
      "--offline",
      "--cache",
      path.join(work, "npm-cache"),
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
    ]);
    assert.equal(r.status, 0, `npm install ./${file} --offline:\n${r.output}`);
    return { file };
  })();
  return installed;
}

test("the guide's install recipe installs the packed package from its file, offline, with an exports map for the core and the widgets", () => {
  install();
  const pkg = JSON.parse(
    fs.readFileSync(path.join(project, "node_modules", "llmmath-attention", "package.json"), "utf8"),
  );
  assert.equal(pkg.type, "module");
  assert.deepEqual(Object.keys(pkg.exports).sort(), [".", "./package.json", "./widgets"]);
  for (const entry of [".", "./widgets"]) {
    for (const [condition, file] of Object.entries(pkg.exports[entry])) {
      assert.ok(
        fs.existsSync(path.join(project, "node_modules", "llmmath-attention", file)),
        `${entry} (${condition}) is ${file}, which the package holds`,
      );
    }
  }
  const own = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
  assert.match(
    own.dependencies["llmmath-attention"],
    /^file:llmmath-attention-[\d.]+\.tgz$/,
    "installed from the file",
  );
});

test("the installed core, imported in Node as an ES module, computes exercise 5 and defines no global", async () => {
  install();
  const before = Object.getOwnPropertyNames(globalThis).sort();
  const core = await import(pathToFileURL(path.join(project, "node_modules", "llmmath-attention", "llmmath.js")).href);
  assert.equal(core.default, core.createLLMMath, "the default export is the named createLLMMath");
  const m = await core.default();
  // exact in binary floating point: 0.5⁴ and the division are exact
  assert.equal(m.speculativeDecoding({ alpha: 0.5, gamma: 3 }).expectedTokens, EXERCISE_5);
  assert.deepEqual(
    Object.getOwnPropertyNames(globalThis).sort(),
    before,
    "no global added by importing and running it",
  );
});

test("vite builds the guide's page and script; in Chromium from 127.0.0.1, under a strict policy, the figure draws, its slider redraws it, the engine answers, nothing else is asked for and no global is added", async () => {
  install();
  assert.match(
    recipes["vite-html"],
    /^<llm-speculative alpha="0\.8" gamma="5"><\/llm-speculative>$/,
    "the guide's element is the one ELEMENT_TOKENS is computed for",
  );
  fs.writeFileSync(
    path.join(project, "index.html"),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<title>Week 5: speculative decoding</title>
</head>
<body>
<h1>Week 5</h1>
${recipes["vite-html"]}
<script type="module" src="/main.js"></script>
</body>
</html>
`,
  );
  fs.writeFileSync(path.join(project, "main.js"), `${recipes["vite-main"]}\n\n${recipes["vite-core"]}\n`);
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  const built = run(process.execPath, [vite, "build", "--logLevel", "warn"]);
  assert.equal(built.status, 0, `vite build:\n${built.output}`);
  const out = path.join(project, "dist");
  assert.ok(fs.existsSync(path.join(out, "index.html")), "vite wrote dist/index.html");

  // the built site, and a blank page beside it to compare the globals with
  const server = await serve({
    files: (pathname) => path.join(out, pathname === "/" ? "index.html" : path.normalize(pathname)),
    body: (pathname) => (pathname === "/blank.html" ? "<!doctype html><title>blank</title>" : null),
  });
  const page = await browser.context.newPage();
  const errors = [];
  const logs = [];
  const requests = [];
  page.on("console", (msg) => (msg.type() === "error" ? errors.push(msg.text()) : logs.push(msg.text())));
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("request", (req) => requests.push(req.url()));
  try {
    await page.goto(`${server.origin}/blank.html`);
    const blank = await page.evaluate(() => Object.getOwnPropertyNames(window).sort());
    requests.length = 0;

    await page.goto(`${server.origin}/`);
    const figure = page.locator("llm-speculative");
    await page.waitForSelector("llm-speculative[data-ready]", { timeout: 20000 });
    const expected = figure.locator(".speculative-headline-expected");
    // the headline shows four decimals: within half of the last one
    const shown = Number(await expected.textContent());
    assert.ok(Math.abs(shown - ELEMENT_TOKENS) <= 5e-5, `the figure shows ${shown} tokens per call for α 0.8, γ 5`);

    // the engine recipe's line: exercise 5's answer, from the core inside the bundle
    // (it makes its own instance of the engine, so it may print after the figure is drawn)
    for (let i = 0; i < 100 && !logs.some((l) => Number.isFinite(Number(l))); i++) await page.waitForTimeout(100);
    const printed = logs.map(Number).filter(Number.isFinite);
    assert.equal(printed.length, 1, `one number logged: ${JSON.stringify(logs)}`);
    assert.ok(Math.abs(printed[0] - EXERCISE_5) <= 1e-12, `the engine printed ${printed[0]}`);

    // a control moved redraws the chart, with the engine's number for the new α
    const chart = () => figure.locator(".speculative-figure svg").first().innerHTML();
    const chartBefore = await chart();
    const slider = figure.getByLabel("Acceptance rate α");
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    const alpha = await page.evaluate(() => document.querySelector("llm-speculative").state.alpha);
    assert.ok(Math.abs(alpha - 0.81) <= 1e-9, `one step of the slider: α ${alpha}`);
    assert.notEqual(await chart(), chartBefore, "the chart changed");
    const { default: createLLMMath } = await import(
      pathToFileURL(path.join(project, "node_modules", "llmmath-attention", "llmmath.js")).href
    );
    const now = (await createLLMMath()).speculativeDecoding({ alpha, gamma: 5 }).expectedTokens;
    const shownNow = Number(await expected.textContent());
    assert.ok(Math.abs(shownNow - now) <= 5e-5, `the figure shows ${shownNow}, the engine says ${now}`);
    assert.ok(Math.abs(shownNow - ELEMENT_TOKENS) > 1e-3, "and it is not the number before");

    const globals = await page.evaluate(() => Object.getOwnPropertyNames(window).sort());
    assert.deepEqual(
      globals.filter((g) => !blank.includes(g)),
      [],
      "the package's modules add no global to the page",
    );
    assert.ok(requests.length > 1, `the page and its script were requested: ${requests}`);
    assert.deepEqual(
      requests.filter((u) => !u.startsWith(`${server.origin}/`)),
      [],
      "every request goes to the site itself",
    );
    assert.deepEqual(server.missing, [], "no file the page asked for is missing");
    assert.deepEqual(errors, []);
    await page.screenshot({ path: artifact("bundler-vite.png"), fullPage: true });
  } finally {
    await page.close();
    await server.close();
  }
});

test("the package's TypeScript declarations type a project's calls: a right use passes tsc, a wrong one fails naming the call", () => {
  install();
  const tsconfig = (file) => ({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "preserve",
      moduleResolution: "bundler",
      lib: ["ES2022", "DOM"],
      types: [],
    },
    files: [file],
  });
  fs.writeFileSync(
    path.join(project, "uses.ts"),
    `import createLLMMath, { type SpeculativeResult } from "llmmath-attention";
import { tags } from "llmmath-attention/widgets";

const core = await createLLMMath();
const r: SpeculativeResult = core.speculativeDecoding({ alpha: 0.5, gamma: 3 });
export const tokens: number = r.expectedTokens;
export const first: "llm-attention" = tags[0];
`,
  );
  fs.writeFileSync(
    path.join(project, "misuses.ts"),
    `import createLLMMath from "llmmath-attention";

const core = await createLLMMath();
core.speculativeDecoding({ alpha: "0.5", gamma: 3 });
core.speculativeDecodng({ alpha: 0.5, gamma: 3 });
export {};
`,
  );
  fs.writeFileSync(path.join(project, "tsconfig.uses.json"), JSON.stringify(tsconfig("uses.ts")));
  fs.writeFileSync(path.join(project, "tsconfig.misuses.json"), JSON.stringify(tsconfig("misuses.ts")));
  const tsc = path.join(root, "node_modules", ".bin", "tsc");

  const right = run(tsc, ["-p", "tsconfig.uses.json"]);
  assert.equal(right.status, 0, `tsc over the right use:\n${right.output}`);
  const wrong = run(tsc, ["-p", "tsconfig.misuses.json"]);
  assert.notEqual(wrong.status, 0, "tsc fails on the wrong use");
  // a string for α (line 4), and a misspelt function (line 5), each found where it is
  assert.match(
    wrong.output,
    /misuses\.ts[(:]4[,:]\d+\)?:? - error TS2322|misuses\.ts\(4,\d+\): error TS2322/,
    wrong.output,
  );
  assert.match(
    wrong.output,
    /misuses\.ts[(:]5[,:]\d+\)?:? - error TS2551|misuses\.ts\(5,\d+\): error TS2551/,
    wrong.output,
  );
  assert.equal((wrong.output.match(/error TS/g) ?? []).length, 2, `two errors, no other:\n${wrong.output}`);
});
