// The reader in headless Chromium, opened from file:// as a reader opens it from disk.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, openReader, artifact, asset, dist } = require("./browser.js");
const { figures } = require("./registry.js");

const SECTIONS = ["attention", "sampling", "rope", "cost", "speculative", "alibi", "quantization", "moe", "diagnose"];

const browser = useBrowser(test);

/** Every request must be for a file of dist/ itself: no network, no data: fetches. */
function assertOnlyOwnFiles(requests) {
  const own = "file://" + dist + path.sep;
  const outside = requests.filter((u) => !u.startsWith(own));
  assert.deepEqual(outside, [], "requests outside dist/");
}

test("the reader loads from file://, becomes ready, logs no error and requests only its own files", async () => {
  const { page, errors, requests } = await openReader(browser.context);
  assert.deepEqual(errors, []);
  assertOnlyOwnFiles(requests);
  // Every part a figure keeps while its inputs stay (keep(), site/src/dom.js) was built: no
  // placeholder is left in any figure.
  const placeholders = await page.evaluate(() => {
    let n = 0;
    for (const el of document.querySelectorAll("[data-figure]")) {
      const walker = document.createTreeWalker(el.shadowRoot, NodeFilter.SHOW_COMMENT);
      while (walker.nextNode()) n += walker.currentNode.data === "keep" ? 1 : 0;
    }
    return n;
  });
  assert.equal(placeholders, 0, "keep() placeholders left in the figures");
  assert.ok(
    requests.some((u) => u.endsWith(`/${asset("llmmath-widgets.js")}`)),
    "the core and widgets were loaded",
  );
  await page.screenshot({ path: artifact("reader-1280.png"), fullPage: true });
  await page.close();
});

test("the page keeps its conventions: nine sections, answers behind 'Show the answer', llm- widgets", async () => {
  const { page } = await openReader(browser.context);
  const ids = await page.$$eval("main > section[id]", (s) => s.map((x) => x.id));
  for (const id of SECTIONS) assert.ok(ids.includes(id), `section #${id}`);
  const summaries = await page.$$eval(".exercise details > summary", (s) => s.map((x) => x.textContent.trim()));
  assert.ok(summaries.length >= 1);
  for (const s of summaries) assert.equal(s, "Show the answer");
  const tags = await page.$$eval("*", (els) => [
    ...new Set(els.map((e) => e.localName).filter((n) => n.includes("-"))),
  ]);
  for (const t of tags) assert.ok(t.startsWith("llm-"), `custom element ${t}`);
  assert.ok(tags.includes("llm-attention") && tags.includes("llm-context-dilution"));
  // Formulas are typeset at build time as MathML: no raw TeX delimiters are left.
  const text = await page.textContent("main");
  assert.ok(!/\\\(|\\\[/.test(text), "untypeset TeX in the page");
  assert.ok((await page.$$("main math")).length >= 8, "MathML formulas");
  await page.close();
});

test("on a phone-width screen the page does not scroll sideways", async () => {
  const { page, errors } = await openReader(browser.context, { width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: artifact("reader-390.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

/** Each section's height estimate (reader.css) and its real height, laid out, at this width. */
function sectionHeights(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("main > section[id]")].map((section) => {
      const estimate = parseFloat(getComputedStyle(section).containIntrinsicBlockSize.replace("auto", ""));
      section.style.contentVisibility = "visible"; // laid out now, whether near the screen or not
      const real = section.getBoundingClientRect().height;
      section.style.contentVisibility = "";
      return { id: section.id, estimate, real };
    }),
  );
}

test("sections off screen skip layout, and each one's height estimate is within a quarter of its real height", async () => {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ]) {
    const { page } = await openReader(browser.context, { width, height });
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById("moe")).contentVisibility), "auto");
    for (const { id, estimate, real } of await sectionHeights(page)) {
      assert.ok(Number.isFinite(estimate), `#${id} has an estimate at ${width} px`);
      // a quarter: links into the chapter land on their section, within a screen, before the
      // sections above it are laid out (reader.css says how to measure new estimates)
      assert.ok(
        Math.abs(estimate - real) <= 0.25 * real,
        `#${id} at ${width} px: estimated ${estimate} px, real ${Math.round(real)} px`,
      );
    }
    await page.close();
  }
});

