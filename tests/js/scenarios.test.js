// Figure 9.1's content as data (site/scenarios/, read by site/scenarios.mjs): the committed files
// read, and each kind of fault in a copy of them stops the reading with a message that names the
// file and the field.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const ROOT = path.join(__dirname, "..", "..");
const FOLDER = path.join(ROOT, "site", "scenarios");
const load = () => import(pathToFileURL(path.join(ROOT, "site", "scenarios.mjs")).href);

test("the committed scenarios read: every file in name order, six mechanisms, every calculation known", async () => {
  const { readScenarios } = await load();
  const { calculations, calculationArgs } = await import(
    pathToFileURL(path.join(ROOT, "site", "src", "widgets", "diagnose", "diagnose-calculations.js")).href
  );
  const { mechanisms, scenarios, files, sectionTitles } = readScenarios();
  const names = fs.readdirSync(FOLDER).filter((f) => /^\d\d-.*\.json$/.test(f));
  assert.equal(scenarios.length, names.length);
  assert.ok(scenarios.length >= 12, `${scenarios.length} scenarios`);
  assert.deepEqual(
    scenarios.map((s) => s.id),
    names.sort().map((f) => f.slice(3, -5)),
  );
  // the files a build watches: the scenarios, the mechanisms, and the sections they link to,
  // whose titles they give
  const linked = [...new Set(scenarios.map((s) => s.section))];
  assert.equal(files.length, names.length + 1 + linked.length);
  assert.deepEqual(Object.keys(sectionTitles).sort(), linked.sort());
  assert.deepEqual(sectionTitles.cost, { number: "4", title: "Growing context: what it costs" });
  // the real models a scenario's calculation reads, and only those
  assert.deepEqual(Object.fromEntries(scenarios.filter((s) => s.models).map((s) => [s.id, s.models])), {
    "header-line": ["gemma-3-27b"],
    "research-script": ["deepseek-v3", "llama-3.1-8b"],
    "all-at-once": ["qwen3-coder-30b-a3b"],
  });
  assert.equal(mechanisms.length, 6);
  // every mechanism is the right one of at least two scenarios
  for (const m of mechanisms) assert.ok(scenarios.filter((s) => s.mechanism === m.id).length >= 2, m.id);
  // the calculations and their declared arguments are the same list
  assert.deepEqual(Object.keys(calculations).sort(), Object.keys(calculationArgs).sort());
  // every calculation is used
  assert.deepEqual(new Set(scenarios.map((s) => s.calculation.use)), new Set(Object.keys(calculations)));
});

/**
 * Reads a copy of the folder in which `file`'s parsed content was changed by `change` (or the
 * file's text replaced, when `change` is a string), and returns the error's message.
 */
