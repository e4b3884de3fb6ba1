// Each figure alone in embed.html, in WebKitGTK, as a course's frame shows it (a page of one
// figure loads in a fraction of the chapter's time): it draws with its caption, and logs no page
// error by the end of the test, the page read to its end;
// one of its controls moved by keyboard changes its drawing, and a number it shows is then the
// engine's for its new inputs (a fresh createLLMMath() in the page); its take-away buttons work:
// Download SVG saves the picture (read back from the file the browser saved) and Copy as NumPy
// gives the program, saying whether the clipboard took it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useWebKit, open, pageErrors, readThrough, assertFiguresDrawn, download, KEYS } = require("./webkit.js");
const { figures } = require("../browser/registry.js");

const webkit = useWebKit(test);

// For each figure of the registry (site/src/widgets/figures.js): a control to move (its first
// slider or number field, unless that one leaves the numbers checked as they are), and a number
// it shows with the engine's value for it. `shown(id)` and `core(id)` run in the page (no names from here):
// `shown` reads the figure's text, `core` asks a fresh engine for the same inputs; `tol` is half
// of the last decimal shown (an array: one per number). The diagnosis shows its calculation as
// lines of text: `core` writes them again with a fresh engine, for equality.
const CHECKS = {
  attention: {
    // an entry of query 3 (query 1 sees only key 1 under the causal mask: its weights stay 1, 0, 0)
    control: 'input[aria-label^="Q row 3"]',
    // the weights after the mask and softmax, shown to 3 decimals
    shown: (id) =>
      [...document.getElementById(id).shadowRoot.querySelectorAll(".table-view")]
        .find((t) => /weights/i.test(t.textContent))
        .querySelectorAll("tbody td")
        .values()
        .map((td) => Number(td.textContent.replace("−", "-")))
        .toArray(),
    core: async (id) => {
      const { q, k, v, causal } = document.getElementById(id).state;
      return (await createLLMMath()).attention(q, k, v, { causal }).weights.flat();
    },
    tol: 5e-4,
  },
  "context-dilution": {
    control: 'input[type="range"]',
    // the relevant key's weight, as a percentage to 1 decimal
    shown: (id) => [
      Number(document.getElementById(id).shadowRoot.querySelector(".headline strong").textContent.replace("%", "")) /
        100,
    ],
    core: async (id) => {
      const { relevantScore, distractorScore, distractors } = document.getElementById(id).state;
      return [(await createLLMMath()).contextDilution({ relevantScore, distractorScore, distractors }).relevantWeight];
    },
    tol: 5e-4,
  },
  sampling: {
    control: 'input[type="range"]',
    // the final probabilities, most probable first, to 3 decimals
    shown: (id) =>
      [...document.getElementById(id).shadowRoot.querySelectorAll(".sampling-table tbody tr:not(.sampling-cut)")].map(
        (tr) => Number(tr.querySelectorAll("td.num")[2].textContent.replace("−", "-")),
      ),
    core: async (id) => {
      const s = document.getElementById(id).state;
      const input = s.probs.length ? { probs: s.probs } : { logits: s.logits };
      const r = (await createLLMMath()).sampling(input, { temperature: s.temperature, topK: s.topK, topP: s.topP });
      return r.order.map((t) => r.probs[t]);
    },
    tol: 5e-4,
  },
  rope: {
    control: 'input[type="range"]',
    // the scaled score, to 10 decimals
    shown: (id) => [
      Number(
        document.getElementById(id).shadowRoot.querySelector(".headline .rope-scaled").textContent.replace("−", "-"),
      ),
    ],
    core: async (id) => {
      const s = document.getElementById(id).state;
      const opts = s.useFreqs ? { pairing: s.pairing, freqs: s.freqs } : { pairing: s.pairing, base: s.base };
      return [(await createLLMMath()).rope(s.q, s.k, s.m, s.n, opts).scaled];
    },
    tol: 5e-11,
  },
  cost: {
    control: 'input[type="range"]',
    // the scores per head, n², a count
    shown: (id) => [
      Number(
        document
          .getElementById(id)
          .shadowRoot.querySelector(".cost-stat.scores dd strong")
          .textContent.replace(/,/g, ""),
      ),
    ],
    core: async (id) => [(await createLLMMath()).attentionCost(document.getElementById(id).inputs).scoresPerHead],
    tol: 0,
  },
  model: {
    control: 'input[type="range"]',
    // the largest batch that fits beside the weights, a count
    shown: (id) => [
      Number(
        document
          .getElementById(id)
          .shadowRoot.querySelector(".model-fit-batch dd strong")
          .textContent.replace(/,/g, ""),
      ),
    ],
    core: async (id) => {
      const el = document.getElementById(id);
      const m = await createLLMMath();
      const shape = m.modelFromConfigText(el.shadowRoot.querySelector(".model-text").value);
      return [m.modelCost(shape, el.inputs).fit.maxBatch];
    },
    tol: 0,
  },
  speculative: {
    control: 'input[type="range"]',
    // the expected tokens per call of the target model, to 4 decimals
    shown: (id) => [
      Number(document.getElementById(id).shadowRoot.querySelector(".speculative-headline-expected").textContent),
    ],
    core: async (id) => {
      const { alpha, gamma, costRatio } = document.getElementById(id).state;
      return [(await createLLMMath()).speculativeDecoding({ alpha, gamma, costRatio }).expectedTokens];
    },
    tol: 5e-5,
  },
  alibi: {
    // the head (one more head, 9, keeps the first 8 slopes of 8 heads: nothing checked here moves)
    control: '.llm-bar .slider:nth-child(2) input[type="range"]',
    // the chosen head's slope, to 6 decimals, and its half-distance, to 3
    shown: (id) =>
      [".alibi-slope", ".alibi-half"].map((s) =>
        Number(document.getElementById(id).shadowRoot.querySelector(s).textContent.replace("−", "-")),
      ),
    core: async (id) => {
      const { heads, head, tokens } = document.getElementById(id).state;
      const m = await createLLMMath();
      const slope = m.alibiSlopes(heads)[head - 1];
      return [slope, m.alibi({ slope, tokens }).halfDistance];
    },
    tol: [5e-7, 5e-4],
  },
  quantization: {
    control: 'input[type="range"]',
    // the integer levels of X at the figure's bits
    shown: (id) =>
      [
        ...document
          .getElementById(id)
          .shadowRoot.querySelector(".quantization-level-table")
          .querySelectorAll("tbody td"),
      ].map((td) => Number(td.textContent.replace("−", "-"))),
    core: async (id) => {
      const { x, bits } = document.getElementById(id).state;
      return (await createLLMMath()).quantize(x.flat(), { bits }).levels;
    },
    tol: 0,
  },
  moe: {
    control: 'input[type="number"]',
    // the load-balancing loss, to 4 decimals
    shown: (id) => [Number(document.getElementById(id).shadowRoot.querySelector(".moe-loss").textContent)],
    core: async (id) => {
      const { logits, topK } = document.getElementById(id).state;
      return [(await createLLMMath()).moeRoute(logits, topK).loss];
    },
    tol: 5e-5,
  },
  diagnose: {
    // a number of its calculation, shown once the reader has named the right mechanism
    control: '.diagnose-inputs input[type="number"]',
    shown: (id) =>
      [...document.getElementById(id).shadowRoot.querySelectorAll(".diagnose-lines li")].map((li) => li.textContent),
    // the figure's own calculation for the scenario shown, made by a fresh engine
    core: async (id) => {
      const el = document.getElementById(id);
      const fresh = Object.create(el, { core: { value: await createLLMMath() } });
      // a line is text, or text and elements (an exponent): as its list item reads
      return el.compute.call(fresh).lines.map((line) => {
        const li = document.createElement("li");
        li.append(...[line].flat());
        return li.textContent;
      });
    },
  },
};

