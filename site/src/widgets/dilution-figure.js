// Figure 1.2, <llm-context-dilution> (dilution.js), as the pages, the build and the tests know
// it: data only (see figures.js). Its NumPy program is the widget's (dilution-numpy.js).
export const dilution = {
  tag: "llm-context-dilution",
  id: "dilution-figure",
  section: "attention",
  // Download SVG and PNG: the headline, the bar of the weight's shares and the chart.
  picture: [".headline", ".mass-bar", ".chart-box"],
};
