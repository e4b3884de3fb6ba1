// What Figure 4.2's parts share, as Observable Plot's marks share their scales: the kinds of layer
// in the core's order (its byKind), with their names in words and how they hold tokens (what was
// read, the cache chart, the calculation), and the axes of its charts against the context.
import { fmtBytes } from "../../format.js";
import { tokensAxis } from "../../kit/plot.js";

/** Each kind of layer: its name in words and what of the context it holds. */
export const KINDS = {
  full: { label: "full", holds: "every token" },
  sliding: { label: "sliding", holds: "the window" },
  chunked: { label: "chunked", holds: "the current chunk" },
  mla: { label: "latent (MLA)", holds: "every token" },
};

// The charts' axes (plot.js): the context in tokens, and bytes at powers of two.
const CONTEXT = { label: "context, tokens (log scale)" };
export const BYTES = /** @type {const} */ ({ base: 2, format: fmtBytes });

/** The context axis of the cache, speed and arithmetic charts: 1 to the model's maximum context. */
export const contextAxis = (shape) => tokensAxis(Math.max(shape.maxContext, 2), CONTEXT);
