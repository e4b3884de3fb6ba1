// The reader's state in its URL and what a reader takes away: every figure's settings survive a
// reload from the URL; Copy link, Copy embed code and Reset; payloads in the fragment stay text;
// a saved copy of the page shows no widget twice; the one-file edition works offline; and with
// scripts off the page says what needs them and each exercise offers its answer, closed.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { chromium } = require("playwright-core");
const { useBrowser, openReader, openFigure, showNumbers, asset, drawAll, dist, artifact } = require("./browser.js");

const browser = useBrowser(test);

/** Every figure's state, by id. */
const states = (page) =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[id]")]
        .filter((el) => el.localName.startsWith("llm-") && el.state)
        .map((el) => [el.id, JSON.stringify(el.state)]),
    ),
  );

/**
 * Changes every declared setting of every figure to another legal value, as its controls
 * would (through set()), and returns the number of settings changed.
 */
const changeEverything = (page) =>
  page.evaluate(() => {
    let changed = 0;
    const camel = (n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    for (const el of document.querySelectorAll("[id]")) {
      if (!el.localName.startsWith("llm-") || !el.constructor.attributes) continue;
      for (const d of el.constructor.attributes) {
        const k = camel(d.name),
          v = el.state[k];
        let next;
        switch (d.type) {
          case "number": {
            // An exclusive bound (kv-bytes-per-element > 0) is not a value: a seventh of the way in is.
            const lo = d.min ?? d.minExclusive,
              hi = d.max ?? d.maxExclusive;
            next = v === hi ? (d.min ?? lo + (hi - lo) / 7) : Math.min(hi, Math.max(lo, v + (hi - lo) / 7));
            break;
          }
          case "integer":
            next = v === d.max ? d.min : Math.min(d.max, v + 1);
            break;
          case "boolean":
            next = !v;
            break;
          case "choice":
            next = d.choices.find((c) => c !== v) ?? v;
            break;
          case "text":
            // a text of a form of its own (a configuration's JSON) declares a value to change to
            next = d.example ?? `${v} changed`.slice(0, d.maxLength ?? 4096);
            break;
          case "numbers":
            // Half the first entry moves to the second: a list the core checks whole (probabilities
            // summing to 1) stays one it accepts.
            next = v.map((x, i) =>
              Math.min(d.max ?? Infinity, Math.max(d.min ?? -Infinity, i === 0 ? x / 2 : i === 1 ? x + v[0] / 2 : x)),
            );
            break;
          case "labels":
            next = v.map((x, i) => (i === 0 ? "zz" : x));
            break;
          case "matrix":
            next = v.map((row, i) => row.map((x, j) => (i === 0 && j === 0 ? x + 1 : x)));
            break;
          default:
            continue;
        }
        el.set({ [k]: next }, { sync: true });
        changed += 1;
      }
    }
    return changed;
  });

test("URL state: every figure's settings, changed, come back when the page is opened from its URL", async () => {
  const { page, errors } = await openReader(browser.context);
  const historyBefore = await page.evaluate(() => history.length);
  const n = await changeEverything(page);
  assert.ok(n >= 30, `${n} settings changed`);
  const changed = await states(page);
  await page.waitForFunction(() => location.hash.includes("?"));
  await page.waitForTimeout(300);
  const url = page.url();
  assert.equal(await page.evaluate(() => history.length), historyBefore, "the URL is replaced, not pushed");
  await page.close();

  const again = await openReader(browser.context, { hash: url.slice(url.indexOf("#")) });
  assert.deepEqual(await states(again.page), changed);
  assert.equal(await again.page.locator(".llm-notes:visible").count(), 0, "no setting was refused");
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
});

test("URL state: a slider moved by the reader is in the URL, and a deep link opens at its figure", async () => {
  const { page } = await openReader(browser.context);
  await page
    .locator("#speculative-figure")
    .getByLabel(/Draft length/)
    .focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => location.hash.includes("speculative.gamma=4"));
  await page.close();
  const again = await openReader(browser.context, { hash: "#speculative-figure?speculative.gamma=4", height: 700 });
  assert.equal(await again.page.evaluate(() => document.getElementById("speculative-figure").state.gamma), 4);
  const top = await again.page.evaluate(
    () => document.getElementById("speculative-figure").getBoundingClientRect().top,
  );
  assert.ok(top >= -5 && top < 700, `the figure is on screen (top ${top})`);
  await again.page.close();
});

