// Figure 9.1, <llm-diagnose> (diagnose.js), as the pages, the build and the tests know it (see
// figures.js): its element, its place in the chapter and its facets, its NumPy program among them.
import { program, py, pyInt, pyJson, pyList, pyStrings } from "../../numpy.js";
import { deviceById } from "../model/model-devices.js";

export const diagnose = {
  tag: "llm-diagnose",
  // its widget's file, whose `widgets` (tag → class) every page registers (index.js)
  module: "diagnose.js",
  id: "diagnose-figure",
  // its title outside the chapter (a frame"s title, the embed code): what it shows, in words
  title: "Diagnosing a practical problem with a language model",
  section: "diagnose",
  // Download SVG and PNG: the scenario's title and story, and its calculation once found.
  picture: [".diagnose-title", ".diagnose-story", ".diagnose-lines"],
  // compact (the view attribute, attributes.js): the parts it hides, and what they are in words
  // (the guide's list).
  compact: {
    leaves: "the printed list of every case (only on paper anyway); the trainer itself is its question",
    hides: ["> .diagnose-print"],
  },
  // The height of its frame page (embed.html) with every default, in px, at 800 and 360 px wide,
  // full and compact: the embed code's and the guide's frame height before the frame reports
  // its own (measured by tests/browser/heights.js, checked by frame-height.test.js).
  frameHeight: { full: { 800: 530, 360: 974 }, compact: { 800: 494, 360: 905 } },
  // Keeps a score (progress.js: its steps right at the first try): alone, in embed.html or its
  // learning-platform package (site/lms.mjs), it reports that score and is complete once every
  // step is answered, rather than complete once shown as the other figures are.
  scored: true,
  // Copy as NumPy (takeaway.js): a Python program of the small calculation of the scenario shown,
  // once its mechanism is found, for the widget's state and result (site/src/numpy.js says what
  // every program does). Its programs are keyed here by the calculation a scenario names
  // (PROGRAMS, below), beside diagnose-calculations.js's.
  numpy,
};

/** The figure's NumPy program for the widget's state and result, as text. */
function numpy(_s, r) {
  const use = r?.calculation?.use;
  const make = PROGRAMS[use];
  if (!make) throw new Error(`no NumPy program for the calculation ${use} (scenario ${r?.id})`);
  const p = make(r.calculation.with ?? {}, r.names ?? {});
  return program(
    `# Scenario "${r.id}": ${p.title}
# With the figure's numbers; the functions are reference/${p.module}.py's, the code the core is tested against.`,
    p.uses,
    p.driver(r.values, r.configs ?? {}),
  );
}

// The programs of the calculations a scenario can name (diagnose-calculations.js), each a
// function of the calculation's arguments (the scenario's `with`) and the real models' names by
// id: its title, the reference functions it calls and the driver that calls them with the
// inputs' values by key (and, for a scenario about real models, their config.json texts by id;
// the widget's result carries all three).
const dilution = () => ({
  title: "Context dilution (section 1): one relevant key among n distractors, before and after trimming.",
  module: "attention",
  uses: ["context_dilution"],
  driver: (v) => `a, b, n, trimmed = ${py(v.a)}, ${py(v.b)}, ${pyInt(v.n)}, ${pyInt(v.trimmed)}
show("relevant_weight", context_dilution(a, b, n)["relevant_weight"])
show("relevant_weight_trimmed", context_dilution(a, b, trimmed)["relevant_weight"])`,
});
const years = ({ tokens, seed }) => ({
  title: "Sampling (section 2): the year drawn at temperature T, ten seeded draws, and greedy decoding.",
  module: "sampling",
  uses: ["sampling", "splitmix64", "sample"],
  driver: (v) => `tokens = ${pyStrings(tokens)}
z = np.array(${pyList([v.z1, v.z2, v.z3])}, dtype=float)  # logits
T, seed = ${py(v.T)}, ${seed}
probs = sampling(logits=z, temperature=T)["probs"]
u = splitmix64(seed)  # inverse CDF with the core's uniforms
draws = sample(probs, [next(u) for _ in range(10)])
show("probs", probs)
show("draws", draws)
show("drawn", [tokens[t] for t in draws])
greedy = sampling(logits=z, temperature=0)["kept"][0]  # at T = 0 every run says this
show("greedy_token", tokens[greedy])`,
});
const cache = ({ shape }) => ({
  title: `The key-value cache (section 4) of a model of ${shape.layers} layers, ${shape.kvHeads} key-value heads of dimension ${shape.headDim}.`,
  module: "cost",
  uses: ["attention_cost"],
  driver: (
    v,
  ) => `tokens, batch, kv_bytes_per_element = ${pyInt(v.tokens)}, ${pyInt(v.batch)}, ${py(v.kvBytesPerElement)}
r = attention_cost(tokens, heads=${shape.heads}, head_dim=${shape.headDim}, layers=${shape.layers}, kv_heads=${shape.kvHeads}, batch=batch,
                   kv_bytes_per_element=kv_bytes_per_element)
for name in ["kv_bytes", "kv_bytes_per_token"]:
    show(name, r[name])`,
});
const speculation = () => ({
  title: "Speculative decoding (section 5): eq. 1 and the walltime improvement.",
  module: "speculative",
  uses: ["speculative_decoding"],
  driver: (v) => `alpha, gamma, c = ${py(v.alpha)}, ${pyInt(v.gamma)}, ${py(v.c)}
r = speculative_decoding(alpha, gamma, c)
for name in ["expected_tokens", "ceiling", "speedup"]:
    show(name, r[name])`,
});

