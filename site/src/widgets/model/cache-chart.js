// The key-value cache against the context (.model-cache), from the core's sweep over the context
// (r.sweep: tokens, kvBytes, byKind) with, for a latent-attention model, the other way of counting
// its cache as a dashed line (r.compared); the marker at the chosen context is r.now.kvBytes.
import { h, patch } from "../../dom.js";
import { fmtBytes, fmtCount } from "../../format.js";
import { legend, lineChart, logAxis } from "../../kit/plot.js";
import { BYTES, KINDS, contextAxis } from "./scales.js";

// The chart stacks the windowed and latent kinds under the full layers, so that on its logarithmic
// axis a flat window or a small latent cache is a band of its own at the bottom.
const STACK = ["sliding", "chunked", "mla", "full"];

/** The cache chart: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class CacheChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.legend = h("div", { class: "model-legend" });
    this.nodes = [
      h("p", { class: "model-subhead" }, "The key-value cache against the context"),
      h("div", { class: "model-figure model-cache" }, this.box, this.legend),
    ];
  }

  /** The cache against the context: a stacked area per kind of layer, the total, the chosen context. */
  render({ s, shape, now, sweep, compared }) {
    const kinds = STACK.map((kind) => sweep.byKind.find((k) => k.kind === kind)).filter(Boolean);
    const areas = kinds.map((k) => ({
      points: sweep.tokens.map((t, i) => [t, k.bytes[i]]),
      class: `area model-${k.kind}`,
      label: `${KINDS[k.kind].label} layers (${k.layers})`,
    }));
    const total = sweep.tokens.map((t, i) => [t, sweep.kvBytes[i]]);
    const otherLabel =
      compared && `${compared.mlaCache === "expanded" ? "expanded per head" : "latent"}, for comparison`;
    const comparison = compared
      ? [
          {
            points: sweep.tokens.map((t, i) => [t, compared.sweep.kvBytes[i]]),
            class: "series dashed model-compared",
            label: otherLabel,
          },
        ]
      : [];
    const drawn = [...sweep.kvBytes, ...kinds.flatMap((k) => k.bytes), ...(compared?.sweep.kvBytes ?? [])];
    const y = logAxis(Math.min(...drawn.filter((b) => b > 0)), Math.max(...drawn, now.kvBytes), BYTES);
    const x = contextAxis(shape);
    patch(
      this.box,
      lineChart({
        title: "Key-value cache of the batch against the context length, by kind of layer (both axes logarithmic)",
        height: 280,
        margin: { left: 66 },
        x,
        y: { ...y, label: "key-value cache (log scale)", name: "cache", valueFormat: fmtBytes },
        areas,
        series: [{ points: total, class: "series model-total", label: "whole cache" }, ...comparison],
        markers: [{ x: s.tokens, y: now.kvBytes, class: "marker model-now", label: fmtBytes(now.kvBytes) }],
        vlines: [{ x: s.tokens, class: "guide model-now" }],
        describe: `At the marked context of ${fmtCount(s.tokens)} tokens the cache is ${fmtBytes(now.kvBytes)}: ${now.byKind.map((k) => `${KINDS[k.kind].label} layers ${fmtBytes(k.bytes)}`).join(", ")}.`,
      }),
    );
    patch(
      this.legend,
      legend([
        ...[...kinds].reverse().map((k) => ({
          label: `${KINDS[k.kind].label}: ${k.layers} layer${k.layers === 1 ? "" : "s"}, holding ${KINDS[k.kind].holds}`,
          class: `model-${k.kind}`,
        })),
        { label: "whole cache", class: "line model-total" },
        ...(compared ? [{ label: `the cache ${otherLabel}`, class: "dashed model-compared" }] : []),
      ]),
    );
  }
}
