// What a reader takes away from each figure (site/src/takeaway.js, site/src/numpy.js), and the
// chapter's permalinks and contents (site/build.mjs, reader.css). For every figure of the registry
// (site/src/widgets/figures.js) on the reader, as it opens and after one change of its inputs:
//  - Copy as NumPy: the program is reference/*.py's definitions, each verbatim, and a driver that
//    defines nothing of its own; it runs with /usr/bin/python3 and NumPy alone (and Python's own
//    fractions) and prints the figure's numbers: every quantity it prints equals the figure's
//    result within 1e-9 relative (1e-9 absolute below 1: the reference computes from the
//    definitions, in long double or exactly where the core rounds to double, so the two differ by
//    the core's rounding, a few units in the last place), and the figure's readout equals the
//    printed value at the readout's own rounding;
//  - Download SVG parses, carries the caption and the numbers the figure shows, and every colour
//    is resolved (no CSS variable, no currentColor, no class to style it);
//  - Download PNG decodes, is not blank, and is the SVG drawn at twice its size;
//  - Copy calculation gives the worked calculation's text.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const { execFile } = require("node:child_process");
const path = require("node:path");
const { useBrowser, openReader, openFigure, artifact } = require("./browser.js");
const { figures, figureNameOf, trials } = require("./registry.js");

const browser = useBrowser(test);
const PYTHON = "/usr/bin/python3";
const RELATIVE = 1e-9;

// What each figure must take away is its trial (its <name>-figure.js, read through the registry;
// figures.test.js checks that every figure has one): its change (as its controls would make it),
// what its program prints, its readouts and the numbers its picture carries. The diagnosis shows
// one scenario at a time: its programs are checked scenario by scenario (SCENARIOS), its picture
// with the others.
//
// The reader's figures by id, each with its change: every figure of the registry at its id, and
// after the first sampling figure the second (Figure 2.2, exercise 2's), with a change of its own.
const ON_READER = Object.entries(figures)
  .filter(([name]) => trials[name].change)
  .flatMap(([name, { id }]) => [
    [id, trials[name].change],
    ...(name === "sampling" ? [["sampling-exercise", { temperature: 1.5, topP: 0.95 }]] : []),
  ]);

// --- the reference in a program ---------------------------------------------------------------

// reference/*.py as the files are, and the names they define (functions, and UPPER_CASE
// constants): a program must hold these definitions verbatim and define no function of its own
// but show(), so that what a reader copies cannot drift from what the core is tested against.
const REFERENCE = path.join(__dirname, "..", "..", "reference");
const referenceSources = fs
  .readdirSync(REFERENCE)
  .filter((f) => f.endsWith(".py"))
  .map((f) => `\n${fs.readFileSync(path.join(REFERENCE, f), "utf8")}`);
const referenceConstants = new Set(
  referenceSources.flatMap((src) => [...src.matchAll(/\n([A-Z][A-Z0-9_]*) = /g)].map((m) => m[1])),
);

/**
 * The program's top-level functions, and its assignments of the reference's constants: each with
 * the comment lines right above it and its indented lines, as text.
 */
function definitionsIn(program) {
  const lines = program.split("\n");
  const found = [];
  lines.forEach((line, i) => {
    const m = /^def (\w+)\(|^([A-Z][A-Z0-9_]*) = /.exec(line);
    if (!m || (m[2] && !referenceConstants.has(m[2]))) return;
    let start = i;
    while (start > 0 && lines[start - 1].startsWith("#")) start -= 1;
    let end = i + 1;
    while (end < lines.length && (lines[end] === "" || /^\s/.test(lines[end]))) end += 1;
    while (lines[end - 1] === "") end -= 1;
    found.push({ name: m[1] ?? m[2], text: lines.slice(start, end).join("\n"), end });
  });
  return found;
}

/**
 * Asserts that every definition in `program` but show() is one of reference/*.py's, verbatim (its
 * comment lines included), that there is one at least, and that the driver after them calls one.
 */
function assertInlinesReference(program, where) {
  const inlined = definitionsIn(program).filter((d) => d.name !== "show");
  assert.ok(inlined.length > 0, `${where}: the program holds no definition of reference/`);
  for (const d of inlined) {
    const verbatim = referenceSources.some((src) => src.includes(`\n${d.text}\n\n`) || src.endsWith(`\n${d.text}\n`));
    assert.ok(verbatim, `${where}: ${d.name} in the program is not reference/'s, verbatim:\n${d.text}`);
  }
  const driver = program
    .split("\n")
    .slice(Math.max(...inlined.map((d) => d.end)))
    .join("\n");
  assert.match(
    driver,
    new RegExp(`\\b(${inlined.map((d) => d.name).join("|")})\\(`),
    `${where}: the driver calls the reference`,
  );
}

// --- running and reading a program ----------------------------------------------------------

function runPython(code) {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, ["-c", code], { timeout: 60000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`python3 failed: ${stderr || error.message}\n${code}`));
      else resolve(stdout);
    });
  });
}

