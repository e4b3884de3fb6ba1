// <llm-sampling>: how a sampler turns a model's scores for the next token into the distribution
// it draws from (temperature, then top-k, then top-p, then renormalisation), and what a handful
// of seeded draws from it look like as text. The reader moves the three sliders, picks an
// example or edits the tokens and their logits (or probabilities), and changes the seed.
//
// Attributes (all optional): preset (a key of samplingPresets, default "australia");
// temperature, top-k, top-p (override the preset); prompt; tokens ("|"-separated, e.g.
// " Paris| Lyon"); logits or probs (numbers separated by spaces or commas, one per token);
// seed (integer in [0, 2^32), default 42); count (draws, default 10); draws="off" hides the draws.
// Properties: result ({ full, afterK, draws, opts, state }), state ({ prompt, tokens, kind, values }).
import { fill, h, sym, uniqueId } from "../dom.js";
import { fmt } from "../format.js";
import { LlmWidget } from "./base.js";
import { FigureAnswer } from "./answer.js";
import { samplingPresets } from "./sampling-presets.js";

const MAX_TOKENS = 12;
const MAX_DRAWS = 100;
// sample() takes seeds in [0, 2^32); "New seed" picks one there.
const SEED_RANGE = 2 ** 32;

/** A token as a label: without its leading space, a visible ␣ if nothing else is left. */
export const tokenLabel = (t) => String(t).trim() || "␣";
const quoted = (t) => `“${tokenLabel(t)}”`;
// Screen mapping of a probability in [0, 1] to a CSS length along a bar track.
const cssPct = (x) => `${(Math.min(Math.max(x, 0), 1) * 100).toFixed(3)}%`;
const parseList = (s) => s.split(/[\s,]+/).filter(Boolean).map(Number);

export class LlmSampling extends LlmWidget {
  build() {
    const id = uniqueId("smp");
    const start = samplingPresets[this.getAttribute("preset")] ? this.getAttribute("preset") : "australia";
    this.loadPreset(start);
    const custom = this.applyAttributes();
    this.showDraws = this.getAttribute("draws") !== "off";

    this.presetSelect = h("select", { id: `${id}-preset`, onchange: () => this.onPreset() },
      Object.entries(samplingPresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "custom", disabled: true }, "Your own numbers"));
    this.presetSelect.value = custom ? "custom" : start;
    this.note = h("p", { class: "hint smp-note" });

    const slider = (key, label, min, max, step) => {
      const input = h("input", { type: "range", id: `${id}-${key}`, min, max, step, oninput: () => this.update() });
      const out = h("output", { for: `${id}-${key}` });
      return { input, out, row: h("div", { class: "slider" }, h("label", { for: `${id}-${key}` }, label), input, out) };
    };
    this.T = slider("t", "Temperature T", 0, 2.5, 0.05);
    this.k = slider("k", "Top-k (0 = off)", 0, MAX_TOKENS, 1);
    this.p = slider("p", "Top-p (1 = off)", 0.01, 1, 0.01);

    this.headline = h("p", { class: "headline", "aria-live": "polite" });
    this.chart = h("div", { class: "smp-chart" });
    this.editor = h("div", { class: "smp-editor" });
    this.worked = h("div", { class: "worked smp-worked" });

    const panels = h("div", { class: "smp-panels" }, this.buildEditor(id));
    if (this.showDraws) panels.append(this.buildDraws(id));

