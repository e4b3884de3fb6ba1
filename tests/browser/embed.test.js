// The figures outside the chapter, as course authors use them: by one script tag on a course
// page with its own styles and a strict policy, in a sandboxed frame (embed.html) that reports
// its height, and in the course authors' guide. Each page is opened from file:// in a folder of
// its own holding a copy of the files a course author would copy (the guide's "What to copy"),
// but a page with a sandboxed frame: from file:// such a frame may load no file beside it, so that
// page is served over http, as a course's pages are.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, asset, drawAll, dist, artifact, serve, guideFiles } = require("./browser.js");
const { figures } = require("./registry.js");

const browser = useBrowser(test);
// Every figure by its name (site/src/widgets/figures.js).
const FIGURES = Object.keys(figures);

// A course folder: the files of dist/ that the guide's "What to copy" names (the script embed's,
// the frame's, the host's resizer), no other, and the fixture pages.
const COPIED = [...new Set(["script", "frame", "host"].flatMap(guideFiles))];
const course = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-course-"));
for (const f of COPIED) fs.copyFileSync(path.join(dist, f), path.join(course, f));
for (const f of fs.readdirSync(path.join(__dirname, "fixtures")))
  fs.copyFileSync(path.join(__dirname, "fixtures", f), path.join(course, f));
// The same course page without the figures' script: the host's styles as they are alone.
fs.writeFileSync(path.join(course, "course-plain.html"), fs.readFileSync(path.join(course, "course.html"), "utf8"));
fs.writeFileSync(
  path.join(course, "course.html"),
  fs
    .readFileSync(path.join(course, "course.html"), "utf8")
    .replace("<!-- widgets -->", '<script src="llmmath-widgets.js"></script>'),
);
test.after(() => fs.rmSync(course, { recursive: true, force: true }));

/** The course folder served on 127.0.0.1 (each file by its name), for the pages that need http. */
const serveCourse = () => serve({ files: (pathname) => path.join(course, path.basename(pathname)) });

async function open(file, { ready = "html[data-ready]", width = 1000, origin = null } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  const [name, query] = file.split("?");
  const url = origin ? `${origin}/${name}` : pathToFileURL(path.join(course, name)).href;
  await page.goto(url + (query === undefined ? "" : `?${query}`));
  if (ready) {
    if (ready !== "body") await drawAll(page); // the guide's figures far down too
    await page.waitForSelector(ready, { timeout: 15000 });
  }
  return { page, errors };
}

const HOST_PROPS = [
  "font-family",
  "font-size",
  "line-height",
  "color",
  "background-color",
  "margin-top",
  "margin-left",
  "letter-spacing",
  "text-align",
  "text-transform",
];
const hostStyles = (page) =>
  page.evaluate(
    (props) =>
      Object.fromEntries(
        ["body", "h1", "p"].map((sel) => {
          const cs = getComputedStyle(document.querySelector(sel));
          return [sel, props.map((p) => `${p}: ${cs.getPropertyValue(p)}`)];
        }),
      ),
    HOST_PROPS,
  );

