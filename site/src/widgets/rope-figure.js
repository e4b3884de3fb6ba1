// Figure 3.1, <llm-rope> (rope.js), as the pages, the build and the tests know it: data only
// (see figures.js). Its NumPy program is the widget's (rope-numpy.js).
export const rope = {
  tag: "llm-rope",
  id: "rope-figure",
  section: "rope",
  // Download SVG and PNG: the headline, the dials of the pairs with their legend, and the chart.
  picture: [".headline", ".rope-legend", ".rope-dials", ".chart-box"],
  // Exercise 3: the scores (headline, chart, the readout after moving both positions), the
  // calculation, and the dials' captions, which give each pair's part of the score.
  conceals: [".headline", ".worked", ".rope-moved", ".rope-dial figcaption"],
};
