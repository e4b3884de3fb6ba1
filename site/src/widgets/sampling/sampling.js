// <llm-sampling>: how a sampler turns a model's scores for the next token into the distribution
// it draws from (temperature, then top-k, then top-p, then renormalisation), and what a handful
// of seeded draws from it look like as text. The reader moves the three sliders, picks an
// example or edits the tokens and their logits (or probabilities), and changes the seed.
//
// Attributes: see attributes.js (preset, temperature, top-k, top-p, prompt, labels
// (formerly tokens), logits, probs, seed, count, draws). The preset gives every field but seed,
// count and draws; the other attributes override it. Exactly one of logits and probs holds the values (one per
// token; a given list wins over the preset's other kind, probs over logits when both are given),
// and the labels are fitted to the values' count. draws="off" hides the draws.
// Properties: result ({ full, draws, draw, opts, state }), state ({ preset, temperature,
// topK, topP, prompt, labels, logits, probs, seed, count, draws }).
import { fill, h, patch, sym, uniqueId } from "../../dom.js";
import { fieldValue, fmt } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { stateKey } from "../../kit/attributes.js";
import { choice, markInvalid, markSettings, numberField, slider, stepper } from "../../kit/controls.js";
import {
  ATTRIBUTES,
  MAX_DRAWS,
  MAX_PROMPT,
  MAX_TOKEN_CHARS,
  MAX_TOKENS,
  SEED_RANGE,
  presetFields,
  sameList,
  valuesOf,
} from "./attributes.js";
import { LlmAnswerSampling } from "./exercise.js";
import { joinNames, quoted, tokenLabel } from "./labels.js";
import { samplingPresets } from "./sampling-presets.js";
import { workedSteps } from "../../kit/worked.js";
import css from "./sampling.css";

// Screen mapping of a probability in [0, 1] to a CSS length along a bar track.
const cssPct = (x) => `${(Math.min(Math.max(x, 0), 1) * 100).toFixed(3)}%`;

// The figure's name for a token's label, exported by its module as before its settings had a file.
export { tokenLabel } from "./labels.js";

export class LlmSampling extends LlmWidget {
  static styles = css;
  static attributes = ATTRIBUTES;

  static presetFields(name) {
    return presetFields(name);
  }

  /**
   * Exactly one of logits and probs holds the values: a list given over the preset's other kind
   * replaces it, and probs win when both are given. The labels take the values' count (new ones
   * are " t<i>").
   */
  normalize(s, notes) {
    const p = LlmSampling.presetFields(s.preset);
    if (s.logits.length && s.probs.length) {
      const logitsGiven = !sameList(s.logits, p.logits),
        probsGiven = !sameList(s.probs, p.probs);
      if (logitsGiven && !probsGiven) s.probs = [];
      else {
        if (logitsGiven) notes.push("logits ignored: probs were given too.");
        s.logits = [];
      }
    } else if (!s.logits.length && !s.probs.length) {
      notes.push("logits and probs are both empty: the example's values are used.");
      s.logits = p.logits;
      s.probs = p.probs;
    }
    const n = valuesOf(s).values.length;
    if (s.labels.length !== n) {
      // The example's own labels follow its values silently; labels given by hand are reported.
      if (!sameList(s.labels, p.labels)) notes.push(`labels were fitted to the ${n} values.`);
      s.labels = Array.from({ length: n }, (_, i) => s.labels[i] ?? p.labels[i] ?? ` t${i + 1}`);
    }
  }