test("webkit: the suite has a control and a number to check for every figure of the registry", () => {
  assert.deepEqual(Object.keys(CHECKS).sort(), Object.keys(figures).sort());
});

/** Everything the figure draws (its charts and tables, its calculation), to tell a redraw. */
const drawing = (id) =>
  webkit.session.execute(
    (id) =>
      [...document.getElementById(id).shadowRoot.querySelectorAll("svg, table, .worked, .diagnose-lines")]
        .map((n) => n.outerHTML)
        .join("\n"),
    id,
  );

/** The figure's panel: its heading or note and its text to copy, if any. */
const panel = (id) =>
  webkit.session.execute((id) => {
    const p = document.getElementById(id).shadowRoot.querySelector(".llm-panel");
    return {
      hidden: p.hidden,
      label: p.querySelector(".llm-panel-head strong, .llm-takeaway-note")?.textContent ?? "",
      text: p.querySelector("textarea")?.value ?? "",
    };
  }, id);

/** Within `tol` (a number, or one per value) of the engine's values, or equal when none is given. */
function assertShown(shown, core, tol, what) {
  assert.equal(shown.length, core.length, `${what}: ${shown.length} numbers shown, ${core.length} from the engine`);
  if (tol === undefined) return assert.deepEqual(shown, core, what);
  shown.forEach((x, i) => {
    const t = Array.isArray(tol) ? tol[i] : tol;
    assert.ok(Math.abs(x - core[i]) <= t, `${what}, value ${i + 1}: shown ${x}, the engine's ${core[i]} (±${t})`);
  });
}

