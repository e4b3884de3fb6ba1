// The decoding floor against the context at the batch (.model-speed), from the core's sweep
// (r.sweep.tokensPerSecond) with the chosen context marked (r.now.decode); hidden, with its
// heading, where the device states no bandwidth (no decode). Exercise 4b holds it back.
import { h, patch } from "../../dom.js";
import { fmtBytes, fmtCount, fmtRate } from "../../format.js";
import { legend, lineChart, logAxis } from "../../kit/plot.js";
import { contextAxis } from "./scales.js";

/** The speed chart: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class SpeedChart {
  constructor() {
    this.box = h("div", { class: "chart-box" });
    this.legend = h("div", { class: "model-speed-legend" });
    this.head = h("p", { class: "model-subhead model-speed-head" }, "The decoding floor against the context");
    this.figure = h("div", { class: "model-figure model-speed" }, this.box, this.legend);
    this.nodes = [this.head, this.figure];
  }

  /** The decoding floor against the context at the batch, from the sweep; a note where no bandwidth is known. */
  render({ s, opts, shape, now, sweep }) {
    const shown = Boolean(now.decode && sweep.tokensPerSecond);
    this.figure.hidden = !shown;
    this.head.hidden = !shown;
    if (!shown) return;
    const points = sweep.tokens.map((t, i) => [t, sweep.tokensPerSecond[i]]);
    const y = logAxis(Math.min(...sweep.tokensPerSecond), Math.max(...sweep.tokensPerSecond));
    patch(
      this.box,
      lineChart({
        title: "Tokens per second at the decoding floor against the context, at the batch (both axes logarithmic)",
        x: contextAxis(shape),
        y: { ...y, label: "tokens/s (log scale)", name: "tokens/s", valueFormat: fmtRate },
        series: [{ points, class: "series model-speed-line", label: "tokens per second" }],
        markers: [{ x: opts.tokens, y: now.decode.tokensPerSecond, class: "marker model-speed-line" }],
        vlines: [{ x: opts.tokens, class: "guide model-now" }],
        describe: `At ${fmtCount(opts.tokens)} tokens and a batch of ${fmtCount(s.batch)} the floor is ${fmtRate(now.decode.tokensPerSecond)} tokens per second; a longer context leaves more cache to read each step.`,
      }),
    );
    patch(
      this.legend,
      legend([{ label: `tokens per second, batch ${fmtCount(s.batch)}`, class: "line model-speed-line" }]),
      h(
        "p",
        { class: "model-speed-now" },
        `Each step reads ${fmtBytes(now.decode.bytesPerStep)} per device; the longer the context, the more of it is cache.`,
      ),
    );
  }
}
