// <llm-moe>: a mixture-of-experts router (Fedus et al. 2021, Switch Transformer). The reader
// edits the router logits of a few tokens (or picks an example) and the number of experts each
// token goes to; the figure shows the router probabilities, where each token is dispatched,
// the fraction of traffic f and the mean router probability p of each expert, the auxiliary
// load-balancing loss N·Σ f_i·p_i, and that sum written out with the current numbers.
//
// Attributes: see LlmMoe.attributes (preset, top-k, labels (formerly tokens), logits).
// Properties: result (see compute()), state ({ preset, topK, labels, logits }).
import { fill, h, patch, sym, uniqueId } from "../../dom.js";
import { fmt, fmtVec } from "../../format.js";
import { LlmWidget } from "../../kit/base.js";
import { FigureAnswer } from "../../kit/answer.js";
import { choice, markInvalid, markSettings, matrixEditor, scrollBox, stepper } from "../../kit/controls.js";
import { groupedBarChart, legend, niceTicks } from "../../kit/plot.js";
import { MOE_LABELS, moePresets } from "./moe-presets.js";
import css from "./moe.css";

const MAX_TOKENS = 12;
const MIN_EXPERTS = 2;
const MAX_EXPERTS = 8;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** The label of token i: the example's, or t<i+1> past its end. */
const tokenLabel = (labels, i) => labels[i] ?? MOE_LABELS[i] ?? `t${i + 1}`;

export class LlmMoe extends LlmWidget {
  static styles = css;
  static attributes = [
    {
      name: "preset",
      type: "choice",
      choices: Object.keys(moePresets),
      default: "between",
      preset: true,
      doc: "The example to start from; its labels and router logits apply unless given below.",
    },
    {
      name: "top-k",
      type: "integer",
      min: 1,
      max: MAX_EXPERTS,
      default: 1,
      doc: "How many experts each token is dispatched to (at most the number of experts).",
    },
    {
      name: "labels",
      aliases: ["tokens"],
      type: "labels",
      minLength: 1,
      maxLength: MAX_TOKENS,
      maxChars: 20,
      default: MOE_LABELS,
      label: "Tokens",
      doc: "The token labels of the rows; they follow the number of rows of the logits.",
    },
    {
      name: "logits",
      type: "matrix",
      maxRows: MAX_TOKENS,
      maxCols: MAX_EXPERTS,
      default: [[0, 0]],
      label: "Router logits",
      doc: "The router logits, one row per token (at most 12), one column per expert (2 to 8).",
    },
  ];

  static presetFields(name) {
    return { labels: MOE_LABELS, logits: moePresets[name].logits };
  }

  /**
   * The logits set the shape: at least two experts (new logits 0); one token label per row
   * (labels added or dropped); top-k at most the number of experts.
   */
  normalize(s, notes) {
    const n = s.logits.length;
    let e = s.logits[0].length;
    if (e < MIN_EXPERTS) {
      notes.push(`logits were given ${MIN_EXPERTS} experts, the fewest the figure routes between (new logits 0).`);
      e = MIN_EXPERTS;
      s.logits = s.logits.map((row) => Array.from({ length: e }, (_, j) => row[j] ?? 0));
    }
    if (s.labels.length !== n) {
      notes.push(`labels were fitted to the ${n} row${n === 1 ? "" : "s"} of logits.`);
      s.labels = Array.from({ length: n }, (_, i) => tokenLabel(s.labels, i));
    }
    if (s.topK > e) {
      notes.push(`top-k lowered to ${e}, the number of experts.`);
      s.topK = e;
    }
  }

  build() {
    const id = uniqueId("moe");
    this.presetSelect = h(
      "select",
      { id: `${id}-preset`, onchange: () => this.onPreset(this.presetSelect.value) },
      Object.entries(moePresets).map(([key, p]) => h("option", { value: key }, p.label)),
      h("option", { value: "", disabled: true }, "Your numbers"),
    );
    this.topK = choice({
      label: "Experts per token, top-k",
      options: [],
      value: "",
      onchange: (k) => this.set({ topK: Number(k) }),
    });
    markSettings({ preset: this.presetSelect, "top-k": this.topK.select });

    this.editor = h("div", { class: "table-view llm-scroll" });
    this.dispatch = scrollBox("Router probabilities and dispatch", "table-view");
    this.headline = h("p", { class: "headline" });
    this.bars = h("div", { class: "chart-box moe-bars" });
    this.experts = scrollBox("Per expert", "table-view");
    this.worked = h("div", { class: "worked" });
    this.frame.append(
      // The main controls stay in view while the figure scrolls by (.llm-bar, widget.css).
      h(
        "div",
        { class: "controls llm-bar" },
        h("label", { for: `${id}-preset` }, "Example "),
        this.presetSelect,
        this.topK.row,
      ),
      h(
        "div",
        { class: "controls moe-size" },
        stepper(
          "Tokens",
          () => this.resize(-1, 0),
          () => this.resize(1, 0),
        ),
        stepper(
          "Experts",
          () => this.resize(0, -1),
          () => this.resize(0, 1),
        ),
      ),
      h("p", { class: "hint" }, "Edit any router logit: rows are tokens, columns are experts."),
      h("div", { class: "moe-tables" }, this.editor, this.dispatch),
      this.headline,
      h("div", { class: "moe-stats" }, this.bars, this.experts),
      this.worked,
    );
  }

