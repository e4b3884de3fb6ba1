// Which model Figure 4.2 reads (.model-input): a built-in model from the list, or a config.json
// pasted or typed in the text box, dropped on the figure or opened, read by the core at once
// (modelFromConfigText). A fault (JSON's line and column, or a field the core refuses) is shown
// under the text while the last good model stays drawn. What it reads becomes the figure's state
// (model, config), or the figure's `pasted` when it is too large for a link; it draws the link's
// note from the figure (tooLarge, lastModel) and the text box from the figure's source().
import { h } from "../../dom.js";
import { grouped } from "../../format.js";
import { choice, markInvalid, markSettings } from "../../kit/controls.js";
import { modelPresets } from "llmmath:model-presets";
import { CONFIG_MAX, DEFAULT_MODEL, presetById } from "./attributes.js";

/**
 * The model list and the config.json reader: a part of the figure (model.js) that holds controls,
 * so it is made with the figure whose state it sets; render(r) draws the link's note.
 */
export class ConfigInput {
  /**
   * @param {import("./model.js").LlmModel} figure
   * @param {string} id the figure's unique prefix for its ids
   */
  constructor(figure, id) {
    this.figure = figure;
    const ids = { text: `${id}-text`, file: `${id}-file` };
    this.modelChoice = choice({
      label: "Model",
      value: DEFAULT_MODEL,
      onchange: (key) => this.pickModel(key),
      options: [...modelPresets.map((p) => [p.id, p.name]), ["custom", "Your configuration"]],
    });
    /** @type {HTMLOptionElement} */ (this.modelChoice.select.lastElementChild).disabled = true;
    markSettings({ model: this.modelChoice.select });
    this.text = h("textarea", {
      id: ids.text,
      class: "model-text",
      rows: 8,
      spellcheck: "false",
      autocomplete: "off",
      "aria-describedby": `${id}-text-hint ${id}-message`,
      oninput: () => this.readText(this.text.value),
    });
    this.fileInput = h("input", {
      type: "file",
      id: ids.file,
      accept: ".json,application/json",
      class: "model-file",
      onchange: () => this.readFile(this.fileInput.files?.[0]),
    });
    this.message = h("p", { class: "model-message", id: `${id}-message` });
    this.linkNote = h("p", { class: "hint model-link-note", hidden: true });
    this.nodes = [
      h(
        "div",
        { class: "model-input" },
        h("div", { class: "controls" }, this.modelChoice.row),
        h(
          "div",
          { class: "model-paste" },
          h("label", { for: ids.text }, "config.json"),
          this.text,
          h(
            "p",
            { class: "hint", id: `${id}-text-hint` },
            "Paste a model's config.json here, drop the file on the figure, or open it: it is read in your browser and sent nowhere.",
          ),
          h(
            "div",
            { class: "controls" },
            h("label", { for: ids.file, class: "model-file-label" }, "Open a config.json file"),
            this.fileInput,
          ),
          this.message,
          this.linkNote,
        ),
      ),
    ];
    // A file dropped anywhere on the figure is read as a pasted one.
    figure.addEventListener("dragover", (e) => {
      if (!e.dataTransfer?.types?.includes("Files")) return;
      e.preventDefault();
      figure.frame.classList.add("model-dropping");
    });
    figure.addEventListener("dragleave", () => figure.frame.classList.remove("model-dropping"));
    figure.addEventListener("drop", (e) => {
      const file = e.dataTransfer?.files?.[0];
      figure.frame.classList.remove("model-dropping");
      if (!file) return;
      e.preventDefault();
      this.readFile(file);
    });
  }

  /** A built-in model: its file, read by the core; the context and the rest stay as they were. */
  pickModel(key) {
    if (!presetById(key)) return;
    this.figure.pasted = null;
    this.figure.lastModel = key;
    this.figure.set({ model: key, config: "" }, { sync: true });
    this.capToModel();
  }

  /**
   * After the reader picks or pastes a model: a context past its limit (the core's beyondContext,
   * which compute() answers by costing the limit) becomes the limit, in the state and the link.
   */
  capToModel() {
    const r = this.figure.result;
    if (r?.asked !== undefined) this.figure.set({ tokens: r.opts.tokens }, { sync: true });
  }

  /**
   * A pasted or typed configuration: read by the core at once. A fault (JSON's line and column,
   * or a field the core refuses) is shown under the text and the last good model stays drawn;
   * a good one becomes the figure's, in the link when it is small enough.
   */
  readText(text) {
    const figure = this.figure;
    if (!figure.core) return;
    // a byte-order mark (a file saved by some Windows editors): not part of the JSON, which
    // JSON.parse would refuse, nor of the link
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const key = `text:${text}`;
    let shape;
    try {
      shape = figure.memo("shape", [key], () => figure.core.modelFromConfigText(text));
    } catch (error) {
      this.configError(error?.message ?? String(error));
      return;
    }
    this.configError(null);
    // The text read as the core accepted it, written without spaces, for the link (formatting).
    const compact = JSON.stringify(JSON.parse(text));
    if (compact.length <= CONFIG_MAX) {
      figure.pasted = null;
      figure.memo("shape", [`config:${compact}`], () => shape);
      figure.set({ model: "custom", config: compact }, { sync: true });
    } else {
      figure.pastedVersion += 1;
      figure.pasted = { text, version: figure.pastedVersion };
      figure.memo("shape", [`pasted:${figure.pastedVersion}`], () => shape);
      figure.set({ model: "custom", config: "" }, { sync: true });
    }
    this.capToModel();
  }

  /** A dropped or opened file: its text, read as a pasted one, shown in the text box. */
  async readFile(file) {
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.configError(`${file.name} could not be read: ${error?.message ?? error}`);
      return;
    }
    this.text.value = text;
    this.readText(text);
  }

  /** Shows the core's message about the text (null clears it) in the figure and its status line. */
  configError(message) {
    this.message.textContent = message ? `Not read: ${message}. The figure still shows the last model read.` : "";
    this.message.classList.toggle("llm-error", Boolean(message));
    markInvalid(this.text, Boolean(message));
    if (message) this.figure.showError(`Not updated: ${message}.`);
    else if (this.figure.failed) this.figure.clearError();
  }

  /** Sets the list and the text box from the state: the box shows the configuration shown. */
  sync(s) {
    this.modelChoice.select.value = s.model;
    // The text box shows the configuration shown, unless the reader is typing in it.
    const source = this.figure.source();
    if (this.figure.shadowRoot.activeElement !== this.text && source.kind !== "pasted") {
      if (source.kind === "config") {
        // The reader's own text stays as they wrote it when it is the one the state carries.
        let same;
        try {
          same = JSON.stringify(JSON.parse(this.text.value)) === s.config;
        } catch {
          same = false;
        }
        if (!same) this.text.value = s.config;
      } else if (source.kind !== "pasted") this.text.value = source.text;
    }
  }

  /** The link's note: shown while the figure holds a pasted configuration too large for a link. */
  render() {
    const figure = this.figure;
    this.linkNote.hidden = !figure.tooLarge();
    this.linkNote.textContent = figure.tooLarge()
      ? `This configuration is longer than the ${grouped(CONFIG_MAX)} characters a link carries: Copy link names ${presetById(figure.lastModel)?.name ?? figure.lastModel} instead, and the figure there shows that built-in model; Copy embed code carries it (the script form).`
      : "";
  }
}
