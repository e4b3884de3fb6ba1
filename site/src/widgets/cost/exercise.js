// Exercise 4's answer card for Figure 4.1 (<llm-answer-cost>, the kit's FigureAnswer, answer.js):
// the reader predicts the scores one head computes, then the layer's cached values, and the answer
// writes out the core's attentionCost for the figure as it is (r.cfg, r.now) and what doubling the
// head dimension does to each (r.doubled, or the core's message, r.doubledError).
import { h } from "../../dom.js";
import { fmtCount } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";

/**
 * Exercise 4: the reader predicts how many scores one head computes; the answer gives that,
 * the layer's cached values, and what doubling the head dimension does to each.
 */
export class LlmAnswerCost extends FigureAnswer {
  static figure = "llm-cost";
  static followUp =
    "how many values does the layer's KV cache hold, and if the head dimension doubles, what happens to the number of scores, to the cache, and to the QK plus AV arithmetic?";

  prediction(r) {
    const { cfg, now } = r;
    return {
      label: "Scores computed by each head:",
      value: now.scoresPerHead,
      tolerance: 0,
      digits: 0,
      hints: [
        // The token count itself, as typed into the figure: one score per token.
        {
          value: cfg.tokens,
          text: "That is one score per token. Each of the n queries is scored against each of the n keys, so a head computes n·n scores.",
        },
        {
          value: now.scoresPerLayer,
          text: "That counts the scores of every head in the layer (and every sequence of the batch); the question asks for one head.",
        },
        {
          value: now.kvValuesPerLayer,
          text: "That is the number of values the layer's KV cache holds, not the number of scores.",
        },
      ],
      otherwise:
        "A score is one number for one query and one key, however long the vectors: count the (query, key) pairs of one sequence.",
    };
  }

  followUpPrediction(r) {
    const { now } = r;
    return {
      label: "Values the layer's KV cache holds:",
      value: now.kvValuesPerLayer,
      tolerance: 0,
      digits: 0,
      hints: [
        {
          value: now.kvValuesPerLayer / 2,
          text: "That counts the keys only (or the values only): the cache keeps both, one key and one value vector per token and KV head.",
        },
        {
          value: now.scoresPerLayer,
          text: "That is the layer's number of scores. The cache holds keys and values, which grow with n, not with n².",
        },
      ],
      otherwise:
        "The cache keeps a key and a value of head dimension d for every token and every KV head: 2 · n · KV heads · d.",
    };
  }

  answer(r) {
    const { cfg, now, doubled, doubledError } = r;
    const { tokens: n, kvHeads, headDim: d, batch: b } = cfg;
    const c = fmtCount;
    const bTerm = b === 1 ? "" : `${c(b)}·`;
    return [
      h(
        "p",
        {},
        `With ${c(n)} tokens, each head scores every query against every key: ${c(n)}² = `,
        h("strong", { class: "answer-scores" }, c(now.scoresPerHead)),
        " scores per head.",
      ),
      h(
        "p",
        {},
        `With ${c(kvHeads)} key-value head${kvHeads === 1 ? "" : "s"} of dimension ${c(d)}${b === 1 ? "" : ` and a batch of ${c(b)}`}, the layer caches one key and one value per token and head: 2·${bTerm}${c(n)}·${c(kvHeads)}·${c(d)} = `,
        h("strong", { class: "answer-kv" }, c(now.kvValuesPerLayer)),
        " values for the full layer.",
      ),
      doubled
        ? [
            h("p", {}, `Doubling the head dimension to ${c(2 * d)}:`),
            h(
              "ul",
              { class: "answer-doubled" },
              h(
                "li",
                {},
                `scores per head: ${c(now.scoresPerHead)} → `,
                h("strong", {}, c(doubled.scoresPerHead)),
                ", unchanged, because a score is one number however long the vectors it compares;",
              ),
              h(
                "li",
                {},
                `cached values per layer: ${c(now.kvValuesPerLayer)} → `,
                h("strong", {}, c(doubled.kvValuesPerLayer)),
                ", doubled, because every cached key and value is twice as long;",
              ),
              h(
                "li",
                {},
                `QK plus AV multiply-adds per layer: ${c(now.macsPerLayer)} → `,
                h("strong", {}, c(doubled.macsPerLayer)),
                ", doubled, because every score is a dot product twice as long and every output has twice as many components.",
              ),
            ),
          ]
        : h("p", {}, `Doubling the head dimension is outside what the core accepts here: ${doubledError}.`),
    ];
  }
}
