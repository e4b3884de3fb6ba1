// Figure 9.1, <llm-diagnose> (diagnose.js), as the pages, the build and the tests know it: data
// only (see figures.js). Its NumPy program is the widget's (diagnose-numpy.js).
export const diagnose = {
  tag: "llm-diagnose",
  id: "diagnose-figure",
  section: "diagnose",
  // Download SVG and PNG: the scenario's title and story, and its calculation once found.
  picture: [".diagnose-title", ".diagnose-story", ".diagnose-lines"],
};
