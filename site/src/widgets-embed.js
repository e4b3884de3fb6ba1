// The script embed, dist/llmmath-widgets.js (after the core, in the same file): one classic
// script a course page includes once; every <llm-…> element on the page then works on its own.
import { registerWidgets, widgets } from "./widgets/index.js";

registerWidgets();
globalThis.LLMMathWidgets = Object.freeze({ tags: Object.freeze(Object.keys(widgets)) });
