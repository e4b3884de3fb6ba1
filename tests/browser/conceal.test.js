// Nothing a gated figure exposes states its exercise's answer before the reader commits: for each
// exercise whose answer moves with the figure's inputs, every text node, attribute, field value
// and style of the figure (its shadow tree, its data table and its one-sentence summary included)
// and of the exercise around the question is read at the page's inputs and again after a change
// of them, and a place that shows a number the exercise would count right both times (the answer
// before, the new answer after, two different numbers) is a leak. A place that shows the same
// number at both inputs ("Key 1", "γ = 4") states an input, not the answer; so do the fields and
// sliders the reader sets. The follow-up's answer, asked for in its turn, is held back the same way. Exercise 8,
// whose answer is 1 for every split of the traffic (that is its point), has a check of its own.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useBrowser, openReader, showNumbers } = require("./browser.js");
const { EXERCISES, core, setAttr } = require("./exercise-list.js");

const browser = useBrowser(test);

// Attributes that place or shape a mark, which state no number the reader reads as such.
const GEOMETRY = [
  "d",
  "points",
  "transform",
  "viewBox",
  "x",
  "y",
  "x1",
  "x2",
  "y1",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "width",
  "height",
  "dx",
  "dy",
  "stroke-width",
  "stroke-dasharray",
  "font-size",
  "tabindex",
  "colspan",
  "rowspan",
];

/**
 * Everything the figure `id` and the exercise in `#section` expose, as { place: text }: each
 * element's own text, each attribute but geometry, each field's value, down every open shadow
 * tree. The exercise's answer, in a closed <details>, is left out: nothing of it is shown or
 * read out until it is opened.
 */
function exposed(page, id, section) {
  return page.evaluate(
    ([id, section, geometry]) => {
      const places = {};
      const skip = new Set(geometry);
      const visit = (node, path, held) => {
        const counts = {};
        for (const child of node.childNodes) {
          if (child.nodeType !== Node.ELEMENT_NODE) continue;
          const el = /** @type {Element} */ (child);
          // a <noscript>'s content is text where scripts run, which no one sees or hears (a
          // drawing for readers without scripts, an exercise's answer for them, closed)
          if (["style", "script", "noscript"].includes(el.localName)) continue;
          // What the reader sets (a field, a slider and the <output> that echoes it) is an input.
          if (["input", "select", "textarea", "output"].includes(el.localName)) continue;
          if (el.matches("details.answer:not([open]) > :not(summary)")) continue;
          const name = `${el.localName}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
          counts[name] = (counts[name] ?? 0) + 1;
          const inside = held || el.hasAttribute("data-predict-conceal");
          const here = `${inside && !held ? "held:" : ""}${path}/${name}[${counts[name]}]`;
          const text = [...el.childNodes]
            .filter((c) => c.nodeType === Node.TEXT_NODE)
            .map((c) => c.data)
            .join("");
          if (text.trim()) places[here] = text;
          for (const a of el.attributes)
            if (!skip.has(a.name) && !a.name.startsWith("data-predict")) places[`${here}@${a.name}`] = a.value;
          if ("value" in el && typeof el.value === "string" && el.localName !== "button" && el.localName !== "li")
            places[`${here}.value`] = el.value;
          if (el.shadowRoot) visit(el.shadowRoot, `${here}#shadow`, inside);
          visit(el, here, inside);
        }
      };
      const figure = document.getElementById(id);
      for (const a of figure.attributes) places[`figure@${a.name}`] = a.value;
      visit(figure.shadowRoot, "figure#shadow", false);
      visit(document.querySelector(`#${section} .exercise`), "exercise", false);
      return places;
    },
    [id, section, GEOMETRY],
  );
}

/** The numbers a text shows: "8,192", "−0.25", "1.875", "1e-3", "--w:0.178" (a style's). */
function numbers(text) {
  const out = [];
  for (const m of String(text).matchAll(/[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-−+]?\d+)?/gi))
    out.push(Number(m[0].replace(/,/g, "").replace(/−/g, "-")));
  return out.filter(Number.isFinite);
}

/**
 * Places that state `before` at the first reading and `after` at the second, with different
 * numbers; and places an exercise holds back (under data-predict-conceal, "held:") that state
 * `before` at all: held back, a readout keeps the drawing it had until it is shown, so it cannot
 * follow the answer, and must show no number of it.
 */