/** A real model's configuration as a Python literal, named after the file it is. */
const config = (name, configs, id) => `${name} = ${pyJson(JSON.parse(configs[id]))}  # data/models/${id}.json`;

const PROGRAMS = {
  dilution,
  years,
  cache,
  speculation,
  "alibi-extremes": () => ({
    title: "ALiBi (section 6): the steepest and the gentlest head, and the gentlest head's factor far back.",
    module: "alibi",
    uses: ["alibi_heads", "alibi_decay"],
    driver: (v) => `heads, distance = ${pyInt(v.heads)}, ${pyInt(v.distance)}
h = alibi_heads(heads)
for name in ["steepest", "gentlest"]:
    head, slope, half_distance = h[name]
    show(name + "_head", head)
    show(name + "_slope", slope)
    show(name + "_half_distance", half_distance)
show("far_weight_factor", alibi_decay(h["gentlest"][1], distance + 1)[distance])`,
  }),
  "rope-slowest-pair": ({ headDim }) => ({
    title: `Rotary embeddings (section 3): how far the slowest pair of a head of dimension ${headDim} turns.`,
    module: "rope",
    uses: ["rope"],
    driver: (v) => `trained, offset, base, d = ${pyInt(v.trained)}, ${pyInt(v.offset)}, ${py(v.base)}, ${pyInt(headDim)}
unit = np.eye(d)[0]  # any q and k: only the angles are asked for
at_trained, at_offset = rope(unit, unit, trained, 0, base=base), rope(unit, unit, offset, 0, base=base)
show("slowest_theta", at_trained["thetas"][-1])  # θ_i = base^(-2i/d): the last pair is the slowest
show("angle_at_trained_length", at_trained["angles"][-1][0])
show("angle_at_offset", at_offset["angles"][-1][0])`,
  }),
  "sliding-layers": ({ model }, names) => ({
    title: `A real model's cache (section 4): ${names[model]}'s sliding and full layers, and those that hold a token far back.`,
    module: "model",
    uses: ["model_from_config", "model_cost"],
    driver: (v, configs) => `${config("config", configs, model)}
tokens, back, memory_bytes = ${pyInt(v.tokens)}, ${pyInt(v.back)}, ${py(v.memory)} * 2**30
shape = model_from_config(config)
r = model_cost(shape, tokens, kv_bytes_per_element=2, weight_bytes_per_param=2, memory_bytes=memory_bytes)
every = dict(shape, layerKinds=["full"] * len(shape["layerKinds"]))  # the sliding layers holding every token
e = model_cost(every, tokens, kv_bytes_per_element=2, weight_bytes_per_param=2, memory_bytes=memory_bytes)
far = model_cost(shape, back)  # a context reaching back to the line: a layer sees it if it holds all of it
for k in r["by_kind"]:
    show("kv_bytes_" + k["kind"], k["bytes"])
show("kv_bytes", r["kv_bytes"])
show("kv_bytes_every_layer_full", e["kv_bytes"])
show("weights_bytes", r["weights_bytes"])
show("fit_max_tokens", r["fit"]["max_tokens"])
show("fit_max_tokens_every_layer_full", e["fit"]["max_tokens"])
for k in far["by_kind"]:
    show("tokens_held_" + k["kind"], k["tokensHeld"])`,
  }),
  "latent-cache": ({ model, compared }, names) => ({
    title: `A real model's cache (section 4): ${names[model]}'s latent against its rebuilt keys and values, and ${names[compared]}'s.`,
    module: "model",
    uses: ["model_from_config", "model_cost"],
    driver: (v, configs) => `${config("latent_config", configs, model)}
${config("compared_config", configs, compared)}
tokens, batch, memory_bytes, b = ${pyInt(v.tokens)}, ${pyInt(v.batch)}, ${py(v.memory)} * 2**30, ${py(v.kvBytesPerElement)}
shape = model_from_config(latent_config)
engine = model_cost(shape, tokens, batch=batch, kv_bytes_per_element=b, weight_bytes_per_param=1, mla_cache="latent",
                    memory_bytes=memory_bytes)
script = model_cost(shape, tokens, batch=1, kv_bytes_per_element=b, weight_bytes_per_param=1, mla_cache="expanded",
                    memory_bytes=memory_bytes)
other = model_cost(model_from_config(compared_config), tokens, kv_bytes_per_element=b)
for name, r in [("engine", engine), ("script", script)]:
    show(name + "_kv_bytes_per_token", r["kv_bytes_per_token"])
    show(name + "_kv_bytes", r["kv_bytes"])
show("weights_bytes", engine["weights_bytes"])
show("params_total", engine["params"]["total"])
show("engine_fit_max_batch", engine["fit"]["max_batch"])
show("script_fit_max_tokens", script["fit"]["max_tokens"])
show("compared_kv_bytes_per_token", other["kv_bytes_per_token"])
show("compared_params_total", other["params"]["total"])`,
  }),
  "expert-reads": ({ model, device }, names) => ({
    title: `The decoding floor (section 4): ${names[model]}'s step for one developer and for all of them, the bytes read over the bandwidth.`,
    module: "model",
    uses: ["model_from_config", "model_cost"],
    driver: (v, configs) => `${config("config", configs, model)}
users, tokens = ${pyInt(v.users)}, ${pyInt(v.tokens)}
devices = {"count": 1, "memory_bytes": ${py(deviceById(device).memoryMiB)} * 2**20, "bandwidth": ${py(v.bandwidth)} * 1e9, "flops": ${py(v.peak)} * 1e12}
shape = model_from_config(config)
for name, batch in [("alone", 1), ("all", users)]:
    d = model_cost(shape, tokens, batch=batch, devices=devices)["decode"]
    for key in ["weights_bytes_read", "experts_touched", "bytes_per_step", "memory_seconds", "compute_seconds",
                "seconds_per_step", "tokens_per_second"]:
        show(name + "_" + key, d[key])
    show(name + "_kv_bytes_read", d["bytes_per_step"] - d["weights_bytes_read"])  # the rest of the step's bytes
    print(name + ": the step is bound by", d["bound"])`,
  }),
  "shared-scale": ({ others }) => ({
    title: "Quantisation (section 7): one outlier sets the scale Δ for every value.",
    module: "quantization",
    uses: ["quantize"],
    driver: (v) => `bits = ${pyInt(v.bits)}
values = np.array(${pyList([v.outlier, ...others])}, dtype=float)
q = quantize(values, bits)
show("scale", q["scale"])
show("levels", q["levels"])
show("max_error", q["max_abs_error"])
q = quantize(values[1:], bits)  # without the outlier
show("scale_without_outlier", q["scale"])
show("max_error_without_outlier", q["max_abs_error"])`,
  }),
  "bit-widths": ({ others }) => ({
    title: "Quantisation (section 7): a row of weights at two bit widths.",
    module: "quantization",
    uses: ["quantize"],
    driver: (v) => `bits, before = ${pyInt(v.bits)}, ${pyInt(v.before)}
values = np.array(${pyList([v.largest, ...others])}, dtype=float)
for prefix, b in [("", bits), ("before_", before)]:
    q = quantize(values, b)
    show(prefix + "qmax", q["qmax"])
    show(prefix + "scale", q["scale"])
    show(prefix + "levels", q["levels"])
    show(prefix + "max_error", q["max_abs_error"])`,
  }),
};

// A reader's trial of the figure, made by the tests in every browser: the control a reader moves
// first, a change of its inputs as its controls would make it, what its NumPy program prints
// (from the widget's result), the numbers it shows and which printed quantities they are, the
// numbers its picture carries, and one number shown beside the engine's own value for it (see
// figures.js). Only the tests import it (tests/browser/registry.js): the pages' bundles leave it out.
export const trial = {
  // a number of its calculation, shown once the reader has named the right mechanism
  control: '.diagnose-inputs input[type="number"]',
  // (its changes and its programs' numbers: scenario by scenario, tests/browser/takeaway.test.js)
  pictured: ".diagnose-title",
  engine: {
    // the lines of its calculation for the scenario shown, as text
    shown: (root) => [...root.querySelectorAll(".diagnose-lines li")].map((li) => li.textContent),
    // the figure's own calculation made by a fresh engine, written as its list items read (a line is
    // text, or text and elements: an exponent)
    core: async (el, engine) => {
      const fresh = Object.create(el, { core: { value: engine } });
      return el.compute.call(fresh).lines.map((line) => {
        const li = document.createElement("li");
        li.append(...[line].flat());
        return li.textContent;
      });
    },
  },
};