for (const [name, { id, tag }] of Object.entries(figures)) {
  const check = CHECKS[name];
  if (!check) continue;
  test(`webkit: embed.html?widget=${name} draws, follows a keyboard move with the engine's numbers, and its take-away buttons work`, async () => {
    const { session } = webkit;
    await open(webkit, "embed.html", { suffix: `?widget=${name}` });
    const [figure] = await assertFiguresDrawn(assert, webkit, `embed.html?widget=${name}`);
    assert.equal(figure.tag, tag);
    assert.equal(figure.id, id);
    const caption = await session.execute(() => document.querySelector("main > figure > figcaption").textContent);
    assert.match(caption, /^Figure \d\.\d\. /);
    await session.execute((id) => {
      window.changes = 0;
      document.getElementById(id).addEventListener("llm-change", () => window.changes++);
    }, id);

    // The diagnosis shows its calculation once the reader names the mechanism: its choices in turn.
    if (name === "diagnose") {
      const analysisShown = () =>
        session.execute((id) => !document.getElementById(id).shadowRoot.querySelector(".diagnose-analysis").hidden, id);
      const choices = await session.execute(
        (id) => [...document.getElementById(id).shadowRoot.querySelectorAll(".diagnose-choice")],
        id,
      );
      assert.equal(choices.length, 6);
      for (const choice of choices) {
        if (await analysisShown()) break;
        await session.click(choice);
      }
      assert.ok(await analysisShown(), "the right mechanism opens the calculation");
    }

    // One step of the control by keyboard: up, or down where it is at its largest.
    const control = await session.find(check.control, `#${id}`);
    const value = () => session.execute((input) => input.value, control);
    const start = await value();
    const before = await drawing(id);
    const shownBefore = await session.evaluate(check.shown, id);
    await session.sendKeys(control, KEYS.ArrowUp);
    if ((await value()) === start) await session.sendKeys(control, KEYS.ArrowDown);
    assert.notEqual(await value(), start, `#${id}'s ${check.control} moved`);
    assert.ok(await session.execute(() => window.changes > 0), `#${id} sent llm-change`);
    assert.notEqual(await drawing(id), before, `#${id}'s drawing changed`);
    const shown = await session.evaluate(check.shown, id);
    assertShown(shown, await session.evaluate(check.core, id), check.tol, `#${id} after the move`);
    assert.notDeepEqual(shown, shownBefore, `#${id}'s number changed with the move`);

    // Download SVG: the file the browser saved is the picture, with the caption and its text.
    const button = await session.find(".llm-download-svg", `#${id}`);
    const saved = await download(webkit, `${id}.svg`, () => session.click(button));
    assert.ok(saved, `${id}.svg was saved`);
    assert.match(saved, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
    assert.ok(saved.includes(`<title>${caption.trim().slice(0, 40)}`), "the picture's title is the caption");
    assert.ok((saved.match(/<text/g) ?? []).length > 3, "the picture has its text");
    assert.doesNotMatch(saved, /var\(--|currentColor/, "every colour is resolved");
    assert.deepEqual(
      await session.execute(
        (svg) =>
          new DOMParser().parseFromString(svg, "image/svg+xml").querySelector("parsererror")?.textContent ?? null,
        saved,
      ),
      null,
      "the SVG parses",
    );
    assert.equal((await panel(id)).label, `Downloaded ${id}.svg: the figure as it is now, with its caption.`);

    // Copy as NumPy: the program, copied (the button's click is the reader's gesture) or shown to copy.
    await session.click(await session.find(".llm-copy-numpy", `#${id}`));
    const program = await panel(id);
    assert.equal(program.hidden, false);
    assert.equal(program.label, "Python program copied to the clipboard (it needs only NumPy)");
    assert.match(program.text, /^# /);
    assert.match(program.text, /^import numpy as np$/m);

    await readThrough(webkit);
    assert.deepEqual(await pageErrors(webkit), []);
  });
}
