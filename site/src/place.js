// The place in the page that the address names: its fragment up to the figures' settings
// (reader.html#rope?rope.m=3 names "rope"), decoded. Read by the reader's glue (reader.js: the
// place it holds, and the note on a fragment it cannot read), by the kit (starting.js: figures near
// the top wait while that place is still to come), by first-screen.js (the first screen
// starts there) and by drawing.js (no drawing from the build where the address gives settings).

/**
 * { id, bad, settings }: `id` the place's name, "" when the address names none; an escape that
 * does not decode ("#%E0%A4") names none either, and `bad` holds it as given (else null);
 * `settings` the figures' settings after it ("rope.m=3"), "" when there are none.
 */
export function placeInAddress() {
  const [raw, ...rest] = location.hash.slice(1).split("?");
  const settings = rest.join("?");
  try {
    return { id: decodeURIComponent(raw), bad: null, settings };
  } catch {
    return { id: "", bad: raw, settings };
  }
}
