// The reader's first script, placed right after the masthead. It asks for the formulas' font at
// once: asked for only when the parser reaches the first formula, the font arrived while the page
// was still being read, and the whole first screen was laid out again (about 100 ms of a cold
// load). A preload must be fetched the way the font will be: from a server in CORS mode
// (crossorigin), from file:// without it (there Chromium fetches fonts without CORS, and a
// preload made with crossorigin would not be used).
// Its place matters as much as what it does: the parser stops at a script that is not async
// until the file has come, and Chromium paints what it has in that pause, so the chapter's title
// shows before the rest of the page is read and laid out (first paint about 400 → 190 ms cold
// from file://, where the whole page is otherwise read in one go and painted at once). Nothing
// above it has a formula, so the font is still asked for before it is needed.
// The widgets' script is not asked for from <head>: read and compiled while the first screen was
// laid out, it made that first paint later by about a fifth (cold from file://, paired loads),
// and the figures are ready no later for it. first-screen.js asks for it and runs it once the
// first screen is shown, with the drawings the page was built with; its address is this script
// element's data-widgets.
// The font's address is the script element's data-font. The one-file edition, whose font is inside
// its style sheet and whose widgets' script is inline after this one, gives neither: this script
// asks for nothing there.
import { watchFirstScreen } from "./first-screen.js";

const font = document.currentScript?.getAttribute("data-font");
if (font) {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "font";
  link.type = "font/woff2";
  link.href = font;
  if (location.protocol !== "file:") link.crossOrigin = "anonymous";
  document.head.append(link);
}

// A copy of the page saved from the browser carries the signals the live page had set (reader.js
// sets them again when they are true here): they must not say that this copy has drawn.
for (const name of ["data-ready", "data-first-screen", "data-first-screen-shown"])
  document.documentElement.removeAttribute(name);

// data-first-screen, as soon as the first screen's figures have drawn (first-screen.js).
watchFirstScreen();
