// The package's widgets entry, llmmath-attention/widgets (dist/package/widgets.js): the script
// embed as an ES module, for a site built by a bundler. Importing it defines every <llm-…>
// element; it adds no global. The core is the package's own module ("llmmath:core", left by
// site/build.mjs as ./llmmath.js), so a page that also imports "llmmath-attention" carries the
// engine once.
import createLLMMath from "llmmath:core";
import { loadCore, provideCore } from "./core.js";
import { registerWidgets, widgets } from "./widgets/index.js";

provideCore(createLLMMath);
// The engine starts compiling now; figures wait for it.
loadCore().catch(() => {});
registerWidgets();

/** Every tag this module defines (widgets.d.ts lists them). */
export const tags = Object.freeze(Object.keys(widgets));
