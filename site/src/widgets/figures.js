// The figures a page can show on their own, by name: the name is the section id of the
// figure's section (dilution is section 1's second figure), and the `?widget=` of embed.html.
// Data only, so the pages' glue and the build read it without loading any widget.
export const figures = {
  attention: { tag: "llm-attention", id: "attention-figure", section: "attention" },
  dilution: { tag: "llm-context-dilution", id: "dilution-figure", section: "attention" },
  sampling: { tag: "llm-sampling", id: "sampling-figure", section: "sampling" },
  rope: { tag: "llm-rope", id: "rope-figure", section: "rope" },
  cost: { tag: "llm-cost", id: "cost-figure", section: "cost" },
  speculative: { tag: "llm-speculative", id: "speculative-figure", section: "speculative" },
  alibi: { tag: "llm-alibi", id: "alibi-figure", section: "alibi" },
  quantization: { tag: "llm-quantization", id: "quantization-figure", section: "quantization" },
  moe: { tag: "llm-moe", id: "moe-figure", section: "moe" },
  diagnose: { tag: "llm-diagnose", id: "diagnose-figure", section: "diagnose" },
};

/** The figure name for a name given by a link or query: own keys only ("constructor" is none). */
export function figureNamed(name) {
  return typeof name === "string" && Object.hasOwn(figures, name) ? figures[name] : null;
}