  onPreset(name) {
    if (!Object.hasOwn(moePresets, name)) return;
    this.set({ preset: name, ...LlmMoe.presetFields(name) }, { sync: true });
  }

  /** Adds or removes a token or an expert (new logits are 0). */
  resize(dTokens, dExperts) {
    const s = this.state;
    const n = s.logits.length + dTokens,
      e = s.logits[0].length + dExperts;
    if (n < 1 || n > MAX_TOKENS || e < MIN_EXPERTS || e > MAX_EXPERTS) return;
    this.set(
      {
        logits: Array.from({ length: n }, (_, i) => Array.from({ length: e }, (_, j) => s.logits[i]?.[j] ?? 0)),
        labels: Array.from({ length: n }, (_, i) => tokenLabel(s.labels, i)),
        topK: Math.min(s.topK, e),
      },
      { sync: true },
    );
  }

  /** Sets every control from the state: the example list, the top-k list, the logit editor. */
  sync() {
    const s = this.state;
    const e = s.logits[0].length;
    const p = LlmMoe.presetFields(s.preset);
    this.presetSelect.value = same(p.logits, s.logits) && same(p.labels, s.labels) ? s.preset : "";
    fill(
      this.topK.select,
      Array.from({ length: e }, (_, k) => h("option", { value: k + 1 }, String(k + 1))),
    );
    this.topK.select.value = String(s.topK);
    fill(
      this.editor,
      matrixEditor({
        name: "logits",
        caption: "Router logits",
        M: s.logits,
        rowLabels: s.labels,
        colLabels: s.logits[0].map((_, j) => `E${j + 1}`),
        className: "moe-logits",
        cellLabel: (i, j) => `logit of token ${i + 1} (${s.labels[i]}) for expert ${j + 1}`,
        oncell: (i, j, v, input) => this.onCell(i, j, v, input),
      }),
    );
  }

  onCell(i, j, v, input) {
    // v is NaN for an empty or unparsable field; the core names it in its message.
    const logits = this.state.logits.map((row) => row.slice());
    logits[i][j] = v;
    this.set({ logits });
    this.presetSelect.value = "";
    markInvalid(input, this.failed);
  }

  /**
   * The routing and its loss, plus what exercise 8 compares it with, all from the core: an
   * even router (equal logits give p_i = 1/N), the loss of this traffic split and of all
   * traffic on expert 1 under that even router, and the loss of a full collapse.
   */
  compute() {
    const { logits, topK } = this.state;
    const route = this.core.moeRoute(logits, topK);
    const N = route.f.length;
    const even = this.core.moeRoute([Array(N).fill(0)], 1).p;
    const oneExpert = Array.from({ length: N }, (_, i) => (i === 0 ? 1 : 0));
    return {
      route,
      even,
      oneExpert,
      withEven: this.core.moeLoadBalance(route.f, even),
      oneExpertWithEven: this.core.moeLoadBalance(oneExpert, even),
      collapse: this.core.moeLoadBalance(oneExpert, oneExpert),
    };
  }

  render(r) {
    const { route } = r;
    const labels = this.state.labels;
    const N = route.f.length;
    const experts = route.f.map((_, j) => `E${j + 1}`);
    patch(
      this.dispatch,
      h(
        "table",
        { class: "data-table moe-dispatch" },
        h("caption", {}, "Router probabilities and dispatch"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", {}),
            experts.map((e) => h("th", { scope: "col" }, e)),
            h("th", { scope: "col" }, "→"),
          ),
        ),
        h(
          "tbody",
          {},
          route.probs.map((row, i) => {
            const chosen = route.assignments[i];
            return h(
              "tr",
              {},
              h("th", { scope: "row" }, labels[i]),
              row.map((p, j) => {
                const rank = chosen.indexOf(j);
                return h(
                  "td",
                  {
                    class: rank >= 0 ? "heat chosen" : "heat",
                    style: { "--w": String(p) },
                    title: rank >= 0 ? `dispatched to expert ${j + 1}` : null,
                  },
                  fmt(p, 3),
                  rank >= 0 ? h("span", { class: "visually-hidden" }, " (dispatched)") : null,
                );
              }),
              h("td", { class: "moe-to" }, chosen.map((j) => `E${j + 1}`).join(", ")),
            );
          }),
        ),
      ),
    );

