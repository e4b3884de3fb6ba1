// The chapter on paper, as a workbook. reader.css (@media print) lays out the printed copy; around
// a print these handlers add what CSS cannot, and take it away after, so the screen is as the
// reader left it:
//  - every figure is drawn first (those the reader never scrolled near have not been);
//  - #print-state says which state the figures are printed in: the page's address, which carries
//    every figure's settings, where the page was opened over the web; from a file on disk, whose
//    path means nothing to the reader of the paper, only that each figure's settings are printed
//    under it;
//  - under each figure, its settings in the words of its own controls ("Example: …", "Causal
//    mask: on", "Device: H100 SXM 80 GB"), so that it can be set up again: printedSettings();
//  - the exercises print their questions with a line to write on, and their answers go to a
//    "Solutions" part at the end of the chapter (each exercise's solution(), and the solutions
//    of any figure that asks questions of its own, such as Figure 9.1's scenarios): the figures'
//    readouts that an exercise holds back stay held back on paper, as on the screen.
import { fill, h } from "./dom.js";
import { stateKey } from "./kit/attributes.js";
import { figureOf } from "./widgets/figures.js";

/**
 * Sets up the page's print handlers. `widgets` are the page's widget elements in document order;
 * `writeNow` writes the figures' state into the address at once.
 * @param {{ widgets: HTMLElement[], writeNow: () => void }} page
 */
export function setUpPrint({ widgets, writeNow }) {
  /** @type {Element[] | null} */
  let added = null;

  function beforePrint() {
    // Paper has no scrolling: every figure is drawn now, also those the reader never came near
    // (a figure draws as it nears the screen), so that the copy holds each and its solution.
    for (const el of widgets) /** @type {any} */ (el).drawNow?.();
    // The last change of a figure may still wait for its write, and a figure first drawn just now
    // says its state only as it draws (one set through the API before it had drawn).
    writeNow();
    added?.forEach((el) => el.remove());
    added = [];
    const stateEl = document.getElementById("print-state");
    if (stateEl) {
      const web = /^https?:$/.test(location.protocol);
      fill(
        stateEl,
        ...(web
          ? [
              "This copy shows each figure as it was at ",
              h("span", { class: "print-url" }, location.href),
              ". Open that address to use the figures from there; each figure's settings are printed under it.",
            ]
          : ["This copy shows each figure as it was when printed, with its settings under it."]),
      );
    }
    for (const el of widgets) {
      const figure = el.closest("figure");
      if (!figure || typeof (/** @type {any} */ (el).settings) !== "function") continue;
      const line = h("p", { class: "print-settings" }, "Settings: ", ...printedSettings(el));
      (figure.querySelector(":scope > figcaption") ?? el).before(line);
      added.push(line);
    }
    const solutions = widgets.flatMap((el) => {
      const solve = /** @type {any} */ (el).solutions;
      return typeof solve === "function" ? solve.call(el) : [];
    });
    if (solutions.length) {
      const part = h(
        "section",
        { class: "print-solutions", "aria-label": "Solutions" },
        h("h2", {}, "Solutions"),
        h(
          "p",
          {},
          "The answers to the chapter's exercises and questions, for the figures as they were printed, computed by the same library as the figures.",
        ),
        ...solutions,
      );
      (document.querySelector("main") ?? document.body).append(part);
      added.push(part);
    }
  }

  function afterPrint() {
    added?.forEach((el) => el.remove());
    added = null;
  }

  addEventListener("beforeprint", beforePrint);
  addEventListener("afterprint", afterPrint);
  return { beforePrint };
}

