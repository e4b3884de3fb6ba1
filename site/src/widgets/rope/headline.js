// Figure 3.1's headline (.headline): the score q̃·k̃/√d at the positions (.rope-scaled), the raw
// score q̃·k̃ (.rope-raw) and the offset m − n, from r.state's m and n and r.now's scaled, raw and
// offset.
import { h, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";
import { DIGITS } from "./scales.js";

/** The headline: a part of the figure (rope.js): the nodes it places, and render(r) from compute()'s result. */
export class Headline {
  constructor() {
    this.box = h("p", { class: "headline" });
    this.nodes = [this.box];
  }

  render({ state: s, now }) {
    patch(
      this.box,
      "Score ",
      sym("q̃"),
      "·",
      sym("k̃"),
      "/√",
      h("var", {}, "d"),
      ` at m = ${s.m}, n = ${s.n}: `,
      h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)),
      " (raw ",
      sym("q̃"),
      "·",
      sym("k̃"),
      " = ",
      h("span", { class: "rope-raw" }, fmt(now.raw, DIGITS)),
      `), offset m − n = ${String(now.offset)}.`,
    );
  }
}
