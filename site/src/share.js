// What a figure's settings become when shared: a query string, a link into the reader, and the
// embed code (a frame and a script tag) a course author pastes. Strings only: the settings are
// escaped for the place they go (URL encoding, HTML attribute quoting), never inserted as markup.
import { SLIDE_HEIGHT } from "./kit/attributes.js";

/** [[name, value], …] → "name=value&…" (URL-encoded), with an optional "prefix." on each name. */
export function toQuery(settings, prefix = "") {
  const q = new URLSearchParams();
  for (const [name, value] of settings) q.append(prefix ? `${prefix}.${name}` : name, value);
  return q.toString();
}

/** Escapes text for a double-quoted HTML attribute or element content. */
export function escapeHtml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// A frame of a figure at the slide size (compact="slide"): the figure at its most, SLIDE_HEIGHT,
// and embed.html's padding above and below it (0.75rem each, embed.css), with the caption out of
// sight (the slide's title names the figure).
const SLIDE_FRAME_HEIGHT = SLIDE_HEIGHT + 24;

// What a host page adds once so that every frame of a figure takes the height it asks for: an
// external script (site/src/frame.js), which a policy without 'unsafe-inline' allows.
export const RESIZER = (base) => `<script src="${escapeHtml(base)}llmmath-frame.js"></script>`;

/**
 * The embed code for a figure (its registry entry `figure`, by `name`) with `settings` (relative
 * to the declared defaults, [[attribute, value], …]) and `view` (the view attributes that differ
 * from theirs, the same form), in its two forms, each to paste on its own (a page given both
 * shows the figure twice). The addresses are relative: they find the edition's files (dist/)
 * beside the course page, or under `base` ("" or a folder ending in "/").
 *   frame   an <iframe> of embed.html with the figure's own title and its declared height at
 *           800 px wide, then the resizer script, once per page (it also drops the frame's border)
 *   script  the widgets' script, once per page, then the element
 * `inline`: a figure's data too long for an attribute (a configuration), carried by the script
 * form as the element's <script type="application/json"> child; the frame form says it cannot.
 */
export function embedCode({ name, figure, settings, view = [], base = "", inline = null }) {
  const all = [...settings, ...view];
  const src = `${base}embed.html?${toQuery([["widget", name], ...all])}`.replace(/=(?=&|$)/g, "");
  const compact = view.find(([n]) => n === "compact")?.[1];
  const height =
    compact === "slide"
      ? SLIDE_FRAME_HEIGHT
      : figure.frameHeight[compact === undefined || compact === "false" ? "full" : "compact"][800];
  const attrs = all.map(([n, v]) => (v === "" ? ` ${n}` : ` ${n}="${escapeHtml(v)}"`)).join("");
  // Data too long for an address (a model's config.json) goes inside the element, as JSON whose
  // "<" is escaped so that no "</script" can end it early; a frame cannot carry it.
  const child = inline === null ? "" : `<script type="application/json">${inline.replace(/</g, "\\u003c")}</script>`;
  return {
    frame: [
      ...(inline === null
        ? []
        : [
            `<!-- This figure's data is too long for a frame's address: the frame asks for it (paste the file into the figure), or use the script form, which carries it. -->`,
          ]),
      `<iframe src="${escapeHtml(src)}" title="${escapeHtml(figure.title)}" sandbox="allow-scripts allow-downloads" width="100%" height="${height}" loading="lazy"></iframe>`,
      `<!-- once per page, so that each frame takes the height its figure needs: -->`,
      RESIZER(base),
    ].join("\n"),
    script: [
      `<!-- once per page: -->`,
      `<script src="${escapeHtml(base)}llmmath-widgets.js"></script>`,
      `<${figure.tag}${attrs}>${child}</${figure.tag}>`,
    ].join("\n"),
  };
}

/** Copies text to the clipboard when the browser allows; resolves to whether it did. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
