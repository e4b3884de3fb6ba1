// Section 9 [diagnose]: a scenario first, the reader chooses the mechanism, wrong choices are
// explained, the right one opens the calculation computed by the core; a seeded shuffled order
// that restarts, a score, and settings that reproduce all of it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const { useBrowser, openReader, openFigure, shown } = require("./browser.js");

const browser = useBrowser(test);

const MECHANISMS = [
  "Missing context",
  "Different sampled wording",
  "Positional relationships",
  "Memory cost",
  "Speed",
  "Numeric precision",
];

// Every scenario as the test expects it, independently of diagnose-scenarios.js: its title, the
// right mechanism, a phrase of the explanation, one wrong mechanism with a phrase of why it does
// not fit (specific to the story), the section linked, and the number the calculation must show
// with the story's inputs, computed by the core in the page (rounded as the page writes it).
const SCENARIOS = {
  "refund-policy": {
    title: "The refund that was never promised",
    right: "Missing context",
    because: "so were 5,000 tokens about everything else",
    wrong: "Positional relationships",
    why: "sat right before the question in both prompts",
    section: "attention",
    expected: async () =>
      (await createLLMMath()).contextDilution({ relevantScore: 4, distractorScore: 0, distractors: 5000 })
        .relevantWeight,
    shows: (w) => `With the whole manual: w = e4 / (e4 + 5,000·e0) = ${shown(w * 100, 2)}%`,
  },
  warranty: {
    title: "Two chargers",
    right: "Missing context",
    because: "39 passages about similar chargers",
    wrong: "Different sampled wording",
    why: "says 12 months every time it is asked",
    section: "attention",
    expected: async () =>
      (await createLLMMath()).contextDilution({ relevantScore: 8, distractorScore: 2, distractors: 1600 })
        .relevantWeight,
    shows: (w) => `With the top 4 passages (1,600 other tokens): ${shown(w * 100, 2)}%`,
  },
  treaty: {
    title: "Two colleagues, two years",
    right: "Different sampled wording",
    because: "the less probable year keeps a real share",
    wrong: "Missing context",
    why: "Both had exactly the same prompt",
    section: "sampling",
    expected: async () => (await createLLMMath()).sampling({ logits: [2.2, 1.6, 0.4] }, { temperature: 0.8 }).probs[1],
    shows: (p) => `P(1920) = ${shown(p * 100, 1)}%`,
  },
  eiffel: {
    title: "Repeatable, and wrong",
    right: "Different sampled wording",
    because: "the most probable year is the wrong one",
    wrong: "Missing context",
    why: "No source was in the prompt at either temperature",
    section: "sampling",
    expected: async () => (await createLLMMath()).sampling({ logits: [2, 1.7, 0.4] }, { temperature: 1 }).probs[1],
    shows: (p) => `P(1889) = ${shown(p * 100, 1)}%`,
  },
  contract: {
    title: "Which party must deliver?",
    right: "Positional relationships",
    because: "even for the gentlest of the 12 heads",
    wrong: "Missing context",
    why: "copying the definition in added text",
    section: "alibi",
    expected: async () => (await createLLMMath()).alibiHeads(12).gentlest.halfDistance,
    shows: (d) => `The gentlest is head 8 (m = 0.003906): it halves it every ${shown(d, 1)} tokens.`,
  },
  "long-report": {
    title: "Past the trained length",
    right: "Positional relationships",
    because: "no offset exceeded 4,096 tokens",
    wrong: "Missing context",
    why: "the failures start at a distance, the trained length",
    section: "rope",
    expected: async () => {
      const unit = Array.from({ length: 128 }, (_, i) => (i === 0 ? 1 : 0));
      return (await createLLMMath()).rope(unit, unit, 12000, 0, { base: 10000 }).angles[63][0];
    },
    shows: (a) => `At 12,000 tokens back it turns ${shown(a, 3)} radians.`,
  },
  serving: {
    title: "Sixteen users at 32k",
    right: "Memory cost",
    because: "larger than the memory the weights leave free",
    wrong: "Positional relationships",
    why: "well within the model's 131,072-token context",
    section: "cost",
    expected: async () =>
      (await createLLMMath()).attentionCost({
        tokens: 32768,
        heads: 32,
        kvHeads: 8,
        headDim: 128,
        layers: 32,
        batch: 16,
        bytesPerValue: 2,
      }).kvBytes /
      2 ** 30,
    shows: (gib) => `KV cache = 2 · 16 · 32,768 · 8 · 128 · 32 layers · 2 bytes = ${gib} GiB`,
  },
  batch: {
    title: "From demo to batch",
    right: "Memory cost",
    because: "Without grouped-query attention",
    wrong: "Speed",
    why: "One user runs at normal speed and eight crash",
    section: "cost",
    expected: async () =>
      (await createLLMMath()).attentionCost({
        tokens: 4096,
        heads: 32,
        kvHeads: 32,
        headDim: 128,
        layers: 32,
        batch: 8,
        bytesPerValue: 2,
      }).kvBytes /
      2 ** 30,
    shows: (gib) => `KV cache = 2 · 8 · 4,096 · 32 · 128 · 32 layers · 2 bytes = ${gib} GiB`,
  },
  "slow-chat": {
    title: "Twelve tokens a second",
    right: "Speed",
    because: "one full large-model call",
    wrong: "Memory cost",
    why: "Memory use is well within the GPUs and nothing fails",
    section: "speculative",
    expected: async () =>
      (await createLLMMath()).speculativeDecoding({ alpha: 0.6, gamma: 4, costRatio: 0.05 }).speedup,
    shows: (x) => `= ${shown(x, 3)}×`,
  },
  "slow-draft": {
    title: "Speculation that slowed things down",
    right: "Speed",
    because: "At α = 0.3 few drafts survive",
    wrong: "Numeric precision",
    why: "the draft's quality shows up in the acceptance rate",
    section: "speculative",
    expected: async () =>
      (await createLLMMath()).speculativeDecoding({ alpha: 0.3, gamma: 8, costRatio: 0.25 }).speedup,
    shows: (x) => `= ${shown(x, 3)}×`,
  },
  outlier: {
    title: "One loud channel",
    right: "Numeric precision",
    because: "The outlier makes the scale Δ large",
    wrong: "Different sampled wording",
    why: "the 8-bit one repeats worse answers",
    section: "quantization",
    expected: async () => (await createLLMMath()).quantize([60, 0.82, -0.37, 0.15, -0.06], { bits: 8 }).scale,
    shows: (scale) => `at 8 bits: scale Δ ${shown(scale, 4)},`,
  },
  "four-bit": {
    title: "From 8 to 4 bits",
    right: "Numeric precision",
    because: "the largest weight sets the scale Δ",
    wrong: "Memory cost",
    why: "The 4-bit model fits and runs",
    section: "quantization",
    expected: async () => (await createLLMMath()).quantize([0.9, 0.04, -0.03, 0.02, -0.01], { bits: 4 }).scale,
    shows: (scale) => `at 4 bits: levels −7 … 7, scale Δ ${shown(scale, 4)},`,
  },
};

