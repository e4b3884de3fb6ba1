// Figure 3.1, <llm-rope> (rope.js), as the pages, the build and the tests know it (see figures.js):
// its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyInt, pyList } from "../../numpy.js";

export const rope = {
  tag: "llm-rope",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "rope.js",
  id: "rope-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Rotary position embeddings (RoPE)",
  section: "rope",
  // Download SVG and PNG: the headline, the dials of the pairs with their legend, and the chart.
  picture: [".headline", ".rope-legend", ".rope-dials", ".chart-box"],
  // Exercise 3: the scores (headline, the readout after moving both positions, the chart's marked
  // offset, its description and its data table, which lists the score at every offset, the
  // figure's among them), the calculation, and the dials' captions, which give each pair's part
  // of the score.
  conceals: [
    ".headline",
    ".worked",
    ".rope-moved",
    ".rope-dial figcaption",
    ".chart-box .marker-label",
    ".chart-box .chart-description",
    ".chart-box .chart-data",
  ],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves:
      "the dimension and base, the frequencies and pairing, the vectors' editors, the moves, the offsets menu, the calculation",
    hides: [
      "> .rope-shape",
      "> .rope-frequency",
      "> .rope-freqs",
      "> .rope-vectors",
      "> .rope-move",
      "> .rope-moved",
      "> .rope-offsets",
      "> .explain",
      "> .worked",
    ],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1648, 360: 2443 }, compact: { 800: 853, 360: 991 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const st = r?.state ?? s;
  return program(
    `# Rotary position embedding (Su et al. 2021, RoFormer): pair i of q and k turns by pos·θ_i. The
# functions are reference/rope.py's, the code the core (core/include/llmmath/rope.hpp) is tested against.`,
    ["rope"],
    `q = np.array(${pyList(st.q)}, dtype=float)  # (d,)
k = np.array(${pyList(st.k)}, dtype=float)  # (d,)
m, n = ${pyInt(st.m)}, ${pyInt(st.n)}  # positions of the query and the key
pairing = ${JSON.stringify(st.pairing)}
${
  st.useFreqs
    ? `base, freqs = None, np.array(${pyList(st.freqs)}, dtype=float)  # (d/2,) θ_i given, radians per position`
    : `base, freqs = ${py(st.base)}, None  # θ_i = base^(-2i/d)`
}

r = rope(q, k, m, n, pairing, base, freqs)
for name in ["thetas", "angles", "q_rotated", "k_rotated", "pair_scores", "raw", "scaled"]:
    show(name, r[name])
# only the offset counts (eq. 16): the query at m - n and the key at 0 give the same score
show("raw_at_offset", rope(q, k, r["offset"], 0, pairing, base, freqs)["raw"])`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: { m: 300, n: 17, useFreqs: false, base: 500000, pairing: "half" },
  prints: ({ now, shifted }) => ({
    thetas: now.thetas,
    angles: now.angles,
    q_rotated: now.qRotated,
    k_rotated: now.kRotated,
    pair_scores: now.pairScores,
    raw: now.raw,
    scaled: now.scaled,
    raw_at_offset: shifted.raw,
  }),
  readouts: { selector: ".headline .rope-scaled", values: (p) => [p.scaled] },
  pictured: ".headline .rope-scaled",
  engine: {
    // the scaled score, to 10 decimals
    shown: (root) => [Number(root.querySelector(".headline .rope-scaled").textContent.replace("−", "-"))],
    core: async (el, engine) => {
      const s = el.state;
      const opts = s.useFreqs ? { pairing: s.pairing, freqs: s.freqs } : { pairing: s.pairing, base: s.base };
      return [engine.rope(s.q, s.k, s.m, s.n, opts).scaled];
    },
    tol: 5e-11,
  },
};
