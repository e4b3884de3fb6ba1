// What a reader takes away from a figure, beside its Copy link (reader.js) or alone (embed.js):
//   Download SVG       the figure's picture as it is now: its charts, tables and readouts stacked
//                      in one SVG, with the caption, every colour of the current scheme resolved
//                      and written as an attribute (the widget's styles live in its shadow root
//                      and would not travel), fonts as generic families; <figure-id>.svg
//   Download PNG       the same SVG drawn on a canvas at twice the screen's pixels or more
//                      Where the page cannot tell whether it may save a file (a frame of another
//                      origin, or sandboxed: without allow-downloads the browser refuses the file
//                      and tells the page nothing), the note does not say "Downloaded" and offers
//                      Copy SVG, the picture as text, instead
//   Copy calculation   the worked calculation as plain text: one line per step, list items
//                      numbered, superscripts and subscripts written as ^ and _
//   Copy as NumPy      a Python 3 + NumPy program that recomputes the figure's numbers from its
//                      current inputs: the figure's `numpy` (widgets/<name>/<name>-figure.js, read
//                      through the registry, widgets/figures.js)
// Drawing only: every number in the picture, the text and the program's inputs is the figure's,
// read from what the widget shows (its shadow root) or the state and result it keeps.
//
// The picture is drawn from the layout on screen, from the parts the figure declares as its
// `picture` (widgets/<name>/<name>-figure.js, read through the registry, widgets/figures.js), stacked
// as they stand in the figure: each HTML element of those parts becomes a rectangle (its
// background and borders) and its text runs become <text> at their positions, each SVG chart a
// copy with its computed styles inlined. Nothing is drawn while an exercise hides the figure's
// numbers, or while the figure shows an error (its picture would not match its inputs); the
// figure's panel says why instead.
import { h } from "./dom.js";
import { copyText } from "./share.js";
import { figureOf } from "./widgets/figures.js";

const SVG = "http://www.w3.org/2000/svg";
const PAD = 16; // px around the picture
const GAP = 12; // px between stacked parts
const CAPTION_PX = 13;

// Where a figure writes its calculation out.
const CALCULATION = ".worked, .diagnose-lines";

/**
 * Adds Download SVG, Download PNG, Copy calculation and Copy as NumPy to a widget's action row.
 * `caption`: the figure's caption, an element (a <figcaption>) or text.
 * @param {any} el
 * @param {{ caption?: Element | string | null }} [options]
 */
export function addTakeawayActions(el, { caption } = {}) {
  const name = (ext) => `${el.id || el.localName}.${ext}`;
  el.addActions([
    {
      label: "Download SVG",
      className: "llm-download-svg",
      run: () =>
        whenShown(el, async () => {
          const { svg } = picture(el, caption);
          save(el, new Blob([svg], { type: "image/svg+xml" }), name("svg"), svg);
        }),
    },
    {
      label: "Download PNG",
      className: "llm-download-png",
      run: () =>
        whenShown(el, async () => {
          const shot = picture(el, caption);
          save(el, await rasterize(shot), name("png"), shot.svg);
        }),
    },
    {
      label: "Copy calculation",
      className: "llm-copy-calculation",
      run: () =>
        whenShown(el, async () => {
          const worked = el.shadowRoot?.querySelector(CALCULATION);
          if (!worked || !worked.getClientRects().length) {
            notice(el, "The calculation is not shown yet: it appears once the figure has the answer to write out.");
            return;
          }
          const text = plainText(worked);
          const copied = await copyText(text);
          el.showPanel(
            copied ? "Calculation copied to the clipboard" : "The calculation as text (select and copy)",
            text,
          );
        }),
    },
    {
      label: "Copy as NumPy",
      className: "llm-copy-numpy",
      run: () =>
        whenShown(el, async () => {
          const worked = el.shadowRoot?.querySelector(CALCULATION);
          if (worked && !worked.getClientRects().length) {
            notice(el, "The calculation is not shown yet: the program would give it away.");
            return;
          }
          const code = numpyProgram(el);
          const copied = await copyText(code);
          el.showPanel(
            copied
              ? "Python program copied to the clipboard (it needs only NumPy)"
              : "Python program that recomputes these numbers with NumPy (select and copy)",
            code,
          );
        }),
    },
  ]);
}

