// <llm-attention>: the reader edits queries, keys and values (or picks an example), toggles the
// causal mask, and sees raw scores, the mask, the weights as a heat map, the outputs, and the
// calculation for one query written out with the current numbers.
//
// Attributes: see LlmAttention.attributes (preset, causal, query, tokens, q, k, v).
// Properties: result (the core's attention result), state ({ preset, causal, query, tokens, q,
// k, v }; query is 1-based).
import { fill, h, sym, uniqueId } from "../dom.js";
import { fmt, fmtVec } from "../format.js";
import { LlmWidget } from "./base.js";
import { FigureAnswer } from "./answer.js";
import { checkbox, matrixEditor, markInvalid, stepper } from "./controls.js";
import { attentionPresets } from "./attention-presets.js";
import css from "./attention.css";

const MAX_TOKENS = 8;
const MAX_DIM = 4;
const matrix = (name, doc) => ({ name, type: "matrix", maxRows: MAX_TOKENS, maxCols: MAX_DIM, default: [[0]], doc });

export class LlmAttention extends LlmWidget {
  static styles = css;
  static attributes = [
    { name: "preset", type: "choice", choices: Object.keys(attentionPresets), default: "exercise", preset: true,
      doc: "The example to start from; its tokens, Q, K, V and mask apply unless given below." },
    { name: "causal", type: "boolean", default: true, doc: "Whether the causal mask hides each query's future keys." },
    { name: "query", type: "integer", min: 1, max: MAX_TOKENS, default: 1, doc: "The query (1-based row) whose calculation is written out." },
    { name: "tokens", type: "labels", minLength: 1, maxLength: MAX_TOKENS, maxChars: 20, default: ["t1"], doc: "The token labels of the rows." },
    matrix("q", "Queries Q, one row per token (d ≤ 4 columns)."),
    matrix("k", "Keys K, one row per token, as many columns as Q."),
    matrix("v", "Values V, one row per token (at most 4 columns)."),
  ];

  static presetFields(name) {
    const p = attentionPresets[name];
    return { tokens: p.tokens, q: p.Q, k: p.K, v: p.V, causal: p.causal };
  }

