// Every widget of the chapter, by tag, and the one function that registers them. The script
// embed (llmmath-widgets.js), the reader and embed.html all register through here.
import { widgets as attention } from "./attention.js";
import { widgets as dilution } from "./dilution.js";
import { widgets as sampling } from "./sampling.js";
import { widgets as rope } from "./rope.js";
import { widgets as cost } from "./cost.js";
import { widgets as speculative } from "./speculative.js";
import { widgets as alibi } from "./alibi.js";
import { widgets as quantization } from "./quantization.js";
import { widgets as moe } from "./moe.js";
import { widgets as diagnose } from "./diagnose.js";

export const widgets = {
  ...attention,
  ...dilution,
  ...sampling,
  ...rope,
  ...cost,
  ...speculative,
  ...alibi,
  ...quantization,
  ...moe,
  ...diagnose,
};

/** Defines every widget's custom element (once: a second copy of the script changes nothing). */
export function registerWidgets() {
  for (const [tag, cls] of Object.entries(widgets)) {
    if (!customElements.get(tag)) customElements.define(tag, cls);
  }
}
