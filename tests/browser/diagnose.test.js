// Section 9 [diagnose]: a scenario first, the reader chooses the mechanism, wrong choices are
// explained, the right one opens the calculation computed by the core and the question of the
// assumption that matters, whose right answer opens the question of the check; a seeded
// shuffled order that restarts, a score of steps, and settings that reproduce all of it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { useBrowser, openReader, openFigure, shown } = require("./browser.js");

const browser = useBrowser(test);

/** A real model's committed config.json (data/models/), as text. */
const configText = (id) => fs.readFileSync(path.join(__dirname, "..", "..", "data", "models", `${id}.json`), "utf8");

const MECHANISMS = [
  "Missing context",
  "Different sampled wording",
  "Positional relationships",
  "Memory cost",
  "Speed",
  "Numeric precision",
];

// Every scenario as the test expects it, independently of site/scenarios/: its title, the
// right mechanism, a phrase of the explanation, one wrong mechanism with a phrase of why it does
// not fit (specific to the story), the section linked, the number the calculation must show
// with the story's inputs, computed by the core in the page (rounded as the page writes it), and
// for the assumption (assume) and the check: the right choice's number in the list and a phrase
// of its text, a wrong one's number and a phrase of why it is not the one. A scenario about a
// real model is computed from the model's committed config.json, handed to `expected` as `arg`.
const SCENARIOS = {
  "refund-policy": {
    assume: { right: [2, "Other tokens score alike"], wrong: [1, "holds head by head"] },
    check: { right: [3, "Cut the manual to its pages on returns"], wrong: [1, "not that it is right"] },
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
    assume: { right: [1, "just below the X200's"], wrong: [3, "not in their ranking"] },
    check: { right: [3, "keep the top 4 passages"], wrong: [1, "more repeatable"] },
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
    assume: { right: [3, "scores the two years close together"], wrong: [1, "same shares in the long run"] },
    check: { right: [1, "Look the year up in a source"], wrong: [2, "It verifies nothing"] },
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
    assume: {
      right: [3, "changes how often each year comes out, not their order"],
      wrong: [2, "why the games disagreed"],
    },
    check: { right: [2, "Check the year in a reliable source"], wrong: [1, "no more verification"] },
    title: "The quiz that agreed with itself",
    right: "Different sampled wording",
    because: "which year the model ranks first, not which is true",
    wrong: "Missing context",
    why: "only the temperature changed",
    section: "sampling",
    expected: async () => (await createLLMMath()).sampling({ logits: [2, 1.7, 0.4] }, { temperature: 1 }).probs[1],
    shows: (p) => `P(1889) = ${shown(p * 100, 1)}%`,
  },
  contract: {
    assume: {
      right: [2, "matches as well 3,000 tokens back as beside clause 14"],
      wrong: [1, "whatever the number of heads"],
    },
    check: { right: [3, "Restate each definition beside the clauses"], wrong: [1, "could not say which mattered"] },
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
    assume: {
      right: [3, "angles past 4,096 tokens were never trained"],
      wrong: [1, "a remedy rather than a doubt"],
    },
    check: { right: [1, "Move one fact 1,000, 4,000 and 8,000 tokens back"], wrong: [3, "only the far ones fail"] },
    title: "Past the trained length",
    right: "Positional relationships",
    because: "no offset exceeded 4,096 tokens",
    wrong: "Missing context",
    why: "they set in for facts about 4,000 tokens back",
    section: "rope",
    expected: async () => {
      const unit = Array.from({ length: 128 }, (_, i) => (i === 0 ? 1 : 0));
      return (await createLLMMath()).rope(unit, unit, 12000, 0, { base: 10000 }).angles[63][0];
    },
    shows: (a) => `At 12,000 tokens back it turns ${shown(a, 3)} radians.`,
  },
  "header-line": {
    assume: { right: [1, "only through the 10 full layers"], wrong: [2, "not why one answer is wrong"] },
    check: {
      right: [2, "Move the line 500, 5,000, 50,000 and 100,000 tokens back"],
      wrong: [3, "not which layers reach the header"],
    },
    title: "The line in the log's header",
    right: "Positional relationships",
    because: "within reach of the 10 full layers only",
    wrong: "Memory cost",
    why: "is why it fits",
    section: "cost",
    arg: configText("gemma-3-27b"),
    expected: async (text) => {
      const m = await createLLMMath();
      return m.modelCost(m.modelFromConfigText(text), { tokens: 120000 }).kvBytes / 2 ** 30;
    },
    shows: (gib) => `; in all ${shown(gib, 2)} GiB.`,
  },
  serving: {
    assume: { right: [2, "All twenty conversations are held in full at once"], wrong: [1, "fills the card"] },
    check: { right: [3, "Compute the cache for 20 × 32,768 tokens"], wrong: [2, "well within 131,072 already"] },
    title: "Twenty users at 32k",
    right: "Memory cost",
    because: "a cache as large as the whole card",
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
        batch: 20,
        kvBytesPerElement: 2,
      }).kvBytes /
      2 ** 30,
    shows: (gib) => `KV cache = 2 · 20 · 32,768 · 8 · 128 · 32 layers · 2 bytes = ${gib} GiB`,
  },
  batch: {
    assume: {
      right: [3, "All eight sequences reach 4,096 tokens at once"],
      wrong: [1, "the number of users, which the cache follows"],
    },
    check: { right: [1, "Compute the cache for 8 full sequences"], wrong: [2, "one user needs an eighth"] },
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
        kvBytesPerElement: 2,
      }).kvBytes /
      2 ** 30,
    shows: (gib) => `KV cache = 2 · 8 · 4,096 · 32 · 128 · 32 layers · 2 bytes = ${gib} GiB`,
  },
  "research-script": {
    assume: {
      right: [4, "caches every head's keys and values; the engine, the latent"],
      wrong: [1, "rule out a difference"],
    },
    check: { right: [4, "Measure the GPUs' growth per token"], wrong: [2, "Twice the weights leave less room"] },
    title: "The same weights in a research script",
    right: "Memory cost",
    because: "dozens of times as many bytes per token",
    wrong: "Positional relationships",
    why: "well within the model's window of 163,840",
    section: "cost",
    arg: configText("deepseek-v3"),
    expected: async (text) => {
      const m = await createLLMMath();
      return m.modelCost(m.modelFromConfigText(text), { tokens: 1, mlaCache: "expanded" }).kvBytesPerToken / 2 ** 20;
    },
    shows: (mib) => `· 2 bytes = ${shown(mib, 2)} MiB per token.`,
  },
  "slow-chat": {
    assume: { right: [3, "accepts 60% of the small one's tokens"], wrong: [1, "the premise of the method"] },
    check: {
      right: [2, "Measure the acceptance rate on real prompts"],
      wrong: [1, "quality says nothing about the time"],
    },
    title: "Twelve tokens a second",
    right: "Speed",
    because: "one full large-model call",
    wrong: "Memory cost",
    why: "Nothing fails and the GPUs have room to spare",
    section: "speculative",
    expected: async () =>
      (await createLLMMath()).speculativeDecoding({ alpha: 0.6, gamma: 4, costRatio: 0.05 }).speedup,
    shows: (x) => `= ${shown(x, 3)}×`,
  },
  "slow-draft": {
    assume: { right: [2, "accepts 30% of proposals"], wrong: [3, "a requirement of the method"] },
    check: { right: [3, "Try γ of 1 or 2, or a cheaper helper"], wrong: [1, "the improvement falls further"] },
    title: "A helper in front of the model",
    right: "Speed",
    because: "At α = 0.3 few drafts survive",
    wrong: "Numeric precision",
    why: "the draft's quality shows up in the acceptance rate",
    section: "speculative",
    expected: async () =>
      (await createLLMMath()).speculativeDecoding({ alpha: 0.3, gamma: 8, costRatio: 0.25 }).speedup,
    shows: (x) => `= ${shown(x, 3)}×`,
  },
  "all-at-once": {
    assume: { right: [2, "go to the experts evenly"], wrong: [1, "waits on the reading either way"] },
    check: { right: [2, "Count the experts read per step"], wrong: [3, "the smaller part of what a step reads"] },
    title: "Thirty-two at once",
    right: "Speed",
    because: "touch most of them, so a step reads nearly all the weights",
    wrong: "Memory cost",
    why: "holds the weights and all 32 sessions with room to spare",
    section: "cost",
    arg: configText("qwen3-coder-30b-a3b"),
    // The step of all 32 by the core at the story's inputs, on one H100 SXM (81,559 MiB as its
    // driver reports it, 3,350 GB/s, 989 TFLOPS): the tokens a second of all of them together.
    expected: async (text) => {
      const m = await createLLMMath();
      return m.modelCost(m.modelFromConfigText(text), {
        tokens: 4096,
        batch: 32,
        devices: {
          count: 1,
          memoryBytes: 81559 * 2 ** 20,
          bandwidthBytesPerSecond: 3350e9,
          flopsPerSecond: 989e12,
        },
      }).decode.tokensPerSecond;
    },
    shows: (x) => `at most ${Math.round(x).toLocaleString("en-GB")} tokens a second for all 32 together`,
  },
  outlier: {
    assume: { right: [1, "One scale for the whole tensor"], wrong: [2, "under any of them"] },
    check: { right: [3, "give the loud channel its own scale"], wrong: [1, "not better ones"] },
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
    assume: { right: [3, "One scale for the whole row"], wrong: [1, "does not decide the cause"] },
    check: { right: [1, "try per-group scales at half a byte"], wrong: [3, "the answers are the complaint"] },
    title: "A model for a smaller card",
    right: "Numeric precision",
    because: "the largest weight sets the scale Δ",
    wrong: "Memory cost",
    why: "The smaller model fits and runs",
    section: "quantization",
    expected: async () => (await createLLMMath()).quantize([0.9, 0.04, -0.03, 0.02, -0.01], { bits: 4 }).scale,
    shows: (scale) => `at 4 bits: levels −7 … 7, scale Δ ${shown(scale, 4)},`,
  },
};

