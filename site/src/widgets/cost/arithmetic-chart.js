// The second chart of Figure 4.1 (.cost-linear), with its legend (.cost-linear-legend): the
// multiply-adds per layer of attention's QK and AV (∝ n²) against the linear layers' (∝ n), from
// the core's sweep over the axis's contexts (r.curve: macsPerLayer, linearMacsPerLayer, up to
// r.xMax), with the crossover (r.now.crossoverTokens) and the reader's context (r.cfg.tokens)
// marked and the counts there from attentionCost (r.now: macsPerLayer, linearMacsPerLayer,
// attentionShare). Without the model width and feed-forward size the core counts no linear layers
// (r.now.linearMacsPerLayer undefined) and the chart's place says so.
import { h, patch, sym } from "../../dom.js";
import { fmtCount, grouped, pct } from "../../format.js";
import { lineChart, logAxis, tokensAxis } from "../../kit/plot.js";
import { CARD_DIGITS, TOKENS_N, countTick } from "./scales.js";

/** The arithmetic chart: a part of the figure (cost.js): the nodes it places, and render(r) from compute()'s result. */
export class ArithmeticChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "cost-linear-legend" });
    this.nodes = [
      h("p", { class: "cost-subhead" }, "Arithmetic per layer: attention against the linear layers"),
      h("div", { class: "cost-figure cost-linear" }, this.box, this.legend),
    ];
  }

  /** Attention's multiply-adds per layer (∝ n²) against the linear layers' (∝ n), with the crossover. */
  render({ cfg, now, curve, xMax }) {
    if (now.linearMacsPerLayer === undefined) {
      patch(
        this.box,
        h(
          "p",
          { class: "cost-linear-off" },
          h(
            "span",
            { class: "llm-screen-only" },
            "Give the model width ",
            sym("d", "model"),
            " and the feed-forward size ",
            sym("d", "ff"),
            ", or load a real model, to compare attention's arithmetic with the linear layers' and see where it takes over.",
          ),
          h(
            "span",
            { class: "llm-print-only" },
            "The linear layers are left out: the model width and the feed-forward size are not set.",
          ),
        ),
      );
      patch(this.legend);
      return;
    }
    const att = curve.map(([n, c]) => [n, c.macsPerLayer]);
    const lin = curve.map(([n, c]) => [n, c.linearMacsPerLayer]);
    const all = [...att, ...lin].map(([, y]) => y);
    const y = logAxis(Math.min(...all), Math.max(...all), { format: countTick });
    const crossover = now.crossoverTokens;
    patch(
      this.box,
      lineChart({
        title:
          "Multiply-adds per layer against the number of tokens: attention's QK and AV against the linear layers (both axes logarithmic)",
        x: tokensAxis(xMax, TOKENS_N),
        y: { ...y, label: "multiply-adds per layer (log scale)" },
        series: [
          { points: lin, class: "series cost-linear", label: "linear layers' multiply-adds" },
          { points: att, class: "series cost-scores", label: "attention's multiply-adds" },
        ],
        describe: `At the marked n = ${fmtCount(cfg.tokens)}: attention ${fmtCount(now.macsPerLayer, CARD_DIGITS)} multiply-adds per layer, the linear layers ${fmtCount(now.linearMacsPerLayer, CARD_DIGITS)}; they are equal at n = ${fmtCount(crossover, CARD_DIGITS)}.`,
        markers: [
          { x: cfg.tokens, y: now.macsPerLayer, class: "marker cost-scores" },
          { x: cfg.tokens, y: now.linearMacsPerLayer, class: "marker cost-linear" },
        ],
        vlines: [
          { x: crossover, label: `n = ${fmtCount(crossover, CARD_DIGITS)}`, class: "guide cost-crossover" },
          { x: cfg.tokens, class: "guide cost-now" },
        ],
      }),
    );
    patch(
      this.legend,
      h(
        "li",
        {},
        h("span", { class: "swatch cost-scores", "aria-hidden": "true" }),
        "Attention, QK + AV: 2·",
        sym("b"),
        "·",
        sym("h"),
        "·",
        sym("n"),
        "²·",
        sym("d"),
        ": ",
        h("strong", { class: "cost-attention-macs" }, fmtCount(now.macsPerLayer)),
        " at ",
        sym("n"),
        ` = ${grouped(cfg.tokens)}`,
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-linear", "aria-hidden": "true" }),
        "Linear layers, Q, K, V, O and feed-forward: ",
        h("strong", { class: "cost-linear-macs" }, fmtCount(now.linearMacsPerLayer)),
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-crossover", "aria-hidden": "true" }),
        "Equal at ",
        sym("n"),
        " = ",
        h("strong", { class: "cost-crossover-tokens" }, fmtCount(now.crossoverTokens)),
        " tokens; here attention does ",
        h("strong", { class: "cost-attention-share" }, pct(now.attentionShare, 1)),
        " of the arithmetic",
      ),
    );
  }
}
