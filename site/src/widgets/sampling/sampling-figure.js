// Figures 2.1 and 2.2, <llm-sampling> (sampling.js), as the pages, the build and the tests know it
// (see figures.js): its element, its place in the chapter and its facets, its NumPy program among
// them.
import { program, py, pyInt, pyList, pyStrings } from "../../numpy.js";

export const sampling = {
  tag: "llm-sampling",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "sampling.js",
  id: "sampling-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Sampling: temperature, top-k and top-p",
  section: "sampling",
  // Download SVG and PNG: the headline, the chart with its legend, and the list of draws.
  picture: [".headline", ".sampling-legend", ".sampling-chart", ".sampling-drawlist"],
  // Exercise 2 (on Figure 2.2): the headline, the chart and the written-out calculation.
  conceals: [".headline", ".sampling-chart", ".sampling-worked"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the example's note, the probability editor with the draws, the calculation",
    hides: ["> .sampling-note", "> .sampling-panels", "> .sampling-worked"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1548, 360: 2641 }, compact: { 800: 628, 360: 863 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const st = r?.state ?? s;
  const probsGiven = st.probs.length > 0;
  const { temperature, topK, topP } = r?.opts ?? st;
  const draw = r ? r.draw : st.draws === "off" ? null : { seed: st.seed, count: st.count };
  return program(
    `# Sampling: temperature, then top-k, then top-p on the renormalised top-k distribution, then
# renormalisation (Holtzman et al. 2020)${draw ? ", and seeded draws" : ""}. The functions are reference/sampling.py's,
# the code the core (core/include/llmmath/sampling.hpp) is tested against.`,
    draw ? ["sampling", "splitmix64", "sample"] : ["sampling"],
    `tokens = ${pyStrings(st.labels)}
${probsGiven ? `p = np.array(${pyList(st.probs)}, dtype=float)  # (n,) probabilities, treated as logits log p` : `z = np.array(${pyList(st.logits)}, dtype=float)  # (n,) logits`}
T, top_k, top_p = ${py(temperature)}, ${pyInt(topK)}, ${py(topP)}

r = sampling(${probsGiven ? "probs=p" : "logits=z"}, temperature=T, top_k=top_k, top_p=top_p)
for name in ["tempered", "order", "top_k_mass", "cumulative", "cutoff", "kept_mass", "probs"]:
    show(name, r[name])
${
  draw
    ? `
# The draws: inverse CDF with the core's uniforms (SplitMix64, seed ${draw.seed}).
prompt, seed, count = ${JSON.stringify(String(st.prompt))}, ${pyInt(draw.seed)}, ${pyInt(draw.count)}
u = splitmix64(seed)
draws = sample(r["probs"], [next(u) for _ in range(count)])
show("draws", draws)
for t in draws:
    print("   ", prompt + tokens[t])`
    : ""
}`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: { temperature: 0.7, topK: 3, topP: 0.95, seed: 7, count: 25 },
  prints: ({ full, draw, draws }) => ({
    tempered: full.tempered,
    order: full.order,
    top_k_mass: full.topKMass,
    cumulative: full.cumulative,
    cutoff: full.cutoff,
    kept_mass: full.keptMass,
    probs: full.probs,
    ...(draw ? { draws } : {}),
  }),
  readouts: { selector: ".sampling-table td.final-col", values: (p) => p.order.map((t) => p.probs[t]) },
  pictured: ".sampling-table td.final-col",
  engine: {
    // the final probabilities, most probable first, to 3 decimals
    shown: (root) =>
      [...root.querySelectorAll(".sampling-table tbody tr:not(.sampling-cut)")].map((tr) =>
        Number(tr.querySelectorAll("td.num")[2].textContent.replace("−", "-")),
      ),
    core: async (el, engine) => {
      const s = el.state;
      const input = s.probs.length ? { probs: s.probs } : { logits: s.logits };
      const r = engine.sampling(input, { temperature: s.temperature, topK: s.topK, topP: s.topP });
      return r.order.map((t) => r.probs[t]);
    },
    tol: 5e-4,
  },
};