async function faultOf(file, change) {
  const { readScenarios } = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "scenarios-"));
  try {
    for (const f of fs.readdirSync(FOLDER)) fs.copyFileSync(path.join(FOLDER, f), path.join(dir, f));
    if (typeof change === "string") fs.writeFileSync(path.join(dir, file), change);
    else if (change) {
      const data = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
      change(data);
      fs.writeFileSync(path.join(dir, file), JSON.stringify(data, null, 2));
    }
    readScenarios(dir);
    return null;
  } catch (e) {
    return e.message.replace(`${path.relative(ROOT, dir)}/`, "");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("an unchanged copy of the folder reads without a fault", async () => {
  assert.equal(await faultOf("03-treaty.json", null), null);
});

const FAULTS = [
  ["a text that is not JSON", "03-treaty.json", "{ not json", /^03-treaty\.json: not JSON: /],
  [
    "an empty why",
    "03-treaty.json",
    (s) => (s.checks[2].why = ""),
    /^03-treaty\.json: checks\[2\]\.why: expected a non-empty text, got ""$/,
  ],
  ["a missing story", "03-treaty.json", (s) => delete s.story, /^03-treaty\.json: story: missing$/],
  [
    "an id that is not the file's",
    "03-treaty.json",
    (s) => (s.id = "treaty-2"),
    /^03-treaty\.json: id: expected "treaty", the file's name/,
  ],
  [
    "an unknown mechanism",
    "03-treaty.json",
    (s) => (s.mechanism = "luck"),
    /^03-treaty\.json: mechanism: "luck" is not a mechanism; there are /,
  ],
  [
    "an unknown field",
    "03-treaty.json",
    (s) => (s.colour = "red"),
    /^03-treaty\.json: colour: not a field of its kind$/,
  ],
  [
    "a mechanism not answered",
    "03-treaty.json",
    (s) => delete s.not.memory,
    /^03-treaty\.json: not\.memory: expected a non-empty text/,
  ],
  [
    "the right mechanism answered as wrong",
    "03-treaty.json",
    (s) => (s.not["sampled-wording"] = "…"),
    /^03-treaty\.json: not\.sampled-wording: not a field/,
  ],
  [
    "an unknown section",
    "03-treaty.json",
    (s) => (s.section = "tokens"),
    /^03-treaty\.json: section: "tokens" is not a section/,
  ],
  [
    "a default outside its range",
    "03-treaty.json",
    (s) => (s.inputs[3].value = 9),
    /^03-treaty\.json: inputs\[3\]\.value: 9 is outside 0 … 3$/,
  ],
  [
    "an input key twice",
    "03-treaty.json",
    (s) => (s.inputs[1].key = "z1"),
    /^03-treaty\.json: inputs\[1\]\.key: z1 twice$/,
  ],
  [
    "an unknown input type",
    "03-treaty.json",
    (s) => (s.inputs[0].type = "int"),
    /^03-treaty\.json: inputs\[0\]\.type: expected "integer"/,
  ],
  [
    "no right check",
    "03-treaty.json",
    (s) => s.checks.forEach((c) => delete c.right),
    /^03-treaty\.json: checks: expected exactly one choice with "right": true, got 0$/,
  ],
  [
    "two assumptions",
    "03-treaty.json",
    (s) => (s.assumptions = s.assumptions.slice(0, 2)),
    /^03-treaty\.json: assumptions: expected 3 to 4 entries, got 2$/,
  ],
  [
    "an unknown calculation",
    "03-treaty.json",
    (s) => (s.calculation.use = "year"),
    /^03-treaty\.json: calculation\.use: "year" is not a calculation; there are dilution, /,
  ],
  [
    "a calculation's argument missing",
    "03-treaty.json",
    (s) => delete s.calculation.with.seed,
    /^03-treaty\.json: calculation\.with\.seed: missing \(years needs it\)$/,
  ],
  [
    "an argument the calculation does not take",
    "03-treaty.json",
    (s) => (s.calculation.with.count = 10),
    /^03-treaty\.json: calculation\.with\.count: not an argument of years$/,
  ],
  [
    "an unknown model",
    "07-header-line.json",
    (s) => (s.calculation.with.model = "gemma-4"),
    /^07-header-line\.json: calculation\.with\.model: "gemma-4" is not in data\/models\/index\.json$/,
  ],
  [
    "an unknown model compared",
    "10-research-script.json",
    (s) => (s.calculation.with.compared = "gpt-5"),
    /^10-research-script\.json: calculation\.with\.compared: "gpt-5" is not in data\/models\/index\.json$/,
  ],
  [
    "a field a scenario no longer has (its models are its calculation's)",
    "07-header-line.json",
    (s) => (s.models = ["gemma-3-27b"]),
    /^07-header-line\.json: models: not a field/,
  ],
  [
    "an unknown device",
    "13-all-at-once.json",
    (s) => (s.calculation.with.device = "h900"),
    /^13-all-at-once\.json: calculation\.with\.device: "h900" is not a device of Figure 4\.2's picker$/,
  ],
  [
    "a give-away in capitals",
    "mechanisms.json",
    (m) => (m[1].giveaways[0] = "Sampl"),
    /^mechanisms\.json: \[1\]\.giveaways\[0\]: expected lower case/,
  ],
  [
    "a mechanism twice",
    "mechanisms.json",
    (m) => (m[2].id = m[1].id),
    /^mechanisms\.json: \[2\]\.id: sampled-wording twice$/,
  ],
];

for (const [fault, file, change, message] of FAULTS) {
  test(`${fault} in ${file} stops the reading, named by file and field`, async () => {
    const got = await faultOf(file, change);
    assert.ok(got, "the copy read without a fault");
    assert.match(got.replace(/^site\/scenarios\//, ""), message);
  });
}