  /** Q, K and V take as many rows as there are tokens (new entries 0); K as many columns as Q. */
  normalize(s, notes) {
    const n = s.tokens.length, d = s.q[0].length, dv = s.v[0].length;
    const fit = (M, cols) => Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => M[i]?.[j] ?? 0));
    if (s.q.length !== n || s.k.length !== n || s.v.length !== n || s.k[0].length !== d) {
      notes.push(`Q, K and V were fitted to ${n} token${n === 1 ? "" : "s"} and d = ${d} (missing entries 0).`);
      s.q = fit(s.q, d);
      s.k = fit(s.k, d);
      s.v = fit(s.v, dv);
    }
    s.query = Math.min(s.query, n);
  }

  build() {
    const id = uniqueId("att");
    this.presetSelect = h("select", { id: `${id}-preset`, onchange: () => this.onPreset(this.presetSelect.value) },
      Object.entries(attentionPresets).map(([key, p]) => h("option", { value: key }, p.label)));
    this.causal = checkbox({ label: "Causal mask", checked: true, onchange: (causal) => this.set({ causal }) });
    this.querySelect = h("select", { id: `${id}-query`, onchange: () => this.set({ query: Number(this.querySelect.value) }) });
    this.editors = h("div", { class: "att-editors" });
    this.scoresView = h("div", { class: "att-view" });
    this.weightsView = h("div", { class: "att-view" });
    this.outputView = h("div", { class: "att-view" });
    this.worked = h("div", { class: "worked", "aria-live": "polite" });

    this.frame.append(
      h("div", { class: "controls" },
        h("label", { for: `${id}-preset` }, "Example "), this.presetSelect,
        this.causal.row,
        stepper("Tokens", () => this.resize(-1, 0, 0), () => this.resize(1, 0, 0)),
        stepper("Key dimension d", () => this.resize(0, -1, 0), () => this.resize(0, 1, 0)),
        stepper("Value dimension", () => this.resize(0, 0, -1), () => this.resize(0, 0, 1))),
      h("p", { class: "hint" }, "Edit any number of Q, K or V. Rows are tokens."),
      this.editors,
      h("div", { class: "att-results" }, this.scoresView, this.weightsView, this.outputView),
      h("div", { class: "controls" }, h("label", { for: `${id}-query` }, "Explain the calculation for query "), this.querySelect),
      this.worked,
    );
  }

  onPreset(name) {
    if (!Object.hasOwn(attentionPresets, name)) return;
    this.set({ preset: name, ...LlmAttention.presetFields(name), query: 1 }, { sync: true });
  }

  /** Adds or removes a token row, a key dimension or a value dimension (new entries are 0). */
  resize(dTokens, dKey, dValue) {
    const s = this.state;
    const n = s.tokens.length + dTokens, d = s.q[0].length + dKey, dv = s.v[0].length + dValue;
    if (n < 1 || n > MAX_TOKENS || d < 1 || d > MAX_DIM || dv < 1 || dv > MAX_DIM) return;
    const fit = (M, cols) => Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => M[i]?.[j] ?? 0));
    this.set({
      tokens: Array.from({ length: n }, (_, i) => s.tokens[i] ?? `t${i + 1}`),
      q: fit(s.q, d), k: fit(s.k, d), v: fit(s.v, dv),
    }, { sync: true });
  }

  /** Sets every control from the state: the example list, the mask, the query list, the editors. */
  sync() {
    const s = this.state;
    const p = LlmAttention.presetFields(s.preset);
    const unchanged = JSON.stringify([p.tokens, p.q, p.k, p.v]) === JSON.stringify([s.tokens, s.q, s.k, s.v]);
    this.presetSelect.value = unchanged ? s.preset : "";
    this.causal.input.checked = s.causal;
    fill(this.querySelect, s.tokens.map((t, i) => h("option", { value: i + 1 }, `${i + 1} (${t})`)));
    this.querySelect.value = String(s.query);
    const editor = (name, key, caption) => matrixEditor({ name, caption: [h("var", {}, name), ` (${caption})`], M: s[key], rowLabels: s.tokens,
      oncell: (i, j, x, input) => this.onCell(key, i, j, x, input) });
    fill(this.editors, editor("Q", "q", "queries"), editor("K", "k", "keys"), editor("V", "v", "values"));
  }

  onCell(key, i, j, x, input) {
    // x is NaN for an empty or unparsable field; the core names it in its message.
    const M = this.state[key].map((row) => row.slice());
    M[i][j] = x;
    this.set({ [key]: M });
    this.presetSelect.value = "";
    markInvalid(input, this.status.classList.contains("llm-error"));
  }

  compute() {
    const { q, k, v, causal } = this.state;
    return this.core.attention(q, k, v, { causal });
  }

  render(r) {
    const tokens = this.state.tokens;
    const table = (caption, M, cell, headers = tokens) =>
      h("table", { class: "att-table" }, h("caption", {}, caption),
        h("thead", {}, h("tr", {}, h("td", {}), headers.map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, M.map((row, i) => h("tr", { class: i === this.state.query - 1 ? "selected" : null },
          h("th", { scope: "row" }, tokens[i]), row.map((x, j) => cell(x, i, j))))));

    fill(this.scoresView, table("Raw scores q·k/√d (before the mask)", r.scores, (x, i, j) =>
      r.visible[i][j]
        ? h("td", {}, fmt(x, 3))
        : h("td", { class: "masked", title: "masked: this key is in the query's future" },
            h("span", { class: "visually-hidden" }, "masked, raw "), fmt(x, 3))));
    fill(this.weightsView, table("Weights after the mask and softmax", r.weights, (w, i, j) =>
      h("td", { class: r.visible[i][j] ? "heat" : "heat masked", style: { "--w": String(w) } }, fmt(w, 3))));
    const dv = r.output[0].length;
    fill(this.outputView, table("Outputs (weights · V)", r.output, (x) => h("td", {}, fmt(x, 3)),
      Array.from({ length: dv }, (_, j) => `dim ${j + 1}`)));
    this.renderWorked(r);
  }

  /** The calculation for the selected query, with the reader's numbers substituted. */
  renderWorked(r) {
    const { tokens, q: Q, k: K, v: V, causal } = this.state;
    const i = this.state.query - 1;
    const d = Q[0].length;
    const n = tokens.length;
    const qi = () => sym("q", i + 1);
    const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x, 3)));
    const visible = [...Array(n).keys()].filter((j) => r.visible[i][j]);
    const hidden = [...Array(n).keys()].filter((j) => !r.visible[i][j]);
    const dot = (j) => Q[i].map((x, c) => `${fmt(x)}·${fmt(K[j][c])}`).join(" + ");

    const steps = h("ol", {});
    steps.append(h("li", {},
      h("strong", {}, "Scores. "), "Each key j gets ", sym("s", `${i + 1},j`), " = ", qi(), " · ", sym("k", "j"),
      ` / √${d}, and 1/√${d} = ${fmt(r.scale, 6)}:`,
      h("ul", {}, [...Array(n).keys()].map((j) => h("li", {},
        sym("s", `${i + 1},${j + 1}`), ` = (${dot(j)}) × ${fmt(r.scale, 4)} = ${fmt(r.scores[i][j], 4)}`,
        r.visible[i][j] ? "" : h("em", {}, " (masked)"))))));

    steps.append(h("li", {}, h("strong", {}, "Mask. "),
      causal
        ? [`Query ${i + 1} sits at position ${r.positions[i] + 1}, so it sees ${r.positions[i] === 0 ? "only key 1" : `keys 1 to ${r.positions[i] + 1}`}. `,
            hidden.length
              ? `Key${hidden.length > 1 ? "s" : ""} ${hidden.map((j) => j + 1).join(", ")} ${hidden.length > 1 ? "are" : "is"} in its future and ${hidden.length > 1 ? "are" : "is"} removed before the softmax, so ${hidden.length > 1 ? "their weights are" : "its weight is"} exactly 0, whatever the raw score.`
              : "No key is in its future."]
        : "No causal mask: every key is visible."));

    const expTerms = () => visible.flatMap((j, k) => (k ? [" + ", exp(r.scores[i][j])] : [exp(r.scores[i][j])]));
    steps.append(h("li", {}, h("strong", {}, "Softmax over the visible scores. "),
      h("ul", {}, visible.map((j) => h("li", {},
        sym("w", `${i + 1},${j + 1}`), " = ", exp(r.scores[i][j]), " / (", expTerms(), `) = ${fmt(r.weights[i][j], 4)}`)))));

    steps.append(h("li", {}, h("strong", {}, "Output. "), sym("o", i + 1), " = ",
      visible.map((j) => `${fmt(r.weights[i][j], 4)}·${fmtVec(V[j])}`).join(" + "),
      " = ", h("strong", {}, fmtVec(r.output[i], 4))));

    fill(this.worked, h("p", {}, `Query ${i + 1} (“${tokens[i]}”), `, qi(), ` = ${fmtVec(Q[i])}:`), steps);
  }
}

