// <llm-attention>: the reader edits queries, keys and values (or picks an example), toggles the
// causal mask, and sees the scores before the mask, the weights as a heat map, the outputs, and the
// calculation for one query written out with the current numbers.
//
// Attributes: see LlmAttention.attributes (preset, causal, query, labels (formerly tokens), q, k,
// v), and the view attributes of every figure (compact, scheme).
// Properties: result (the core's attention result), state ({ preset, causal, query, labels, q,
// k, v }; query is 1-based).
import { fill, h, patch, sym, uniqueId } from "../../dom.js";
import { fmt, fmtVec } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { FigureAnswer } from "../../kit/answer.js";
import { checkbox, markSettings, matrixEditor, markInvalid, scrollBox, stepper } from "../../kit/controls.js";
import { attentionPresets } from "./attention-presets.js";
import { workedSteps } from "../../kit/worked.js";
import css from "./attention.css";

const MAX_TOKENS = 8;
const MAX_DIM = 4;
const matrix = (name, label, doc) => ({
  name,
  type: "matrix",
  maxRows: MAX_TOKENS,
  maxCols: MAX_DIM,
  default: [[0]],
  label,
  doc,
});

export class LlmAttention extends LlmWidget {
  static styles = css;
  static attributes = [
    {
      name: "preset",
      type: "choice",
      choices: Object.keys(attentionPresets),
      default: "exercise",
      preset: true,
      doc: "The example to start from; its labels, Q, K, V and mask apply unless given below.",
    },
    { name: "causal", type: "boolean", default: true, doc: "Whether the causal mask hides each query's future keys." },
    {
      name: "query",
      type: "integer",
      min: 1,
      max: MAX_TOKENS,
      default: 1,
      doc: "The query (1-based row) whose calculation is written out.",
    },
    {
      name: "labels",
      aliases: ["tokens"],
      type: "labels",
      minLength: 1,
      maxLength: MAX_TOKENS,
      maxChars: 20,
      default: ["t1"],
      label: "Tokens",
      doc: "The token labels of the rows.",
    },
    matrix("q", "Queries Q", "Queries Q, one row per token (d ≤ 4 columns)."),
    matrix("k", "Keys K", "Keys K, one row per token, as many columns as Q."),
    matrix("v", "Values V", "Values V, one row per token (at most 4 columns)."),
  ];

  static presetFields(name) {
    const p = attentionPresets[name];
    return { labels: p.labels, q: p.Q, k: p.K, v: p.V, causal: p.causal };
  }