/** A Python literal as printed (numbers, inf, nan, True/False/None, quoted strings, nested lists). */
function parsePython(text) {
  let i = 0;
  const space = () => {
    while (/\s/.test(text[i] ?? "")) i += 1;
  };
  const value = () => {
    space();
    const c = text[i];
    if (c === "[" || c === "(") {
      const close = c === "[" ? "]" : ")";
      i += 1;
      const out = [];
      space();
      while (text[i] !== close) {
        out.push(value());
        space();
        if (text[i] === ",") i += 1;
        space();
      }
      i += 1;
      return out;
    }
    if (c === "'" || c === '"') {
      let s = "";
      i += 1;
      while (text[i] !== c) {
        if (text[i] === "\\") {
          const e = text[i + 1];
          const hex = { x: 2, u: 4, U: 8 }[e];
          if (hex) {
            s += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + hex), 16));
            i += 2 + hex;
            continue;
          }
          s += { n: "\n", t: "\t", r: "\r" }[e] ?? e;
          i += 2;
          continue;
        }
        s += text[i];
        i += 1;
      }
      i += 1;
      return s;
    }
    const m = /^(-?inf|nan|True|False|None|-?[\d.]+(?:e[-+]?\d+)?)/.exec(text.slice(i));
    if (!m) throw new Error(`cannot read ${text.slice(i, i + 30)}`);
    i += m[0].length;
    return { inf: Infinity, "-inf": -Infinity, nan: NaN, True: true, False: false, None: null }[m[0]] ?? Number(m[0]);
  };
  const v = value();
  space();
  if (i !== text.length) throw new Error(`unexpected ${text.slice(i, i + 30)}`);
  return v;
}

/** The program's `name = value` lines as { name: value }. */
function printed(stdout) {
  const out = {};
  for (const line of stdout.split("\n")) {
    const m = /^([a-z_]+) = (.*)$/.exec(line);
    if (m) out[m[1]] = parsePython(m[2]);
  }
  return out;
}

/** Asserts that `actual` (printed) equals `expected` (the figure's) within RELATIVE, entry by entry. */
function assertClose(actual, expected, where) {
  if (Array.isArray(expected)) {
    assert.ok(
      Array.isArray(actual) && actual.length === expected.length,
      `${where}: printed ${JSON.stringify(actual)?.slice(0, 200)}, the figure has ${expected.length} entries`,
    );
    expected.forEach((e, i) => assertClose(actual[i], e, `${where}[${i}]`));
    return;
  }
  if (typeof expected === "boolean" || typeof expected === "string") {
    assert.equal(actual, expected, where);
    return;
  }
  assert.equal(typeof actual, "number", `${where}: printed ${JSON.stringify(actual)}`);
  if (!Number.isFinite(expected)) {
    assert.equal(actual, expected, where);
    return;
  }
  // 1e-9 relative, and 1e-9 absolute below 1: the program and the core do the same arithmetic,
  // in orders that can differ (sums, matrix products) and with libm functions that can differ in
  // the last bit; quantities that are rounding noise (the smoothing check's 4e-16) fall under the
  // absolute part.
  const tolerance = RELATIVE * Math.max(1, Math.abs(expected));
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${where}: printed ${actual}, the figure's ${expected} (tolerance ${tolerance})`,
  );
}

/**
 * A number as the page shows it, with the tolerance its rounding allows: "42.2%", "×0.0067",
 * "−1.5", "16,384", "6.7e−3", "16 KiB", "1.41 tokens", "1.442×". Returns { value, tolerance } or null.
 */
function shownValue(text) {
  const sup = {
    "⁻": "-",
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
  };
  const t = text
    .replace(/\s*×\s*10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, (_, k) => `e${[...k].map((c) => sup[c]).join("")}`)
    .replace(/−/g, "-")
    .replace(/[×≈±]/g, "")
    .trim();
  const m = /^(-?[\d,]*\.?\d+)(?:e(-?\d+))?\s*(%|bytes?|KiB|MiB|GiB|TiB|PiB)?/.exec(t);
  if (!m) return null;
  const mantissa = m[1].replace(/,/g, "");
  const decimals = mantissa.includes(".") ? mantissa.length - mantissa.indexOf(".") - 1 : 0;
  const exponent = m[2] ? Number(m[2]) : 0;
  const unit = { "%": 0.01, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40, PiB: 2 ** 50 }[m[3]] ?? 1;
  const scale = 10 ** exponent * unit;
  return { value: Number(mantissa) * scale, tolerance: 0.5 * 10 ** -decimals * scale * (1 + 1e-9) + 1e-15 };
}

// --- driving the page -----------------------------------------------------------------------

/** Shows every figure's numbers: the exercises blur some until they are answered. */
const revealAll = (page) =>
  page.evaluate(() => {
    for (const a of document.querySelectorAll("[for]")) a.reveal?.();
  });

/** Applies `patch` to figure `id` as its controls would, and waits for it to redraw. */
const change = (page, id, patch) =>
  page.evaluate(
    async ({ id, patch }) => {
      const el = document.getElementById(id);
      const drawn = new Promise((resolve) => el.addEventListener("llm-change", resolve, { once: true }));
      el.set(patch, { sync: true });
      await drawn;
    },
    { id, patch },
  );

