// A figure's colour scheme: scheme="auto" follows the page it is on, in the
// order site/src/kit/scheme.js gives (a theme's attribute, the page's color-scheme, the
// background the figure sits on, the system), again when the page changes its theme; scheme=
// "light" or "dark" pins it; embed.html?scheme= pins the frame's page too. Each page is a small
// course page of its own, in a temporary folder beside a copy of the script embed, opened with
// the browser's system scheme emulated against what the page says, so that the page must win.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist, guideFiles } = require("./browser.js");

const browser = useBrowser(test);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

// The palette as the site declares it (site/src/tokens.js).
const { colour, rgb } = require("./tokens.js");

const work = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-scheme-"));
test.after(() => fs.rmSync(work, { recursive: true, force: true }));
// the files of dist/ that the guide tells an author to copy, for a script embed and for a frame
for (const f of new Set(["script", "frame"].flatMap(guideFiles)))
  fs.copyFileSync(path.join(dist, f), path.join(work, f));

const FIGURE = '<llm-sampling id="fig"></llm-sampling>';

/** Writes a course page: `html` and `body` are the attributes of <html> and <body>. */
function page(name, { html = "", body = "", content = FIGURE, head = "" } = {}) {
  fs.writeFileSync(
    path.join(work, name),
    `<!doctype html>
<html lang="en"${html ? ` ${html}` : ""}>
<head><meta charset="utf-8"><title>${name}</title>${head}</head>
<body${body ? ` ${body}` : ""}>
<h1>A course page</h1>
${content}
<script src="llmmath-widgets.js"></script>
</body>
</html>
`,
  );
  return name;
}

/** Opens a page of the folder with the system's scheme emulated, once #fig (or `ready`) has drawn. */
async function open(file, system, { ready = "#fig[data-ready]" } = {}) {
  const p = await browser.context.newPage();
  await p.emulateMedia({ colorScheme: system });
  const errors = [];
  p.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  p.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  await p.goto(
    pathToFileURL(path.join(work, file.split("?")[0])).href + (file.includes("?") ? `?${file.split("?")[1]}` : ""),
  );
  await p.waitForSelector(ready, { timeout: 15000 });
  return Object.assign(p, { errors });
}

/** What a figure shows: its data-scheme, its host's color-scheme, its frame's --bg and background. */
function look(p, id = "fig") {
  return p.evaluate((id) => {
    const el = document.getElementById(id);
    const frame = el.shadowRoot.querySelector(".llm-frame");
    const cs = getComputedStyle(frame);
    return {
      scheme: el.getAttribute("data-scheme"),
      colorScheme: [getComputedStyle(el).colorScheme, cs.colorScheme],
      bg: cs.getPropertyValue("--bg").trim(),
      background: cs.backgroundColor,
      text: cs.color,
    };
  }, id);
}

/** Fails unless the figure looks `scheme`: the attribute, and the palette's colours really applied. */
async function assertLooks(p, scheme, what, id = "fig") {
  // a figure's scheme is resolved at the frame after it was placed (scheme.js settle)
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
  const l = await look(p, id);
  assert.equal(l.scheme, scheme, `${what}: data-scheme`);
  assert.equal(l.bg, colour("bg", scheme), `${what}: the frame's --bg is the ${scheme} one`);
  assert.equal(l.background, rgb(colour("panel", scheme)), `${what}: the frame's background is the ${scheme} panel`);
  assert.equal(l.text, rgb(colour("fg", scheme)), `${what}: the frame's text is the ${scheme} one`);
  assert.deepEqual(
    l.colorScheme,
    [scheme, scheme],
    `${what}: the host's and the frame's color-scheme (controls, scroll bars)`,
  );
}

