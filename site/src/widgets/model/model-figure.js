// Figure 4.2, <llm-model> (model.js), as the pages, the build and the tests know it (see
// figures.js): its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyInt, pyJson, snakeFields } from "../../numpy.js";

export const model = {
  tag: "llm-model",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "model.js",
  id: "model-figure",
  // its title outside the chapter (a frame's title, the embed code): what it shows, in words
  title: "A model's KV cache and attention cost from its config.json",
  section: "cost",
  // Download SVG and PNG: what was read, the readouts, the cache chart with its legend, the
  // memory meter and the arithmetic chart.
  picture: [
    ".model-read",
    ".model-verdict",
    ".model-stats",
    ".model-cache",
    ".model-memory",
    ".model-speed",
    ".model-flops",
  ],
  // Exercise 4b (the decoding floor in tokens a second): the verdict's line on it, its card, the
  // chart of the floor against the context with its legend, description and data, and its step of
  // the calculation.
  conceals: [".model-verdict-speed", ".model-speed-stat", ".model-speed", ".model-worked-speed"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves:
      "the config.json editor, what was read, the fields, the device's settings, the memory, speed and arithmetic charts, the calculation",
    hides: [
      "> .model-input .model-paste",
      "> .model-read",
      "> .model-fields",
      "> .model-serving",
      "> .model-speed",
      "> .model-subhead",
      "> .model-memory",
      "> .model-flops",
      "> .worked",
    ],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 3134, 360: 5329 }, compact: { 800: 946, 360: 1534 } },
  // Copy as NumPy (takeaway.js): a Python program that reads the same configuration with the
  // reference's reader and costs it at the figure's inputs (site/src/numpy.js says what every
  // program does).
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(s, r) {
  const text = r?.source?.text ?? "{}";
  const o = r?.opts ?? {};
  return program(
    `# Your model: a config.json read as transformers reads it, and its key-value cache, parameters,
# weights and next-token arithmetic at the figure's inputs. The functions are reference/model.py's,
# the code the core (core/include/llmmath/model.hpp) is tested against.`,
    ["model_from_config", "model_cost"],
    `config = ${pyJson(JSON.parse(text))}
shape = model_from_config(config)
r = model_cost(shape, tokens=${pyInt(o.tokens ?? s.tokens)}, batch=${pyInt(o.batch ?? s.batch)}, kv_bytes_per_element=${py(o.kvBytesPerElement ?? 2)},
               weight_format=${JSON.stringify(o.weightFormat ?? s.weightFormat)}, mla_cache=${JSON.stringify(o.mlaCache ?? s.mlaCache)},
               tensor_parallel=${pyInt(r?.now?.tensorParallel ?? 1)}, sliding_cache=${JSON.stringify(o.slidingCache ?? s.slidingCache)},
               block_tokens=${pyInt(o.blockTokens ?? s.block)}, memory_utilization=${py(o.memoryUtilization ?? s.utilization)},
               reserve_bytes=${py(o.reserveBytes ?? 0)}, devices=${pyDevices(o.devices)})
for name in ["kv_bytes", "kv_bytes_per_token", "attention_flops", "linear_flops", "weights_bytes"]:
    show(name, r[name])
for name in ["total", "active", "embedding"]:
    show("params_" + name, r["params"][name])
for name in ["kv_heads", "kv_bytes", "weights_bytes"]:
    show("per_device_" + name, r["per_device"][name])
for name in ["fits", "max_batch", "max_tokens", "spare_bytes"]:
    show("fit_" + name, r["fit"][name])
print("the context is stopped by:", r["fit"]["limited_by"])
if r["decode"] is not None:
    for name in ["bytes_per_step", "seconds_per_step", "tokens_per_second"]:
        show("decode_" + name, r["decode"][name])
    print("the decoding step is bound by:", r["decode"]["bound"])`,
  );
}

/** The devices as the reference takes them: a dict, or None. */
function pyDevices(d) {
  if (!d) return "None";
  const entries = [
    `"count": ${pyInt(d.count ?? 1)}`,
    `"memory_bytes": ${py(d.memoryBytes)}`,
    ...(d.bandwidthBytesPerSecond === undefined ? [] : [`"bandwidth": ${py(d.bandwidthBytesPerSecond)}`]),
    ...(d.flopsPerSecond === undefined ? [] : [`"flops": ${py(d.flopsPerSecond)}`]),
  ];
  return `{${entries.join(", ")}}`;
}

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  control: 'input[type="range"]',
  change: {
    model: "gpt-oss-20b",
    tokens: 100000,
    batch: 3,
    kvPrecision: "fp8",
    weightFormat: "int8",
    device: "h200",
    devices: 2,
  },
  prints: ({ now }) => ({
    kv_bytes: now.kvBytes,
    kv_bytes_per_token: now.kvBytesPerToken,
    attention_flops: now.attentionFlops,
    linear_flops: now.linearFlops,
    weights_bytes: now.weightsBytes,
    ...snakeFields(now.params, "params_"),
    per_device_kv_heads: now.perDevice.kvHeads,
    per_device_kv_bytes: now.perDevice.kvBytes,
    per_device_weights_bytes: now.perDevice.weightsBytes,
    fit_fits: now.fit.fits,
    fit_max_batch: now.fit.maxBatch,
    fit_max_tokens: now.fit.maxTokens,
    fit_spare_bytes: now.fit.spareBytes,
    ...(now.decode
      ? {
          decode_bytes_per_step: now.decode.bytesPerStep,
          decode_seconds_per_step: now.decode.secondsPerStep,
          decode_tokens_per_second: now.decode.tokensPerSecond,
        }
      : {}),
  }),
  readouts: {
    selector: ".model-stat.model-kv dd strong, .model-fit-batch dd strong, .model-fit-tokens dd strong",
    values: (p) => [p.kv_bytes, p.kv_bytes_per_token, p.fit_max_batch, p.fit_max_tokens],
  },
  pictured: ".model-stat.model-kv dd strong",
  engine: {
    // the largest batch that fits beside the weights, a count
    shown: (root) => [Number(root.querySelector(".model-fit-batch dd strong").textContent.replace(/,/g, ""))],
    core: async (el, engine) => {
      const shape = engine.modelFromConfigText(el.shadowRoot.querySelector(".model-text").value);
      return [engine.modelCost(shape, el.inputs).fit.maxBatch];
    },
    tol: 0,
  },
};