  build() {
    const id = uniqueId("sampling");
    this.preset = choice({
      label: "Example",
      value: this.state.preset,
      onchange: (name) => this.onPreset(name),
      options: [...Object.entries(samplingPresets).map(([key, p]) => [key, p.label]), ["custom", "Your own numbers"]],
    });
    /** @type {HTMLOptionElement} */ (this.preset.select.lastElementChild).disabled = true;
    this.presetNote = h("p", { class: "hint sampling-note" });

    this.T = slider({
      label: "Temperature T",
      min: 0,
      max: 2.5,
      step: 0.05,
      id: `${id}-t`,
      oninput: (temperature) => this.set({ temperature }),
    });
    this.k = slider({
      label: "Top-k (0 = off)",
      min: 0,
      max: MAX_TOKENS,
      step: 1,
      id: `${id}-k`,
      oninput: (topK) => this.set({ topK }),
    });
    this.p = slider({
      label: "Top-p (1 = off)",
      min: 0.01,
      max: 1,
      step: 0.01,
      id: `${id}-p`,
      oninput: (topP) => this.set({ topP }),
    });

    this.headline = h("p", { class: "headline" });
    this.chart = h("div", { class: "sampling-chart" });
    this.editor = h("div", { class: "sampling-editor" });
    this.worked = h("div", { class: "worked sampling-worked" });

    this.frame.append(
      h("div", { class: "controls" }, this.preset.row),
      this.presetNote,
      h("div", { class: "sliders llm-bar" }, this.T.row, this.k.row, this.p.row),
      this.headline,
      this.legend(),
      this.chart,
      h("div", { class: "sampling-panels" }, this.buildEditor(id), this.buildDraws(id)),
      this.worked,
    );
    markSettings({
      preset: this.preset.select,
      temperature: this.T.input,
      "top-k": this.k.input,
      "top-p": this.p.input,
      prompt: this.promptInput,
      seed: this.seed.input,
      count: this.count.input,
    });
  }

  legend() {
    const key = (cls, text) =>
      h("span", { class: "sampling-key" }, h("span", { class: `sampling-swatch ${cls}`, "aria-hidden": "true" }), text);
    return h(
      "p",
      { class: "sampling-legend" },
      key("tempered", "after temperature"),
      key("final", "final: kept and renormalised"),
      key("cum", "cumulative mass, most probable first"),
      key("pline", "top-p"),
    );
  }

  buildEditor(id) {
    this.promptInput = h("input", {
      type: "text",
      id: `${id}-prompt`,
      class: "sampling-prompt",
      maxlength: MAX_PROMPT,
      oninput: () => this.set({ prompt: this.promptInput.value }),
    });
    this.valueHeader = h("th", { scope: "col" });
    this.editorBody = h("tbody");
    fill(
      this.editor,
      h("p", { class: "sampling-sub" }, "Your example"),
      h("div", { class: "sampling-field" }, h("label", { for: `${id}-prompt` }, "Prompt "), this.promptInput),
      h(
        "table",
        { class: "sampling-edit-table" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Token"), this.valueHeader),
        ),
        this.editorBody,
      ),
      h(
        "div",
        { class: "controls" },
        stepper(
          "Tokens",
          () => this.resize(-1),
          () => this.resize(1),
        ),
      ),
    );
    return this.editor;
  }

  buildDraws(id) {
    this.seed = numberField({
      label: "Seed",
      id: `${id}-seed`,
      min: 0,
      max: SEED_RANGE - 1,
      step: 1,
      value: this.state.seed,
      oninput: (seed) => this.set({ seed }),
    });
    this.count = numberField({
      label: "Draws",
      id: `${id}-count`,
      min: 1,
      max: MAX_DRAWS,
      step: 1,
      value: this.state.count,
      oninput: (count, input) => this.setChecked("count", count, input),
    });
    this.drawList = h("ol", { class: "sampling-drawlist" });
    this.drawNote = h("p", { class: "hint" });
    this.drawsPanel = h(
      "div",
      { class: "sampling-draws" },
      h("p", { class: "sampling-sub" }, "Draws"),
      h(
        "div",
        { class: "controls" },
        this.seed.row,
        h("button", { type: "button", class: "sampling-newseed", onclick: () => this.newSeed() }, "New seed"),
        this.count.row,
      ),
      this.drawList,
      this.drawNote,
    );
    return this.drawsPanel;
  }

  newSeed() {
    // Choosing a seed is not part of the mathematics; the draws themselves come from the core.
    this.set({ seed: Math.floor(Math.random() * SEED_RANGE) }, { sync: true });
  }

