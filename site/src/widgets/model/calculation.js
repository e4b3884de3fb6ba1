// The calculation with the reader's numbers (.worked), drawn by the kit's workedSteps (worked.js)
// from the core's modelCost (r.now) alone: the cache kind by kind (byKind) and whole (kvBytes), per
// token, the weights (params, weightsBytes), one device's share (perDevice, replicas), its memory
// (fit), the engine's pool (budget), the decoding floor (decode, beside one sequence's: r.single;
// Exercise 4b holds its step back) and the next token's arithmetic.
import { h, patch, sym } from "../../dom.js";
import { fmt, fmtBytes, fmtCount, fmtRate, fmtSeconds } from "../../format.js";
import { workedSteps } from "../../kit/worked.js";
import { KINDS } from "./scales.js";

/** The calculation: a part of the figure (model.js): the nodes it places, and render(r) from compute()'s result. */
export class Calculation {
  constructor() {
    this.box = h("div", { class: "worked" });
    this.nodes = [h("p", { class: "model-subhead" }, "The calculation with these numbers"), this.box];
  }

  /** The calculation with the reader's numbers: the cache kind by kind, the total, the weights, the arithmetic. */
  render({ s, shape, opts, now, device, single }) {
    const c = (x) => fmtCount(x);
    const bytes = (x) => [h("strong", {}, fmtBytes(x)), x >= 1024 ? ` (${c(x)} bytes)` : ""];
    const p = opts.kvBytesPerElement;
    const tail = (k) => [
      ` elements per token and layer × ${c(k.tokensHeld)} tokens held${k.kind === "sliding" ? " (the window)" : k.kind === "chunked" ? " (the chunk)" : ""} × ${c(k.layers)} layer${k.layers === 1 ? "" : "s"} × ${c(s.batch)} sequence${s.batch === 1 ? "" : "s"} × ${fmt(p)} byte${p === 1 ? "" : "s"} = `,
      ...bytes(k.bytes),
      ".",
    ];
    const perToken = (k) => {
      if (k.kind !== "mla") {
        return shape.vHeadDim === shape.headDim
          ? [
              "2·",
              sym("h", "kv"),
              "·",
              sym("d"),
              ` = 2·${c(shape.kvHeads)}·${c(shape.headDim)} = ${c(k.elementsPerToken)}`,
            ]
          : [
              sym("h", "kv"),
              "·(",
              sym("d"),
              " + ",
              sym("d", "v"),
              `) = ${c(shape.kvHeads)}·(${c(shape.headDim)} + ${c(shape.vHeadDim)}) = ${c(k.elementsPerToken)}`,
            ];
      }
      const m = shape.mla;
      return s.mlaCache === "latent"
        ? ["latent + rotary key = ", `${c(m.kvLoraRank)} + ${c(m.qkRopeHeadDim)} = ${c(k.elementsPerToken)}`]
        : [
            "every head's key and value, ",
            sym("h"),
            "·(",
            sym("d", "nope"),
            " + ",
            sym("d", "rope"),
            ") + ",
            sym("h"),
            "·",
            sym("d", "v"),
            ` = ${c(shape.heads)}·(${c(m.qkNopeHeadDim)} + ${c(m.qkRopeHeadDim)}) + ${c(shape.heads)}·${c(m.vHeadDim)} = ${c(k.elementsPerToken)}`,
          ];
    };
    // The calculation's steps, drawn by the kit (worked.js).
    patch(
      this.box,
      workedSteps([
        ...now.byKind.map((k) => ({ name: `${cap(KINDS[k.kind].label)} layers`, lead: [...perToken(k), ...tail(k)] })),
        now.byKind.length > 1 && {
          name: "Whole cache",
          lead: [`${now.byKind.map((k) => fmtBytes(k.bytes)).join(" + ")} = `, ...bytes(now.kvBytes), "."],
        },
        {
          name: "Cache per token",
          lead: ["One more token of one sequence, while no window is full, adds ", ...bytes(now.kvBytesPerToken), "."],
        },
        {
          name: "Weights",
          lead: [
            `${c(now.params.total)} parameters stored as ${now.weightsFormat}, scales included: `,
            ...bytes(now.weightsBytes),
            `; one token uses ${c(now.params.active)} of them.`,
          ],
        },
        {
          name: "Per device",
          lead: [
            now.tensorParallel > 1
              ? `Split over ${c(now.tensorParallel)} devices: each holds ${c(now.perDevice.kvHeads)} key-value head${now.perDevice.kvHeads === 1 ? "" : "s"} per layer${shape.mla === null ? "" : " (the latent, whole)"} and `
              : "One device holds every head and ",
            ...bytes(now.perDevice.weightsBytes),
            ` of weights; its cache in whole pages of ${c(s.block)} tokens: `,
            ...bytes(now.perDevice.kvBytes),
            now.replicas > 1
              ? ` for ${c(now.perDevice.sequences)} of the ${c(s.batch)} sequences (${c(now.replicas)} copies of the model).`
              : ".",
          ],
        },
        {
          name: "Memory",
          lead: [
            `${fmt(opts.memoryUtilization)} × ${fmtBytes(device.memoryBytes)} − ${fmtBytes(opts.reserveBytes)} reserve = `,
            ...bytes(now.fit.usableBytes),
            `; less weights and cache, `,
            h("strong", {}, fmtBytes(Math.abs(now.fit.spareBytes))),
            now.fit.spareBytes >= 0 ? " to spare." : " short.",
          ],
        },
        {
          name: "The engine's pool",
          lead: `${fmtBytes(now.budget.bytes)} left for the cache ÷ (${c(s.block)} tokens × ${fmtBytes(now.perDevice.kvBytesPerToken)} a token in every layer)`,
          result: `${c(now.budget.blocks)} pages`,
          tail: `, ${c(now.budget.tokens)} tokens.`,
        },
        now.decode && {
          name: "Decoding floor",
          class: "model-worked-speed",
          lead: `Each step reads ${fmtBytes(now.decode.weightsBytesRead)} of weights${shape.moe === null ? "" : ` (${fmt(now.decode.expertsTouched, 1)} of ${c(shape.moe.experts)} experts a layer touched)`} and ${fmtBytes(now.decode.kvBytesRead)} of cache: ${fmtBytes(now.decode.bytesPerStep)} ÷ ${fmtCount(device.bandwidth / 1e9)} GB/s`,
          result: fmtSeconds(now.decode.memorySeconds),
          tail: [
            now.decode.computeSeconds === undefined
              ? ""
              : `; its ${fmtCount(now.decode.flopsPerStep, 4)} FLOPs ÷ ${fmtCount(device.peak / 1e12)} TFLOPS = ${fmtSeconds(now.decode.computeSeconds)}`,
            `. The step takes the longer, ${fmtSeconds(now.decode.secondsPerStep)} (${now.decode.bound}-bound): ${c(s.batch)} token${s.batch === 1 ? "" : "s"} ÷ ${fmtSeconds(now.decode.secondsPerStep)} = `,
            h("strong", {}, `${fmtRate(now.decode.tokensPerSecond)} tokens/s`),
            single
              ? `. One sequence alone gets ${fmtRate(single.decode.tokensPerSecond)}: the batch shares each read of the weights.`
              : ".",
          ],
        },
        {
          name: "Arithmetic of the next token",
          lead: `Attention, 2·h·(d + d_v) per visible key in every layer: ${c(now.attentionFlops)} FLOPs; the linear layers, 2 per weight it multiplies: ${c(now.linearFlops)} FLOPs.`,
        },
      ]),
    );
  }
}

const cap = (t) => t[0].toUpperCase() + t.slice(1);
