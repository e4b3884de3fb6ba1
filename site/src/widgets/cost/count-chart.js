// The chart of Figure 4.1's counts per layer against the context (.cost-figure), with its legend
// (.cost-legend): attention's scores (∝ n²) and the cached keys and values (∝ n), from the core's
// sweep over the axis's contexts (r.curve: scoresPerLayer, kvValuesPerLayer, up to r.xMax), with
// the reader's context marked (r.cfg.tokens) and its counts from attentionCost (r.now). Exercise 4
// conceals the legend, the description, the data table and the markers (cost-figure.js).
import { h, patch, sym } from "../../dom.js";
import { fmtCount, grouped } from "../../format.js";
import { lineChart, logAxis, tokensAxis } from "../../kit/plot.js";
import { CARD_DIGITS, TOKENS_N, countTick } from "./scales.js";

/** The count chart: a part of the figure (cost.js): the nodes it places, and render(r) from compute()'s result. */
export class CountChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.legend = h("ul", { class: "cost-legend" });
    this.nodes = [h("div", { class: "cost-figure" }, this.box, this.legend)];
  }

  /** Scores and cached values per layer against the context, both axes logarithmic, and their legend. */
  render({ cfg, now, curve, xMax }) {
    const scores = curve.map(([n, c]) => [n, c.scoresPerLayer]);
    const kv = curve.map(([n, c]) => [n, c.kvValuesPerLayer]);
    const all = [...scores, ...kv].map(([, y]) => y);
    const y = logAxis(Math.min(...all), Math.max(...all), { format: countTick });
    patch(
      this.box,
      lineChart({
        title:
          "Attention scores and cached key-value entries per layer against the number of tokens (both axes logarithmic)",
        x: tokensAxis(xMax, TOKENS_N),
        y: { ...y, label: "count per layer (log scale)" },
        series: [
          { points: scores, class: "series cost-scores", label: "scores per layer" },
          { points: kv, class: "series cost-kv", label: "cached values per layer" },
        ],
        describe: `At the marked n = ${fmtCount(cfg.tokens)}: ${fmtCount(now.scoresPerLayer, CARD_DIGITS)} scores and ${fmtCount(now.kvValuesPerLayer, CARD_DIGITS)} cached values per layer.`,
        markers: [
          { x: cfg.tokens, y: now.scoresPerLayer, class: "marker cost-scores" },
          { x: cfg.tokens, y: now.kvValuesPerLayer, class: "marker cost-kv" },
        ],
        vlines: [{ x: cfg.tokens, class: "guide cost-now" }],
      }),
    );
    patch(
      this.legend,
      h(
        "li",
        {},
        h("span", { class: "swatch cost-scores", "aria-hidden": "true" }),
        "Scores, ",
        sym("b"),
        "·",
        sym("h"),
        "·",
        sym("n"),
        "²: ",
        h("strong", {}, fmtCount(now.scoresPerLayer)),
        " at ",
        sym("n"),
        ` = ${grouped(cfg.tokens)}`,
      ),
      h(
        "li",
        {},
        h("span", { class: "swatch cost-kv", "aria-hidden": "true" }),
        "Cached keys and values, 2·",
        sym("b"),
        "·",
        sym("n"),
        "·",
        sym("h", "kv"),
        "·",
        sym("d"),
        ": ",
        h("strong", {}, fmtCount(now.kvValuesPerLayer)),
      ),
    );
  }
}
