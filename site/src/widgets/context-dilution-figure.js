// Figure 1.2, <llm-context-dilution> (dilution.js), as the pages, the build and the tests know
// it: data only (see figures.js). Its NumPy program is the widget's (dilution-numpy.js).
export const contextDilution = {
  tag: "llm-context-dilution",
  // Its id on the reader keeps the figure's name before the rename: links to #dilution-figure
  // open at the figure as before.
  id: "dilution-figure",
  section: "attention",
  // Its name until it took its element's: embed.html?widget=dilution and links' dilution.…
  // settings still work.
  aliases: ["dilution"],
  // Download SVG and PNG: the headline, the bar of the weight's shares and the chart.
  picture: [".headline", ".mass-bar", ".chart-box"],
};
