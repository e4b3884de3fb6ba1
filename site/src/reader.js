// The reader page: registers every concept's widgets, then marks the page ready (data-ready on
// <html>) once the core has loaded and every widget on the page has rendered.
// Each widgets/<concept>.js exports `widgets`, a map from tag name to element class.
import { widgets as attention } from "./widgets/attention.js";
import { widgets as dilution } from "./widgets/dilution.js";
import { widgets as sampling } from "./widgets/sampling.js";
import { widgets as rope } from "./widgets/rope.js";
import { widgets as cost } from "./widgets/cost.js";
import { widgets as speculative } from "./widgets/speculative.js";
import { widgets as alibi } from "./widgets/alibi.js";
import { widgets as quantization } from "./widgets/quantization.js";
import { widgets as moe } from "./widgets/moe.js";
import { widgets as diagnose } from "./widgets/diagnose.js";

const all = { ...attention, ...dilution, ...sampling, ...rope, ...cost, ...speculative, ...alibi, ...quantization, ...moe, ...diagnose };

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