/** The figure's state and result (as JSON: infinities kept, DOM nodes left out) and readouts. */
const figureData = (page, id, selector) =>
  page
    .evaluate(
      ({ id, selector }) => {
        const el = document.getElementById(id);
        const json = JSON.stringify({ state: el.state, result: el.result }, (k, v) =>
          v instanceof Node ? undefined : typeof v === "number" && !Number.isFinite(v) ? `${v}` : v,
        );
        const readouts = selector ? [...el.shadowRoot.querySelectorAll(selector)].map((x) => x.textContent) : [];
        return { json, readouts };
      },
      { id, selector },
    )
    .then(({ json, readouts }) => ({
      ...JSON.parse(json, (k, v) => (v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : v)),
      readouts,
    }));

/** Presses one of the figure's actions and returns the panel's text (textarea) or its note. */
async function press(page, id, className) {
  const fig = page.locator(`#${id}`);
  await page.evaluate((id) => {
    const el = document.getElementById(id);
    el.panel.replaceChildren();
    el.panel.hidden = true;
  }, id);
  await fig.scrollIntoViewIfNeeded();
  await fig.locator(`.${className}`).click();
  const panel = fig.locator(".llm-panel:not([hidden])");
  await panel.waitFor();
  const area = panel.locator("textarea");
  return (await area.count()) ? { text: await area.inputValue() } : { note: await panel.textContent() };
}

/** Presses a download action and returns the file's bytes. */
async function downloaded(page, id, className) {
  const fig = page.locator(`#${id}`);
  await fig.scrollIntoViewIfNeeded();
  const [file] = await Promise.all([page.waitForEvent("download"), fig.locator(`.${className}`).click()]);
  const target = artifact(`takeaway-${file.suggestedFilename()}`);
  await file.saveAs(target);
  assert.equal(file.suggestedFilename(), `${id}.${className.endsWith("svg") ? "svg" : "png"}`);
  return fs.readFileSync(target);
}

/** Checks figure `id`'s NumPy program against its result and readouts; returns what it printed. */
async function checkNumpy(page, id, label) {
  const name = figureNameOf(await page.evaluate((id) => document.getElementById(id).localName, id));
  const { result, readouts } = await figureData(page, id, trials[name].readouts?.selector);
  const { text, note } = await press(page, id, "llm-copy-numpy");
  assert.ok(text, `${id} (${label}): no program, the panel says: ${note}`);
  // (a program's imports are top-level: an indented "from" is a docstring's word)
  assert.doesNotMatch(
    text,
    /^(import|from)\s+(?!numpy\b|fractions\b)/m,
    `${id}: the program imports only NumPy and Python's fractions`,
  );
  assertInlinesReference(text, `${id} (${label})`);
  const out = printed(await runPython(text));
  const expected = trials[name].prints(result);
  assert.deepEqual(Object.keys(out).sort(), Object.keys(expected).sort(), `${id} (${label}): the quantities printed`);
  for (const [name, value] of Object.entries(expected)) assertClose(out[name], value, `${id} (${label}) ${name}`);
  const values = trials[name].readouts.values(out);
  assert.equal(readouts.length, values.length, `${id}: ${readouts.length} readouts`);
  readouts.forEach((text, i) => {
    const shown = shownValue(text);
    assert.ok(shown, `${id}: readout “${text}” is a number`);
    assert.ok(
      Math.abs(values[i] - shown.value) <= shown.tolerance,
      `${id} (${label}): the figure shows “${text}”, the program printed ${values[i]}`,
    );
  });
  return out;
}

