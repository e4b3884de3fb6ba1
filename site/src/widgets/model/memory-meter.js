// One device's memory (.model-memory): its weights and cache laid end to end (r.now.perDevice)
// against what the engine may use of it (r.now.fit.usableBytes, from the device's memory, the
// engine's share and its reserve: r.device, r.opts), and in words what fits (fit.maxBatch,
// fit.maxTokens).
import { h, patch } from "../../dom.js";
import { fmt, fmtBytes, fmtCount } from "../../format.js";
import { meterChart } from "../../kit/plot.js";

/** The memory meter: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class MemoryMeter {
  constructor() {
    this.box = h("div", { class: "chart-box model-meter" });
    this.fit = h("p", { class: "model-fit" });
    this.nodes = [
      h("p", { class: "model-subhead" }, "One device's memory: weights and cache against what the engine may use"),
      h("div", { class: "model-figure model-memory" }, this.box, this.fit),
    ];
  }

  /** One device's weights and cache laid end to end against what the engine may use of its memory. */
  render({ s, opts, now, device }) {
    const memoryBytes = device.memoryBytes;
    const parts = [
      { label: "weights", value: now.perDevice.weightsBytes, class: "bar model-weights" },
      { label: "cache", value: now.perDevice.kvBytes, class: "bar model-kv" },
    ];
    patch(
      this.box,
      meterChart({
        title: "One device's weights and key-value cache against the memory the engine may use",
        // The scale reaches the memory or the parts end to end, whichever is further (layout).
        max: Math.max(memoryBytes, now.perDevice.weightsBytes + now.perDevice.kvBytes),
        parts,
        limit: { value: now.fit.usableBytes, label: `usable ${fmtBytes(now.fit.usableBytes)}` },
        format: fmtBytes,
        x: { name: "part" },
        y: { name: "bytes" },
      }),
    );
    const fits = now.fit.fits;
    patch(
      this.fit,
      `Weights ${fmtBytes(now.perDevice.weightsBytes)} and a cache of ${fmtBytes(now.perDevice.kvBytes)} `,
      h("strong", { class: fits ? "model-fits" : "model-fits-not" }, fits ? "fit" : "do not fit"),
      ` in the ${fmtBytes(now.fit.usableBytes)} the engine may use (${fmt(opts.memoryUtilization)} of the ${device.name}'s ${fmtBytes(device.memoryBytes)}, less a reserve of ${fmtBytes(opts.reserveBytes)}). At ${fmtCount(opts.tokens)} tokens, at most `,
      h("strong", {}, fmtCount(now.fit.maxBatch)),
      ` sequence${now.fit.maxBatch === 1 ? "" : "s"} fit; at a batch of ${fmtCount(s.batch)}, at most `,
      h("strong", {}, fmtCount(now.fit.maxTokens)),
      " tokens each.",
    );
  }
}