    patch(
      this.headline,
      "Load-balancing loss ",
      h("var", {}, "N"),
      "·Σ ",
      sym("f", "i"),
      "·",
      sym("p", "i"),
      " = ",
      h("strong", { class: "moe-loss" }, fmt(route.loss, 4)),
      // The loss under an even router is exercise 8's answer: a part of its own, which it holds back.
      h(
        "span",
        { class: "moe-loss-range" },
        `: ${fmt(r.withEven.loss)} when the traffic or the router is even, ${fmt(r.collapse.loss)} (N) when everything goes to one expert.`,
      ),
    );

    const top = Math.max(...route.f, ...route.p);
    const { max, ticks } = niceTicks(top, 4);
    patch(
      this.bars,
      groupedBarChart({
        title: "Fraction of traffic f and mean router probability p per expert",
        categories: experts,
        width: 360,
        height: 220,
        x: { name: "expert" },
        y: { min: 0, max, ticks, format: (t) => fmt(t, 2), label: "share" },
        series: [
          { values: route.f, label: "f, traffic", class: "bar" },
          { values: route.p, label: "p, router probability", class: "bar alt" },
        ],
        hlines: [{ y: r.even[0], label: `even: ${fmt(r.even[0], 4)}`, class: "guide" }],
      }),
      legend([
        { label: "f: fraction of traffic", class: "bar" },
        { label: "p: mean router probability", class: "bar alt" },
      ]),
    );

    patch(
      this.experts,
      h(
        "table",
        { class: "data-table moe-experts" },
        h("caption", {}, "Per expert"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", {}),
            ["tokens", "f", "p", "N·f·p"].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        h(
          "tbody",
          {},
          experts.map((e, j) =>
            h(
              "tr",
              { class: route.counts[j] === 0 ? "idle" : null },
              h("th", { scope: "row" }, e),
              h("td", {}, String(route.counts[j])),
              h("td", {}, fmt(route.f[j], 4)),
              h("td", {}, fmt(route.p[j], 4)),
              h("td", {}, fmt(route.terms[j], 4)),
            ),
          ),
        ),
      ),
    );
    this.renderWorked(r, N);
  }

  /** The loss and the traffic split (exercise 8 asks for another router's loss: nothing to hide). */
  summary({ route }) {
    const k = this.state.topK;
    return `Top-${k} routing of ${route.probs.length} tokens over ${route.f.length} experts: load-balancing loss ${fmt(route.loss, 4)}, traffic f = ${fmtVec(route.f, 3)}.`;
  }

  /** f, p and the loss written out with the current numbers. */
  renderWorked(r, N) {
    const { route } = r;
    const T = route.probs.length,
      k = this.state.topK;
    const steps = h(
      "ol",
      {},
      h(
        "li",
        {},
        h("strong", {}, "Traffic. "),
        `Each of the ${T} tokens goes to its top ${k} expert${k > 1 ? "s" : ""}, ${T}·${k} assignments in all; `,
        sym("f", "i"),
        " = count / (",
        `${T}·${k}`,
        "):",
        h(
          "ul",
          {},
          route.counts.map((c, j) => h("li", {}, sym("f", j + 1), ` = ${c} / (${T}·${k}) = ${fmt(route.f[j], 4)}`)),
        ),
      ),
      h(
        "li",
        {},
        h("strong", {}, "Router probability. "),
        sym("p", "i"),
        ` = the mean of column i of the router probabilities over the ${T} tokens:`,
        h(
          "ul",
          {},
          route.p.map((p, j) =>
            h(
              "li",
              {},
              sym("p", j + 1),
              " = (",
              route.probs.map((row) => fmt(row[j], 3)).join(" + "),
              `) / ${T} = ${fmt(p, 4)}`,
            ),
          ),
        ),
      ),
      h(
        "li",
        {},
        h("strong", {}, "Loss. "),
        `${N}·(`,
        route.f.map((f, j) => `${fmt(f, 4)}·${fmt(route.p[j], 4)}`).join(" + "),
        ") = ",
        route.terms.map((t) => fmt(t, 4)).join(" + "),
        " = ",
        h("strong", {}, fmt(route.loss, 4)),
        ".",
      ),
    );
    patch(this.worked, h("p", {}, `${T} tokens, ${N} experts, top-${k} routing:`), steps);
  }
}