/**
 * The figure's NumPy program for its current state and result (its `numpy`, in the registry): what
 * Copy as NumPy gives, and the notebook's code cell for the figure (site/prerender.mjs).
 */
export function numpyProgram(el) {
  const write = figureOf(el.localName)?.numpy;
  if (typeof write !== "function") throw new Error(`no NumPy program for <${el.localName}>`);
  return write(el.state, el.result).replace(/^\n+/, "");
}

/** Runs `action` unless the figure has nothing to take away now; then says why in its panel. */
async function whenShown(el, action) {
  if (!el.result) return notice(el, "The figure has not been drawn yet.");
  if (el.failed) {
    return notice(
      el,
      "The figure still shows its last good numbers, not the inputs now set: correct the input named above first.",
    );
  }
  if (el.hasAttribute("data-predict-first")) {
    return notice(
      el,
      "An exercise asks you to predict a number this figure shows: check a prediction, or press Show the numbers, first.",
    );
  }
  try {
    await action();
  } catch (error) {
    notice(el, `Not done: ${error?.message ?? error}.`);
  }
}

/**
 * A message in the figure's panel, with a Close button, and before it the button of `offer`
 * ({ label, className, run }) where one is given.
 */
function notice(el, text, offer = null) {
  el.panel.replaceChildren(
    h(
      "div",
      { class: "llm-panel-head" },
      h("span", { class: "llm-takeaway-note" }, text),
      offer ? h("button", { type: "button", class: offer.className, onclick: offer.run }, offer.label) : null,
      h("button", { type: "button", onclick: () => (el.panel.hidden = true) }, "Close"),
    ),
  );
  el.panel.hidden = false;
}

/**
 * Saves `blob` as the file `file` where the page may, and says what it knows: "Downloaded" only
 * where nothing can have refused it; elsewhere that the file may not have come, with Copy SVG,
 * which gives `svg` (the same picture) as text to copy.
 */
function save(el, blob, file, svg) {
  const allowed = downloadsAllowed();
  if (allowed !== "no") download(blob, file);
  if (allowed === "yes") return notice(el, `Downloaded ${file}: the figure as it is now, with its caption.`);
  const svgFile = file.replace(/\.png$/, ".svg");
  notice(
    el,
    allowed === "no"
      ? `Not saved: this frame may not save files (its sandbox has no allow-downloads). Copy SVG gives the picture as text, to paste into a file named ${svgFile}.`
      : `Your browser was asked to save ${file}. If no file came, this frame may not save files (a sandbox without allow-downloads): Copy SVG gives the picture as text, to paste into a file named ${svgFile}.`,
    {
      label: "Copy SVG",
      className: "llm-copy-svg",
      run: async () => {
        const copied = await copyText(svg);
        el.showPanel(
          copied
            ? `The picture's SVG copied to the clipboard (paste it into a file named ${svgFile})`
            : `The picture as SVG text (select it, copy it, and paste it into a file named ${svgFile})`,
          svg,
        );
      },
    },
  );
}

/**
 * Whether this page may save a file, as far as it can tell: "yes" on a page of its own (or in
 * frames whose elements it can read, none sandboxed without allow-downloads), "no" when one of
 * those elements is, "unknown" in a frame it cannot read: another origin's, or a sandbox's
 * (whose origin is opaque, "null"), whose flags no script can see, and where a refused download
 * fires nothing (Chromium writes a warning to the console, no more).
 * @returns {"yes" | "no" | "unknown"}
 */