test("Copy as NumPy: every figure's program, run with python3 and NumPy, prints the figure's numbers, as it opens and after a change", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280 });
  await revealAll(page);
  for (const [id, patch] of ON_READER) {
    await checkNumpy(page, id, "default");
    await change(page, id, patch);
    await checkNumpy(page, id, "changed");
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// The diagnosis figure shows one scenario's calculation at a time, once its mechanism is found:
// each of the fifteen, found, as it opens and with its first input changed. Its numbers are in
// the calculation's lines: each printed quantity is compared with the core's (called here as the
// scenario calls it), and every emphasised number in the lines with a printed one.
const SCENARIOS = {
  "refund-policy": "dilution",
  warranty: "dilution",
  treaty: "years",
  eiffel: "years",
  contract: "contract",
  "long-report": "rope",
  serving: "cache",
  batch: "cache",
  "header-line": "window",
  "research-script": "latent",
  "slow-chat": "speculation",
  "slow-draft": "speculation",
  "all-at-once": "decode",
  outlier: "outlier",
  "four-bit": "four-bit",
};

// The real models' committed configurations that scenarios read, computed here from the files.
const MODEL_TEXTS = Object.fromEntries(
  ["gemma-3-27b", "deepseek-v3", "llama-3.1-8b", "qwen3-coder-30b-a3b"].map((id) => [
    id,
    fs.readFileSync(path.join(__dirname, "..", "..", "data", "models", `${id}.json`), "utf8"),
  ]),
);

const diagnoseExpected = (page) =>
  page
    .evaluate(
      ({ kinds, texts }) => {
        const el = document.getElementById("diagnose-figure");
        const { s } = el.current();
        const camel = (n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
        const v = Object.fromEntries(s.inputs.map((i) => [i.key, el.state[camel(`${s.id}-${i.name}`)]]));
        const core = el.core;
        const years = { treaty: [["1919", "1920", "1918"], 7], eiffel: [["1887", "1889", "1888"], 11] };
        const shapes = {
          serving: { heads: 32, kvHeads: 8, headDim: 128, layers: 32 },
          batch: { heads: 32, kvHeads: 32, headDim: 128, layers: 32 },
        };
        let out;
        switch (kinds[s.id]) {
          case "dilution":
            out = {
              relevant_weight: core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.n })
                .relevantWeight,
              relevant_weight_trimmed: core.contextDilution({
                relevantScore: v.a,
                distractorScore: v.b,
                distractors: v.trimmed,
              }).relevantWeight,
            };
            break;
          case "years": {
            const [tokens, seed] = years[s.id];
            const r = core.sampling({ logits: [v.z1, v.z2, v.z3] }, { temperature: v.T });
            const draws = core.sample(r.probs, { count: 10, seed });
            const greedy = core.sampling({ logits: [v.z1, v.z2, v.z3] }, { temperature: 0 });
            out = { probs: r.probs, draws, drawn: draws.map((t) => tokens[t]), greedy_token: tokens[greedy.kept[0]] };
            break;
          }
          case "contract": {
            const { steepest, gentlest } = core.alibiHeads(v.heads);
            out = {
              steepest_head: steepest.head,
              steepest_slope: steepest.slope,
              steepest_half_distance: steepest.halfDistance,
              gentlest_head: gentlest.head,
              gentlest_slope: gentlest.slope,
              gentlest_half_distance: gentlest.halfDistance,
              far_weight_factor: core.alibi({ slope: gentlest.slope, distances: v.distance + 1 }).relativeWeight[
                v.distance
              ],
            };
            break;
          }
          case "rope": {
            const unit = Array.from({ length: 128 }, (_, i) => (i === 0 ? 1 : 0));
            const trained = core.rope(unit, unit, v.trained, 0, { base: v.base });
            const used = core.rope(unit, unit, v.offset, 0, { base: v.base });
            out = {
              slowest_theta: trained.thetas[63],
              angle_at_trained_length: trained.angles[63][0],
              angle_at_offset: used.angles[63][0],
            };
            break;
          }
          case "cache": {
            const r = core.attentionCost({
              ...shapes[s.id],
              tokens: v.tokens,
              batch: v.batch,
              kvBytesPerElement: v.kvBytesPerElement,
            });
            out = { kv_bytes: r.kvBytes, kv_bytes_per_token: r.kvBytesPerToken };
            break;
          }
          case "window": {
            const shape = core.modelFromConfigText(texts["gemma-3-27b"]);
            const opts = {
              tokens: v.tokens,
              kvBytesPerElement: 2,
              weightBytesPerParam: 2,
              memoryBytes: v.memory * 2 ** 30,
            };
            const r = core.modelCost(shape, opts);
            const e = core.modelCost({ ...shape, layerKinds: shape.layerKinds.map(() => "full") }, opts);
            const far = core.modelCost(shape, { tokens: v.back });
            out = {
              ...Object.fromEntries(r.byKind.map((k) => [`kv_bytes_${k.kind}`, k.bytes])),
              kv_bytes: r.kvBytes,
              kv_bytes_every_layer_full: e.kvBytes,
              weights_bytes: r.weightsBytes,
              fit_max_tokens: r.fit.maxTokens,
              fit_max_tokens_every_layer_full: e.fit.maxTokens,
              ...Object.fromEntries(far.byKind.map((k) => [`tokens_held_${k.kind}`, k.tokensHeld])),
            };
            break;
          }
          case "latent": {
            const shape = core.modelFromConfigText(texts["deepseek-v3"]);
            const opts = {
              tokens: v.tokens,
              kvBytesPerElement: v.kvBytesPerElement,
              weightBytesPerParam: 1,
              memoryBytes: v.memory * 2 ** 30,
            };
            const engine = core.modelCost(shape, { ...opts, batch: v.batch, mlaCache: "latent" });
            const script = core.modelCost(shape, { ...opts, batch: 1, mlaCache: "expanded" });
            const other = core.modelCost(core.modelFromConfigText(texts["llama-3.1-8b"]), {
              tokens: v.tokens,
              kvBytesPerElement: v.kvBytesPerElement,
            });
            out = {
              engine_kv_bytes_per_token: engine.kvBytesPerToken,
              engine_kv_bytes: engine.kvBytes,
              script_kv_bytes_per_token: script.kvBytesPerToken,
              script_kv_bytes: script.kvBytes,
              weights_bytes: engine.weightsBytes,
              params_total: engine.params.total,
              engine_fit_max_batch: engine.fit.maxBatch,
              script_fit_max_tokens: script.fit.maxTokens,
              compared_kv_bytes_per_token: other.kvBytesPerToken,
              compared_params_total: other.params.total,
            };
            break;
          }
          case "speculation": {
            const r = core.speculativeDecoding({ alpha: v.alpha, gamma: v.gamma, costRatio: v.c });
            out = {
              expected_tokens: r.expectedTokens,
              ceiling: r.ceiling === Infinity ? "Infinity" : r.ceiling,
              speedup: r.speedup,
            };
            break;
          }
          case "decode": {
            // One H100 SXM's memory as its driver reports it (81,559 MiB); the bandwidth and peak the inputs'.
            const shape = core.modelFromConfigText(texts["qwen3-coder-30b-a3b"]);
            const devices = {
              count: 1,
              memoryBytes: 81559 * 2 ** 20,
              bandwidthBytesPerSecond: v.bandwidth * 1e9,
              flopsPerSecond: v.peak * 1e12,
            };
            out = {};
            for (const [name, batch] of [
              ["alone", 1],
              ["all", v.users],
            ]) {
              const d = core.modelCost(shape, { tokens: v.tokens, batch, devices }).decode;
              for (const key of [
                "weightsBytesRead",
                "expertsTouched",
                "kvBytesRead",
                "bytesPerStep",
                "memorySeconds",
                "computeSeconds",
                "secondsPerStep",
                "tokensPerSecond",
              ])
                out[`${name}_${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`] = d[key];
            }
            break;
          }
          case "outlier": {
            const values = [v.outlier, 0.82, -0.37, 0.15, -0.06];
            const q = core.quantize(values, { bits: v.bits }),
              small = core.quantize(values.slice(1), { bits: v.bits });
            out = {
              scale: q.scale,
              levels: q.levels,
              max_error: q.maxAbsError,
              scale_without_outlier: small.scale,
              max_error_without_outlier: small.maxAbsError,
            };
            break;
          }
          case "four-bit": {
            const values = [v.largest, 0.04, -0.03, 0.02, -0.01];
            const q = core.quantize(values, { bits: v.bits }),
              before = core.quantize(values, { bits: v.before });
            out = {
              qmax: q.qmax,
              scale: q.scale,
              levels: q.levels,
              max_error: q.maxAbsError,
              before_qmax: before.qmax,
              before_scale: before.scale,
              before_levels: before.levels,
              before_max_error: before.maxAbsError,
            };
            break;
          }
          default:
            throw new Error(`no expectation for the scenario ${s.id}`);
        }
        const strong = [...el.shadowRoot.querySelectorAll(".diagnose-lines strong")].map((x) => x.textContent);
        return {
          id: s.id,
          out,
          strong,
          inputs: s.inputs.map((i) => ({
            key: camel(`${s.id}-${i.name}`),
            min: i.min,
            max: i.max,
            step: i.step ?? 1,
            value: el.state[camel(`${s.id}-${i.name}`)],
          })),
        };
      },
      { kinds: SCENARIOS, texts: MODEL_TEXTS },
    )
    .then((x) => ({ ...x, out: JSON.parse(JSON.stringify(x.out), (k, v) => (v === "Infinity" ? Infinity : v)) }));

