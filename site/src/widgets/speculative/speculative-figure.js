// Figure 5.1, <llm-speculative> (speculative.js), as the pages, the build and the tests know it
// (see figures.js): its element, its place in the chapter and its facets, its NumPy program among
// them.
import { program, py, pyInt, pyList, snakeFields } from "../../numpy.js";

export const speculative = {
  tag: "llm-speculative",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "speculative.js",
  id: "speculative-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Speculative decoding: tokens per target call and speed-up",
  section: "speculative",
  // Download SVG and PNG: the headline, and the chart with its legend beside the bars of tokens
  // per call.
  picture: [".headline", ".speculative-figure"],
  // Exercise 5 and its follow-up (the ceiling): the headline, the charts (the ceiling's guide, the
  // legend, the description and the data table of the chart of tokens against γ), the calculation, and in the
  // measuring panel the tokens per call (predicted from each estimate, and the log's mean, which
  // approaches the answer).
  conceals: [
    ".headline",
    ".speculative-dist",
    ".worked",
    ".speculative-legend",
    ".speculative-figure .chart-box .guide-label",
    ".speculative-figure .chart-box .chart-data",
    ".speculative-figure .chart-box .chart-description",
    ".speculative-measure-body .speculative-predicted",
    ".speculative-measure-body .speculative-mean",
    // the log's mean again, in the estimate solved from it
    '.speculative-measure-body [data-estimate="mean"] .speculative-from',
    // marks whose place on the axes states the answer: the curve of tokens per call and its
    // point at the figure's γ, and the ceiling's line (the follow-up's answer)
    ".speculative-figure .chart-box .speculative-tokens",
    ".speculative-figure .chart-box .speculative-ceiling",
  ],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the calculation and the measurement from a log",
    hides: ["> .speculative-subhead", "> .worked", "> .speculative-measure"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 1558, 360: 2824 }, compact: { 800: 710, 360: 1158 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const { alpha, gamma, costRatio } = r?.cfg ?? s;
  const rounds = r ? r.measure?.rounds : s.rounds;
  const seed = r ? r.measure?.seed : s.seed;
  const measured = gamma > 0;
  // the chart's draft lengths, among which the figure found the best (a program is asked for
  // only once the figure is drawn)
  const gammas = r ? r.curve.map((p) => p.gamma) : [];
  return program(
    `# Speculative decoding (Leviathan et al. 2023): eq. 1, its ceiling and the walltime improvement${measured ? ",\n# then the simulated log the figure measures α back from" : ""}. The functions are reference/speculative.py's,
# the code the core (core/include/llmmath/speculative.hpp) is tested against.`,
    measured
      ? ["speculative_decoding", "speculative_sweep", "speculative_measure"]
      : ["speculative_decoding", "speculative_sweep"],
    `alpha, gamma, c = ${py(alpha)}, ${pyInt(gamma)}, ${py(costRatio)}
gammas = ${pyList(gammas)}  # the chart's draft lengths

r = speculative_decoding(alpha, gamma, c)
for name in ["token_probs", "expected_tokens", "ceiling", "round_cost", "speedup"]:
    show(name, r[name])
sweep = speculative_sweep(alpha, gammas, c)
for name in ["best_gamma", "best_speedup"]:
    show(name, sweep[name])
${
  measured
    ? `
# The simulated log: ${rounds} target calls, each checked draft accepted while the next uniform of
# the core's SplitMix64 (seed ${seed}) is below α; a call stops at its first rejection.
rounds, seed = ${pyInt(rounds)}, ${pyInt(seed)}
log = speculative_measure(alpha, gamma, rounds, seed)
for name, x in log.items():
    show("log_" + name, x)`
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
  change: { alpha: 0.83, gamma: 7, costRatio: 0.05, rounds: 2000, seed: 99 },
  prints: ({ now, best, measure }) => ({
    token_probs: now.tokenProbs,
    expected_tokens: now.expectedTokens,
    ceiling: now.ceiling,
    round_cost: now.roundCost,
    speedup: now.speedup,
    best_gamma: best.gamma,
    best_speedup: best.speedup,
    ...(measure ? snakeFields(measure.log, "log_") : {}),
  }),
  readouts: {
    selector: ".speculative-headline-expected, .speculative-headline-speedup",
    values: (p) => [p.expected_tokens, p.speedup],
  },
  pictured: ".speculative-headline-expected, .speculative-headline-speedup",
  engine: {
    // the expected tokens per call of the target model, to 4 decimals
    shown: (root) => [Number(root.querySelector(".speculative-headline-expected").textContent)],
    core: async (el, engine) => {
      const { alpha, gamma, costRatio } = el.state;
      return [engine.speculativeDecoding({ alpha, gamma, costRatio }).expectedTokens];
    },
    tol: 5e-5,
  },
};
