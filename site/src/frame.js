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
// It defines no global.
(() => {
  const MAX_HEIGHT = 20000; // px: four times the tallest figure at 360 px wide
  addEventListener("message", (event) => {
    const data = event.data;
    if (data === null || typeof data !== "object" || data.type !== "llmmath:height") return;
    const { height } = data;
    if (typeof height !== "number" || !Number.isFinite(height) || height <= 0) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow !== event.source) continue;
      let address;
      try {
        address = new URL(frame.getAttribute("src") ?? "", document.baseURI);
      } catch {
        return;
      }
      if (!/(^|\/)embed\.html$/.test(address.pathname)) return;
      const sandbox = frame.getAttribute("sandbox");
      const opaque = sandbox !== null && !sandbox.split(/\s+/).includes("allow-same-origin");
      if (event.origin !== (opaque ? "null" : address.origin)) return;
      frame.style.height = `${Math.min(MAX_HEIGHT, Math.ceil(height))}px`;
      // the embed code writes no inline style (a host's policy may refuse it): the border goes here
      frame.style.border = "0";
      if (typeof data.figure === "string") frame.dataset.llmmathFigure = data.figure;
      return;
    }
  });
})();