/** Shows scenario k (1-based) of the figure's order with its mechanism found. */
const solve = (page, k) =>
  page.evaluate(async (k) => {
    const el = document.getElementById("diagnose-figure");
    const drawn = () => new Promise((resolve) => el.addEventListener("llm-change", resolve, { once: true }));
    let done = drawn();
    el.set({ scenario: k, picks: [] }, { sync: true });
    await done;
    const picks = Array.from({ length: k }, () => "");
    picks[k - 1] = el.current().s.mechanism;
    done = drawn();
    el.set({ picks }, { sync: true });
    await done;
  }, k);

async function checkScenario(page, label) {
  const { id, out: expected, strong } = await diagnoseExpected(page);
  const { text, note } = await press(page, "diagnose-figure", "llm-copy-numpy");
  assert.ok(text, `${id}: no program, the panel says: ${note}`);
  assertInlinesReference(text, `${id} (${label})`);
  const out = printed(await runPython(text));
  assert.deepEqual(Object.keys(out).sort(), Object.keys(expected).sort(), `${id} (${label}): the quantities printed`);
  for (const [name, value] of Object.entries(expected)) assertClose(out[name], value, `${id} (${label}) ${name}`);
  // Every emphasised number of the calculation is a printed quantity at its rounding (or, for the
  // draws, the tokens printed).
  const values = Object.values(out).flat(2);
  for (const s of strong) {
    const shown = shownValue(s);
    const number =
      shown !== null && values.some((x) => typeof x === "number" && Math.abs(x - shown.value) <= shown.tolerance);
    const tokens = s === out.greedy_token || (out.drawn && s === out.drawn.join(", "));
    assert.ok(
      number || tokens,
      `${id} (${label}): “${s}” in the calculation is not among the printed ${JSON.stringify(out)}`,
    );
  }
  return id;
}

test("Copy as NumPy: each of the diagnosis figure's scenarios, once found, prints the numbers of its calculation", async () => {
  const { page, errors } = await openFigure(browser.context, "diagnose");
  // Before the mechanism is found the program would give it away: the figure says so instead.
  const { note } = await press(page, "diagnose-figure", "llm-copy-numpy");
  assert.match(note, /not shown yet/);
  const count = await page.evaluate(() => document.getElementById("diagnose-figure").order.length);
  const seen = new Set();
  for (let k = 1; k <= count; k += 1) {
    await solve(page, k);
    seen.add(await checkScenario(page, "default"));
    const { inputs } = await diagnoseExpected(page);
    const first = inputs[0];
    const next = first.value + first.step <= first.max ? first.value + first.step : first.value - first.step;
    await change(page, "diagnose-figure", { [first.key]: next });
    await checkScenario(page, `${first.key} = ${next}`);
  }
  assert.deepEqual([...seen].sort(), Object.keys(SCENARIOS).sort());
  assert.deepEqual(errors, []);
  await page.close();
});

