// The reader page: registers every concept's widgets, then marks the page ready (data-ready on
// <html>) once the core has loaded and every widget on the page has rendered.
// Each widgets/<concept>.js exports `widgets`, a map from tag name to element class.
import { widgets as attention } from "./widgets/attention.js";
import { widgets as dilution } from "./widgets/dilution.js";
import { widgets as rope } from "./widgets/rope.js";
import { widgets as alibi } from "./widgets/alibi.js";

const all = { ...attention, ...dilution, ...rope, ...alibi };

for (const [tag, cls] of Object.entries(all)) {
  if (!customElements.get(tag)) customElements.define(tag, cls);
}

function whenAllRendered() {
  const elements = [...document.querySelectorAll(Object.keys(all).join(","))];
  return Promise.all(elements.map((el) => customElements.whenDefined(el.localName).then(() => el.ready)));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

function start() {
  whenAllRendered().then(
    () => document.documentElement.setAttribute("data-ready", ""),
    (error) => document.documentElement.setAttribute("data-error", error.message),
  );
}