const titleOf = (fig) => fig.locator(".diagnose-title").textContent();
/** Step n after the mechanism (0: the assumption, 1: the check): its fieldset. */
const stepOf = (fig, n) => fig.locator(".diagnose-step").nth(n);
const PROMPTS = [
  [
    "assume",
    "Which assumption matters most here?",
    "Right: this is the one the conclusion rests on.",
    "Not the one that matters most.",
  ],
  ["check", "Which check would tell you?", "Right: this check would tell you.", "Not this check."],
];

// The figure alone (embed.html?widget=diagnose), one page for the file's tests that need no more:
// opened by the first, closed with the browser. Each later test gets a new element in the old
// one's place (its state, attributes and choices its own) and the page's errors from then on.
let shared = null;
async function figure() {
  if (!shared) return (shared = await openFigure(browser.context, "diagnose"));
  await shared.page.evaluate(async () => {
    const old = document.getElementById("diagnose-figure");
    const el = document.createElement(old.localName);
    el.id = old.id;
    old.replaceWith(el);
    await el.ready;
  });
  shared.errors.length = 0;
  return shared;
}

/** Chooses the right assumption and then the right check of scenario `s`, by clicking. */
async function reason(fig, s) {
  for (const [n, [key]] of PROMPTS.entries())
    await stepOf(fig, n)
      .locator("button")
      .nth(s[key].right[0] - 1)
      .click();
}

