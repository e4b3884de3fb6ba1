// Figures 2.1 and 2.2, <llm-sampling> (sampling.js), as the pages, the build and the tests know
// it: data only (see figures.js). Its NumPy program is the widget's (sampling-numpy.js).
export const sampling = {
  tag: "llm-sampling",
  id: "sampling-figure",
  section: "sampling",
  // Download SVG and PNG: the headline, the chart with its legend, and the list of draws.
  picture: [".headline", ".sampling-legend", ".sampling-chart", ".sampling-drawlist"],
  // Exercise 2 (on Figure 2.2): the headline, the chart and the written-out calculation.
  conceals: [".headline", ".sampling-chart", ".sampling-worked"],
};
