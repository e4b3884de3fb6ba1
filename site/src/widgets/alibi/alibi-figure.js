// Figure 6.1, <llm-alibi> (alibi.js), as the pages, the build and the tests know it (see
// figures.js): its element, its place in the chapter and its facets, its NumPy program among them.
import { program, pyInt } from "../../numpy.js";

export const alibi = {
  tag: "llm-alibi",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "alibi.js",
  id: "alibi-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "ALiBi: attention biased by distance",
  section: "alibi",
  // Download SVG and PNG: the heads' slopes, the headline, the evidence's line, and the bias map
  // with the chart of weight factors.
  picture: [".alibi-bars", ".headline", ".alibi-evidence", ".alibi-panels"],
  // Exercise 6: the headline, the calculation, and the chart's half-distance guide and its
  // description, which name the distance.
  conceals: [
    ".headline",
    ".worked",
    ".chart-box .guide-label",
    ".chart-box .chart-description",
    // the half-distance's dashed line: its place on the distance axis states it
    ".chart-box line.guide:not(.faint)",
  ],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the bias map with its sliders, the evidence, the weight curve, the calculation",
    hides: ["> .alibi-map-controls", "> .alibi-evidence", "> .alibi-panels", "> .worked"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1465, 360: 1861 }, compact: { 800: 482, 360: 555 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const { heads, head, tokens, distance } = r?.inputs ?? s;
  return program(
    `# ALiBi (Press et al. 2022): head k adds -m_k·(i - j) to query i's score for key j. The functions
# are reference/alibi.py's, the code the core (core/include/llmmath/alibi.hpp) is tested against.`,
    ["alibi_heads", "alibi", "alibi_decay"],
    `heads, head, tokens, distance = ${[heads, head, tokens, distance].map(pyInt).join(", ")}

h = alibi_heads(heads)
for name in ["slopes", "half_distances"]:
    show(name, h[name])
m = h["slopes"][head - 1]  # the figure's head
show("slope", m)
show("half_distance", h["half_distances"][head - 1])
show("bias", alibi(m, tokens)["bias"])
show("weight_factor", alibi_decay(m, distance + 1)[distance])  # at the evidence's distance δ
show("half_distance_halved", alibi(m / 2)["half_distance"])`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  // the head (one more head, 9, keeps the first 8 slopes of 8 heads: nothing checked here moves)
  control: '.llm-bar .slider:nth-child(2) input[type="range"]',
  change: { heads: 12, head: 10, tokens: 5, distance: 200 },
  prints: (r) => ({
    slopes: r.slopes,
    half_distances: r.halfDistances,
    slope: r.slope,
    half_distance: r.halfDistance,
    bias: r.map.bias.map((row) => row.map((x) => (x === null ? -Infinity : x))),
    weight_factor: r.curve[r.inputs.distance],
    half_distance_halved: r.halved.halfDistance,
  }),
  readouts: { selector: ".alibi-slope, .alibi-half", values: (p) => [p.slope, p.half_distance] },
  pictured: ".alibi-slope, .alibi-half",
  engine: {
    // the chosen head's slope, to 6 decimals, and its half-distance, to 3
    shown: (root) =>
      [".alibi-slope", ".alibi-half"].map((s) => Number(root.querySelector(s).textContent.replace("−", "-"))),
    core: async (el, engine) => {
      const { heads, head, tokens } = el.state;
      const slope = engine.alibiSlopes(heads)[head - 1];
      return [slope, engine.alibi({ slope, tokens }).halfDistance];
    },
    tol: [5e-7, 5e-4],
  },
};
