// Figure 3.1's calculation (.worked) under its menu of pairs (.explain), with the current
// numbers: for the explained pair (r.state.pair), its frequency (r.now.thetas, from the base or
// given: r.state's useFreqs, base and d), the angles of the query at m and the key at n
// (r.now.angles), both pairs turned (r.now's pairs, qRotated and kRotated, from r.state's q and
// k) and its part of the score (r.now.pairScores); then the sum over the pairs, raw and scaled
// (r.now's raw and scaled), and the same raw score with the query at the offset and the key at 0
// (r.shifted).
import { fill, h, patch, sym } from "../../dom.js";
import { fmt, fmtVec, grouped } from "../../format.js";
import { choice } from "../../kit/controls.js";
import { DIGITS } from "./scales.js";

/**
 * The calculation and the pair it explains: a part of the figure (rope.js) that holds a control,
 * so it is made with the figure whose state it sets; sync(state) lists the pairs, render(r)
 * writes the calculation.
 */
export class Calculation {
  /** @param {import("./rope.js").LlmRope} figure */
  constructor(figure) {
    this.pairChoice = choice({
      label: "Explain the calculation for pair",
      value: "0",
      options: [["0", "0"]],
      onchange: (i) => figure.set({ pair: Number(i) }),
    });
    this.worked = h("div", { class: "worked" });
    this.nodes = [h("div", { class: "controls explain" }, this.pairChoice.row), this.worked];
  }

  /** One option per pair of the dimension, the explained one chosen. */
  sync(s) {
    fill(
      this.pairChoice.select,
      Array.from({ length: s.d / 2 }, (_, i) => h("option", { value: i }, String(i))),
    );
    this.pairChoice.select.value = String(s.pair);
  }

  /** The calculation for the selected pair, then the sum over pairs, with the current numbers. */
  render(r) {
    const { state: s, now, shifted } = r;
    const i = s.pair;
    const [a, b] = now.pairs[i];
    const theta = now.thetas[i];
    const [am, an] = now.angles[i];
    const cos = (t) => `cos ${fmt(t, 6)}`,
      sin = (t) => `sin ${fmt(t, 6)}`;
    const turn = (name, v, rot, t) =>
      h(
        "li",
        {},
        sym(name),
        ` pair (${fmt(v[a])}, ${fmt(v[b])}) → `,
        `(${fmt(v[a])}·${cos(t)} − ${fmt(v[b])}·${sin(t)}, ${fmt(v[a])}·${sin(t)} + ${fmt(v[b])}·${cos(t)}) = `,
        h("strong", {}, `(${fmt(rot[a], DIGITS)}, ${fmt(rot[b], DIGITS)})`),
      );
    const d = s.d;

    const steps = h(
      "ol",
      {},
      h(
        "li",
        {},
        h("strong", {}, "Frequency. "),
        s.useFreqs
          ? ["Given: ", sym("θ", i), ` = ${fmt(theta, 10)} rad per position.`]
          : [
              sym("θ", i),
              " = base",
              h("sup", {}, "−2i/d"),
              ` = ${grouped(s.base)}`,
              h("sup", {}, `−2·${i}/${d}`),
              ` = ${fmt(theta, 10)} rad per position.`,
            ],
      ),
      h(
        "li",
        {},
        h("strong", {}, "Angles. "),
        `The query at m = ${s.m} turns by m·`,
        sym("θ", i),
        ` = ${s.m} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(am, 10)} rad`),
        `; the key at n = ${s.n} by n·`,
        sym("θ", i),
        ` = ${s.n} × ${fmt(theta, 10)} = `,
        h("strong", {}, `${fmt(an, 10)} rad`),
        ".",
      ),
      h(
        "li",
        {},
        h("strong", {}, "Rotation. "),
        `Pair ${i} is coordinates ${a} and ${b}; (x, y) turned by α is (x cos α − y sin α, x sin α + y cos α):`,
        h("ul", {}, turn("q", s.q, now.qRotated, am), turn("k", s.k, now.kRotated, an)),
      ),
      h(
        "li",
        {},
        h("strong", {}, "This pair's part. "),
        `${fmt(now.qRotated[a], DIGITS)}·${fmt(now.kRotated[a], DIGITS)} + ${fmt(now.qRotated[b], DIGITS)}·${fmt(now.kRotated[b], DIGITS)} = `,
        h("strong", {}, fmt(now.pairScores[i], DIGITS)),
      ),
      h(
        "li",
        {},
        h("strong", {}, "Sum over the pairs. "),
        "raw = ",
        now.pairScores.map((p) => fmt(p, DIGITS)).join(" + "),
        " = ",
        h("strong", { class: "rope-raw" }, fmt(now.raw, DIGITS)),
        "; divided by √",
        h("var", {}, "d"),
        ` = √${d}: `,
        h("strong", { class: "rope-scaled" }, fmt(now.scaled, DIGITS)),
        ".",
      ),
      h(
        "li",
        {},
        h("strong", {}, "Only the offset counts. "),
        `The same q and k with the query at m − n = ${String(now.offset)} and the key at 0 give raw = `,
        h("span", { class: "rope-shifted" }, fmt(shifted.raw, DIGITS)),
        `: the pair-${i} angles are then ${fmt(shifted.angles[i][0], 10)} and 0 rad, the same gap between query and key.`,
      ),
    );
    patch(this.worked, h("p", {}, `Pair ${i} of q = ${fmtVec(s.q)} and k = ${fmtVec(s.k)}:`), steps);
  }
}