// Which first choices are wrong at position k (0-based) of the walk through the scenarios: the
// mechanism at even positions, the assumption at multiples of 3, the check at k ≡ 1 (mod 4),
// so that every combination of right and wrong first choices comes up.
const wrongFirst = (k) => [k % 2 === 0, k % 3 === 0, k % 4 === 1];

test("every scenario in three steps: a wrong choice is explained and keeps the next step closed; the right mechanism opens the calculation with the core's numbers and the assumptions, the right assumption the checks; the score counts every step's first choice", async () => {
  const { page, errors } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  assert.deepEqual([...order].sort(), Object.keys(SCENARIOS).sort(), "every scenario in the order, once");
  // At least two scenarios for every mechanism.
  for (const m of MECHANISMS) assert.ok(Object.values(SCENARIOS).filter((s) => s.right === m).length >= 2, m);

  const feedback = fig.locator(".diagnose-feedback").first();
  const analysis = fig.locator(".diagnose-analysis");
  const next = fig.getByRole("button", { name: "Next scenario" });
  let right = 0;
  for (const [k, id] of order.entries()) {
    const s = SCENARIOS[id];
    const wrong = wrongFirst(k);
    assert.equal(await titleOf(fig), s.title, `position ${k + 1}`);
    assert.match(await fig.locator(".diagnose-progress").textContent(), new RegExp(`^Scenario ${k + 1} of 15\\.`));
    assert.equal(await analysis.isVisible(), false, `${id}: closed before a choice`);
    assert.equal(await stepOf(fig, 0).isVisible(), false, `${id}: no assumption asked before the mechanism`);
    if (wrong[0]) {
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
    const verdict = fig.locator(".diagnose-verdict").last();
    assert.ok((await verdict.textContent()).startsWith(`Right: ${s.right.toLowerCase()}.`), id);
    assert.ok((await verdict.textContent()).includes(s.because), `${id}: why it fits`);
    assert.equal(await analysis.isVisible(), true, `${id}: the calculation opens`);
    for (const m of MECHANISMS)
      assert.equal(await fig.getByRole("button", { name: m, exact: true }).getAttribute("aria-disabled"), "true");
    // The reasons not yet read are one click away; none is left when every wrong one was tried.
    const others = fig.locator(".diagnose-others");
    if (wrong[0]) assert.equal(await others.isVisible(), false);
    else {
      await others.locator("summary").click();
      assert.equal(await others.locator("li").count(), 5, id);
      assert.ok((await others.textContent()).includes(s.why), `${id}: why not ${s.wrong}, among the others`);
    }
    const lines = await fig.locator(".diagnose-lines").textContent();
    const want = s.shows(await page.evaluate(s.expected, s.arg));
    assert.ok(lines.includes(want), `${id}: "${lines}" shows "${want}"`);

    // The assumption, then the check: each step opens only once the one before is right, a wrong
    // choice is struck out and explained, and the right one is explained.
    for (const [n, [key, question, yes, no]] of PROMPTS.entries()) {
      const step = stepOf(fig, n);
      assert.equal(await step.isVisible(), true, `${id}: ${key} asked`);
      assert.equal(await step.locator("legend").textContent(), `${n + 2}. ${question}`);
      if (n + 1 < PROMPTS.length)
        assert.equal(await stepOf(fig, n + 1).isVisible(), false, `${id}: one step at a time`);
      assert.equal(await fig.locator(".diagnose-section").isVisible(), false, `${id}: ${key}: not done yet`);
      assert.equal(await next.isVisible(), false, `${id}: ${key}: no next scenario yet`);
      const buttons = step.locator("button");
      const count = await buttons.count();
      assert.ok(count >= 3 && count <= 4, `${id}: ${key}: ${count} choices`);
      const [r, rightPhrase] = s[key].right;
      const [w, whyPhrase] = s[key].wrong;
      assert.ok((await buttons.nth(r - 1).textContent()).includes(rightPhrase), `${id}: ${key} ${r}`);
      if (wrong[n + 1]) {
        await buttons.nth(w - 1).click();
        const said = await step.locator(".diagnose-verdict").last().textContent();
        assert.ok(said.startsWith(no) && said.includes(whyPhrase), `${id}: ${key}: "${said}"`);
        assert.equal(await buttons.nth(w - 1).getAttribute("aria-disabled"), "true");
        assert.match(await buttons.nth(w - 1).getAttribute("class"), /diagnose-no/);
        if (n + 1 < PROMPTS.length) assert.equal(await stepOf(fig, n + 1).isVisible(), false, `${id}: wrong ${key}`);
        else assert.equal(await next.isVisible(), false, `${id}: wrong ${key}`);
      }
      // By keyboard: the choice is a button, focused and pressed.
      await buttons.nth(r - 1).focus();
      await page.keyboard.press(n === 0 ? "Enter" : "Space");
      const said = await step.locator(".diagnose-verdict").last().textContent();
      assert.ok(said.startsWith(yes) && said.length > yes.length + 30, `${id}: ${key}: "${said}"`);
      assert.equal(await step.locator(".diagnose-verdict").count(), wrong[n + 1] ? 2 : 1, `${id}: ${key}`);
      for (let i = 0; i < count; i += 1) assert.equal(await buttons.nth(i).getAttribute("aria-disabled"), "true");
    }
    assert.equal(await fig.locator(".diagnose-section a").getAttribute("href"), `#${s.section}`);
    assert.equal(await fig.locator(".diagnose-section").isVisible(), true);
    assert.equal(await page.locator(`section#${s.section}`).count(), 1);
    right += wrong.filter((x) => !x).length;
    const score = `${right} of ${3 * (k + 1)} steps right at the first try.`;
    assert.match(await fig.locator(".diagnose-progress").textContent(), new RegExp(`${score}$`));
    if (k < order.length - 1) await next.click();
  }
  assert.equal(await next.isVisible(), false);
  assert.equal(right, 28); // of 15 first choices in the walk, 7 mechanisms, 10 assumptions and 11 checks right
  assert.equal(
    await fig.locator(".diagnose-final").textContent(),
    "That was the last of the 15 scenarios: 28 of 45 steps right at the first try. Start again in a new order",
  );
  // The page's progress (progress.js) counts the same; Figure 9.1 alone, given these choices (the
  // progress's settings, as a learning platform gives them back), is complete: every step answered.
  const told = await page.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual(
    { ...told.diagnosis, settings: undefined },
    { right: 28, answered: 45, total: 45, settings: undefined },
  );
  assert.equal(told.complete, false, "the chapter's exercises are not done");
  const alone = await figure();
  await alone.page.evaluate(
    (detail) => document.dispatchEvent(new CustomEvent("llm-progress-restore", { detail })),
    JSON.stringify({ version: 1, exercises: {}, diagnosis: told.diagnosis }),
  );
  await alone.page.waitForFunction(() => JSON.parse(document.documentElement.dataset.progress).complete === true);
  const aloneTold = await alone.page.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual(aloneTold.score, { raw: 28, max: 45 });
  assert.deepEqual(alone.errors, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a wrong choice is told wrong and the right one right at every step, for every scenario reached through the settings", async () => {
  // The same without clicking through: each scenario opened by its position, its right choices
  // and one wrong one before each set as picks, assumptions and checks.
  const { page } = await figure();
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
    const at = (entry) => [...Array(k).fill(""), entry].join("|");
    await fig.evaluate(
      (el, [pos, picks, assumptions, checks]) => {
        el.setAttribute("scenario", pos);
        el.setAttribute("picks", picks);
        el.setAttribute("assumptions", assumptions);
        el.setAttribute("checks", checks);
      },
      [
        String(k + 1),
        at(`${ids[s.wrong]},${ids[s.right]}`),
        at(`${s.assume.wrong[0]},${s.assume.right[0]}`),
        at(`${s.check.wrong[0]},${s.check.right[0]}`),
      ],
    );
    assert.equal(await titleOf(fig), s.title);
    const verdicts = await fig.locator(".diagnose-verdict").allTextContents();
    assert.equal(verdicts.length, 6, id);
    assert.ok(
      verdicts[0].startsWith(`Not ${s.wrong.toLowerCase()}.`) && verdicts[0].includes(s.why),
      `${id}: ${verdicts[0]}`,
    );
    assert.ok(
      verdicts[1].startsWith(`Right: ${s.right.toLowerCase()}.`) && verdicts[1].includes(s.because),
      `${id}: ${verdicts[1]}`,
    );
    for (const [n, [key, , yes, no]] of PROMPTS.entries()) {
      const [wrong, right] = verdicts.slice(2 + 2 * n, 4 + 2 * n);
      assert.ok(wrong.startsWith(no) && wrong.includes(s[key].wrong[1]), `${id}: ${key}: ${wrong}`);
      assert.ok(right.startsWith(yes), `${id}: ${key}: ${right}`);
    }
    assert.equal(await fig.locator(".diagnose-analysis").isVisible(), true);
    assert.match(await fig.locator(".diagnose-progress").textContent(), /0 of 3 steps right at the first try\.$/);
    assert.equal(await fig.locator(".llm-notes").isVisible(), false, id);
  }
});

test("the position scenario's steepest and gentlest alibi heads are alibiHeads' extremes at 12 and 40 heads, not the first and the last", async () => {
  const { page } = await figure();
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
});

test("the memory scenario serves Llama-3.1-8B, whose 131,072-token context allows 32k, to 20 users, whose cache alone fills the card, and refuses more than that context", async () => {
  const { page } = await figure();
  const fig = page.locator("#diagnose-figure");
  const k = (await fig.evaluate((el) => el.order)).indexOf("serving");
  await fig.evaluate((el, pos) => {
    el.setAttribute("scenario", pos);
    el.setAttribute("picks", `${"|".repeat(pos - 1)}memory`);
  }, k + 1);
  const story = await fig.locator(".diagnose-story").textContent();
  assert.match(
    story,
    /Llama-3\.1-8B \(32 layers, 32 query heads sharing 8 key–value heads of dimension 128; a window of up to 131,072 tokens\)/,
  );
  assert.match(story, /one 80 GB GPU, two bytes per number; the weights take about 16 GB\./);
  assert.match(story, /When 20 users each send about 32,768 tokens/);
  assert.ok(!/Llama-3-8B/.test(story), "not Llama-3-8B, whose context is 8,192 tokens");
  const lines = fig.locator(".diagnose-lines");
  // Why 20 users: read generously, an "80 GB" card holds 80 GiB. Sixteen users' cache, 64 GiB,
  // fits beside 16 GB of weights by a hair, so the story's failure would be the activations;
  // twenty users' cache, 80 GiB, fills the card by itself, and the calculation shows it.
  const cache = (batch) =>
    page.evaluate(
      (batch) =>
        createLLMMath().then(
          (m) =>
            m.attentionCost({
              tokens: 32768,
              heads: 32,
              kvHeads: 8,
              headDim: 128,
              layers: 32,
              batch,
              kvBytesPerElement: 2,
            }).kvBytes,
        ),
      batch,
    );
  const card = 80 * 2 ** 30;
  assert.ok((await cache(16)) + 16e9 < card, "16 users would fit");
  assert.ok((await cache(20)) >= card, "20 users' cache fills the card");
  assert.match(await lines.textContent(), /· 20 · 32,768 · 8 · 128 · 32 layers · 2 bytes = 80 GiB/);
  const full = await page.evaluate(() =>
    createLLMMath().then(
      (m) =>
        m.attentionCost({
          tokens: 131072,
          heads: 32,
          kvHeads: 8,
          headDim: 128,
          layers: 32,
          batch: 20,
          kvBytesPerElement: 2,
        }).kvBytes /
        2 ** 30,
    ),
  );
  assert.equal(full, 320); // 2·20·131072·8·128·32·2 bytes
  await fig.evaluate((el) => el.setAttribute("serving-tokens", "131072"));
  assert.match(await lines.textContent(), /· 20 · 131,072 · 8 · 128 · 32 layers · 2 bytes = 320 GiB/);
  await fig.evaluate((el) => el.setAttribute("serving-tokens", "131073"));
  assert.match(
    await fig.locator(".llm-notes").textContent(),
    /serving-tokens="131073" ignored: expected a whole number from 1 to 131072/,
  );
  assert.match(await lines.textContent(), /= 320 GiB/, "the last good value kept");
  // The other memory scenario stays within Llama-2-7B's 4,096 tokens.
  const limit = await fig.evaluate((el) => el.constructor.attributes.find((d) => d.name === "batch-tokens").max);
  assert.equal(limit, 4096);
});

/** Opens scenario `id` of the figure with its mechanism found; returns its calculation's lines. */
async function openSolved(fig, id) {
  const k = (await fig.evaluate((el) => el.order)).indexOf(id);
  assert.ok(k >= 0, id);
  await fig.evaluate(
    (el, [pos, mechanism]) => {
      el.setAttribute("scenario", pos);
      el.setAttribute("picks", `${"|".repeat(pos - 1)}${mechanism}`);
    },
    [k + 1, { "header-line": "position", "research-script": "memory" }[id]],
  );
  return fig.locator(".diagnose-lines");
}

test("the sliding-window scenario is Gemma 3 27B as its config.json says: its 52 sliding layers of 1,024 tokens make the log fit, and a line more than 1,024 tokens back is seen by the 10 full layers only", async () => {
  const { page, errors } = await figure();
  const fig = page.locator("#diagnose-figure");
  const lines = await openSolved(fig, "header-line");
  // The figure reads the committed file itself, not a shape typed by hand.
  const text = configText("gemma-3-27b");
  assert.deepEqual(await fig.evaluate((el) => el.result.configs), { "gemma-3-27b": text });
  const story = await fig.locator(".diagnose-story").textContent();
  assert.match(story, /Gemma 3 27B \(62 layers; a window of 131,072 tokens\), two bytes per number, on one 80 GB GPU/);
  assert.match(story, /a whole 120,000-token log fits on that card beside its weights/);
  assert.match(story, /about 100,000 tokens before the question/);
  // What the story and the reasons say of the model, from the core's reading of the file.
  const core = await page.evaluate(async (text) => {
    const m = await createLLMMath();
    const shape = m.modelFromConfigText(text);
    const opts = { tokens: 120000, memoryBytes: 80 * 2 ** 30 };
    const every = { ...shape, layerKinds: shape.layerKinds.map(() => "full") };
    return {
      layers: shape.layers,
      sliding: shape.layerKinds.filter((k) => k === "sliding").length,
      window: shape.window,
      maxContext: shape.maxContext,
      fits: m.modelCost(shape, opts).fit.maxTokens,
      fitsFull: m.modelCost(every, opts).fit.maxTokens,
      kv: m.modelCost(shape, opts).kvBytes,
    };
  }, text);
  assert.deepEqual([core.layers, core.sliding, core.window, core.maxContext], [62, 52, 1024, 131072]);
  assert.ok(core.fits >= 120000, "the windowed model fits the log beside its weights");
  assert.ok(core.fitsFull < 120000, "every layer holding every token, it would not");
  const said = await lines.textContent();
  assert.ok(
    said.includes("62 layers; 52 sliding layers hold the last 1,024 tokens, 10 full layers every token;"),
    said,
  );
  assert.ok(said.includes(`in all ${shown(core.kv / 2 ** 30, 2)} GiB`), said);
  assert.ok(
    said.includes(
      `fits a log of up to ${core.fits.toLocaleString("en")} tokens; with every layer holding every token, up to ${core.fitsFull.toLocaleString("en")}.`,
    ),
    said,
  );
  // Which layers see the line: the sliding ones only while it is within their 1,024 tokens.
  for (const [back, sliding] of [
    [100000, "so none of the 52 sliding layers does."],
    [1025, "so none of the 52 sliding layers does."],
    [1024, "so the 52 sliding layers see it too."],
    [1, "so the 52 sliding layers see it too."],
  ]) {
    await fig.evaluate((el, b) => el.setAttribute("header-line-back", String(b)), back);
    const t = await lines.textContent();
    const n = back.toLocaleString("en");
    assert.ok(
      t.includes(
        `A line ${n} tokens from the end: each full layer holds the last ${n} tokens, so all 10 full layers see it;`,
      ),
      t,
    );
    assert.ok(
      t.includes(`each sliding layer holds the last ${Math.min(back, 1024).toLocaleString("en")}, ${sliding}`),
      `${back}: ${t}`,
    );
  }
  assert.deepEqual(errors, []);
});

test("the latent scenario is DeepSeek-V3 as its config.json says: its latent cache fits forty sessions where its rebuilt keys and values do not fit one, and is smaller per token than grouped-query Llama 3.1 8B's", async () => {
  const { page, errors } = await figure();
  const fig = page.locator("#diagnose-figure");
  const lines = await openSolved(fig, "research-script");
  const texts = { "deepseek-v3": configText("deepseek-v3"), "llama-3.1-8b": configText("llama-3.1-8b") };
  assert.deepEqual(await fig.evaluate((el) => el.result.configs), texts);
  const story = await fig.locator(".diagnose-story").textContent();
  assert.match(story, /DeepSeek-V3 \(61 layers, 128 heads; a window of 163,840 tokens\)/);
  assert.match(story, /eight 141 GB GPUs, with its weights stored in one byte each, about 671 GB\./);
  assert.match(story, /keeps 40 agent sessions of 120,000 tokens each/);
  assert.match(story, /when the session reaches about 105,000 tokens/);
  const core = await page.evaluate(async (texts) => {
    const m = await createLLMMath();
    const ds = m.modelFromConfigText(texts["deepseek-v3"]);
    const llama = m.modelFromConfigText(texts["llama-3.1-8b"]);
    const opts = { tokens: 120000, weightBytesPerParam: 1, memoryBytes: 1128 * 2 ** 30 };
    const engine = m.modelCost(ds, { ...opts, batch: 40, mlaCache: "latent" });
    const script = m.modelCost(ds, { ...opts, mlaCache: "expanded" });
    return {
      shape: [ds.layers, ds.heads, ds.maxContext, llama.heads, llama.kvHeads],
      weights: engine.weightsBytes,
      engine: [engine.kvBytesPerToken, engine.fit.maxBatch],
      script: [script.kvBytesPerToken, script.fit.maxTokens],
      llama: m.modelCost(llama, { tokens: 120000 }).kvBytesPerToken,
    };
  }, texts);
  assert.deepEqual(core.shape, [61, 128, 163840, 32, 8]);
  assert.equal(Math.round(core.weights / 1e9), 671, "about 671 GB of weights at one byte each");
  assert.equal(core.engine[0], 61 * (512 + 64) * 2, "the latent and the rotary key, per layer");
  assert.equal(core.script[0], 61 * 128 * (192 + 128) * 2, "every head's keys and values, per layer");
  assert.equal(core.llama, 131072);
  assert.ok(core.engine[1] >= 40, "forty sessions fit with the latent");
  // The script stops at about 105,000 tokens: below what its keys and values alone allow, and a
  // whole session of 120,000 does not fit.
  assert.ok(core.script[1] > 105000 && core.script[1] < 120000, String(core.script[1]));
  assert.ok(core.engine[0] < core.llama, "the latent per token is below the grouped-query model's");
  const said = await lines.textContent();
  for (const want of [
    "61 · (512 + 64) · 2 bytes = 68.6 KiB per token.",
    "61 · 128 · (192 + 128) · 2 bytes = 4.77 MiB per token.",
    `up to ${core.engine[1]} such sessions fit.`,
    `one session fits up to ${core.script[1].toLocaleString("en")} tokens.`,
    "whose 32 query heads share 8 key–value heads, keeps 128 KiB per token",
  ])
    assert.ok(said.includes(want), `${want} in ${said}`);
  // One byte per cached value halves both; the rebuilt keys and values then fit a whole session.
  // (The attribute by its former name, bytes-per-value, as pages written before the rename set it.)
  await fig.evaluate((el) => el.setAttribute("research-script-bytes-per-value", "1"));
  assert.equal(await fig.evaluate((el) => el.state.researchScriptKvBytesPerElement), 1);
  const half = await lines.textContent();
  assert.ok(half.includes("· 1 byte = 34.3 KiB per token.") && half.includes("· 1 byte = 2.38 MiB per token."), half);
  assert.ok(half.includes("one session fits up to 163,840 tokens."), half);
  assert.deepEqual(errors, []);
});

test("restart reshuffles: a new seed, a new order from its first scenario, no choices and no score; the same seed gives the same order", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const first = await fig.evaluate((el) => el.order);
  await fig.getByRole("button", { name: SCENARIOS[first[0]].right, exact: true }).click();
  assert.match(
    await fig.locator(".diagnose-progress").textContent(),
    /^Scenario 1 of 15\. 1 of 1 step right at the first try\.$/,
  );
  await reason(fig, SCENARIOS[first[0]]);
  await fig.getByRole("button", { name: "Next scenario" }).click();
  assert.match(
    await fig.locator(".diagnose-progress").textContent(),
    /^Scenario 2 of 15\. 3 of 3 steps right at the first try\.$/,
  );
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
  assert.deepEqual(
    await fig.evaluate((el) => [
      el.state.seed,
      el.state.scenario,
      el.state.picks,
      el.state.assumptions,
      el.state.checks,
    ]),
    [2, 1, [], [], []],
  );
  assert.equal(await titleOf(fig), SCENARIOS[second[0]].title);
  assert.match(await fig.locator(".diagnose-progress").textContent(), /^Scenario 1 of 15\. No answers yet\.$/);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 0);
  assert.equal(await fig.locator(".diagnose-analysis").isVisible(), false);
  assert.equal(await fig.locator(".diagnose-step").first().isVisible(), false);
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
  const { page, errors } = await figure();
  const fig = page.locator("#diagnose-figure");
  const lines = fig.locator(".diagnose-lines");
  const setAttr = (name, value) => fig.evaluate((el, [n, v]) => el.setAttribute(n, v), [name, value]);
  const removeAttr = (name) => fig.evaluate((el, n) => el.removeAttribute(n), name);
  const order = await fig.evaluate((el) => el.order);
  const decls = await fig.evaluate((el) =>
    el.constructor.attributes.map(({ name, type, min, max, default: d }) => ({ name, type, min, max, d })),
  );
  assert.deepEqual(
    decls.slice(0, 5).map((d) => d.name),
    ["seed", "scenario", "picks", "assumptions", "checks"],
  );

  // Every scenario input: "<scenario id>-<input>", a non-default value (half-way to a bound)
  // shows in its field, redraws the calculation, is the embed code's setting, and when removed
  // the default comes back.
  const inputs = decls.slice(5);
  assert.equal(inputs.length, 49);
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
    position: ["contract", "long-report", "header-line"],
    memory: ["serving", "batch", "research-script"],
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

  // assumptions and checks: a choice's number in the scenario's list, each once, none after the
  // right one; a step's answers count only once the step before is right.
  const s = SCENARIOS[order[0]];
  const [r, w] = [s.assume.right[0], s.assume.wrong[0]];
  await setAttr("assumptions", `${w},${w},0,9,x,${r},${w}|2`);
  assert.ok(
    (await notes.textContent()).includes(
      `assumptions: “${w}”, “0”, “9”, “x”, “${w}”, “2” ignored: expected the number of one of the scenario's choices, each once and none after the right one, once the step before is right.`,
    ),
    await notes.textContent(),
  );
  assert.deepEqual(await fig.evaluate((el) => el.state.assumptions), [`${w},${r}`]);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 4);
  assert.equal(await fig.locator(".diagnose-step").nth(1).isVisible(), true, "the check asked");
  await setAttr("checks", `${s.check.right[0]}`);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 5);
  assert.equal(await fig.locator(".diagnose-section").isVisible(), true);
  // Without the right mechanism the later steps' answers do not count, and are named.
  await setAttr("picks", wrongId);
  assert.deepEqual(await fig.evaluate((el) => [el.state.assumptions, el.state.checks]), [[], []]);
  assert.equal(await fig.locator(".diagnose-verdict").count(), 1);
  assert.equal(await fig.locator(".diagnose-step").first().isVisible(), false);
  assert.match(await notes.textContent(), /assumptions: .* ignored: .* once the step before is right\./);
  assert.match(await notes.textContent(), /checks: .* ignored: .* once the step before is right\./);
  await removeAttr("assumptions");
  await removeAttr("checks");
  await removeAttr("picks");
  assert.equal(await fig.locator(".diagnose-verdict").count(), 0);
  assert.equal(await fig.locator(".diagnose-analysis").isVisible(), false);

  // Out-of-range or malformed values: refused with a note; the scenario and numbers stay.
  const title = await titleOf(fig);
  for (const [name, value, why] of [
    ["seed", "-1", "a whole number from 0 to 4294967295"],
    ["seed", "1.5", "a whole number"],
    ["scenario", "16", "a whole number from 1 to 15"],
    ["scenario", "constructor", "a whole number"],
    ["picks", "a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p", "1 to 15 labels"],
    ["assumptions", "1|1|1|1|1|1|1|1|1|1|1|1|1|1|1|1", "1 to 15 labels"],
    ["checks", "1".repeat(33), "1 to 15 labels separated by |, each at most 32 characters"],
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
    el.drawNow(); // drawn now, wherever the page is scrolled
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
});