test("a link into the chapter lands on its section, and figures reaching out of the text column are painted and clickable", async () => {
  const { page } = await openReader(browser.context, { hash: "#quantization" });
  const top = await page.evaluate(() => document.getElementById("quantization").getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `#quantization is ${top} px from the top of the screen`);
  // the figure's left edge lies outside the text column; containment must not clip it
  const hit = await page.evaluate(() => {
    const figure = document.getElementById("quantization-figure");
    const button = figure.shadowRoot.querySelector(".llm-reset");
    button.scrollIntoView({ block: "center" });
    const r = button.getBoundingClientRect();
    return document.elementFromPoint(r.x + 2, r.y + r.height / 2)?.id;
  });
  assert.equal(hit, "quantization-figure");
  await page.close();
});

// A figure draws as it comes within a screen of the viewport (kit/starting.js whenNeeded), never before:
// a reader's phone does the work of the figures the reader comes to.
const FAR_DOWN = ["rope-figure", "cost-figure", "quantization-figure", "moe-figure", "diagnose-figure"];
const drawnOf = (page, ids) =>
  page.evaluate((ids) => ids.filter((id) => document.getElementById(id).hasAttribute("data-ready")), ids);

test("the first screen draws first: figures far down wait for the reader and draw as the reader comes near", async () => {
  const { page, errors } = await openReader(browser.context, { lazy: true });
  assert.equal(await page.locator("#opening-attention[data-ready]").count(), 1, "the first screen's figure drew");
  await page.waitForTimeout(1500); // time an eager page would have used to draw the rest
  assert.deepEqual(await drawnOf(page, FAR_DOWN), [], "figures far down drew without the reader");
  assert.equal(await page.locator("html[data-ready]").count(), 0, "data-ready says every figure drew");
  // the reader goes to one: it draws, and its neighbours far away still wait
  await page.evaluate(() => document.getElementById("moe-figure").scrollIntoView());
  await page.waitForSelector("#moe-figure[data-ready]", { timeout: 10000 });
  assert.deepEqual(await drawnOf(page, ["rope-figure", "cost-figure"]), []);
  // read to the end, every figure has drawn
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await frame();
    }
  });
  await page.waitForSelector("html[data-ready]", { timeout: 15000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// Nothing on the first screen moves as its figure draws (layout shifts, as Lighthouse scores them):
// the opening figure holds its room until drawn (reader.css), and that room is its drawn height.
for (const [width, height] of [
  [412, 823],
  [1280, 900],
]) {
  test(`at ${width} × ${height} the first screen does not shift as its figure draws, which holds the room it takes`, async () => {
    const page = await browser.context.newPage();
    try {
      await page.setViewportSize({ width, height });
      await page.addInitScript(() => {
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(pathToFileURL(path.join(dist, "reader.html")).href);
      await page.waitForSelector("html[data-first-screen]");
      await page.waitForTimeout(500);
      const shift = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
      assert.ok(shift < 0.01, `layout shift ${shift.toFixed(4)} while the first screen drew`);
      const { drawn, held } = await page.evaluate(() => {
        const el = document.getElementById("opening-attention");
        const box = el.getBoundingClientRect();
        el.removeAttribute("data-ready"); // the rule that holds the room, as before the drawing
        const style = getComputedStyle(el);
        const held = { height: parseFloat(style.minHeight), width: parseFloat(style.width) };
        el.setAttribute("data-ready", "");
        return { drawn: { height: box.height, width: box.width }, held };
      });
      assert.ok(
        Math.abs(drawn.height - held.height) <= 4,
        `the height held, ${held.height} px, against the figure drawn, ${drawn.height} px`,
      );
      // beside its caption (a wide screen) the figure's width is held too
      if (width >= 768)
        assert.ok(
          Math.abs(drawn.width - held.width) <= 4,
          `the width held, ${held.width} px, against the figure drawn, ${drawn.width} px`,
        );
    } finally {
      await page.close();
    }
  });
}

// The reader's first screen asks the widgets' script to define its figures' elements first
// (data-first, set by first-screen.js) and the rest once that screen has drawn (widgets-embed.js).
// On a page of its own: an exercise named first comes with the figure it answers, the others wait
// for data-first-screen, and the page is then told that every element is defined.
test("the widgets' script defines the first screen's elements first, with the figures their exercises answer, and the rest once it has drawn", async () => {
  const file = path.join(dist, "first-defined.html");
  fs.writeFileSync(
    file,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>First defined</title></head><body>
<llm-attention id="f"></llm-attention>
<llm-answer-attention for="f"></llm-answer-attention>
<llm-rope id="r"></llm-rope>
<script src="llmmath-widgets.js" data-first="llm-answer-attention"></script>
<script>
  const tags = ${JSON.stringify([...new Set(Object.values(figures).map((f) => f.tag))])};
  const defined = () => tags.filter((tag) => customElements.get(tag)).length;
  window.early = {
    figure: Boolean(customElements.get("llm-attention")),
    exercise: Boolean(customElements.get("llm-answer-attention")),
    other: Boolean(customElements.get("llm-rope")),
    carried: document.querySelector("script[src]").hasAttribute("data-first"),
  };
  window.defined = { early: defined() };
  addEventListener("llmmath-widgets", () => (window.told = { all: defined() === tags.length, rope: Boolean(customElements.get("llm-rope")) }));
  if (location.search === "?now") {
    // the page asks for every one at once before its first screen drew (reader.js, as a print begins)
    dispatchEvent(new Event("llmmath-define-now"));
    window.atOnce = { all: defined() === tags.length, told: window.told !== undefined };
  } else {
    // the first screen drew: the rest start in a task queued then, before a timer queued after it
    document.documentElement.setAttribute("data-first-screen", "");
    setTimeout(() => setTimeout(() => (window.defined.started = defined()), 0), 0);
  }
</script>
</body></html>`,
  );
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(pathToFileURL(file).href);
    assert.deepEqual(await page.evaluate(() => window.early), {
      figure: true,
      exercise: true,
      other: false,
      carried: false,
    });
    // the rest had started (a figure more defined) in the task queued as the first screen drew,
    // not after the 3 s a screen that never draws is given; then every one, and the page told
    await page.waitForFunction(() => window.defined.started !== undefined);
    const { early, started } = await page.evaluate(() => window.defined);
    assert.equal(early, 1, "the figures defined with the first screen's: llm-attention alone");
    assert.ok(started > early, `the rest had not started once the first screen drew (${started} figures defined)`);
    await page.waitForFunction(() => window.told !== undefined, null, { timeout: 10000 });
    assert.deepEqual(await page.evaluate(() => window.told), { all: true, rope: true });
    // asked for every one at once: defined, and the page told, before that event's dispatch returned
    const now = await browser.context.newPage();
    now.on("pageerror", (err) => errors.push(err.message));
    await now.goto(pathToFileURL(file).href + "?now");
    assert.deepEqual(await now.evaluate(() => window.atOnce), { all: true, told: true });
    await now.close();
    // the exercise found its figure: it asks its question, not "none with the id given"
    await page.evaluate(() => document.querySelector("llm-answer-attention").ready);
    const said = await page.evaluate(() => document.querySelector("llm-answer-attention").textContent);
    assert.match(said, /\S/);
    assert.doesNotMatch(said, /none with the id given/);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test("a link to a section draws that section's figure first, and not those far from it", async () => {
  const { page, errors } = await openReader(browser.context, { lazy: true, hash: "#quantization" });
  await page.waitForSelector("#quantization-figure[data-ready]", { timeout: 10000 });
  await page.waitForTimeout(1000);
  assert.deepEqual(await drawnOf(page, ["sampling-figure", "rope-figure", "cost-figure", "diagnose-figure"]), []);
  const top = await page.evaluate(() => document.getElementById("quantization").getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `#quantization is ${top} px from the top of the screen`);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The prose of each section as a reader reads it, with every formula replaced by its TeX source
 * (KaTeX keeps it as the MathML annotation) in \( \), and without the exercise block and the
 * figures: { attention: "…", sampling: "…", … }.
 */
function prose(page) {
  return page.evaluate(
    (ids) =>
      Object.fromEntries(
        ids.map((id) => {
          const copy = document.getElementById(id).cloneNode(true);
          for (const x of copy.querySelectorAll(".exercise, figure")) x.remove();
          for (const m of copy.querySelectorAll("math")) {
            const tex = m.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? m.textContent;
            m.replaceWith(`\\(${tex.trim()}\\)`);
          }
          return [id, copy.textContent.replace(/\s+/g, " ")];
        }),
      ),
    SECTIONS,
  );
}

test("the chapter's statements: each corrected sentence says the right thing and the wrong one is gone", async () => {
  const { page, errors } = await openReader(browser.context);
  const text = await prose(page);

  // 2. §5: α is measured by accepted / checked or from the mean tokens per call, not accepted / proposed.
  assert.doesNotMatch(text.speculative, /divide the accepted draft tokens by the proposed ones/);
  assert.match(text.speculative, /the accepted tokens divided by the checked ones/);
  assert.match(
    text.speculative,
    /solving the formula for \\\(E\\\) for the \\\(\\alpha\\\) that gives your mean number of tokens per target call/,
  );
  assert.match(text.speculative, /Do not divide the accepted tokens by all the proposed ones/);
  // 3. §3: the causal mask tells which keys came before, not how far back.
  assert.doesNotMatch(text.rope, /has no idea of order/);
  assert.doesNotMatch(text.rope, /every query's output is the same/);
  assert.match(text.rope, /knows order only through the causal mask/);
  assert.match(text.rope, /which keys came before it, not how far back/);
  // 4. §3: halves are GPT-NeoX's and Hugging Face Llama's; Meta's Llama code pairs neighbours.
  assert.doesNotMatch(text.rope, /GPT-NeoX and Llama code/);
  assert.match(text.rope, /Meta's own Llama code, which treats each pair as one complex number/);
  assert.match(text.rope, /GPT-NeoX pairs the two halves/);
  assert.match(
    text.rope,
    /Hugging Face implementation of Llama, whose weight conversion permutes the rows of the query and key projections/,
  );
  // 6. §1: variance d needs mean 0; with mean 1 it is 3d.
  assert.match(text.attention, /independent random variables with mean 0 and variance 1/);
  assert.match(text.attention, /the raw score would have variance \\\(3d\\\)/);
  // 7. §6: other head counts append, they do not interleave.
  assert.doesNotMatch(text.alibi, /interleave/);
  assert.match(text.alibi, /the paper's reference code appends/);
  assert.match(text.alibi, /take every other slope of \\\(2h'\\\) heads/);
  assert.match(
    text.alibi,
    /the steepest head is head \\\(h' \+ 1\\\), not head 1, and the gentlest is head \\\(h'\\\), not the last/,
  );
  // 8. §2: T → 0 splits tied mass; T = 0 is defined as greedy with ties to the lower index.
  assert.doesNotMatch(text.sampling, /all the mass goes to the largest logit/);
  assert.match(text.sampling, /logits tied for largest share it equally/);
  assert.match(
    text.sampling,
    /\\\(T = 0\\\) is defined as greedy decoding: all the mass on the most probable token and, on a tie, on the one with the lower index \(a convention, not the limit/,
  );
  // 9. §4: long prompts are slow for the linear layers up to the crossover, for attention beyond.
  assert.doesNotMatch(text.cost, /because the \\\(n\^2\\\) arithmetic for the whole prompt/);
  assert.match(text.cost, /Up to the crossover of Figure 4\.1, most of that time goes to the linear layers/);
  assert.match(text.cost, /Below it the linear layers do most of the arithmetic; above it attention does/);
  // 10a. §4: Mistral-7B's two contexts and the engine-dependent rolling cache.
  assert.match(
    text.cost,
    /its context is 8,192 tokens in the paper's Table 1 and 32,768 positions in its published configuration/,
  );
  assert.match(text.cost, /whether your cache stops growing there depends on the inference engine/);
  // 10c. §1: in Large scores only queries 1 and 2 put nearly all their weight on one key.
  assert.match(
    text.attention,
    /nearly all the weight on one key for queries 1 and 2, while query 3, which scores every key alike, spreads its weight evenly/,
  );
  // 10d. "Raw score" is the unscaled dot product everywhere: §1 defines it so, and no longer calls
  // the scaled score raw.
  assert.match(
    text.attention,
    /their dot product \\\(q_i \\cdot k_j\\\), the raw score, scaled by \\\(1\/\\sqrt\{d\}\\\) into the score/,
  );
  assert.doesNotMatch(text.attention, /however large its raw score/);
  assert.match(text.alibi, /the raw score divided by \\\(\\sqrt\{d\}\\\)/);
  const caption = await page.locator("#attention figure figcaption").first().textContent();
  assert.doesNotMatch(caption, /raw score/);
  // Letters that meant two things in one section: the key vector k_j in §6 (where k numbers the
  // heads), and the top-p threshold p in §2 (where p_i are the probabilities).
  assert.doesNotMatch(text.alibi, /k_j|k_\{j\}/);
  assert.doesNotMatch(text.sampling, /V\^\{\(p\)\}|threshold \\\(p\\\)/);
  assert.match(text.sampling, /the threshold \\\(p_\{\\text\{top\}\}\\\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the chapter's statements: §3, §4 and §6 say only what is true", async () => {
  const { page, errors } = await openReader(browser.context);
  const text = await prose(page);
  // §3: causal models learn some position without encodings (Haviv et al. 2022).
  assert.doesNotMatch(text.rope, /has to be told where each token sits/);
  assert.match(text.rope, /So the model is usually told where each token sits/);
  assert.match(text.rope, /Haviv et al\., 2022/);
  assert.match(await page.locator("footer .sources").textContent(), /Haviv et al\. 2022, Transformer Language Models/);
  // §4: doubling multiplies the work by 2 + 2a, not by nearly four (cost.test.js checks the
  // factors against the core).
  assert.doesNotMatch(text.cost, /close to quadrupling/);
  assert.match(text.cost, /the arithmetic at \\\(2n\\\) tokens is \\\(2 \+ 2a\\\) times as much/);
  assert.match(text.cost, /close to four times only far beyond it/);
  // §6: the appended slopes are not all between the first ones: the first is above them all.
  assert.doesNotMatch(text.alibi, /which fall between the first ones\./);
  assert.match(text.alibi, /which fall between and above the first ones/);
  // The claims about which heads are steepest and gentlest, against the core for every head count
  // that is not a power of two from 3 to 64: head h' + 1 and head h'.
  const heads = await page.evaluate(async () => {
    const core = await createLLMMath();
    const out = [];
    for (let h = 3; h <= 64; h++) {
      const p = 2 ** Math.floor(Math.log2(h));
      if (p === h) continue;
      const r = core.alibiHeads(h);
      out.push({ h, p, steepest: r.steepest.head, gentlest: r.gentlest.head, above: r.slopes[p] > r.slopes[0] });
    }
    return out;
  });
  assert.equal(heads.length, 62 - 5);
  for (const { h, p, steepest, gentlest, above } of heads) {
    assert.equal(steepest, p + 1, `h = ${h}: steepest head`);
    assert.equal(gentlest, p, `h = ${h}: gentlest head`);
    assert.ok(above, `h = ${h}: the first appended slope is above head 1's`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the sources list names Shazeer 2019 and Dao et al. 2022, both cited in section 4", async () => {
  const { page } = await openReader(browser.context);
  const sources = await page.locator(".colophon .sources").textContent();
  assert.match(
    sources,
    /Shazeer 2019, Fast Transformer Decoding: One Write-Head is All You Need: multi-query attention \(section 4\)/,
  );
  assert.match(
    sources,
    /Dao et al\. 2022, FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness \(section 4\)/,
  );
  assert.match(sources, /Jiang et al\. 2023, Mistral 7B/);
  const cost = await page.locator("#cost").textContent();
  assert.match(cost, /Shazeer, 2019/);
  assert.match(cost, /Dao et al\., 2022/);
  await page.close();
});

test("notation: one table of symbols, in the contents, linked from every section, each clashing letter given per section", async () => {
  const { page, errors } = await openReader(browser.context);
  assert.equal(await page.locator("main > section#notation table.notation").count(), 1);
  assert.equal(await page.locator('.toc a[href="#notation"]').count(), 1);
  // Every section 1–8 links to the table right under its heading.
  for (const id of SECTIONS.slice(0, 8)) {
    const link = page.locator(`#${id} > h2 + p.notation-link a[href="#notation"]`);
    assert.equal(await link.count(), 1, `#${id} links to the notation table`);
  }
  await page.locator("#rope .notation-link a").click();
  await page.waitForFunction(() => location.hash === "#notation");

  // Rows as [symbols (TeX), meaning, [sections]].
  const rows = await page.locator("table.notation tbody tr").evaluateAll((trs) =>
    trs.map((tr) => {
      const [sym, meaning, sections] = tr.querySelectorAll("td");
      const tex = [...sym.querySelectorAll("annotation")].map((a) => a.textContent.trim());
      return [tex, meaning.textContent, sections.textContent.split(",").map((s) => Number(s.trim()))];
    }),
  );
  const sectionsOf = (tex, meaning) => {
    const row = rows.find(([t, m]) => t.includes(tex) && meaning.test(m));
    assert.ok(row, `a row for ${tex} ${meaning}`);
    return row[2];
  };
  // The papers' letters that clash across sections, each meaning with its own sections.
  assert.deepEqual(sectionsOf("\\alpha", /acceptance rate/), [5]);
  assert.deepEqual(sectionsOf("\\alpha", /migration strength/), [7]);
  assert.deepEqual(sectionsOf("\\alpha", /angle/), [3]);
  assert.deepEqual(sectionsOf("p", /bytes/), [4]);
  assert.deepEqual(sectionsOf("p_{\\text{top}}", /top-p threshold/), [2]);
  assert.deepEqual(sectionsOf("b", /batch/), [4]);
  assert.deepEqual(sectionsOf("b", /bits/), [7]);
  assert.deepEqual(sectionsOf("b", /base/), [3]);
  assert.deepEqual(sectionsOf("b", /distractor/), [1]);
  assert.deepEqual(sectionsOf("m", /slope/), [6]);
  assert.deepEqual(sectionsOf("m", /positions/), [3]);
  assert.deepEqual(sectionsOf("T", /temperature/), [2]);
  assert.deepEqual(sectionsOf("T", /tokens in a batch/), [8]);
  assert.deepEqual(sectionsOf("d_{\\text{model}}", /model width/), [4]);
  // No symbol is listed twice for one section: inside a section each letter has one meaning.
  const seen = new Map();
  for (const [tex, meaning, sections] of rows)
    for (const t of tex)
      for (const s of sections) {
        const key = `${t} in section ${s}`;
        assert.ok(!seen.has(key), `${key}: "${seen.get(key)}" and "${meaning}"`);
        seen.set(key, meaning);
      }
  assert.deepEqual(errors, []);
  await page.close();
});

// The first screen: a live figure under the masthead, with one thing to touch.
for (const [width, height] of [
  [1280, 800],
  [390, 844],
]) {
  test(`the first screen at ${width} × ${height} holds the masthead and a live figure whose causal mask the reader can switch`, async () => {
    const { page, errors } = await openReader(browser.context, { width, height });
    const fig = page.locator("#opening-attention");
    const box = async (locator) => {
      const b = await locator.boundingBox();
      assert.ok(b, "has a box");
      return b;
    };
    // Everything within the first screen, the page unscrolled: the title, the figure, its switch
    // and its caption's sentence of what to try.
    assert.equal(await page.evaluate(() => scrollY), 0);
    for (const [what, locator] of [
      ["the title", page.locator(".masthead h1")],
      ["the figure", fig],
      ["its switch", fig.getByLabel("Causal mask")],
      ["its caption", page.locator(".opening figcaption")],
    ]) {
      const b = await box(locator);
      assert.ok(b.y >= 0 && b.y + b.height <= height, `${what}: ${b.y} to ${b.y + b.height} of ${height}`);
      assert.ok(b.x >= 0 && b.x + b.width <= width, `${what}: ${b.x} to ${b.x + b.width} of ${width}`);
    }
    // The compact form: the weights and the switch alone, the table wholly visible.
    assert.equal(await fig.evaluate((el) => el.view.compact), "true");
    for (const hidden of [
      ".attention-editors",
      ".worked",
      ".llm-actions",
      ".attention-results .table-view:nth-child(1)",
    ])
      assert.equal(await fig.locator(hidden).first().isVisible(), false, `${hidden} is hidden`);
    const weights = fig.locator(".attention-results .table-view:nth-child(2)");
    const table = await box(weights.locator("table"));
    assert.ok(table.x + table.width <= width && table.y + table.height <= height, "the weights table is whole");

    // The weights the table shows, row by row, and the core's for the figure's inputs.
    const shown = () =>
      weights
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => Number(td.textContent))));
    const core = (causal) =>
      page.evaluate(async (causal) => {
        const { q, k, v } = document.getElementById("opening-attention").state;
        return (await createLLMMath()).attention(q, k, v, { causal }).weights;
      }, causal);
    const close = (a, b) => a.every((row, i) => row.every((x, j) => Math.abs(x - b[i][j]) <= 5e-4)); // 3 decimals
    // It opens without the mask (under the mask, its first row would show Exercise 1's
    // answer, a first query's whole weight on its own key, before the exercise asks for it).
    const open = await core(false);
    assert.equal(await fig.evaluate((el) => el.state.causal), false);
    assert.ok(close(await shown(), open), "without the mask, the weights are the core's");
    assert.equal(Math.max(...open[1]), open[1][2], "“dog” gives “bit” its largest weight");
    assert.notEqual(open[0][0], 1, "the first row does not put all its weight on the first word");

    // What the caption says to try: tick the mask, and “dog” gives “bit” nothing.
    await fig.getByLabel("Causal mask").check();
    const masked = await core(true);
    await page.waitForFunction(() => {
      const el = document.getElementById("opening-attention");
      return (
        el.state.causal === true &&
        el.shadowRoot.querySelector(".attention-results .table-view:nth-child(2) tbody tr:nth-child(2) td:nth-child(4)")
          ?.textContent === "0"
      );
    });
    assert.ok(close(await shown(), masked), "the causal weights are the core's");
    assert.equal(masked[1][2], 0, "under the mask, “dog” gives “bit” nothing");
    // Chapter's own Figure 1.1 is another element: its mask stays on.
    assert.equal(await page.locator("#attention-figure").evaluate((el) => el.state.causal), true);

    // The reader's URL keeps the opening figure's state under its own name, and brings it back.
    await page.waitForFunction(() => location.hash.includes("opening-attention.causal=true"));
    assert.doesNotMatch(await page.evaluate(() => location.hash), /[?&]attention\./);
    const hash = await page.evaluate(() => location.hash);
    const again = await openReader(browser.context, { width, height, hash });
    assert.equal(await again.page.locator("#opening-attention").evaluate((el) => el.state.causal), true);
    assert.equal(await again.page.locator("#attention-figure").evaluate((el) => el.state.causal), true);
    assert.deepEqual([...errors, ...again.errors], []);
    await again.page.close();
    await page.close();
  });
}
