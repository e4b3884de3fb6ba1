// Figure 1.2, <llm-context-dilution> (dilution.js), as the pages, the build and the tests know it
// (see figures.js): its element, its place in the chapter and its facets, its NumPy program among
// them.
import { program, py, pyInt } from "../../numpy.js";

export const contextDilution = {
  tag: "llm-context-dilution",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "dilution.js",
  // Its id on the reader keeps the figure's name before the rename: links to #dilution-figure
  // open at the figure as before.
  id: "dilution-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Context dilution: one relevant key among many distractors",
  section: "attention",
  // Its name until it took its element's: embed.html?widget=dilution and links' dilution.…
  // settings still work.
  aliases: ["dilution"],
  // Download SVG and PNG: the headline, the bar of the weight's shares and the chart.
  picture: [".headline", ".mass-bar", ".chart-box"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the written calculation",
    hides: ["> .worked"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 685, 360: 742 }, compact: { 800: 596, 360: 596 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const { relevantScore: a, distractorScore: b, distractors: n } = r?.cfg ?? s;
  return program(
    `# Context dilution: the weight one relevant key (score a) keeps among n distractors (score b). The
# function is reference/attention.py's, the code the core's contextDilution
# (core/include/llmmath/attention.hpp) is tested against.`,
    ["context_dilution"],
    `a, b, n = ${py(a)}, ${py(b)}, ${pyInt(n)}

r = context_dilution(a, b, n)
for name in ["relevant_weight", "distractor_mass", "distractor_weight"]:
    show(name, r[name])`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: { relevantScore: 3.5, distractorScore: -0.5, distractors: 1000 },
  prints: ({ now }) => ({
    relevant_weight: now.relevantWeight,
    distractor_mass: now.distractorMass,
    distractor_weight: now.distractorWeight,
  }),
  readouts: { selector: ".worked strong", values: (p) => [p.relevant_weight] },
  pictured: ".headline strong",
  engine: {
    // the relevant key's weight, as a percentage to 1 decimal
    shown: (root) => [Number(root.querySelector(".headline strong").textContent.replace("%", "")) / 100],
    core: async (el, engine) => {
      const { relevantScore, distractorScore, distractors } = el.state;
      return [engine.contextDilution({ relevantScore, distractorScore, distractors }).relevantWeight];
    },
    tol: 5e-4,
  },
};
