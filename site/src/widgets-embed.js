// The script embed, dist/llmmath-widgets.js (after the core, in the same file): one classic
// script a course page includes once; every <llm-…> element on the page then works on its own.
// The core ahead of this bundle is dist/llmmath.js as it is, which defines the global factory
// createLLMMath (core-api.md): the one name the script embed adds to the page, so that a course
// page that includes it can also call the engine by the contract's name. The widgets make their
// shared module through that global, so that a harness wrapping it before the script runs
// (bench/figure-calls.js records the figures' calls) sees every call. The package's ES module
// (widgets-module.js) registers the same widgets and adds no name at all.
import { loadCore, provideCore } from "./core.js";
import { registerWidgets, widgets } from "./widgets/index.js";

provideCore(() =>
  typeof globalThis.createLLMMath === "function"
    ? globalThis.createLLMMath()
    : Promise.reject(new Error('llmmath.js did not load: include <script src="llmmath.js"></script> first')),
);
// The engine starts compiling now, while the page is still being read; figures wait for it.
loadCore().catch(() => {});
/** Every element defined, then said: for a page whose own script may run before this one (the
 * reader loads this file async), the elements are defined now (customElements.get tells a script
 * that runs later). */
const defineAll = () => {
  registerWidgets();
  globalThis.dispatchEvent?.(new Event("llmmath-widgets"));
};
// The reader (first-screen.js) names the tags of its first screen's figures on this script's
// element (data-first): those are defined at once, the rest once that screen's figures have drawn
// (data-first-screen on <html>). Defining the rest (a shadow root and a state for each of some 20
// elements) and the reader's glue that the event runs took 60 to 150 ms of a cold load's main
// thread, which the first screen's figure waited for twice: the engine's bytes are inflated at
// the end of this task, and its compiled module is handed over only between tasks. Should that
// screen not draw (a tab hidden meanwhile draws no frame), the rest are defined after WAIT_MS all
// the same; a page's "llmmath-define-now" event (reader.js, as a print begins) has them defined at
// once. A page that names none (a course page, embed.html, a link with settings, which the
// reader's glue gives its figures before they draw) has every element defined when this script
// has run.
const WAIT_MS = 3000;
const script = globalThis.document?.currentScript;
const first = script?.getAttribute("data-first");
if (typeof first !== "string") defineAll();
else {
  script?.removeAttribute("data-first"); // read once: not carried by a copy of the page saved from the browser
  registerWidgets(first.split(" ").filter(Boolean));
  const root = document.documentElement;
  let done = false;
  // The rest a figure at a time, each with its exercises, a task each: in one task they made a
  // long task that Lighthouse's phone counted as 450 ms of blocking (its performance 80 to 82,
  // against 83 to 85 before this change, on a slow day).
  const rest = (atOnce = false) => {
    if (done) return;
    done = true;
    seen.disconnect();
    clearTimeout(late);
    /** @type {Map<string, string[]>} each figure's tag, and it with its exercises' */
    const groups = new Map();
    for (const [tag, cls] of Object.entries(widgets)) {
      const figure = /** @type {any} */ (cls).figure ?? tag;
      groups.set(figure, [...(groups.get(figure) ?? []), tag]);
    }
    const queue = [...groups.values()].filter((group) => group.some((tag) => !customElements.get(tag)));
    let timer = 0;
    const next = () => {
      const group = queue.shift();
      if (!group) {
        removeEventListener("llmmath-define-now", now);
        return defineAll(); // (each defined by now: it says so)
      }
      registerWidgets(group);
      timer = setTimeout(next, 0);
    };
    // the page asks for every one at once (reader.js, as a print begins)
    const now = () => {
      clearTimeout(timer);
      queue.length = 0;
      next();
    };
    if (atOnce) return now();
    addEventListener("llmmath-define-now", now);
    next();
  };
  // asked for before the first screen has drawn: every one now
  addEventListener("llmmath-define-now", () => rest(true), { once: true });
  const seen = new MutationObserver(() => root.hasAttribute("data-first-screen") && setTimeout(rest, 0));
  seen.observe(root, { attributes: true, attributeFilter: ["data-first-screen"] });
  const late = setTimeout(rest, WAIT_MS);
  if (root.hasAttribute("data-first-screen")) rest();
}
