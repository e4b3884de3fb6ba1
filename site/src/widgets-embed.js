// The script embed, dist/llmmath-widgets.js (after the core, in the same file): one classic
// script a course page includes once; every <llm-…> element on the page then works on its own.
import { loadCore } from "./core.js";
import { registerWidgets, widgets } from "./widgets/index.js";

// The engine starts compiling now, while the page is still being read; figures wait for it.
loadCore().catch(() => {});
registerWidgets();
globalThis.LLMMathWidgets = Object.freeze({ tags: Object.freeze(Object.keys(widgets)) });
// For a page whose own script may run before this one (the reader loads this file async).
globalThis.dispatchEvent?.(new Event("llmmath-widgets"));
