// Figure 7.1, <llm-quantization> (quantization.js), as the pages, the build and the tests know it
// (see figures.js): its element, its place in the chapter and its facets, its NumPy program among
// them.
import { program, py, pyInt, pyMatrix } from "../../numpy.js";

export const quantization = {
  tag: "llm-quantization",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "quantization.js",
  id: "quantization-figure",
  // its title outside the chapter (a frame's title, the embed code): what it shows, in words
  title: "Quantising a layer's activations with SmoothQuant",
  section: "quantization",
  // Download SVG and PNG: the headline, the ranges and the chart.
  picture: [".headline", ".quantization-ranges", ".chart-box"],
  // Exercise 7 and its follow-up (the ranges after smoothing): the channel table (ranges and s),
  // the bars after smoothing, the calculation, and the scale Δ of the smoothed activations over
  // their levels, the largest range after smoothing over qmax (2/127: times 127, the follow-up's
  // answer).
  conceals: [
    ".quantization-table",
    ".worked",
    ".quantization-ranges .quantization-pair .chart-box:nth-child(2)",
    ".quantization-scale-smoothed",
  ],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the editors of X and W, the table per channel, the integer levels, the check of XW, the calculation",
    hides: [
      "> .hint",
      "> .quantization-editors",
      "> .quantization-table",
      "> .quantization-levels",
      "> .figure-sub",
      "> .quantization-check",
      "> .explain",
      "> .worked",
    ],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 2596, 360: 4314 }, compact: { 800: 965, 360: 1246 } },
  // Copy as NumPy (takeaway.js): a Python program that recomputes the figure's numbers from its
  // current inputs, for the widget's state and result (site/src/numpy.js says what every program
  // does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const bits = r?.bits ?? s.bits,
    alpha = r?.alpha ?? s.alpha;
  return program(
    `# SmoothQuant (Xiao et al. 2023) on one linear layer Y = X W, with symmetric per-tensor integer
# quantisation. The functions are reference/quantization.py's, the code the core
# (core/include/llmmath/quantization.hpp) is tested against.`,
    ["smooth_quant_layer"],
    `X = np.array(${pyMatrix(s.x)}, dtype=float)  # (tokens, channels) activations
W = np.array(${pyMatrix(s.w)}, dtype=float)  # (channels, outputs) weights
bits, alpha = ${pyInt(bits)}, ${py(alpha)}

r = smooth_quant_layer(X, W, alpha, bits)
for name in ["x_abs_max", "w_abs_max", "scales", "x_abs_max_smoothed", "w_abs_max_smoothed", "x_levels",
             "x_levels_smoothed", "error_quantized", "error_quantized_smoothed", "error_smoothing_alone"]:
    show(name, r[name])
for tensor in ["quant_x", "quant_w", "quant_x_smoothed", "quant_w_smoothed"]:
    for name in ["scale", "max_abs_error"]:
        show(tensor + "_" + name, r[tensor][name])
for tensor in ["quant_x", "quant_x_smoothed"]:
    show(tensor + "_levels", r[tensor]["levels"])  # (tokens, channels)`,
  );
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: { bits: 4, alpha: 0.8, channel: 3 },
  prints: (r) => {
    const c = r.xAbsMax.length;
    const rows = (flat) => Array.from({ length: flat.length / c }, (_, i) => flat.slice(i * c, (i + 1) * c));
    const tensors = {
      quant_x: r.quantX,
      quant_w: r.quantW,
      quant_x_smoothed: r.now.quantXSmoothed,
      quant_w_smoothed: r.now.quantWSmoothed,
    };
    return {
      x_abs_max: r.xAbsMax,
      w_abs_max: r.wAbsMax,
      scales: r.now.scales,
      x_abs_max_smoothed: r.now.xAbsMax,
      w_abs_max_smoothed: r.now.wAbsMax,
      x_levels: r.xLevels,
      x_levels_smoothed: r.xLevelsSmoothed,
      error_quantized: r.check.errorQuantized,
      error_quantized_smoothed: r.check.errorQuantizedSmoothed,
      error_smoothing_alone: r.check.errorSmoothingAlone,
      ...Object.fromEntries(
        Object.entries(tensors).flatMap(([name, q]) => [
          [`${name}_scale`, q.scale],
          [`${name}_max_abs_error`, q.maxAbsError],
        ]),
      ),
      quant_x_levels: rows(r.quantX.levels),
      quant_x_smoothed_levels: rows(r.now.quantXSmoothed.levels),
    };
  },
  readouts: {
    selector: ".error-quantized, .error-quantized-smoothed",
    values: (p) => [p.error_quantized, p.error_quantized_smoothed],
  },
  pictured: ".headline strong",
  engine: {
    // the integer levels of X at the figure's bits
    shown: (root) =>
      [...root.querySelector(".quantization-level-table").querySelectorAll("tbody td")].map((td) =>
        Number(td.textContent.replace("−", "-")),
      ),
    core: async (el, engine) => {
      const { x, bits } = el.state;
      return engine.quantize(x.flat(), { bits }).levels;
    },
    tol: 0,
  },
};
