// The readouts of Figure 4.2 (.model-stats), a card each, from the core's modelCost (r.now): the
// cache of the batch (kvBytes) and per token (kvBytesPerToken), the weights (weightsBytes,
// weightsFormat) and parameters (params), one device's share (perDevice), the largest batch and
// longest context that fit (fit), and the decoding floor (decode; Exercise 4b holds its card back).
import { h, patch } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, fmtRate, fmtSeconds } from "../../format.js";

/** The readouts: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class Stats {
  constructor() {
    this.box = h("dl", { class: "model-stats" });
    this.nodes = [this.box];
  }

  /** The readouts: the cache, its growth per token, the weights, the parameters and the fit. */
  render({ s, opts, now }) {
    const stat = (term, value, note, cls) =>
      h(
        "div",
        { class: `model-stat ${cls ?? ""}` },
        h("dt", {}, term),
        h("dd", {}, h("strong", {}, value), note ? h("span", {}, note) : null),
      );
    const per = now.tensorParallel > 1 ? `on each of ${fmtCount(now.tensorParallel)} devices` : "on the device";
    patch(
      this.box,
      stat(
        "Key-value cache",
        fmtBytes(now.kvBytes),
        `${fmtCount(s.batch)} × ${fmtCount(opts.tokens)} tokens`,
        "model-kv",
      ),
      stat("Cache per token", fmtBytes(now.kvBytesPerToken), "one sequence, all layers", "model-kv"),
      stat(
        "Weights",
        fmtBytes(now.weightsBytes),
        `${fmtParams(now.params.total)} parameters, ${now.weightsFormat}`,
        "model-weights",
      ),
      stat(
        "Active per token",
        fmtParams(now.params.active),
        `parameters; embedding ${fmtParams(now.params.embedding)}`,
        "model-weights",
      ),
      stat(
        "Weights per device",
        fmtBytes(now.perDevice.weightsBytes),
        `and a cache of ${fmtBytes(now.perDevice.kvBytes)}, ${per}`,
        "model-device",
      ),
      stat(
        "Largest batch that fits",
        fmtCount(now.fit.maxBatch),
        `at ${fmtCount(opts.tokens)} tokens`,
        "model-fit-batch",
      ),
      stat(
        "Longest context that fits",
        `${fmtCount(now.fit.maxTokens)}`,
        `tokens at batch ${fmtCount(s.batch)}`,
        "model-fit-tokens",
      ),
      now.decode
        ? stat(
            "Decoding floor",
            `${fmtRate(now.decode.tokensPerSecond)} tokens/s`,
            `${fmtSeconds(now.decode.secondsPerStep)} a step for ${fmtCount(s.batch)}, ${now.decode.bound}-bound`,
            "model-speed-stat",
          )
        : null,
    );
  }
}

/** A parameter count in words: 8.03e9 → "8.03 billion". */
function fmtParams(n) {
  if (n >= 1e12) return `${fmt(n / 1e12, 2)} trillion`;
  if (n >= 1e9) return `${fmt(n / 1e9, 2)} billion`;
  if (n >= 1e6) return `${fmt(n / 1e6, 2)} million`;
  return fmtCount(n);
}
