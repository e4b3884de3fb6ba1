// The real models of Figure 4.1 (.cost-models): a table of each at its trained context, one
// sequence, at the reader's bytes per value (r.models: each preset and the core's attentionCost
// for it; r.cfg.kvBytesPerElement), with their sources. The row of the model loaded is marked
// (the figure's activePreset()) and choosing a model loads it (the figure's loadPreset()): the
// part is made with the figure, whose state it sets. Built again only when the bytes per value or
// the model loaded change (keep).
import { h, keep, patch, sym } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, grouped } from "../../format.js";
import { scrollBox } from "../../kit/controls.js";

/** The real models' table: a part of the figure (cost.js): the nodes it places, and render(r) from compute()'s result. */
export class ModelsTable {
  /**
   * @param {{ activePreset: () => string, loadPreset: (key: string) => void }} figure the element,
   *   which says which model is loaded and loads one
   * @param {string} titleId the table title's id, which labels the table
   */
  constructor(figure, titleId) {
    this.figure = figure;
    this.titleId = titleId;
    this.box = h("div", { class: "cost-models" });
    this.nodes = [this.box];
  }

  /** The table, built again only when the bytes per value or the model loaded change. */
  render(r) {
    const active = this.figure.activePreset();
    patch(
      this.box,
      keep([r.cfg.kvBytesPerElement, active], () => this.table(r, active)),
    );
  }

  /** The title, the table of the models (the one loaded marked) and their sources. */
  table({ cfg, models }, active) {
    const c0 = (x) => `${fmtCount(x)} bytes`;
    const row = ({ key, preset: p, cost }) =>
      h(
        "tr",
        { class: key === active ? "selected" : null },
        h(
          "th",
          { scope: "row" },
          h(
            "button",
            {
              type: "button",
              "aria-pressed": key === active ? "true" : "false",
              onclick: () => this.figure.loadPreset(key),
            },
            p.label,
          ),
        ),
        h("td", {}, String(p.layers)),
        h("td", {}, String(p.heads)),
        h("td", {}, String(p.kvHeads)),
        h("td", {}, String(p.headDim)),
        h("td", { class: "bytes" }, c0(cost.kvBytesPerToken), h("span", {}, fmtBytes(cost.kvBytesPerToken))),
        h("td", { class: "bytes" }, fmtBytes(cost.kvBytes), h("span", {}, `${grouped(p.tokens)} tokens`)),
        h("td", { class: "crossover" }, fmtCount(cost.crossoverTokens)),
      );
    // The title sits outside the scrolling box so that it stays readable on a narrow screen.
    return [
      h(
        "p",
        { class: "cost-table-title", id: this.titleId },
        `Real models, at ${fmt(cfg.kvBytesPerElement)} byte${cfg.kvBytesPerElement === 1 ? "" : "s"} per value`,
        h("span", { class: "llm-screen-only" }, " (choose one to load it)"),
      ),
      scrollBox(
        "Real models",
        "cost-table-scroll",
        h(
          "table",
          { class: "cost-table", "aria-labelledby": this.titleId },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Model"),
              h("th", { scope: "col" }, sym("L")),
              h("th", { scope: "col" }, sym("h")),
              h("th", { scope: "col" }, sym("h", "kv")),
              h("th", { scope: "col" }, sym("d")),
              h("th", { scope: "col" }, "Cache per token"),
              h("th", { scope: "col" }, "Cache at its context"),
              h("th", { scope: "col" }, "Attention = linear layers at n"),
            ),
          ),
          h("tbody", {}, models.map(row)),
        ),
      ),
      h(
        "ul",
        { class: "cost-sources" },
        models.map(({ preset: p }) =>
          h("li", {}, h("strong", {}, p.label), ": ", h("cite", {}, p.source), ".", p.note ? ` ${p.note}` : ""),
        ),
      ),
    ];
  }
}