const titleOf = (fig) => fig.locator(".diagnose-title").textContent();

test("every scenario: a wrong choice is explained and keeps the calculation closed; the right one opens it with the core's numbers; the score counts first choices", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  assert.deepEqual([...order].sort(), Object.keys(SCENARIOS).sort(), "every scenario in the order, once");
  // At least two scenarios for every mechanism.
  for (const m of MECHANISMS) assert.ok(Object.values(SCENARIOS).filter((s) => s.right === m).length >= 2, m);

  const feedback = fig.locator(".diagnose-feedback");
  const analysis = fig.locator(".diagnose-analysis");
  for (const [k, id] of order.entries()) {
    const s = SCENARIOS[id];
    assert.equal(await titleOf(fig), s.title, `position ${k + 1}`);
    assert.match(await fig.locator(".diagnose-progress").textContent(), new RegExp(`^Scenario ${k + 1} of 12\\.`));
    assert.equal(await analysis.isVisible(), false, `${id}: closed before a choice`);
    // Odd positions: a wrong choice first (and then every other wrong one), even: right at once.
    if (k % 2 === 0) {
      await fig.getByRole("button", { name: s.wrong, exact: true }).click();
      const text = await feedback.textContent();
      assert.ok(text.includes(`Not ${s.wrong.toLowerCase()}.`), `${id}: "${text}"`);
      assert.ok(text.includes(s.why), `${id}: why not ${s.wrong}: "${text}"`);
      assert.equal(await analysis.isVisible(), false, `${id}: still closed after a wrong choice`);
      assert.equal(await fig.getByRole("button", { name: s.wrong, exact: true }).getAttribute("aria-disabled"), "true");
      await fig.getByRole("button", { name: s.wrong, exact: true }).click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
      assert.equal(await fig.locator(".diagnose-verdict").count(), 1, `${id}: a choice counts once`);
      for (const m of MECHANISMS.filter((m) => m !== s.right && m !== s.wrong)) {
        await fig.getByRole("button", { name: m, exact: true }).click();
        const verdict = fig.locator(".diagnose-verdict").last();
        assert.match(
          await verdict.textContent(),
          new RegExp(`^Not ${m.toLowerCase()}\\. \\S.{30,}`),
          `${id}: why not ${m}`,
        );
      }
      assert.equal(
        new Set(await fig.locator(".diagnose-verdict").allTextContents()).size,
        5,
        `${id}: five different reasons`,
      );
      assert.equal(await analysis.isVisible(), false);
    }
    await fig.getByRole("button", { name: s.right, exact: true }).click();
    const right = fig.locator(".diagnose-verdict").last();
    assert.ok((await right.textContent()).startsWith(`Right: ${s.right.toLowerCase()}.`), id);
    assert.ok((await right.textContent()).includes(s.because), `${id}: why it fits`);
    assert.equal(await analysis.isVisible(), true, `${id}: the calculation opens`);
    for (const m of MECHANISMS)
      assert.equal(await fig.getByRole("button", { name: m, exact: true }).getAttribute("aria-disabled"), "true");
    // The reasons not yet read are one click away; none is left when every wrong one was tried.
    const others = fig.locator(".diagnose-others");
    if (k % 2 === 0) assert.equal(await others.isVisible(), false);
    else {
      await others.locator("summary").click();
      assert.equal(await others.locator("li").count(), 5, id);
      assert.ok((await others.textContent()).includes(s.why), `${id}: why not ${s.wrong}, among the others`);
    }
    const lines = await fig.locator(".diagnose-lines").textContent();
    const want = s.shows(await page.evaluate(s.expected));
    assert.ok(lines.includes(want), `${id}: "${lines}" shows "${want}"`);
    assert.equal(await fig.locator(".diagnose-analysis a").getAttribute("href"), `#${s.section}`);
    assert.equal(await page.locator(`section#${s.section}`).count(), 1);
    const score = `${Math.floor(k / 2) + (k % 2)} of ${k + 1} right first time.`;
    assert.match(await fig.locator(".diagnose-progress").textContent(), new RegExp(`${score}$`));
    if (k < order.length - 1) await fig.getByRole("button", { name: "Next scenario" }).click();
  }
  assert.equal(await fig.getByRole("button", { name: "Next scenario" }).isVisible(), false);
  assert.equal(
    await fig.locator(".diagnose-final").textContent(),
    "That was the last of the 12 scenarios: 6 of 12 right first time. Start again in a new order",
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("a wrong choice is told wrong and the right one right, for every scenario reached through the settings", async () => {
  // The same without clicking through: each scenario opened by its position, its right choice
  // and one wrong one set as picks.
  const { page } = await openFigure(browser.context, "diagnose");
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  const ids = {
    "Missing context": "missing-context",
    "Different sampled wording": "sampled-wording",
    "Positional relationships": "position",
    "Memory cost": "memory",
    Speed: "speed",
    "Numeric precision": "precision",
  };
  for (const [k, id] of order.entries()) {
    const s = SCENARIOS[id];
    const picks = [...Array(k).fill(""), `${ids[s.wrong]},${ids[s.right]}`].join("|");
    await fig.evaluate(
      (el, [pos, p]) => {
        el.setAttribute("scenario", pos);
        el.setAttribute("picks", p);
      },
      [String(k + 1), picks],
    );
    assert.equal(await titleOf(fig), s.title);
    const verdicts = await fig.locator(".diagnose-verdict").allTextContents();
    assert.equal(verdicts.length, 2, id);
    assert.ok(
      verdicts[0].startsWith(`Not ${s.wrong.toLowerCase()}.`) && verdicts[0].includes(s.why),
      `${id}: ${verdicts[0]}`,
    );
    assert.ok(
      verdicts[1].startsWith(`Right: ${s.right.toLowerCase()}.`) && verdicts[1].includes(s.because),
      `${id}: ${verdicts[1]}`,
    );
    assert.equal(await fig.locator(".diagnose-analysis").isVisible(), true);
    assert.match(await fig.locator(".diagnose-progress").textContent(), /0 of 1 right first time\.$/);
  }
  await page.close();
});

test("item 1: the position scenario's steepest and gentlest alibi heads are alibiHeads' extremes at 12 and 40 heads, not the first and the last", async () => {
  const { page } = await openFigure(browser.context, "diagnose");
  const fig = page.locator("#diagnose-figure");
  const k = (await fig.evaluate((el) => el.order)).indexOf("contract");
  await fig.evaluate((el, pos) => {
    el.setAttribute("scenario", pos);
    el.setAttribute("picks", `${"|".repeat(pos - 1)}position`);
  }, k + 1);
  const lines = fig.locator(".diagnose-lines");
  // 256·ln 2 tokens: the gentlest slope is 2^-8 whatever the head count (Press et al. 2022,
  // reference get_slopes); shown to 0.1 token as the page writes it.
  const gentlest = shown(256 * Math.LN2, 1);
  assert.equal(gentlest, "177.4");
  for (const [heads, steepHead, gentleHead, steepSlope] of [
    [12, 9, 8, 2 ** -0.5],
    [40, 33, 32, 2 ** -0.125],
    [16, 1, 16, 2 ** -0.5],
  ]) {
    await fig.getByLabel("attention heads").fill(String(heads));
    const core = await page.evaluate((h) => createLLMMath().then((m) => m.alibiHeads(h)), heads);
    assert.equal(core.steepest.head, steepHead);
    assert.equal(core.gentlest.head, gentleHead);
    assert.ok(Math.abs(core.steepest.slope - steepSlope) < 1e-15, `${heads} heads: steepest slope`); // a power of two, exact up to rounding
    const text = await lines.textContent();
    assert.ok(
      text.includes(
        `the steepest is head ${steepHead} (m = ${shown(steepSlope, 4)}): it halves a key's weight every ${shown(Math.LN2 / steepSlope, 2)} tokens.`,
      ),
      `${heads} heads: ${text}`,
    );
    assert.ok(
      text.includes(`The gentlest is head ${gentleHead} (m = 0.003906): it halves it every ${gentlest} tokens.`),
      `${heads} heads: ${text}`,
    );
    // What the page said before the fix: the last head's half-distance (7.8 at 12, 2.5 at 40).
    if (heads !== 16) assert.ok(!/every (7\.8|2\.5) tokens/.test(text), text);
  }
  await page.close();
});

test("item 5: the memory scenario serves Llama-3.1-8B, whose 131,072-token context allows 32k, and refuses more than that context", async () => {
  const { page } = await openFigure(browser.context, "diagnose");
  const fig = page.locator("#diagnose-figure");
  const k = (await fig.evaluate((el) => el.order)).indexOf("serving");
  await fig.evaluate((el, pos) => {
    el.setAttribute("scenario", pos);
    el.setAttribute("picks", `${"|".repeat(pos - 1)}memory`);
  }, k + 1);
  const story = await fig.locator(".diagnose-story").textContent();
  assert.match(
    story,
    /Llama-3\.1-8B \(32 layers, 32 query heads sharing 8 key–value heads of dimension 128; a context of up to 131,072 tokens\)/,
  );
  assert.match(story, /32,768 tokens/);
  assert.ok(!/Llama-3-8B/.test(story), "not Llama-3-8B, whose context is 8,192 tokens");
  const lines = fig.locator(".diagnose-lines");
  const full = await page.evaluate(() =>
    createLLMMath().then(
      (m) =>
        m.attentionCost({
          tokens: 131072,
          heads: 32,
          kvHeads: 8,
          headDim: 128,
          layers: 32,
          batch: 16,
          bytesPerValue: 2,
        }).kvBytes /
        2 ** 30,
    ),
  );
  assert.equal(full, 256); // 2·16·131072·8·128·32·2 bytes
  await fig.evaluate((el) => el.setAttribute("serving-tokens", "131072"));
  assert.match(await lines.textContent(), /· 16 · 131,072 · 8 · 128 · 32 layers · 2 bytes = 256 GiB/);
  await fig.evaluate((el) => el.setAttribute("serving-tokens", "131073"));
  assert.match(
    await fig.locator(".llm-notes").textContent(),
    /serving-tokens="131073" ignored: expected a whole number from 1 to 131072/,
  );
  assert.match(await lines.textContent(), /= 256 GiB/, "the last good value kept");
  // The other memory scenario stays within Llama-2-7B's 4,096 tokens.
  const limit = await fig.evaluate((el) => el.constructor.attributes.find((d) => d.name === "batch-tokens").max);
  assert.equal(limit, 4096);
  await page.close();
});

test("restart reshuffles: a new seed, a new order from its first scenario, no choices and no score; the same seed gives the same order", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const first = await fig.evaluate((el) => el.order);
  await fig.getByRole("button", { name: SCENARIOS[first[0]].right, exact: true }).click();
  await fig.getByRole("button", { name: "Next scenario" }).click();
  assert.match(await fig.locator(".diagnose-progress").textContent(), /^Scenario 2 of 12\. 1 of 1 right first time\.$/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "diagnose-figure");
  assert.equal(
    await fig.evaluate((el) => el.shadowRoot.activeElement?.className),
    "diagnose-title",
    "focus on the new scenario's title",
  );

  await fig.getByRole("button", { name: "Start again in a new order" }).first().click();
  const second = await fig.evaluate((el) => el.order);
  assert.notDeepEqual(second, first, "a new order");
  assert.deepEqual([...second].sort(), [...first].sort(), "the same scenarios");
  assert.deepEqual(await fig.evaluate((el) => [el.state.seed, el.state.scenario, el.state.picks]), [2, 1, []]);
  assert.equal(await titleOf(fig), SCENARIOS[second[0]].title);
  assert.match(await fig.locator(".diagnose-progress").textContent(), /^Scenario 1 of 12\. No answers yet\.$/);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 0);
  assert.equal(await fig.locator(".diagnose-analysis").isVisible(), false);
  assert.deepEqual(await fig.evaluate((el) => el.settings("attributes")), [["seed", "2"]]);

  // Back to seed 1 through the attribute: the first order again; seed 5 yet another one.
  await fig.evaluate((el) => el.setAttribute("seed", "1"));
  assert.deepEqual(await fig.evaluate((el) => el.order), first);
  await fig.evaluate((el) => el.setAttribute("seed", "5"));
  const fifth = await fig.evaluate((el) => el.order);
  assert.notDeepEqual(fifth, first);
  assert.equal(await titleOf(fig), SCENARIOS[fifth[0]].title);
  await page.close();
});