// Each case: a page, the system's scheme it is opened with (the opposite of what it says where it
// says something) and the scheme the figure must take.
const CASES = [
  ["Material for MkDocs' slate", { body: 'data-md-color-scheme="slate"' }, "light", "dark"],
  ["Material for MkDocs' default", { body: 'data-md-color-scheme="default"' }, "dark", "light"],
  ["pydata-sphinx-theme's data-theme on <html>", { html: 'data-theme="dark"' }, "light", "dark"],
  ["Furo's data-theme on <body>", { body: 'data-theme="light"' }, "dark", "light"],
  ["VitePress's class dark on <html>", { html: 'class="dark"' }, "light", "dark"],
  ["Bootstrap's data-bs-theme", { html: 'data-bs-theme="dark"' }, "light", "dark"],
  [
    "a theme attribute over the page's color-scheme",
    { html: 'data-theme="light" style="color-scheme: dark"' },
    "dark",
    "light",
  ],
  ["the page's color-scheme on <html>", { html: 'style="color-scheme: dark"' }, "light", "dark"],
  ["the page's color-scheme light", { html: 'style="color-scheme: light"' }, "dark", "light"],
  ["the page's <meta name=color-scheme>", { head: '<meta name="color-scheme" content="dark">' }, "light", "dark"],
  [
    "a dark background around the figure",
    { content: `<div style="background: #202124; padding: 1em"><p>Dark</p>${FIGURE}</div>` },
    "light",
    "dark",
  ],
  ["a light background around the figure", { body: 'style="background: #fafafa"' }, "dark", "light"],
  // Undecided, so the system decides: Furo's "auto", a class that only contains the word (on a light
  // system, where taking it for the word would be seen), "light dark", nothing at all.
  ["Furo's data-theme auto (undecided)", { body: 'data-theme="auto"' }, "dark", "dark"],
  ["a class that only contains dark (undecided)", { html: 'class="darkness not-dark"' }, "light", "light"],
  ["the page's color-scheme light dark (undecided)", { html: 'style="color-scheme: light dark"' }, "dark", "dark"],
  ["nothing, system dark", {}, "dark", "dark"],
  ["nothing, system light", {}, "light", "light"],
];

CASES.forEach(([what, attrs, system, expected], i) => {
  test(`scheme: scheme="auto" follows ${what} (system ${system}): the figure is ${expected}`, async () => {
    const p = await open(page(`case-${i}.html`, attrs), system);
    await assertLooks(p, expected, what);
    assert.deepEqual(p.errors, []);
    await p.close();
  });
});

test("scheme: scheme=light or dark pins the figure whatever the page and the system say", async () => {
  const file = page("pinned.html", {
    body: 'data-md-color-scheme="slate" style="background: #1e2129"',
    content: '<llm-sampling id="fig" scheme="light"></llm-sampling><llm-alibi id="other" scheme="dark"></llm-alibi>',
  });
  const p = await open(file, "dark");
  await p.waitForSelector("#other[data-ready]");
  await assertLooks(p, "light", "scheme=light on a dark page, system dark");
  await p.emulateMedia({ colorScheme: "light" });
  await p.evaluate(() => document.body.setAttribute("data-md-color-scheme", "default"));
  await assertLooks(p, "dark", "scheme=dark on a light page, system light", "other");
  // Back to auto, the figure follows the page again.
  await p.evaluate(() => document.getElementById("fig").setAttribute("scheme", "auto"));
  await assertLooks(p, "light", "scheme set to auto on a light page");
  await p.evaluate(() => document.getElementById("fig").setAttribute("scheme", "dark"));
  await assertLooks(p, "dark", "scheme set to dark at run time");
  assert.deepEqual(p.errors, []);
  await p.close();
});

test("scheme: a page that changes its theme at run time (Material's palette toggle), or the system that changes, changes the figure without a reload", async () => {
  const p = await open(page("toggle.html", { body: 'data-md-color-scheme="default"' }), "dark");
  await assertLooks(p, "light", "Material default");
  await p.evaluate(() => document.body.setAttribute("data-md-color-scheme", "slate"));
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "dark");
  await assertLooks(p, "dark", "toggled to slate");
  await p.evaluate(() => document.body.setAttribute("data-md-color-scheme", "default"));
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "light");
  await assertLooks(p, "light", "toggled back to default");
  // A theme's class and the page's style attribute are watched too.
  await p.evaluate(() => {
    document.body.removeAttribute("data-md-color-scheme");
    document.documentElement.style.colorScheme = "light";
  });
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "light");
  await p.evaluate(() => document.documentElement.classList.add("dark"));
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "dark");
  await assertLooks(p, "dark", "class dark added to <html>");
  // With nothing left on the page, the system decides, and its change is followed.
  await p.evaluate(() => {
    document.documentElement.className = "";
    document.documentElement.removeAttribute("style");
  });
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "dark");
  await p.emulateMedia({ colorScheme: "light" });
  await p.waitForFunction(() => document.getElementById("fig").getAttribute("data-scheme") === "light");
  await assertLooks(p, "light", "the system turned light");
  assert.deepEqual(p.errors, []);
  await p.close();
});