test("the reader's place, choices and inputs are in the page's address, and opening that address shows the same", async () => {
  const { page } = await openReader(browser.context);
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  const [s0, s1] = [SCENARIOS[order[0]], SCENARIOS[order[1]]];
  await fig.getByRole("button", { name: s0.wrong, exact: true }).click();
  await fig.getByRole("button", { name: s0.right, exact: true }).click();
  await stepOf(fig, 0)
    .locator("button")
    .nth(s0.assume.right[0] - 1)
    .click();
  await stepOf(fig, 1)
    .locator("button")
    .nth(s0.check.wrong[0] - 1)
    .click();
  await stepOf(fig, 1)
    .locator("button")
    .nth(s0.check.right[0] - 1)
    .click();
  await fig.getByRole("button", { name: "Next scenario" }).click();
  await fig.getByRole("button", { name: s1.right, exact: true }).click();
  await stepOf(fig, 0)
    .locator("button")
    .nth(s1.assume.wrong[0] - 1)
    .click();
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
  assert.match(
    decodeURIComponent(hash),
    new RegExp(`diagnose\\.assumptions=${s0.assume.right[0]}\\|${s1.assume.wrong[0]}(&|$)`),
  );
  assert.match(
    decodeURIComponent(hash),
    new RegExp(`diagnose\\.checks=${s0.check.wrong[0]},${s0.check.right[0]}(&|$)`),
  );
  await page.close();

  const again = (await openReader(browser.context, { hash })).page;
  const fig2 = again.locator("#diagnose-figure");
  assert.equal(await titleOf(fig2), seen.title);
  assert.equal(await fig2.locator(".diagnose-progress").textContent(), seen.progress);
  assert.match(seen.progress, /^Scenario 2 of 15\. 2 of 5 steps right at the first try\.$/);
  assert.equal(seen.verdicts.length, 2);
  assert.deepEqual(await fig2.locator(".diagnose-verdict").allTextContents(), seen.verdicts);
  assert.equal(await stepOf(fig2, 0).isVisible(), true);
  assert.equal(await stepOf(fig2, 1).isVisible(), false);
  assert.equal(
    await stepOf(fig2, 0)
      .locator("button")
      .nth(s1.assume.wrong[0] - 1)
      .getAttribute("aria-disabled"),
    "true",
  );
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
  const s = SCENARIOS[order[0]];
  await stepOf(fig, 0)
    .locator("button")
    .nth(s.assume.wrong[0] - 1)
    .click();
  await stepOf(fig, 0)
    .locator("button")
    .nth(s.assume.right[0] - 1)
    .click();
  await stepOf(fig, 1)
    .locator("button")
    .nth(s.check.wrong[0] - 1)
    .click();
  await stepOf(fig, 1)
    .locator("button")
    .nth(s.check.right[0] - 1)
    .click();
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

test("no title or story names a mechanism or uses a give-away word declared beside the mechanisms, and every step's choices are plausible, explained and one right", async () => {
  const { mechanisms, scenarios } = (
    await import(pathToFileURL(path.join(__dirname, "../../site/scenarios.mjs")).href)
  ).readScenarios();
  // A word matches at the start of a word, in any case: "bit" finds "8-bit" and "bits".
  const cues = mechanisms.flatMap((m) =>
    [m.label, ...m.giveaways].map((w) => ({
      m: m.id,
      w,
      re: new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "iu"),
    })),
  );
  assert.ok(cues.length > 40, `${cues.length} words`);
  assert.ok(
    cues.some((c) => c.re.test("a model with ALiBi positions")),
    "the words find a cue",
  );
  // What the reader sees: every scenario's title and story as the figure shows them.
  const { page } = await figure();
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  for (const [k, id] of order.entries()) {
    await fig.evaluate((el, pos) => el.setAttribute("scenario", pos), String(k + 1));
    for (const text of [await titleOf(fig), await fig.locator(".diagnose-story").textContent()]) {
      const found = cues.filter((c) => c.re.test(text)).map((c) => `${c.w} (${c.m})`);
      assert.deepEqual(found, [], `${id}: “${text}”`);
    }
  }
  for (const s of scenarios) {
    const places = [];
    for (const key of ["assumptions", "checks"]) {
      const choices = s[key];
      assert.ok(choices.length >= 3 && choices.length <= 4, `${s.id} ${key}: ${choices.length} choices`);
      assert.equal(choices.filter((c) => c.right === true).length, 1, `${s.id} ${key}: one right`);
      assert.equal(new Set(choices.map((c) => c.text)).size, choices.length, `${s.id} ${key}: different choices`);
      for (const c of choices) {
        assert.ok(c.text.length >= 20 && c.why.length >= 60, `${s.id} ${key}: “${c.text}” and why`);
        assert.ok(!/^(Right|Not)\b/.test(c.why), `${s.id} ${key}: the verdict says right or not, not the why`);
      }
      places.push(choices.findIndex((c) => c.right));
    }
    assert.ok(SCENARIOS[s.id].assume.right[0] === places[0] + 1, `${s.id}: the test's right assumption`);
    assert.ok(SCENARIOS[s.id].check.right[0] === places[1] + 1, `${s.id}: the test's right check`);
  }
  // The right choice is not always in the same place.
  for (const key of ["assumptions", "checks"])
    assert.ok(new Set(scenarios.map((s) => s[key].findIndex((c) => c.right))).size >= 3, `${key}: places`);
});

test("each step's verdict is said in the figure's polite status line, with the question that follows and, at the end, the score", async () => {
  const { page, errors } = await figure();
  const fig = page.locator("#diagnose-figure");
  const order = await fig.evaluate((el) => el.order);
  const s = SCENARIOS[order[0]];
  const live = fig.locator(".llm-live");
  assert.equal(await live.getAttribute("aria-live"), "polite");
  // The status line speaks a moment after the last change; waited for (at most 30 s), then read.
  const says = async (text) => {
    await page
      .waitForFunction(
        (want) => document.getElementById("diagnose-figure").shadowRoot.querySelector(".llm-live").textContent === want,
        text,
        { timeout: 30000 },
      )
      .catch(() => {});
    assert.equal(await live.textContent(), text);
  };
  const where = "(scenario 1 of 15)";
  await fig.getByRole("button", { name: s.right, exact: true }).click();
  await page.waitForFunction(
    () => document.getElementById("diagnose-figure").shadowRoot.querySelector(".llm-live").textContent !== "",
  );
  const first = await fig.locator(".diagnose-lines strong").first().textContent();
  assert.equal(
    await live.textContent(),
    `Right: ${s.right.toLowerCase()} ${where}. The calculation gives ${first}. Which assumption matters most here?`,
  );
  await stepOf(fig, 0)
    .locator("button")
    .nth(s.assume.wrong[0] - 1)
    .click();
  await says(`Not that assumption: try another ${where}.`);
  await stepOf(fig, 0)
    .locator("button")
    .nth(s.assume.right[0] - 1)
    .click();
  await says(`Right assumption. Which check would tell you? ${where}`);
  await stepOf(fig, 1)
    .locator("button")
    .nth(s.check.wrong[0] - 1)
    .click();
  await says(`Not that check: try another ${where}.`);
  await stepOf(fig, 1)
    .locator("button")
    .nth(s.check.right[0] - 1)
    .click();
  await says("Right check. That was scenario 1 of 15: 1 of 3 steps right at the first try.");
  for (const text of await fig.locator(".llm-live").allTextContents()) assert.ok(text.length <= 200, text);
  assert.deepEqual(errors, []);
});
