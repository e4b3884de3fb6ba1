// The chapter's icon, for the web app manifest (an installed chapter's icon on a home screen or
// in a launcher): a causal attention map, four tokens by four, each row shaded by how much its
// token attends to each earlier one, the cells above the diagonal greyed out by the mask. It is
// declared once, as squares on a 100 × 100 canvas, and written two ways: as SVG (icon.svg, any
// size) and as PNG at the sizes launchers ask for (icon-192.png, icon-512.png), which the build
// draws here from the same squares (nothing else draws PNGs; zlib writes the file).
// The canvas is painted to its edges and every cell lies inside the central circle of radius 40
// that a launcher's mask (a circle, a rounded square) always keeps, so the PNGs serve as maskable.
import { deflateSync, crc32 } from "node:zlib";
import { colour } from "./src/tokens.js";

const SIDE = 100;
const CELLS = 4;
const GRID = { from: 22, size: 56, gap: 2 }; // the corners at √2 · 28 ≈ 39.6 from the centre
// How strongly row i attends to column j (a picture, not a computation: each row sums to 1).
const WEIGHTS = [[1], [0.55, 0.45], [0.2, 0.3, 0.5], [0.1, 0.2, 0.25, 0.45]];

/** The icon as squares: { x, y, size, fill: [r, g, b] }, back to front. */
function squares() {
  const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const bg = hex(colour("bg", "light"));
  const masked = hex(colour("rule", "light"));
  const heat = colour("heat", "light").split(",").map(Number);
  // a weight w shows as the heat colour at opacity w (at least 0.15, so that a cell is seen) on the background
  const shade = (w) => heat.map((c, k) => Math.round(bg[k] + (c - bg[k]) * Math.max(0.15, w)));
  const cell = (GRID.size - GRID.gap * (CELLS - 1)) / CELLS;
  const out = [{ x: 0, y: 0, size: SIDE, fill: bg }];
  for (let i = 0; i < CELLS; i += 1)
    for (let j = 0; j < CELLS; j += 1)
      out.push({
        x: GRID.from + j * (cell + GRID.gap),
        y: GRID.from + i * (cell + GRID.gap),
        size: cell,
        fill: j <= i ? shade(WEIGHTS[i][j]) : masked,
      });
  return out;
}

/** The icon as an SVG document. */
export function iconSvg() {
  const rgb = ([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
  const rects = squares()
    .map(
      (s) =>
        `  <rect x="${+s.x.toFixed(3)}" y="${+s.y.toFixed(3)}" width="${+s.size.toFixed(3)}" height="${+s.size.toFixed(3)}" fill="${rgb(s.fill)}"/>`,
    )
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIDE} ${SIDE}">\n${rects}\n</svg>\n`;
}

/**
 * The icon as a PNG of `px` × `px` (8-bit RGB): each pixel the mean of 4 × 4 samples, so that
 * the cells' edges, which fall between pixels, are smooth.
 */
export function iconPng(px) {
  const list = squares();
  const SAMPLES = 4;
  const scale = SIDE / px;
  const row = 1 + px * 3; // a filter byte (0: none), then the pixels
  const raw = Buffer.alloc(row * px);
  for (let y = 0; y < px; y += 1) {
    for (let x = 0; x < px; x += 1) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1)
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const u = (x + (sx + 0.5) / SAMPLES) * scale;
          const v = (y + (sy + 0.5) / SAMPLES) * scale;
          let fill = list[0].fill;
          for (const s of list) if (u >= s.x && u < s.x + s.size && v >= s.y && v < s.y + s.size) fill = s.fill;
          for (let k = 0; k < 3; k += 1) sum[k] += fill[k];
        }
      for (let k = 0; k < 3; k += 1) raw[y * row + 1 + x * 3 + k] = Math.round(sum[k] / (SAMPLES * SAMPLES));
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(px, 0);
  header.writeUInt32BE(px, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method beyond 0, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The PNG sizes launchers ask for (Android's 192 and 512 px). */
export const PNG_SIZES = [192, 512];
