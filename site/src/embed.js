// embed.html's glue, dist/llmmath-embed.js, after llmmath-widgets.js: shows the figure named by
// ?widget= (by its name, or by a name it had before: aliases in figures.js) with the other query
// parameters as its attributes, and its caption from the chapter; tells the parent frame its
// height on load and whenever it changes, in two forms: { type: "llmmath:height", height,
// figure, frame } for llmmath-frame.js (figure: its name; frame: the query's frame=, an id the
// host chose, or null), and { subject: "lti.frameResize", height }, which Canvas, Moodle and
// Sakai act on themselves; and its progress (progress.js) as { type: "llmmath:progress",
// progress, figure, frame }, which llmmath-frame.js hands on to the host's page. Nothing from the
// query is inserted as markup: names are checked against the figures and their declared
// attributes, values are set as attributes, which the widget parses.
import { figureName, figures } from "./widgets/figures.js";
import { namesOf, parseValue, shown, shownNames, VIEW_ATTRIBUTES } from "./kit/attributes.js";
import { addTakeawayActions } from "./takeaway.js";
import { setUpProgress } from "./progress.js";

// The page's note for a frame whose scripts never ran (embed.html, shown by llmmath-embed.css
// after a delay) goes first: from here on, this script says what is wrong itself.
document.getElementById("embed-blocked")?.remove();
const main = document.getElementById("embed");
const message = document.getElementById("embed-message");
const params = new URLSearchParams(location.search);
const given = params.get("widget");
// The figure's name now, whichever of its names the query gave.
const name = figureName(given);
const figure = name === null ? null : figures[name];
// The page's outcome, on its root: data-ready once its figure has drawn, data-failed when it
// cannot draw (no such figure, the figures' script or their engine refused), never both, so that
// a host or a test waiting for either can tell failure from success. A saved copy of this page
// carries the one it had: it is set again.
document.documentElement.removeAttribute("data-ready");
document.documentElement.removeAttribute("data-failed");
// ?scheme=light or dark pins the page around the figure too (the tokens select on the root's
// data-scheme, src/tokens.js); with auto, or a value the figure refuses, the page follows the
// system, and so does the figure on it.
const scheme = parseValue(
  VIEW_ATTRIBUTES.find((d) => d.name === "scheme"),
  params.get("scheme") ?? "",
);
if ("value" in scheme && scheme.value !== "auto")
  document.documentElement.setAttribute("data-scheme", String(scheme.value));
else document.documentElement.removeAttribute("data-scheme");

function say(text) {
  message.textContent = text;
  message.hidden = false;
}

// The host's own name for this frame, given as ?frame=, handed back with every height.
const frameId = params.get("frame");
let posted = 0;

function postHeight() {
  if (window.parent === window) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === posted) return;
  posted = height;
  window.parent.postMessage({ type: "llmmath:height", height, figure: name, frame: frameId }, "*");
  window.parent.postMessage({ subject: "lti.frameResize", height }, "*");
}

if (!figure) {
  say(
    given === null
      ? `No figure named: add ?widget= with one of ${Object.keys(figures).join(", ")}.`
      : `There is no figure “${shown(given)}”. Use ?widget= with one of ${Object.keys(figures).join(", ")}.`,
  );
  document.documentElement.setAttribute("data-failed", "");
} else if (!customElements.get(figure.tag)) {
  // llmmath-widgets.js is missing beside the page, or was refused: no element would ever draw.
  say(
    "The figures' script, llmmath-widgets.js, did not run: it must sit beside embed.html, allowed by the page's policy.",
  );
  document.documentElement.setAttribute("data-failed", "");
} else {
  const cls = /** @type {typeof import("./kit/base.js").LlmWidget | undefined} */ (customElements.get(figure.tag));
  // An attribute's former names (aliases) are settings too: the widget reads them as its name.
  // The view attributes (compact, scheme) are parameters of every figure.
  const declared = new Set([...(cls?.attributes ?? []).flatMap(namesOf), ...VIEW_ATTRIBUTES.map((d) => d.name)]);
  const el = document.createElement(figure.tag);
  el.id = figure.id;
  const unknown = [];
  for (const [key, value] of params) {
    if (key === "widget" || key === "frame") continue;
    if (declared.has(key)) el.setAttribute(key, value);
    else unknown.push(key);
  }
  if (unknown.length) say(`Not settings of the ${name} figure, ignored: ${shownNames(unknown)}.`);
  const wrapper = document.createElement("figure");
  wrapper.append(el);
  const caption = /** @type {HTMLTemplateElement | null} */ (document.getElementById(`caption-${name}`));
  if (caption) wrapper.append(caption.content.cloneNode(true));
  // At the slide size the slide's title names the figure: its caption is kept for screen readers
  // only, so that the frame is the figure's height, which fits under that title.
  if (params.get("compact") === "slide") wrapper.querySelector("figcaption")?.classList.add("visually-hidden");
  // Under the chapter's name (h1), a heading names the figure as its caption does ("Figure 5.1.
  // Speculative decoding"), so a figure's own h3 headings sit one level below it.
  const label = wrapper.querySelector("figcaption strong")?.textContent.trim();
  if (label) document.getElementById("embed-title").textContent = label.replace(/\.$/, "");
  // A copy of this page saved from the browser holds the figure it showed: only the new one stays.
  for (const old of main.querySelectorAll(":scope > figure")) old.remove();
  main.append(wrapper);
  // The frame is there to show this one figure: it draws at once, not when it nears the screen (a
  // sandboxed frame far down its host's page would wait to be seen; a host wanting that marks the
  // frame loading="lazy").
  /** @type {any} */ (el).drawNow();
  addTakeawayActions(el, { caption: wrapper.querySelector("figcaption") });
  // Figure 9.1 alone reports its score as the chapter does (llm-progress, data-progress), and to a
  // host of another origin, which cannot read this page, by a message each time it changes
  // (llmmath-frame.js hands it on as an llm-progress event on the frame).
  document.addEventListener("llm-progress", (event) => {
    if (window.parent !== window)
      window.parent.postMessage(
        { type: "llmmath:progress", progress: /** @type {CustomEvent} */ (event).detail, figure: name, frame: frameId },
        "*",
      );
  });
  setUpProgress();
  // `ready` resolves when the figure has settled, drawn or not: only a figure that drew carries
  // data-ready (one whose engine was refused, or that could not be built, shows why instead).
  Promise.resolve(el.ready).then(() => {
    document.documentElement.setAttribute(el.hasAttribute("data-ready") ? "data-ready" : "data-failed", "");
    postHeight();
  });
}

new ResizeObserver(postHeight).observe(document.documentElement);
addEventListener("load", postHeight);
