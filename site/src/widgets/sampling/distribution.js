// Figure 2.1's distribution: its legend (.sampling-legend) and its table (.sampling-chart), one
// row per token, most probable first, with bars for the probability after temperature and the
// final one, the token's stretch of cumulative mass, the top-p line, and rows where top-k and
// top-p cut; from r.full (order, tempered, topKProbs, cumulative, cutoff, probs), r.opts
// (temperature, topK, topP) and r.state.labels.
import { h, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { tokenLabel } from "./labels.js";

// Screen mapping of a probability in [0, 1] to a CSS length along a bar track.
const cssPct = (x) => `${(Math.min(Math.max(x, 0), 1) * 100).toFixed(3)}%`;

/** The distribution: a part of the figure (sampling.js): the nodes it places, and render(r) from compute()'s result. */
export class Distribution {
  constructor() {
    this.chart = h("div", { class: "sampling-chart" });
    this.nodes = [legend(), this.chart];
  }

  /** One row per token, most probable first: bars for the tempered and final probabilities,
   * the token's stretch of cumulative mass, the top-p line, and the cuts. */
  render(r) {
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
}

/** What the bars, the dots and the line of the table stand for. */
function legend() {
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

function cutRow(text) {
  return h("tr", { class: "sampling-cut" }, h("td", { colspan: 5 }, h("span", {}, text)));
}