export function downloadsAllowed() {
  /** @type {Window} */
  let w = window;
  while (w.parent !== w) {
    let frame = null;
    try {
      frame = w.frameElement;
    } catch {
      // a window of another origin: its frame element is not ours to read
    }
    if (!frame) return "unknown";
    if (
      frame.hasAttribute("sandbox") &&
      !(/** @type {HTMLIFrameElement} */ (frame).sandbox.contains("allow-downloads"))
    )
      return "no";
    w = w.parent;
  }
  // A page sandboxed by its own server's policy (the sandbox directive) has an opaque origin; so
  // has a page from file://, which may save.
  return self.origin === "null" && location.protocol !== "file:" ? "unknown" : "yes";
}

/** Saves a Blob as a file named `name` (an <a download> on an object URL). */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/** A figure caption's text: the text of a <figcaption> (formulas without their TeX source), or `caption` itself. */
export function captionText(caption) {
  if (!caption) return "";
  if (typeof caption === "string") return caption.replace(/\s+/g, " ").trim();
  const copy = caption.cloneNode(true);
  for (const a of copy.querySelectorAll("annotation, annotation-xml")) a.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

// --- the picture ---------------------------------------------------------------------------

/** The figure's picture as SVG text, with its size in px: { svg, width, height }. */
export function picture(el, caption) {
  const root = el.shadowRoot;
  const selectors = figureOf(el.localName)?.picture ?? [".chart-box"];
  const found = [...root.querySelectorAll(selectors.join(", "))].filter((p) => p.getClientRects().length);
  // A part inside another part is drawn with it.
  const parts = found.filter((p) => !found.some((q) => q !== p && q.contains(p)));
  if (!parts.length) throw new Error("this figure has nothing drawn to export yet");
  const rects = parts.map((p) => p.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const frame = root.querySelector(".llm-frame") ?? el;
  const svg = document.createElementNS(SVG, "svg");
  const body = document.createElementNS(SVG, "g");
  const extent = { right: Math.max(...rects.map((r) => r.right)) - left + PAD };
  let y = PAD;
  parts.forEach((part, i) => {
    drawElement(part, { out: body, ox: left - PAD, oy: rects[i].top - y, opacity: 1, extent });
    y += rects[i].height + GAP;
  });
  const width = Math.ceil(extent.right + PAD);
  const text = captionText(caption);
  const captionEl = caption instanceof Element ? caption : null;
  const captionColor = parseColor(getComputedStyle(captionEl ?? frame).color);
  // The caption's lines, then the settings' lines, so that a picture found alone says what made it.
  const lines = [...wrap(text, width - 2 * PAD, CAPTION_PX), ...wrap(settingsText(el), width - 2 * PAD, CAPTION_PX)];
  const lineHeight = Math.round(CAPTION_PX * 1.45);
  // y is below the last part and a gap: the caption's lines start there.
  const height = Math.ceil((lines.length ? y + lines.length * lineHeight : y - GAP) + PAD);

  set(svg, { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "font-family": "sans-serif" });
  if (text) svg.append(svgEl("title", {}, text));
  svg.append(svgEl("rect", { width, height, ...paint("fill", background(frame)) }), body);
  lines.forEach((line, i) =>
    svg.append(
      svgEl(
        "text",
        {
          x: PAD,
          y: y + (i + 0.7) * lineHeight,
          "font-size": CAPTION_PX,
          ...paint("fill", captionColor),
        },
        line,
      ),
    ),
  );
  return { svg: xmlSafe(new XMLSerializer().serializeToString(svg)), width, height };
}

/**
 * The settings that made the figure's picture, in words: each that differs from the declared
 * defaults as name=value (what embed.html's query takes), from the widget's declarations and
 * state (its settings("defaults")). A printed figure states its settings in its controls' words
 * instead (print.js).
 */
export function settingsText(el) {
  const given = typeof el.settings === "function" ? el.settings("defaults") : [];
  return given.length
    ? `Settings: ${given.map(([name, value]) => `${name}=${value}`).join(", ")}; every other at its default.`
    : "Settings: the figure's defaults.";
}

// What XML 1.0 does not allow in a document, not even escaped (C0 controls but tab, line feed and
// carriage return; U+FFFE, U+FFFF; a surrogate without its pair). XMLSerializer writes them as
// they are, and the file would not parse: each becomes U+FFFD, the replacement character.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** XML text with every character XML 1.0 forbids replaced by U+FFFD. */
export function xmlSafe(text) {
  return text.replace(NOT_XML, "\uFFFD");
}

/** Draws an element of the page and what it holds: boxes, text runs, SVG charts. */
function drawElement(node, ctx) {
  const cs = getComputedStyle(node);
  if (cs.display === "none" || cs.visibility === "hidden" || visuallyHidden(node, cs)) return;
  if (/^(input|select|textarea|button|option)$/.test(node.localName)) return;
  const opacity = ctx.opacity * Number(cs.opacity);
  if (!(opacity > 0)) return;
  if (node.localName === "svg") return drawSvg(node, ctx, opacity);
  const boxes = cs.display === "inline" ? [...node.getClientRects()] : [node.getBoundingClientRect()];
  for (const r of boxes) {
    if (!(r.width > 0 && r.height > 0)) continue;
    const bg = hatch(cs) ?? parseColor(cs.backgroundColor);
    if (bg.a > 0) {
      const rx = parseFloat(cs.borderTopLeftRadius) || 0;
      add(
        ctx,
        "rect",
        {
          x: r.left - ctx.ox,
          y: r.top - ctx.oy,
          width: r.width,
          height: r.height,
          rx: rx || null,
          ...paint("fill", bg, opacity),
        },
        r.right,
      );
    }
    drawBorders(cs, r, ctx, opacity);
  }
  const text = parseColor(cs.color);
  // A line through or under text is drawn by the element that declares it, through its descendants' text.
  const line = cs.textDecorationLine;
  const decoration = /line-through|underline/.test(line)
    ? {
        through: line.includes("line-through"),
        under: line.includes("underline"),
        color: parseColor(cs.textDecorationColor),
      }
    : ctx.decoration;
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) drawText(child, cs, text, { ...ctx, decoration }, opacity);
    else if (child.nodeType === Node.ELEMENT_NODE) drawElement(child, { ...ctx, opacity, decoration });
  }
}

