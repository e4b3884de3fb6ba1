// The verdict a practitioner acts on, in words (.model-verdict), from the core's modelCost (r.now):
// whether the weights fit and on how many devices (fit, perDevice, tensorParallel, replicas), what
// is to spare (fit.spareBytes, fit.maxBatch), what stops the context (fit.limitedBy, fit.maxTokens,
// against shape.maxContext), the engine's pool of pages (budget), the decoding floor (decode, a
// paragraph of its own that Exercise 4b holds back) and what the plan assumes (notes).
import { h, patch } from "../../dom.js";
import { fmtBytes, fmtCount, fmtRate, fmtSeconds } from "../../format.js";

/** The verdict: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class Verdict {
  constructor() {
    this.box = h("div", { class: "model-verdict" });
    this.nodes = [this.box];
  }

  /**
   * The verdict a practitioner acts on, in words, from the core's fit: whether the weights fit a
   * device at all (and how many devices they need), what is to spare, what stops the context, the
   * engine's pool of pages, and the decoding floor.
   */
  render({ s, shape, opts, now, device }) {
    const fit = now.fit;
    const devices = `${fmtCount(s.devices)} × ${device.name}`;
    const lines = [];
    if (fit.limitedBy === "weights") {
      lines.push([
        h("strong", { class: "model-fits-not" }, "The weights alone do not fit: "),
        `${fmtBytes(now.perDevice.weightsBytes)} per device${now.tensorParallel > 1 ? ` split over ${fmtCount(now.tensorParallel)}` : ""}, and each ${device.name} offers ${fmtBytes(fit.usableBytes)}. `,
        fit.devicesNeeded === undefined
          ? "No split over up to 1,024 devices holds them."
          : [
              "They need ",
              h("strong", {}, `${fmtCount(fit.devicesNeeded)} × ${device.name}`),
              ` (split over ${fmtCount(fit.devicesNeeded)}).`,
            ],
      ]);
    } else {
      lines.push(
        fit.fits
          ? [
              h("strong", { class: "model-fits" }, "Fits"),
              ` on ${devices}${splitWords(now)}: ${fmtBytes(fit.spareBytes)} to spare per device at ${fmtCount(opts.tokens)} tokens × ${fmtCount(s.batch)}.`,
            ]
          : [
              h("strong", { class: "model-fits-not" }, "Does not fit"),
              ` on ${devices}${splitWords(now)}: ${fmtCount(s.batch)} sequence${s.batch === 1 ? "" : "s"} of ${fmtCount(opts.tokens)} tokens need ${fmtBytes(-fit.spareBytes)} more per device; at most ${fmtCount(fit.maxBatch)} fit at this context.`,
            ],
      );
      lines.push(
        fit.limitedBy === "context"
          ? `At a batch of ${fmtCount(s.batch)}, each sequence can reach the model's ${fmtCount(shape.maxContext)}-token limit: the model stops it, not the memory.`
          : fit.maxTokens === 0
            ? `At a batch of ${fmtCount(s.batch)}, not even one token each fits beside the weights.`
            : `At a batch of ${fmtCount(s.batch)}, the memory stops each sequence at ${fmtCount(fit.maxTokens)} tokens, short of the model's ${fmtCount(shape.maxContext)}.`,
      );
      lines.push(
        `The engine's pool holds ${fmtCount(now.budget.tokens)} tokens per copy of the model (${fmtCount(now.budget.blocks)} pages of ${fmtCount(s.block)}).`,
      );
    }
    // The decoding floor, a paragraph of its own class: Exercise 4b holds it back.
    const speed = now.decode
      ? h(
          "p",
          { class: "model-verdict-speed" },
          "Decoding floor: ",
          h("strong", {}, `${fmtRate(now.decode.tokensPerSecond)} tokens/s`),
          ` (${fmtSeconds(now.decode.secondsPerStep)} a step, ${now.decode.bound}-bound)`,
          ".",
        )
      : null;
    patch(
      this.box,
      lines.map((l) => h("p", {}, l)),
      speed,
      now.notes.length
        ? h(
            "details",
            { class: "model-notes" },
            h("summary", {}, `What the plan assumes (${now.notes.length})`),
            h(
              "ul",
              {},
              now.notes.map((n) => h("li", {}, n)),
            ),
          )
        : null,
    );
  }
}

/** How the core split the model over the devices, in words: "" on one device. */
function splitWords(now) {
  if (now.tensorParallel === 1 && now.replicas === 1) return "";
  if (now.replicas === 1) return ` (split over ${fmtCount(now.tensorParallel)})`;
  return now.tensorParallel === 1
    ? ` (a copy on each)`
    : ` (split over ${fmtCount(now.tensorParallel)}, ${fmtCount(now.replicas)} copies)`;
}