    this.append(
      h("div", { class: "controls" }, h("label", { for: `${id}-preset` }, "Example "), this.presetSelect),
      this.note,
      h("div", { class: "sliders" }, this.T.row, this.k.row, this.p.row),
      this.headline,
      this.legend(),
      this.chart,
      panels,
      this.worked,
    );
    this.syncControls();
  }

  loadPreset(name) {
    const p = samplingPresets[name];
    this.state = { prompt: p.prompt, tokens: p.tokens.slice(), kind: p.kind, values: p.values.slice() };
    this.settings = { temperature: p.temperature, topK: p.topK, topP: p.topP };
    this.noteText = p.note;
  }

  /** Applies the embedding page's attributes over the preset; true if they set the numbers. */
  applyAttributes() {
    const num = (name) => {
      const v = Number(this.getAttribute(name));
      return this.hasAttribute(name) && this.getAttribute(name).trim() !== "" && Number.isFinite(v) ? v : undefined;
    };
    this.settings.temperature = num("temperature") ?? this.settings.temperature;
    this.settings.topK = num("top-k") ?? this.settings.topK;
    this.settings.topP = num("top-p") ?? this.settings.topP;
    this.seed = num("seed") ?? 42;
    this.count = num("count") ?? 10;
    if (this.hasAttribute("prompt")) this.state.prompt = this.getAttribute("prompt");
    const kind = this.hasAttribute("probs") ? "probs" : this.hasAttribute("logits") ? "logits" : null;
    if (!kind && !this.hasAttribute("tokens")) return false;
    const values = kind ? parseList(this.getAttribute(kind)).slice(0, MAX_TOKENS) : this.state.values;
    const given = this.hasAttribute("tokens") ? this.getAttribute("tokens").split("|") : [];
    this.state.kind = kind ?? this.state.kind;
    this.state.values = values;
    this.state.tokens = values.map((_, i) => given[i] ?? this.state.tokens[i] ?? ` t${i + 1}`);
    this.noteText = "Your own numbers.";
    return true;
  }

  legend() {
    const key = (cls, text) => h("span", { class: "smp-key" }, h("span", { class: `smp-swatch ${cls}`, "aria-hidden": "true" }), text);
    return h("p", { class: "smp-legend" },
      key("tempered", "after temperature"), key("final", "final: kept and renormalised"),
      key("cum", "cumulative mass, most probable first"), key("pline", "top-p"));
  }

  buildEditor(id) {
    this.promptInput = h("input", { type: "text", id: `${id}-prompt`, class: "smp-prompt", oninput: () => {
      this.state.prompt = this.promptInput.value;
      this.update();
    } });
    this.valueHeader = h("th", { scope: "col" });
    this.editorBody = h("tbody");
    const stepper = h("span", { class: "stepper", role: "group", "aria-label": "Tokens" }, "Tokens ",
      h("button", { type: "button", onclick: () => this.resize(-1), "aria-label": "fewer tokens" }, "−"),
      h("button", { type: "button", onclick: () => this.resize(1), "aria-label": "more tokens" }, "+"));
    fill(this.editor,
      h("p", { class: "smp-sub" }, "Your example"),
      h("div", { class: "smp-field" }, h("label", { for: `${id}-prompt` }, "Prompt "), this.promptInput),
      h("table", { class: "smp-edit-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Token"), this.valueHeader)),
        this.editorBody),
      h("div", { class: "controls" }, stepper));
    return this.editor;
  }

  buildDraws(id) {
    this.seedInput = h("input", { type: "number", id: `${id}-seed`, min: 0, max: SEED_RANGE - 1, step: 1, value: String(this.seed),
      inputmode: "numeric", oninput: () => this.update() });
    this.countInput = h("input", { type: "number", id: `${id}-count`, min: 1, max: MAX_DRAWS, step: 1, value: String(this.count),
      inputmode: "numeric", oninput: () => this.update() });
    this.drawList = h("ol", { class: "smp-drawlist", "aria-live": "polite" });
    this.drawNote = h("p", { class: "hint" });
    return h("div", { class: "smp-draws" },
      h("p", { class: "smp-sub" }, "Draws"),
      h("div", { class: "controls" },
        h("span", { class: "smp-field" }, h("label", { for: `${id}-seed` }, "Seed "), this.seedInput),
        h("button", { type: "button", class: "smp-newseed", onclick: () => this.newSeed() }, "New seed"),
        h("span", { class: "smp-field" }, h("label", { for: `${id}-count` }, "Draws "), this.countInput)),
      this.drawList, this.drawNote);
  }

  newSeed() {
    // Choosing a seed is not part of the mathematics; the draws themselves come from the core.
    this.seedInput.value = String(Math.floor(Math.random() * SEED_RANGE));
    this.update();
  }

  onPreset() {
    if (!samplingPresets[this.presetSelect.value]) return;
    this.loadPreset(this.presetSelect.value);
    this.syncControls();
    this.update();
  }

  markCustom() {
    this.presetSelect.value = "custom";
    this.noteText = "Your own numbers.";
    this.note.textContent = this.noteText;
  }

  /** Adds a token (logit 0, or probability 0) or removes the last one. */
  resize(delta) {
    const s = this.state;
    const n = s.tokens.length + delta;
    if (n < 1 || n > MAX_TOKENS) return;
    if (delta > 0) {
      s.tokens.push(` t${n}`);
      s.values.push(0);
    } else {
      s.tokens.pop();
      s.values.pop();
    }
    this.markCustom();
    this.syncEditor();
    this.update();
  }

  /** Puts the state and settings into the controls. */
  syncControls() {
    this.T.input.value = String(this.settings.temperature);
    this.k.input.value = String(this.settings.topK);
    this.p.input.value = String(this.settings.topP);
    this.note.textContent = this.noteText;
    this.promptInput.value = this.state.prompt;
    this.syncEditor();
  }

  syncEditor() {
    const s = this.state;
    this.k.input.max = String(s.tokens.length);
    this.valueHeader.textContent = s.kind === "probs" ? "Probability p (sum 1)" : "Logit z";
    const what = s.kind === "probs" ? "Probability" : "Logit";
    fill(this.editorBody, s.tokens.map((t, i) => h("tr", {},
      h("th", { scope: "row" }, String(i + 1)),
      h("td", {}, h("input", { type: "text", class: "smp-token", value: t, "aria-label": `Token ${i + 1}`,
        oninput: (e) => {
          s.tokens[i] = e.target.value;
          this.markCustom();
          this.update();
        } })),
      h("td", {}, h("input", { type: "number", step: s.kind === "probs" ? "0.05" : "0.1", value: String(s.values[i]),
        inputmode: "decimal", "aria-label": `${what} of token ${i + 1}`,
        oninput: (e) => {
          // valueAsNumber is NaN for an empty or unparsable field; the core names it in its message.
          s.values[i] = e.target.valueAsNumber;
          this.markCustom();
          this.update();
          e.target.setAttribute("aria-invalid", this.status.classList.contains("llm-error") ? "true" : "false");
        } })))));
  }

  get opts() {
    return { temperature: this.T.input.valueAsNumber, topK: this.k.input.valueAsNumber, topP: this.p.input.valueAsNumber };
  }

  compute() {
    const s = this.state;
    const state = { prompt: s.prompt, tokens: s.tokens.slice(), kind: s.kind, values: s.values.slice() };
    const input = s.kind === "probs" ? { probs: state.values } : { logits: state.values };
    const opts = this.opts;
    const full = this.core.sampling(input, opts);
    // The distribution top-p cuts: after temperature and top-k, renormalised.
    const afterK = this.core.sampling(input, { temperature: opts.temperature, topK: opts.topK });
    const draw = this.showDraws ? { seed: this.seedInput.valueAsNumber, count: this.countInput.valueAsNumber } : null;
    const draws = draw ? this.core.sample(full.probs, draw) : [];
    return { full, afterK, draws, draw, opts, state };
  }

  render(r) {
    const { full, opts, state } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const n = state.tokens.length;
    this.T.out.value = fmt(T, 2);
    this.k.out.value = k === 0 ? "off" : k >= n ? `${k} (all)` : String(k);
    this.p.out.value = p === 1 ? "1 (off)" : fmt(p, 2);
    this.T.input.setAttribute("aria-valuetext", T === 0 ? "0, greedy" : fmt(T, 2));
    this.k.input.setAttribute("aria-valuetext", k === 0 ? "off" : String(k));
    this.p.input.setAttribute("aria-valuetext", p === 1 ? "1, off" : fmt(p, 2));

    const top = full.order[0];
    fill(this.headline,
      T === 0
        ? ["Temperature 0 is greedy: only ", h("strong", {}, quoted(state.tokens[top])), " can be drawn, every time."]
        : [`The sampler keeps ${full.cutoff} of ${n} token${n === 1 ? "" : "s"}. The most probable, `,
            h("strong", {}, quoted(state.tokens[top])), ", is drawn with probability ", h("strong", {}, fmt(full.probs[top], 3)), "."]);
    this.renderChart(r);
    if (this.showDraws) this.renderDraws(r);
    this.renderWorked(r);
  }

  /** One row per token, most probable first: bars for the tempered and final probabilities,
   * the token's stretch of cumulative mass, the top-p line, and the cuts. */
  renderChart(r) {
    const { full, afterK, opts, state } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const n = state.tokens.length;
    const kCut = k > 0 && k < n ? k : n;
    const pLine = p < 1 ? h("span", { class: "smp-pline", style: { left: cssPct(p) } }) : null;
    const rows = [];
    full.order.forEach((t, rank) => {
      if (rank === full.cutoff && full.cutoff < kCut) {
        rows.push(cutRow(T === 0
          ? "T = 0: only the most probable token is left"
          : `top-p = ${fmt(p, 2)}: the nucleus ends here, its cumulative mass ${fmt(full.cumulative[rank - 1], 3)} has reached ${fmt(p, 2)}`));
      }
      if (rank === kCut && kCut < n) rows.push(cutRow(`top-k = ${k}: only the ${k} most probable go on`));
      const kept = rank < full.cutoff;
      rows.push(h("tr", { class: kept ? "kept" : "removed" },
        h("th", { scope: "row", class: "smp-label", title: state.tokens[t] }, tokenLabel(state.tokens[t])),
        h("td", { class: "smp-track-cell" }, h("div", { class: "smp-track" },
          h("span", { class: "smp-bar final", style: { width: cssPct(full.probs[t]) } }),
          h("span", { class: "smp-bar tempered", style: { width: cssPct(full.tempered[t]) } }),
          h("span", { class: "smp-cum", style: { left: cssPct(rank === 0 ? 0 : full.cumulative[rank - 1]), width: cssPct(afterK.probs[t]) } }),
          h("span", { class: "smp-cum-dot", style: { left: cssPct(full.cumulative[rank]) } }),
          pLine?.cloneNode())),
        h("td", { class: "num" }, fmt(full.tempered[t], 3)),
        h("td", { class: "num smp-cum-col" }, fmt(full.cumulative[rank], 3)),
        h("td", { class: "num final-col" }, kept ? fmt(full.probs[t], 3) : h("span", { title: "removed" }, "0"))));
    });
    const head = h("tr", {},
      h("th", { scope: "col" }, "Token"),
      h("th", { scope: "col", class: "smp-track-head" }, h("span", { class: "visually-hidden" }, "Bars"),
        p < 1 ? h("span", { class: p > 0.6 ? "smp-plabel end" : "smp-plabel", style: { left: cssPct(p) } }, `top-p ${fmt(p, 2)}`) : null),
      h("th", { scope: "col", class: "num" }, "after T"),
      h("th", { scope: "col", class: "num smp-cum-col" }, "cum."),
      h("th", { scope: "col", class: "num" }, "final"));
    fill(this.chart, h("table", { class: "smp-table" },
      h("caption", { class: "visually-hidden" }, "Next-token probabilities, most probable first: after temperature, cumulative, and final"),
      h("colgroup", {}, h("col", { class: "c-label" }), h("col", { class: "c-track" }), h("col", { class: "c-num" }),
        h("col", { class: "c-num smp-cum-col" }), h("col", { class: "c-num" })),
      h("thead", {}, head), h("tbody", {}, rows)));
  }

  renderDraws(r) {
    const { draws, draw, full, state } = r;
    fill(this.drawList, draws.map((t) => h("li", { class: full.order[0] === t ? "top" : null },
      h("span", { class: "smp-prompt-text" }, state.prompt),
      h("strong", { class: "smp-drawn" }, state.tokens[t]))));
    this.drawNote.textContent = r.opts.temperature === 0
      ? `At T = 0 every draw is the most probable token, whatever the seed: repeatable, but no check of the facts.`
      : `Seed ${draw.seed} replays exactly these ${draw.count} draws; another seed gives another mix.`;
  }

  /** The calculation with the reader's numbers, in the sampler's order. */
  renderWorked(r) {
    const { full, afterK, opts, state, draw } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const { tokens, values, kind } = state;
    const n = tokens.length;
    const name = (i) => h("span", { class: "smp-tok" }, tokenLabel(tokens[i]));
    const order = full.order;
    const steps = h("ol");

    const logit = kind === "probs"
      ? (i) => h("span", {}, fmt(values[i]), h("sup", {}, `1/${fmt(T)}`))
      : (i) => h("span", {}, "e", h("sup", {}, `${fmt(values[i])}/${fmt(T)}`));
    steps.append(h("li", {}, h("strong", {}, "Temperature. "),
      T === 0
        ? ["T = 0 is the greedy limit: all probability goes to the largest ", kind === "probs" ? "probability, " : "logit, ",
            name(order[0]), ` (${fmt(values[order[0]])}); every other token gets 0.`]
        : [kind === "probs"
            ? ["Each probability is raised to 1/T and renormalised, ", sym("p", "i"), h("sup", {}, "1/T"), " / Σ", sym("p", "j"), h("sup", {}, "1/T"), ","]
            : ["Each logit is divided by T = ", fmt(T), ", then softmax: ", "e", h("sup", {}, [sym("z", "i"), "/T"]), " / Σ e", h("sup", {}, [sym("z", "j"), "/T"]), ","],
          " listed most probable first:",
          h("ul", { class: "smp-inline" }, order.map((i) => h("li", {}, name(i), ": ", logit(i), " / Σ = ", fmt(full.tempered[i], 4))))]));

    steps.append(h("li", {}, h("strong", {}, "Top-k. "),
      k === 0
        ? `Off (k = 0): all ${n} tokens go on.`
        : k >= n
          ? `k = ${k} is at least the ${n} tokens there are: all go on.`
          : [`k = ${k} keeps `, joinNames(order.slice(0, k).map(name)), `, whose mass is ${fmt(afterK.keptMass, 4)}; renormalised:`,
              h("ul", { class: "smp-inline" }, order.slice(0, k).map((i) => h("li", {}, name(i), `: ${fmt(full.tempered[i], 4)} / ${fmt(afterK.keptMass, 4)} = ${fmt(afterK.probs[i], 4)}`)))]));

    const m = full.cutoff;
    steps.append(h("li", {}, h("strong", {}, "Top-p. "),
      T === 0
        ? "Nothing to cut: the one token left already holds all the mass."
        : p === 1
          ? "Off (p = 1): every token left goes on."
          : [`Add up the probabilities${k > 0 && k < n ? " after top-k" : ""}, most probable first, until the sum reaches p = ${fmt(p, 2)}:`,
              h("ul", { class: "smp-inline" }, order.slice(0, m).map((i, rank) => h("li", {},
                rank === 0 ? [name(i), ` ${fmt(full.cumulative[0], 4)}`]
                  : [`${fmt(full.cumulative[rank - 1], 4)} + `, name(i), ` ${fmt(afterK.probs[i], 4)} = ${fmt(full.cumulative[rank], 4)}`],
                rank === m - 1 ? h("strong", {}, ` ≥ ${fmt(p, 2)}: stop`) : ""))),
              `The nucleus is the ${m === 1 ? "one token" : `${m} tokens`} above`,
              m < n ? ["; ", joinNames(order.slice(m).map(name)), m === n - 1 ? " is" : " are", " removed."] : "; nothing is removed."]));

    steps.append(h("li", {}, h("strong", {}, "Renormalise. "),
      `The kept tokens held ${fmt(full.keptMass, 4)} of the tempered probability; dividing by it makes them sum to 1:`,
      h("ul", { class: "smp-inline" }, full.kept.map((i) => h("li", {}, name(i), `: ${fmt(full.tempered[i], 4)} / ${fmt(full.keptMass, 4)} = `,
        h("strong", {}, fmt(full.probs[i], 4))))),
      m < n ? "Every removed token gets 0." : ""));

    if (draw) {
      steps.append(h("li", {}, h("strong", {}, "Draw. "),
        `Each of the ${draw.count} draws picks a token with these final probabilities, using uniform random numbers from seed ${draw.seed}.`));
    }
    fill(this.worked, h("p", {}, "The calculation with these numbers:"), steps);
  }
}

