// The controls every widget shares, built with DOM calls (never markup). Each returns its
// elements and takes an `on…` callback; widgets write the callback's value into their state
// with set(), and set the control back from the state in sync().
import { h, uniqueId } from "../dom.js";
import { fieldValue } from "../format.js";

/**
 * A labelled range slider with its value shown beside it:
 * slider({ label, min, max, step, value, oninput(valueAsNumber) }) → { input, out, row }.
 * `label` may be text or nodes. The widget writes the shown value into `out.value`.
 */
export function slider({ label, min, max, step = 1, value = min, oninput, id = uniqueId("slider") }) {
  const input = h("input", {
    type: "range",
    id,
    min,
    max,
    step,
    value: String(value),
    oninput: () => oninput(input.valueAsNumber),
  });
  const out = h("output", { for: id });
  return { input, out, row: h("div", { class: "slider" }, h("label", { for: id }, label), input, out) };
}

/**
 * Marks which control sets which of the widget's settings: markSettings({ temperature: input,
 * preset: select }) gives each control data-setting="<attribute name>". A printed figure states
 * its settings in the words of these controls (site/src/print.js): their labels and what they
 * show, not the attributes' names.
 * @param {Record<string, HTMLElement>} controls
 */
export function markSettings(controls) {
  for (const [name, control] of Object.entries(controls)) control.dataset.setting = name;
}

/** Two buttons, − and +, under one group label: stepper("Tokens", onMinus, onPlus). */
export function stepper(label, onMinus, onPlus) {
  return h(
    "span",
    { class: "stepper", role: "group", "aria-label": label },
    label + " ",
    h("button", { type: "button", onclick: onMinus, "aria-label": `fewer: ${label}` }, "−"),
    h("button", { type: "button", onclick: onPlus, "aria-label": `more: ${label}` }, "+"),
  );
}

/**
 * A labelled number field: numberField({ label, value, min, max, step, oninput(valueAsNumber,
 * input) }) → { input, row }. An empty or unparsable field reports NaN, which the core names in
 * its message.
 * @param {{ label: any, value: number | string, min?: number, max?: number, step?: number | string,
 *   oninput: (value: number, input: HTMLInputElement) => void, id?: string, className?: string }} spec
 */
export function numberField({
  label,
  value,
  min,
  max,
  step = "any",
  oninput,
  id = uniqueId("num"),
  className = "num-field",
}) {
  const input = h("input", {
    type: "number",
    id,
    min,
    max,
    step,
    value: fieldValue(value),
    inputmode: "decimal",
    class: className,
    oninput: () => oninput(input.valueAsNumber, input),
  });
  return { input, row: h("span", { class: "control" }, h("label", { for: id }, label), " ", input) };
}

/** A labelled drop-down list: choice({ label, options: [[value, text]], value, onchange(value) }). */
export function choice({ label, options, value, onchange, id = uniqueId("choice") }) {
  const select = h(
    "select",
    { id, onchange: () => onchange(select.value) },
    options.map(([v, text]) => h("option", { value: v }, text)),
  );
  select.value = value;
  return { select, row: h("span", { class: "control" }, h("label", { for: id }, label), " ", select) };
}

/** A labelled checkbox: checkbox({ label, checked, onchange(checked) }) → { input, row }. */
export function checkbox({ label, checked, onchange, id = uniqueId("check") }) {
  const input = h("input", { type: "checkbox", id, onchange: () => onchange(input.checked) });
  input.checked = checked;
  return { input, row: h("span", { class: "control check" }, input, h("label", { for: id }, " ", label)) };
}

/**
 * A table of number fields for a matrix: matrixEditor({ name, caption, M, rowLabels, colLabels,
 * cellLabel, step, oncell(i, j, valueAsNumber, input) }). Rows are headed by rowLabels, columns
 * by colLabels when given. Each field's accessible name is cellLabel(i, j), by default
 * "<name> row i (label), column j". `caption` is text or nodes; without it the caption is the
 * matrix's name.
 * @param {{ name: string, caption?: any, M: number[][], rowLabels: any[],
 *   colLabels?: any[], cellLabel?: (i: number, j: number) => string, step?: string, className?: string,
 *   oncell: (i: number, j: number, value: number, input: HTMLInputElement) => void }} spec
 */
export function matrixEditor({
  name,
  caption,
  M,
  rowLabels,
  colLabels,
  cellLabel,
  step = "0.1",
  className = "",
  oncell,
}) {
  const label = cellLabel ?? ((i, j) => `${name} row ${i + 1} (${rowLabels[i]}), column ${j + 1}`);
  return h(
    "table",
    { class: `matrix-editor ${className}`.trim() },
    h("caption", {}, caption ?? h("var", {}, name)),
    colLabels
      ? h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", {}),
            colLabels.map((c) => h("th", { scope: "col" }, c)),
          ),
        )
      : null,
    h(
      "tbody",
      {},
      M.map((row, i) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, rowLabels[i]),
          row.map((x, j) =>
            h(
              "td",
              {},
              h("input", {
                type: "number",
                step,
                value: fieldValue(x),
                inputmode: "decimal",
                "aria-label": label(i, j),
                oninput: (e) => oncell(i, j, e.target.valueAsNumber, e.target),
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Marks a field as invalid (or valid) for the eye and for assistive technology. */
export function markInvalid(input, invalid) {
  input.setAttribute("aria-invalid", invalid ? "true" : "false");
}

/**
 * A box for a table of numbers that may be wider than the figure: scrollBox(label, className,
 * ...children). It scrolls sideways on a narrow screen, with a shadow at an edge that hides
 * columns (widget.css, .llm-scroll), and takes the focus so that arrow keys scroll it; `label`
 * names it for a screen reader. A group, not a region: a figure can appear twice on a page.
 * While it is hidden from assistive technology (aria-hidden, as an exercise conceals a readout
 * until it is answered) it leaves the tab order too.
 */
export function scrollBox(label, className, ...children) {
  const box = h(
    "div",
    { class: `llm-scroll ${className}`, tabindex: "0", role: "group", "aria-label": label },
    ...children,
  );
  new MutationObserver(() => {
    if (box.getAttribute("aria-hidden") === "true") box.removeAttribute("tabindex");
    else box.setAttribute("tabindex", "0");
  }).observe(box, { attributes: true, attributeFilter: ["aria-hidden"] });
  return box;
}