/**
 * A striped background (repeating-linear-gradient: removed or masked entries) as one flat
 * colour: its first visible stripe's, at half strength, about the share the stripes cover.
 */
function hatch(cs) {
  if (!cs.backgroundImage.startsWith("repeating-linear-gradient")) return null;
  const stripe = (cs.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(parseColor).find((c) => c.a > 0);
  return stripe ? { ...stripe, a: stripe.a / 2 } : null;
}

/** The four borders of a box as lines (dashed and dotted as such). */
function drawBorders(cs, r, ctx, opacity) {
  const sides = {
    top: [r.left, r.top, r.right, r.top],
    bottom: [r.left, r.bottom, r.right, r.bottom],
    left: [r.left, r.top, r.left, r.bottom],
    right: [r.right, r.top, r.right, r.bottom],
  };
  for (const [side, [x1, y1, x2, y2]] of Object.entries(sides)) {
    const w = parseFloat(cs.getPropertyValue(`border-${side}-width`)) || 0;
    const style = cs.getPropertyValue(`border-${side}-style`);
    const color = parseColor(cs.getPropertyValue(`border-${side}-color`));
    if (!(w > 0) || style === "none" || style === "hidden" || !(color.a > 0)) continue;
    // The line runs along the middle of the border's strip, inside the box.
    const dx = side === "left" ? w / 2 : side === "right" ? -w / 2 : 0;
    const dy = side === "top" ? w / 2 : side === "bottom" ? -w / 2 : 0;
    add(
      ctx,
      "line",
      {
        x1: x1 + dx - ctx.ox,
        y1: y1 + dy - ctx.oy,
        x2: x2 + dx - ctx.ox,
        y2: y2 + dy - ctx.oy,
        "stroke-width": w,
        "stroke-dasharray": style === "dashed" ? `${3 * w} ${2 * w}` : style === "dotted" ? `${w} ${w}` : null,
        ...paint("stroke", color, opacity),
      },
      Math.max(x1, x2),
    );
  }
}

/** The text of one text node as runs, one per line it occupies, each at its place on screen. */
function drawText(node, cs, color, ctx, opacity) {
  const data = node.data;
  if (!data.trim() || !(color.a > 0)) return;
  const range = document.createRange();
  const runs = [];
  let run = null;
  for (const word of data.matchAll(/\S+/g)) {
    range.setStart(node, word.index);
    range.setEnd(node, word.index + word[0].length);
    const r = range.getBoundingClientRect();
    if (!(r.width > 0)) continue;
    if (run && Math.abs(r.top - run.top) < 2 && r.left >= run.right - 1) {
      run.end = word.index + word[0].length;
      run.right = r.right;
      run.bottom = Math.max(run.bottom, r.bottom);
    } else {
      if (run) runs.push(run);
      run = {
        start: word.index,
        end: word.index + word[0].length,
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
      };
    }
  }
  if (run) runs.push(run);
  const size = parseFloat(cs.fontSize);
  const transform =
    { uppercase: (s) => s.toUpperCase(), lowercase: (s) => s.toLowerCase() }[cs.textTransform] ?? ((s) => s);
  for (const t of runs) {
    const text = transform(data.slice(t.start, t.end).replace(/\s+/g, " "));
    // The baseline sits about a fifth of the font size above the bottom of the glyphs' box.
    add(
      ctx,
      "text",
      {
        x: t.left - ctx.ox,
        y: t.bottom - 0.22 * size - ctx.oy,
        "font-size": round(size),
        "font-family": generic(cs.fontFamily),
        "font-weight": cs.fontWeight === "400" ? null : cs.fontWeight,
        "font-style": cs.fontStyle === "normal" ? null : cs.fontStyle,
        textLength: text.length > 1 ? t.right - t.left : null,
        lengthAdjust: text.length > 1 ? "spacingAndGlyphs" : null,
        ...paint("fill", color, opacity),
      },
      t.right,
      text,
    );
    const d = ctx.decoration;
    for (const [on, y] of [
      [d?.through, (t.top + t.bottom) / 2 + 0.05 * size],
      [d?.under, t.bottom - 0.1 * size],
    ]) {
      if (!on) continue;
      add(
        ctx,
        "line",
        {
          x1: t.left - ctx.ox,
          x2: t.right - ctx.ox,
          y1: y - ctx.oy,
          y2: y - ctx.oy,
          "stroke-width": round(Math.max(1, size / 14)),
          ...paint("stroke", d.color.a > 0 ? d.color : color, opacity),
        },
        t.right,
      );
    }
  }
}

// What an SVG chart's elements take from their styles, written as presentation attributes.
const SVG_PROPS = [
  "fill",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-linecap",
  "stroke-linejoin",
  "font-size",
  "font-weight",
  "font-style",
  "font-family",
  "text-anchor",
  "dominant-baseline",
];

/**
 * A copy of an SVG chart at its place, its computed styles inlined: each property where it
 * differs from the parent's (so that inheritance in the copy gives what the page showed), fill and
 * stroke as rgb() with their alpha folded into fill-opacity and stroke-opacity.
 */
function drawSvg(node, ctx, opacity) {
  const r = node.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0)) return;
  const copy = node.cloneNode(true);
  const from = [node, ...node.querySelectorAll("*")],
    to = [copy, ...copy.querySelectorAll("*")];
  const styles = new Map(from.map((src) => [src, getComputedStyle(src)]));
  from.forEach((src, i) => {
    const dst = to[i];
    for (const a of ["class", "style", "tabindex"]) dst.removeAttribute(a);
    if (src.localName === "title" || src.localName === "desc") return;
    const cs = styles.get(src);
    if (cs.display === "none" || cs.visibility === "hidden") {
      dst.remove();
      return;
    }
    const parent = i === 0 ? null : (styles.get(src.parentElement) ?? null);
    const differs = (p) => !parent || parent.getPropertyValue(p) !== cs.getPropertyValue(p);
    for (const p of SVG_PROPS) {
      if (!differs(p) && !(/^(fill|stroke)$/.test(p) && differs(`${p}-opacity`))) continue;
      let v = cs.getPropertyValue(p);
      if (!v) continue;
      if (p === "fill" || p === "stroke") {
        const c = parseColor(v);
        const alpha = Number(cs.getPropertyValue(`${p}-opacity`) || 1) * (c.rgb ? c.a : 1);
        v = c.rgb ?? v;
        if (alpha < 1 || (parent && differs(`${p}-opacity`))) dst.setAttribute(`${p}-opacity`, String(round(alpha)));
      } else if (p === "font-family") v = generic(v);
      else v = v.replace(/(\d)px\b/g, "$1");
      dst.setAttribute(p, v);
    }
    if (cs.opacity !== "1") dst.setAttribute("opacity", cs.opacity);
  });
  set(copy, { x: r.left - ctx.ox, y: r.top - ctx.oy, width: r.width, height: r.height });
  if (opacity < 1) copy.setAttribute("opacity", String(round(opacity))); // its own and its ancestors'
  ctx.out.append(copy);
  ctx.extent.right = Math.max(ctx.extent.right, r.right - ctx.ox);
}

