// Figure 9.1's content: the mechanisms a reader chooses among and the scenarios to diagnose, one
// JSON file each in site/scenarios/ (its README says what a file holds). readScenarios() reads
// and checks them all, in file-name order, and throws at the first fault with a message naming
// the file and the field ("site/scenarios/03-treaty.json: checks[2].why: …"). The build reads
// them through it ("llmmath:scenarios", site/build.mjs) and so do the tests; nothing else lists
// a scenario. The calculations they name are code, site/src/widgets/diagnose-calculations.js.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { calculationArgs } from "./src/widgets/diagnose/diagnose-calculations.js";
import { deviceById } from "./src/widgets/model/model-devices.js";
import { readSections } from "./sections.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");

/** A scenario file's name: two digits that give its place, then its id. */
const FILE = /^(\d\d)-([a-z0-9]+(?:-[a-z0-9]+)*)\.json$/;
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FIELDS = [
  "id",
  "mechanism",
  "title",
  "story",
  "because",
  "not",
  "section",
  "inputs",
  "calculation",
  "assumptions",
  "checks",
];
/** The arguments of a calculation that name a real model (data/models/), which it reads. */
const MODEL_ARGS = ["model", "compared"];
const INPUT_FIELDS = ["key", "name", "aliases", "type", "label", "min", "max", "step", "value", "doc"];

/** A fault in one file, named by its path from the repository's root and the field's. */
class ScenarioError extends Error {}

function checker(file) {
  const where = path.relative(root, file);
  const fail = (field, problem) => {
    throw new ScenarioError(`${where}: ${field ? `${field}: ` : ""}${problem}`);
  };
  const text = (v, field) => {
    if (typeof v !== "string" || v.trim() === "") fail(field, `expected a non-empty text, got ${JSON.stringify(v)}`);
    return v;
  };
  const number = (v, field) => {
    if (typeof v !== "number" || !Number.isFinite(v)) fail(field, `expected a number, got ${JSON.stringify(v)}`);
    return v;
  };
  const object = (v, field) => {
    if (v === null || typeof v !== "object" || Array.isArray(v))
      fail(field, `expected an object, got ${JSON.stringify(v)}`);
    return v;
  };
  const list = (v, field, min = 1, max = Infinity) => {
    if (!Array.isArray(v)) fail(field, `expected a list, got ${JSON.stringify(v)}`);
    if (v.length < min || v.length > max)
      fail(field, `expected ${max === Infinity ? `at least ${min}` : `${min} to ${max}`} entries, got ${v.length}`);
    return v;
  };
  const only = (v, field, allowed) => {
    for (const k of Object.keys(v))
      if (!allowed.includes(k)) fail(field ? `${field}.${k}` : k, "not a field of its kind");
  };
  const parse = () => {
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      return fail("", `not JSON: ${e.message}`);
    }
  };
  return { fail, text, number, object, list, only, parse };
}

function readMechanisms(file) {
  const c = checker(file);
  const mechanisms = c.list(c.parse(), "", 2);
  const ids = new Set();
  mechanisms.forEach((m, i) => {
    const at = `[${i}]`;
    c.object(m, at);
    c.only(m, at, ["id", "label", "giveaways"]);
    if (!KEBAB.test(m.id ?? "")) c.fail(`${at}.id`, `expected a kebab-case id, got ${JSON.stringify(m.id)}`);
    if (ids.has(m.id)) c.fail(`${at}.id`, `${m.id} twice`);
    ids.add(m.id);
    c.text(m.label, `${at}.label`);
    c.list(m.giveaways, `${at}.giveaways`).forEach((w, j) => {
      if (c.text(w, `${at}.giveaways[${j}]`) !== w.toLowerCase())
        c.fail(`${at}.giveaways[${j}]`, `expected lower case, got ${JSON.stringify(w)}`);
    });
  });
  return mechanisms;
}

function checkInput(c, input, at) {
  c.object(input, at);
  c.only(input, at, INPUT_FIELDS);
  if (!/^[A-Za-z]\w*$/.test(input.key ?? "")) c.fail(`${at}.key`, `expected a name, got ${JSON.stringify(input.key)}`);
  if (!KEBAB.test(input.name ?? ""))
    c.fail(`${at}.name`, `expected a kebab-case name, got ${JSON.stringify(input.name)}`);
  if (input.aliases !== undefined)
    c.list(input.aliases, `${at}.aliases`).forEach((a, j) => {
      if (!KEBAB.test(a ?? "") || a === input.name)
        c.fail(`${at}.aliases[${j}]`, `expected a former kebab-case name, got ${JSON.stringify(a)}`);
    });
  if (input.type !== undefined && input.type !== "integer")
    c.fail(`${at}.type`, `expected "integer" or no type (a number), got ${JSON.stringify(input.type)}`);
  c.text(input.label, `${at}.label`);
  c.text(input.doc, `${at}.doc`);
  const [min, max, step, value] = ["min", "max", "step", "value"].map((k) => c.number(input[k], `${at}.${k}`));
  if (min > max) c.fail(`${at}.min`, `${min} is above max ${max}`);
  if (!(step > 0)) c.fail(`${at}.step`, `expected a step above 0, got ${step}`);
  if (value < min || value > max) c.fail(`${at}.value`, `${value} is outside ${min} … ${max}`);
  if (input.type === "integer")
    for (const k of ["min", "max", "step", "value"])
      if (!Number.isInteger(input[k])) c.fail(`${at}.${k}`, `expected a whole number, got ${input[k]}`);
}

