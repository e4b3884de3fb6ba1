// The registry of the figures: each figure a page can show on its own, by name. The name is the
// figure's element without "llm-" (<llm-context-dilution> is context-dilution): the `?widget=` of
// embed.html and the prefix of the figure's settings in the reader's URL (context-dilution.…).
// Everything that needs to know the figures reads them here: the build (embed.html's
// captions, the guide's tables and names), the reader's and embed.html's glue (links, embed code,
// take-away), the kit and the exercises, and every test (tests/browser/registry.js).
//
// A figure owns its facets, and its files are in its own folder, <name>/ beside this file: its
// widget, its styles, its presets if any, and its declaration, where each facet is declared once:
//   <name>-figure.js   the figure: its element (tag), its widget's file (module: the file in
//                      its folder that exports the element's class, and those of its exercise,
//                      as `widgets`; index.js registers every figure's), its id on the reader,
//                      its section, the names it had before (aliases, optional: old links and
//                      frames that name the figure by one still find it; new ones are written
//                      with the name), and its facets:
//     picture          selectors (in its shadow root) of the parts that make its picture: its
//                      charts and tables with the readouts that name their numbers, not its
//                      controls (Download SVG and PNG, site/src/takeaway.js)
//     conceals         for a figure an exercise uses: selectors of the readouts that state the
//                      exercise's answer, held back until the reader commits a prediction
//                      (site/src/kit/answer.js); [] when the figure states none
//     title            what it shows, in words that mean something outside the chapter (not
//                      "Figure 2.1"): the title of its frame in embed code
//     frameHeight      the height of its frame page (embed.html) with every default, in px, at
//                      800 and 360 px wide, full and compact: { full: { 800, 360 }, compact:
//                      { 800, 360 } } (measured by tests/browser/heights.js; frame-height.test.js
//                      keeps it within 10%): the frame's height in embed code and in the guide
//                      before the frame reports its own
//     compact          what the view attribute compact (attributes.js) leaves out, to keep the
//                      chart and the main controls: { leaves: those parts in words, for the
//                      guide; hides: their selectors within the figure's frame (.llm-frame), "> …"
//                      for its rows } (frame.js hides them and the kit's actions)
//     numpy            its NumPy program: a function (state, result) → text of the widget's
//                      state and result, written with site/src/numpy.js's helpers (Copy as
//                      NumPy, takeaway.js; called only once the widget has a result)
//   and, its file's second export, its `trial`: what the tests do with the figure in every browser
//   (tests/browser/registry.js reads it; no page imports it, so the bundles leave it out):
//     control          the selector of the control a reader moves first (Firefox, WebKit: one
//                      step by keyboard)
//     change           a change of its state, as its controls would make it (take-away: its
//                      program is run before and after)
//     prints           result → what its NumPy program prints, by name (the reference's)
//     readouts         { selector, values }: numbers it shows, and printed → those numbers, in
//                      order (checked at their rounding, and looked for in its picture)
//     pictured         the selector of numbers its picture must carry
//     engine           { shown, core, tol }: shown(shadow root) reads numbers it shows; core(element,
//                      engine) asks a fresh engine for them; tol, half the last decimal shown
//                      (WebKit: after the control's move)
//   A new figure thereby needs no line in any test: each test goes through the registry.
// The figure files import only site/src/numpy.js (its helpers, and through it the reference's
// definitions, reference/definitions.js, which the build fills in) and attributes.js's pure
// functions, never a widget: so the pages' glue, the build and the tests read the registry
// without loading any widget or DOM, in Node too (site/build.mjs bundles it with esbuild and the
// reference's table; the tests, through tests/browser/registry.js, with the empty stand-in,
// enough for everything but writing a program). The kit (base.js) marks every figure's element with its
// name, data-figure="<name>": page styles select figures by that attribute, never by a list of
// tags.
import { attention } from "./attention/attention-figure.js";
import { contextDilution } from "./context-dilution/context-dilution-figure.js";
import { sampling } from "./sampling/sampling-figure.js";
import { rope } from "./rope/rope-figure.js";
import { cost } from "./cost/cost-figure.js";
import { model } from "./model/model-figure.js";
import { speculative } from "./speculative/speculative-figure.js";
import { alibi } from "./alibi/alibi-figure.js";
import { quantization } from "./quantization/quantization-figure.js";
import { moe } from "./moe/moe-figure.js";
import { diagnose } from "./diagnose/diagnose-figure.js";

export const figures = {
  attention,
  "context-dilution": contextDilution,
  sampling,
  rope,
  cost,
  model,
  speculative,
  alibi,
  quantization,
  moe,
  diagnose,
};

/**
 * The name of the figure a link or query names, by its name or a former one (aliases): "dilution"
 * → "context-dilution"; null for any other string. Own keys only ("constructor" is none).
 */
export function figureName(name) {
  if (typeof name !== "string") return null;
  if (Object.hasOwn(figures, name)) return name;
  return Object.keys(figures).find((n) => figures[n].aliases?.includes(name)) ?? null;
}

/** The figure a link or query names, by its name or a former one, or null. */
export function figureNamed(name) {
  const own = figureName(name);
  return own === null ? null : figures[own];
}

const byTag = new Map(Object.entries(figures).map(([name, f]) => [f.tag, { name, figure: f }]));

/** The figure an element `tag` draws ("llm-rope" → figures.rope), or null. */
export function figureOf(tag) {
  return byTag.get(tag)?.figure ?? null;
}

/** The name of the figure an element `tag` draws ("llm-context-dilution" → "context-dilution"), or null. */
export function figureNameOf(tag) {
  return byTag.get(tag)?.name ?? null;
}
