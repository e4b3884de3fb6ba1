// What Figure 4.2 read from the configuration and what it assumed (.model-read), from the core's
// reading of the file (r.shape: layers, sizes, heads, window, chunk, latent attention, experts,
// embeddings, weights, assumed) and its count of each kind of layer (r.now.byKind), under the
// name of where the configuration came from (r.source.name). Drawn again only when one of those
// changes (keep).
import { h, keep, patch } from "../../dom.js";
import { fmtBytes, fmtCount } from "../../format.js";
import { KINDS } from "./scales.js";

/** What was read: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class Reading {
  /** @param {string} id its box's id */
  constructor(id) {
    this.box = h("div", { class: "model-read", id });
    this.nodes = [this.box];
  }

  /** Draws what was read, built again only when the source or its kinds of layer change. */
  render(r) {
    patch(
      this.box,
      keep([r.source.key, r.now.byKind.map((k) => [k.kind, k.layers, k.tokensHeld])], () => this.describe(r)),
    );
  }

  /** What was read from the file and what was assumed. */
  describe({ source, shape, now }) {
    const f = (term, value) => h("div", {}, h("dt", {}, term), h("dd", {}, value));
    const c = (x) => fmtCount(x);
    return [
      h(
        "p",
        { class: "model-read-title" },
        // text from a file or a link, isolated: a right-to-left override in it cannot reorder the line
        h("strong", {}, h("bdi", {}, source.name)),
        shape.modelType ? [" (model_type ", h("bdi", { class: "model-type" }, shape.modelType), ")"] : "",
      ),
      h("p", { class: "model-kinds" }, layersByKind(shape, now)),
      h(
        "dl",
        { class: "model-shape" },
        f("Layers", c(shape.layers)),
        f("Hidden size", c(shape.hidden)),
        f("Query heads", c(shape.heads)),
        f("Key-value heads", c(shape.kvHeads)),
        f(
          "Head dimension",
          shape.vHeadDim === shape.headDim ? c(shape.headDim) : `${c(shape.headDim)} (values ${c(shape.vHeadDim)})`,
        ),
        f("MLP width", c(shape.intermediate)),
        f("Vocabulary", c(shape.vocab)),
        f("Maximum context", `${c(shape.maxContext)} tokens`),
        shape.window === null ? null : f("Sliding window", `${c(shape.window)} tokens`),
        shape.chunk === null ? null : f("Attention chunk", `${c(shape.chunk)} tokens`),
        shape.mla === null
          ? null
          : f(
              "Latent attention",
              `rank ${c(shape.mla.kvLoraRank)}, rotary key ${c(shape.mla.qkRopeHeadDim)}, query rank ${shape.mla.qLoraRank === null ? "none" : c(shape.mla.qLoraRank)}`,
            ),
        shape.moe === null
          ? null
          : f(
              "Experts",
              `${c(shape.moe.experts)} routed${shape.moe.sharedExperts ? ` + ${c(shape.moe.sharedExperts)} shared` : ""}, ${c(shape.moe.expertsPerToken)} per token, width ${c(shape.moe.expertWidth)}; ${c(shape.moe.moeLayers)} layers with experts${shape.moe.denseLayers ? `, ${c(shape.moe.denseLayers)} dense` : ""}`,
            ),
        f(
          "Embeddings",
          shape.tiedEmbeddings ? "tied (input and output share one matrix)" : "separate input and output",
        ),
        f("Weights stored", `${shape.weights.format}, ${fmtBytes(shape.weights.bytes)}`),
      ),
      h("p", { class: "model-weights-note" }, shape.weights.note),
      shape.assumed.length
        ? [
            h("p", { class: "model-assumed-title" }, "Assumed (not in the file):"),
            h(
              "ul",
              { class: "model-assumed" },
              shape.assumed.map((a) => h("li", {}, a)),
            ),
          ]
        : h("p", { class: "model-assumed-title" }, "Nothing assumed: every value came from the file."),
    ];
  }
}

/** "24 layers: 12 sliding (128 tokens), 12 full", from the core's count of each kind. */
function layersByKind(shape, now) {
  const held = (k) =>
    k.kind === "sliding"
      ? ` (${fmtCount(shape.window)} tokens)`
      : k.kind === "chunked"
        ? ` (${fmtCount(shape.chunk)} tokens)`
        : "";
  return `${fmtCount(shape.layers)} layers: ${now.byKind.map((k) => `${fmtCount(k.layers)} ${KINDS[k.kind].label}${held(k)}`).join(", ")}`;
}