function leaks(first, second, before, after, tolerance) {
  const states = (x, v) => Math.abs(x - v) <= tolerance + 1e-9 * Math.abs(v);
  const found = [];
  for (const [place, text] of Object.entries(first)) {
    if (place.includes("held:")) {
      if (numbers(text).some((x) => states(x, before))) found.push(`${place}: "${text}"`);
      continue;
    }
    // A text that did not change with the inputs (the exercise's own question) follows nothing.
    if (!(place in second) || second[place] === text) continue;
    const was = numbers(text).filter((x) => states(x, before));
    const now = numbers(second[place]).filter((y) => states(y, after));
    if (was.some((x) => now.some((y) => x !== y))) found.push(`${place}: "${text}" → "${second[place]}"`);
  }
  return found;
}

// Exercise 8's answer, the loss under an even router, is 1 whatever the traffic: no change of
// inputs can tell a readout of it from a constant, so its check reads what the figure says of an
// even router: no place outside what is held back says what the loss is when the router is even.
test("exercise 8: nothing in Figure 8.1 or around its question says what the loss is under an even router before it is committed", async () => {
  const ex = EXERCISES.find((e) => e.n === 8);
  const { page, errors } = await openReader(browser.context);
  const places = await exposed(page, ex.figure, ex.section);
  assert.ok(Object.keys(places).length > 50, `read ${Object.keys(places).length} places`);
  const answer = await core(page, ex.figure, ex.value);
  const stating = Object.entries(places).filter(
    ([place, text]) =>
      !place.includes("held:") &&
      /\beven\b/.test(text) &&
      /\bloss\b|N·Σ/.test(text) &&
      // An expert's name ("expert 1", "E1") is a name, not a value.
      numbers(text.replace(/\bexperts? \d+|\bE\d+/g, "")).includes(answer),
  );
  assert.deepEqual(stating, []);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const ex of EXERCISES.filter((e) => e.n !== 8)) {
  test(`exercise ${ex.n}: nothing in Figure ${ex.figure} or around its question states the answer before it is committed`, async () => {
    const { page, errors } = await openReader(browser.context);
    const before = [await core(page, ex.figure, ex.value), await core(page, ex.figure, ex.followUp)];
    const first = await exposed(page, ex.figure, ex.section);
    await ex.change(page);
    // Readouts drawn after the render (a chart that measures itself) have had their frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const after = [await core(page, ex.figure, ex.value), await core(page, ex.figure, ex.followUp)];
    assert.ok(Object.keys(first).length > 50, `read ${Object.keys(first).length} places`);
    const second = await exposed(page, ex.figure, ex.section);
    // The answer, then the follow-up's (which the follow-up asks for in its turn).
    for (const i of [0, 1]) {
      if (i === 1 && Math.abs(after[1] - before[1]) <= 2 * ex.tolerance) continue; // reported below
      assert.ok(
        Math.abs(after[i] - before[i]) > 2 * ex.tolerance,
        `the change moves the answer (${before[i]} → ${after[i]})`,
      );
      assert.deepEqual(
        leaks(first, second, before[i], after[i], ex.tolerance),
        [],
        `answer ${before[i]} → ${after[i]}`,
      );
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/**
 * The numbers a text writes, each with the half unit of its last written digit (the rounding it
 * shows) and its count of significant digits: "8,192", "−0.25", "1.875", "1.57e-2", "42.5%" (a
 * share, 0.425), "1/2" (a fraction, 0.5).
 * @returns {{ x: number, half: number, significant: number, percent: boolean }[]}
 */
function written(text) {
  const out = [];
  const s = String(text).replace(/−/g, "-");
  for (const m of s.matchAll(/(-?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:e([-+]?\d+))?(%)?/gi)) {
    const [, sign, whole, fraction = "", exponent = "0", percent] = m;
    const scale = percent ? 100 : 1;
    const x = Number(`${sign}${whole.replace(/,/g, "")}.${fraction || "0"}e${exponent}`) / scale;
    const half = (0.5 * 10 ** (Number(exponent) - fraction.length)) / scale;
    const significant = `${whole.replace(/,/g, "")}${fraction}`.replace(/^0+/, "").length;
    if (Number.isFinite(x)) out.push({ x, half, significant, percent: Boolean(percent) });
  }
  for (const m of s.matchAll(/(?<![\d.])(\d+)\s*\/\s*(\d+)(?![\d.])/g))
    if (Number(m[2]) !== 0) out.push({ x: Number(m[1]) / Number(m[2]), half: 0, significant: 1, percent: false });
  return out;
}

/**
 * Whether a number as written states `v`: it is within the exercise's tolerance of it (a reader
 * who typed it would be told right), or it is `v` rounded to the number's own last digit with at
 * least two significant digits ("1.9" and "1.88" state 1.875; "2" does not, nor does "6" state
 * 5.545: one digit alone states only what is within the tolerance).
 */
function writes({ x, half, significant }, v, tolerance, { rounded = true } = {}) {
  if (Math.abs(x - v) <= tolerance + 1e-9 * Math.abs(v)) return true;
  return rounded && significant >= 2 && Math.abs(x - v) <= half * (1 + 1e-9);
}

/**
 * Values too plain to search for: a multiple of ¼ below 10 ("1", "2", "0.5") is written all over
 * a figure as a name or an input ("key 1", "ch 2", "α = 0.5"); such a value is searched for at
 * the other reading, after the exercise's change of inputs, where it is not plain.
 */
function plain(v) {
  return Math.abs(v) < 10 && Math.abs(v * 4 - Math.round(v * 4)) < 1e-9;
}

// Places that write a value searched for and state no answer, each with the reason. Nothing of a
// figure's readouts is here: only the scale of a chart, and facts that do not come from the
// figure's inputs and happen to be the value.
const COINCIDENT = [
  [
    /\/g\.axes\[1\]\/text\[\d+\]$/,
    "an axis's tick label or title: the chart's scale (its marks are checked by place, below)",
  ],
  [
    /\/table#chart-\d+-data\[1\]\/tbody\[1\]\/tr\[\d+\]\/th\[1\]$/,
    "a chart's data table's row head: a point of its x axis, 22 tokens in Figure 6.1",
  ],
  [
    /^section#cost\/(figure\.figure\[1\]\/llm-cost#cost-figure\[1\]#shadow\/div\.llm-frame\[1\]\/div\.cost-models\[1\]\/|div\.table-scroll\[1\]\/table\.summary\.model-cache\[1\]\/|p\.assumptions\[1\]$)/,
    "a published model's facts in section 4 (a context of 8,192 tokens, 8 heads of dimension 256)",
  ],
  [/^section#cost\/ul\[1\]\/li\[3\]$/, "the sliding windows of published models (Gemma 3 27B's 1,024 tokens)"],
  [
    /^section#cost\/.*llm-model#model-figure\[1\]#shadow\/.*\/div\.model-figure\.model-cache\[1\]\/div\.chart-box\[1\]\/div\.chart-data\.visually-hidden\[1\]\/table#chart-\d+-data\[1\]\/tbody\[1\]\/tr\[\d+\]\/td\[\d+\]$/,
    "Figure 4.2's cache sizes at each context (215 MiB): a size in bytes, not exercise 4b's tokens a second",
  ],
  [
    /^section#quantization\/.*\/table\.data-table\.quantization-level-table\[1\]\/tbody\[1\]\/tr\[\d+\]\/td\.heat\[\d+\]@style$/,
    "the shade of an integer level l of X as it is, l / qmax: a level 2 is shaded 2/127",
  ],
];

/**
 * Every place the exercise's section exposes, as { place: text }: each element's own text and
 * attributes (geometry aside, which the marks' check reads), each field's value, down every open
 * shadow tree, the figure's among them (exposed() says what is read and what is left out); with
 * the page's address, and what each of the figure's actions but Reset shows, copies or downloads
 * when pressed now.
 */
async function everyPlace(page, ex, downloads) {
  const actions = await page.evaluate(async (id) => {
    const copied = [];
    // What the page copies is recorded, whether or not the browser would let it write the clipboard.
    const record = async (text) => void copied.push(String(text));
    if (navigator.clipboard)
      Object.defineProperty(navigator.clipboard, "writeText", { value: record, configurable: true });
    else Object.defineProperty(navigator, "clipboard", { value: { writeText: record }, configurable: true });
    const el = document.getElementById(id);
    const panel = el.shadowRoot.querySelector(".llm-panel");
    const shows = () =>
      `${panel?.textContent ?? ""} ${[...(panel?.querySelectorAll("textarea") ?? [])].map((t) => t.value).join(" ")}`;
    const out = {};
    for (const button of el.shadowRoot.querySelectorAll(".llm-actions button")) {
      const label = button.textContent.trim();
      if (/^Reset/.test(label)) continue;
      if (panel) panel.replaceChildren();
      const copies = copied.length;
      button.click();
      // Until the action has answered: a notice or the copied text in the panel, or a copy.
      for (let frame = 0; frame < 600 && !panel?.textContent.trim() && copied.length === copies; frame++)
        await new Promise((r) => requestAnimationFrame(r));
      out[`action ${label}`] = `${shows()} ${copied.slice(copies).join(" ")}`;
    }
    out.address = location.href;
    return out;
  }, ex.figure);
  for (const [i, file] of downloads.entries()) actions[`download ${i + 1}`] = await file;
  const places = await page.evaluate(
    ([section, geometry]) => {
      const places = {};
      const skip = new Set(geometry);
      const visit = (node, path, held) => {
        const counts = {};
        for (const child of node.childNodes) {
          if (child.nodeType !== Node.ELEMENT_NODE) continue;
          const el = /** @type {Element} */ (child);
          // a <noscript>'s content is text where scripts run, which no one sees or hears (a
          // drawing for readers without scripts, an exercise's answer for them, closed)
          if (["style", "script", "noscript"].includes(el.localName)) continue;
          if (["input", "select", "textarea", "output"].includes(el.localName)) continue;
          if (el.matches("details.answer:not([open]) > :not(summary)")) continue;
          const name = `${el.localName}${el.id ? `#${el.id}` : ""}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
          counts[name] = (counts[name] ?? 0) + 1;
          const inside = held || el.hasAttribute("data-predict-conceal");
          const here = `${inside && !held ? "held:" : ""}${path}/${name}[${counts[name]}]`;
          const text = [...el.childNodes]
            .filter((c) => c.nodeType === Node.TEXT_NODE)
            .map((c) => c.data)
            .join("");
          if (text.trim()) places[here] = text;
          for (const a of el.attributes)
            if (!skip.has(a.name) && !a.name.startsWith("data-predict")) places[`${here}@${a.name}`] = a.value;
          if (el.shadowRoot) visit(el.shadowRoot, `${here}#shadow`, inside);
          visit(el, here, inside);
        }
      };
      visit(document.getElementById(section), `section#${section}`, false);
      return places;
    },
    [ex.section, GEOMETRY],
  );
  return { ...places, ...actions };
}

/**
 * The places of `places` that state one of `values` ([label, value, tolerance]), outside what an
 * exercise holds back (withheld there, every digit is "•", and its marks are not drawn).
 */
function stating(places, values, { inputs = [], probability = false, figure = "" } = {}) {
  const found = [];
  for (const [place, text] of Object.entries(places)) {
    if (place.includes("held:") || COINCIDENT.some(([pattern]) => pattern.test(place))) continue;
    // A percentage writes a probability ("50%"); elsewhere it is a width or a share of something else.
    let numbers = written(text).filter((n) => probability || !n.percent);
    // The chapter's prose, the question among them, and the section's other figures state the
    // figures' inputs ("top-p 0.8"); the exercise's figure states its own only in its fields.
    if (!place.includes("#shadow") || (figure && !place.includes(`#${figure}[`)))
      numbers = numbers.filter(({ x }) => !inputs.includes(x));
    for (const [label, v, tolerance, how] of values)
      if (numbers.some((n) => writes(n, v, tolerance, how)))
        found.push(`${label} ${v} at ${place}: "${String(text).slice(0, 160)}"`);
  }
  return found;
}

// A place whose number did not move with the one change of inputs above escaped
// that check, as Figure 6.1's slope titles and Figure 7.1's scale Δ of the smoothed activations
// (2/127: times 127, the follow-up's range) did. Here every place the section exposes, and what
// the figure's actions give, is searched for the answer, the follow-up's and what gives either
// (the exercise's `gives`) as the page writes numbers (format.js: rounded, grouped, a
// percentage), at the page's inputs and again after the change, while nothing is committed.
// Exercise 4b (Figure 4.2's decoding floor), which exercises.test.js leaves to model.test.js: its
// answer and follow-up's as its field computes them (the core's, for the figure as it is), its
// change a longer context.
const FOUR_B = {
  n: "4b",
  section: "cost",
  figure: "model-figure",
  tolerance: 4,
  value: (m, s, el) => /** @type {any} */ (document.querySelector("llm-answer-model")).prediction(el.result, el).value,
  followUp: (m, s, el) =>
    /** @type {any} */ (document.querySelector("llm-answer-model")).followUpPrediction(el.result, el).value,
  change: (page) => setAttr(page, "model-figure", "tokens", "8192"),
};

for (const ex of [...EXERCISES.filter((e) => e.n !== 8), FOUR_B]) {
  test(`exercise ${ex.n}: no place of section ${ex.section}, its address or Figure ${ex.figure}'s actions states the answer, the follow-up's or what gives them before they are committed`, async () => {
    const { page, errors } = await openReader(browser.context);
    const downloads = [];
    page.on("download", (d) => downloads.push(d.path().then((p) => require("node:fs").readFileSync(p, "utf8"))));
    await page.locator(`#${ex.figure}`).scrollIntoViewIfNeeded();
    const searched = new Set();
    for (const reading of ["at the page's inputs", "after the change"]) {
      if (reading === "after the change") {
        await ex.change(page);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      }
      const tolerance = ex.tolerance;
      const values = [
        ["answer", await core(page, ex.figure, ex.value), tolerance],
        ["follow-up", await core(page, ex.figure, ex.followUp), tolerance],
      ];
      // A number that gives the answer by a product states it when it is within the tolerance
      // scaled by the same factor (Δ = 0.0157 gives 127·Δ = 1.994, within 0.01 of 2).
      for (const [i, give] of (ex.gives ?? []).entries()) {
        const given = await core(page, ex.figure, give.value);
        const of = values[give.of === "value" ? 0 : 1][1];
        values.push([`gives ${i + 1}`, given, (tolerance * Math.abs(given)) / Math.abs(of), { rounded: false }]);
      }
      const searchable = values.filter(([, v]) => !plain(v));
      for (const [label] of searchable) searched.add(label);
      const places = await everyPlace(page, ex, downloads);
      // The inputs of the section's figures, which its prose and its other figures state.
      const inputs = (
        await page.evaluate(
          (section) => JSON.stringify([...document.querySelectorAll(`#${section} [id]`)].map((el) => el.state ?? null)),
          ex.section,
        )
      )
        .match(/-?[\d.]+(?:e[-+]?\d+)?/g)
        .map(Number);
      // Whether the exercise takes its answer as a probability (steps.js: "50%" reads as 0.5).
      const probability = await page.evaluate(
        (id) => document.querySelector(`[for="${id}"]`)?.first?.expected?.probability === true,
        ex.figure,
      );
      assert.ok(Object.keys(places).length > 50, `read ${Object.keys(places).length} places`);
      assert.ok(
        Object.keys(places).some((p) => p.startsWith("action Copy as NumPy")),
        Object.keys(places)
          .filter((p) => p.startsWith("action"))
          .join(", "),
      );
      assert.deepEqual(stating(places, searchable, { inputs, probability, figure: ex.figure }), [], reading);
    }
    // Each value is searched for at one reading at least.
    assert.deepEqual(
      [...searched].sort(),
      ["answer", "follow-up", ...(ex.gives ?? []).map((_, i) => `gives ${i + 1}`)].sort(),
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("the place search reads the page's ways of writing a number, and counts only what states the value", () => {
  assert.deepEqual(
    written("8,192 and −0.25, 1.57e-2, 42.5% or 1/2").map(({ x }) => x),
    [8192, -0.25, 0.0157, 0.425, 1, 2, 0.5],
  );
  const at = (text, v, tolerance) => written(text).some((n) => writes(n, v, tolerance));
  assert.equal(at("scale Δ 0.0157", 2 / 127, 0), true);
  assert.equal(at("scale Δ 0.016", 2 / 127, 0), true);
  assert.equal(at("half-distance 5.5", 5.545177, 0.05), true);
  assert.equal(at("1.9 tokens", 1.875, 0.01), true);
  assert.equal(at("2 tokens", 1.875, 0.01), false);
  assert.equal(at("head 6", 5.545177, 0.05), false);
  assert.equal(at("kept 50%", 0.5, 0.01), true);
  assert.deepEqual(stating({ "a/iframe[1]@width": "100%" }, [["answer", 0.9998999933, 0.00005]]), []);
  assert.equal(stating({ "a/span[1]": "kept 80%" }, [["answer", 0.8, 0.01]], { probability: true }).length, 1);
  // the prose states the figure's inputs; the figure's readout of the same number is a statement
  assert.deepEqual(stating({ "section#s/p[1]": "top-p 0.8" }, [["answer", 0.8, 0.01]], { inputs: [0.8] }), []);
  assert.equal(stating({ "f#shadow/p[1]": "kept 0.8" }, [["answer", 0.8, 0.01]], { inputs: [0.8] }).length, 1);
  assert.equal(at("8,192 values", 8192, 0), true);
  assert.equal(at("8,193 values", 8192, 0), false);
  assert.equal(
    stating({ "held:a/span[1]": "0.9999", "b/span[1]": "score 0.9999" }, [["answer", 0.9998999933, 0.00005]]).length,
    1,
  );
});

/**
 * The marks of a line chart in figure `id` (the chart whose <svg> matches `chart`) that stand at a
 * data point, read against the chart's own axes (its tick labels and their places): vertical lines
 * at x, horizontal lines at y, dots and curve vertices at (x, y), within `near` px; x or y null
 * for any. Only marks drawn (not hidden, not invisible) count; the axes' own lines do not.
 */
function marksAt(page, id, chart, { x = null, y = null, near = 3 }) {
  return page.evaluate(
    ([id, chart, x, y, near]) => {
      const svg = document.getElementById(id).shadowRoot.querySelector(chart);
      // each axis from its tick labels and their places: the x ticks' labels are centred on them,
      // the y ticks' labels end left of their tick marks (line.tick, in the same order)
      const value = (t) => Number(t.textContent.replace(/,/g, "").replace(/−/g, "-"));
      const labels = (anchor) =>
        [...svg.querySelectorAll("g.axes > text")].filter(
          (t) => t.getAttribute("text-anchor") === anchor && !t.classList.contains("label"),
        );
      const yMarks = [...svg.querySelectorAll("g.axes > line.tick")].map((l) => Number(l.getAttribute("y1")));
      const xTicks = labels("middle").map((t) => [value(t), Number(t.getAttribute("x"))]);
      const yTicks = labels("end").map((t, i) => [value(t), yMarks[i]]);
      const map = (pairs) => {
        const [[v0, p0], [v1, p1]] = [pairs[0], pairs[pairs.length - 1]];
        return (v) => p0 + ((v - v0) * (p1 - p0)) / (v1 - v0);
      };
      const px = x === null ? null : map(xTicks)(x);
      const py = y === null ? null : map(yTicks)(y);
      const drawn = (el) =>
        el.checkVisibility() && getComputedStyle(el).visibility !== "hidden" && !el.closest("g.axes");
      const at = (a, b) => a === null || Math.abs(a - b) <= near;
      const found = [];
      for (const el of svg.querySelectorAll("line, circle, polyline")) {
        if (!drawn(el)) continue;
        const n = (k) => Number(el.getAttribute(k));
        const what = `${el.localName}.${[...el.classList].join(".")}`;
        if (el.localName === "line") {
          const vertical = n("x1") === n("x2"),
            horizontal = n("y1") === n("y2");
          if (vertical && px !== null && at(px, n("x1")) && py === null) found.push(`${what} at x ${x}`);
          if (horizontal && py !== null && at(py, n("y1")) && px === null) found.push(`${what} at y ${y}`);
        } else if (el.localName === "circle") {
          if (px !== null && py !== null && at(px, n("cx")) && at(py, n("cy"))) found.push(`${what} at (${x}, ${y})`);
        } else {
          const points = el
            .getAttribute("points")
            .trim()
            .split(/\s+/)
            .map((p) => p.split(",").map(Number));
          if (px !== null && py !== null && points.some(([a, b]) => at(px, a) && at(py, b)))
            found.push(`${what} through (${x}, ${y})`);
        }
      }
      return found;
    },
    [id, chart, x, y, near],
  );
}

// Marks and guides once told what the text withheld: Figure 5.1's curve of tokens per call
// passed through the answer at γ = 3 and its dot sat there, its dashed ceiling stood at the
// follow-up's 2; Figure 6.1's dashed half-distance stood at the answer on the distance axis.
// Each check is also run once the numbers are shown, where it must find those marks.
test("exercises 4, 5 and 6: no mark of Figures 4.1, 5.1 and 6.1 stands at the answer or the follow-up's on the chart's axes before it is committed", async () => {
  const { page, errors } = await openReader(browser.context);
  const five = EXERCISES.find((e) => e.n === 5);
  const six = EXERCISES.find((e) => e.n === 6);
  const speculative = async () => {
    const gamma = await page.evaluate(() => document.getElementById("speculative-figure").state.gamma);
    const svg = ".speculative-figure svg.chart";
    return [
      ...(await marksAt(page, five.figure, svg, { x: gamma, y: await core(page, five.figure, five.value) })),
      ...(await marksAt(page, five.figure, svg, { y: await core(page, five.figure, five.followUp) })),
    ];
  };
  const alibi = async () => [
    ...(await marksAt(page, six.figure, ".alibi-panels svg.chart:not(.bar-chart)", {
      x: await core(page, six.figure, six.value),
    })),
    ...(await marksAt(page, six.figure, ".alibi-panels svg.chart:not(.bar-chart)", {
      x: await core(page, six.figure, six.followUp),
    })),
  ];
  for (const id of ["cost-figure", five.figure, six.figure]) await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  assert.deepEqual(await speculative(), [], "Figure 5.1 before the prediction");
  assert.deepEqual(await alibi(), [], "Figure 6.1 before the prediction");
  // the bars' titles: each head's slope, not its half-distance
  const titles = await page.evaluate(() =>
    [...document.getElementById("alibi-figure").shadowRoot.querySelectorAll("svg.bar-chart title")].map(
      (t) => t.textContent,
    ),
  );
  assert.ok(
    titles.some((t) => /^head 3: slope/.test(t)),
    titles.join("; "),
  );
  assert.deepEqual(
    titles.filter((t) => /half|5\.5|11\.09/.test(t)),
    [],
  );
  // Figure 4.1's dots at its n on the logarithmic chart of scores and cached values (the follow-up's 8,192)
  const dots = () =>
    page.evaluate(() =>
      [
        ...document
          .getElementById("cost-figure")
          .shadowRoot.querySelectorAll(".cost-figure:not(.cost-linear) svg.chart circle.marker"),
      ].map((c) => getComputedStyle(c).visibility),
    );
  assert.deepEqual(await dots(), ["hidden", "hidden"], "Figure 4.1's dots before the prediction");
  await showNumbers(page);
  assert.deepEqual(await dots(), ["visible", "visible"], "Figure 4.1's dots once shown");
  assert.ok((await speculative()).length >= 3, `shown: ${await speculative()}`);
  assert.ok((await alibi()).length >= 1, `shown: ${await alibi()}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the leak finder finds a readout that follows the answer, and not an input shown at both readings", () => {
  const first = {
    "a/span[1]": "m − n = 2: 0.9999",
    "b/span[1]": "Key 1",
    "c@style": "--w: 1",
    "held:d/td[1]": "1.00",
    "held:d/td[2]": "Key •",
  };
  const second = { "a/span[1]": "m − n = 2: 0.7702", "b/span[1]": "Key 1", "c@style": "--w: 0.178" };
  assert.deepEqual(
    leaks(first, second, 0.9999, 0.7702, 0.00005).map((s) => s.split(': "')[0]),
    ["a/span[1]"],
  );
  assert.deepEqual(
    leaks(first, second, 1, 0.178, 0.01).map((s) => s.split(': "')[0]),
    ["c@style", "held:d/td[1]"],
  );
  assert.deepEqual(numbers("8,192 at n = 16; −0.25 and 1e-3"), [8192, 16, -0.25, 1e-3]);
});

// Exercise 1's answer, query 1's weight on key 1 under the causal mask, is 1 for every input (the
// first query sees only the first key): any attention figure drawn with the mask shows it in its
// first row. The opening figure above section 1 therefore starts without the mask; no
// attention figure but Figure 1.1, which holds its weights back, shows masked weights at load.
test("exercise 1: no attention figure on the page shows weights under the causal mask before the exercise is committed", async () => {
  const { page, errors } = await openReader(browser.context);
  const masked = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("llm-attention")]
        .filter((el) => el.state.causal && !el.hasAttribute("data-predict-first"))
        .map((el) => el.id),
    );
  assert.deepEqual(await masked(), []);
  // The check sees a masked figure: the opening one, once the reader ticks its mask.
  await setAttr(page, "opening-attention", "causal", "true");
  assert.deepEqual(await masked(), ["opening-attention"]);
  assert.deepEqual(errors, []);
  await page.close();
});
