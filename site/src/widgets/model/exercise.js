// Exercise 4b's answer card for Figure 4.2 (<llm-answer-model>, the kit's FigureAnswer, answer.js):
// the reader predicts the decoding floor in tokens a second, and the answer writes out the core's
// decode for the figure as it is (r.now.decode, r.now.perDevice, r.device), then the follow-up's
// for a batch of BATCHED, by the core.
import { h } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, fmtSeconds, grouped } from "../../format.js";
import { FigureAnswer } from "../../kit/answer.js";

// Exercise 4b's follow-up: the sequences of its batch.
const BATCHED = 8;

/**
 * Exercise 4b: the reader predicts the decoding floor in tokens per second, the bytes one step
 * reads over the bandwidth; the answer writes out the core's decode for the figure as it is.
 */
export class LlmAnswerModel extends FigureAnswer {
  static figure = "llm-model";
  static followUp = `with ${BATCHED} such sequences in the batch, how many tokens a second can the batch write in all?`;

  /** The follow-up's step: the figure's inputs with a batch of BATCHED, by the core. */
  batched({ shape, opts }, figure) {
    return figure.core.modelCost(shape, { ...opts, batch: BATCHED }).decode ?? null;
  }

  followUpPrediction(r, figure) {
    const one = r.now.decode;
    const d = this.batched(r, figure);
    if (!one || !d) return null;
    return {
      label: `Tokens a second for ${BATCHED} sequences, in all:`,
      value: d.tokensPerSecond,
      tolerance: Number((0.02 * d.tokensPerSecond).toPrecision(1)),
      digits: 1,
      unit: "tokens/s",
      hints: [
        {
          value: BATCHED * one.tokensPerSecond,
          text: `That is ${BATCHED} times one sequence's rate, as if the batch cost no more than one sequence. The batch shares the read of the weights, but each sequence brings its own cache, read at every step.`,
        },
        {
          value: d.tokensPerSecond / BATCHED,
          text: `That is each sequence's share. A step writes one token for each of the ${BATCHED} sequences: count them all.`,
        },
        {
          value: one.tokensPerSecond,
          text: "That is one sequence's rate. A step of the batch reads the weights once and every sequence's cache, and writes a token for each sequence.",
        },
      ],
      otherwise: `Read the weights once and the cache ${BATCHED} times, divide by the bandwidth for the step's seconds, and count ${BATCHED} tokens a step.`,
    };
  }

  prediction({ s, now, device }) {
    const d = now.decode;
    if (!d) return null;
    // Each wrong answer below is the figure's own step with one of its parts read wrong: the
    // core's bytes, re-added as the reader would, over the same bandwidth and batch.
    const rate = (bytes) => (d.tokensPerSecond * d.bytesPerStep) / bytes;
    return {
      label: "Tokens a second at most:",
      value: d.tokensPerSecond,
      // About 2% either way, rounded to one figure, so that reading 8.03 billion parameters as
      // 8 billion still counts, and forgetting the 4,096 tokens' cache (about 3.5%) does not.
      tolerance: Number((0.02 * d.tokensPerSecond).toPrecision(1)),
      digits: 1,
      unit: "tokens/s",
      hints: [
        {
          value: rate(d.weightsBytesRead),
          text: "That reads the weights and no cache. Each step also reads the keys and values of every token the sequence holds, in every layer.",
        },
        {
          value: rate(d.bytesPerStep - d.weightsBytesRead + now.perDevice.weightsBytes),
          text: "That reads the whole input embedding at every step. A step looks up one row of it per sequence, the row of the token it writes from; the output layer, a separate matrix, is read whole.",
        },
        {
          value: rate(now.perDevice.weightsBytes),
          text: "That reads every weight, the whole input embedding among them, and no cache. A step needs one row of the embedding per sequence, and the keys and values of every token held.",
        },
        {
          value: (d.tokensPerSecond * 2 ** 30) / 1e9,
          text: "That takes the bandwidth in GiB a second. A data sheet's GB/s are 10⁹ bytes a second; count the bytes read the same way.",
        },
        d.computeSeconds === undefined
          ? null
          : {
              value: s.batch / d.computeSeconds,
              text: "That is the arithmetic's floor, the operations over the peak. Reading the weights and the cache takes far longer: the memory, not the arithmetic, bounds the step.",
            },
      ].filter(Boolean),
      otherwise: `Count the bytes one step reads (each weight once, one row of the input embedding, and the cache of the tokens held), divide by ${fmtCount(device.bandwidth / 1e9)} GB/s for the seconds a step takes, and take the tokens the step writes over those seconds.`,
    };
  }

