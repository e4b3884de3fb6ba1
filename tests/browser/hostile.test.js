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
const { useBrowser, asset, dist, openFigure, openReader, artifact } = require("./browser.js");
const { figures } = require("./registry.js");

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

// The figures' elements, from the registry; an exercise's element is its figure's with "answer-"
// (the page says which exist: the script embed adds no list of its own to the page).
const FIGURE_TAGS = Object.values(figures).map((f) => f.tag);
const ANSWER_TAGS = FIGURE_TAGS.map((t) => t.replace(/^llm-/, "llm-answer-"));

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
  const outcomes = await page.evaluate(
    async ({ payloads, figureTags }) => {
      const results = [];
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
          // A first computation the core refused sets every setting aside, and says so once.
          const setAside = /Not drawn: .* instead\./.test(notes);
          const unnamed = refused.filter(
            (name) => !setAside && !new RegExp(`(^|[^a-z-])${name}([^a-z-]|$)`, "i").test(notes),
          );
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
    },
    { payloads: PAYLOADS, figureTags: FIGURE_TAGS },
  );
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
  const outcomes = await page.evaluate(async (answerTags) => {
    const fig = document.createElement("llm-attention");
    fig.id = "a-figure";
    document.body.append(fig);
    await fig.ready;
    const results = [];
    for (const tag of answerTags.filter((t) => customElements.get(t))) {
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
  }, ANSWER_TAGS);
  assert.ok(outcomes.length >= 24);
  for (const o of outcomes) {
    assert.ok(o.settled, `${o.tag} for=${o.target}: ready settled`);
    assert.match(o.text, /belongs to/, `${o.tag} for=${o.target}: says which figure it needs`);
  }
  await page.close();
});

