// The calculation of Figure 4.1 with the reader's numbers (.worked), drawn by the kit's
// workedSteps (worked.js) from the core's arguments (r.cfg) and its attentionCost (r.now) alone:
// the scores per head and per layer, the cached values per layer, the whole cache and what a
// token adds, the multiply-adds of QK and AV and, when the linear layers are counted, theirs and
// the crossover. Exercise 4 conceals it (cost-figure.js).
import { h, patch, sym } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, pct } from "../../format.js";
import { formula, workedSteps } from "../../kit/worked.js";

/** The calculation: a part of the figure (cost.js): the nodes it places, and render(r) from compute()'s result. */
export class Calculation {
  constructor() {
    this.box = h("div", { class: "worked" });
    this.nodes = [h("p", { class: "cost-subhead" }, "The calculation with these numbers"), this.box];
  }

  /** The calculation with the reader's numbers substituted: its steps, drawn by the kit (worked.js). */
  render({ cfg, now }) {
    const {
      tokens: n,
      heads,
      kvHeads,
      headDim: d,
      layers: L,
      batch: b,
      kvBytesPerElement: p,
      hidden,
      intermediate,
      gatedMlp,
    } = cfg;
    const c = (x) => fmtCount(x);
    const layers = `${c(L)} layer${L === 1 ? "" : "s"}`;
    const bytes = (x) => (x >= 1024 ? ` (${c(x)} bytes)` : "");
    const linear = now.linearMacsPerLayer !== undefined;
    const matrices = gatedMlp ? 3 : 2;
    patch(
      this.box,
      workedSteps([
        {
          name: "Scores per head",
          lead: "Every query meets every key: ",
          formula: "n²",
          with: { n: c(n) },
          result: c(now.scoresPerHead),
          tail: ".",
        },
        {
          name: "Scores per layer",
          formula: "b·h·n²",
          values: `${c(b)}·${c(heads)}·${c(now.scoresPerHead)}`,
          result: c(now.scoresPerLayer),
          tail: ".",
        },
        {
          name: "Cached values per layer",
          lead: ["One key and one value of length ", sym("d"), " per token and key-value head: "],
          formula: "2·b·n·h_kv·d",
          with: { b: c(b), n: c(n), h_kv: c(kvHeads), d: c(d) },
          result: c(now.kvValuesPerLayer),
          tail: ".",
        },
        {
          name: "Whole cache",
          lead: [
            `Over ${layers}: ${c(now.kvValuesPerLayer)}·${c(L)} = ${c(now.kvValues)} values; at `,
            sym("p"),
            ` = ${fmt(p)} byte${p === 1 ? "" : "s"} each, `,
          ],
          values: `${c(now.kvValues)}·${fmt(p)}`,
          result: fmtBytes(now.kvBytes),
          tail: [bytes(now.kvBytes), "."],
        },
        {
          name: "Per token",
          lead: "Each new token of each sequence adds ",
          formula: "2·h_kv·d·L·p",
          with: { h_kv: c(kvHeads), d: c(d), L: c(L), p: fmt(p) },
          result: fmtBytes(now.kvBytesPerToken),
          tail: [bytes(now.kvBytesPerToken), "."],
        },
        {
          name: "Multiply-adds",
          lead: ["Scores ", formula("QK^⊤"), ": "],
          formula: "b·h·n²·d",
          values: `${c(b)}·${c(heads)}·${c(now.scoresPerHead)}·${c(d)}`,
          tail: [
            ` = ${c(now.qkMacsPerLayer)} per layer; weights times values, the same ${c(now.avMacsPerLayer)}; together ${c(now.macsPerLayer)} per layer and `,
            h("strong", {}, c(now.macs)),
            ` over ${layers}.`,
          ],
        },
        linear && {
          name: "Linear layers",
          lead: [
            "Every token goes through the query and output projections (",
            formula("d_model × hd"),
            " each), the key and value projections (",
            formula("d_model × h_{kv}d"),
            " each) and the feed-forward block (",
            gatedMlp ? "three" : "two",
            " matrices of ",
            formula("d_model × d_ff"),
            "): ",
          ],
          formula: "b·n·d_model·d·(2h + 2h_kv)",
          values: `${c(b)}·${c(n)}·${c(hidden)}·${c(d)}·(2·${c(heads)} + 2·${c(kvHeads)})`,
          tail: [
            ` = ${c(now.projectionMacsPerLayer)}, plus `,
            formula(`${matrices}·b·n·d_model·d_ff`),
            ` = ${matrices}·${c(b)}·${c(n)}·${c(hidden)}·${c(intermediate)} = ${c(now.ffnMacsPerLayer)}; together `,
            h("strong", {}, c(now.linearMacsPerLayer)),
            " per layer, growing as ",
            sym("n"),
            ".",
          ],
        },
        linear && {
          name: "Crossover",
          lead: [
            "Attention's ",
            formula("2·b·h·n²·d"),
            " grows as ",
            formula("n²"),
            " and equals the linear layers' at ",
            sym("n"),
            " = (linear multiply-adds per token) / (",
            formula("2·h·d"),
            ")",
          ],
          result: c(now.crossoverTokens),
          tail: [
            " tokens, whatever the batch. At ",
            sym("n"),
            ` = ${c(n)} attention does `,
            h("strong", {}, pct(now.attentionShare, 1)),
            ` of the layer's multiply-adds (${c(now.macsPerLayer)} of ${c(now.macsPerLayer)} + ${c(now.linearMacsPerLayer)}).`,
          ],
        },
      ]),
    );
  }
}