  /** Q, K and V take as many rows as there are tokens (new entries 0); K as many columns as Q. */
  normalize(s, notes) {
    const n = s.labels.length,
      d = s.q[0].length,
      dv = s.v[0].length;
    const fit = (M, cols) =>
      Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => M[i]?.[j] ?? 0));
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
    // After an edit the list names what the figure shows: the reader's own numbers, an entry that
    // is not a choice and is there only while no example is shown.
    this.ownOption = h("option", { value: "", disabled: true, hidden: true }, "Your own numbers");
    this.presetSelect = h(
      "select",
      { id: `${id}-preset`, onchange: () => this.onPreset(this.presetSelect.value) },
      Object.entries(attentionPresets).map(([key, p]) => h("option", { value: key }, p.label)),
      this.ownOption,
    );
    this.causal = checkbox({ label: "Causal mask", checked: true, onchange: (causal) => this.set({ causal }) });
    this.querySelect = h("select", {
      id: `${id}-query`,
      onchange: () => this.set({ query: Number(this.querySelect.value) }),
    });
    markSettings({ preset: this.presetSelect, causal: this.causal.input, query: this.querySelect });
    this.editors = h("div", { class: "attention-editors" });
    this.scoresView = scrollBox("Scores", "table-view");
    this.weightsView = scrollBox("Weights", "table-view");
    this.outputView = scrollBox("Outputs", "table-view");
    this.worked = h("div", { class: "worked" });

    this.frame.append(
      // The main controls stay in view while the figure scrolls by (.llm-bar, widget.css).
      h(
        "div",
        { class: "controls llm-bar" },
        h("label", { for: `${id}-preset` }, "Example "),
        this.presetSelect,
        this.causal.row,
      ),
      h(
        "div",
        { class: "controls attention-size" },
        stepper(
          "Tokens",
          () => this.resize(-1, 0, 0),
          () => this.resize(1, 0, 0),
        ),
        stepper(
          "Key dimension d",
          () => this.resize(0, -1, 0),
          () => this.resize(0, 1, 0),
        ),
        stepper(
          "Value dimension",
          () => this.resize(0, 0, -1),
          () => this.resize(0, 0, 1),
        ),
      ),
      h("p", { class: "hint" }, "Edit any number of Q, K or V. Rows are tokens."),
      this.editors,
      h("div", { class: "attention-results" }, this.scoresView, this.weightsView, this.outputView),
      h(
        "div",
        { class: "controls explain" },
        h("label", { for: `${id}-query` }, "Explain the calculation for query "),
        this.querySelect,
      ),
      this.worked,
    );
  }

  /** The Example list shows example `name`, or with "" the reader's own numbers. */
  showExample(name) {
    this.ownOption.hidden = name !== "";
    this.presetSelect.value = name;
  }

  onPreset(name) {
    if (!Object.hasOwn(attentionPresets, name)) return;
    this.set({ preset: name, ...LlmAttention.presetFields(name), query: 1 }, { sync: true });
  }

  /** Adds or removes a token row, a key dimension or a value dimension (new entries are 0). */
  resize(dTokens, dKey, dValue) {
    const s = this.state;
    const n = s.labels.length + dTokens,
      d = s.q[0].length + dKey,
      dv = s.v[0].length + dValue;
    if (n < 1 || n > MAX_TOKENS || d < 1 || d > MAX_DIM || dv < 1 || dv > MAX_DIM) return;
    const fit = (M, cols) =>
      Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => M[i]?.[j] ?? 0));
    this.set(
      {
        labels: Array.from({ length: n }, (_, i) => s.labels[i] ?? `t${i + 1}`),
        q: fit(s.q, d),
        k: fit(s.k, d),
        v: fit(s.v, dv),
      },
      { sync: true },
    );
  }

  /** Sets every control from the state: the example list, the mask, the query list, the editors. */
  sync() {
    const s = this.state;
    const p = LlmAttention.presetFields(s.preset);
    const unchanged = JSON.stringify([p.labels, p.q, p.k, p.v]) === JSON.stringify([s.labels, s.q, s.k, s.v]);
    this.showExample(unchanged ? s.preset : "");
    this.causal.input.checked = s.causal;
    fill(
      this.querySelect,
      s.labels.map((t, i) => h("option", { value: i + 1 }, `${i + 1} (${t})`)),
    );
    this.querySelect.value = String(s.query);
    const editor = (name, key, caption) =>
      matrixEditor({
        name,
        caption: [h("var", {}, name), ` (${caption})`],
        M: s[key],
        rowLabels: s.labels,
        oncell: (i, j, x, input) => this.onCell(key, i, j, x, input),
      });
    fill(this.editors, editor("Q", "q", "queries"), editor("K", "k", "keys"), editor("V", "v", "values"));
  }

  onCell(key, i, j, x, input) {
    // x is NaN for an empty or unparsable field; the core names it in its message.
    const M = this.state[key].map((row) => row.slice());
    M[i][j] = x;
    this.set({ [key]: M });
    this.showExample("");
    markInvalid(input, this.failed);
  }

  compute() {
    const { q, k, v, causal } = this.state;
    return this.core.attention(q, k, v, { causal });
  }

  render(r) {
    const labels = this.state.labels;
    const table = (caption, M, cell, headers = labels) =>
      h(
        "table",
        { class: "data-table" },
        h("caption", {}, caption),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", {}),
            headers.map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        h(
          "tbody",
          {},
          M.map((row, i) =>
            h(
              "tr",
              { class: i === this.state.query - 1 ? "selected" : null },
              h("th", { scope: "row" }, labels[i]),
              row.map((x, j) => cell(x, i, j)),
            ),
          ),
        ),
      );

    patch(
      this.scoresView,
      table("Scores q·k/√d (before the mask)", r.scores, (x, i, j) =>
        r.visible[i][j]
          ? h("td", {}, fmt(x, 3))
          : h(
              "td",
              { class: "masked", title: "masked: this key is in the query's future" },
              h("span", { class: "visually-hidden" }, "masked, raw "),
              fmt(x, 3),
            ),
      ),
    );
    patch(
      this.weightsView,
      table(
        this.state.causal ? "Weights after the mask and softmax" : "Weights after the softmax (no mask)",
        r.weights,
        (w, i, j) =>
          h("td", { class: r.visible[i][j] ? "heat" : "heat masked", style: { "--w": String(w) } }, fmt(w, 3)),
      ),
    );
    const dv = r.output[0].length;
    patch(
      this.outputView,
      table(
        "Outputs (weights · V)",
        r.output,
        (x) => h("td", {}, fmt(x, 3)),
        Array.from({ length: dv }, (_, j) => `dim ${j + 1}`),
      ),
    );
    this.renderWorked(r);
  }

  /** The selected query's weights and output; only its scores while exercise 1 hides the weights. */
  summary(r, { concealed }) {
    const i = this.state.query - 1;
    const query = `Query ${i + 1} (“${this.state.labels[i]}”)`;
    return concealed
      ? `${query}: scores ${fmtVec(r.scores[i], 3)}; its weights are hidden until you answer the exercise.`
      : `${query}: weights ${fmtVec(r.weights[i], 3)}, output ${fmtVec(r.output[i], 3)}.`;
  }

  /** The calculation for the selected query, with the reader's numbers substituted. */
  renderWorked(r) {
    const { labels, q: Q, k: K, v: V, causal } = this.state;
    const i = this.state.query - 1;
    const d = Q[0].length;
    const n = labels.length;
    const qi = () => sym("q", i + 1);
    const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x, 3)));
    const visible = [...Array(n).keys()].filter((j) => r.visible[i][j]);
    const hidden = [...Array(n).keys()].filter((j) => !r.visible[i][j]);
    const dot = (j) => Q[i].map((x, c) => `${fmt(x)}·${fmt(K[j][c])}`).join(" + ");

    const expTerms = () => visible.flatMap((j, k) => (k ? [" + ", exp(r.scores[i][j])] : [exp(r.scores[i][j])]));
    // The calculation's steps, drawn by the kit (worked.js).
    const steps = workedSteps([
      {
        name: "Scores",
        lead: [
          "Each key j gets ",
          sym("s", `${i + 1},j`),
          " = ",
          qi(),
          " · ",
          sym("k", "j"),
          ` / √${d}, and 1/√${d} = ${fmt(r.scale, 6)}:`,
          h(
            "ul",
            {},
            [...Array(n).keys()].map((j) =>
              h(
                "li",
                {},
                sym("s", `${i + 1},${j + 1}`),
                ` = (${dot(j)}) × ${fmt(r.scale, 4)} = ${fmt(r.scores[i][j], 4)}`,
                r.visible[i][j] ? "" : h("em", {}, " (masked)"),
              ),
            ),
          ),
        ],
      },
      {
        name: "Mask",
        lead: causal
          ? [
              `Query ${i + 1} sits at position ${r.positions[i] + 1}, so it sees ${r.positions[i] === 0 ? "only key 1" : `keys 1 to ${r.positions[i] + 1}`}. `,
              hidden.length
                ? `Key${hidden.length > 1 ? "s" : ""} ${hidden.map((j) => j + 1).join(", ")} ${hidden.length > 1 ? "are" : "is"} in its future and ${hidden.length > 1 ? "are" : "is"} removed before the softmax, so ${hidden.length > 1 ? "their weights are" : "its weight is"} exactly 0, whatever its score.`
                : "No key is in its future.",
            ]
          : "No causal mask: every key is visible.",
      },
      {
        name: "Softmax over the visible scores",
        lead: h(
          "ul",
          {},
          visible.map((j) =>
            h(
              "li",
              {},
              sym("w", `${i + 1},${j + 1}`),
              " = ",
              exp(r.scores[i][j]),
              " / (",
              expTerms(),
              `) = ${fmt(r.weights[i][j], 4)}`,
            ),
          ),
        ),
      },
      {
        name: "Output",
        formula: `o_${i + 1}`,
        values: visible.map((j) => `${fmt(r.weights[i][j], 4)}·${fmtVec(V[j])}`).join(" + "),
        result: fmtVec(r.output[i], 4),
      },
    ]);

    patch(this.worked, h("p", {}, `Query ${i + 1} (“${labels[i]}”), `, qi(), ` = ${fmtVec(Q[i])}:`), steps);
  }
}

