// llmmath-frame.js: the host page's side of a framed figure. A page that frames embed.html
// includes it once, as an external script (<script src="llmmath-frame.js"></script>, allowed by a
// policy such as default-src 'self', which blocks an inline listener), and every frame of ours on
// the page takes the height its figure asks for, as the reader changes it.
//
// It acts only on a message { type: "llmmath:height", height, figure, frame } that comes from the
// window of one of the page's <iframe>s whose address is an embed.html, from that address's own
// origin (the opaque "null" of a frame sandboxed without allow-same-origin, or of a file), and
// only on a finite height above 0, capped at MAX_HEIGHT: another frame on the page (an
// advertisement, a video) cannot resize itself, or anything else, through it, nor can the page a
// frame of ours was sent to (its src still names embed.html; its messages carry another origin).
// Within an opaque origin the sender cannot be told apart: a sandboxed frame sent elsewhere, to
// another sandboxed document, could still ask for a height (capped as above). The frame it sized gets
// no border and data-llmmath-figure (the figure's name) so that a host's styles can tell the figures apart.
// embed.html also posts { subject: "lti.frameResize", height }, which learning platforms (Canvas;
// Moodle and Sakai with their message handlers) act on themselves, without this script.
// A message { type: "llmmath:progress", progress }, from a frame of ours as above and at most
// MAX_PROGRESS characters as JSON, becomes the frame's data-progress (that JSON) and an
// "llm-progress" event on the frame (bubbling, detail: the progress), for a host of any origin to
// follow a framed figure's progress as it would the chapter's (embed-guide.html#progress).
// It defines no global.
(() => {
  const MAX_HEIGHT = 20000; // px: four times the tallest figure at 360 px wide
  const MAX_PROGRESS = 64000; // characters of JSON: what progress.js reads back at most

  /** The page's <iframe> of ours that sent `event` (see the top), or null. */
  function ourFrame(event) {
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow !== event.source) continue;
      let address;
      try {
        address = new URL(frame.getAttribute("src") ?? "", document.baseURI);
      } catch {
        return null;
      }
      if (!/(^|\/)embed\.html$/.test(address.pathname)) return null;
      const sandbox = frame.getAttribute("sandbox");
      const opaque = sandbox !== null && !sandbox.split(/\s+/).includes("allow-same-origin");
      return event.origin === (opaque ? "null" : address.origin) ? frame : null;
    }
    return null;
  }

  addEventListener("message", (event) => {
    const data = event.data;
    if (data === null || typeof data !== "object") return;
    if (data.type === "llmmath:height") {
      const { height } = data;
      if (typeof height !== "number" || !Number.isFinite(height) || height <= 0) return;
      const frame = ourFrame(event);
      if (!frame) return;
      frame.style.height = `${Math.min(MAX_HEIGHT, Math.ceil(height))}px`;
      // the embed code writes no inline style (a host's policy may refuse it): the border goes here
      frame.style.border = "0";
      if (typeof data.figure === "string") frame.dataset.llmmathFigure = data.figure;
    } else if (data.type === "llmmath:progress") {
      // The figure's progress (Figure 9.1's score), as the chapter tells its own page: an
      // llm-progress event, here on the frame, and the same JSON as the frame's data-progress.
      let json;
      try {
        json = JSON.stringify(data.progress);
      } catch {
        return;
      }
      if (typeof json !== "string" || json.length > MAX_PROGRESS || !json.startsWith("{")) return;
      const frame = ourFrame(event);
      if (!frame) return;
      frame.dataset.progress = json;
      frame.dispatchEvent(new CustomEvent("llm-progress", { bubbles: true, detail: JSON.parse(json) }));
    }
  });
})();