// Every declared range is one the core accepts: each numeric attribute alone, the others at
// their defaults, at each bound it declares (every entry of a list at it) draws without an error,
// and just outside the range is refused with a note naming it. An exclusive bound (minExclusive,
// maxExclusive) is one the core itself refuses: set past the parser, it makes the figure fail.
test("every numeric attribute's declared bounds are accepted by the core, and just outside them is refused", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(pathToFileURL(path.join(dir, "blank.html")).href);
  const outcomes = await page.evaluate(async (figureTags) => {
    const results = [];
    const camel = (n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const make = async (tag, name, value, others = []) => {
      const el = document.createElement(tag);
      for (const [n, v] of others) el.setAttribute(n, v);
      if (name !== null) el.setAttribute(name, value);
      document.body.append(el);
      await el.ready;
      return el;
    };
    const seen = (el) => ({
      failed: el.failed,
      status: el.shadowRoot.querySelector(".llm-status")?.textContent ?? "",
      notes: el.shadowRoot.querySelector(".llm-notes")?.textContent ?? "",
    });
    for (const tag of figureTags) {
      const cls = customElements.get(tag);
      const plain = await make(tag, null);
      const start = plain.state;
      plain.remove();
      for (const d of cls.attributes) {
        if (!["number", "integer", "numbers"].includes(d.type)) continue;
        // A list is tried at the length the figure starts with (two at least), every entry at the bound, then with one entry
        // at the list's other bound, then with all but the first there (the core may check a
        // list whole: probabilities sum to 1).
        const length = Math.max(start[camel(d.name)].length ?? 1, d.minLength ?? 1, 2);
        const lists = (x, other) =>
          other === undefined
            ? [Array(length).fill(x)]
            : [
                Array(length).fill(x),
                Array.from({ length }, (_, i) => (i === 1 ? other : x)),
                Array.from({ length }, (_, i) => (i === 0 ? x : other)),
              ];
        const writings = (x, other) => (d.type === "numbers" ? lists(x, other).map((l) => l.join(",")) : [String(x)]);
        // A step past a bound: one for whole numbers, a billionth of its size (or of 1) otherwise.
        const step = (b) => (d.type === "integer" ? 1 : Math.max(Math.abs(b), 1) * 1e-9);
        const low = d.min ?? (d.minExclusive === undefined ? undefined : d.minExclusive + step(d.minExclusive));
        const high = d.max ?? (d.maxExclusive === undefined ? undefined : d.maxExclusive - step(d.maxExclusive));
        const cases = [];
        if (d.min !== undefined) cases.push({ at: d.min, out: d.min - step(d.min), other: high });
        if (d.max !== undefined) cases.push({ at: d.max, out: d.max + step(d.max), other: low });
        if (d.minExclusive !== undefined) cases.push({ at: low, out: d.minExclusive, other: high, exclusive: true });
        if (d.maxExclusive !== undefined) cases.push({ at: high, out: d.maxExclusive, other: low, exclusive: true });
        // A bound may hold only with another setting near its own (kv-heads up to heads), and a
        // bound may be safe alone but not with the others at theirs (q and k both at 10^150):
        // each writing is tried with the other settings at their defaults, then with every other
        // number and list at its bound on the same side. Some try must be drawn, and with the
        // others at their bounds the core must not refuse this one by name.
        const side = (upper) =>
          cls.attributes
            .filter((o) => o !== d && ["number", "integer", "numbers"].includes(o.type))
            .map((o) => [o, upper ? o.max : o.min])
            .filter(([, v]) => v !== undefined)
            .map(([o, v]) => [
              o.name,
              o.type === "numbers"
                ? Array(Math.max(start[camel(o.name)].length, o.minLength ?? 1, 2))
                    .fill(v)
                    .join(",")
                : String(v),
            ]);
        const names = (t) => new RegExp(`(Not drawn|Not updated): ${camel(d.name)}\\b`).test(t.notes + t.status);
        for (const c of cases) {
          const upper = c.at === d.max || c.at === high;
          const tries = [];
          let inside = null;
          for (const w of writings(c.at, c.other)) {
            for (const others of [[], side(upper)]) {
              inside?.remove();
              inside = await make(tag, d.name, w, others);
              tries.push({
                ...seen(inside),
                beside: others.length > 0,
                written: w + (others.length ? ` with ${others.map((o) => o.join("=")).join(" ")}` : ""),
              });
            }
          }
          // A first computation the core refuses is drawn from the defaults, with a note naming
          // the parameter the core refused: one try must draw without such a note.
          const at = tries.find((t) => !t.failed && !/Not drawn/.test(t.notes)) ?? tries[0];
          const beside = tries.filter((t) => t.beside && t.written.includes(" with "));
          const besideRefused = beside.length && beside.every(names) ? beside[0] : null;
          let core = null;
          if (c.exclusive) {
            // The bound itself, given to the core past the parser.
            const value = d.type === "numbers" ? inside.state[camel(d.name)].map(() => c.out) : c.out;
            inside.set({ [camel(d.name)]: value });
            core = seen(inside);
          }
          inside.remove();
          const outside = await make(tag, d.name, writings(c.out)[0]);
          results.push({ tag, name: d.name, bound: c, at, besideRefused, core, out: seen(outside) });
          outside.remove();
        }
      }
    }
    return results;
  }, FIGURE_TAGS);
  // Every figure with numeric settings has some: the check is over many cases, not none.
  assert.ok(outcomes.length >= 40, `only ${outcomes.length} bounds tried`);
  for (const o of outcomes) {
    const what = `${o.tag} ${o.name}="${o.at.written.slice(0, 60)}"`;
    assert.equal(o.at.failed, false, `${what}: the core refused the declared range (${o.at.status})`);
    assert.equal(o.at.status, "", `${what}: ${o.at.status}`);
    assert.doesNotMatch(o.at.notes, /Not drawn/, `${what}: the core refused the declared range (${o.at.notes})`);
    assert.equal(
      o.besideRefused,
      null,
      `${o.tag} ${o.name}="${o.besideRefused?.written.slice(0, 200)}": the core refused the bound beside the others' (${o.besideRefused?.notes})`,
    );
    assert.doesNotMatch(o.at.notes, new RegExp(`${o.name}="[^"]*" ignored`), `${what}: ${o.at.notes}`);
    assert.match(o.out.notes, new RegExp(`${o.name}="[^"]*" ignored`), `${o.tag} ${o.name} at ${o.bound.out}: refused`);
    if (o.core) assert.equal(o.core.failed, true, `${o.tag} ${o.name} at ${o.bound.out}: the core refuses the bound`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// A figure has no last good drawing before its first: a first computation the core refuses
// (inputs each in range whose whole the core refuses) draws the defaults instead, and says so.
test("a first computation the core refuses draws the defaults with a note saying what was not drawn", async () => {
  for (const [widget, query, refused] of [
    ["sampling", "probs=0,0,0,0,0,0", /Not drawn: probs must be an array summing to 1/],
    ["attention", "q=1e308,1e308;1e308,1e308&k=1e308,1e308;1e308,1e308", /Not drawn: .*finite/],
    ["cost", "heads=4&kv-heads=8", /Not drawn: kvHeads must be/],
  ]) {
    const { page, errors } = await openFigure(browser.context, widget, {}).then(async (opened) => {
      await opened.page.goto(`${opened.url}&${query}`);
      await opened.page.waitForSelector("html[data-ready]");
      return opened;
    });
    const seen = await page.evaluate(() => {
      const el = document.querySelector("[data-figure]");
      const root = el.shadowRoot;
      return {
        failed: el.failed,
        notes: root.querySelector(".llm-notes").textContent,
        status: root.querySelector(".llm-status").textContent,
        drawn: root.querySelectorAll("svg, table, .chart-box *").length,
        result: el.result !== null,
      };
    });
    assert.match(seen.notes, refused, `${widget}?${query}: ${seen.notes}`);
    assert.match(seen.notes, /the figure shows (the defaults|the figure's own settings) instead/);
    assert.equal(seen.failed, false, `${widget}?${query}: ${seen.status}`);
    assert.ok(seen.result && seen.drawn > 0, `${widget}?${query}: the figure drew its defaults`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// The anchor is the reader's own link, and may be anything: a % escape that does not decode
// must leave the page working, its figures restored from what does decode, and say so.
test("a malformed % escape in the anchor is ignored with a note, and the page works", async () => {
  for (const hash of ["#%E0%A4?sampling.temperature=0.5", "#%", "#sampling?sampling.temperature=0.5&sampling.%E0=1"]) {
    const { page, errors } = await openReader(browser.context, { hash });
    const seen = await page.evaluate(() => {
      const el = document.getElementById("sampling-figure");
      return {
        takeaway: [...document.querySelectorAll("[data-figure]")].filter((f) =>
          f.shadowRoot.querySelector(".llm-copy-link"),
        ).length,
        temperature: el.state.temperature,
        notes: [...document.querySelectorAll("[data-figure]")]
          .map((f) => f.shadowRoot.querySelector(".llm-notes")?.textContent ?? "")
          .join(" "),
        pageNote: document.querySelector(".fragment-note")?.textContent ?? "",
      };
    });
    assert.ok(seen.takeaway >= 6, `${hash}: ${seen.takeaway} Copy link buttons`);
    if (hash.includes("temperature")) assert.equal(seen.temperature, 0.5, `${hash}: the settings were restored`);
    assert.match(seen.pageNote + seen.notes, /could not be read|ignored/, `${hash}: a note says so`);
    // A later change of the anchor is read again without an error.
    await page.evaluate(() => (location.hash = "#%E0%A4"));
    await page.waitForTimeout(100);
    assert.deepEqual(errors, [], hash);
    await page.close();
  }
});

// What a link names is echoed in a note cut short: a name of 10^5 characters, eight unknown
// names and a value of 10^5 characters make a note of a few lines, here and in embed.html.
test("text from a link is echoed capped: 40 characters a name or value, five unknown names", async () => {
  const long = "k".repeat(100000);
  const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"].map((n) => `sampling.${n}=1`).join("&");
  const { page, errors } = await openReader(browser.context, {
    hash: `#sampling?sampling.${long}=1&${names}&sampling.temperature=${"9".repeat(100000)}`,
  });
  const notes = await page.evaluate(
    () => document.getElementById("sampling-figure").shadowRoot.querySelector(".llm-notes").textContent,
  );
  assert.match(notes, /k{40}…, a1, a2, a3, a4 and 3 more are not settings of this figure/);
  assert.match(notes, /temperature="9{40}…" ignored/);
  assert.ok(notes.length < 400, `the note is ${notes.length} characters long`);
  await page.close();
  const embed = await openFigure(browser.context, "sampling");
  await embed.page.goto(`${embed.url}&${long}=1&${names.replace(/sampling\./g, "")}`);
  await embed.page.waitForSelector("html[data-ready]");
  const said = await embed.page.locator("#embed-message").textContent();
  assert.match(said, /ignored: k{40}…, a1, a2, a3, a4 and 3 more\./);
  assert.deepEqual([...errors, ...embed.errors], []);
  await embed.page.close();
});

// Two ways into a figure that bypass the parser: a method called past the last scenario, and a
// field the reader empties (NaN), which must reach the core, not read as 0.
test("the diagnosis figure keeps its scenario in range, and cost's emptied width is named by the core", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(pathToFileURL(path.join(dir, "blank.html")).href);
  const seen = await page.evaluate(async () => {
    const diagnose = document.createElement("llm-diagnose");
    const last = diagnose.constructor.attributes.find((d) => d.name === "scenario").max;
    diagnose.setAttribute("scenario", String(last));
    document.body.append(diagnose);
    await diagnose.ready;
    diagnose.next();
    const afterNext = { scenario: diagnose.state.scenario, failed: diagnose.failed };
    diagnose.set({ scenario: last + 1 });
    const afterSet = { scenario: diagnose.state.scenario, failed: diagnose.failed };
    diagnose.remove();

    const cost = document.createElement("llm-cost");
    document.body.append(cost);
    await cost.ready;
    const before = JSON.stringify(cost.result.now);
    const field = cost.fields.hiddenSize;
    field.value = "";
    field.dispatchEvent(new Event("input"));
    return {
      last,
      afterNext,
      afterSet,
      cost: {
        failed: cost.failed,
        status: cost.shadowRoot.querySelector(".llm-status").textContent,
        kept: JSON.stringify(cost.result.now) === before,
        invalid: field.getAttribute("aria-invalid"),
      },
    };
  });
  assert.deepEqual(seen.afterNext, { scenario: seen.last, failed: false }, "next() after the last scenario");
  assert.deepEqual(seen.afterSet, { scenario: seen.last, failed: false }, "a scenario past the last");
  assert.equal(seen.cost.failed, true, "an emptied model width (hidden) is refused");
  assert.match(seen.cost.status, /^Not updated: hidden /, seen.cost.status);
  assert.ok(seen.cost.kept, "the figure keeps its last drawing");
  assert.equal(seen.cost.invalid, "true");
  assert.deepEqual(errors, []);
  await page.close();
});

// A value from a link or from the core's doubles is shown in its field without float noise:
// 15 significant digits (format.js fieldValue), the state keeping the exact value.
test("number fields show a value without float noise, to 15 significant digits", async () => {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(path.join(dir, "blank.html")).href);
  const noise = "0.30000000000000004";
  const seen = await page.evaluate(async (noise) => {
    const shownIn = async (tag, attrs, selector) => {
      const el = document.createElement(tag);
      for (const [n, v] of Object.entries(attrs)) el.setAttribute(n, v);
      document.body.append(el);
      await el.ready;
      const values = [...el.shadowRoot.querySelectorAll(selector)].map((i) => i.value);
      el.remove();
      return values;
    };
    return {
      rope: await shownIn("llm-rope", { freqs: `${noise},0.0010000000000000002` }, ".rope-freqs input"),
      sampling: await shownIn("llm-sampling", { logits: `${noise},1,2` }, "input[aria-label^='Logit of token']"),
      attention: await shownIn(
        "llm-attention",
        { preset: "exercise", q: `${noise},0;0,1;1,1`, k: "1,0;0,1;1,1", v: "1,0;0,1;1,1", labels: "a|b|c" },
        ".matrix-editor input",
      ),
    };
  }, noise);
  assert.deepEqual(seen.rope, ["0.3", "0.001"]);
  assert.equal(seen.sampling[0], "0.3");
  assert.equal(seen.attention[0], "0.3");
  assert.ok(![...seen.rope, ...seen.sampling, ...seen.attention].some((v) => v.includes("0000000")));
  await page.close();
});

// The reader saved without its scripts (HTML only): its figures' elements are never defined.
// Where each would be the copy says, in words, that it needs the page's scripts and where the
// whole page is; the live page, whose figures are defined, never shows those words.
test("a copy of the reader saved without its scripts says where each figure would be that it needs them", async () => {
  const saved = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-saved-"));
  try {
    const html = fs
      .readFileSync(path.join(dist, "reader.html"), "utf8")
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    assert.doesNotMatch(html, /<script/);
    fs.writeFileSync(path.join(saved, "reader.html"), html);
    fs.mkdirSync(path.join(saved, "assets"));
    for (const f of ["reader.css", "chapter-math.woff2"].map(asset))
      fs.copyFileSync(path.join(dist, f), path.join(saved, f));
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(path.join(saved, "reader.html")).href);
    const notes = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("figure > *")]
          .filter((el) => el.localName.startsWith("llm-"))
          .map((el) => {
            const before = getComputedStyle(el, "::before");
            return { tag: el.localName, content: before.content, visible: before.visibility === "visible" };
          }),
      );
    const early = await notes();
    assert.ok(early.length >= 10, `${early.length} figures in the saved copy`);
    assert.ok(
      early.every((n) => n.content === "none" || !n.visible),
      "the words wait while the scripts might still define the figures",
    );
    // The words come after 4 s (an animation's delay) on the screen: each figure is brought into
    // view (a section off the screen is not rendered, and its animations wait) and its words waited
    // for, not timed, since a loaded machine may take longer.
    for (const figure of await page.locator("figure > :not(:defined)").all()) {
      await figure.scrollIntoViewIfNeeded();
      const tag = await figure.evaluate((el) => el.localName);
      await page
        .waitForFunction(
          (el) => getComputedStyle(el, "::before").visibility === "visible",
          await figure.elementHandle(),
          {
            timeout: 60000,
          },
        )
        .catch((e) => assert.fail(`${tag}: its words were not shown within 60 s in view (${e.message})`));
    }
    for (const n of await notes()) {
      assert.match(n.content, /needs|scripts, which this copy of the page does not have/, n.tag);
      assert.match(n.content, /reader-standalone\.html/, n.tag);
      assert.ok(n.visible, `${n.tag}: the words are shown`);
    }
    await page.locator("#attention figure").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact("saved-copy.png") });
    assert.deepEqual(errors, []);
    await page.close();

    const { page: live } = await openReader(browser.context);
    await live.waitForTimeout(4500);
    const shown = await live.evaluate(() =>
      [...document.querySelectorAll("[data-figure]")]
        .filter((el) => getComputedStyle(el, "::before").content !== "none")
        .map((el) => el.id),
    );
    assert.deepEqual(shown, [], "the live page's figures show no such words");
    await live.close();
  } finally {
    fs.rmSync(saved, { recursive: true, force: true });
  }
});

test("a host script changing attributes 1,000 times in a loop costs one computation and drawing, of the last values", async () => {
  const { page, errors } = await openFigure(browser.context, "sampling");
  const counts = await page.evaluate(async () => {
    const el = document.querySelector("llm-sampling");
    let renders = 0;
    el.addEventListener("llm-change", () => renders++);
    const compute = el.compute.bind(el);
    let computes = 0;
    el.compute = () => (computes++, compute());
    for (let i = 0; i < 1000; i++) {
      el.setAttribute("temperature", String(0.5 + (i % 10) / 10));
      el.setAttribute("top-k", String(i % 6));
    }
    const stateAtOnce = el.state.temperature; // the state is the attributes' at once
    await new Promise((r) => setTimeout(r, 50));
    return { renders, computes, stateAtOnce, temperature: el.state.temperature, topK: el.state.topK };
  });
  // the loop ends at i = 999: temperature 0.5 + 9/10, top-k 999 mod 6
  assert.deepEqual(counts, { renders: 1, computes: 1, stateAtOnce: 1.4, temperature: 1.4, topK: 3 });
  // the figure draws those: its slider and readout say T = 1.4
  assert.equal(await page.locator("llm-sampling").locator('input[type="range"]').first().inputValue(), "1.4");
  assert.deepEqual(errors, []);
  await page.close();
});
