// Figure 7.1, <llm-quantization> (quantization.js), as the pages, the build and the tests know
// it: data only (see figures.js). Its NumPy program is the widget's (quantization-numpy.js).
export const quantization = {
  tag: "llm-quantization",
  id: "quantization-figure",
  section: "quantization",
  // Download SVG and PNG: the headline, the ranges and the chart.
  picture: [".headline", ".quantization-ranges", ".chart-box"],
  // Exercise 7: the channel table (ranges and s), the bars after smoothing and the calculation.
  conceals: [".quantization-table", ".worked"],
};
