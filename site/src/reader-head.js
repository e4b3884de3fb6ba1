// The reader's first script, in <head> before its style sheet: it asks for the formulas' font at
// once. Asked for only when the parser reaches the first formula, the font arrived while the page
// was still being read, and the whole first screen was laid out again (about 100 ms of a cold
// load). A preload must be fetched the way the font will be: from a server in CORS mode
// (crossorigin), from file:// without it (there Chromium fetches fonts without CORS, and a
// preload made with crossorigin would not be used).
const link = document.createElement("link");
link.rel = "preload";
link.as = "font";
link.type = "font/woff2";
link.href = "chapter-math.woff2";
if (location.protocol !== "file:") link.crossOrigin = "anonymous";
document.head.append(link);