  answer(r, figure) {
    const { s, shape, opts, now, device } = r;
    const d = now.decode;
    if (!d) return h("p", {}, "The figure's device states no bandwidth, so it has no decoding floor.");
    const c = (x) => fmtCount(x);
    const bytes = (x) => [h("strong", {}, fmtBytes(x)), x >= 1024 ? ` (${c(Math.round(x))} bytes)` : ""];
    const seqs = `${c(s.batch)} sequences`;
    return [
      h(
        "p",
        {},
        `Weights: each step reads every weight once, but of the input embedding only one row per sequence${shape.moe === null ? "" : `, and of each layer's ${c(shape.moe.experts)} experts only the ${fmt(d.expertsTouched, 1)} its tokens are sent to`}: of the ${fmtBytes(now.perDevice.weightsBytes)} (${c(now.perDevice.weightsBytes)} bytes) stored${now.tensorParallel > 1 ? " on each device" : ""} in ${now.weightsFormat}, `,
        ...bytes(d.weightsBytesRead),
        ".",
      ),
      h(
        "p",
        {},
        `Cache: the keys and values of ${c(opts.tokens)} tokens ${s.batch === 1 ? "of the sequence" : `of each of ${seqs}`} in every layer, `,
        ...bytes(d.kvBytesRead),
        ".",
      ),
      h(
        "p",
        { class: "answer-speed" },
        `A step: ${c(Math.round(d.bytesPerStep))} bytes ÷ ${fmtCount(device.bandwidth / 1e9)} GB/s (10⁹ bytes a second) = `,
        h("strong", {}, fmtSeconds(d.memorySeconds)),
        d.computeSeconds === undefined
          ? ""
          : `, against ${fmtSeconds(d.computeSeconds)} for its ${fmtCount(d.flopsPerStep, 4)} operations at ${fmtCount(device.peak / 1e12)} TFLOPS`,
        `: ${d.bound}-bound, ${fmtSeconds(d.secondsPerStep)} a step. It writes ${c(s.batch)} token${s.batch === 1 ? "" : "s"}: ${c(s.batch)} ÷ ${fmtSeconds(d.secondsPerStep)} = `,
        h("strong", {}, `${grouped(d.tokensPerSecond, 1)} tokens/s`),
        ".",
      ),
      d.bound === "memory"
        ? h(
            "p",
            {},
            "The step waits on the memory: a larger batch shares the read of the weights, fewer bytes per weight or per cached value read less, and speculative decoding writes more than one token per read.",
          )
        : null,
      this.answerBatched(r, figure),
    ];
  }

  /** The follow-up's worked answer: the same step for a batch of BATCHED. */
  answerBatched(r, figure) {
    const b = this.batched(r, figure);
    if (!b) return null;
    const { device } = r;
    return h(
      "p",
      { class: "answer-batched" },
      `With ${BATCHED} sequences the step reads the weights once, ${fmtBytes(b.weightsBytesRead)}, and the cache of each, ${fmtBytes(b.kvBytesRead)} in all: ${fmtCount(Math.round(b.bytesPerStep))} bytes ÷ ${fmtCount(device.bandwidth / 1e9)} GB/s = ${fmtSeconds(b.secondsPerStep)} a step (${b.bound}-bound), which writes ${BATCHED} tokens: `,
      h("strong", {}, `${grouped(b.tokensPerSecond, 1)} tokens/s`),
      " in all.",
    );
  }
}