function checkChoices(c, choices, field) {
  c.list(choices, field, 3, 4).forEach((choice, i) => {
    const at = `${field}[${i}]`;
    c.object(choice, at);
    c.only(choice, at, ["text", "why", "right"]);
    c.text(choice.text, `${at}.text`);
    c.text(choice.why, `${at}.why`);
    if (choice.right !== undefined && choice.right !== true)
      c.fail(`${at}.right`, `expected true or no field, got ${JSON.stringify(choice.right)}`);
  });
  const right = choices.filter((x) => x.right === true).length;
  if (right !== 1) c.fail(field, `expected exactly one choice with "right": true, got ${right}`);
}

function checkCalculation(c, calc, context) {
  c.object(calc, "calculation");
  c.only(calc, "calculation", ["use", "with"]);
  const names = Object.keys(calculationArgs);
  if (!Object.hasOwn(calculationArgs, calc.use))
    c.fail("calculation.use", `${JSON.stringify(calc.use)} is not a calculation; there are ${names.join(", ")}`);
  const args = calc.with === undefined ? {} : c.object(calc.with, "calculation.with");
  const expected = calculationArgs[calc.use];
  for (const k of expected)
    if (!Object.hasOwn(args, k)) c.fail(`calculation.with.${k}`, `missing (${calc.use} needs it)`);
  for (const k of Object.keys(args))
    if (!expected.includes(k)) c.fail(`calculation.with.${k}`, `not an argument of ${calc.use}`);
  for (const k of MODEL_ARGS)
    if (k in args && !context.models.includes(args[k]))
      c.fail(`calculation.with.${k}`, `${JSON.stringify(args[k])} is not in data/models/index.json`);
  if ("device" in args && !deviceById(args.device))
    c.fail("calculation.with.device", `${JSON.stringify(args.device)} is not a device of Figure 4.2's picker`);
}

function readScenario(file, context) {
  const c = checker(file);
  const s = c.object(c.parse(), "");
  c.only(s, "", FIELDS);
  for (const k of FIELDS) if (!(k in s)) c.fail(k, "missing");
  const id = FILE.exec(path.basename(file))[2];
  if (s.id !== id) c.fail("id", `expected ${JSON.stringify(id)}, the file's name, got ${JSON.stringify(s.id)}`);
  const ids = context.mechanisms.map((m) => m.id);
  if (!ids.includes(s.mechanism))
    c.fail("mechanism", `${JSON.stringify(s.mechanism)} is not a mechanism; there are ${ids.join(", ")}`);
  for (const k of ["title", "story", "because"]) c.text(s[k], k);
  c.object(s.not, "not");
  for (const m of ids.filter((m) => m !== s.mechanism)) c.text(s.not[m], `not.${m}`);
  c.only(
    s.not,
    "not",
    ids.filter((m) => m !== s.mechanism),
  );
  if (!context.sections.includes(s.section))
    c.fail("section", `${JSON.stringify(s.section)} is not a section; there are ${context.sections.join(", ")}`);
  c.list(s.inputs, "inputs").forEach((input, i) => checkInput(c, input, `inputs[${i}]`));
  for (const k of ["key", "name"]) {
    const seen = s.inputs.map((i) => i[k]);
    const twice = seen.find((v, i) => seen.indexOf(v) !== i);
    if (twice !== undefined) c.fail(`inputs[${seen.lastIndexOf(twice)}].${k}`, `${twice} twice`);
  }
  checkCalculation(c, s.calculation, context);
  checkChoices(c, s.assumptions, "assumptions");
  checkChoices(c, s.checks, "checks");
  // The real models its calculation reads, whose config.json the build hands the figure.
  const models = MODEL_ARGS.map((k) => s.calculation.with?.[k]).filter(Boolean);
  return models.length ? { ...s, models } : s;
}

/**
 * The mechanisms (mechanisms.json) and the scenarios (every NN-<id>.json, in file-name order) of
 * `dir`, checked; `files` are every file read, for a build to watch.
 * @param {string} [dir]
 */
export function readScenarios(dir = path.join(here, "scenarios")) {
  const mechanisms = readMechanisms(path.join(dir, "mechanisms.json"));
  const chapter = readSections();
  const sections = chapter.map((s) => s.id);
  const index = JSON.parse(readFileSync(path.join(root, "data", "models", "index.json"), "utf8"));
  const context = { mechanisms, sections, models: index.map((m) => m.id) };
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "mechanisms.json")
    .sort();
  for (const f of names)
    if (!FILE.test(f))
      throw new ScenarioError(`${path.relative(root, path.join(dir, f))}: expected a name NN-<id>.json`);
  const scenarios = names.map((f) => readScenario(path.join(dir, f), context));
  if (scenarios.length === 0) throw new ScenarioError(`${path.relative(root, dir)}: no scenario`);
  const ids = scenarios.map((s) => s.id);
  const again = ids.find((id, i) => ids.indexOf(id) !== i);
  if (again) throw new ScenarioError(`${path.relative(root, dir)}: two scenarios with the id ${again}`);
  const places = names.map((f) => f.slice(0, 2));
  const twice = places.find((p, i) => places.indexOf(p) !== i);
  if (twice) throw new ScenarioError(`${path.relative(root, dir)}: two scenarios numbered ${twice}`);
  // Each section a scenario sends the reader to, by its <h2>: its number and its title
  // ({ number: "4", title: "Growing context: what it costs" }).
  const linked = chapter.filter((c) => scenarios.some((s) => s.section === c.id));
  for (const c of linked)
    if (!c.number) throw new ScenarioError(`${c.file}: no numbered <h2>, the title a scenario links to`);
  const titles = Object.fromEntries(linked.map((c) => [c.id, { number: c.number, title: c.title }]));
  return {
    mechanisms,
    scenarios,
    sectionTitles: titles,
    files: [path.join(dir, "mechanisms.json"), ...names.map((f) => path.join(dir, f)), ...linked.map((c) => c.path)],
  };
}
