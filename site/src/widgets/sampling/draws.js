// Figure 2.1's draws (.sampling-draws): the seed, "New seed" and the number of draws, each
// setting one attribute, then the prompt continued by each seeded draw (.sampling-drawlist), the
// most probable token marked, and a note on replaying them; from r.draws, r.draw (seed, count;
// null when draws="off" hides the panel), r.full.order, r.opts.temperature and r.state's prompt
// and labels.
import { h, patch } from "../../dom.js";
import { numberField } from "../../kit/controls.js";
import { MAX_DRAWS, SEED_RANGE } from "./attributes.js";

/**
 * The seeded draws and their settings: a part of the figure (sampling.js) that holds controls, so
 * it is made with the figure whose state it sets; sync(state) sets them, render(r) writes the draws.
 */
export class Draws {
  /**
   * @param {import("./sampling.js").LlmSampling} figure
   * @param {string} id the figure's unique id, which the fields' ids extend
   */
  constructor(figure, id) {
    this.figure = figure;
    this.seed = numberField({
      label: "Seed",
      id: `${id}-seed`,
      min: 0,
      max: SEED_RANGE - 1,
      step: 1,
      value: figure.state.seed,
      oninput: (seed) => figure.set({ seed }),
    });
    this.count = numberField({
      label: "Draws",
      id: `${id}-count`,
      min: 1,
      max: MAX_DRAWS,
      step: 1,
      value: figure.state.count,
      oninput: (count, input) => figure.setChecked("count", count, input),
    });
    this.drawList = h("ol", { class: "sampling-drawlist" });
    this.drawNote = h("p", { class: "hint" });
    this.panel = h(
      "div",
      { class: "sampling-draws" },
      h("p", { class: "sampling-sub" }, "Draws"),
      h(
        "div",
        { class: "controls" },
        this.seed.row,
        h("button", { type: "button", class: "sampling-newseed", onclick: () => this.newSeed() }, "New seed"),
        this.count.row,
      ),
      this.drawList,
      this.drawNote,
    );
    this.nodes = [this.panel];
  }

  newSeed() {
    // Choosing a seed is not part of the mathematics; the draws themselves come from the core.
    this.figure.set({ seed: Math.floor(Math.random() * SEED_RANGE) }, { sync: true });
  }

  /** Sets the seed and the count from the state; draws="off" hides the panel. */
  sync(s) {
    this.seed.input.value = String(s.seed);
    this.count.input.value = String(s.count);
    this.panel.hidden = s.draws === "off";
  }

  /** The prompt continued by each draw; with the draws off, the hidden panel keeps what it had. */
  render(r) {
    if (!r.draw) return;
    const { draws, draw, full, state } = r;
    patch(
      this.drawList,
      draws.map((t) =>
        h(
          "li",
          { class: full.order[0] === t ? "top" : null },
          h("span", { class: "sampling-prompt-text" }, state.prompt),
          h("strong", { class: "sampling-drawn" }, state.labels[t]),
        ),
      ),
    );
    patch(
      this.drawNote,
      r.opts.temperature === 0
        ? `At T = 0 every draw is the most probable token, whatever the seed: repeatable, but no check of the facts.`
        : `Seed ${draw.seed} replays exactly these ${draw.count} draws; another seed gives another mix.`,
    );
  }
}
