// Figure 8.1, <llm-moe> (moe.js), as the pages, the build and the tests know it (see figures.js):
// its element, its place in the chapter and its facets, its NumPy program among them.
import { program, pyInt, pyMatrix, pyStrings } from "../../numpy.js";

export const moe = {
  tag: "llm-moe",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "moe.js",
  id: "moe-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Mixture of experts: routing and load balance",
  section: "moe",
  // Download SVG and PNG: the headline, and the experts' bars with their table.
  picture: [".headline", ".moe-stats"],
  // Exercise 8: the figure shows the loss of its own router, and only the headline's range (the
  // loss when the traffic or the router is even) states the even router's, the answer.
  conceals: [".moe-loss-range"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the steppers, the router logits' editor and the dispatch table, the calculation",
    hides: ["> .moe-size", "> .hint", "> .moe-tables", "> .worked"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1347, 360: 2273 }, compact: { 800: 563, 360: 871 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s) {
  return program(
    `# Mixture of experts: top-k routing and the Switch Transformer load-balancing loss N·Σ f_i·p_i
# (Fedus et al. 2021, eq. 4). The function is reference/moe.py's, the code the core
# (core/include/llmmath/moe.hpp) is tested against.`,
    ["moe_route"],
    `tokens = ${pyStrings(s.labels)}
L = np.array(${pyMatrix(s.logits)}, dtype=float)  # (T, N) router logits
top_k = ${pyInt(s.topK)}

r = moe_route(L, top_k)
for name in ["probs", "assignments", "counts", "f", "p", "terms", "loss"]:
    show(name, r[name])`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="number"]',
  change: { topK: 2 },
  prints: ({ route }) => ({
    probs: route.probs,
    assignments: route.assignments,
    counts: route.counts,
    f: route.f,
    p: route.p,
    terms: route.terms,
    loss: route.loss,
  }),
  readouts: { selector: ".moe-loss", values: (p) => [p.loss] },
  pictured: ".moe-loss",
  engine: {
    // the load-balancing loss, to 4 decimals
    shown: (root) => [Number(root.querySelector(".moe-loss").textContent)],
    core: async (el, engine) => {
      const { logits, topK } = el.state;
      return [engine.moeRoute(logits, topK).loss];
    },
    tol: 5e-5,
  },
};