/**
 * A figure's settings as the reader of the paper can read them: for each of its declarations in
 * order, the control that sets it (data-setting, controls.js markSettings) by its label and what
 * it shows: a list's chosen entry, a switch's on or off, a slider's readout, a field's number.
 * Left out: a setting whose control the figure hides or disables because it does not apply now
 * (a custom device's memory while a listed device is chosen) or because the figure is compact
 * (the opening figure shows no example menu), one at the value that means "not
 * set" (its declaration's `unset`: top-k 0), and one no control sets and the reader left as it
 * was (a preset's own numbers are in the figure). One no control sets that the reader changed is
 * named by its declaration's `label`. Returns the nodes of the line after "Settings: ": each
 * label keeps its symbols' markup (h<sub>kv</sub>).
 * @param {any} el
 * @returns {(Node | string)[]}
 */
export function printedSettings(el) {
  const root = el.shadowRoot;
  const changed = new Map(typeof el.settings === "function" ? el.settings("defaults") : []);
  const state = el.state ?? {};
  // the parts a compact figure hides (figures.js compact.hides, selectors within its frame)
  const frame = root?.querySelector(".llm-frame");
  const compact = frame?.classList.contains("llm-compact")
    ? (figureOf(el.localName)?.compact.hides ?? []).flatMap((sel) => [...frame.querySelectorAll(`:scope ${sel}`)])
    : [];
  const shown = (control) =>
    !control.disabled && !control.closest("[hidden]") && !compact.some((part) => part.contains(control));
  /** @type {[(Node | string)[], string][]} */
  const items = [];
  for (const d of el.constructor.attributes ?? []) {
    const value = state[stateKey(d.name)];
    if (d.print === false || ("unset" in d && value === d.unset)) continue;
    const control = /** @type {any} */ (root?.querySelector(`[data-setting="${d.name}"]`));
    if (control) {
      if (shown(control)) items.push([labelOf(control), shownValue(control)]);
    } else if (changed.has(d.name) && d.label) items.push([[d.label], valueWords(d, value)]);
  }
  if (!items.length) return ["as the figure first shows them."];
  return items.flatMap(([label, value], i) => [i ? "; " : "", ...label, `: ${value}`]).concat(".");
}

/** A control's label as it reads beside the control, without a note on its values ("(0 = off)"). */
function labelOf(control) {
  const label = control.labels?.[0];
  if (!label) return [control.getAttribute("aria-label") ?? ""];
  const nodes = [...label.cloneNode(true).childNodes];
  const ends = (i, re) => nodes[i]?.nodeType === Node.TEXT_NODE && re.test(nodes[i].textContent);
  if (ends(nodes.length - 1, /\s*\(\d+ = off\)\s*$/))
    nodes[nodes.length - 1].textContent = nodes[nodes.length - 1].textContent.replace(/\s*\(\d+ = off\)\s*$/, "");
  if (ends(0, /^\s/)) nodes[0].textContent = nodes[0].textContent.trimStart();
  if (ends(nodes.length - 1, /\s$/))
    nodes[nodes.length - 1].textContent = nodes[nodes.length - 1].textContent.trimEnd();
  return nodes;
}

/** What a control shows: a list's chosen entry, on or off, a slider's readout, a field's value. */
function shownValue(control) {
  if (control.localName === "select") return control.selectedOptions[0]?.textContent.trim() ?? "";
  if (control.type === "checkbox") return control.checked ? "on" : "off";
  if (control.type === "range") {
    // a slider's readout beside it (an <output>), or the field for an exact value in its row
    const row = control.parentElement;
    const readout = row?.querySelector(`output[for="${control.id}"]`)?.textContent.trim();
    if (readout) return readout;
    const exact = row?.querySelector("input[type=number]");
    if (exact) return exact.value;
  }
  return control.value.trim();
}

/** A setting no control shows, in words: lists with commas, a matrix's rows each in brackets. */
function valueWords(d, value) {
  switch (d.type) {
    case "boolean":
      return value ? "on" : "off";
    case "labels":
    case "numbers":
      return value.join(", ");
    case "matrix":
      return value.map((row) => `(${row.join(", ")})`).join(", ");
    default:
      return String(value);
  }
}
