// The reader page: registers every widget, then marks the page ready (data-ready on <html>)
// once the core has loaded and every widget on the page has rendered.
import { LlmAttention } from "./widgets/attention.js";
import { LlmContextDilution } from "./widgets/dilution.js";
import { LlmAnswerAttention } from "./widgets/answers.js";

const widgets = {
  "llm-attention": LlmAttention,
  "llm-context-dilution": LlmContextDilution,
  "llm-answer-attention": LlmAnswerAttention,
};

for (const [tag, cls] of Object.entries(widgets)) {
  if (!customElements.get(tag)) customElements.define(tag, cls);
}

function whenAllRendered() {
  const elements = [...document.querySelectorAll(Object.keys(widgets).join(","))];
  return Promise.all(elements.map((el) => el.ready));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

function start() {
  whenAllRendered().then(
    () => document.documentElement.setAttribute("data-ready", ""),
    (error) => document.documentElement.setAttribute("data-error", error.message),
  );
}
