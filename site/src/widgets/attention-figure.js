// Figure 1.1, <llm-attention> (attention.js), as the pages, the build and the tests know it:
// data only (see figures.js). Its NumPy program is the widget's (attention-numpy.js).
export const attention = {
  tag: "llm-attention",
  id: "attention-figure",
  section: "attention",
  // Download SVG and PNG: the three tables: scores, weights and outputs.
  picture: [".attention-results"],
  // Exercise 1: the weights, the outputs and the written-out calculation state the answer; the
  // scores stay visible, since the reader computes from them.
  conceals: [".attention-results .table-view:nth-child(2)", ".attention-results .table-view:nth-child(3)", ".worked"],
};