/** Appends an SVG element to the picture, noting how far right the picture reaches. */
function add(ctx, tag, attrs, right, text) {
  ctx.out.append(svgEl(tag, attrs, text));
  ctx.extent.right = Math.max(ctx.extent.right, right - ctx.ox);
}

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  set(el, attrs);
  if (text !== undefined) el.textContent = text;
  return el;
}

function set(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    el.setAttribute(k, typeof v === "number" ? String(round(v)) : v);
  }
}

const round = (x) => Math.round(x * 100) / 100;

/** fill or stroke attributes for a parsed colour (its alpha, times an opacity, as *-opacity). */
function paint(prop, color, opacity = 1) {
  const a = round(color.a * opacity);
  return { [prop]: color.rgb ?? color.raw, [`${prop}-opacity`]: a < 1 ? a : null };
}

/** A computed colour, "rgb(r, g, b)" or "rgba(r, g, b, a)", as { rgb, a }; anything else as given, opaque. */
function parseColor(value) {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value ?? "");
  if (!m) return { raw: value, a: value && value !== "transparent" ? 1 : 0 };
  const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return { rgb: `rgb(${m[1]}, ${m[2]}, ${m[3]})`, a };
}

/** The colour behind the figure: the first opaque background from its frame outwards. */
function background(frame) {
  for (let n = frame; n; n = n.parentElement ?? n.getRootNode()?.host) {
    const c = parseColor(getComputedStyle(n).backgroundColor);
    if (c.a > 0) return { ...c, a: 1 };
  }
  return { rgb: "rgb(255, 255, 255)", a: 1 };
}

