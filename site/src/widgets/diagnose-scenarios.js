// The diagnosis figure's data: the six mechanisms a reader chooses among, and the scenarios, two
// or more per mechanism. Data and core calls only; the figure (diagnose.js) shuffles, asks and
// draws.
//
// A scenario: { id, mechanism (the right one's id), title (neutral: it must not give the answer
// away), story (what the user saw and the numbers they have), because (why the right mechanism
// explains it), not (for each of the five other mechanisms, why it does not explain this
// story), section (the chapter section whose calculation applies), inputs, compute(core, values)
// returning the calculation's lines (every number from the core; the story's numbers are its
// inputs' defaults), assumptions, check (the test that could prove the diagnosis wrong) }.
//
// An input: { key (its name in compute's argument), name (kebab-case; the figure's attribute is
// "<scenario id>-<name>"), type ("number" unless "integer"), label, min, max, step, value (the
// default, as the story states it), doc (one sentence for the course authors' guide) }.
import { h, sym } from "../dom.js";
import { fmt, fmtBytes, grouped, pct } from "../format.js";

const int = (x) => grouped(x);
const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x)));
const strong = (...children) => h("strong", {}, ...children);

/** The six mechanisms of the chapter, in its order: the choices of every scenario. */
export const mechanisms = [
  { id: "missing-context", label: "Missing context" },
  { id: "sampled-wording", label: "Different sampled wording" },
  { id: "position", label: "Positional relationships" },
  { id: "memory", label: "Memory cost" },
  { id: "speed", label: "Speed" },
  { id: "precision", label: "Numeric precision" },
];

// ---- The calculations two scenarios share (each with its own inputs and story) ----

/** One relevant key among n distractors, before and after trimming (section 1). */
function dilution(core, v, { whole, trimmed }) {
  const before = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.n });
  const after = core.contextDilution({ relevantScore: v.a, distractorScore: v.b, distractors: v.trimmed });
  return [
    [
      `${whole}: `,
      sym("w"),
      " = ",
      exp(v.a),
      " / (",
      exp(v.a),
      ` + ${int(v.n)}·`,
      exp(v.b),
      ") = ",
      strong(pct(before.relevantWeight, 2)),
    ],
    [`${trimmed} (${int(v.trimmed)} other tokens): `, strong(pct(after.relevantWeight, 2))],
  ];
}

/** The year a sampler draws at temperature T, ten seeded draws, and what greedy decoding says. */
function years(core, v, tokens, seed) {
  const logits = [v.z1, v.z2, v.z3];
  const r = core.sampling({ logits }, { temperature: v.T });
  const greedy = core.sampling({ logits }, { temperature: 0 });
  const draws = core.sample(r.probs, { count: 10, seed });
  return [
    [`At T = ${fmt(v.T)}: `, tokens.map((t, i) => `P(${t}) = ${pct(r.probs[i], 1)}`).join(", "), "."],
    [`Ten draws at T = ${fmt(v.T)} (seed ${seed}): `, strong(draws.map((i) => tokens[i]).join(", "))],
    [
      "At T = 0 (greedy) every run says “",
      strong(tokens[greedy.kept[0]]),
      "”: repeatable, and only as right as the most probable token.",
    ],
  ];
}

/** The key–value cache of `batch` sequences of a model's shape (section 4). */
function cache(core, v, shape) {
  const r = core.attentionCost({ ...shape, tokens: v.tokens, batch: v.batch, bytesPerValue: v.bytesPerValue });
  return [
    [
      "KV cache = 2 · ",
      `${int(v.batch)} · ${int(v.tokens)} · ${shape.kvHeads} · ${shape.headDim} · ${shape.layers} layers · ${fmt(v.bytesPerValue)} bytes = `,
      strong(fmtBytes(r.kvBytes)),
    ],
    [`Per token of one sequence: ${fmtBytes(r.kvBytesPerToken)}.`],
  ];
}

/** Expected tokens per target call and the walltime improvement (section 5). */
function speculation(core, v) {
  const r = core.speculativeDecoding({ alpha: v.alpha, gamma: v.gamma, costRatio: v.c });
  return [
    [
      "Expected tokens per large-model call: (1 − α",
      h("sup", {}, "γ+1"),
      ") / (1 − α) = ",
      strong(fmt(r.expectedTokens, 3)),
      ` (ceiling ${fmt(r.ceiling, 3)} as γ grows).`,
    ],
    [
      "Walltime improvement (1 − α",
      h("sup", {}, "γ+1"),
      ") / ((1 − α)(γc + 1)) = ",
      strong(`${fmt(r.speedup, 3)}×`),
      " (below 1 means slower than without a draft).",
    ],
  ];
}