// --- pictures ---------------------------------------------------------------------------------

/** Parses an SVG in the page and reports what the checks need. */
const inspectSvg = (page, svg) =>
  page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = doc.documentElement;
    const paints = [...doc.querySelectorAll("*")].flatMap((el) =>
      ["fill", "stroke"].map((a) => el.getAttribute(a)).filter(Boolean),
    );
    const styled = [...doc.querySelectorAll("[class], [style], style")].length;
    return {
      error: doc.querySelector("parsererror")?.textContent ?? null,
      tag: root.localName,
      title: root.querySelector(":scope > title")?.textContent ?? null,
      text: [...doc.querySelectorAll("text")].map((t) => t.textContent).join(" "),
      background: root.querySelector(":scope > rect")?.getAttribute("fill"),
      fills: [...new Set(paints)],
      styled,
      width: Number(root.getAttribute("width")),
      height: Number(root.getAttribute("height")),
    };
  }, svg.toString("utf8"));

/** The figure's caption text without the formulas' TeX, and its readouts' text, and its background. */
const figureLook = (page, id, selector) =>
  page.evaluate(
    ({ id, selector }) => {
      const el = document.getElementById(id);
      const cap = el.closest("figure").querySelector("figcaption").cloneNode(true);
      for (const a of cap.querySelectorAll("annotation")) a.remove();
      return {
        caption: cap.textContent.replace(/\s+/g, " ").trim(),
        readouts: [...el.shadowRoot.querySelectorAll(selector)].map((x) => {
          const copy = x.cloneNode(true);
          for (const v of copy.querySelectorAll(".visually-hidden")) v.remove();
          return copy.textContent;
        }),
        background: getComputedStyle(el.shadowRoot.querySelector(".llm-frame")).backgroundColor,
      };
    },
    { id, selector },
  );

const squash = (s) => s.replace(/\s+/g, "");

async function checkSvg(page, id, name, label) {
  const svg = await downloaded(page, id, "llm-download-svg");
  const look = await figureLook(page, id, trials[name].pictured);
  const s = await inspectSvg(page, svg);
  assert.equal(s.error, null, `${id} (${label}): the SVG parses`);
  assert.equal(s.tag, "svg");
  assert.equal(s.title, look.caption, `${id}: the caption is the SVG's title`);
  assert.ok(squash(s.text).includes(squash(look.caption).slice(0, 60)), `${id}: the caption is written in the picture`);
  for (const r of look.readouts)
    assert.ok(squash(s.text).includes(squash(r)), `${id} (${label}): the figure's “${r}” is in the SVG`);
  assert.equal(s.background, look.background, `${id}: the background is the figure's panel, resolved`);
  // The picture states the settings that made it: each that differs from the defaults.
  const settings = await page.evaluate((id) => document.getElementById(id).settings("defaults"), id);
  const stated = settings.length ? settings.map(([n, v]) => `${n}=${v}`) : ["Settings: the figure's defaults."];
  for (const st of stated)
    assert.ok(squash(s.text).includes(squash(st)), `${id} (${label}): the picture states ${st.slice(0, 80)}`);
  const unresolved = s.fills.filter((f) => /var\(|currentcolor|inherit/i.test(f));
  assert.deepEqual(unresolved, [], `${id}: every fill and stroke is a colour`);
  assert.equal(s.styled, 0, `${id}: nothing depends on a class or a style sheet`);
  assert.ok(s.fills.length >= 3, `${id}: ${s.fills.length} colours`);
  return { svg, ...s };
}

/** Checks a PNG: its signature, that it decodes, is not blank, and is the SVG drawn at 2×. */
async function checkPng(page, id, svg, label) {
  const png = await downloaded(page, id, "llm-download-png");
  assert.deepEqual(
    [...png.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    `${id}: the PNG signature`,
  );
  const r = await page.evaluate(
    async ({ png, svg }) => {
      const load = async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return img;
      };
      const pixels = (img, w, h) => {
        const c = document.createElement("canvas");
        c.width = w;
        c.height = h;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0, w, h);
        return g.getImageData(0, 0, w, h).data;
      };
      const a = await load(`data:image/png;base64,${png}`);
      const b = await load(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      const w = a.naturalWidth,
        h = a.naturalHeight;
      const p = pixels(a, w, h),
        q = pixels(b, w, h);
      const colours = new Set();
      let diff = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (colours.size < 64) colours.add(`${p[i]},${p[i + 1]},${p[i + 2]},${p[i + 3]}`);
        diff += Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
      }
      return {
        w,
        h,
        svgW: b.naturalWidth,
        svgH: b.naturalHeight,
        colours: colours.size,
        diff: diff / (p.length / 4) / 3,
      };
    },
    { png: png.toString("base64"), svg: svg.toString("utf8") },
  );
  assert.ok(r.w > 0 && r.h > 0, `${id}: the PNG decodes`);
  assert.equal(r.w, 2 * r.svgW, `${id}: twice the SVG's width`);
  assert.equal(r.h, 2 * r.svgH, `${id}: twice the SVG's height`);
  assert.ok(r.colours > 8, `${id} (${label}): the PNG is not blank (${r.colours} colours)`);
  // The same drawing at the same size: only antialiasing may differ (mean difference per channel).
  assert.ok(r.diff < 2, `${id} (${label}): the PNG is the SVG drawn (mean difference ${r.diff.toFixed(2)})`);
}

