// Figure 7.1's calculation with the reader's numbers (.worked), under the list of the channel it
// is written out for (.explain, the channel attribute: one of r.xAbsMax's channels, the one with
// the largest activation range, r.largestChannel, marked and taken for 0): that channel's ranges
// (r.xAbsMax, r.wAbsMax), its smoothing factor and new ranges (r.now: scales, xAbsMax, wAbsMax),
// the scales of both tensors (r.quantX, r.quantW, r.now.quantXSmoothed and quantWSmoothed), and
// one value of the smallest channel (r.smallestChannel) quantised as it is and smoothed, as steps
// the kit draws (workedSteps, kit/worked.js). Exercise 7 conceals the calculation
// (quantization-figure.js).
import { h, keep, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { workedSteps } from "../../kit/worked.js";

// The largest of numbers the core returned (a selection for display, not a new quantity).
const absMax = (xs) => Math.max(...xs.map(Math.abs));

/** base^exponent as text, read out as "base to the power exponent". */
export function power(base, exponent) {
  return h("span", {}, base, h("sup", {}, h("span", { class: "visually-hidden" }, " to the power "), exponent));
}

/**
 * The channel list and the calculation: a part of the figure (quantization.js) that holds a
 * control, so it is made with the figure whose state it sets; sync(state) sets the list, render(r)
 * follows the result and writes the calculation.
 */
export class Calculation {
  /**
   * @param {import("./quantization.js").LlmQuantization} figure
   * @param {string} id the figure's unique id, which the channel list's id extends
   */
  constructor(figure, id) {
    this.figure = figure;
    // Options are channel indices (0-based); the state's channel is 1-based.
    this.channelSelect = h("select", {
      id: `${id}-channel`,
      onchange: () => figure.set({ channel: Number(this.channelSelect.value) + 1 }),
    });
    this.worked = h("div", { class: "worked" });
    this.nodes = [
      h(
        "div",
        { class: "controls explain" },
        h("label", { for: `${id}-channel` }, "Explain the calculation for channel "),
        this.channelSelect,
      ),
      this.worked,
    ];
  }

  /** Sets the channel list from the state (and the core's last result, which marks the largest). */
  sync() {
    this.syncChannel(this.figure.result?.largestChannel);
  }

  /** The channel list, the largest-range channel marked (from the core's last result). */
  syncChannel(largest) {
    const c = this.figure.state.x[0].length;
    // Built again only when the channels or the largest one changed: most inputs change neither.
    patch(
      this.channelSelect,
      keep([c, largest], () =>
        Array.from({ length: c }, (_, j) =>
          h("option", { value: j }, `${j + 1}${j === largest ? " (largest activation range)" : ""}`),
        ),
      ),
    );
    this.channelSelect.value = String(this.channelIndex(largest));
  }

  /** The 0-based channel explained: the state's, or the largest-range channel when it is 0. */
  channelIndex(largest) {
    const s = this.figure.state;
    return s.channel ? s.channel - 1 : (largest ?? 0);
  }

  /** The channel list, and the calculation for the chosen channel and for one value of the smallest channel. */
  render(r) {
    this.syncChannel(r.largestChannel);
    const x0 = this.figure.state.x[0];
    const j = this.channelIndex(r.largestChannel),
      J = j + 1,
      a = fmt(r.alpha, 2);
    const n = r.now;
    const x = fmt(r.xAbsMax[j]),
      wv = fmt(r.wAbsMax[j]),
      s = fmt(n.scales[j], 4);
    const c = r.xAbsMax.length,
      o = r.check.y[0].length;
    const k = r.smallestChannel,
      K = k + 1;
    const idx = k; // token 1's entry of channel k: X is flattened row by row
    // The calculation's steps, drawn by the kit (worked.js).
    const steps = workedSteps([
      {
        name: "Ranges",
        lead: [
          "max|",
          sym("X", J),
          `| = ${x}, the largest magnitude in column ${J} of X; max|`,
          sym("W", J),
          `| = ${wv}, the largest in row ${J} of W.`,
        ],
      },
      {
        name: "Smoothing factor",
        formula: `s_${J}`,
        values: [power(x, a), " / ", power(wv, `1 − ${a}`)],
        result: s,
        tail: ".",
      },
      {
        name: "New ranges",
        lead: `Activations ${x} / ${s}`,
        result: fmt(n.xAbsMax[j], 4),
        tail: [
          `; weights ${wv} · ${s} = `,
          h("strong", {}, fmt(n.wAbsMax[j], 4)),
          `. The product is unchanged: channel ${J} of X is divided by what row ${J} of W is multiplied by.`,
        ],
      },
      {
        name: "Scales",
        lead: [
          `With ${r.bits} bits, qmax = ${r.quantX.qmax}, and the scale Δ = max|·| / qmax over the whole tensor:`,
          h(
            "ul",
            {},
            h(
              "li",
              {},
              `activations: ${fmt(absMax(r.xAbsMax))} / ${r.quantX.qmax} = ${fmt(r.quantX.scale, 5)} as they are, ${fmt(absMax(n.xAbsMax), 4)} / ${r.quantX.qmax} = ${fmt(n.quantXSmoothed.scale, 5)} after smoothing;`,
            ),
            h(
              "li",
              {},
              `weights: ${fmt(absMax(r.wAbsMax))} / ${r.quantX.qmax} = ${fmt(r.quantW.scale, 5)} as they are, ${fmt(absMax(n.wAbsMax), 4)} / ${r.quantX.qmax} = ${fmt(n.quantWSmoothed.scale, 5)} after smoothing.`,
            ),
          ),
        ],
      },
      {
        name: "One value",
        lead: [
          `Token 1 in channel ${K} (the smallest range), x = ${fmt(x0[k])}. `,
          `As it is: round(${fmt(x0[k])} / ${fmt(r.quantX.scale, 5)}) = level ${fmt(r.quantX.levels[idx])}, back to ${fmt(r.quantX.dequantized[idx], 5)}, error ${fmt(r.quantX.errors[idx], 5)}. `,
          "Smoothed: x / ",
          sym("s", K),
          ` = ${fmt(n.xSmoothed[0][k], 5)}, round(${fmt(n.xSmoothed[0][k], 5)} / ${fmt(n.quantXSmoothed.scale, 5)}) = level ${fmt(n.quantXSmoothed.levels[idx])}, back to ${fmt(n.quantXSmoothed.dequantized[idx], 5)}, error ${fmt(n.quantXSmoothed.errors[idx], 5)}. `,
          "Every error is at most half the scale Δ.",
        ],
      },
    ]);
    patch(
      this.worked,
      h(
        "p",
        {},
        `Channel ${J}, α = ${a}, ${r.bits} bits (${c} channel${c === 1 ? "" : "s"}, ${o} output${o === 1 ? "" : "s"}):`,
      ),
      steps,
    );
  }
}