// ---- The scenarios ----

export const scenarios = [
  {
    id: "refund-policy",
    mechanism: "missing-context",
    title: "The refund that was never promised",
    story:
      "A support assistant tells a customer that opened items can be refunded within 60 days; the company's policy says 14. The policy was in the prompt: the assistant receives the whole product manual, about 5,000 tokens, with the refund paragraph placed last, right before the customer's question. Regenerating gives 60 days again. Given only the refund paragraph and the question (about 50 tokens), it answers 14 days every time.",
    because:
      "The policy was in the window, but so were 5,000 tokens about everything else, and each of them takes a share of every softmax. One relevant key among thousands keeps little weight even when it scores higher than each of them; with the paragraph alone, the same model reads it.",
    not: {
      "sampled-wording":
        "Regenerating gives 60 days every time, so this is not a spread of draws; and the answer turned right when the prompt got shorter, with the sampler unchanged.",
      position:
        "The paragraph sat right before the question in both prompts, at the same short distance. What changed between the wrong and the right answer is how much other text was in the window.",
      memory:
        "The request ran and returned an answer; nothing ran out of memory. Memory cost limits what you can serve, not what an answer says.",
      speed: "The answer came back in normal time. The complaint is its content, not how long it took.",
      precision:
        "The same model at the same precision answered right with the shorter prompt: the number format did not change, the prompt did.",
    },
    section: "attention",
    inputs: [
      {
        key: "a",
        name: "relevant-score",
        label: "relevant key's score a",
        min: -5,
        max: 15,
        step: 0.5,
        value: 4,
        doc: "The refund policy: the relevant key's score a.",
      },
      {
        key: "b",
        name: "distractor-score",
        label: "distractor score b",
        min: -5,
        max: 15,
        step: 0.5,
        value: 0,
        doc: "The refund policy: the score b of every distractor token.",
      },
      {
        key: "n",
        name: "distractors",
        type: "integer",
        label: "distractor tokens n",
        min: 0,
        max: 1000000,
        step: 1,
        value: 5000,
        doc: "The refund policy: the number n of distractor tokens with the whole manual.",
      },
      {
        key: "trimmed",
        name: "trimmed",
        type: "integer",
        label: "after trimming to n",
        min: 0,
        max: 1000000,
        step: 1,
        value: 50,
        doc: "The refund policy: the number of other tokens left with the paragraph alone.",
      },
    ],
    compute: (core, v) => dilution(core, v, { whole: "With the whole manual", trimmed: "With the paragraph alone" }),
    assumptions:
      "One head, one relevant key, and every other token scoring alike; a trained model separates relevant text better than this, so the numbers show the direction of the effect, not its size.",
    check:
      "Supply the needed paragraph directly, or cut what is irrelevant, and ask again; then compare the answer with the policy itself.",
  },
  {
    id: "warranty",
    mechanism: "missing-context",
    title: "Two chargers",
    story:
      "A retrieval assistant answers “What is the warranty on the X200 charger?” with “12 months”, the warranty of the older X100. Its search step put the 40 best-matching passages into the prompt, about 16,000 tokens, most of them about other chargers; the X200 passage, which says 24 months, is among them, placed right before the question. Asked again, it says 12 months again. Keeping only the top 4 passages, about 1,600 tokens, it answers 24 months.",
    because:
      "The right passage was retrieved and sits in the window, but 39 passages about similar chargers score almost as well and together take most of the softmax. With four passages the X200 passage keeps a far larger share, and the answer turns right.",
    not: {
      "sampled-wording":
        "It says 12 months every time it is asked: a repeatable error, not a spread of draws. The answer changed only when the retrieved text changed.",
      position:
        "The X200 passage sits right before the question in both prompts. Its distance did not change; the amount of competing text did.",
      memory: "Both prompts ran to completion. The question is what the answer says, not whether the request fits.",
      speed: "The answer arrived in normal time; its content is what is wrong.",
      precision:
        "Nothing about the model's numbers changed between the wrong and the right answer; only the retrieved text did.",
    },
    section: "attention",
    inputs: [
      {
        key: "a",
        name: "relevant-score",
        label: "X200 passage's score a",
        min: -5,
        max: 15,
        step: 0.5,
        value: 8,
        doc: "Two chargers: the score a of the key that carries the X200's warranty.",
      },
      {
        key: "b",
        name: "distractor-score",
        label: "similar passages' score b",
        min: -5,
        max: 15,
        step: 0.5,
        value: 2,
        doc: "Two chargers: the score b of every token of the passages about other chargers.",
      },
      {
        key: "n",
        name: "distractors",
        type: "integer",
        label: "tokens of 40 passages n",
        min: 0,
        max: 1000000,
        step: 1,
        value: 16000,
        doc: "Two chargers: the number n of competing tokens with 40 passages.",
      },
      {
        key: "trimmed",
        name: "trimmed",
        type: "integer",
        label: "tokens of 4 passages",
        min: 0,
        max: 1000000,
        step: 1,
        value: 1600,
        doc: "Two chargers: the number of competing tokens with the top 4 passages.",
      },
    ],
    compute: (core, v) => dilution(core, v, { whole: "With 40 passages", trimmed: "With the top 4 passages" }),
    assumptions:
      "One head, one key carrying the answer, and every competing token scoring alike; real passages about similar products compete unevenly, so the numbers show the direction, not the size.",
    check:
      "Retrieve fewer, better passages (or rerank them) and ask again; check the answer against the X200 passage itself.",
  },
  {
    id: "treaty",
    mechanism: "sampled-wording",
    title: "Two colleagues, two years",
    story:
      "Two colleagues paste the same question into the same assistant with the same settings (temperature 0.8, no source attached). One is told the Treaty of Versailles was signed in 1919, the other 1920. Each of them, asking again, sometimes gets the other year.",
    because:
      "The model gives a distribution over the next token and the sampler draws from it. At temperature 0.8 the less probable year keeps a real share of the probability: same prompt, same model, different draws.",
    not: {
      "missing-context":
        "Both had exactly the same prompt. Missing or drowned evidence gives a wrong answer, but the same one to everybody; it does not make one person's answer change from run to run.",
      position: "The question is one short sentence; nothing the answer depends on sits far back in the prompt.",
      memory: "Both requests completed. Memory limits what you can serve, not which year is drawn.",
      speed: "Both answers arrived in normal time; time has nothing to do with which year was written.",
      precision:
        "Both used the same model at the same precision. Rounding shifts the probabilities a little; it is the draw at temperature 0.8 that makes the year change between runs.",
    },
    section: "sampling",
    inputs: [
      {
        key: "z1",
        name: "z1",
        label: "logit of “1919”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 2.2,
        doc: "Two years: the logit of the token “1919”.",
      },
      {
        key: "z2",
        name: "z2",
        label: "logit of “1920”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 1.6,
        doc: "Two years: the logit of the token “1920”.",
      },
      {
        key: "z3",
        name: "z3",
        label: "logit of “1918”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 0.4,
        doc: "Two years: the logit of the token “1918”.",
      },
      {
        key: "T",
        name: "temperature",
        label: "temperature T",
        min: 0,
        max: 3,
        step: 0.1,
        value: 0.8,
        doc: "Two years: the sampling temperature T (0 is greedy).",
      },
    ],
    compute: (core, v) => years(core, v, ["1919", "1920", "1918"], 7),
    assumptions: "Only the year token differs; in a longer answer a different early token changes everything after it.",
    check:
      "Compare the answers with the source, not with each other. Sample several times to see the spread; a low temperature makes the answer repeatable, not verified.",
  },
  {
    id: "eiffel",
    mechanism: "sampled-wording",
    title: "Repeatable, and wrong",
    story:
      "Tired of answers that change, a team sets their assistant's temperature to 0. Now “When was the Eiffel Tower completed?” gets the same answer on every run: 1887. It was completed in 1889. At temperature 1 the same assistant, with the same prompt and no source, had said 1889 in some runs and 1887 in others.",
    because:
      "Temperature 0 is greedy decoding: every run takes the most probable token, and here the most probable year is the wrong one. Greedy makes an answer repeatable; only a source can make it right.",
    not: {
      "missing-context":
        "No source was in the prompt at either temperature, so missing context cannot explain why the answer changed with the temperature. (Supplying the source is still the cure: see the check.)",
      position: "A one-sentence question: nothing the answer depends on is far back.",
      memory: "Every run completed; memory cost decides what can be served, not which year is chosen.",
      speed: "The answers came back in normal time; the complaint is which year they name.",
      precision:
        "The model and its number format were the same at both temperatures; what changed is how the next token is chosen from the same distribution.",
    },
    section: "sampling",
    inputs: [
      {
        key: "z1",
        name: "z1",
        label: "logit of “1887”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 2,
        doc: "Repeatable, and wrong: the logit of the token “1887”.",
      },
      {
        key: "z2",
        name: "z2",
        label: "logit of “1889”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 1.7,
        doc: "Repeatable, and wrong: the logit of the token “1889”.",
      },
      {
        key: "z3",
        name: "z3",
        label: "logit of “1888”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 0.4,
        doc: "Repeatable, and wrong: the logit of the token “1888”.",
      },
      {
        key: "T",
        name: "temperature",
        label: "temperature T before",
        min: 0,
        max: 3,
        step: 0.1,
        value: 1,
        doc: "Repeatable, and wrong: the temperature the team used before switching to 0.",
      },
    ],
    compute: (core, v) => years(core, v, ["1887", "1889", "1888"], 11),
    assumptions:
      "Only the year token differs, and the logits are the model's as it stands: no sampler setting can make a token more probable than the model makes it.",
    check:
      "Compare the answer with a source (or put the source in the prompt). Greedy decoding is for repeatability; it verifies nothing.",
  },
  {
    id: "contract",
    mechanism: "position",
    title: "Which party must deliver?",
    story:
      "A contract-review tool built on a model with ALiBi positions (12 heads per layer) says the Buyer must deliver the goods. Clause 14 says “the Supplier shall deliver”, and the Supplier is defined on page 1, about 3,000 tokens before clause 14; the whole contract fits the model's window easily. When the definition is copied in just before clause 14, with nothing removed, the tool answers right.",
    because:
      "ALiBi subtracts m·distance from every score, so each head halves a key's weight every ln 2 / m tokens. 3,000 tokens is many half-distances even for the gentlest of the 12 heads: the definition is in the window but barely visible from clause 14. Moving it closer, and changing nothing else, fixed it.",
    not: {
      "missing-context":
        "Nothing was cut to fix it: copying the definition in added text, and the answer still turned right. Dilution grows with the amount of competing text; here only the definition's distance changed.",
      "sampled-wording": "The tool names the Buyer on every run; a spread of draws would change from run to run.",
      memory:
        "The contract fits the window and the tool runs. Memory decides what you can serve, not which party the answer names.",
      speed: "The answer came back; the time it took is not the complaint.",
      precision:
        "The number format was the same for the wrong and the right answer; only the definition's distance changed.",
    },
    section: "alibi",
    inputs: [
      {
        key: "heads",
        name: "heads",
        type: "integer",
        label: "attention heads",
        min: 1,
        max: 64,
        step: 1,
        value: 12,
        doc: "Which party: the number of attention heads whose ALiBi slopes are compared.",
      },
      {
        key: "distance",
        name: "distance",
        type: "integer",
        label: "tokens back",
        min: 1,
        max: 100000,
        step: 1,
        value: 3000,
        doc: "Which party: how many tokens before the clause the definition stands.",
      },
    ],
    compute(core, v) {
      // The core finds the extremes by comparing every slope: for a head count that is not a
      // power of two they are not the first and the last head (12 heads: heads 9 and 8).
      const { steepest, gentlest } = core.alibiHeads(v.heads);
      const far = core.alibi({ slope: gentlest.slope, distances: v.distance + 1 }).relativeWeight[v.distance];
      return [
        [
          `Of ${v.heads} heads the steepest is head ${steepest.head} (`,
          sym("m"),
          ` = ${fmt(steepest.slope, 4)}): it halves a key's weight every `,
          strong(`${fmt(steepest.halfDistance, 2)} tokens`),
          ".",
        ],
        [
          `The gentlest is head ${gentlest.head} (`,
          sym("m"),
          ` = ${fmt(gentlest.slope, 6)}): it halves it every `,
          strong(`${fmt(gentlest.halfDistance, 1)} tokens`),
          ".",
        ],
        [
          `${int(v.distance)} tokens back, even the gentlest head scales the definition's weight by `,
          "e",
          h("sup", {}, `−m·${int(v.distance)}`),
          " = ",
          strong(fmt(far, 4)),
          " of what it would have next to the clause.",
        ],
      ];
    },
    assumptions:
      "ALiBi's fixed slopes (Press et al., 2022) and equal content scores at both distances; learned attention can still reach far when the content matches strongly, and other layers can relay information.",
    check:
      "Restate the needed fact next to the question (or ask the model to quote the clause it relies on) and see whether the answer changes.",
  },
  {
    id: "long-report",
    mechanism: "position",
    title: "Past the trained length",
    story:
      "A team raises their inference engine's context limit to run Llama 2 (rotary positions with base 10,000, heads of dimension 128, trained on sequences of up to 4,096 tokens) on 12,000-token reports. Questions about the last few pages are answered well; questions about facts more than about 4,000 tokens before the question get confused answers, even for short, distinctive facts. Cutting the report so that the same fact lies 2,000 tokens back, the answer is right.",
    because:
      "Rotary embeddings turn each pair of query and key coordinates by position·θ, so a score depends on the offset. In training no offset exceeded 4,096 tokens, so the slowest pairs never turned further than the angle below; longer offsets give angles the model never learned to read.",
    not: {
      "missing-context":
        "The facts are in the window, and facts within the last 4,000 tokens are found with the whole report present, so the rest of the text does not drown them: the failures start at a distance, the trained length.",
      "sampled-wording":
        "Answers about distant facts are wrong on every run and answers about near facts right on every run: the split follows the distance, not the draw.",
      memory:
        "The engine ran the 12,000-token reports without running out of memory; the answers are wrong, not missing.",
      speed: "The complaint is what the answers say about distant facts, not how long they took.",
      precision: "The model's precision is the same for near and far facts, and only the far ones fail.",
    },
    section: "rope",
    inputs: [
      {
        key: "trained",
        name: "trained-length",
        type: "integer",
        label: "trained length",
        min: 1,
        max: 1000000,
        step: 1,
        value: 4096,
        doc: "Past the trained length: the longest sequence the model was trained on, in tokens.",
      },
      {
        key: "offset",
        name: "offset",
        type: "integer",
        label: "tokens back",
        min: 1,
        max: 1000000,
        step: 1,
        value: 12000,
        doc: "Past the trained length: how many tokens before the question the fact stands.",
      },
      {
        key: "base",
        name: "base",
        label: "base",
        min: 2,
        max: 10000000,
        step: 1,
        value: 10000,
        doc: "Past the trained length: the rotary base (θ_i = base^(−2i/d)).",
      },
    ],
    compute(core, v) {
      const d = 128;
      // Only the angles are read, so any query and key will do.
      const unit = Array.from({ length: d }, (_, i) => (i === 0 ? 1 : 0));
      const trained = core.rope(unit, unit, v.trained, 0, { base: v.base });
      const used = core.rope(unit, unit, v.offset, 0, { base: v.base });
      // θ_i = base^(−2i/d) falls with i for every base > 1: the last pair turns slowest.
      const slow = d / 2 - 1;
      return [
        [`With d = ${d} the slowest pair turns θ = `, strong(fmt(trained.thetas[slow], 7)), " radians per token."],
        [
          `At ${int(v.trained)} tokens, the trained length, it has turned `,
          strong(`${fmt(trained.angles[slow][0], 3)} radians`),
          ": the furthest training showed it.",
        ],
        [`At ${int(v.offset)} tokens back it turns `, strong(`${fmt(used.angles[slow][0], 3)} radians`), "."],
      ];
    },
    assumptions:
      "The slowest pair stands for the problem; the faster pairs wrap around many times within the trained length, so it is the slow ones whose angles are new. Methods such as position interpolation rescale positions so that the angles stay within the trained range.",
    check:
      "Test retrieval of one fact placed at known distances (1,000, 4,000, 8,000 tokens back); keep inputs within the trained length, or use a model trained or extended for longer contexts.",
  },
  {
    id: "serving",
    mechanism: "memory",
    title: "Sixteen users at 32k",
    story:
      "A team serves Llama-3.1-8B (32 layers, 32 query heads sharing 8 key–value heads of dimension 128; a context of up to 131,072 tokens) on one 80 GB GPU in 16-bit; the weights take about 16 GB. Single requests work. When 16 users each send about 32,768 tokens of conversation at once, the server fails with “CUDA out of memory”.",
    because:
      "Every token of every sequence keeps a key and a value per key–value head per layer. Sixteen sequences of 32,768 tokens need a cache larger than the memory the weights leave free; one request needs a sixteenth of it.",
    not: {
      "missing-context":
        "The server stops with an out-of-memory error before answering: there is no answer to be missing anything.",
      "sampled-wording": "Nothing is drawn: the requests fail before the first token.",
      position:
        "32,768 tokens is well within the model's 131,072-token context, and the failure depends on how many users are served at once, which positions do not.",
      speed: "The failure is an error, not slowness; one request at a time runs at normal speed.",
      precision:
        "The answers are not worse: there are none. (Storing the cache in fewer bits is one remedy, see the check, but the cause is size.)",
    },
    section: "cost",
    inputs: [
      {
        key: "tokens",
        name: "tokens",
        type: "integer",
        label: "context tokens",
        min: 1,
        max: 131072,
        step: 1,
        value: 32768,
        doc: "Sixteen users: each sequence's length in tokens, up to Llama-3.1-8B's context of 131,072.",
      },
      {
        key: "batch",
        name: "batch",
        type: "integer",
        label: "sequences at once",
        min: 1,
        max: 4096,
        step: 1,
        value: 16,
        doc: "Sixteen users: the number of sequences served at once.",
      },
      {
        key: "bytesPerValue",
        name: "bytes-per-value",
        label: "bytes per value",
        min: 0.5,
        max: 4,
        step: 0.5,
        value: 2,
        doc: "Sixteen users: the bytes each cached key or value takes (2 for 16-bit, 1 for 8-bit).",
      },
    ],
    compute: (core, v) => cache(core, v, { heads: 32, kvHeads: 8, headDim: 128, layers: 32 }),
    assumptions:
      "The whole context cached for every sequence at the stated precision; the weights (about 16 GB), activations and fragmentation come on top.",
    check:
      "Compute the cache before deploying. Shrink it with a shorter context per user, a smaller batch or 8-bit cache values, and measure memory again.",
  },
  {
    id: "batch",
    mechanism: "memory",
    title: "From demo to batch",
    story:
      "A demo of Llama-2-7B (32 layers, 32 heads each with its own keys and values, dimension 128; a context of 4,096 tokens) runs fine for one user on a 24 GB GPU, where the 16-bit weights take 13.5 GB. Serving 8 users at the full 4,096-token context, the first full batch crashes with “CUDA out of memory”.",
    because:
      "Without grouped-query attention each of the 32 heads keeps its own keys and values, so the cache for eight full sequences is larger than what the weights leave free on the card.",
    not: {
      "missing-context": "The crash comes before any answer: there is nothing to be wrong.",
      "sampled-wording": "Nothing is drawn: the batch fails before its first token.",
      position:
        "4,096 tokens is the model's own context length, and one user at that length works; what breaks it is the number of users.",
      speed: "One user runs at normal speed and eight crash: that is a size limit, not a time.",
      precision: "The 16-bit model runs fine for one user; the number format is the same at one user and at eight.",
    },
    section: "cost",
    inputs: [
      {
        key: "tokens",
        name: "tokens",
        type: "integer",
        label: "context tokens",
        min: 1,
        max: 4096,
        step: 1,
        value: 4096,
        doc: "From demo to batch: each sequence's length in tokens, up to Llama-2-7B's context of 4,096.",
      },
      {
        key: "batch",
        name: "batch",
        type: "integer",
        label: "sequences at once",
        min: 1,
        max: 4096,
        step: 1,
        value: 8,
        doc: "From demo to batch: the number of sequences served at once.",
      },
      {
        key: "bytesPerValue",
        name: "bytes-per-value",
        label: "bytes per value",
        min: 0.5,
        max: 4,
        step: 0.5,
        value: 2,
        doc: "From demo to batch: the bytes each cached key or value takes (2 for 16-bit, 1 for 8-bit).",
      },
    ],
    compute: (core, v) => cache(core, v, { heads: 32, kvHeads: 32, headDim: 128, layers: 32 }),
    assumptions:
      "The full context cached for every sequence at the stated precision; the weights (13.5 GB), activations and fragmentation come on top.",
    check:
      "Compute the cache before deploying: serve fewer sequences at once, cap their length, or store the cache in 8 bits, and measure memory again.",
  },
  {
    id: "slow-chat",
    mechanism: "speed",
    title: "Twelve tokens a second",
    story:
      "A chatbot on a 70-billion-parameter model streams about 12 tokens per second, and users find it slow. The answers are good, memory use is well within the GPUs, and every step reads the whole model to produce one token. A 1-billion-parameter model of the same family agrees with the large one on about 60% of next tokens, and one of its steps costs about 1/20 of a large-model step.",
    because:
      "Generating one token costs one full large-model call. Speculative decoding lets the small model draft γ tokens that the large one checks in a single call; with acceptance rate α, each call yields (1 − α^(γ+1)) / (1 − α) tokens on average.",
    not: {
      "missing-context": "The answers are good; only their pace is the complaint.",
      "sampled-wording": "Nothing about the wording is wrong or unstable; the complaint is the time per token.",
      position:
        "It is slow from the first token, on short prompts as on long ones; nothing depends on how far back anything is.",
      memory:
        "Memory use is well within the GPUs and nothing fails. Memory cost is about what fits, not how fast the tokens come.",
      precision:
        "The answers are good. A coarser number format is one way to make each step cheaper, but nothing here shows a precision problem.",
    },
    section: "speculative",
    inputs: [
      {
        key: "alpha",
        name: "alpha",
        label: "acceptance rate α",
        min: 0,
        max: 1,
        step: 0.01,
        value: 0.6,
        doc: "Twelve tokens a second: the rate α at which the large model accepts a drafted token.",
      },
      {
        key: "gamma",
        name: "gamma",
        type: "integer",
        label: "draft length γ",
        min: 0,
        max: 32,
        step: 1,
        value: 4,
        doc: "Twelve tokens a second: the number γ of tokens the draft model proposes per large-model call.",
      },
      {
        key: "c",
        name: "cost-ratio",
        label: "cost ratio c",
        min: 0,
        max: 1,
        step: 0.01,
        value: 0.05,
        doc: "Twelve tokens a second: the cost c of one draft step relative to one large-model step.",
      },
    ],
    compute: speculation,
    assumptions:
      "Acceptances independent from token to token at a constant rate α, and the large model's call costing the same for γ + 1 tokens as for one (Leviathan et al., 2023).",
    check:
      "Measure the acceptance rate on your own prompts (accepted drafts divided by the drafts actually checked) before adopting a draft model, then time real generations with and without it.",
  },
  {
    id: "slow-draft",
    mechanism: "speed",
    title: "Speculation that slowed things down",
    story:
      "A team switches on speculative decoding: a draft model whose step costs about a quarter of their target model's step proposes 8 tokens at a time. Generation becomes slower than before, although the outputs are as good as ever. Their logs show that the target accepts about 30% of the drafted tokens it checks.",
    because:
      "Each round costs γ draft steps plus one target call, and pays off only through the drafts accepted. At α = 0.3 few drafts survive, while eight draft steps at a quarter of a target step each make a round far dearer than one target call.",
    not: {
      "missing-context": "The outputs are as good as before; the complaint is time.",
      "sampled-wording":
        "Speculative sampling keeps the target model's distribution exactly, so the wording is drawn as before; only the time changed.",
      position: "It is slower on every prompt, short or long.",
      memory: "Nothing fails or runs out; the draft model fits, and the complaint is time per token.",
      precision:
        "The outputs are as good as before: the target checks every token, so the draft's quality shows up in the acceptance rate, that is in speed, not in the answers.",
    },
    section: "speculative",
    inputs: [
      {
        key: "alpha",
        name: "alpha",
        label: "acceptance rate α",
        min: 0,
        max: 1,
        step: 0.01,
        value: 0.3,
        doc: "Speculation that slowed things down: the rate α at which the target accepts a drafted token.",
      },
      {
        key: "gamma",
        name: "gamma",
        type: "integer",
        label: "draft length γ",
        min: 0,
        max: 32,
        step: 1,
        value: 8,
        doc: "Speculation that slowed things down: the number γ of tokens drafted per target call.",
      },
      {
        key: "c",
        name: "cost-ratio",
        label: "cost ratio c",
        min: 0,
        max: 1,
        step: 0.01,
        value: 0.25,
        doc: "Speculation that slowed things down: the cost c of one draft step relative to one target step.",
      },
    ],
    compute: speculation,
    assumptions:
      "Acceptances independent at a constant rate α and a target call costing the same for γ + 1 tokens as for one (Leviathan et al., 2023); real rates vary with the text, so measure on your own prompts.",
    check:
      "Try a shorter draft (smaller γ) or a cheaper or better-matched draft model, and time real generations; without a draft the improvement is 1 by definition.",
  },
  {
    id: "outlier",
    mechanism: "precision",
    title: "One loud channel",
    story:
      "After converting a model's activations and weights to 8-bit integers, with one scale per tensor, its answers get noticeably worse than in 16-bit on the same prompts at temperature 0. In one layer's input, one activation channel reaches 60 while the others stay below 1.",
    because:
      "Symmetric quantisation has one scale Δ for the whole tensor, the step between its levels, set by its largest magnitude. The outlier makes the scale Δ large, and the small values, which carry most of the information, round to a few levels or to zero.",
    not: {
      "missing-context": "The same prompts, with the same context, went to both versions; only the numbers changed.",
      "sampled-wording":
        "At temperature 0 both versions are repeatable; the 8-bit one repeats worse answers, so its distribution changed, not the draw.",
      position: "The degradation appears on short prompts too; it does not grow with distance.",
      memory: "8 bits use less memory than 16, and the model runs; the complaint is answer quality.",
      speed: "The model runs, and the complaint is quality, not time.",
    },
    section: "quantization",
    inputs: [
      {
        key: "outlier",
        name: "outlier",
        label: "outlier magnitude",
        min: 1,
        max: 200,
        step: 1,
        value: 60,
        doc: "One loud channel: the magnitude of the outlier activation.",
      },
      {
        key: "bits",
        name: "bits",
        type: "integer",
        label: "bits",
        min: 2,
        max: 16,
        step: 1,
        value: 8,
        doc: "One loud channel: the number of bits of the symmetric quantisation.",
      },
    ],
    compute(core, v) {
      const values = [v.outlier, 0.82, -0.37, 0.15, -0.06];
      const q = core.quantize(values, { bits: v.bits });
      const small = core.quantize(values.slice(1), { bits: v.bits });
      return [
        [
          `Values (${values.map((x) => fmt(x)).join(", ")}) at ${v.bits} bits: scale Δ `,
          strong(fmt(q.scale, 4)),
          `, levels (${q.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(q.maxAbsError, 4)}.`,
        ],
        [
          "Without the outlier the scale Δ would be ",
          strong(fmt(small.scale, 5)),
          ` and the largest error ${fmt(small.maxAbsError, 5)}.`,
        ],
      ];
    },
    assumptions:
      "Per-tensor symmetric quantisation with round-to-nearest; per-channel scales, or keeping outliers in higher precision, change the picture.",
    check:
      "Compare quantised and full-precision outputs on your own data, look for outlier channels, and try SmoothQuant's migration of scale into the weights.",
  },
  {
    id: "four-bit",
    mechanism: "precision",
    title: "From 8 to 4 bits",
    story:
      "To fit a model on a smaller GPU, a team quantises its weights from 8 to 4 bits, one scale per tensor. On their test set at temperature 0, the 4-bit model gets more answers wrong than the 8-bit one. In one weight row the largest weight is 0.9, while most are below 0.05.",
    because:
      "With 4 bits there are only a few levels on each side of zero, and the largest weight sets the scale Δ, the step between them. Weights far below the scale Δ all round to the same level, often zero, and the layer loses what they encoded.",
    not: {
      "missing-context": "The same prompts and context went to both models; only the weights' number format changed.",
      "sampled-wording":
        "At temperature 0 both models are repeatable: the 4-bit one repeats worse answers, so its distribution changed, not the draw.",
      position: "The errors do not depend on how long the prompts are or where the facts stand in them.",
      memory: "The 4-bit model fits and runs, which was the point; its answers are the complaint.",
      speed: "The complaint is the answers, not the time.",
    },
    section: "quantization",
    inputs: [
      {
        key: "largest",
        name: "largest",
        label: "largest weight",
        min: 0.01,
        max: 100,
        step: 0.01,
        value: 0.9,
        doc: "From 8 to 4 bits: the largest weight of the row.",
      },
      {
        key: "bits",
        name: "bits",
        type: "integer",
        label: "bits",
        min: 2,
        max: 16,
        step: 1,
        value: 4,
        doc: "From 8 to 4 bits: the number of bits of the weights' symmetric quantisation.",
      },
      {
        key: "before",
        name: "before-bits",
        type: "integer",
        label: "compared with bits",
        min: 2,
        max: 16,
        step: 1,
        value: 8,
        doc: "From 8 to 4 bits: the width the model ran at before.",
      },
    ],
    compute(core, v) {
      const values = [v.largest, 0.04, -0.03, 0.02, -0.01];
      const q = core.quantize(values, { bits: v.bits });
      const before = core.quantize(values, { bits: v.before });
      return [
        [
          `Values (${values.map((x) => fmt(x)).join(", ")}) at ${v.bits} bits: levels −${q.qmax} … ${q.qmax}, scale Δ `,
          strong(fmt(q.scale, 4)),
          `, levels (${q.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(q.maxAbsError, 4)}.`,
        ],
        [
          `At ${v.before} bits: levels −${before.qmax} … ${before.qmax}, scale Δ `,
          strong(fmt(before.scale, 5)),
          `, levels (${before.levels.map((x) => fmt(x)).join(", ")}), largest error ${fmt(before.maxAbsError, 5)}.`,
        ],
      ];
    },
    assumptions:
      "Per-tensor symmetric quantisation with round-to-nearest of one row; 4-bit methods used in practice (per-group scales, GPTQ, AWQ) keep far more of the small weights.",
    check:
      "Compare the 4-bit and 8-bit models on your own test set, per layer if possible; try per-channel or per-group scales before giving up on 4 bits.",
  },
];