test("Download SVG and PNG: every figure's picture parses, has its caption, its numbers and resolved colours, as it opens and after a change", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280 });
  await revealAll(page);
  for (const [id, patch] of [...ON_READER, [figures.diagnose.id, { scenario: 2 }]]) {
    const name = figureNameOf(await page.evaluate((id) => document.getElementById(id).localName, id));
    const first = await checkSvg(page, id, name, "default");
    await checkPng(page, id, first.svg, "default");
    await change(page, id, patch);
    const second = await checkSvg(page, id, name, "changed");
    await checkPng(page, id, second.svg, "changed");
    assert.notEqual(first.text, second.text, `${id}: the picture follows the figure`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("Download SVG: the picture takes the colours of the scheme the reader sees (dark), and works in embed.html", async () => {
  const { page } = await openFigure(browser.context, "alibi", { colorScheme: "dark" });
  const s = await checkSvg(page, "alibi-figure", "alibi", "dark");
  const dark = await page.evaluate(
    () => getComputedStyle(document.getElementById("alibi-figure").shadowRoot.querySelector(".llm-frame")).color,
  );
  assert.equal(s.background, "rgb(31, 33, 37)", "the dark panel");
  assert.ok(s.fills.includes(dark), `the dark scheme's text colour ${dark} is used`);
  await page.close();
});

test("Download SVG: a label holding control characters gives a well-formed SVG, and the PNG draws", async () => {
  const { page, url, errors } = await openFigure(browser.context, "sampling");
  await page.goto(`${url}&labels=a%00b%01|c%0B|d%1F|e%EF%BF%BF|f|g`);
  await page.waitForSelector("html[data-ready]");
  const labels = await page.evaluate(() => document.getElementById("sampling-figure").state.labels);
  assert.equal(labels[0], "a\u0000b\u0001", "the label was taken as given");
  const svg = await downloaded(page, "sampling-figure", "llm-download-svg");
  const s = await inspectSvg(page, svg);
  assert.equal(s.error, null, "the SVG parses as image/svg+xml");
  assert.match(s.text, /a\uFFFDb\uFFFD/, "a forbidden character is drawn as U+FFFD");
  assert.match(s.text, /Settings: .*labels=/, "the settings are stated");
  const png = await downloaded(page, "sampling-figure", "llm-download-png");
  assert.equal(png[1], 0x50, "a PNG was written");
  assert.deepEqual(errors, []);
  await page.close();
});

// --- the calculation as text ------------------------------------------------------------------

/** The worked calculation's text content (screen-reader-only text left out) and the copy's. */
async function checkCalculation(page, id, label) {
  const { text, note } = await press(page, id, "llm-copy-calculation");
  assert.ok(text, `${id}: no calculation, the panel says: ${note}`);
  const { expected, numbers } = await page.evaluate((id) => {
    const worked = document.getElementById(id).shadowRoot.querySelector(".worked, .diagnose-lines").cloneNode(true);
    for (const x of worked.querySelectorAll(".visually-hidden")) x.remove();
    const walker = document.createTreeWalker(worked, NodeFilter.SHOW_TEXT);
    const numbers = [];
    while (walker.nextNode()) numbers.push(...(walker.currentNode.data.match(/\d+(\.\d+)?/g) ?? []));
    return { expected: worked.textContent, numbers };
  }, id);
  // Modulo whitespace and what the copy adds: list numbers and dashes, ^ and _ with their braces.
  const bare = (s) =>
    s
      .replace(/^\s*(\d+\.|-)\s/gm, "")
      .replace(/[\^_{}]/g, "")
      .replace(/\s+/g, "");
  assert.equal(bare(text), bare(expected), `${id} (${label}): the copy is the calculation`);
  for (const n of numbers) assert.ok(text.includes(n), `${id}: ${n} is in the copy`);
  return text;
}

test("Copy calculation: every figure's worked calculation as plain text, steps on lines, powers and indices as ^ and _", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1280 });
  await revealAll(page);
  for (const [id, patch] of ON_READER) {
    await checkCalculation(page, id, "default");
    await change(page, id, patch);
    await checkCalculation(page, id, "changed");
  }
  // Dilution's one-line formula: e to the power a, written e^a; attention's steps numbered.
  const dilution = await checkCalculation(page, "dilution-figure", "again");
  assert.match(dilution, /^w = e\^a \/ \(e\^a \+ n·e\^b\) = e\^3\.5 \/ \(e\^3\.5 \+ 1,000·e\^\{−0\.5\}\) = 0\.\d{4}$/);
  const attention = await checkCalculation(page, "attention-figure", "again");
  assert.match(attention, /\n1\. Scores\. .*s_\{3,j\} = q_3 · k_j/);
  assert.match(attention, /\n  - s_\{3,1\} = /, "nested items are indented");
  assert.match(attention, /\n4\. Output\. o_3 = /);
  // The diagnosis figure's calculation is its lines, once the mechanism is found.
  const before = await press(page, "diagnose-figure", "llm-copy-calculation");
  assert.match(before.note ?? "", /not shown yet/);
  await solve(page, 1);
  const lines = await checkCalculation(page, "diagnose-figure", "found");
  assert.ok(lines.split("\n").length >= 2 && lines.split("\n").every((l) => l.startsWith("- ")), lines);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Take-away waits for the exercise: a figure whose numbers are blurred, or whose inputs are in error, gives nothing away", async () => {
  const { page } = await openReader(browser.context);
  // The attention figure's numbers are blurred until exercise 1 is answered; the dilution
  // figure beside it has no exercise.
  for (const action of ["llm-copy-numpy", "llm-copy-calculation", "llm-download-svg", "llm-download-png"]) {
    const blurred = await press(page, "attention-figure", action);
    assert.match(blurred.note ?? "", /exercise asks you to predict/, action);
    const open = await press(page, "dilution-figure", action);
    assert.doesNotMatch(open.note ?? "", /predict/, action);
  }
  await revealAll(page);
  await page.evaluate(() =>
    document.getElementById("moe-figure").set({
      logits: [
        [NaN, 0],
        [0, 1],
      ],
    }),
  );
  const bad = await press(page, "moe-figure", "llm-copy-numpy");
  assert.match(bad.note ?? "", /last good numbers/);
  await page.close();
});