/**
 * Exercise 1: the reader predicts query 1's weight on key 1; the answer gives query 1's weights
 * and output, and what became of the keys it could not see.
 */
export class LlmAnswerAttention extends FigureAnswer {
  static figure = "llm-attention";
  static followUp =
    "what is query 1's output (its first component), and why does the future key with the largest score not matter?";

  prediction(r, figure) {
    const { q, k, v, causal } = figure.state;
    const core = figure.core;
    // The weight key 1 would get from a softmax over every key of row 1: the mask left out.
    const unmasked = core.attention(q, k, v, { causal: false }).weights[0][0];
    // … and without the 1/√d scaling, with and without the mask.
    const unscaled = core.attention(q, k, v, { causal, scale: 1 }).weights[0][0];
    const unscaledUnmasked = core.attention(q, k, v, { causal: false, scale: 1 }).weights[0][0];
    return {
      label: "Query 1's weight on key 1:",
      value: r.weights[0][0],
      probability: true,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: unmasked,
          text: "That is key 1's share of a softmax over every key in row 1: you divided by the sum over all the keys, the future ones too. The mask removes query 1's future keys before the softmax, so its weights are shared only among the keys it can see.",
        },
        {
          value: unscaledUnmasked,
          text: "That is a softmax over all of row 1's dot products q·k, without the mask and without dividing by √d. The scores are q·k/√d, and the masked keys are removed before the softmax.",
        },
        {
          value: unscaled,
          text: "That softmax used the dot products q·k without dividing by √d: the scores are q·k/√d.",
        },
        {
          value: r.scores[0][0],
          text: "That is key 1's score q₁·k₁/√d, before the softmax turns the visible scores into weights.",
        },
        {
          value: 0,
          text: "0 is the weight of a masked key, but key 1 is at query 1's own position, which it always sees.",
        },
      ],
      otherwise:
        "Look at row 1 of the scores: which keys can query 1 see under the mask? The softmax shares the weight among those keys only.",
    };
  }

  followUpPrediction(r, figure) {
    const { q, k, v } = figure.state;
    // Query 1's output with its future keys let in: the mask left out.
    const unmasked = figure.core.attention(q, k, v, { causal: false }).output[0][0];
    return {
      label: "The first component of query 1's output:",
      value: r.output[0][0],
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: unmasked,
          text: "That is the output with the future keys let in. The output is Σⱼ w₁ⱼ·vⱼ over the keys query 1 can see: the masked keys have weight 0.",
        },
      ],
      otherwise: "The output is the weighted sum of the values, Σⱼ w₁ⱼ·vⱼ, with the weights you found above.",
    };
  }

  answer(r, figure) {
    const { v: V, causal } = figure.state;
    const w = r.weights[0];
    const row = r.scores[0];
    const visible = r.visible[0];
    const seen = visible.map((x, j) => (x ? j : -1)).filter((j) => j >= 0);
    const hidden = visible.map((x, j) => (x ? -1 : j)).filter((j) => j >= 0);
    const only = seen.length === 1;
    const keys = (js) => `key${js.length === 1 ? "" : "s"} ${js.map((j) => j + 1).join(", ")}`;
    // How the future keys' scores compare with the best score query 1 can see: "largest in the
    // row" only when one future key beats every other key, never for a tie (Look-up: all 0).
    let future = null;
    if (hidden.length) {
      const best = Math.max(...seen.map((j) => row[j]));
      const top = Math.max(...hidden.map((j) => row[j]));
      const topKeys = hidden.filter((j) => row[j] === top);
      const scores =
        hidden.length === 1
          ? `Future key ${hidden[0] + 1} has a score of ${fmt(row[hidden[0]], 4)}`
          : `Future ${keys(hidden)} have scores ${hidden.map((j) => fmt(row[j], 4)).join(", ")}`;
      const compare =
        top > best
          ? topKeys.length === 1
            ? `; key ${topKeys[0] + 1}'s is the largest in the row, above every score query 1 can see`
            : `; ${keys(topKeys)} share the largest score in the row, above every score query 1 can see`
          : `; none is above the best score query 1 can see, ${fmt(best, 4)}`;
      future = h(
        "p",
        {},
        scores,
        compare,
        ". Whatever their scores, masked keys are removed before normalisation, so ",
        hidden.length === 1 ? "its weight is" : "their weights are",
        " exactly 0 and they contribute nothing to the output.",
      );
    }
    return [
      h(
        "p",
        {},
        causal
          ? `Query 1 sits at position 1, so under the causal mask it sees ${only ? "only key 1" : keys(seen)}. `
          : "Without the causal mask, query 1 sees every key. ",
        "Its weights are ",
        h("strong", { class: "answer-weights" }, fmtVec(w, 4)),
        only ? `, so the output is V1 = ` : ", so the output is ",
        h("strong", { class: "answer-output" }, fmtVec(r.output[0], 4)),
        only ? ` (the value of key 1, ${fmtVec(V[0])}, copied unchanged).` : ".",
      ),
      future,
    ];
  }
}

export const widgets = { "llm-attention": LlmAttention, "llm-answer-attention": LlmAnswerAttention };