test("scheme: a figure moved onto another background takes that background's scheme", async () => {
  const file = page("move.html", {
    content: `<div id="dark" style="background: #111">${FIGURE}</div><div id="light" style="background: #fff"></div>`,
  });
  const p = await open(file, "dark");
  await assertLooks(p, "dark", "on the dark box");
  await p.evaluate(() => document.getElementById("light").append(document.getElementById("fig")));
  await assertLooks(p, "light", "moved onto the white box");
  assert.deepEqual(p.errors, []);
  await p.close();
});

test("scheme: a scheme the figure does not know is noted on the figure, naming scheme, and auto is used", async () => {
  const file = page("purple.html", {
    body: 'data-md-color-scheme="slate"',
    content: '<llm-sampling id="fig" scheme="purple"></llm-sampling>',
  });
  const p = await open(file, "light");
  const note = await p.evaluate(() => {
    const n = document.getElementById("fig").shadowRoot.querySelector(".llm-notes");
    return { hidden: n.hidden || n.getClientRects().length === 0, text: n.textContent };
  });
  assert.equal(note.hidden, false, "the note is shown");
  assert.match(note.text, /scheme="purple" ignored: expected one of auto, light, dark/);
  await assertLooks(p, "dark", "purple, on a slate page: auto");
  await p.close();
});

test("scheme: embed.html?scheme=dark makes the frame's page dark too, and a downloaded picture takes the dark colours", async () => {
  const p = await open("embed.html?widget=alibi&scheme=dark", "light", { ready: "html[data-ready]" });
  const pageLook = await p.evaluate(() => ({
    scheme: document.documentElement.getAttribute("data-scheme"),
    background: getComputedStyle(document.documentElement).backgroundColor,
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
  }));
  assert.deepEqual(pageLook, { scheme: "dark", background: rgb(colour("bg", "dark")), colorScheme: "dark" });
  await assertLooks(p, "dark", "embed.html?scheme=dark", "alibi-figure");
  const [file] = await Promise.all([p.waitForEvent("download"), p.locator("#alibi-figure .llm-download-svg").click()]);
  const svg = fs.readFileSync(await file.path(), "utf8");
  const background = /<svg[^>]*>(?:<title>[\s\S]*?<\/title>)?<rect [^>]*fill="([^"]+)"/.exec(svg)?.[1];
  assert.equal(background, rgb(colour("panel", "dark")), "the picture's background is the dark panel");
  assert.ok(svg.includes(`fill="${rgb(colour("fg", "dark"))}"`), "the picture's text is the dark scheme's");
  assert.deepEqual(p.errors, []);
  await p.close();

  // A light pin on a dark system, and a value refused: the page follows the system.
  const light = await open("embed.html?widget=alibi&scheme=light", "dark", { ready: "html[data-ready]" });
  assert.equal(
    await light.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
    rgb(colour("bg", "light")),
  );
  await assertLooks(light, "light", "embed.html?scheme=light", "alibi-figure");
  await light.close();
  const refused = await open("embed.html?widget=alibi&scheme=purple", "dark", { ready: "html[data-ready]" });
  assert.equal(await refused.evaluate(() => document.documentElement.hasAttribute("data-scheme")), false);
  await assertLooks(refused, "dark", "embed.html?scheme=purple on a dark system", "alibi-figure");
  await refused.close();
});

test("scheme: axe-core finds no colour contrast failure in a dark-pinned figure on a dark page, system light", async () => {
  const file = page("axe.html", {
    body: 'data-md-color-scheme="slate" style="background: #1e2129; color: #e2e4e9"',
    content: '<llm-sampling id="fig" scheme="dark"></llm-sampling>',
  });
  const p = await open(file, "light");
  await p.evaluate(AXE);
  const result = await p.evaluate(() =>
    axe.run(document.getElementById("fig"), {
      runOnly: { type: "rule", values: ["color-contrast"] },
      resultTypes: ["violations", "passes"],
    }),
  );
  const found = result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`));
  assert.deepEqual(found, []);
  assert.ok(result.passes.flatMap((v) => v.nodes).length > 10, "axe checked the figure's text");
  await p.close();
});
