// Figure 6.1, <llm-alibi> (alibi.js), as the pages, the build and the tests know it: data only
// (see figures.js). Its NumPy program is the widget's (alibi-numpy.js).
export const alibi = {
  tag: "llm-alibi",
  id: "alibi-figure",
  section: "alibi",
  // Download SVG and PNG: the heads' slopes, the headline, the evidence's line, and the bias map
  // with the chart of weight factors.
  picture: [".alibi-bars", ".headline", ".alibi-evidence", ".alibi-panels"],
  // Exercise 6: the headline and the calculation.
  conceals: [".headline", ".worked"],
};
