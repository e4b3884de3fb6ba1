// One constructed style sheet per CSS text, made once and shared by every shadow root given it:
// the widgets' own styles (kit/frame.js) and those of the drawings made at build time
// (drawing.js). A constructed sheet is no <style> element: a page's policy without
// 'unsafe-inline' allows it.

/** @type {Map<string, CSSStyleSheet>} */
const sheets = new Map();

/** The constructed style sheet of `css`, made the first time it is asked for. */
export function sheetFor(css) {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  return sheet;
}
