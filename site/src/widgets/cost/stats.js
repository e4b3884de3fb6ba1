// The result cards of Figure 4.1 (.cost-stats), from the core's attentionCost (r.now): the
// scores per head and per layer (scoresPerHead, scoresPerLayer), the key-value cache (kvBytes,
// kvValues) and what one token adds to it (kvBytesPerToken), the multiply-adds of QK and AV
// (macs) and, when the linear layers are counted, theirs per layer (linearMacsPerLayer),
// attention's share (attentionShare) and where attention overtakes them (crossoverTokens).
// Exercise 4 conceals the cards (cost-figure.js).
import { h, patch, sym } from "../../dom.js";
import { fmtBytes, fmtCount, pct } from "../../format.js";
import { CARD_DIGITS } from "./scales.js";

/** The result cards: a part of the figure (cost.js): the nodes it places, and render(r) from compute()'s result. */
export class Stats {
  constructor() {
    this.box = h("dl", { class: "cost-stats" });
    this.nodes = [this.box];
  }

  /** A card for each count, with the linear layers' three when they are counted. */
  render({ now }) {
    // A card too narrow for its count wraps it after a group's comma (a <wbr>, which adds no
    // text), not inside a group ("1,946,157,05" over "6").
    const breakable = (value) => value.split(",").flatMap((part, i) => (i ? [",", h("wbr"), part] : [part]));
    const stat = (term, value, note, cls) =>
      h(
        "div",
        { class: `cost-stat ${cls ?? ""}` },
        h("dt", {}, term),
        h("dd", {}, h("strong", {}, ...breakable(value)), note ? h("span", {}, note) : null),
      );
    patch(
      this.box,
      stat(["Scores per head, ", sym("n"), "²"], fmtCount(now.scoresPerHead, CARD_DIGITS), null, "scores"),
      stat(
        "Scores per layer",
        fmtCount(now.scoresPerLayer, CARD_DIGITS),
        "one layer, all heads and sequences",
        "scores",
      ),
      stat("Key-value cache", fmtBytes(now.kvBytes), `${fmtCount(now.kvValues, CARD_DIGITS)} values`, "kv"),
      stat("Cache added per token", fmtBytes(now.kvBytesPerToken), "each sequence, all layers", "kv"),
      stat("QK + AV multiply-adds", fmtCount(now.macs, CARD_DIGITS), "all layers, full square"),
      now.linearMacsPerLayer === undefined
        ? null
        : [
            stat(
              "Linear-layer multiply-adds",
              fmtCount(now.linearMacsPerLayer, CARD_DIGITS),
              "per layer: projections and feed-forward",
              "linear",
            ),
            stat("Attention's share", pct(now.attentionShare, 1), "of one layer's multiply-adds", "scores"),
            stat(
              "Attention overtakes at",
              fmtCount(now.crossoverTokens, CARD_DIGITS),
              "tokens: QK + AV = linear layers",
              "linear",
            ),
          ],
    );
  }
}
