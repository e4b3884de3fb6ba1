// The arithmetic of the next token against the context (.model-flops): attention's FLOPs from the
// core's sweep (r.sweep.attentionFlops) beside the linear layers' (r.now.linearFlops), the context
// where they are equal (r.now.crossoverTokens) and the chosen context marked (r.now.attentionFlops).
import { h, patch, sym } from "../../dom.js";
import { fmtCount } from "../../format.js";
import { legend, lineChart, logAxis } from "../../kit/plot.js";
import { contextAxis } from "./scales.js";

/** The arithmetic chart: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class FlopsChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.legend = h("div", { class: "model-flops-legend" });
    this.nodes = [
      h("p", { class: "model-subhead" }, "Arithmetic of the next token: attention against the linear layers"),
      h("div", { class: "model-figure model-flops" }, this.box, this.legend),
    ];
  }

  /** The next token's attention arithmetic against the context, with the linear layers' and the crossover. */
  render({ s, shape, now, sweep }) {
    const att = sweep.tokens.map((t, i) => [t, sweep.attentionFlops[i]]);
    const lin = [
      [sweep.tokens[0], now.linearFlops],
      [sweep.tokens.at(-1), now.linearFlops],
    ];
    const y = logAxis(
      Math.min(...sweep.attentionFlops, now.linearFlops),
      Math.max(...sweep.attentionFlops, now.linearFlops),
    );
    const x = contextAxis(shape);
    const crossover = now.crossoverTokens;
    const crossText =
      crossover === undefined
        ? `never below the maximum context of ${fmtCount(shape.maxContext)} tokens`
        : `at ${fmtCount(crossover)} tokens`;
    patch(
      this.box,
      lineChart({
        title:
          "Arithmetic of the next token against the context: attention against the linear layers (both axes logarithmic)",
        x,
        y: { ...y, label: "FLOPs of one token (log scale)", name: "FLOPs", valueFormat: (v) => fmtCount(v, 10) },
        series: [
          { points: lin, class: "series model-linear", label: "linear layers" },
          { points: att, class: "series model-attention", label: "attention" },
        ],
        markers: [{ x: s.tokens, y: now.attentionFlops, class: "marker model-attention" }],
        vlines: [
          ...(crossover === undefined
            ? []
            : [{ x: crossover, label: `n = ${fmtCount(crossover)}`, class: "guide model-crossover" }]),
          { x: s.tokens, class: "guide model-now" },
        ],
        describe: `At the marked context of ${fmtCount(s.tokens)} tokens the next token's attention takes ${fmtCount(now.attentionFlops, 10)} FLOPs and its linear layers ${fmtCount(now.linearFlops, 10)}; attention catches up ${crossText}.`,
      }),
    );
    patch(
      this.legend,
      legend([
        { label: "attention, QKᵀ and AV of the next token", class: "line model-attention" },
        { label: "linear layers, one token through every weight matrix it uses", class: "line model-linear" },
      ]),
      h(
        "p",
        { class: "model-flops-now" },
        "At ",
        sym("n"),
        ` = ${fmtCount(s.tokens)}: attention `,
        h("strong", { class: "model-attention-flops" }, fmtCount(now.attentionFlops, 10)),
        " FLOPs, linear layers ",
        h("strong", { class: "model-linear-flops" }, fmtCount(now.linearFlops, 10)),
        ". They are equal ",
        h("strong", { class: "model-crossover" }, crossText),
        ".",
      ),
    );
  }
}
