// What a figure's settings become when shared: a query string, a link into the reader, and the
// embed code (a frame and a script tag) a course author pastes. Strings only: the settings are
// escaped for the place they go (URL encoding, HTML attribute quoting), never inserted as markup.

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

// What a host page adds once so that every frame of a figure takes the height it asks for: an
// external script (site/src/frame.js), which a policy without 'unsafe-inline' allows.
export const RESIZER = (base) => `<script src="${escapeHtml(base)}llmmath-frame.js"></script>`;

/**
 * The embed code for figure `name` (its element `tag`) with `settings` (relative to the
 * declared defaults), for the dist/ folder at `base` (a URL ending in "/").
 */
export function embedCode({ name, tag, title, settings, base }) {
  const src = `${base}embed.html?${toQuery([["widget", name], ...settings])}`;
  const attrs = settings.map(([n, v]) => ` ${n}="${escapeHtml(v)}"`).join("");
  return [
    "<!-- As a frame (for platforms that allow only frames): -->",
    `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" sandbox="allow-scripts allow-downloads" width="100%" height="600" style="border:0" loading="lazy"></iframe>`,
    "<!-- Once per page, so that each frame takes the height it needs: -->",
    RESIZER(base),
    "",
    "<!-- Or as a script (for pages that allow scripts; include the script once per page): -->",
    `<script src="${escapeHtml(base)}llmmath-widgets.js"></script>`,
    `<${tag}${attrs}></${tag}>`,
  ].join("\n");
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