  onPreset(name) {
    if (!Object.hasOwn(samplingPresets, name)) return;
    this.set({ preset: name, ...LlmSampling.presetFields(name) }, { sync: true });
  }

  /** Adds a token (value 0) or removes the last one. */
  resize(delta) {
    const s = this.state;
    const n = s.labels.length + delta;
    if (n < 1 || n > MAX_TOKENS) return;
    const fit = (xs, fresh) => Array.from({ length: n }, (_, i) => (i < xs.length ? xs[i] : fresh(i)));
    const { kind, values } = valuesOf(s);
    this.set({ labels: fit(s.labels, (i) => ` t${i + 1}`), [kind]: fit(values, () => 0) }, { sync: true });
  }

  /** Sets every control from the state: example list and note, sliders, prompt, editor, draws. */
  sync() {
    const s = this.state;
    this.T.input.value = String(s.temperature);
    this.k.input.max = String(s.labels.length);
    this.k.input.value = String(s.topK);
    this.p.input.value = String(s.topP);
    this.promptInput.value = s.prompt;
    this.seed.input.value = String(s.seed);
    this.count.input.value = String(s.count);
    this.drawsPanel.hidden = s.draws === "off";
    this.syncPreset();
    this.syncEditor();
  }

  /** The example list shows the preset while the tokens and values are its own, else "Your own numbers". */
  syncPreset() {
    const s = this.state;
    const p = LlmSampling.presetFields(s.preset);
    const own = sameList(s.labels, p.labels) && sameList(s.logits, p.logits) && sameList(s.probs, p.probs);
    this.preset.select.value = own ? s.preset : "custom";
    this.presetNote.textContent = own ? samplingPresets[s.preset].note : "Your own numbers.";
  }