function cutRow(text) {
  return h("tr", { class: "smp-cut" }, h("td", { colspan: 5 }, h("span", {}, text)));
}

function joinNames(names) {
  return names.flatMap((x, i) => (i === 0 ? [x] : [i === names.length - 1 ? " and " : ", ", x]));
}

/** Exercise 2: the nucleus, its retained mass, and a token's probability after renormalising. */
export class LlmAnswerSampling extends FigureAnswer {
  answer(r) {
    const { full, opts, state } = r;
    const { temperature: T, topP: p } = opts;
    const t = full.order[0];
    const names = joinNames(full.kept.map((i) => quoted(state.tokens[i]))).join("");
    const last = full.cumulative[full.cutoff - 1];
    return [
      h("p", {},
        T === 0
          ? `At temperature 0 all the mass is on the most probable token, so the nucleus is ${names} alone. `
          : [`Sorted most probable first, the cumulative probability first reaches top-p = ${fmt(p, 2)} `,
              `after ${full.cutoff === 1 ? "one token" : `${full.cutoff} tokens`}, at ${fmt(last, 4)}, so the nucleus is ${names}. `],
        "Its retained mass is ", h("strong", { class: "answer-mass" }, fmt(full.keptMass, 4)), "."),
      h("p", {},
        `Renormalising divides each kept probability by that mass, so ${quoted(state.tokens[t])}, with probability ${fmt(full.tempered[t], 4)} after temperature, ends with `,
        h("strong", { class: "answer-value" }, `${fmt(full.tempered[t], 4)}/${fmt(full.keptMass, 4)} = ${fmt(full.probs[t], 4)}`),
        ": its sampling probability among the retained tokens. Every removed token gets 0."),
      h("p", {},
        `That number says how often the sampler picks ${quoted(state.tokens[t])}, not whether it is true. `,
        "Nothing in the calculation consults a fact: a high probability, even all of it under greedy decoding, verifies nothing."),
    ];
  }
}

export const widgets = { "llm-sampling": LlmSampling, "llm-answer-sampling": LlmAnswerSampling };
