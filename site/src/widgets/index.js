// Every widget of the chapter, by tag, and the one function that registers them. The script
// embed (llmmath-widgets.js), the reader and embed.html all register through here.
//
// The widgets are those of the figures' modules: "llmmath:widgets" is made by the build
// (site/build.mjs) from the registry (figures.js), importing each figure's `module` in the
// registry's order and merging their `widgets` (tag → class), so a new figure's widget is
// registered by its figure file alone.
import { widgets } from "llmmath:widgets";

export { widgets };

/** Defines every widget's custom element (once: a second copy of the script changes nothing). */
export function registerWidgets() {
  for (const [tag, cls] of Object.entries(widgets)) {
    if (!customElements.get(tag)) customElements.define(tag, cls);
  }
}
