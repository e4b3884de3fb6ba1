// The diagnosis figure's choices (site/scenarios/, read by site/scenarios.mjs): no list lets a
// reader pick the right choice by its length, and no story paraphrases its own mechanism's effect
// or remedy. Plain data, no core: it runs for any number of scenarios.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const file = path.join(__dirname, "..", "..", "site", "scenarios.mjs");
const load = async () => (await import(pathToFileURL(file).href)).readScenarios();

const KINDS = ["assumptions", "checks"];
/** At most this share of the lists of a kind may have the right choice longest (or shortest). */
const MAX_SHARE = 1 / 3;
/** Every choice's length within this fraction of its list's mean. */
const SPREAD = 0.4;

/** Each list's lengths, mean and the right choice's rank (0 = shortest, n − 1 = longest, ties count against it). */
function lists(scenarios) {
  return scenarios.flatMap((s) =>
    KINDS.map((kind) => {
      const lengths = s[kind].map((c) => c.text.length);
      const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
      const r = s[kind].findIndex((c) => c.right);
      return {
        name: `${s.id} ${kind}`,
        kind,
        lengths,
        mean,
        r,
        longest: lengths.every((l, i) => i === r || l <= lengths[r]),
        shortest: lengths.every((l, i) => i === r || l >= lengths[r]),
      };
    }),
  );
}

const show = (l) => `${l.name}: lengths ${l.lengths.join(", ")} (right: #${l.r}, mean ${Math.round(l.mean)})`;

test("the right choice is the longest or the shortest of its list in at most a third of the lists of each kind", async () => {
  const { scenarios } = await load();
  const all = lists(scenarios);
  const problems = [];
  for (const kind of KINDS) {
    const of = all.filter((l) => l.kind === kind);
    for (const end of ["longest", "shortest"]) {
      const hit = of.filter((l) => l[end]);
      if (hit.length > MAX_SHARE * of.length) {
        problems.push(
          `${kind}: right choice ${end} in ${hit.length} of ${of.length}:\n  ${hit.map(show).join("\n  ")}`,
        );
      }
    }
  }
  assert.equal(problems.length, 0, problems.join("\n"));
});

test("every choice's length is within ±40 % of its list's mean", async () => {
  const { scenarios } = await load();
  const off = lists(scenarios).filter((l) => l.lengths.some((x) => Math.abs(x / l.mean - 1) > SPREAD));
  assert.equal(off.length, 0, `${off.length} lists:\n  ${off.map(show).join("\n  ")}`);
});

test("every list has exactly one right choice", async () => {
  const { scenarios } = await load();
  for (const s of scenarios) {
    for (const kind of KINDS) {
      assert.equal(s[kind].filter((c) => c.right).length, 1, `${s.id} ${kind}`);
    }
  }
});

/**
 * Phrases that paraphrase a mechanism's effect or remedy, matched at the start of a word in any
 * case, beside its give-aways (which the browser test checks as the reader sees them; they are
 * checked here too, on the data). Left out on purpose, because a story needs them to state its
 * numbers or its symptom: "byte" for memory (a cache's size is tokens times bytes per number, and
 * the memory stories must give both), "second" and "wait" for speed (the symptom is the time a
 * user waits), "tokens before" for position (the distance is the story's input).
 */
const paraphrases = {
  "missing-context": ["too long", "too much text", "buried", "lost in", "noise", "shorter prompt"],
  "sampled-wording": ["chance", "dice", "coin", "vary", "varies", "variation", "seed"],
  position: ["far back", "far away", "far from", "too far", "long-range", "away from"],
  memory: ["out of memory", "run out", "ran out", "runs out", "too large", "too big", "does not fit", "room"],
  speed: ["quick", "faster", "slower", "takes longer", "take longer", "speed up", "cost time", "costs time"],
  precision: ["byte", "compact", "coarse", "smaller number", "fewer digits", "resolution"],
};

const escape = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const atWordStart = (w) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(w)}`, "iu");

test("no story names or paraphrases its own mechanism", async () => {
  const { scenarios, mechanisms } = await load();
  assert.deepEqual(Object.keys(paraphrases).sort(), mechanisms.map((m) => m.id).sort());
  assert.ok(atWordStart("quick").test("To make generation quicker"), "the phrases find a cue");
  const found = [];
  for (const s of scenarios) {
    const text = `${s.title} ${s.story}`;
    const own = mechanisms.find((m) => m.id === s.mechanism);
    const words = [own.label, ...paraphrases[s.mechanism]];
    for (const m of mechanisms) words.push(...m.giveaways);
    for (const w of words) if (atWordStart(w).test(text)) found.push(`${s.id}: “${w}”`);
  }
  assert.equal(found.length, 0, found.join("\n"));
});
