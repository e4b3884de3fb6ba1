// Figure 4.1, <llm-cost> (cost.js), as the pages, the build and the tests know it (see figures.js):
// its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyInt, snakeFields } from "../../numpy.js";

export const cost = {
  tag: "llm-cost",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "cost.js",
  id: "cost-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "The cost of attention as the context grows",
  section: "cost",
  // Download SVG and PNG: the result cards, and the chart with its legend.
  picture: [".cost-stats", ".cost-figure"],
  // Exercise 4 and its follow-up (the cache's values): the cards, the legend of the chart of
  // scores and cache (it states both), that chart's description and data table, and the
  // calculation; the chart of attention against the linear layers states neither.
  conceals: [
    ".cost-stats",
    ".worked",
    ".cost-legend",
    ".cost-figure .chart-description",
    ".cost-figure .chart-data",
    // the dots at the figure's n on the chart of scores and cached values: their place on the
    // logarithmic axis states the layer's scores (the answer times the heads) and its cache (the
    // follow-up's answer)
    ".cost-figure:not(.cost-linear) circle.marker",
  ],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the shape's fields, the arithmetic against the linear layers, the calculation, the real models",
    hides: [
      "> .hint",
      "> .cost-fields",
      "> .cost-gated",
      "> .cost-subhead",
      "> .cost-linear",
      "> .worked",
      "> .cost-models",
    ],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1947, 360: 3305 }, compact: { 800: 666, 360: 1135 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const c = r.cfg; // the core's arguments, by the API's names (cost.js linearInputs)
  const linear = Boolean(c.hidden || c.intermediate);
  return program(
    `# What attention costs: scores, the key-value cache and multiply-adds${linear ? ", beside the linear layers" : ""}. The
# function is reference/cost.py's, the code the core (core/include/llmmath/cost.hpp) is tested against.`,
    ["attention_cost"],
    `tokens, heads, kv_heads, head_dim, layers, batch = ${[c.tokens, c.heads, c.kvHeads, c.headDim, c.layers, c.batch].map(pyInt).join(", ")}
kv_bytes_per_element = ${py(c.kvBytesPerElement)}
${
  linear
    ? `hidden, intermediate, gated_mlp = ${pyInt(c.hidden)}, ${pyInt(c.intermediate)}, ${py(Boolean(c.gatedMlp))}
`
    : ""
}
r = attention_cost(tokens, heads, head_dim, layers, kv_heads, batch, kv_bytes_per_element${linear ? ", hidden, intermediate, gated_mlp" : ""})
for name, x in r.items():
    show(name, x)`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: {
    tokens: 100000,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    layers: 32,
    batch: 3,
    kvBytesPerElement: 0.5,
    hiddenSize: 4096,
    intermediateSize: 14336,
    gatedMlp: true,
  },
  prints: ({ now }) => snakeFields(now),
  readouts: {
    selector: ".cost-stats dd strong",
    values: (p) => [
      p.scores_per_head,
      p.scores_per_layer,
      p.kv_bytes,
      p.kv_bytes_per_token,
      p.macs,
      ...(p.linear_macs_per_layer === undefined
        ? []
        : [p.linear_macs_per_layer, p.attention_share, p.crossover_tokens]),
    ],
  },
  pictured: ".cost-stats dd strong",
  engine: {
    // the scores per head, n², a count
    shown: (root) => [Number(root.querySelector(".cost-stat.scores dd strong").textContent.replace(/,/g, ""))],
    core: async (el, engine) => [engine.attentionCost(el.inputs).scoresPerHead],
    tol: 0,
  },
};
