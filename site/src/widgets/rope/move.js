// "Move both" in Figure 3.1: the buttons that shift the query and the key positions together
// (.rope-move; a button is disabled when the move would leave 0 … MAX_POSITION), and the readout
// of the last move (.rope-moved): the positions before and after and the raw score at each, from
// the figure's last move (figure.moved: the shift, and before it m, n and r.now.raw) and the
// result after it (r.state's m and n, r.now.raw); without a move, what moving both does.
import { h, patch } from "../../dom.js";
import { fmt } from "../../format.js";
import { DIGITS, signed } from "./scales.js";

const SHIFTS = [-10, -1, 1, 10, 100, 1000];

/**
 * The moves and their readout: a part of the figure (rope.js) that holds controls, so it is made
 * with the figure whose positions it moves; syncLive(state) enables the moves that can be made,
 * render(r) writes the readout.
 */
export class Move {
  /** @param {import("./rope.js").LlmRope} figure */
  constructor(figure) {
    this.figure = figure;
    this.buttons = SHIFTS.map((shift) =>
      h("button", { type: "button", "data-shift": shift, onclick: () => figure.moveBoth(shift) }, signed(shift)),
    );
    this.readout = h("p", { class: "rope-moved" });
    this.nodes = [
      h(
        "div",
        { class: "controls rope-move", role: "group", "aria-label": "Move both m and n" },
        h("span", {}, "Move both m and n by "),
        this.buttons,
      ),
      this.readout,
    ];
  }

  /** Disables the moves that would take a position out of range, after every change. */
  syncLive() {
    for (const b of this.buttons) b.disabled = !this.figure.canMove(Number(b.dataset.shift));
  }

  /** The last move's positions and raw scores, or what moving both does when there is none. */
  render(r) {
    const moved = this.figure.moved;
    if (!moved) {
      patch(this.readout, "Moving the query and the key together changes both angles but not the score.");
      return;
    }
    const { shift, before } = moved;
    const a = fmt(before.raw, DIGITS),
      b = fmt(r.now.raw, DIGITS);
    patch(
      this.readout,
      `Moved both by ${signed(shift)}: (m, n) = (${before.m}, ${before.n}) → (${r.state.m}, ${r.state.n}); raw score `,
      h("span", { class: "rope-before" }, a),
      " → ",
      h("span", { class: "rope-after" }, b),
      ", ",
      a === b
        ? h("strong", {}, `unchanged to ${DIGITS} decimals.`)
        : "equal in exact arithmetic; the last digits differ by floating-point rounding, which grows with the positions.",
    );
  }
}
