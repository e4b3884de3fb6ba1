// The chapter on paper, as a workbook. reader.css (@media print) lays out the printed copy; around
// a print these handlers add what CSS cannot, and take it away after, so the screen is as the
// reader left it:
//  - every figure is drawn first (those the reader never scrolled near have not been);
//  - #print-state says which state the figures are printed in: the page's address, which carries
//    every figure's settings, where the page was opened over the web; from a file on disk, whose
//    path means nothing to the reader of the paper, only that each figure's settings are printed
//    under it;
//  - under each figure, its settings (takeaway.js settingsText, with every setting a control
//    sets, and any other that differs from its default), so that it can be set up again;
//  - the exercises print their questions with a line to write on, and their answers go to a
//    "Solutions" part at the end of the chapter (each exercise's solution(), and the solutions
//    of any figure that asks questions of its own, such as Figure 9.1's scenarios): the figures'
//    readouts that an exercise holds back stay held back on paper, as on the screen.
import { fill, h } from "./dom.js";
import { settingsText } from "./takeaway.js";

/**
 * Sets up the page's print handlers. `widgets` are the page's widget elements in document order;
 * `writeNow` writes the figures' state into the address at once.
 * @param {{ widgets: HTMLElement[], writeNow: () => void }} page
 */
export function setUpPrint({ widgets, writeNow }) {
  /** @type {Element[] | null} */
  let added = null;

  function beforePrint() {
    // Paper has no scrolling: every figure is drawn now, also those the reader never came near
    // (a figure draws as it nears the screen), so that the copy holds each and its solution.
    for (const el of widgets) /** @type {any} */ (el).drawNow?.();
    // The last change of a figure may still wait for its write, and a figure first drawn just now
    // says its state only as it draws (one set through the API before it had drawn).
    writeNow();
    added?.forEach((el) => el.remove());
    added = [];
    const stateEl = document.getElementById("print-state");
    if (stateEl) {
      const web = /^https?:$/.test(location.protocol);
      fill(
        stateEl,
        ...(web
          ? [
              "This copy shows each figure as it was at ",
              h("span", { class: "print-url" }, location.href),
              ". Open that address to use the figures from there; each figure's settings are printed under it.",
            ]
          : ["This copy shows each figure as it was when printed, with its settings under it."]),
      );
    }
    for (const el of widgets) {
      const figure = el.closest("figure");
      if (!figure || typeof (/** @type {any} */ (el).settings) !== "function") continue;
      const line = h("p", { class: "print-settings" }, settingsText(el, { every: true }));
      (figure.querySelector(":scope > figcaption") ?? el).before(line);
      added.push(line);
    }
    const solutions = widgets.flatMap((el) => {
      const solve = /** @type {any} */ (el).solutions;
      return typeof solve === "function" ? solve.call(el) : [];
    });
    if (solutions.length) {
      const part = h(
        "section",
        { class: "print-solutions", "aria-label": "Solutions" },
        h("h2", {}, "Solutions"),
        h(
          "p",
          {},
          "The answers to the chapter's exercises and questions, for the figures as they were printed, computed by the same library as the figures.",
        ),
        ...solutions,
      );
      (document.querySelector("main") ?? document.body).append(part);
      added.push(part);
    }
  }

  function afterPrint() {
    added?.forEach((el) => el.remove());
    added = null;
  }

  addEventListener("beforeprint", beforePrint);
  addEventListener("afterprint", afterPrint);
}