/**
 * Exercise 8: the reader predicts the loss of the figure's traffic split under an even router;
 * the answer writes it out and shows why it is 1 whatever the split.
 */
export class LlmAnswerMoe extends FigureAnswer {
  static figure = "llm-moe";
  static followUp = "would a different traffic split change it?";

  prediction(r) {
    const N = r.route.f.length;
    const { loss, terms } = r.withEven;
    return {
      label: ["The loss ", h("var", {}, "N"), "·Σ ", sym("f", "i"), "·", sym("p", "i"), " with even router weights:"],
      value: loss,
      tolerance: 0.01,
      digits: 4,
      hints: [
        // The sum without its factor N.
        { value: loss / N, text: `That is Σ fᵢ·pᵢ without the factor N = ${N} in front.` },
        {
          value: r.route.loss,
          text: "That is the loss with the figure's own router probabilities p; the exercise supposes even weights, pᵢ = 1/N for every expert.",
        },
        {
          value: r.collapse.loss,
          text: "That is the loss of a full collapse, where the router also puts all its probability on the one expert that gets all the traffic; here the router's weights are even.",
        },
        { value: terms[0], text: "That is expert 1's term alone, N·f₁·p₁: the loss sums the terms of every expert." },
      ],
      otherwise:
        "Multiply each expert's share of the traffic fᵢ by its router weight pᵢ = 1/N, add them up, and multiply by N.",
    };
  }

  followUpPrediction(r) {
    const N = r.route.f.length;
    return {
      label: "The loss if every token went to expert 1, the router's weights still even:",
      // Every token to expert 1, the router's weights still even (compute()).
      value: r.oneExpertWithEven.loss,
      tolerance: 0.01,
      digits: 4,
      hints: [
        {
          value: r.collapse.loss,
          text: `That is a full collapse of the router's weights too (p₁ = 1). With pᵢ = 1/${N} for every expert the sum is ${N}·Σ fᵢ/${N} = Σ fᵢ.`,
        },
      ],
      otherwise: `N·Σ fᵢ·pᵢ with pᵢ = 1/N is Σ fᵢ: what do the fractions fᵢ of the tokens add up to?`,
    };
  }

  answer(r) {
    const N = r.route.f.length;
    const e = fmt(r.even[0], 4);
    // Experts without traffic contribute 0 to the sum; leave them out, as one would by hand.
    const sum = (f, p) =>
      f
        .map((x, i) => [x, p[i]])
        .filter(([x]) => x > 0)
        .map(([x, y]) => `${fmt(x, 4)}·${fmt(y, 4)}`)
        .join(" + ");
    return [
      h(
        "p",
        {},
        `With the figure's traffic split f = ${fmtVec(r.route.f, 4)} over N = ${N} experts and even router weights, p = ${e} each: `,
        h(
          "span",
          { class: "answer-loss" },
          `${N}·(${sum(r.route.f, r.even)}) = `,
          h("strong", {}, fmt(r.withEven.loss, 4)),
        ),
        ".",
      ),
      h(
        "p",
        {},
        `Another split gives the same: all traffic on expert 1, f = ${fmtVec(r.oneExpert)}, gives `,
        h(
          "span",
          { class: "answer-second" },
          `${N}·(${sum(r.oneExpert, r.even)}) = `,
          h("strong", {}, fmt(r.oneExpertWithEven.loss, 4)),
        ),
        ". With even router weights the loss is ",
        h("var", {}, "N"),
        "·Σ ",
        sym("f", "i"),
        "·(1/",
        h("var", {}, "N"),
        ") = Σ ",
        sym("f", "i"),
        " = 1 whatever the split, so the penalty cannot see imbalance through f alone. It rises above 1 only when the router's probability p ",
        "piles up on the same experts that receive the traffic: in the figure, p = ",
        fmtVec(r.route.p, 4),
        " gives ",
        fmt(r.route.loss, 4),
        `, and a full collapse, f = p = ${fmtVec(r.oneExpert)}, gives ${N}·(${sum(r.oneExpert, r.oneExpert)}) = `,
        h("strong", { class: "answer-collapse" }, fmt(r.collapse.loss, 4)),
        " = N.",
      ),
    ];
  }
}

export const widgets = { "llm-moe": LlmMoe, "llm-answer-moe": LlmAnswerMoe };
