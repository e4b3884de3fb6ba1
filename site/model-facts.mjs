// What section 4's text says about the real configurations (data/models/), filled in at
// build time by the chapter's engine: the <!-- model-value ID KEY --> marks in the sections and the
// table at <!-- model-cache-table -->. Every number comes from modelFromConfigText or modelCost on
// the committed file and passes through the page's formatters (site/src/format.js); nothing is
// computed here.
//
//   modelFacts(core, models) → { value(id, key), table() }
//     models   index.json's entries, each with `text`, its file's contents
//     keys     hidden, heads, headDim, kvHeads, window, chunk, kinds ("12 sliding layers of 128 tokens and 12 full"),
//              kvPerToken, kvPerTokenExpanded (a latent model's cache as per-head keys and values),
//              params (every parameter), weights (their bytes as the file stores them),
//              embeddingParams (the input embedding's parameters)
//   decode(id, device, tokens, batch, key) → a <!-- model-decode ID DEVICE TOKENS BATCH KEY --> mark:
//              modelCost's decoding floor for the model on one device of Figure 4.2's picker
//              (site/src/widgets/model/model-devices.js) at that context and batch; keys tokensPerSecond,
//              secondsPerStep, memorySeconds, computeSeconds, weightsBytesRead, kvBytesRead,
//              bytesPerStep, expertsTouched, bound
//   device(device, key) → a <!-- model-device DEVICE KEY --> mark: the picker's data for it, as
//              the figure states it; keys name, bandwidth ("3,350 GB/s"), peak ("989 TFLOPS")

import { fmt, fmtBytes, fmtRate, fmtSeconds, grouped } from "./src/format.js";
import { deviceById, servingDevices } from "./src/widgets/model/model-devices.js";

const KIND_WORDS = { full: "full", sliding: "sliding", chunked: "chunked", mla: "latent" };

/** "12 sliding layers of 128 tokens and 12 full layers", from the core's byKind at one token. */
function kinds(shape, cost) {
  const parts = cost.byKind.map((k) => {
    const n = `${grouped(k.layers)} ${KIND_WORDS[k.kind]} layer${k.layers === 1 ? "" : "s"}`;
    if (k.kind === "sliding") return `${n} of ${grouped(shape.window)} tokens`;
    if (k.kind === "chunked") return `${n} in chunks of ${grouped(shape.chunk)} tokens`;
    return n;
  });
  return parts.length === 1 ? `all ${parts[0]}` : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

export function modelFacts(core, models) {
  const read = new Map();
  for (const m of models) {
    const shape = core.modelFromConfigText(m.text);
    read.set(m.id, { model: m, shape, one: core.modelCost(shape, { tokens: 1 }) });
  }
  const entry = (id, where) => {
    const e = read.get(id);
    if (!e) throw new Error(`${where}: no model ${id} in data/models/index.json`);
    return e;
  };

  function value(id, key) {
    const where = `<!-- model-value ${id} ${key} -->`;
    const { shape, one } = entry(id, where);
    switch (key) {
      case "headDim":
        return grouped(shape.headDim);
      case "hidden":
        return grouped(shape.hidden);
      case "heads":
        return grouped(shape.heads);
      case "kvHeads":
        return grouped(shape.kvHeads);
      case "window":
        return grouped(shape.window);
      case "chunk":
        return grouped(shape.chunk);
      case "kinds":
        return kinds(shape, one);
      case "kvPerToken":
        return fmtBytes(one.kvBytesPerToken);
      case "kvPerTokenExpanded":
        return fmtBytes(core.modelCost(shape, { tokens: 1, mlaCache: "expanded" }).kvBytesPerToken);
      case "params":
        return grouped(one.params.total);
      case "weights":
        return fmtBytes(one.weightsBytes);
      case "embeddingParams":
        return grouped(one.params.embedding);
      default:
        throw new Error(`${where}: no such key`);
    }
  }

  /** One device of the picker, by id, or an error naming the mark. */
  function deviceOf(id, where) {
    const d = deviceById(id);
    if (!d) throw new Error(`${where}: no device ${id} in site/src/widgets/model/model-devices.js`);
    return d;
  }

  function decode(id, deviceId, tokens, batch, key) {
    const where = `<!-- model-decode ${id} ${deviceId} ${tokens} ${batch} ${key} -->`;
    const { shape } = entry(id, where);
    const d = deviceOf(deviceId, where);
    const r = core.modelCost(shape, {
      tokens: Number(tokens),
      batch: Number(batch),
      devices: servingDevices(d),
    }).decode;
    switch (key) {
      case "tokensPerSecond":
        return fmtRate(r.tokensPerSecond);
      case "secondsPerStep":
      case "memorySeconds":
      case "computeSeconds":
        return fmtSeconds(r[key]);
      case "weightsBytesRead":
      case "kvBytesRead":
      case "bytesPerStep":
        return fmtBytes(r[key]);
      case "expertsTouched":
        return fmt(r.expertsTouched, 1);
      case "bound":
        return r.bound;
      default:
        throw new Error(`${where}: no such key`);
    }
  }

  function device(deviceId, key) {
    const where = `<!-- model-device ${deviceId} ${key} -->`;
    const d = deviceOf(deviceId, where);
    switch (key) {
      case "name":
        return d.name;
      case "bandwidth":
        return `${grouped(d.bandwidthGBs)} GB/s`;
      case "peak":
        return `${grouped(d.peakTflops)} TFLOPS`;
      default:
        throw new Error(`${where}: no such key`);
    }
  }

  function table() {
    const rows = [...read.values()].map(({ model, shape, one }) => {
      const at32k =
        shape.maxContext >= 32768 ? fmtBytes(core.modelCost(shape, { tokens: 32768 }).kvBytes) : "beyond its context";
      const atMax = core.modelCost(shape, { tokens: shape.maxContext });
      const heads = shape.mla
        ? `latent ${grouped(shape.mla.kvLoraRank)} + ${grouped(shape.mla.qkRopeHeadDim)}`
        : `${grouped(shape.kvHeads)} × ${grouped(shape.headDim)}`;
      return `    <tr><th scope="row">${model.name}</th><td>${kinds(shape, one)}</td><td>${heads}</td><td>${fmtBytes(one.kvBytesPerToken)}</td><td>${at32k}</td><td>${fmtBytes(atMax.kvBytes)} at ${grouped(shape.maxContext)}</td></tr>`;
    });
    return `<div class="table-scroll"><table class="summary model-cache">
  <caption class="model-cache-caption">The key–value cache of one sequence, 2 bytes per number, for the configuration files of Figure 4.2 (computed by the chapter's engine from each file).</caption>
  <thead><tr><th scope="col">Model</th><th scope="col">Layers</th><th scope="col">Key–value heads × head size</th><th scope="col">First token</th><th scope="col">At 32,768 tokens</th><th scope="col">At the longest context</th></tr></thead>
  <tbody>
${rows.join("\n")}
  </tbody>
</table></div>`;
  }

  return { value, decode, device, table };
}
