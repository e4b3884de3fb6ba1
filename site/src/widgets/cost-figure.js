// Figure 4.1, <llm-cost> (cost.js), as the pages, the build and the tests know it: data only
// (see figures.js). Its NumPy program is the widget's (cost-numpy.js).
export const cost = {
  tag: "llm-cost",
  id: "cost-figure",
  section: "cost",
  // Download SVG and PNG: the result cards, and the chart with its legend.
  picture: [".cost-stats", ".cost-figure"],
  // Exercise 4: the cards, the chart of scores and cache (its legend states both) and the
  // calculation; the chart of attention against the linear layers does not state the answer.
  conceals: [".cost-stats", ".worked"],
};
