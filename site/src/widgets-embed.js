// The script embed, dist/llmmath-widgets.js: one classic script a course page includes once;
// every <llm-…> element on the page then works on its own. The core is bundled inside it
// ("llmmath:core", made by site/build.mjs from dist/llmmath.js), so the script adds one global
// to the page, LLMMathWidgets: the tags it registered and the core's factory, createLLMMath.
import createLLMMath from "llmmath:core";
import { loadCore, provideCore } from "./core.js";
import { registerWidgets, widgets } from "./widgets/index.js";

globalThis.LLMMathWidgets = Object.freeze({ tags: Object.freeze(Object.keys(widgets)), createLLMMath });
// The shared core is made through the global, so that a harness that wraps the factory there
// before this script runs (bench/figure-calls.js records the figures' calls) sees every call.
provideCore(() => globalThis.LLMMathWidgets.createLLMMath());
// The engine starts compiling now, while the page is still being read; figures wait for it.
loadCore().catch(() => {});
registerWidgets();
// For a page whose own script may run before this one (the reader loads this file async).
globalThis.dispatchEvent?.(new Event("llmmath-widgets"));
