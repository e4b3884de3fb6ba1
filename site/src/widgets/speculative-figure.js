// Figure 5.1, <llm-speculative> (speculative.js), as the pages, the build and the tests know it:
// data only (see figures.js). Its NumPy program is the widget's (speculative-numpy.js).
export const speculative = {
  tag: "llm-speculative",
  id: "speculative-figure",
  section: "speculative",
  // Download SVG and PNG: the headline, and the chart with its legend beside the bars of tokens
  // per call.
  picture: [".headline", ".spec-figure"],
  // Exercise 5: the headline, the charts, the calculation, and in the measuring panel the tokens
  // per call (predicted from each estimate, and the log's mean, which approaches the answer).
  conceals: [".headline", ".spec-dist", ".worked", ".spec-measure-body .spec-predicted", ".spec-measure-body .spec-mean"],
};