test("every declared attribute set on the live element redraws the figure; bad values show a note and change nothing", async () => {
  const { page, errors } = await openFigure(browser.context, "diagnose");
  const fig = page.locator("#diagnose-figure");
  const lines = fig.locator(".diagnose-lines");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const removeAttr = (name) => fig.evaluate((el, n) => el.removeAttribute(n), name);
  const order = await fig.evaluate((el) => el.order);
  const decls = await fig.evaluate((el) =>
    el.constructor.attributes.map(({ name, type, min, max, default: d }) => ({ name, type, min, max, d })),
  );
  assert.deepEqual(
    decls.slice(0, 3).map((d) => d.name),
    ["seed", "scenario", "picks"],
  );

  // Every scenario input: "<scenario id>-<input>", a non-default value (half-way to a bound)
  // shows in its field, redraws the calculation, is the embed code's setting, and when removed
  // the default comes back.
  const inputs = decls.slice(3);
  assert.equal(inputs.length, 38);
  for (const d of inputs) {
    const id = order.filter((s) => d.name.startsWith(`${s}-`)).sort((a, b) => b.length - a.length)[0];
    assert.ok(id, d.name);
    const k = order.indexOf(id) + 1;
    await setAttr("scenario", String(k));
    const before = await lines.textContent();
    const half = d.d < d.max ? (d.d + d.max) / 2 : (d.d + d.min) / 2;
    const value = String(d.type === "integer" ? Math.round(half) : half);
    assert.notEqual(value, String(d.d), d.name);
    await setAttr(d.name, value);
    const text = await lines.textContent();
    assert.notEqual(text, before, `${d.name}="${value}": redrawn`);
    assert.equal(await fig.locator(".llm-status").textContent(), "", `${d.name}="${value}": no error`);
    const field = await fig.evaluate((el) =>
      [...el.shadowRoot.querySelectorAll(".diagnose-inputs input")].map((i) => i.value),
    );
    assert.ok(field.includes(value), `${d.name}: its field shows ${value} (${field})`);
    assert.deepEqual(
      await fig.evaluate((el) => el.settings("defaults")),
      [
        ["scenario", String(k)],
        [d.name, value],
      ].filter(([n]) => n !== "scenario" || k !== 1),
      d.name,
    );
    await removeAttr(d.name);
    assert.equal(await lines.textContent(), before, `${d.name} removed: back to the default`);
  }
  await removeAttr("scenario");

  // picks: the verdicts follow; unknown mechanisms, repeats and choices after the right one are
  // dropped with a note naming the attribute.
  const notes = fig.locator(".llm-notes");
  const firstRight = {
    "missing-context": ["refund-policy", "warranty"],
    "sampled-wording": ["treaty", "eiffel"],
    position: ["contract", "long-report"],
    memory: ["serving", "batch"],
    speed: ["slow-chat", "slow-draft"],
    precision: ["outlier", "four-bit"],
  };
  const rightId = Object.keys(firstRight).find((m) => firstRight[m].includes(order[0]));
  const [wrongId, laterId] = Object.keys(firstRight).filter((m) => m !== rightId);
  await setAttr("picks", `${wrongId},${wrongId},constructor,${rightId},${laterId}`);
  assert.ok(
    (await notes.textContent()).includes(
      `picks: “${wrongId}”, “constructor”, “${laterId}” ignored: expected mechanisms among missing-context, `,
    ),
    await notes.textContent(),
  );
  assert.deepEqual(await fig.evaluate((el) => el.state.picks), [`${wrongId},${rightId}`]);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 2);
  assert.equal(await fig.locator(".diagnose-analysis").isVisible(), true);
  await removeAttr("picks");
  assert.equal(await fig.locator(".diagnose-verdict").count(), 0);
  assert.equal(await fig.locator(".diagnose-analysis").isVisible(), false);

  // Out-of-range or malformed values: refused with a note; the scenario and numbers stay.
  const title = await titleOf(fig);
  for (const [name, value, why] of [
    ["seed", "-1", "a whole number from 0 to 4294967295"],
    ["seed", "1.5", "a whole number"],
    ["scenario", "13", "a whole number from 1 to 12"],
    ["scenario", "constructor", "a whole number"],
    ["picks", "a|b|c|d|e|f|g|h|i|j|k|l|m", "1 to 12 labels"],
    ["contract-heads", "65", "a whole number from 1 to 64"],
    ["slow-chat-alpha", "1.5", "a number from 0 to 1"],
  ]) {
    await setAttr(name, value);
    assert.equal(await notes.isVisible(), true, name);
    assert.ok(
      (await notes.textContent()).includes(`${name}="${value}" ignored: expected ${why}`),
      `${name}="${value}": ${await notes.textContent()}`,
    );
    assert.equal(await titleOf(fig), title);
  }

  // A new element with bad attributes shows the notes and the first scenario of the default order.
  const fresh = await page.evaluate(async () => {
    const el = document.createElement("llm-diagnose");
    el.setAttribute("scenario", "__proto__");
    el.setAttribute("picks", "<img src=x>");
    document.getElementById("diagnose-figure").after(el);
    await el.ready;
    const root = el.shadowRoot;
    const out = {
      notes: root.querySelector(".llm-notes").textContent,
      hidden: root.querySelector(".llm-notes").hidden,
      title: root.querySelector(".diagnose-title").textContent,
      images: root.querySelectorAll("img").length,
    };
    el.remove();
    return out;
  });
  assert.equal(fresh.hidden, false);
  assert.match(fresh.notes, /scenario="__proto__" ignored/);
  assert.match(fresh.notes, /picks: “<img src=x>” ignored/);
  assert.equal(fresh.title, SCENARIOS[order[0]].title);
  assert.equal(fresh.images, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the reader's place, choices and inputs are in the page's address, and opening that address shows the same", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  await fig.getByRole("button", { name: SCENARIOS[order[0]].wrong, exact: true }).click();
  await fig.getByRole("button", { name: SCENARIOS[order[0]].right, exact: true }).click();
  await fig.getByRole("button", { name: "Next scenario" }).click();
  await fig.getByRole("button", { name: SCENARIOS[order[1]].right, exact: true }).click();
  await fig.locator(".diagnose-inputs input").first().fill("3");
  const seen = {
    title: await titleOf(fig),
    progress: await fig.locator(".diagnose-progress").textContent(),
    verdicts: await fig.locator(".diagnose-verdict").allTextContents(),
    lines: await fig.locator(".diagnose-lines").textContent(),
  };
  // The reader writes the address a moment after the last change: wait for the input's value.
  await page.waitForFunction((id) => new RegExp(`diagnose\\.${id}-[a-z-]+=3(&|$)`).test(location.hash), order[1]);
  const hash = await page.evaluate(() => location.hash);
  assert.match(decodeURIComponent(hash), /diagnose\.scenario=2/);
  await page.close();

  const again = (await openReader(browser.context, { hash })).page;
  const fig2 = again.locator("#diagnose-figure");
  assert.equal(await titleOf(fig2), seen.title);
  assert.equal(await fig2.locator(".diagnose-progress").textContent(), seen.progress);
  assert.match(seen.progress, /^Scenario 2 of 12\. 1 of 2 right first time\.$/);
  assert.deepEqual(await fig2.locator(".diagnose-verdict").allTextContents(), seen.verdicts);
  assert.equal(await fig2.locator(".diagnose-analysis").isVisible(), true);
  assert.equal(await fig2.locator(".diagnose-lines").textContent(), seen.lines);
  assert.equal(await fig2.locator(".diagnose-inputs input").first().inputValue(), "3");
  assert.equal(await fig2.locator(".llm-notes").isVisible(), false);
  await again.close();
});

test("axe-core finds no accessibility violation in the figure with wrong and right choices shown", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  await fig.getByRole("button", { name: SCENARIOS[order[0]].wrong, exact: true }).click();
  await fig.getByRole("button", { name: SCENARIOS[order[0]].right, exact: true }).click();
  await fig.locator(".diagnose-others summary").click();
  await page.evaluate(fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"));
  const violations = await page.evaluate(() =>
    axe
      .run(document.getElementById("diagnose"), {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "best-practice"] },
        resultTypes: ["violations"],
      })
      .then((r) => r.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes[0].target.join(" ")}`)),
  );
  assert.deepEqual(violations, []);
  await page.close();
});
