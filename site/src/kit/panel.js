// A figure's action bar and its panel (LlmWidget's addActions, showPanel and showForms): the
// buttons a page adds to the bar beside the kit's Reset (the reader's Copy link and Download, the
// take-away's, takeaway.js), and the panel under the bar that shows text to copy, one text
// selected or several forms each with its own Copy button, with a label and a Close button.
// Drawn into the widget's `actions` and `panel`, which the kit builds (frame.js).
import { h } from "../dom.js";

/** @typedef {import("./base.js").LlmWidget} LlmWidget */

/**
 * Adds buttons to `widget`'s action bar: [{ label, run, className }], run(widget) on a click.
 * @param {LlmWidget} widget
 */
export function addActions(widget, actions) {
  for (const { label, run, className } of actions) {
    widget.actions.append(h("button", { type: "button", class: className, onclick: () => run(widget) }, label));
  }
}

/**
 * The panel's head: its label and a button that closes it.
 * @param {LlmWidget} widget
 */
function head(widget, label) {
  return h(
    "div",
    { class: "llm-panel-head" },
    h("strong", {}, label),
    h("button", { type: "button", onclick: () => (widget.panel.hidden = true) }, "Close"),
  );
}

/**
 * Shows `text` to copy in `widget`'s panel, selected, under `label`; returns its text area.
 * @param {LlmWidget} widget
 */
export function showPanel(widget, label, text) {
  const area = h("textarea", { readonly: true, rows: Math.min(8, text.split("\n").length + 1), "aria-label": label });
  area.value = text;
  widget.panel.replaceChildren(head(widget, label), area);
  widget.panel.hidden = false;
  area.focus();
  area.select();
  return area;
}

/**
 * Shows, in `widget`'s panel under `label`, texts to copy one at a time: for each form its label, a
 * sentence on when to use it, the text and a Copy button, which copies that text alone and says so
 * (or selects it where the clipboard is refused). Focus goes to the first. Returns the forms' boxes.
 * @param {LlmWidget} widget
 */
export function showForms(widget, label, forms) {
  const parts = forms.map((f) => {
    const area = h("textarea", {
      readonly: true,
      rows: Math.min(8, f.text.split("\n").length + 1),
      "aria-label": f.label,
    });
    area.value = f.text;
    const said = h("span", { class: "llm-copied", role: "status" });
    const copy = h(
      "button",
      {
        type: "button",
        onclick: async () => {
          const copied = await navigator.clipboard?.writeText(f.text).then(
            () => true,
            () => false,
          );
          said.textContent = copied ? "Copied." : "Select the text and copy it.";
          if (!copied) {
            area.focus();
            area.select();
          }
        },
      },
      `Copy ${f.label.toLowerCase()}`,
    );
    return h(
      "div",
      { class: "llm-form" },
      h("p", {}, h("strong", {}, f.label), ` ${f.when}`),
      area,
      h("p", {}, copy, " ", said),
    );
  });
  widget.panel.replaceChildren(head(widget, label), ...parts);
  widget.panel.hidden = false;
  const first = /** @type {HTMLTextAreaElement} */ (parts[0].querySelector("textarea"));
  first.focus();
  first.select();
  return parts;
}
