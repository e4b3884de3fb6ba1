// Figure 2.1's editor, "Your example" (.sampling-editor): the prompt, and a row per token with its
// text and its logit or probability, and the stepper that adds or removes a token; each sets the
// state. It draws from the state alone (sync(state): r.state's prompt, labels and values), not
// from the core's result: what the reader typed stays as typed.
import { fill, h } from "../../dom.js";
import { fieldValue } from "../../format.js";
import { markInvalid, stepper } from "../../kit/controls.js";
import { MAX_PROMPT, MAX_TOKEN_CHARS, MAX_TOKENS, valuesOf } from "./attributes.js";

/**
 * The tokens and their values as the reader edits them: a part of the figure (sampling.js) that
 * holds controls, so it is made with the figure whose state it sets; sync(state) sets them.
 */
export class Editor {
  /**
   * @param {import("./sampling.js").LlmSampling} figure
   * @param {string} id the figure's unique id, which the prompt's id extends
   */
  constructor(figure, id) {
    this.figure = figure;
    this.promptInput = h("input", {
      type: "text",
      id: `${id}-prompt`,
      class: "sampling-prompt",
      maxlength: MAX_PROMPT,
      oninput: () => figure.set({ prompt: this.promptInput.value }),
    });
    this.valueHeader = h("th", { scope: "col" });
    this.editorBody = h("tbody");
    this.box = h(
      "div",
      { class: "sampling-editor" },
      h("p", { class: "sampling-sub" }, "Your example"),
      h("div", { class: "sampling-field" }, h("label", { for: `${id}-prompt` }, "Prompt "), this.promptInput),
      h(
        "table",
        { class: "sampling-edit-table" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Token"), this.valueHeader),
        ),
        this.editorBody,
      ),
      h(
        "div",
        { class: "controls" },
        stepper(
          "Tokens",
          () => this.resize(-1),
          () => this.resize(1),
        ),
      ),
    );
    this.nodes = [this.box];
  }

  /** Adds a token (value 0) or removes the last one. */
  resize(delta) {
    const s = this.figure.state;
    const n = s.labels.length + delta;
    if (n < 1 || n > MAX_TOKENS) return;
    const fit = (xs, fresh) => Array.from({ length: n }, (_, i) => (i < xs.length ? xs[i] : fresh(i)));
    const { kind, values } = valuesOf(s);
    this.figure.set({ labels: fit(s.labels, (i) => ` t${i + 1}`), [kind]: fit(values, () => 0) }, { sync: true });
  }

  /** Sets the prompt and a row per token (its text, its logit or probability) from the state. */
  sync(s) {
    this.promptInput.value = s.prompt;
    const { kind, values } = valuesOf(s);
    this.valueHeader.textContent = kind === "probs" ? "Probability p (sum 1)" : "Logit z";
    const what = kind === "probs" ? "Probability" : "Logit";
    fill(
      this.editorBody,
      s.labels.map((t, i) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(i + 1)),
          h(
            "td",
            {},
            h("input", {
              type: "text",
              class: "sampling-token",
              value: t,
              maxlength: MAX_TOKEN_CHARS,
              "aria-label": `Token ${i + 1}`,
              oninput: (e) => this.onToken(i, e.target),
            }),
          ),
          h(
            "td",
            {},
            h("input", {
              type: "number",
              step: kind === "probs" ? "0.05" : "0.1",
              value: fieldValue(values[i]),
              inputmode: "decimal",
              "aria-label": `${what} of token ${i + 1}`,
              oninput: (e) => this.onValue(i, e.target),
            }),
          ),
        ),
      ),
    );
  }

  onToken(i, input) {
    const figure = this.figure;
    // "|" separates the tokens in the widget's settings, so a token cannot hold one.
    if (input.value.includes("|")) {
      markInvalid(input, true);
      figure.showError(`Not updated: token ${i + 1} cannot contain “|”.`);
      return;
    }
    const labels = figure.state.labels.slice();
    labels[i] = input.value;
    figure.set({ labels });
    // Not sync(): the rows stay as they are, so the field being typed in keeps the focus.
    figure.syncPreset();
    markInvalid(input, figure.failed);
  }

  onValue(i, input) {
    const figure = this.figure;
    // valueAsNumber is NaN for an empty or unparsable field; the core names it in its message.
    const { kind, values } = valuesOf(figure.state);
    const next = values.slice();
    next[i] = input.valueAsNumber;
    if (!figure.setChecked(kind, next, input, `${kind === "probs" ? "probability" : "logit"} of token ${i + 1}`))
      return;
    figure.syncPreset();
  }

  /** Nothing to draw from the result: the editor shows the state (sync). */
  render() {}
}
