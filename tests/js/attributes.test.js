// The widgets' settings (site/src/kit/attributes.js): every value an attribute, a URL or an
// embed query carries is parsed here, and written back by the same declarations.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const attributes = import(pathToFileURL(path.join(__dirname, "..", "..", "site", "src", "kit", "attributes.js")).href);

const T = { name: "temperature", type: "number", min: 0, max: 2.5, default: 1 };
const K = { name: "top-k", type: "integer", min: 0, max: 10, default: 0 };
const P = { name: "preset", type: "choice", choices: ["a", "b"], default: "a", preset: true };
const M = { name: "q", type: "matrix", maxRows: 3, maxCols: 2, default: [[0]] };
const L = { name: "tokens", type: "labels", maxLength: 3, maxChars: 5, default: ["x"] };
const N = { name: "probs", type: "numbers", minLength: 2, maxLength: 4, min: 0, max: 1, default: [0.5, 0.5] };
const B = { name: "causal", type: "boolean", default: true };

test("numbers parse within their range and are refused outside it, with the range in the message", async () => {
  const { parseValue } = await attributes;
  assert.deepEqual(parseValue(T, "0.7"), { value: 0.7 });
  assert.deepEqual(parseValue(T, " 2.5 "), { value: 2.5 });
  assert.deepEqual(parseValue(T, "1e-1"), { value: 0.1 });
  for (const bad of ["2.6", "-0.1", "", "abc", "0x10", "Infinity", "NaN", "1,5", "1 2"]) {
    assert.deepEqual(parseValue(T, bad), { error: "expected a number from 0 to 2.5" }, bad);
  }
  assert.deepEqual(parseValue(K, "3"), { value: 3 });
  assert.ok("error" in parseValue(K, "3.5"));
});

test("a choice accepts only its own names: prototype names are refused", async () => {
  const { parseValue } = await attributes;
  assert.deepEqual(parseValue(P, "b"), { value: "b" });
  for (const bad of ["constructor", "__proto__", "toString", "hasOwnProperty", "A", ""]) {
    assert.deepEqual(parseValue(P, bad), { error: "expected one of a, b" }, bad);
  }
});

test("lists, labels, matrices and booleans round-trip through formatValue", async () => {
  const { parseValue, formatValue } = await attributes;
  const cases = [
    [
      M,
      [
        [1, -0.5],
        [2.25, 0],
      ],
    ],
    [L, ["The", "cat", "<b>"]],
    [N, [0.25, 0.75]],
    [B, false],
    [B, true],
    [T, 0.05],
  ];
  for (const [d, v] of cases) assert.deepEqual(parseValue(d, formatValue(d, v)), { value: v }, d.name);
  assert.ok("error" in parseValue(M, "1,2;3"), "ragged rows");
  assert.ok("error" in parseValue(M, "1;2;3;4"), "too many rows");
  assert.ok("error" in parseValue(L, "a|b|c|d"), "too many labels");
  assert.ok("error" in parseValue(L, "toolong"), "label too long");
  assert.ok("error" in parseValue(N, "0.5"), "too few numbers");
  assert.ok("error" in parseValue(N, "0.5,1.5"), "out of range entry");
  assert.ok("error" in parseValue(B, "yes"));
});

test("anything that is not a string, or a string longer than any legal value, is refused without work", async () => {
  const { parseValue } = await attributes;
  for (const bad of [undefined, null, 3, {}, []]) assert.ok("error" in parseValue(T, bad));
  const huge = "1,".repeat(1e6) + "1";
  assert.deepEqual(parseValue(N, huge), { error: "longer than 4096 characters" });
});

test("settingsToState: the preset applies first, later sources win, bad values become notes", async () => {
  const { settingsToState } = await attributes;
  const presets = { a: { temperature: 0.5 }, b: { temperature: 2 } };
  const decls = [P, T, K];
  const fields = (name) => presets[name];
  let r = settingsToState(decls, [new Map([["preset", "b"]])], fields);
  assert.deepEqual(r.state, { preset: "b", temperature: 2, topK: 0 });
  r = settingsToState(
    decls,
    [
      new Map([
        ["preset", "b"],
        ["temperature", "0.1"],
      ]),
      new Map([["top-k", "4"]]),
    ],
    fields,
  );
  assert.deepEqual(r.state, { preset: "b", temperature: 0.1, topK: 4 });
  r = settingsToState(decls, [{ temperature: "9", "top-k": "2", preset: "__proto__" }], fields);
  assert.deepEqual(r.state, { preset: "a", temperature: 0.5, topK: 2 });
  assert.deepEqual(r.notes, [
    'preset="__proto__" ignored: expected one of a, b.',
    'temperature="9" ignored: expected a number from 0 to 2.5.',
  ]);
  // Inherited properties of a plain object are not settings.
  const inherited = Object.create({ temperature: "2" });
  assert.equal(settingsToState(decls, [inherited], fields).state.temperature, 0.5);
});

test("stateDiff writes only what differs, the preset first, and never a value it could not read back", async () => {
  const { stateDiff } = await attributes;
  const decls = [T, K, P];
  const base = { preset: "a", temperature: 1, topK: 0 };
  assert.deepEqual(stateDiff(decls, base, base), []);
  assert.deepEqual(stateDiff(decls, { preset: "b", temperature: 1, topK: 3 }, base), [
    ["preset", "b"],
    ["top-k", "3"],
  ]);
  assert.deepEqual(stateDiff(decls, { preset: "a", temperature: NaN, topK: 0 }, base), []);
});

test("a renamed attribute answers to its former name (aliases), the name wins over it, and only the name is written", async () => {
  const { declarationNamed, settingsToState, stateDiff } = await attributes;
  const labels = { name: "labels", aliases: ["tokens"], type: "labels", maxLength: 3, maxChars: 5, default: ["x"] };
  const decls = [P, T, labels];
  assert.equal(declarationNamed(decls, "tokens"), labels);
  assert.equal(declarationNamed(decls, "labels"), labels);
  assert.equal(declarationNamed(decls, "token"), undefined);
  // The former name alone, in a Map (a link's settings) or an object (attributes).
  assert.deepEqual(settingsToState(decls, [new Map([["tokens", "a|b"]])]).state.labels, ["a", "b"]);
  assert.deepEqual(settingsToState(decls, [{ tokens: "a|b" }]).state.labels, ["a", "b"]);
  // Both in one source, in either order: the name wins.
  for (const pairs of [
    [
      ["tokens", "old"],
      ["labels", "new"],
    ],
    [
      ["labels", "new"],
      ["tokens", "old"],
    ],
  ]) {
    assert.deepEqual(settingsToState(decls, [new Map(pairs)]).state.labels, ["new"]);
  }
  // Later sources still win, whatever name each uses.
  assert.deepEqual(settingsToState(decls, [{ labels: "attr" }, new Map([["tokens", "url"]])]).state.labels, ["url"]);
  // A value given by the former name that does not parse is reported under that name.
  assert.deepEqual(settingsToState(decls, [{ tokens: "a|b|c|d" }]).notes, [
    'tokens="a|b|c|d" ignored: expected 1 to 3 labels separated by |, each at most 5 characters.',
  ]);
  assert.deepEqual(
    stateDiff(decls, { preset: "a", temperature: 1, labels: ["y"] }, { preset: "a", temperature: 1, labels: ["x"] }),
    [["labels", "y"]],
  );
});