test("URL state: a slider dragged is written to the URL once the reader pauses, not at each step, and at once when the page is hidden", async () => {
  const { page, errors } = await openReader(browser.context);
  // Each write (history.replaceState) costs the main thread 1 to 7 ms in Chromium: counted here.
  await page.evaluate(() => {
    window.__writes = [];
    const replace = History.prototype.replaceState;
    History.prototype.replaceState = function (...args) {
      window.__writes.push(String(args[2]));
      return replace.apply(this, args);
    };
  });
  // Thirty steps of the α slider, one every 40 ms, as a drag sends them.
  const during = await page.evaluate(async () => {
    const input = document.getElementById("speculative-figure").shadowRoot.querySelector('input[type="range"]');
    for (let i = 0; i < 30; i += 1) {
      input.value = String(Number(input.min) + ((i + 1) * (Number(input.max) - Number(input.min))) / 40);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      await new Promise((r) => setTimeout(r, 40));
    }
    return window.__writes.length;
  });
  assert.equal(during, 0, "nothing is written while the slider moves");
  await page.waitForFunction(() => window.__writes.length > 0);
  await page.waitForTimeout(400);
  const writes = await page.evaluate(() => window.__writes);
  assert.equal(writes.length, 1, `one write after the pause: ${writes.join(" ")}`);
  assert.match(writes[0], /speculative\.alpha=/);
  // A change just before the page is hidden (another tab, closing it) is written at once.
  await page.evaluate(() => {
    document.getElementById("speculative-figure").set({ gamma: 7 }, { sync: true });
    window.dispatchEvent(new PageTransitionEvent("pagehide"));
  });
  assert.match(await page.evaluate(() => location.hash), /speculative\.gamma=7/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("URL state: unknown and out-of-range values fall back to defaults with a visible note", async () => {
  const { page, errors } = await openReader(browser.context, {
    hash: "#sampling?sampling.temperature=99&sampling.colour=red&sampling.preset=__proto__&nosuch.x=1",
  });
  const notes = await page.locator("#sampling-figure .llm-notes").textContent();
  assert.match(notes, /temperature="99" ignored/);
  assert.match(notes, /colour is not a setting/);
  assert.match(notes, /preset="__proto__" ignored/);
  assert.equal(await page.evaluate(() => document.getElementById("sampling-figure").state.temperature), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("URL state: a link with a former name (attention.tokens) still sets the labels, labels wins over it, and the URL and Copy link write labels", async () => {
  const { page, errors } = await openReader(browser.context, { hash: "#attention-figure?attention.tokens=A|B|C" });
  const el = "#attention-figure";
  assert.deepEqual(await page.evaluate((el) => document.querySelector(el).state.labels, el), ["A", "B", "C"]);
  assert.equal(await page.locator(`${el} .llm-notes`).isVisible(), false, "no note: tokens is a setting");
  // Once the page has drawn, its address carries the new name only.
  await page.waitForFunction(() => location.hash.includes("attention.labels=A%7CB%7CC"));
  assert.doesNotMatch(await page.evaluate(() => location.hash), /attention\.tokens/);
  const fig = page.locator(el);
  await fig.getByRole("button", { name: "Copy link" }).click();
  await fig.locator(".llm-panel-head strong", { hasText: /^Link/ }).waitFor();
  assert.match(
    await fig.locator(".llm-panel textarea").inputValue(),
    /#attention-figure\?attention\.labels=A%7CB%7CC$/,
  );
  await page.close();

  // Both names in one link, in either order: labels wins.
  for (const query of ["attention.tokens=old&attention.labels=x|y|z", "attention.labels=x|y|z&attention.tokens=old"]) {
    const { page } = await openReader(browser.context, { hash: `#attention-figure?${query}` });
    assert.deepEqual(
      await page.evaluate(() => document.getElementById("attention-figure").state.labels),
      ["x", "y", "z"],
      query,
    );
    await page.close();
  }
  assert.deepEqual(errors, []);
});

test("URL state: a link with a figure's former name (dilution.…) still sets it, its name wins, and the URL, Copy link and Copy embed code write context-dilution", async () => {
  const { page, errors } = await openReader(browser.context, { hash: "#dilution-figure?dilution.distractors=100" });
  const state = () => page.evaluate(() => document.getElementById("dilution-figure").state);
  assert.equal((await state()).distractors, 100);
  const fig = page.locator("#dilution-figure");
  assert.equal(await fig.locator(".llm-notes").isVisible(), false);
  await page.waitForFunction(() => location.hash.includes("context-dilution.distractors=100"));
  assert.doesNotMatch(await page.evaluate(() => location.hash), /[?&]dilution\./);
  await fig.getByRole("button", { name: "Copy link" }).click();
  await fig.locator(".llm-panel-head strong", { hasText: /^Link/ }).waitFor();
  assert.match(
    await fig.locator(".llm-panel textarea").inputValue(),
    /#dilution-figure\?context-dilution\.distractors=100$/,
  );
  await fig.getByRole("button", { name: "Copy embed code" }).click();
  await fig.locator(".llm-panel-head strong", { hasText: /^Embed code/ }).waitFor();
  assert.match(
    await fig.getByRole("textbox", { name: "Frame" }).inputValue(),
    /embed\.html\?widget=context-dilution&amp;/,
  );
  await page.close();

  // Both names in one link, in either order: context-dilution wins.
  for (const query of [
    "dilution.distractors=5&context-dilution.distractors=7",
    "context-dilution.distractors=7&dilution.distractors=5",
  ]) {
    const { page } = await openReader(browser.context, { hash: `#dilution-figure?${query}` });
    assert.equal(await page.evaluate(() => document.getElementById("dilution-figure").state.distractors), 7, query);
    await page.close();
  }
  assert.deepEqual(errors, []);
});

test("Copy link, Copy embed code and Reset act on the figure as it is now", async () => {
  const { page } = await openReader(browser.context);
  await showNumbers(page); // the figure's readouts, not held back by its exercise
  const fig = page.locator("#speculative-figure");
  await page.evaluate(() => document.getElementById("speculative-figure").set({ alpha: 0.8 }, { sync: true }));
  // Each action writes its panel once the clipboard has answered (a promise): wait for its label.
  await fig.getByRole("button", { name: "Copy link" }).click();
  await fig.locator(".llm-panel-head strong", { hasText: /^Link/ }).waitFor();
  const link = await fig.locator(".llm-panel textarea").inputValue();
  assert.match(link, /reader\.html#speculative-figure\?speculative\.alpha=0\.8$/);
  await fig.getByRole("button", { name: "Copy embed code" }).click();
  await fig.locator(".llm-panel-head strong", { hasText: /^Embed code/ }).waitFor();
  const frame = await fig.getByRole("textbox", { name: "Frame" }).inputValue();
  const script = await fig.getByRole("textbox", { name: "Script" }).inputValue();
  const { figures } = require("./registry.js");
  // Two forms, each to paste alone: only what differs from the figure's defaults is written (α),
  // with relative addresses, the figure's own title and its declared height, and no inline style.
  assert.equal(
    frame,
    `<iframe src="embed.html?widget=speculative&amp;alpha=0.8" title="${figures.speculative.title}" sandbox="allow-scripts allow-downloads" width="100%" height="${figures.speculative.frameHeight.full[800]}" loading="lazy"></iframe>
<!-- once per page, so that each frame takes the height its figure needs: -->
<script src="llmmath-frame.js"></script>`,
  );
  assert.equal(
    script,
    `<!-- once per page: -->
<script src="llmmath-widgets.js"></script>
<llm-speculative alpha="0.8"></llm-speculative>`,
  );
  // Each form's button copies that form alone (the clipboard recorded: a headless page's is refused).
  await page.evaluate(() => {
    window.__copied = [];
    navigator.clipboard.writeText = async (text) => void window.__copied.push(text);
  });
  await fig.getByRole("button", { name: "Copy script" }).click();
  await fig.locator(".llm-copied", { hasText: "Copied." }).waitFor();
  assert.deepEqual(await page.evaluate(() => window.__copied), [script]);

  // A figure pinned to a scheme: its code carries the scheme (a view attribute, not a setting).
  await page.evaluate(() => document.getElementById("speculative-figure").setAttribute("scheme", "dark"));
  await fig.getByRole("button", { name: "Copy embed code" }).click();
  assert.match(
    await fig.getByRole("textbox", { name: "Frame" }).inputValue(),
    /embed\.html\?widget=speculative&amp;alpha=0\.8&amp;scheme=dark"/,
  );
  assert.match(
    await fig.getByRole("textbox", { name: "Script" }).inputValue(),
    /<llm-speculative alpha="0\.8" scheme="dark"><\/llm-speculative>/,
  );
  await page.evaluate(() => document.getElementById("speculative-figure").removeAttribute("scheme"));
  await fig.getByRole("button", { name: "Reset" }).click();
  assert.equal(await page.evaluate(() => document.getElementById("speculative-figure").state.alpha), 0.5);
  await page.waitForFunction(() => !location.hash.includes("speculative."));
  await page.close();
});

test("payloads in the URL fragment never run or appear as elements", async () => {
  const payload = encodeURIComponent('<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>');
  const hash = `#${payload}?sampling.labels=${payload}|b&sampling.prompt=${payload}&attention.labels=${payload}&moe.tokens=${payload}&diagnose.picks=${payload}&${payload}.x=${payload}`;
  const { page, errors } = await openReader(browser.context, { hash });
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  const count = await page.evaluate(() => {
    let n = 0;
    const walk = (root) => {
      n += root.querySelectorAll("img, iframe, object, embed").length;
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    return n;
  });
  assert.equal(count, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("'Save page as' keeps one copy of every widget: the live page serialised and reopened", async () => {
  const { page } = await openReader(browser.context);
  const count = () => ({
    frames: [...document.querySelectorAll("*")]
      .filter((el) => el.shadowRoot)
      .map((el) => el.shadowRoot.querySelectorAll(".llm-frame").length),
    answers: [...document.querySelectorAll("[for]")]
      .filter((el) => el.localName.startsWith("llm-answer"))
      .map((el) => el.childElementCount),
  });
  const before = await page.evaluate(count);
  const html = await page.evaluate(() => `<!doctype html>\n${document.documentElement.outerHTML}`);
  await page.close();
  assert.ok(before.frames.every((n) => n === 1));
  // The widgets' script is added to <head> once the first screen is shown (first-screen.js), so
  // the copy has it there, and reader-head.js's element marked started (no second copy is
  // added). Run where it stands, it defines the elements before the parser reaches them (each
  // then connects before its saved drawing is read into it); deferred, after (each is upgraded
  // with its saved drawing inside): each order is made certain once.
  // What claims to be drawn, and is not, once the copy is read: the copy carries the page's
  // signals and the widgets' data-ready from the live page. A claim that is true by then (the
  // first screen's figures may have drawn before the parser is done) is no fault.
  await browser.context.addInitScript(() => {
    if (!location.pathname.endsWith("/saved-copy.html")) return;
    document.addEventListener("DOMContentLoaded", () => {
      const drawn = (el) => Boolean(el.result || el.expected);
      const widgets = [...document.body.querySelectorAll("*")].filter((el) => el.localName.startsWith("llm-"));
      const onScreen = widgets.filter((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      });
      const root = document.documentElement;
      window.falseClaims = {
        page: [
          root.hasAttribute("data-ready") && !widgets.every(drawn) ? "data-ready" : null,
          root.hasAttribute("data-first-screen") && !onScreen.every(drawn) ? "data-first-screen" : null,
        ].filter(Boolean),
        widgets: widgets.filter((el) => el.hasAttribute("data-ready") && !drawn(el)).map((el) => el.localName),
      };
    });
  });
  const widgets = asset("llmmath-widgets.js");
  const tag = `<script src="${widgets}"></script>`;
  assert.equal(html.split(tag).length, 2, "the saved copy loads the widgets' script, once");
  assert.match(html, /<script src="assets\/reader-head\.[0-9a-f]{10}\.js" [^>]*data-widgets="[^"]+" data-started="">/);
  assert.match(html, /<html [^>]*data-ready/, "the live page was saved with its signals");
  for (const mode of ["", " defer"]) {
    const saved = path.join(dist, "saved-copy.html");
    fs.writeFileSync(saved, html.replace(tag, `<script src="${widgets}"${mode}></script>`));
    try {
      const { page: reopened, errors } = await openReader(browser.context, { file: "saved-copy.html" });
      const order = `the widgets' script${mode || " run where it stands"}`;
      assert.deepEqual(await reopened.evaluate(count), before, order);
      assert.deepEqual(await reopened.evaluate(() => window.falseClaims), { page: [], widgets: [] }, order);
      assert.deepEqual(errors, []);
      await reopened.close();
    } finally {
      fs.rmSync(saved, { force: true });
    }
  }
});

test("a saved copy of a figure's frame page (embed.html) shows the figure once", async () => {
  const { page } = await openFigure(browser.context, "sampling");
  const html = await page.evaluate(() => `<!doctype html>\n${document.documentElement.outerHTML}`);
  await page.close();
  assert.match(html, /<llm-sampling /, "the live figure was saved");
  const saved = path.join(dist, "saved-embed.html");
  fs.writeFileSync(saved, html);
  try {
    const { page: reopened, errors } = await openReader(browser.context, {
      file: "saved-embed.html",
      hash: "?widget=sampling",
    });
    await reopened.waitForSelector("llm-sampling[data-ready]");
    assert.equal(await reopened.locator("#embed > figure").count(), 1);
    assert.equal(await reopened.locator("llm-sampling").count(), 1);
    assert.equal(await reopened.locator("figcaption").count(), 1);
    assert.deepEqual(errors, []);
    await reopened.close();
  } finally {
    fs.rmSync(saved, { force: true });
  }
});

test("the one-file edition reaches data-ready from file:// offline and requests nothing but itself", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-usb-"));
  const file = path.join(dir, "attention-and-transformers.html");
  fs.copyFileSync(path.join(dist, "reader-standalone.html"), file);
  await browser.context.setOffline(true);
  const page = await browser.context.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await drawAll(page);
    await page.waitForSelector("html[data-ready]", { timeout: 20000 });
    assert.deepEqual(requests, [url]);
    assert.deepEqual(errors, []);
    assert.equal(await page.locator("llm-sampling[data-ready]").count(), 2);
  } finally {
    await page.close();
    await browser.context.setOffline(false);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("with scripts off, every page says what needs them, and the chapter gives the nine answers (exercises 1 to 8 and 4b) each under its exercise, closed", async () => {
  const b = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const context = await b.newContext({ javaScriptEnabled: false });
    for (const file of ["reader.html", "embed.html", "embed-guide.html", "reader-standalone.html"]) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(path.join(dist, file)).href);
      const note = page.locator(".noscript");
      assert.ok(await note.isVisible(), file);
      const said = await note.textContent();
      assert.match(said, /needs JavaScript/, file);
      const answers = await page.evaluate(() =>
        [...document.querySelectorAll("details.noscript-answer")].map((d) => ({
          exercise: d.closest(".exercise")?.querySelector("h3")?.textContent,
          open: d.open,
          summary: d.querySelector("summary")?.textContent,
          answer: d.querySelector("p")?.textContent ?? "",
          shown: /** @type {HTMLElement} */ (d.querySelector("p")).checkVisibility(),
        })),
      );
      if (file.startsWith("reader")) {
        assert.deepEqual(
          answers.map((a) => [a.exercise, a.open, a.summary, a.shown]),
          ["1", "2", "3", "4", "4b", "5", "6", "7", "8"].map((n) => [`Exercise ${n}`, false, "Show the answer", false]),
          file,
        );
        // the note states none of them: no digit at all
        assert.doesNotMatch(said, /\d/, `${file}: the note for readers without scripts`);
        for (const a of answers) assert.match(a.answer, /\d/, `${file}: ${a.exercise}'s answer`);
      } else assert.deepEqual(answers, [], file);
      if (file === "reader.html") await page.screenshot({ path: artifact("reader-noscript.png") });
      await page.close();
    }
  } finally {
    await b.close();
  }
});
