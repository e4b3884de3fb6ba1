// Figure 5.1, <llm-speculative> (speculative.js), as the pages, the build and the tests know it:
// data only (see figures.js). Its NumPy program is the widget's (speculative-numpy.js).
export const speculative = {
  tag: "llm-speculative",
  id: "speculative-figure",
  section: "speculative",
  // Download SVG and PNG: the headline, and the chart with its legend beside the bars of tokens
  // per call.
  picture: [".headline", ".speculative-figure"],
  // Exercise 5: the headline, the charts, the calculation, and in the measuring panel the tokens
  // per call (predicted from each estimate, and the log's mean, which approaches the answer).
  conceals: [
    ".headline",
    ".speculative-dist",
    ".worked",
    ".speculative-measure-body .speculative-predicted",
    ".speculative-measure-body .speculative-mean",
  ],
};