test("script embed: the course page's own styles are the same with and without the figures' script", async () => {
  const plain = await open("course-plain.html", { ready: "body" });
  const before = await hostStyles(plain.page);
  await plain.page.close();
  const { page, errors } = await open("course.html", { ready: "#spec[data-ready]" });
  await page.waitForSelector("#cool[data-ready]");
  await page.waitForSelector("#hot[data-ready]");
  assert.deepEqual(await hostStyles(page), before);
  assert.equal(before.body[1], "font-size: 19px", "the fixture's own styles are in force");
  // …and the host's heavy-handed rules do not reach inside a figure.
  const inside = await page.evaluate(() => {
    const root = document.getElementById("spec").shadowRoot;
    const cs = (el) => getComputedStyle(el);
    return {
      frameFont: cs(root.querySelector(".llm-frame")).fontSize,
      divBorder: cs(root.querySelector("div.sliders")).borderTopWidth,
      buttonWidth: root.querySelector("button").getBoundingClientRect().width,
      svgDisplay: cs(root.querySelector("svg")).display,
      transform: cs(root.querySelector("p")).textTransform,
    };
  });
  assert.equal(inside.frameFont, "14.72px", "the figure's own size, not the host's 10px root");
  assert.equal(inside.divBorder, "0px");
  assert.ok(inside.buttonWidth < 150, `button width ${inside.buttonWidth}`);
  assert.equal(inside.svgDisplay, "block");
  assert.equal(inside.transform, "none");
  await page.screenshot({ path: artifact("course-page.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("script embed: llmmath-widgets.js adds one name to the page, the core's createLLMMath, which works", async () => {
  const plain = await open("course-plain.html", { ready: "body" });
  const before = await plain.page.evaluate(() => Object.getOwnPropertyNames(window));
  await plain.page.close();
  const { page, errors } = await open("course.html", { ready: "#spec[data-ready]" });
  const added = await page.evaluate(
    (before) => Object.getOwnPropertyNames(window).filter((n) => !before.includes(n)),
    before,
  );
  assert.deepEqual(added, ["createLLMMath"], "the one global of the script embed");
  // it is the engine the contract describes (core-api.md): exercise 5's 1.875 tokens
  const tokens = await page.evaluate(
    async () => (await createLLMMath()).speculativeDecoding({ alpha: 0.5, gamma: 3 }).expectedTokens,
  );
  assert.ok(Math.abs(tokens - 1.875) <= 1e-12, `createLLMMath's engine gives ${tokens}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("script embed: two sampling figures stay independent, and a changed attribute re-renders", async () => {
  const { page, errors } = await open("course.html", { ready: "#spec[data-ready]" });
  await page.waitForSelector("#cool[data-ready]");
  await page.waitForSelector("#hot[data-ready]");
  const state = (id) => page.evaluate((id) => JSON.stringify(document.getElementById(id).state), id);
  const rows = (id) => page.locator(`#${id} .sampling-table tbody`).first().textContent();
  assert.equal(await page.evaluate(() => document.getElementById("cool").state.temperature), 0.5);
  assert.equal(await page.evaluate(() => document.getElementById("hot").state.temperature), 1.5);
  assert.notEqual(await rows("cool"), await rows("hot"));

  const hotBefore = [await state("hot"), await rows("hot")];
  const coolBefore = await rows("cool");
  await page.locator("#cool").getByLabel("Temperature T").focus();
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await rows("cool"), coolBefore, "the figure the reader moved changed");
  assert.deepEqual([await state("hot"), await rows("hot")], hotBefore, "the other one did not");

  const headline = () => page.locator("#spec .headline").textContent();
  const specBefore = await headline();
  await page.evaluate(() => document.getElementById("spec").setAttribute("alpha", "0.3"));
  assert.notEqual(await headline(), specBefore);
  const expected = await page.evaluate(
    async () => (await createLLMMath()).speculativeDecoding({ alpha: 0.3, gamma: 4, costRatio: 0.1 }).expectedTokens,
  );
  assert.match(await headline(), new RegExp(String(Number(expected.toFixed(4))).replace(".", "\\.")));
  assert.deepEqual(errors, []);
  await page.close();
});

test("script embed: the same course page works over http, under its strict policy", async () => {
  const server = await serveCourse();
  const page = await browser.context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  try {
    await page.goto(`${server.origin}/course.html`);
    for (const id of ["cool", "hot", "spec"]) await page.waitForSelector(`#${id}[data-ready]`, { timeout: 15000 });
    assert.equal(await page.locator("#spec .llm-status.llm-error").count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

test("frame embed: a sandboxed frame of embed.html tells its parent its height, named, in our form and in LTI's; llmmath-frame.js sizes it and no other frame", async (t) => {
  const server = await serveCourse();
  t.after(() => server.close());
  const { page, errors } = await open("frame-host.html", { ready: "iframe", origin: server.origin });
  await page.waitForFunction(() => document.getElementById("frame").getBoundingClientRect().height > 150, null, {
    timeout: 60000,
  });
  const messages = await page.evaluate(() => window.messages);
  const ours = messages.filter((m) => m.from === "frame");
  const height = ours.find((m) => m.data?.type === "llmmath:height")?.data;
  assert.ok(height, JSON.stringify(ours));
  assert.equal(height.figure, "sampling");
  assert.equal(height.frame, "week3");
  assert.ok(Number.isInteger(height.height) && height.height > 150);
  const lti = ours.find((m) => m.data?.subject === "lti.frameResize")?.data;
  assert.ok(lti && lti.height > 150, "the LTI form is posted too");
  const last = ours.filter((m) => m.data?.type === "llmmath:height").at(-1).data.height;
  // its content box (the frame's default border is around it)
  const inner = await page.evaluate(() => document.getElementById("frame").clientHeight);
  assert.equal(inner, last, "the frame takes the height it asked for");
  assert.equal(await page.locator("#frame").getAttribute("data-llmmath-figure"), "sampling");
  // Someone else's frame asked for 10^7 px, Infinity, NaN, -5 and "900": it keeps its own height.
  // (llmmath-frame.js listens: it has sized #frame)
  await page.waitForFunction(() => window.messages.some((m) => m.data?.type === "intruder:ready"), null, {
    timeout: 60000,
  });
  await page.evaluate(() =>
    /** @type {HTMLIFrameElement} */ (document.getElementById("intruder")).contentWindow.postMessage("go", "*"),
  );
  await page.waitForFunction(() => window.messages.some((m) => m.data?.type === "intruder:done"), null, {
    timeout: 60000,
  });
  assert.equal(await page.evaluate(() => document.getElementById("intruder").clientHeight), 100);
  const frame = page.frameLocator("#frame");
  assert.equal(await frame.locator("llm-sampling").getAttribute("temperature"), "0.5");
  assert.equal(await frame.locator("#embed-message").isVisible(), false, "frame= is not a setting");
  // The guide's files were all the frame needed: none asked for in vain, its style sheet applied.
  assert.deepEqual(server.missing, [], "files the frame asked for that the course folder lacks");
  assert.equal(await frame.locator("body").evaluate((b) => getComputedStyle(b).paddingTop), "12px");
  await page.screenshot({ path: artifact("frame-host.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("frame embed: llmmath-frame.js sizes a frame only on a message from the frame's own origin, not from a page its frame was sent to", async (t) => {
  // It once looked at the frame's src, not at the sender, so a frame of ours that had been
  // navigated elsewhere could still set its height.
  const server = await serveCourse();
  const elsewhere = await serve({
    files: () => null,
    body: (pathname) =>
      pathname === "/moved.html"
        ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title></head><body><p>Not ours.</p><script>
parent.postMessage({ type: "llmmath:height", height: 777, figure: "sampling" }, "*");
parent.postMessage({ type: "moved:done" }, "*");
</script></body></html>`
        : null,
  });
  t.after(() => Promise.all([server.close(), elsewhere.close()]));
  fs.writeFileSync(
    path.join(course, "moved-host.html"),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A frame that moves</title></head>
<body>
<h1>A course page</h1>
<iframe id="ours" src="embed.html?widget=sampling" title="Sampling" width="600" height="150"></iframe>
<script src="frame-host.js"></script>
<script src="llmmath-frame.js"></script>
</body>
</html>
`,
  );
  const { page, errors } = await open("moved-host.html", { ready: "iframe", origin: server.origin });
  // ours, from its own origin: sized
  await page.waitForFunction(() => document.getElementById("ours").getBoundingClientRect().height > 150, null, {
    timeout: 15000,
  });
  const sized = await page.evaluate(() => document.getElementById("ours").clientHeight);
  assert.notEqual(sized, 777);
  // sent to another origin (its src still says embed.html), it asks for 777 px: refused
  await page.evaluate((url) => {
    document.getElementById("ours").contentWindow.location.href = url;
  }, `${elsewhere.origin}/moved.html`);
  await page.waitForFunction(() => window.messages.some((m) => m.data?.type === "moved:done"), null, {
    timeout: 15000,
  });
  assert.ok(
    await page.evaluate(() => window.messages.some((m) => m.from === "ours" && m.data?.height === 777)),
    "the moved frame's message reached the page",
  );
  assert.equal(await page.evaluate(() => document.getElementById("ours").clientHeight), sized);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Presses Download SVG (or PNG) of the figure in `scope` (a frame, or the page); resolves to
 * { file, note, fig }, file null if no download came within 2.5 s. */
async function pressDownload(page, scope, kind = "svg", { expected = false } = {}) {
  const fig = scope.locator("llm-sampling");
  // A file that should come is waited for as long as a loaded machine may need; one that should
  // not is given a few seconds to show that it does not (absence has no event to wait for).
  const came = page
    .waitForEvent("download", { timeout: expected ? 60000 : 3000 })
    .then((d) => d.suggestedFilename())
    .catch(() => null);
  await fig.locator(`.llm-download-${kind}`).click();
  const file = await came;
  const noteEl = fig.locator(".llm-panel:not([hidden]) .llm-takeaway-note");
  await noteEl.waitFor({ timeout: 60000 });
  const note = await noteEl.textContent();
  return { file, note, fig };
}

test("frame embed: Download SVG and PNG in a frame sandboxed without allow-downloads claim no file, say it may be blocked and offer Copy SVG; a frame that can tell, and a page of its own, say Downloaded", async (t) => {
  fs.writeFileSync(
    path.join(course, "download-host.html"),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Downloads from frames</title></head>
<body>
<h1>A course page</h1>
<iframe id="sandboxed" src="embed.html?widget=sampling" title="Sampling" sandbox="allow-scripts" width="900" height="1700"></iframe>
<iframe id="downloads" src="embed.html?widget=sampling" title="Sampling" sandbox="allow-scripts allow-downloads" width="900" height="1700"></iframe>
<iframe id="same" src="embed.html?widget=sampling" title="Sampling" width="900" height="1700"></iframe>
<iframe id="readable" src="embed.html?widget=sampling" title="Sampling" sandbox="allow-scripts allow-same-origin" width="900" height="1700"></iframe>
</body>
</html>
`,
  );
  const server = await serveCourse();
  t.after(() => server.close());
  const { page, errors } = await open("download-host.html", { ready: "iframe", origin: server.origin });
  for (const id of ["sandboxed", "downloads", "same", "readable"])
    await page.frameLocator(`#${id}`).locator("llm-sampling[data-ready]").waitFor({ timeout: 15000 });

  // Sandboxed without allow-downloads (the frame of a learning platform): the browser refuses the
  // file and tells the page nothing, and the page cannot read its own sandbox.
  const sandboxed = page.frameLocator("#sandboxed");
  for (const kind of ["svg", "png"]) {
    const { file, note, fig } = await pressDownload(page, sandboxed, kind);
    assert.equal(file, null, `${kind}: no file came`);
    assert.doesNotMatch(note, /Downloaded/, `${kind}: ${note}`);
    assert.match(note, new RegExp(`asked to save sampling-figure\\.${kind}\\. If no file came, .*allow-downloads`));
    const copy = fig.locator(".llm-panel .llm-copy-svg");
    assert.equal(await copy.textContent(), "Copy SVG");
    await copy.click();
    // the clipboard is not the frame's either: the SVG is given as text to select
    const text = await fig.locator(".llm-panel textarea").inputValue();
    const parsed = await page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      return { error: doc.querySelector("parsererror") !== null, root: doc.documentElement.localName };
    }, text);
    assert.deepEqual(parsed, { error: false, root: "svg" }, `${kind}: Copy SVG gives the picture`);
    assert.match(text, /Figure 2\.1/, "with its caption");
  }

  // Sandboxed with allow-downloads: the file comes, and the figure, which cannot tell, says the same.
  const allowed = await pressDownload(page, page.frameLocator("#downloads"), "svg", { expected: true });
  assert.equal(allowed.file, "sampling-figure.svg");
  assert.match(allowed.note, /If no file came/);
  // Frames whose element it can read: not sandboxed, it says Downloaded; sandboxed without
  // allow-downloads, it does not try.
  const same = await pressDownload(page, page.frameLocator("#same"), "svg", { expected: true });
  assert.equal(same.file, "sampling-figure.svg");
  assert.match(same.note, /^Downloaded sampling-figure\.svg/);
  const readable = await pressDownload(page, page.frameLocator("#readable"));
  assert.equal(readable.file, null);
  assert.match(readable.note, /^Not saved: this frame may not save files \(its sandbox has no allow-downloads\)/);
  assert.equal(await readable.fig.locator(".llm-panel .llm-copy-svg").count(), 1);
  await page.close();

  // And on a page of its own.
  const top = await open("embed.html?widget=sampling", { origin: server.origin });
  const own = await pressDownload(top.page, top.page.locator("body"), "svg", { expected: true });
  assert.equal(own.file, "sampling-figure.svg");
  assert.match(own.note, /^Downloaded sampling-figure\.svg/);
  assert.equal(await top.page.locator("llm-sampling .llm-panel .llm-copy-svg").count(), 0, "no Copy SVG needed");
  await top.page.close();
  // Chromium logs the frames' refused clipboard (the figure then shows the text to select); no other error.
  const refused = /Permissions policy violation: The Clipboard API has been blocked/;
  assert.deepEqual(
    [...errors, ...top.errors].filter((e) => !refused.test(e)),
    [],
  );
});

test("embed.html renders every figure by its name, with its caption, and applies query settings", async () => {
  for (const name of FIGURES) {
    const { page, errors } = await open(`embed.html?widget=${name}`);
    const el = page.locator("main figure > *").first();
    assert.equal(await el.getAttribute("data-ready"), "", `${name} rendered`);
    assert.equal(await page.locator(".llm-status.llm-error").count(), 0, `${name} has no error`);
    assert.match(await page.locator("main > figure > figcaption").textContent(), /Figure \d\.\d/, `${name} caption`);
    // the caption's words for paper stay off the screen (Figure 4.2's "For the model its settings name")
    assert.deepEqual(
      await page.locator("figcaption .print-only").evaluateAll((els) => els.filter((e) => e.checkVisibility())),
      [],
      `${name}: the caption's words for paper, on screen`,
    );
    assert.deepEqual(errors, [], name);
    await page.close();
  }
  const { page } = await open("embed.html?widget=speculative&alpha=0.8&gamma=5&cost-ratio=0.2");
  const state = await page.evaluate(() => document.querySelector("llm-speculative").state);
  assert.deepEqual([state.alpha, state.gamma, state.costRatio], [0.8, 5, 0.2]);
  await page.close();
});

test("embed.html says what is wrong with an unknown figure, an unknown setting or a bad value", async () => {
  // No figure to draw: the page says so and marks itself failed, never ready.
  let { page } = await open("embed.html?widget=nonsense", { ready: "html[data-failed]" });
  assert.match(await page.locator("#embed-message").textContent(), /no figure “nonsense”.*sampling/);
  assert.equal(await page.locator("[data-ready]").count(), 0);
  await page.close();
  ({ page } = await open("embed.html?widget=constructor", { ready: "html[data-failed]" }));
  assert.match(await page.locator("#embed-message").textContent(), /no figure “constructor”/);
  await page.close();
  ({ page } = await open("embed.html?widget=speculative&alpha=7&colour=red"));
  assert.match(await page.locator("#embed-message").textContent(), /ignored: colour/);
  assert.match(
    await page.locator("llm-speculative .llm-notes").textContent(),
    /alpha="7" ignored: expected a number from 0 to 1/,
  );
  assert.equal(await page.evaluate(() => document.querySelector("llm-speculative").state.alpha), 0.5);
  await page.close();
});

test("embed.html takes a former attribute name (tokens) in its query as the labels, labels wins over it, and writes labels", async () => {
  let { page, errors } = await open("embed.html?widget=attention&tokens=A|B|C");
  const labels = () => page.evaluate(() => document.querySelector("llm-attention").state.labels);
  assert.deepEqual(await labels(), ["A", "B", "C"]);
  assert.equal(await page.locator("#embed-message").isVisible(), false, "tokens is not reported as unknown");
  assert.deepEqual(await page.evaluate(() => document.querySelector("llm-attention").settings("defaults")), [
    ["labels", "A|B|C"],
  ]);
  assert.deepEqual(errors, []);
  await page.close();
  for (const query of ["tokens=old&labels=x|y|z", "labels=x|y|z&tokens=old"]) {
    ({ page } = await open(`embed.html?widget=attention&${query}`));
    assert.deepEqual(await labels(), ["x", "y", "z"], query);
    await page.close();
  }
});

test("embed.html shows a figure by its former name (?widget=dilution) as by its name, caption and settings included", async () => {
  for (const widget of ["dilution", "context-dilution"]) {
    const { page, errors } = await open(`embed.html?widget=${widget}&distractors=100&colour=red`);
    assert.equal(
      await page.locator("#embed-message").textContent(),
      "Not settings of the context-dilution figure, ignored: colour.",
    );
    const el = page.locator("main figure > llm-context-dilution");
    assert.equal(await el.getAttribute("data-ready"), "", widget);
    assert.equal(await el.getAttribute("data-figure"), "context-dilution", widget);
    assert.equal(await page.evaluate(() => document.querySelector("llm-context-dilution").state.distractors), 100);
    assert.match(await page.locator("main > figure > figcaption").textContent(), /Figure 1\.2\. Context dilution/);
    assert.deepEqual(errors, [], widget);
    await page.close();
  }
});

// Markup and script in every place a value can come from: none may run or become an element.
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=2</script>',
  "javascript:window.__pwned=3",
  "<svg onload=window.__pwned=4>",
];

/** Elements of a kind anywhere in the page, shadow roots included. */
const countDeep = (page, selector) =>
  page.evaluate((selector) => {
    let n = 0;
    const walk = (root) => {
      n += root.querySelectorAll(selector).length;
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    return n;
  }, selector);

test("payloads in embed.html's query and in attributes never run or appear as elements", async () => {
  for (const p of PAYLOADS) {
    const q = encodeURIComponent(p);
    for (const query of [
      `widget=${q}`,
      `widget=sampling&prompt=${q}&labels=${q}|b`,
      `widget=attention&preset=${q}&labels=${q}`,
      `widget=moe&tokens=${q}`,
      `widget=diagnose&picks=${q}`,
    ]) {
      // widget=<payload> names no figure: that page fails; the others draw
      const { page } = await open(`embed.html?${query}`, { ready: "html[data-ready], html[data-failed]" });
      assert.equal(await page.evaluate(() => window.__pwned), undefined, query);
      assert.equal(await countDeep(page, "img, iframe, object, embed"), 0, query);
      assert.equal(await countDeep(page, "script"), 2, query);
      await page.close();
    }
  }
  const { page } = await open("course.html", { ready: "#spec[data-ready]" });
  await page.evaluate((payloads) => {
    for (const p of payloads)
      for (const el of document.querySelectorAll("llm-sampling, llm-speculative")) {
        for (const d of el.constructor.attributes) el.setAttribute(d.name, p);
      }
  }, PAYLOADS);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await countDeep(page, "img, iframe, object, embed"), 0);
  assert.match(await page.locator("#spec .llm-notes").textContent(), /ignored/);
  await page.close();
});

test("the guide lists every figure's attributes from their declarations and shows each live", async () => {
  fs.copyFileSync(path.join(dist, "embed-guide.html"), path.join(course, "embed-guide.html"));
  // the guide's own style sheet and script, as the build names them
  fs.mkdirSync(path.join(course, "assets"), { recursive: true });
  for (const f of ["reader.css", "llmmath-widgets.js"].map(asset))
    fs.copyFileSync(path.join(dist, f), path.join(course, f));
  const { page, errors } = await open("embed-guide.html", { ready: "#example-diagnose[data-ready]" });
  for (const name of FIGURES) {
    const declared = await page.evaluate((name) => {
      const el = document.getElementById(`example-${name}`);
      return el.constructor.attributes.map((d) => d.name);
    }, name);
    const listed = await page.locator(`#widget-${name} table.attributes tbody th code`).allTextContents();
    assert.deepEqual(listed, declared, name);
    // A renamed attribute's row says that its former names still work.
    const renamed = await page.evaluate((name) => {
      const el = document.getElementById(`example-${name}`);
      return el.constructor.attributes.filter((d) => d.aliases).map((d) => [d.name, d.aliases]);
    }, name);
    for (const [attribute, aliases] of renamed) {
      const row = page.locator(`#widget-${name} table.attributes tbody tr`, {
        has: page.locator(`th code`, { hasText: new RegExp(`^${attribute}$`) }),
      });
      for (const alias of aliases)
        assert.match(
          await row.locator("td").last().textContent(),
          new RegExp(`former name.*\\b${alias}\\b.*still works?`),
          name,
        );
    }
    await page.waitForSelector(`#example-${name}[data-ready]`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