  syncEditor() {
    const s = this.state;
    const { kind, values } = valuesOf(s);
    this.valueHeader.textContent = kind === "probs" ? "Probability p (sum 1)" : "Logit z";
    const what = kind === "probs" ? "Probability" : "Logit";
    fill(
      this.editorBody,
      s.labels.map((t, i) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(i + 1)),
          h(
            "td",
            {},
            h("input", {
              type: "text",
              class: "sampling-token",
              value: t,
              maxlength: MAX_TOKEN_CHARS,
              "aria-label": `Token ${i + 1}`,
              oninput: (e) => this.onToken(i, e.target),
            }),
          ),
          h(
            "td",
            {},
            h("input", {
              type: "number",
              step: kind === "probs" ? "0.05" : "0.1",
              value: fieldValue(values[i]),
              inputmode: "decimal",
              "aria-label": `${what} of token ${i + 1}`,
              oninput: (e) => this.onValue(i, e.target),
            }),
          ),
        ),
      ),
    );
  }

  onToken(i, input) {
    // "|" separates the tokens in the widget's settings, so a token cannot hold one.
    if (input.value.includes("|")) {
      markInvalid(input, true);
      this.showError(`Not updated: token ${i + 1} cannot contain “|”.`);
      return;
    }
    const labels = this.state.labels.slice();
    labels[i] = input.value;
    this.set({ labels });
    this.syncPreset();
    markInvalid(input, this.failed);
  }

  onValue(i, input) {
    // valueAsNumber is NaN for an empty or unparsable field; the core names it in its message.
    const { kind, values } = valuesOf(this.state);
    const next = values.slice();
    next[i] = input.valueAsNumber;
    if (!this.setChecked(kind, next, input, `${kind === "probs" ? "probability" : "logit"} of token ${i + 1}`)) return;
    this.syncPreset();
  }

  /**
   * Sets a field typed by the reader unless a number lies outside its declared range (which the
   * widget's settings could not carry): then the field is marked and the last figure stays.
   * Returns whether the state was set.
   */
  setChecked(name, value, input, what = name) {
    const decl = ATTRIBUTES.find((d) => d.name === name);
    const bad = [value].flat().find((x) => Number.isFinite(x) && (x < decl.min || x > decl.max));
    if (bad !== undefined) {
      markInvalid(input, true);
      this.showError(`Not updated: ${what} must be from ${fmt(decl.min)} to ${fmt(decl.max)}, got ${fmt(bad)}`);
      return false;
    }
    this.set({ [stateKey(name)]: value });
    markInvalid(input, this.failed);
    return true;
  }

  /** The options of the core's sampling() from the state. */
  get opts() {
    const { temperature, topK, topP } = this.state;
    return { temperature, topK, topP };
  }

  compute() {
    const s = this.state;
    const { kind, values } = valuesOf(s);
    const input = kind === "probs" ? { probs: values } : { logits: values };
    const opts = this.opts;
    const full = this.core.sampling(input, opts);
    const draw = s.draws === "off" ? null : { seed: s.seed, count: s.count };
    const draws = draw ? this.core.sample(full.probs, draw) : [];
    return { full, draws, draw, opts, state: s };
  }

  render(r) {
    const { full, opts, state } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const n = state.labels.length;
    this.T.out.value = fmt(T, 2);
    this.k.out.value = k === 0 ? "off" : k >= n ? `${k} (all)` : String(k);
    this.p.out.value = p === 1 ? "1 (off)" : fmt(p, 2);
    this.T.input.setAttribute("aria-valuetext", T === 0 ? "0, greedy" : fmt(T, 2));
    this.k.input.setAttribute("aria-valuetext", k === 0 ? "off" : String(k));
    this.p.input.setAttribute("aria-valuetext", p === 1 ? "1, off" : fmt(p, 2));

    const top = full.order[0];
    patch(
      this.headline,
      T === 0
        ? ["Temperature 0 is greedy: only ", h("strong", {}, quoted(state.labels[top])), " can be drawn, every time."]
        : [
            `The sampler keeps ${full.cutoff} of ${n} token${n === 1 ? "" : "s"}. The most probable, `,
            h("strong", {}, quoted(state.labels[top])),
            ", is drawn with probability ",
            h("strong", {}, fmt(full.probs[top], 3)),
            ".",
          ],
    );
    this.renderChart(r);
    if (r.draw) this.renderDraws(r);
    this.renderWorked(r);
  }

  /**
   * How many tokens the filters keep and the most probable one's probability; only the settings
   * while exercise 2 hides the probabilities.
   */
  summary({ full, opts, state }, { concealed }) {
    const { temperature: T, topK: k, topP: p } = opts;
    const top = quoted(state.labels[full.order[0]]);
    if (concealed) {
      return `Temperature ${fmt(T, 2)}, top-k ${k === 0 ? "off" : k}, top-p ${p === 1 ? "off" : fmt(p, 2)}: the probabilities are hidden until you answer the exercise.`;
    }
    if (T === 0) return `Temperature 0 is greedy: only ${top} can be drawn, every time.`;
    return `The sampler keeps ${full.cutoff} of ${state.labels.length} tokens; ${top} is the most probable, at ${fmt(full.probs[full.order[0]], 3)}.`;
  }

  /** One row per token, most probable first: bars for the tempered and final probabilities,
   * the token's stretch of cumulative mass, the top-p line, and the cuts. */
  renderChart(r) {
    const { full, opts, state } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const n = state.labels.length;
    const kCut = k > 0 && k < n ? k : n;
    const pLine = p < 1 ? h("span", { class: "sampling-pline", style: { left: cssPct(p) } }) : null;
    const rows = [];
    full.order.forEach((t, rank) => {
      if (rank === full.cutoff && full.cutoff < kCut) {
        rows.push(
          cutRow(
            T === 0
              ? "T = 0: only the most probable token is left"
              : `top-p = ${fmt(p, 2)}: the nucleus ends here, its cumulative mass ${fmt(full.cumulative[rank - 1], 3)} has reached ${fmt(p, 2)}`,
          ),
        );
      }
      if (rank === kCut && kCut < n) rows.push(cutRow(`top-k = ${k}: only the ${k} most probable go on`));
      const kept = rank < full.cutoff;
      rows.push(
        h(
          "tr",
          { class: kept ? "kept" : "removed" },
          h("th", { scope: "row", class: "sampling-label", title: state.labels[t] }, tokenLabel(state.labels[t])),
          h(
            "td",
            { class: "sampling-track-cell" },
            h(
              "div",
              { class: "sampling-track" },
              h("span", { class: "sampling-bar final", style: { width: cssPct(full.probs[t]) } }),
              h("span", { class: "sampling-bar tempered", style: { width: cssPct(full.tempered[t]) } }),
              h("span", {
                class: "sampling-cum",
                style: { left: cssPct(rank === 0 ? 0 : full.cumulative[rank - 1]), width: cssPct(full.topKProbs[t]) },
              }),
              h("span", { class: "sampling-cum-dot", style: { left: cssPct(full.cumulative[rank]) } }),
              pLine?.cloneNode(),
            ),
          ),
          h("td", { class: "num" }, fmt(full.tempered[t], 3)),
          h("td", { class: "num sampling-cum-col" }, fmt(full.cumulative[rank], 3)),
          h("td", { class: "num final-col" }, kept ? fmt(full.probs[t], 3) : h("span", { title: "removed" }, "0")),
        ),
      );
    });
    const head = h(
      "tr",
      {},
      h("th", { scope: "col" }, "Token"),
      h(
        "th",
        { scope: "col", class: "sampling-track-head" },
        h("span", { class: "visually-hidden" }, "Bars"),
        p < 1
          ? h(
              "span",
              { class: p > 0.6 ? "sampling-plabel end" : "sampling-plabel", style: { left: cssPct(p) } },
              `top-p ${fmt(p, 2)}`,
            )
          : null,
      ),
      h("th", { scope: "col", class: "num" }, "after T"),
      h("th", { scope: "col", class: "num sampling-cum-col" }, "cum."),
      h("th", { scope: "col", class: "num" }, "final"),
    );
    patch(
      this.chart,
      h(
        "table",
        { class: "sampling-table" },
        h(
          "caption",
          { class: "visually-hidden" },
          "Next-token probabilities, most probable first: after temperature, cumulative, and final",
        ),
        h(
          "colgroup",
          {},
          h("col", { class: "c-label" }),
          h("col", { class: "c-track" }),
          h("col", { class: "c-num" }),
          h("col", { class: "c-num sampling-cum-col" }),
          h("col", { class: "c-num" }),
        ),
        h("thead", {}, head),
        h("tbody", {}, rows),
      ),
    );
  }

  renderDraws(r) {
    const { draws, draw, full, state } = r;
    patch(
      this.drawList,
      draws.map((t) =>
        h(
          "li",
          { class: full.order[0] === t ? "top" : null },
          h("span", { class: "sampling-prompt-text" }, state.prompt),
          h("strong", { class: "sampling-drawn" }, state.labels[t]),
        ),
      ),
    );
    patch(
      this.drawNote,
      r.opts.temperature === 0
        ? `At T = 0 every draw is the most probable token, whatever the seed: repeatable, but no check of the facts.`
        : `Seed ${draw.seed} replays exactly these ${draw.count} draws; another seed gives another mix.`,
    );
  }

  /** The calculation with the reader's numbers, in the sampler's order. */
  renderWorked(r) {
    const { full, opts, state, draw } = r;
    const { temperature: T, topK: k, topP: p } = opts;
    const { labels } = state;
    const { kind, values } = valuesOf(state);
    const n = labels.length;
    const name = (i) => h("span", { class: "sampling-tok" }, tokenLabel(labels[i]));
    const order = full.order;
    const inline = (items) => h("ul", { class: "sampling-inline" }, items);
    const logit =
      kind === "probs"
        ? (i) => h("span", {}, fmt(values[i]), h("sup", {}, `1/${fmt(T)}`))
        : (i) => h("span", {}, "e", h("sup", {}, `${fmt(values[i])}/${fmt(T)}`));
    const m = full.cutoff;
    const temperature =
      T === 0
        ? [
            "T = 0 is the greedy limit: all probability goes to the largest ",
            kind === "probs" ? "probability, " : "logit, ",
            name(order[0]),
            ` (${fmt(values[order[0]])}); every other token gets 0.`,
          ]
        : [
            kind === "probs"
              ? [
                  "Each probability is raised to 1/T and renormalised, ",
                  sym("p", "i"),
                  h("sup", {}, "1/T"),
                  " / Σ",
                  sym("p", "j"),
                  h("sup", {}, "1/T"),
                  ",",
                ]
              : [
                  "Each logit is divided by T = ",
                  fmt(T),
                  ", then softmax: ",
                  "e",
                  h("sup", {}, [sym("z", "i"), "/T"]),
                  " / Σ e",
                  h("sup", {}, [sym("z", "j"), "/T"]),
                  ",",
                ],
            " listed most probable first:",
            inline(order.map((i) => h("li", {}, name(i), ": ", logit(i), " / Σ = ", fmt(full.tempered[i], 4)))),
          ];
    const topK =
      k === 0
        ? `Off (k = 0): all ${n} tokens go on.`
        : k >= n
          ? `k = ${k} is at least the ${n} tokens there are: all go on.`
          : [
              `k = ${k} keeps `,
              joinNames(order.slice(0, k).map(name)),
              `, whose mass is ${fmt(full.topKMass, 4)}; renormalised:`,
              inline(
                order
                  .slice(0, k)
                  .map((i) =>
                    h(
                      "li",
                      {},
                      name(i),
                      `: ${fmt(full.tempered[i], 4)} / ${fmt(full.topKMass, 4)} = ${fmt(full.topKProbs[i], 4)}`,
                    ),
                  ),
              ),
            ];
    const topP =
      T === 0
        ? "Nothing to cut: the one token left already holds all the mass."
        : p === 1
          ? "Off (p = 1): every token left goes on."
          : [
              `Add up the probabilities${k > 0 && k < n ? " after top-k" : ""}, most probable first, until the sum reaches p = ${fmt(p, 2)}:`,
              inline(
                order
                  .slice(0, m)
                  .map((i, rank) =>
                    h(
                      "li",
                      {},
                      rank === 0
                        ? [name(i), ` ${fmt(full.cumulative[0], 4)}`]
                        : [
                            `${fmt(full.cumulative[rank - 1], 4)} + `,
                            name(i),
                            ` ${fmt(full.topKProbs[i], 4)} = ${fmt(full.cumulative[rank], 4)}`,
                          ],
                      rank === m - 1 ? h("strong", {}, ` ≥ ${fmt(p, 2)}: stop`) : "",
                    ),
                  ),
              ),
              `The nucleus is the ${m === 1 ? "one token" : `${m} tokens`} above`,
              m < n
                ? ["; ", joinNames(order.slice(m).map(name)), m === n - 1 ? " is" : " are", " removed."]
                : "; nothing is removed.",
            ];
    // The calculation's steps, drawn by the kit (worked.js): each a lead of text and inline lists.
    patch(
      this.worked,
      h("p", {}, "The calculation with these numbers:"),
      workedSteps([
        { name: "Temperature", lead: temperature },
        { name: "Top-k", lead: topK },
        { name: "Top-p", lead: topP },
        {
          name: "Renormalise",
          lead: [
            `The kept tokens held ${fmt(full.keptMass, 4)} of the tempered probability; dividing by it makes them sum to 1:`,
            inline(
              full.kept.map((i) =>
                h(
                  "li",
                  {},
                  name(i),
                  `: ${fmt(full.tempered[i], 4)} / ${fmt(full.keptMass, 4)} = `,
                  h("strong", {}, fmt(full.probs[i], 4)),
                ),
              ),
            ),
            m < n ? "Every removed token gets 0." : "",
          ],
        },
        draw && {
          name: "Draw",
          lead: `Each of the ${draw.count} draws picks a token with these final probabilities, using uniform random numbers from seed ${draw.seed}.`,
        },
      ]),
    );
  }
}

function cutRow(text) {
  return h("tr", { class: "sampling-cut" }, h("td", { colspan: 5 }, h("span", {}, text)));
}

export const widgets = { "llm-sampling": LlmSampling, "llm-answer-sampling": LlmAnswerSampling };
