// Figure 8.1, <llm-moe> (moe.js), as the pages, the build and the tests know it: data only (see
// figures.js). Its NumPy program is the widget's (moe-numpy.js).
export const moe = {
  tag: "llm-moe",
  id: "moe-figure",
  section: "moe",
  // Download SVG and PNG: the headline, and the experts' bars with their table.
  picture: [".headline", ".moe-stats"],
  // Exercise 8: the figure shows the loss of its own router, not the even router's: nothing to
  // conceal.
  conceals: [],
};
