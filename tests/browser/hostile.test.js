// Hostile attribute values on every widget: prototype-named and unknown presets, out-of-range
// numbers and indices, markup, empty and huge strings, and answers pointed at the wrong figure.
// Each widget must end with a message (a note naming the attribute, or its error line), settle
// `ready`, draw nothing it was not asked to, and leave the page working.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, dist } = require("./browser.js");

const browser = useBrowser(test);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-hostile-"));
fs.copyFileSync(path.join(dist, "llmmath-widgets.js"), path.join(dir, "llmmath-widgets.js"));
fs.writeFileSync(
  path.join(dir, "blank.html"),
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">
<title>blank</title></head><body><script src="llmmath-widgets.js"></script></body></html>`,
);
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const PAYLOADS = [
  "constructor",
  "__proto__",
  "toString",
  "-1",
  "1e309",
  "99999999",
  "2.5e-400",
  "NaN",
  "",
  '<img src=x onerror="window.__pwned=1">',
  "x".repeat(5000),
  "1,2;3",
  "0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0",
];

test("every widget given a hostile value in every attribute ends with a message and settles ready", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(pathToFileURL(path.join(dir, "blank.html")).href);
  const outcomes = await page.evaluate(async (payloads) => {
    const results = [];
    const figureTags = globalThis.LLMMathWidgets.tags.filter((t) => !t.startsWith("llm-answer-"));
    for (const tag of figureTags) {
      const cls = customElements.get(tag);
      for (const p of payloads) {
        const el = document.createElement(tag);
        for (const d of cls.attributes) el.setAttribute(d.name, p);
        document.body.append(el);
        const settled = await Promise.race([
          el.ready.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 8000)),
        ]);
        const root = el.shadowRoot;
        const notes = root.querySelector(".llm-notes")?.textContent ?? "";
        const status = root.querySelector(".llm-status")?.textContent ?? "";
        // Every attribute whose value did not become the state is named in a note.
        const camel = (n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
        const refused = cls.attributes
          .filter((d) => {
            // The value was taken when the state holds what the string says.
            const v = el.state[camel(d.name)];
            const read =
              {
                number: Number,
                integer: Number,
                boolean: (x) => x === "true" || x === "",
                labels: (x) => x.split("|"),
                numbers: (x) => x.split(",").map(Number),
                matrix: (x) => x.split(";").map((r) => r.split(",").map(Number)),
              }[d.type] ?? ((x) => x);
            // (An empty list of labels may be kept as no labels at all.)
            const taken =
              JSON.stringify(read(p)) === JSON.stringify(v) || (d.type === "labels" && p === "" && v.length === 0);
            return !taken;
          })
          .map((d) => d.name);
        // Named as the attribute ("temperature=…") or, for a value the widget fitted, by its word.
        const unnamed = refused.filter((name) => !new RegExp(`(^|[^a-z-])${name}([^a-z-]|$)`, "i").test(notes));
        results.push({
          tag,
          p: p.slice(0, 20),
          settled,
          message: refused.length === 0 || notes !== "" || status !== "",
          unnamed,
          drawn: root.querySelectorAll("img, script, iframe").length,
        });
        el.remove();
      }
    }
    return results;
  }, PAYLOADS);
  for (const o of outcomes) {
    assert.ok(o.settled, `${o.tag} with ${o.p}: ready settled`);
    assert.ok(o.message, `${o.tag} with ${o.p}: a refused value gets a message`);
    assert.deepEqual(o.unnamed, [], `${o.tag} with ${o.p}: refused attributes are named`);
    assert.equal(o.drawn, 0, `${o.tag} with ${o.p}: no element from the value`);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(errors, []);
  await page.close();
});

test("an answer pointed at a missing figure or another kind of figure says so and settles ready", async () => {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(path.join(dir, "blank.html")).href);
  const outcomes = await page.evaluate(async () => {
    const fig = document.createElement("llm-attention");
    fig.id = "a-figure";
    document.body.append(fig);
    await fig.ready;
    const results = [];
    for (const tag of globalThis.LLMMathWidgets.tags.filter((t) => t.startsWith("llm-answer-"))) {
      for (const target of ["nowhere", "a-figure", "__proto__", ""]) {
        if (tag === "llm-answer-attention" && target === "a-figure") continue;
        const el = document.createElement(tag);
        el.setAttribute("for", target);
        document.body.append(el);
        const settled = await Promise.race([
          el.ready.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 5000)),
        ]);
        results.push({ tag, target, settled, text: el.textContent });
        el.remove();
      }
    }
    return results;
  });
  assert.ok(outcomes.length >= 24);
  for (const o of outcomes) {
    assert.ok(o.settled, `${o.tag} for=${o.target}: ready settled`);
    assert.match(o.text, /belongs to/, `${o.tag} for=${o.target}: says which figure it needs`);
  }
  await page.close();
});