/** A computed font-family as the generic family it stands for. */
function generic(family) {
  const f = family.toLowerCase();
  if (/mono|menlo|consolas|courier/.test(f)) return "monospace";
  if (/sans|system-ui|arial|helvetica|roboto|segoe/.test(f)) return "sans-serif";
  if (/serif|georgia|palatino|iowan|times|book antiqua/.test(f)) return "serif";
  return "sans-serif";
}

// Text that is there for screen readers only (widget.css .visually-hidden: 1 px, clipped).
function visuallyHidden(node, cs) {
  return (
    node.classList.contains("visually-hidden") || (cs.position === "absolute" && /rect\(0(px)?,? 0(px)?/.test(cs.clip))
  );
}

let measure = null;
/**
 * A caption split into lines no wider than `width` px at `px` px (sans-serif); a word wider
 * than a line (a setting's list of numbers) is cut where it reaches the edge.
 */
function wrap(text, width, px) {
  if (!text) return [];
  measure ??= document.createElement("canvas").getContext("2d");
  measure.font = `${px}px sans-serif`;
  const lines = [];
  let line = "";
  const words = text.split(" ").flatMap((word) => {
    if (measure.measureText(word).width <= width) return [word];
    const pieces = [""];
    for (const ch of word) {
      if (pieces.at(-1) && measure.measureText(pieces.at(-1) + ch).width > width) pieces.push("");
      pieces[pieces.length - 1] += ch;
    }
    return pieces;
  });
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The picture drawn on a canvas at the screen's pixel ratio, at least 2, as a PNG Blob. */
async function rasterize({ svg, width, height }) {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const scale = Math.max(2, Math.ceil(globalThis.devicePixelRatio || 1));
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = height * scale;
  const g = canvas.getContext("2d");
  g.scale(scale, scale);
  g.drawImage(img, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the PNG could not be made"))), "image/png"),
  );
}

// --- the calculation as text -----------------------------------------------------------------

const BLOCKS = new Set([
  "p",
  "div",
  "table",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "pre",
  "blockquote",
  "section",
]);

/**
 * An element's text as plain text: blocks and list items on lines of their own (items numbered
 * or dashed, nested ones indented), <sup> as ^x and <sub> as _x (braced when more than a word),
 * text meant only for screen readers left out.
 */
export function plainText(root) {
  const lines = [];
  let line = "";
  let fresh = true; // at the start of a line: leading spaces are dropped
  const text = (s) => {
    if (fresh) s = s.replace(/^\s+/, "");
    if (!s) return;
    line += s;
    fresh = false;
  };
  const newline = (prefix = "") => {
    if (line.trim()) lines.push(line.replace(/\s+$/, ""));
    line = prefix;
    fresh = true;
  };
  const skipped = (n) => n.hidden || n.classList.contains("visually-hidden") || getComputedStyle(n).display === "none";
  const inline = (n) => {
    const out = [];
    const walkInline = (m) => {
      for (const c of m.childNodes) {
        if (c.nodeType === Node.TEXT_NODE) out.push(c.data);
        else if (c.nodeType === Node.ELEMENT_NODE && !skipped(c)) walkInline(c);
      }
    };
    walkInline(n);
    return out.join("").replace(/\s+/g, " ").trim();
  };
  const walk = (n, depth) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) {
        text(c.data.replace(/\s+/g, " "));
        continue;
      }
      if (c.nodeType !== Node.ELEMENT_NODE || skipped(c)) continue;
      const tag = c.localName;
      if (tag === "br") newline();
      else if (tag === "sup" || tag === "sub") {
        const inner = inline(c);
        text(`${tag === "sup" ? "^" : "_"}${/^[A-Za-z0-9.]+$/.test(inner) ? inner : `{${inner}}`}`);
      } else if (tag === "ul" || tag === "ol") {
        newline();
        walk(c, depth + 1);
        newline();
      } else if (tag === "li") {
        const list = c.parentElement;
        const items = [...list.children].filter((x) => x.localName === "li");
        const start = list.localName === "ol" ? Number(list.getAttribute("start") ?? 1) : 0;
        newline(
          `${"  ".repeat(Math.max(depth - 1, 0))}${list.localName === "ol" ? `${start + items.indexOf(c)}. ` : "- "}`,
        );
        walk(c, depth);
        newline();
      } else if (BLOCKS.has(tag)) {
        newline();
        walk(c, depth);
        newline();
      } else walk(c, depth);
    }
  };
  walk(root, 0);
  newline();
  return lines.join("\n");
}
