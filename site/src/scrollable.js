// A box that scrolls sideways (a display formula or a table wider than the screen) takes the
// focus, so that a keyboard can scroll it; one that fits does not, so that Tab does not stop at
// every formula of the chapter. Whether a box overflows depends on the screen's width and on
// when its section is first laid out (the sections are content-visibility: auto), so each box is
// watched by a ResizeObserver, which tells when it is laid out or resized.

/** The page's boxes that may scroll sideways: display formulas and tables of numbers. */
const SCROLLABLE = 'math[display="block"], .table-scroll';

/** Gives each scrollable box in `root` the focus exactly while it overflows. */
export function focusWhereScrolls(root = document) {
  const boxes = [...root.querySelectorAll(SCROLLABLE)];
  const mark = (/** @type {Element} */ box) => {
    if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  };
  if (typeof ResizeObserver !== "function") {
    // Without it, every box that may scroll keeps the focus: reachable beats fewer stops.
    for (const box of boxes) box.setAttribute("tabindex", "0");
    return;
  }
  // Only boxes the browser has laid out are measured: a box in a section off the screen
  // (content-visibility: auto) reports no size until its section comes near, and asking for its
  // widths then would lay out the whole section (all of them took 100 ms of a load).
  /** @type {Set<Element>} */
  const laidOut = new Set();
  const observer = new ResizeObserver((entries) => {
    for (const e of entries) {
      if (!e.contentRect.width && !e.contentRect.height) continue;
      laidOut.add(e.target);
      mark(e.target);
    }
  });
  for (const box of boxes) observer.observe(box);
  // The formulas' font changes their width once it has loaded, the boxes' own size staying.
  document.fonts?.ready.then(() => {
    for (const box of laidOut) if (box.checkVisibility?.({ contentVisibilityAuto: true }) ?? true) mark(box);
  });
}