/** Exercise 1: query 1's weights and output, and what became of the keys it could not see. */
export class LlmAnswerAttention extends FigureAnswer {
  static figure = "llm-attention";

  answer(r, figure) {
    const { v: V, causal } = figure.state;
    const w = r.weights[0];
    const visible = r.visible[0];
    const seen = visible.map((v, j) => (v ? j : -1)).filter((j) => j >= 0);
    const hidden = visible.map((v, j) => (v ? -1 : j)).filter((j) => j >= 0);
    // The masked key with the largest raw score: the one a reader might expect to dominate.
    const strongest = hidden.reduce((best, j) => (best < 0 || r.scores[0][j] > r.scores[0][best] ? j : best), -1);
    const only = seen.length === 1;
    return [
      h("p", {},
        causal
          ? `Query 1 sits at position 1, so under the causal mask it sees ${only ? "only key 1" : `keys ${seen.map((j) => j + 1).join(", ")}`}. `
          : "Without the causal mask, query 1 sees every key. ",
        "Its weights are ", h("strong", { class: "answer-weights" }, fmtVec(w, 4)), only ? `, so the output is V1 = ` : ", so the output is ",
        h("strong", { class: "answer-output" }, fmtVec(r.output[0], 4)),
        only ? ` (the value of key 1, ${fmtVec(V[0])}, copied unchanged).` : "."),
      strongest >= 0
        ? h("p", {}, `Future key ${strongest + 1} has a raw score of ${fmt(r.scores[0][strongest], 4)}`,
            r.scores[0][strongest] >= Math.max(...seen.map((j) => r.scores[0][j])) ? ", the largest in the row, " : " ",
            "but it is masked before normalisation, so its weight is exactly 0 and it contributes nothing to the output.")
        : null,
    ];
  }
}

export const widgets = { "llm-attention": LlmAttention, "llm-answer-attention": LlmAnswerAttention };