// --- headings and contents ----------------------------------------------------------------------

test("every section heading has a permalink to its own id, and at 1400 px the contents stay on screen beside the text", async () => {
  const { page, errors } = await openReader(browser.context, { width: 1400, height: 900 });
  const headings = await page.$$eval("main h2", (hs) =>
    hs.map((h) => ({
      id: h.id,
      href: h.querySelector("a.permalink")?.getAttribute("href"),
      label: h.querySelector("a.permalink")?.getAttribute("aria-label"),
    })),
  );
  assert.ok(headings.length >= 10, `${headings.length} headings`);
  for (const h of headings) {
    assert.ok(h.id, "the heading has an id");
    assert.equal(h.href, `#${h.id}`, `${h.id}: its permalink`);
    assert.equal(h.label, "Link to this section");
  }
  // Each section is named by its title alone (the words of its heading, without the link's label).
  const sections = await page.$$eval("main section[aria-labelledby]", (ss) =>
    ss.map((sec) => ({
      id: sec.id,
      title: sec
        .querySelector("h2")
        .textContent.replace(/\s*#\s*$/, "")
        .replace(/\s+/g, " ")
        .trim(),
    })),
  );
  assert.ok(sections.length >= 10, `${sections.length} sections`);
  for (const { id, title } of sections) {
    assert.equal(
      await page.getByRole("region", { name: title, exact: true }).count(),
      1,
      `section ${id} is named "${title}"`,
    );
  }
  // The link is shown when it has the focus, and goes to its heading.
  const link = page.locator("#rope-title a.permalink");
  await link.focus();
  assert.equal(await link.evaluate((a) => getComputedStyle(a).opacity), "1");
  await link.click();
  await page.waitForFunction(() => location.hash.startsWith("#rope-title"));
  const top = await page.evaluate(() => document.getElementById("rope-title").getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `the heading is at the top (${top})`);

  const place = () =>
    page.evaluate(() => {
      const toc = document.querySelector(".toc").getBoundingClientRect();
      const figures = [...document.querySelectorAll(".figure")].map((f) => f.getBoundingClientRect().left);
      const text = document.querySelector("main p").getBoundingClientRect().left;
      return {
        top: toc.top,
        bottom: toc.bottom,
        right: toc.right,
        width: toc.width,
        text,
        figure: Math.min(...figures),
        height: innerHeight,
        scroll: scrollY,
      };
    });
  for (const y of [0.3, 0.7, 0.98]) {
    await page.evaluate((y) => scrollTo(0, y * (document.documentElement.scrollHeight - innerHeight)), y);
    await page.waitForTimeout(50);
    const p = await place();
    assert.ok(p.scroll > 1000, `scrolled (${p.scroll})`);
    assert.ok(p.top >= 0 && p.bottom <= p.height, `the contents are on screen at ${y} (${p.top} … ${p.bottom})`);
    assert.ok(
      p.right <= p.figure && p.right < p.text,
      `the contents (right ${p.right}) leave the figures (${p.figure}) and the text (${p.text}) uncovered`,
    );
  }
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(sideways <= 0, `no sideways scroll (${sideways} px)`);
  await page.close();

  // Narrower, the contents stay at the top of the page, above the text.
  const narrow = await openReader(browser.context, { width: 1100, height: 900 });
  await narrow.page.evaluate(() => scrollTo(0, 5000));
  const below = await narrow.page.evaluate(() => document.querySelector(".toc").getBoundingClientRect().bottom);
  assert.ok(below < 0, "below 1200 px the contents scroll away with the page");
  await narrow.page.close();
  assert.deepEqual(errors, []);
});
