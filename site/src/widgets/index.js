// Every widget of the chapter, by tag, and the one function that registers them. The script
// embed (llmmath-widgets.js), the reader and embed.html all register through here.
//
// The widgets are those of the figures' modules: "llmmath:widgets" is made by the build
// (site/build.mjs) from the registry (figures.js), importing each figure's `module` in the
// registry's order and merging their `widgets` (tag → class), so a new figure's widget is
// registered by its figure file alone.
import { widgets } from "llmmath:widgets";

export { widgets };

/**
 * Defines every widget's custom element, or those of `tags` only, with the figure each of their
 * exercises answers (an exercise finds its figure's element defined when it connects: the
 * registry's order puts a figure before its exercises). Once: a second copy of the script
 * changes nothing.
 * @param {readonly string[]} [tags]
 */
export function registerWidgets(tags) {
  const wanted = tags && new Set(tags.flatMap((tag) => [tag, /** @type {any} */ (widgets)[tag]?.figure ?? tag]));
  for (const [tag, cls] of Object.entries(widgets)) {
    if (wanted && !wanted.has(tag)) continue;
    if (!customElements.get(tag)) customElements.define(tag, cls);
  }
}
