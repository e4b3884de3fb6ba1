// Figure 3.1's dials (.rope-dials) under their legend (.rope-legend): one dial per rotation pair,
// with the query's and the key's pair before turning and turned by m·θ and n·θ, captioned with the
// pair's coordinates, its frequency, both angles and its part of the score; the explained pair's
// dial is marked (.selected). From r.state's q, k and pair and r.now's pairs, thetas, angles,
// qRotated, kRotated and pairScores.
import { h, keep, patch, sym } from "../../dom.js";
import { fmt } from "../../format.js";

/** The dials: a part of the figure (rope.js): the nodes it places, and render(r) from compute()'s result. */
export class Dials {
  constructor() {
    this.box = h("div", { class: "rope-dials" });
    this.nodes = [
      h(
        "p",
        { class: "rope-legend", "aria-hidden": "true" },
        h("span", { class: "swatch q" }),
        " query pair, turned by m·θ  ",
        h("span", { class: "swatch k" }),
        " key pair, turned by n·θ  ",
        h("span", { class: "swatch before" }),
        " before turning",
      ),
      this.box,
    ];
  }

  /** The dials are drawn again only when what they show changed. */
  render(r) {
    const { state: s, now } = r;
    patch(
      this.box,
      keep([s.q, s.k, s.pair, now.pairs, now.thetas, now.angles, now.qRotated, now.kRotated, now.pairScores], () =>
        dialsFor(r),
      ),
    );
  }
}

/** A dial per pair: its arrows before and after turning, in one pixel scale, and its caption. */
function dialsFor(r) {
  const { state: s, now } = r;
  const R = 46,
    c = 58,
    S = 116;
  // Pixel scale: |x| + |y| bounds the length of a pair before and after turning.
  let bound = 0;
  for (const [a, b] of now.pairs) for (const v of [s.q, s.k]) bound = Math.max(bound, Math.abs(v[a]) + Math.abs(v[b]));
  const px = bound > 0 ? R / bound : 1;
  const arrow = (x, y, cls) => [
    h("line", { x1: c, y1: c, x2: c + x * px, y2: c - y * px, class: cls }),
    h("circle", { cx: c + x * px, cy: c - y * px, r: cls === "before" ? 2 : cls === "k" ? 5 : 3.5, class: cls }),
  ];
  return now.pairs.map(([a, b], i) =>
    h(
      "figure",
      { class: i === s.pair ? "rope-dial selected" : "rope-dial" },
      h(
        "svg",
        {
          viewBox: `0 0 ${S} ${S}`,
          class: "dial",
          role: "img",
          "aria-label": `Pair ${i}, coordinates ${a} and ${b}: the query turned ${fmt(now.angles[i][0], 4)} radians, the key ${fmt(now.angles[i][1], 4)} radians`,
        },
        h("circle", { cx: c, cy: c, r: R, class: "rim" }),
        h("line", { x1: c - R, x2: c + R, y1: c, y2: c, class: "axis" }),
        h("line", { x1: c, x2: c, y1: c - R, y2: c + R, class: "axis" }),
        arrow(s.k[a], s.k[b], "before"),
        arrow(s.q[a], s.q[b], "before"),
        // The key is drawn wider underneath, so it still shows where the query covers it.
        arrow(now.kRotated[a], now.kRotated[b], "k"),
        arrow(now.qRotated[a], now.qRotated[b], "q"),
      ),
      h(
        "figcaption",
        {},
        h("strong", {}, `pair ${i}`),
        ` (x${a}, x${b})`,
        h("br"),
        sym("θ", i),
        ` = ${fmt(now.thetas[i], 6)}`,
        h("br"),
        h("span", { class: "q" }, `q: ${fmt(now.angles[i][0], 4)} rad`),
        h("br"),
        h("span", { class: "k" }, `k: ${fmt(now.angles[i][1], 4)} rad`),
        h("br"),
        `part: ${fmt(now.pairScores[i], 4)}`,
      ),
    ),
  );
}
