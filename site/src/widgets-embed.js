// The script embed, dist/llmmath-widgets.js (after the core, in the same file): one classic
// script a course page includes once; every <llm-…> element on the page then works on its own.
// The core ahead of this bundle is dist/llmmath.js as it is, which defines the global factory
// createLLMMath (core-api.md): the one name the script embed adds to the page, so that a course
// page that includes it can also call the engine by the contract's name. The widgets make their
// shared module through that global, so that a harness wrapping it before the script runs
// (bench/figure-calls.js records the figures' calls) sees every call. The package's ES module
// (widgets-module.js) registers the same widgets and adds no name at all.
import { loadCore, provideCore } from "./core.js";
import { registerWidgets } from "./widgets/index.js";

provideCore(() =>
  typeof globalThis.createLLMMath === "function"
    ? globalThis.createLLMMath()
    : Promise.reject(new Error('llmmath.js did not load: include <script src="llmmath.js"></script> first')),
);
// The engine starts compiling now, while the page is still being read; figures wait for it.
loadCore().catch(() => {});
registerWidgets();
// For a page whose own script may run before this one (the reader loads this file async): the
// elements are defined now (customElements.get tells a script that runs later).
globalThis.dispatchEvent?.(new Event("llmmath-widgets"));
