// site/noscript.mjs through dist/llmmath.js: the exercise answers (1 to 8, and 4b) a reader without
// scripts sees state the chapter's answers (../shared/spec/chapter.md, "Sections, in order"),
// formatted as the module's formatter writes them.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { core } = require("./core.js");

const MODULE = pathToFileURL(path.join(__dirname, "..", "..", "site", "noscript.mjs")).href;

let answers;
async function texts() {
  if (!answers) {
    const { exerciseAnswers } = await import(MODULE);
    answers = exerciseAnswers(await core());
  }
  return answers;
}

/** The answer of exercise n (a number, or "4b"), checked to be there once. */
async function answer(n) {
  const found = (await texts()).filter((a) => a.exercise === n);
  assert.equal(found.length, 1, `exercise ${n}`);
  return found[0].text;
}

/** Every string of `parts` occurs in `text`. */
function says(text, parts) {
  for (const part of parts) assert.ok(text.includes(part), `expected "${part}" in: ${text}`);
}

test("nine answers, exercises 1 to 8 and 4b after 4, in the chapter's order, as plain text", async () => {
  const all = await texts();
  assert.ok(Array.isArray(all));
  assert.deepEqual(
    all.map((a) => [a.exercise, a.section]),
    [
      [1, "attention"],
      [2, "sampling"],
      [3, "rope"],
      [4, "cost"],
      ["4b", "cost"],
      [5, "speculative"],
      [6, "alibi"],
      [7, "quantization"],
      [8, "moe"],
    ],
  );
  for (const a of all) {
    assert.deepEqual(Object.keys(a).sort(), ["exercise", "section", "text"]);
    assert.equal(typeof a.text, "string");
    assert.ok(a.text.startsWith(`Exercise ${a.exercise}: `), a.text);
    assert.doesNotMatch(a.text, /[<>]/, "plain text, no markup");
    assert.doesNotMatch(a.text, /NaN|undefined|null|Infinity|∞|\d-|-\d|\de[+-]?\d/, a.text);
    assert.doesNotMatch(a.text, /\d\.\d{5}/, "at most 4 decimals");
    assert.doesNotMatch(a.text, /\.\d*0(?!\d)/, "trailing zeros dropped");
  }
});

test("exercise 1: query 1 sees only key 1, weights (1, 0, 0), output V1 = (1, 0), key 3 masked", async () => {
  const t = await answer(1);
  says(t, ["only key 1", "(1, 0, 0)", "V1 = (1, 0)", "Key 3", "2.1213", "masked before normalisation", "exactly 0"]);
});

test("exercise 2: nucleus of tokens 1 and 2 with mass 0.8, “blue” at 0.4/0.8 = 0.5, not verified", async () => {
  const t = await answer(2);
  says(t, ["tokens 1 and 2", "mass 0.8", "“blue”", "0.4/0.8 = 0.5", "not evidence that it is true"]);
});

test("exercise 3: cos(0.02) + cos(0.0002) ≈ 1.9998, divided by √4 ≈ 0.9999", async () => {
  const t = await answer(3);
  says(t, ["cos(0.02) + cos(0.0002)", "≈ 1.9998", "√4", "≈ 0.9999"]);
});

test("exercise 4: 16² = 256 scores per head, 2·16·8·32 = 8,192 values, doubling d", async () => {
  const t = await answer(4);
  says(t, ["16² = 256", "2·16·8·32 = 8,192", "to 64", "scores at 256", "16,384", "131,072 to 262,144"]);
});

// Exercise 4b by hand, from Llama 3.1 8B's config.json: 8,030,261,248 parameters in bf16, of which
// the input embedding's 128,256 × 4,096 = 525,336,576; a step reads all but one row of it:
// (8,030,261,248 − 525,336,576 + 4,096) · 2 = 15,009,857,536 bytes. The cache: 4,096 tokens ·
// 32 layers · 8 KV heads · 128 · 2 (key and value) · 2 bytes = 536,870,912 bytes. Their sum over
// 3,350 GB/s is 4.6408 ms, and 1 / 4.6408 ms = 215.48 tokens a second. With 8 sequences: the
// weights once, with 8 rows of the embedding (15,009,857,536 + 7 · 8,192 = 15,009,914,880 bytes),
// and 8 caches (4,294,967,296 bytes): 19,304,882,176 bytes, 5.7627 ms, 8 tokens: 1,388.2 a second.
test("exercise 4b: 15,009,857,536 + 536,870,912 bytes over 3,350 GB/s, 4.64 ms a step, 215.5 tokens a second", async () => {
  const t = await answer("4b");
  says(t, [
    "15,009,857,536 bytes",
    "536,870,912 bytes",
    "15,546,728,448 bytes ÷ 3,350 GB/s",
    "4.64 ms",
    "memory-bound",
    "215.5 tokens a second",
  ]);
});

test("exercise 5: (1 − 0.5⁴)/(1 − 0.5) = 0.9375/0.5 = 1.875, ceiling 2", async () => {
  const t = await answer(5);
  says(t, ["α = 0.5", "γ = 3", "(1 − 0.5⁴)/(1 − 0.5) = 0.9375/0.5 = 1.875 tokens", "1/(1 − 0.5) = 2"]);
});

test("exercise 6: ln 2 / 0.125 ≈ 0.6931/0.125 ≈ 5.5452, about 5.5; halving doubles it", async () => {
  const t = await answer(6);
  says(t, ["0.6931/0.125 ≈ 5.5452 tokens", "about 5.5", "0.0625", "11.0904", "doubles"]);
});

test("exercise 7: s = √8/√0.5 = 4, ranges 8/4 = 2 and 0.5·4 = 2", async () => {
  const t = await answer(7);
  says(t, ["α = 0.5", "s₂ = √8/√0.5 = 4", "8/4 = 2", "0.5·4 = 2"]);
});

test("exercise 8: 4·(0.5·0.25 + 0.5·0.25) = 1, whatever the split", async () => {
  const t = await answer(8);
  says(t, ["(0.5, 0.5, 0, 0)", "N = 4", "4·(0.5·0.25 + 0.5·0.25) = 1", "4·(1·0.25) = 1", "whatever the split"]);
});
