// Figure 1.1, <llm-attention> (attention.js), as the pages, the build and the tests know it (see
// figures.js): its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyMatrix, pyStrings } from "../../numpy.js";

export const attention = {
  tag: "llm-attention",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "attention.js",
  id: "attention-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Scaled dot-product attention with a causal mask",
  section: "attention",
  // Download SVG and PNG: the three tables: scores, weights and outputs.
  picture: [".attention-results"],
  // Exercise 1: the weights, the outputs and the written-out calculation state the answer; the
  // scores stay visible, since the reader computes from them.
  conceals: [".attention-results .table-view:nth-child(2)", ".attention-results .table-view:nth-child(3)", ".worked"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the example menu, the steppers, the editors, the scores and outputs, the calculation",
    hides: [
      "> .controls > :not(.check)",
      "> .attention-size",
      "> .hint",
      "> .attention-editors",
      ".attention-results > .table-view:not(:nth-child(2))",
      "> .explain",
      "> .worked",
    ],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1069, 360: 1915 }, compact: { 800: 325, 360: 383 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s) {
  return program(
    `# Scaled dot-product attention (Vaswani et al. 2017, eq. 1) with the figure's Q, K, V. The function
# is reference/attention.py's, the code the core (core/include/llmmath/attention.hpp) is tested against.`,
    ["attention"],
    `tokens = ${pyStrings(s.labels)}
Q = np.array(${pyMatrix(s.q)}, dtype=float)  # (n, d)
K = np.array(${pyMatrix(s.k)}, dtype=float)  # (n, d)
V = np.array(${pyMatrix(s.v)}, dtype=float)  # (n, dv)
causal = ${py(s.causal)}

r = attention(Q, K, V, causal)
for name in ["scale", "scores", "weights", "output"]:
    show(name, r[name])`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  // the control a reader moves first: an entry of query 3 (query 1 sees only key 1 under the causal
  // mask: its weights stay 1, 0, 0)
  control: 'input[aria-label^="Q row 3"]',
  change: { causal: false, query: 3 },
  prints: (r) => ({ scale: r.scale, scores: r.scores, weights: r.weights, output: r.output }),
  readouts: { selector: ".attention-results .table-view:nth-child(2) tbody td", values: (p) => p.weights.flat() },
  pictured: ".attention-results tbody td",
  engine: {
    // the weights after the mask and softmax, shown to 3 decimals
    shown: (root) =>
      [...root.querySelectorAll(".table-view")]
        .find((t) => /weights/i.test(t.textContent))
        .querySelectorAll("tbody td")
        .values()
        .map((td) => Number(td.textContent.replace("−", "-")))
        .toArray(),
    core: async (el, engine) => {
      const { q, k, v, causal } = el.state;
      return engine.attention(q, k, v, { causal }).weights.flat();
    },
    tol: 5e-4,
  },
};
