// The diagnosis figure's data: the six mechanisms a reader chooses among, and the scenarios, two
// or more per mechanism. Data and core calls only; the figure (diagnose.js) shuffles, asks and
// draws.
//
// A scenario: { id, mechanism (the right one's id), title and story (what the user saw and the
// numbers they have; neither may name a mechanism or use one of its give-away words, below),
// because (why the right mechanism explains it), not (for each of the five other mechanisms,
// why it does not explain this story), section (the chapter section whose calculation applies),
// inputs, compute(core, values, models) returning the calculation's lines (every number from the
// core; the story's numbers are its inputs' defaults), assumptions (the choices of "Which
// assumption matters most here?") and checks (those of "Which check would tell you?") }, and
// models (the ids of the real models it reads, if any).
//
// A scenario about a real model reads its committed config.json (data/models/) with the
// core: `models` is the figure's table of those files by id ({ id, name, file, source, published,
// text }, as llmmath:model-presets gives them; diagnose.js passes it in, so that this module stays
// plain data that Node can import), and compute calls core.modelFromConfigText on a model's text,
// never a shape typed here.
//
// A choice: { text, why, right (true on exactly one choice of each list) }. The right one's why
// says why it is the one, a wrong one's why it is not; all of them must be plausible, and the
// right one's place in its list varies from scenario to scenario (the figure shows them in
// this order, and the reader's URL names them by their number in it).
//
// An input: { key (its name in compute's argument), name (kebab-case; the figure's attribute is
// "<scenario id>-<name>"), type ("number" unless "integer"), label, min, max, step, value (the
// default, as the story states it), doc (one sentence for the course authors' guide) }.
import { h, sym } from "../dom.js";
import { fmt, fmtBytes, fmtCount, fmtRate, fmtSeconds, grouped, pct } from "../format.js";
import { deviceById } from "./model-devices.js";

const int = (x) => grouped(x);
const exp = (x) => h("span", {}, "e", h("sup", {}, fmt(x)));
const strong = (...children) => h("strong", {}, ...children);

/**
 * The six mechanisms of the chapter, in its order: the choices of every scenario. Its
 * give-aways are the words (matched at the start of a word, in any case) that would name a
 * mechanism or its remedy in a story, so that the reader could match a word instead of
 * reasoning; no title or story contains one, nor any mechanism's label. "Temperature", "tokens"
 * and "window" are not among them: a story needs them to state its numbers, and they point at
 * no one mechanism.
 */
export const mechanisms = [
  {
    id: "missing-context",
    label: "Missing context",
    giveaways: ["missing", "context", "dilut", "distractor", "irrelevant", "drown", "evidence"],
  },
  {
    id: "sampled-wording",
    label: "Different sampled wording",
    giveaways: ["sampl", "wording", "random", "draw", "greedy", "stochastic", "luck"],
  },
  {
    id: "position",
    label: "Positional relationships",
    giveaways: ["position", "alibi", "rotary", "rope", "distance", "slope", "relationship", "offset"],
  },
  {
    id: "memory",
    label: "Memory cost",
    giveaways: ["memory", "oom", "cache", "kv", "allocat", "vram", "gib"],
  },
  {
    id: "speed",
    label: "Speed",
    giveaways: ["speed", "slow", "fast", "latency", "speculat", "draft", "throughput"],
  },
  {
    id: "precision",
    label: "Numeric precision",
    giveaways: [
      "precision",
      "bit",
      "integer",
      "int4",
      "int8",
      "quantis",
      "quantiz",
      "rounding",
      "float",
      "fp16",
      "bf16",
      "outlier",
    ],
  },
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

/** Bytes in a GiB: the scenarios' memory sizes are in GiB, as Figure 4.2 counts an accelerator's. */
const GIB = 2 ** 30;

/** A real model's name and shape, the core's reading of its committed config.json. */
function realModel(core, models, id) {
  const preset = models[id];
  if (!preset) throw new Error(`no configuration of the model ${id} among data/models`);
  return { name: preset.name, shape: core.modelFromConfigText(preset.text) };
}

/** The layers of one kind in a modelCost result (its byKind lists each kind present once). */
const ofKind = (r, kind) => r.byKind.find((k) => k.kind === kind);

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
    assumptions: [
      {
        text: "The manual's 5,000 tokens can be taken as one head's keys in one layer.",
        why: "A simplification, but the conclusion does not rest on it: every head divides its weight among all 5,000 tokens, so the comparison between the two prompts holds head by head.",
      },
      {
        text: "Other tokens score alike, a little below the paragraph (a = 4, b = 0).",
        why: "This is what the conclusion rests on: the paragraph's share is eᵃ against n·eᵇ, so if the manual's tokens scored far below the paragraph, 5,000 of them would take little weight and would not explain the error. A trained model separates relevant text better than this: the numbers show the direction, not the size.",
        right: true,
      },
      {
        text: "The sampler treats the long prompt and the short one in the same way.",
        why: "True, and beside the point: regenerating gave 60 days every time, so the draw is not what differs between the prompts.",
      },
      {
        text: "The whole manual, about 5,000 tokens, fits in the model's window.",
        why: "It does, and nothing in the story puts it in doubt; a paragraph beyond the window would be absent, not outweighed.",
      },
    ],
    checks: [
      {
        text: "Regenerate ten times and keep the answer that comes up most often.",
        why: "It gave 60 days every time: agreement between runs shows that the answer repeats, not that it is right.",
      },
      {
        text: "Move the refund paragraph from the end of the prompt to its start.",
        why: "It already sat right before the question; moving it away changes its place and leaves all 5,000 tokens competing, so the result could not tell the explanations apart.",
      },
      {
        text: "Cut the manual to its pages on returns, and check against the policy.",
        why: "If the answer turns right as the unrelated pages go, with the paragraph where it was and nothing else changed, their share of the weight was the cause; and the policy's text, not the model's agreement with itself, says what is right.",
        right: true,
      },
      {
        text: "Run the model with two bytes per number instead of one, then ask.",
        why: "The short prompt already got 14 days with the same model as it runs now; the number format is not what changed between the wrong and the right answer.",
      },
    ],
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
    assumptions: [
      {
        text: "The other passages' tokens score alike, just below the X200's (a = 8, b = 2).",
        why: "The conclusion rests on how close the competing passages score: passages about similar chargers match the question almost as well, which is why 16,000 tokens of them take most of the weight. Passages that scored far lower would hardly compete.",
        right: true,
      },
      {
        text: "The answer rests on a single key of the X200 passage, not on several.",
        why: "A few keys carrying it would raise its share with 40 passages and with 4 alike; the drop between the two prompts stands.",
      },
      {
        text: "The search step ranks all 40 passages by how closely each matches the question.",
        why: "It does, and it is why the X200 passage is there at all; the error lies in what the model does with 40 passages, not in their ranking.",
      },
    ],
    checks: [
      {
        text: "Ask the same question again at a lower temperature, and compare answers.",
        why: "It already says 12 months every time; a lower temperature makes a repeatable answer more repeatable and tells nothing about the passages.",
      },
      {
        text: "Put the X200 passage first in the prompt, before the 39 others.",
        why: "It already stands right before the question; moving it away leaves the 39 other passages competing and changes only its place, which is not what made the difference.",
      },
      {
        text: "Rerank, keep the top 4 passages, and check answers against them.",
        why: "If the answers turn right as the competing passages go, over several questions, their share of the weight was the cause; the passage itself, not the model, says what the warranty is.",
        right: true,
      },
    ],
  },
  {
    id: "treaty",
    mechanism: "sampled-wording",
    title: "Two colleagues, two years",
    story:
      "Two colleagues paste the same question into the same assistant with the same settings (temperature 0.8). One is told the Treaty of Versailles was signed in 1919, the other 1920. Each of them, asking again, sometimes gets the other year.",
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
    assumptions: [
      {
        text: "The ten draws shown, with the seed 7, are typical of what users see.",
        why: "The seed fixes which ten draws are shown; every seed gives the same shares in the long run, so the conclusion does not rest on it.",
      },
      {
        text: "The colleagues' prompts and settings are the same to the last character.",
        why: "The story says so, and it rules out the prompt; but each colleague saw the year change on asking again, with one prompt.",
      },
      {
        text: "The model scores the two years close together (logits 2.2 and 1.6).",
        why: "The spread rests on how close the logits are: had 1919 led by several units, temperature 0.8 would still give it nearly every time. The logits are what the calculation assumes; only the year token differs, and in a longer answer an early difference would change the rest.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Look the year up in a source; ask again to see the spread.",
        why: "The source settles the year (1919); the repeated answers show that the variation comes from the choice of token, with prompt and model unchanged.",
        right: true,
      },
      {
        text: "Set the temperature to 0 and take the year that it then repeats.",
        why: "Temperature 0 repeats the most probable year (the calculation's last line): the same answer every time, and only as right as that year. It verifies nothing.",
      },
      {
        text: "Ask the assistant how sure it is of the year, as a percentage.",
        why: "A stated confidence is more text from the same model, chosen the same way; it is not a source.",
      },
    ],
  },
  {
    id: "eiffel",
    mechanism: "sampled-wording",
    title: "The quiz that agreed with itself",
    story:
      "A quiz app asks its assistant “When was the Eiffel Tower completed?” with the same prompt in every game. At the app's temperature of 1, some games said 1889 and others 1887; to stop players arguing, the team set the temperature to 0, and now every game says 1887. The team takes the agreement to mean that 1887 is right.",
    because:
      "At temperature 1 the sampler draws each year with its probability, and both 1887 and 1889 have real shares; temperature 0 is greedy decoding, which takes the most probable year every time. The agreement shows which year the model ranks first, not which is true: the tower was completed in 1889.",
    not: {
      "missing-context":
        "The prompt was the same in every game, so nothing it lacks can explain why the games disagreed at temperature 1 and agree at 0: only the temperature changed. (Whether 1887 is right is a question for a source: see the check.)",
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
        doc: "The quiz that agreed with itself: the logit of the token “1887”.",
      },
      {
        key: "z2",
        name: "z2",
        label: "logit of “1889”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 1.7,
        doc: "The quiz that agreed with itself: the logit of the token “1889”.",
      },
      {
        key: "z3",
        name: "z3",
        label: "logit of “1888”",
        min: -5,
        max: 10,
        step: 0.1,
        value: 0.4,
        doc: "The quiz that agreed with itself: the logit of the token “1888”.",
      },
      {
        key: "T",
        name: "temperature",
        label: "temperature T before",
        min: 0,
        max: 3,
        step: 0.1,
        value: 1,
        doc: "The quiz that agreed with itself: the temperature the team used before switching to 0.",
      },
    ],
    compute: (core, v) => years(core, v, ["1887", "1889", "1888"], 11),
    assumptions: [
      {
        text: "Only the year token differs between the answers that different games gave.",
        why: "A simplification (in a longer answer an early difference changes all that follows), but the argument about which year is chosen holds either way.",
      },
      {
        text: "Each game's answer is chosen independently of every other game's.",
        why: "True of separate requests, and why the games disagreed at temperature 1; it says nothing about whether the year repeated at 0 is right.",
      },
      {
        text: "A sampler setting changes how often each year comes out, not their order.",
        why: "This is what the team's conclusion misses: the temperature changes how often the top year comes out, never which year is on top. Temperature 0 repeats 1887 because the model ranks it first.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Play a hundred games at temperature 1 and take the majority year.",
        why: "The majority of many games is the most probable year, the same 1887 that temperature 0 repeats: more agreement, no more verification.",
      },
      {
        text: "Check the year in a reliable source, or quote it in the prompt.",
        why: "The tower was completed in 1889: a source settles what no temperature can, and with its sentence in the prompt the model has the fact to read.",
        right: true,
      },
      {
        text: "Use a temperature of 0.2 instead of 0, so the answer can still vary.",
        why: "Any temperature reweights the same ranking: at 0.2 the model says 1887 almost every time (change T to see the shares).",
      },
    ],
  },
  {
    id: "contract",
    mechanism: "position",
    title: "Which party must deliver?",
    story:
      "A contract-review tool built on an open model of the BLOOM family (12 heads per layer) says the Buyer must deliver the goods. Clause 14 says “the Supplier shall deliver”, and the Supplier is defined on page 1, about 3,000 tokens before clause 14; the whole contract fits the model's window easily. When the definition is copied in just before clause 14, with nothing removed, the tool answers right.",
    because:
      "BLOOM uses ALiBi, which subtracts m·distance from every score, so each head halves a key's weight every ln 2 / m tokens. 3,000 tokens is many half-distances even for the gentlest of the 12 heads: the definition is in the window but barely visible from clause 14. Moving it closer, and changing nothing else, fixed it.",
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
    assumptions: [
      {
        text: "The model has 12 heads per layer, each with its own slope.",
        why: "A fact of the model, and the conclusion does not rest on it: the gentlest slope is 2⁻⁸ whatever the number of heads (change it to see).",
      },
      {
        text: "The definition matches as well 3,000 tokens back as beside clause 14.",
        why: "The calculation compares the same key at two places, so it is this that turns a penalty into a diagnosis. A key that matches strongly can still outweigh the penalty, and other layers can relay what one head misses: the factor shows the direction, not the size.",
        right: true,
      },
      {
        text: "The whole contract fits the model's window, with room to spare.",
        why: "It does, by the story; it rules out a cut-off, and the penalty applies to keys inside the window.",
      },
    ],
    checks: [
      {
        text: "Cut the contract down to the clauses on delivery and payment, then ask again.",
        why: "Cutting brings the definition closer and removes competing text at once, so a right answer could not say which mattered; the story's fix added text, and worked.",
      },
      {
        text: "Regenerate the answer several times and compare the parties named.",
        why: "It names the Buyer on every run: more runs show that the answer repeats, not why it is wrong.",
      },
      {
        text: "Restate each definition beside the clauses that use it, and compare.",
        why: "If the answers follow the definitions' place, with nothing removed, the decay with distance is the cause; a cut would have removed competing text as well, and could not tell the two apart.",
        right: true,
      },
    ],
  },
  {
    id: "long-report",
    mechanism: "position",
    title: "Past the trained length",
    story:
      "A team raises their inference engine's limit to run Llama 2 (heads of dimension 128, trained on sequences of up to 4,096 tokens) on 12,000-token reports. Answers on these reports are less reliable throughout than on short ones, and worst for facts more than about 4,000 tokens before the question: those get confused answers, even when the fact is short and distinctive. Cut so that the same fact lies 2,000 tokens back, the report gives the right answer.",
    because:
      "Llama 2 uses rotary embeddings, which turn each pair of query and key coordinates by position·θ, so a score depends on the offset. In training no offset exceeded 4,096 tokens, so the slowest pairs never turned further than the angle below; longer offsets give angles the model never learned to read, and every query past position 4,096 meets such offsets, which is why even the answers about the last pages suffer.",
    not: {
      "missing-context":
        "The facts are in the window, and the failures do not grow evenly with the amount of text: they set in for facts about 4,000 tokens back, the trained length, however short and distinctive the fact.",
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
    assumptions: [
      {
        text: "The rotary base is 10,000, as in Llama 2's published configuration.",
        why: "A fact of Llama 2's configuration, not a guess; a larger base, as long-context variants use, slows every pair, which is a remedy rather than a doubt about the diagnosis.",
      },
      {
        text: "The report's text is as relevant near the question as far from it.",
        why: "The conclusion does not need it: the failures set in at a distance whatever the text, which is why short, distinctive facts fail too.",
      },
      {
        text: "The slowest-turning pairs' angles past 4,096 tokens were never trained.",
        why: "The fast pairs wrap around many times within the trained length, so their angles at 12,000 tokens are angles training saw; the slow pairs are pushed where it never went, and the diagnosis rests on them. Methods such as position interpolation rescale positions so that these angles stay in the trained range.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Move one fact 1,000, 4,000 and 8,000 tokens back; ask for it each time.",
        why: "With the length fixed, only the distance changes: accuracy that falls past about 4,096 tokens points to the trained length; accuracy that is the same at every distance points elsewhere.",
        right: true,
      },
      {
        text: "Trim every report to its most relevant pages, then ask again.",
        why: "Trimming shortens the distance and removes competing text at once, so a right answer could not say which mattered (a useful fix, not a check).",
      },
      {
        text: "Run the model with four bytes per number instead of two, and compare.",
        why: "The near facts and the far ones pass through the same number format, and only the far ones fail.",
      },
    ],
  },
  {
    id: "header-line",
    mechanism: "position",
    title: "The line in the log's header",
    story:
      "A team answers questions about long service logs with Gemma 3 27B (62 layers; a window of 131,072 tokens), two bytes per number, on one 80 GB GPU. They picked it because a whole 120,000-token log fits on that card beside its weights. Questions about the log's recent entries get right answers. A question about a setting printed once in the log's header, about 100,000 tokens before the question, gets a wrong value on every run; with that one header line copied in just before the question, and nothing removed, the answer is right.",
    because:
      "In 52 of Gemma 3 27B's 62 layers a token attends only to the last 1,024 tokens: which keys such a layer may read depends on how far back they are. That is what lets a 120,000-token log fit on one card. A line 100,000 tokens back is within reach of the 10 full layers only; the sliding layers cannot attend to it, and get of it only what the full layers have already carried into nearer tokens. Copied next to the question, the line is within every layer's reach.",
    not: {
      "missing-context":
        "The header is in the log and the log is within the window; copying one line next to the question fixed the answer without removing anything. Dilution grows with the amount of competing text, which hardly changed; where the line stood did.",
      "sampled-wording":
        "The wrong value comes back on every run, and the right one once the line is moved: the split follows where the line stands, not the draw.",
      memory:
        "The log fits and the answer comes back. Holding only a short stretch of tokens in most layers is why it fits; the complaint is what the answer says.",
      speed: "The complaint is the value in the answer, not how long it took.",
      precision:
        "The same two-byte model answered right once the line was moved: the number format did not change, the line's place did.",
    },
    section: "cost",
    models: ["gemma-3-27b"],
    inputs: [
      {
        key: "tokens",
        name: "tokens",
        type: "integer",
        label: "log tokens",
        min: 1,
        max: 131072,
        step: 1,
        value: 120000,
        doc: "The line in the log's header: the log's length in tokens, up to Gemma 3 27B's window of 131,072.",
      },
      {
        key: "back",
        name: "back",
        type: "integer",
        label: "tokens back",
        min: 1,
        max: 131072,
        step: 1,
        value: 100000,
        doc: "The line in the log's header: how many tokens from the end of the prompt the header's line stands (the last token counts as 1).",
      },
      {
        key: "memory",
        name: "memory",
        label: "GPU memory (GiB)",
        min: 1,
        max: 1024,
        step: 1,
        value: 80,
        doc: "The line in the log's header: the GPU's memory in GiB (2^30 bytes), for the weights and the cache.",
      },
    ],
    compute(core, v, models) {
      const { name, shape } = realModel(core, models, "gemma-3-27b");
      const opts = { tokens: v.tokens, kvBytesPerElement: 2, weightBytesPerParam: 2, memoryBytes: v.memory * GIB };
      const r = core.modelCost(shape, opts);
      // The same model if its sliding layers held every token: its own shape, every layer full.
      const every = core.modelCost({ ...shape, layerKinds: shape.layerKinds.map(() => "full") }, opts);
      // What each kind of layer holds at a context that reaches back to the line: a layer sees the
      // line when it holds every one of those tokens.
      const far = core.modelCost(shape, { tokens: v.back });
      const [full, sliding] = [ofKind(r, "full"), ofKind(r, "sliding")];
      const [farFull, farSliding] = [ofKind(far, "full"), ofKind(far, "sliding")];
      return [
        [
          `${name}, read from its config.json: ${int(shape.layers)} layers; ${int(sliding.layers)} sliding layers hold the last ${int(shape.window)} tokens, ${int(full.layers)} full layers every token; ${int(shape.kvHeads)} key–value heads of dimension ${int(shape.headDim)}.`,
        ],
        [
          `At ${int(v.tokens)} tokens, 2 bytes per value: the full layers' cache `,
          strong(fmtBytes(full.bytes)),
          ", the sliding layers' ",
          strong(fmtBytes(sliding.bytes)),
          "; in all ",
          strong(fmtBytes(r.kvBytes)),
          ". If the sliding layers held every token: ",
          strong(fmtBytes(every.kvBytes)),
          ".",
        ],
        [
          `In ${grouped(v.memory)} GiB beside the weights (${fmtBytes(r.weightsBytes)}), the model as it is fits a log of up to `,
          strong(int(r.fit.maxTokens)),
          " tokens; with every layer holding every token, up to ",
          strong(int(every.fit.maxTokens)),
          ".",
        ],
        [
          `A line ${int(v.back)} tokens from the end: each full layer holds the last `,
          strong(int(farFull.tokensHeld)),
          ` tokens, so all ${int(farFull.layers)} full layers see it; each sliding layer holds the last `,
          strong(int(farSliding.tokensHeld)),
          farSliding.tokensHeld === v.back
            ? `, so the ${int(farSliding.layers)} sliding layers see it too.`
            : `, so none of the ${int(farSliding.layers)} sliding layers does.`,
        ],
      ];
    },
    assumptions: [
      {
        text: "The header reaches the question only through the 10 full layers.",
        why: "The diagnosis rests on it: the sliding layers cannot attend 100,000 tokens back at all, and get of the line only what the full layers have written into nearer tokens. Gemma 3's authors found that this ratio of sliding to full layers changes perplexity little, so whether it costs this question is what the check must show.",
        right: true,
      },
      {
        text: "A whole 120,000-token log fits on the 80 GB card beside the weights.",
        why: "It does, by the calculation, and the sliding layers are why; it explains why the team chose the model, not why one answer is wrong.",
      },
      {
        text: "The image encoder's weights, left out of the calculation, are small.",
        why: "About 0.4 billion parameters beside 27 billion: they change the room left on the card a little, not which layers reach the header.",
      },
    ],
    checks: [
      {
        text: "Ask the question ten times over, and keep the value that most of the runs give.",
        why: "The wrong value comes back on every run: more runs show that it repeats, not why.",
      },
      {
        text: "Move the line 500, 5,000, 50,000 and 100,000 tokens back; ask each time.",
        why: "With the length fixed only the line's place changes: accuracy that falls once the line is beyond the last 1,024 tokens, where only the 10 full layers reach it, points to the sliding layers; accuracy that holds at every distance points elsewhere.",
        right: true,
      },
      {
        text: "Run the same log on a GPU with twice the room, 160 GB, and ask again.",
        why: "The log already fits; more room changes what fits, not which layers reach the header.",
      },
    ],
  },
  {
    id: "serving",
    mechanism: "memory",
    title: "Twenty users at 32k",
    story:
      "A team serves Llama-3.1-8B (32 layers, 32 query heads sharing 8 key–value heads of dimension 128; a window of up to 131,072 tokens) on one 80 GB GPU, two bytes per number; the weights take about 16 GB. Single requests work. When 20 users each send about 32,768 tokens of conversation at once, the server stops with an error as the batch starts.",
    because:
      "Every token of every sequence keeps a key and a value per key–value head per layer. Twenty sequences of 32,768 tokens need a cache as large as the whole card (a gibibyte is more than a gigabyte), before the weights take their 16 GB; one request needs a twentieth of it.",
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
        doc: "Twenty users: each sequence's length in tokens, up to Llama-3.1-8B's context of 131,072.",
      },
      {
        key: "batch",
        name: "batch",
        type: "integer",
        label: "sequences at once",
        min: 1,
        max: 4096,
        step: 1,
        value: 20,
        doc: "Twenty users: the number of sequences served at once.",
      },
      {
        key: "bytesPerValue",
        name: "bytes-per-value",
        label: "bytes per value",
        min: 0.5,
        max: 4,
        step: 0.5,
        value: 2,
        doc: "Twenty users: the bytes each cached key or value takes (2 for 16-bit, 1 for 8-bit).",
      },
    ],
    compute: (core, v) => cache(core, v, { heads: 32, kvHeads: 8, headDim: 128, layers: 32 }),
    assumptions: [
      {
        text: "The weights take about 16 GB, two bytes for each of 8 billion.",
        why: "About 8 billion parameters at two bytes each; but the cache alone (the calculation) fills the card, so the exact size of the weights does not decide anything.",
      },
      {
        text: "All twenty conversations are held in full at once, two bytes a value.",
        why: "The byte count rests on it: a cache of 8-bit values is half the size, and a server that admits requests only as their cache fits would make some users wait instead of failing. Here the batch starts with every conversation full.",
        right: true,
      },
      {
        text: "Activations and the allocator's waste need little room beside the cache.",
        why: "They come on top, so they make the shortfall larger; the conclusion holds without them.",
      },
    ],
    checks: [
      {
        text: "Send the twenty conversations of 32,768 tokens one at a time, not all at once.",
        why: "One request needs a twentieth of the cache and already works; it cannot show what twenty at once need.",
      },
      {
        text: "Switch to a model of the same size with a window longer than 131,072.",
        why: "32,768 tokens is well within 131,072 already; a longer window changes what may be sent, not what twenty conversations take to hold.",
      },
      {
        text: "Compute the cache for 20 × 32,768 tokens, then admit fewer or shorter ones.",
        why: "If the error goes once the cache fits beside the weights (fewer at once, shorter conversations or 8-bit values), its size was the cause; measuring the card again confirms the calculation.",
        right: true,
      },
    ],
  },
  {
    id: "batch",
    mechanism: "memory",
    title: "From demo to batch",
    story:
      "A demo of Llama-2-7B (32 layers, 32 heads each with its own keys and values, dimension 128; a window of 4,096 tokens) runs fine for one user on a 24 GB GPU, where the weights, two bytes each, take 13.5 GB. Serving 8 users at the full 4,096 tokens, the first full batch crashes.",
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
    assumptions: [
      {
        text: "The batch runs with the same settings and software as the demo did.",
        why: "It does, and that rules out the number format and the sampler; what changed is the number of users, which the cache follows.",
      },
      {
        text: "The weights take 13.5 GB, two bytes for each of 6.7 billion.",
        why: "About 6.7 billion parameters at two bytes; whatever the exact figure, the cache for eight full sequences (the calculation) is more than the weights leave free.",
      },
      {
        text: "All eight sequences reach 4,096 tokens at once, two bytes a value.",
        why: "The crash needs the whole cache at once: eight conversations of a few hundred tokens would fit, and a cache in 8 bits would be half the size. The calculation takes the batch at its fullest, as the story's does.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Compute the cache for 8 full sequences, then admit fewer or shorter ones.",
        why: "If the crash goes once the cache fits beside the weights (fewer at once, shorter sequences or 8-bit values), its size was the cause; measuring the card again confirms the calculation.",
        right: true,
      },
      {
        text: "Run the demo again for one user, this time with a prompt of the full 4,096 tokens.",
        why: "It already works, and one user needs an eighth of the cache: it cannot show what eight at once need.",
      },
      {
        text: "Move to a model of the same size with a window longer than 4,096.",
        why: "The window is not what broke: eight sequences of 4,096 tokens take the same cache in any model of this shape, and a longer window only allows more.",
      },
    ],
  },
  {
    id: "research-script",
    mechanism: "memory",
    title: "The same weights in a research script",
    story:
      "A lab runs DeepSeek-V3 (61 layers, 128 heads; a window of 163,840 tokens) on one server of eight 141 GB GPUs, with its weights stored in one byte each, about 671 GB. Their serving engine keeps 40 agent sessions of 120,000 tokens each going at once. A researcher loads the same weights on the same server into a plain research script built on a general-purpose library and replays one of those sessions turn by turn. The script stops with an error when the session reaches about 105,000 tokens, every time.",
    because:
      "DeepSeek-V3 keeps, per token and layer, one latent of 512 values and a rotary key of 64, from which every head's keys and values are rebuilt when needed; serving engines store just that. The library behind the script rebuilds every head's keys and values first and stores those, 128 heads' keys of 192 and values of 128 per layer: dozens of times as many bytes per token. The weights are the same in both programs; what each keeps per token is not.",
    not: {
      "missing-context":
        "The script stops with an error before it answers; there is no answer to be missing anything, and the engine holds the same sessions.",
      "sampled-wording": "Nothing is drawn: the script stops at the same point on every replay, before it answers.",
      position:
        "The session stops at about 105,000 tokens, well within the model's window of 163,840, and the engine runs the same sessions past that point.",
      speed: "The failure is an error, not a delay; the engine runs forty such sessions at once.",
      precision:
        "The weights are the same bytes in both programs, and one fails while the other runs. (Storing the script's keys and values in one byte each is one remedy, but the cause is what it stores, not how finely.)",
    },
    section: "cost",
    models: ["deepseek-v3", "llama-3.1-8b"],
    inputs: [
      {
        key: "tokens",
        name: "tokens",
        type: "integer",
        label: "session tokens",
        min: 1,
        max: 163840,
        step: 1,
        value: 120000,
        doc: "The same weights in a research script: each session's length in tokens, up to DeepSeek-V3's window of 163,840.",
      },
      {
        key: "batch",
        name: "batch",
        type: "integer",
        label: "sessions on the engine",
        min: 1,
        max: 4096,
        step: 1,
        value: 40,
        doc: "The same weights in a research script: the number of sessions the serving engine holds at once.",
      },
      {
        key: "memory",
        name: "memory",
        label: "server memory (GiB)",
        min: 1,
        max: 16384,
        step: 1,
        value: 1128,
        doc: "The same weights in a research script: the server's memory in GiB (2^30 bytes), eight GPUs of 141 together.",
      },
      {
        key: "bytesPerValue",
        name: "bytes-per-value",
        label: "bytes per cached value",
        min: 0.5,
        max: 4,
        step: 0.5,
        value: 2,
        doc: "The same weights in a research script: the bytes each cached value takes in both programs (2 for 16-bit, 1 for 8-bit).",
      },
    ],
    compute(core, v, models) {
      const { name, shape } = realModel(core, models, "deepseek-v3");
      const gqa = realModel(core, models, "llama-3.1-8b");
      const opts = {
        tokens: v.tokens,
        kvBytesPerElement: v.bytesPerValue,
        weightBytesPerParam: 1,
        memoryBytes: v.memory * GIB,
      };
      // The engine keeps the latent (vLLM, SGLang); transformers' DeepSeek-V3 keeps every head's
      // keys and values, expanded from it.
      const engine = core.modelCost(shape, { ...opts, batch: v.batch, mlaCache: "latent" });
      const script = core.modelCost(shape, { ...opts, batch: 1, mlaCache: "expanded" });
      const other = core.modelCost(gqa.shape, { tokens: v.tokens, kvBytesPerElement: v.bytesPerValue });
      const m = shape.mla;
      const bytes = `${fmt(v.bytesPerValue)} byte${v.bytesPerValue === 1 ? "" : "s"}`;
      return [
        [
          `${name}, read from its config.json: ${int(shape.layers)} layers of latent attention. The engine keeps per token and layer the latent (${int(m.kvLoraRank)}) and the rotary key (${int(m.qkRopeHeadDim)}): ${int(shape.layers)} · (${int(m.kvLoraRank)} + ${int(m.qkRopeHeadDim)}) · ${bytes} = `,
          strong(fmtBytes(engine.kvBytesPerToken)),
          " per token.",
        ],
        [
          `The script keeps every head's keys and values: ${int(shape.layers)} · ${int(shape.heads)} · (${int(shape.headDim)} + ${int(shape.vHeadDim)}) · ${bytes} = `,
          strong(fmtBytes(script.kvBytesPerToken)),
          " per token.",
        ],
        [
          `In ${grouped(v.memory)} GiB beside the weights (${grouped(engine.params.total)} parameters at 1 byte: ${fmtBytes(engine.weightsBytes)}), the engine's ${int(v.batch)} sessions of ${int(v.tokens)} tokens keep `,
          strong(fmtBytes(engine.kvBytes)),
          ", and up to ",
          strong(int(engine.fit.maxBatch)),
          " such sessions fit.",
        ],
        [
          `The script's one session of ${int(v.tokens)} tokens would keep `,
          strong(fmtBytes(script.kvBytes)),
          "; one session fits up to ",
          strong(int(script.fit.maxTokens)),
          " tokens.",
        ],
        [
          `${gqa.name}, whose ${int(gqa.shape.heads)} query heads share ${int(gqa.shape.kvHeads)} key–value heads, keeps `,
          strong(fmtBytes(other.kvBytesPerToken)),
          ` per token with ${grouped(other.params.total)} parameters; ${name}'s latent, with ${grouped(engine.params.total)}, keeps less.`,
        ],
      ];
    },
    assumptions: [
      {
        text: "The weights take the same 671 GB in the script as in the engine.",
        why: "They do, and they leave the same room in both; since one program fits and the other does not in that room, the weights rule out a difference rather than explain one.",
      },
      {
        text: "All of each GPU's 141 GB is free for the weights and the sessions.",
        why: "The runtime and the kernels take a few GB of each, which makes the room smaller in both programs alike; the script's stored keys and values for 120,000 tokens are by themselves nearly half the server.",
      },
      {
        text: "One turn's intermediate results need little beside what is kept per token.",
        why: "A turn adds only its own tokens, so its intermediate results are small next to the stored ones; they come on top and make the script stop sooner, not later.",
      },
      {
        text: "The script caches every head's keys and values; the engine, the latent.",
        why: "The whole difference rests on it: the weights and the sessions are the same, and only the bytes kept per token differ, by the ratio of the first two lines. Transformers' implementation of DeepSeek-V3 caches the rebuilt keys and values; vLLM and SGLang keep the latent and fold the rebuilding into the queries.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Replay the session in the script with every turn cut to half of its length.",
        why: "The script would get further before it stops, which shows that length matters, not what the script keeps per token or why the engine manages.",
      },
      {
        text: "Load the weights in two bytes each, and replay the session once more.",
        why: "Twice the weights leave less room, not more: the script would stop sooner, and the weights were never what differed between the programs.",
      },
      {
        text: "Switch to a model whose window is longer than 163,840 tokens.",
        why: "The window is 163,840 tokens and the script stops far before it: a longer window allows more tokens, it does not change what is kept per token.",
      },
      {
        text: "Measure the GPUs' growth per token against the calculation's two lines.",
        why: "Growth per token that matches the rebuilt keys and values, not the latent, confirms the diagnosis; the same session run on the engine, or on an implementation that keeps the latent, settles it.",
        right: true,
      },
    ],
  },
  {
    id: "slow-chat",
    mechanism: "speed",
    title: "Twelve tokens a second",
    story:
      "A chatbot on a 70-billion-parameter model streams about 12 tokens a second, and users give up waiting for long answers. The answers are good, the GPUs have room to spare, and every step reads the whole model to produce one token. A 1-billion-parameter model of the same family agrees with the large one on about 60% of next tokens, and one of its steps costs about 1/20 of a large-model step.",
    because:
      "Generating one token costs one full large-model call. Speculative decoding lets the small model draft γ tokens that the large one checks in a single call; with acceptance rate α, each call yields (1 − α^(γ+1)) / (1 − α) tokens on average.",
    not: {
      "missing-context": "The answers are good; only their pace is the complaint.",
      "sampled-wording": "Nothing about the wording is wrong or unstable; the complaint is the time per token.",
      position:
        "It is slow from the first token, on short prompts as on long ones; nothing depends on how far back anything is.",
      memory:
        "Nothing fails and the GPUs have room to spare. Memory cost is about what fits, not how fast the tokens come.",
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
    assumptions: [
      {
        text: "One large-model call costs the same for γ + 1 tokens as for one.",
        why: "Close to true when each step is spent reading the weights, as the story says; it is the premise of the method, not the part in doubt here.",
      },
      {
        text: "The small model's step costs 1/20 of a large one, on these GPUs.",
        why: "It matters less than the rate of agreement: at this ratio four small steps add little to a round (change c to see how little it moves the improvement).",
      },
      {
        text: "The large model accepts 60% of the small one's tokens, independently.",
        why: "The gain rests on α: at 0.3 the same setup would barely pay, at 0.8 it would pay far more (change α to see). Agreement measured on other text is only a guess for these prompts.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Check that the answers with the small model are as good as without.",
        why: "They are by construction: the large model checks every token, so its distribution is kept; quality says nothing about the time gained.",
      },
      {
        text: "Measure the acceptance rate on real prompts; time both setups.",
        why: "The rate is the assumption the improvement rests on, and timing the real generations confirms the calculation or refutes it.",
        right: true,
      },
      {
        text: "Watch the GPUs' memory and load while the long answers stream out.",
        why: "Nothing fails and there is room to spare: memory is not what sets the pace of one large-model call per token.",
      },
    ],
  },
  {
    id: "slow-draft",
    mechanism: "speed",
    title: "A helper in front of the model",
    story:
      "A team puts a small helper model in front of their target model: the helper proposes 8 tokens at a time, and the target checks them in one pass. A helper step costs about a quarter of a target step. Users now wait longer for each answer than they did before the change, although the outputs are as good as ever. The team's logs show that the target accepts about 30% of the proposed tokens it checks.",
    because:
      "This is speculative decoding. Each round costs γ draft steps plus one target call, and pays off only through the drafts accepted. At α = 0.3 few drafts survive, while eight draft steps at a quarter of a target step each make a round far dearer than one target call.",
    not: {
      "missing-context": "The outputs are as good as before; the complaint is time.",
      "sampled-wording":
        "Speculative sampling keeps the target model's distribution exactly, so the wording is drawn as before; only the time changed.",
      position: "It is slower on every prompt, short or long.",
      memory: "Nothing fails or runs out; the helper fits, and the complaint is time per token.",
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
        doc: "A helper in front of the model: the rate α at which the target accepts a drafted token.",
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
        doc: "A helper in front of the model: the number γ of tokens drafted per target call.",
      },
      {
        key: "c",
        name: "cost-ratio",
        label: "cost ratio c",
        min: 0,
        max: 1,
        step: 0.01,
        value: 0.25,
        doc: "A helper in front of the model: the cost c of one draft step relative to one target step.",
      },
    ],
    compute: speculation,
    assumptions: [
      {
        text: "A target pass costs the same for 9 tokens as for one.",
        why: "The method's premise; if checking 9 tokens cost more, each round would be dearer still, so it cannot rescue the helper.",
      },
      {
        text: "The target accepts 30% of proposals, each independently.",
        why: "The tokens per round rest on α: at 0.3 the chance that all eight proposals survive is tiny, so most of each round's helper steps are wasted. A rate that varied with the text would change the numbers, not the direction.",
        right: true,
      },
      {
        text: "The helper and the target share one vocabulary and tokenizer.",
        why: "They must, for the target to check the helper's tokens at all: a requirement of the method, not a doubt about this diagnosis.",
      },
    ],
    checks: [
      {
        text: "Propose 16 tokens at a time, so that more are accepted per pass.",
        why: "At α = 0.3 the extra proposals are almost never reached, and each costs a helper step: the improvement falls further (change γ to see).",
      },
      {
        text: "Compare the outputs with and without the helper, prompt by prompt.",
        why: "They follow the target's distribution either way, since the target checks every token: the comparison finds no difference and says nothing about time.",
      },
      {
        text: "Try γ of 1 or 2, or a cheaper helper, and time against no helper.",
        why: "The calculation shows how the improvement changes with γ at this α (change γ to see); timing real generations settles it, and without a helper the improvement is 1 by definition.",
        right: true,
      },
    ],
  },
  {
    id: "all-at-once",
    mechanism: "speed",
    title: "Thirty-two at once",
    story:
      "A team serves Qwen3-Coder 30B-A3B to its 32 developers from one H100 SXM (80 GB; its data sheet states 3,350 GB/s and 989 trillion operations a second), with the weights in 2 bytes each, as published. They chose the model because each token uses only 3.3 billion of its 30.5 billion parameters. Tried by one developer, in a session of 4,096 tokens, an answer streams at close to 500 tokens a second. With all 32 at work, each in a session of about 4,096 tokens, every answer streams at about 45 tokens a second. The GPU holds it all with room to spare, and its arithmetic units are busy a few percent of the time.",
    because:
      "A step of decoding reads the weights it uses and every session's keys and values, and here the reading, not the arithmetic, sets its length. One developer's token visits 8 of each layer's 128 experts, so a step reads about a tenth of the weights; 32 tokens, each sent to 8 experts, touch most of them, so a step reads nearly all the weights besides 32 sessions' keys and values. The batch shares that reading, but every developer waits for the whole step.",
    not: {
      "missing-context": "The answers are as good as when one developer works alone; only the tokens a second changed.",
      "sampled-wording":
        "Nothing in what is written varies or goes wrong; every answer arrives at the same reduced pace, whatever it says.",
      position:
        "Alone, a session of the same 4,096 tokens streams close to 500 tokens a second: the sessions' length did not change, their number did.",
      memory:
        "Nothing fails, and the GPU holds the weights and all 32 sessions with room to spare. Memory cost is about what fits, not how long a step takes.",
      precision:
        "The weights are stored as published and the answers are good; fewer bytes per weight would shorten every step alike, alone or with 32, and nothing here points at a precision problem.",
    },
    section: "cost",
    models: ["qwen3-coder-30b-a3b"],
    inputs: [
      {
        key: "users",
        name: "users",
        type: "integer",
        label: "developers at once",
        min: 1,
        max: 1024,
        step: 1,
        value: 32,
        doc: "Thirty-two at once: the developers whose sessions one step serves together (the batch).",
      },
      {
        key: "tokens",
        name: "tokens",
        type: "integer",
        label: "session tokens",
        min: 1,
        max: 262144,
        step: 1,
        value: 4096,
        doc: "Thirty-two at once: each session's length in tokens, up to the model's 262,144.",
      },
      {
        key: "bandwidth",
        name: "bandwidth",
        label: "bandwidth (GB/s)",
        min: 1,
        max: 100000,
        step: 1,
        value: 3350,
        doc: "Thirty-two at once: the GPU's memory bandwidth in GB/s (10^9 bytes a second), the H100 SXM's by default.",
      },
      {
        key: "peak",
        name: "peak",
        label: "peak (TFLOPS)",
        min: 1,
        max: 100000,
        step: 1,
        value: 989,
        doc: "Thirty-two at once: the GPU's peak 16-bit arithmetic in TFLOPS, the H100 SXM's by default.",
      },
    ],
    compute(core, v, models) {
      const { name, shape } = realModel(core, models, "qwen3-coder-30b-a3b");
      const devices = {
        count: 1,
        memoryBytes: deviceById("h100-sxm").memoryMiB * 2 ** 20,
        bandwidthBytesPerSecond: v.bandwidth * 1e9,
        flopsPerSecond: v.peak * 1e12,
      };
      // The decoding floor of one step (modelCost's decode): one developer's, then all of theirs.
      const alone = core.modelCost(shape, { tokens: v.tokens, batch: 1, devices });
      const all = core.modelCost(shape, { tokens: v.tokens, batch: v.users, devices });
      const [one, d] = [alone.decode, all.decode];
      const m = shape.moe;
      return [
        [
          `${name}, read from its config.json: ${int(m.experts)} experts in each of ${int(m.moeLayers)} layers, ${int(m.expertsPerToken)} per token; a token uses ${grouped(all.params.active)} of its ${grouped(all.params.total)} parameters, stored in ${fmtBytes(all.weightsBytes)} (${all.weightsFormat}).`,
        ],
        [
          `One developer: a step reads `,
          strong(fmtBytes(one.weightsBytesRead)),
          ` of weights (${fmt(one.expertsTouched, 1)} experts a layer) and ${fmtBytes(one.kvBytesRead)} of keys and values, ${fmtSeconds(one.memorySeconds)} at ${grouped(v.bandwidth)} GB/s: at most `,
          strong(`${fmtRate(one.tokensPerSecond)} tokens a second`),
          ".",
        ],
        [
          `${int(v.users)} developers: their tokens touch `,
          strong(`${fmt(d.expertsTouched, 1)} experts`),
          ` of each layer's ${int(m.experts)}, so a step reads ${fmtBytes(d.weightsBytesRead)} of weights and ${fmtBytes(d.kvBytesRead)} of keys and values, `,
          strong(fmtBytes(d.bytesPerStep)),
          ` in all; ${int(Math.round(d.bytesPerStep))} bytes ÷ ${grouped(v.bandwidth)} GB/s = ${fmtSeconds(d.memorySeconds)}.`,
        ],
        [
          `Its arithmetic, ${fmtCount(d.flopsPerStep, 4)} operations at ${grouped(v.peak)} TFLOPS, takes ${fmtSeconds(d.computeSeconds)}: the step is ${d.bound}-bound.`,
        ],
        [
          `The step writes one token for each developer, so each gets a token every ${fmtSeconds(d.secondsPerStep)}: at most `,
          strong(`${fmtRate(d.tokensPerSecond)} tokens a second`),
          ` for all ${int(v.users)} together.`,
        ],
      ];
    },
    assumptions: [
      {
        text: "The GPU's arithmetic reaches the peak that its data sheet states for it.",
        why: "Even at a tenth of the peak the arithmetic of a step would take less time than its reading; the step waits on the reading either way (change the peak to see).",
      },
      {
        text: "The 32 sessions' tokens go to the experts evenly, as if at random.",
        why: "The calculation rests on it: sent evenly, 32 tokens of 8 experts each touch most of each layer's 128, so a step reads nearly all the weights. Had the developers' tokens gone to the same few experts, a step would read far fewer.",
        right: true,
      },
      {
        text: "Each of the 32 sessions holds about 4,096 tokens at every step of the answer.",
        why: "The sessions' keys and values are a part of each step's reading, but the experts' weights are several times as many bytes; at half the length each answer would stream only a little more quickly.",
      },
      {
        text: "The weights are stored in 2 bytes each, as the published file says.",
        why: "Fewer bytes per weight would shorten every step in proportion, for one developer and for 32 alike; it does not explain why 32 at once change the pace so much.",
      },
    ],
    checks: [
      {
        text: "Move the same 32 sessions to a GPU with twice the peak arithmetic of this one.",
        why: "The arithmetic takes a few hundredths of each step: twice the peak leaves the step almost as long (change the peak to see), and the money is spent on what was idle.",
      },
      {
        text: "Count the experts read per step at 1, 8 and 32 users, and time each step.",
        why: "If the experts read per step, and the step's time with them, grow with the number of sessions as the calculation says, the weights read per step set the pace; the timings confirm the floor or refute it.",
        right: true,
      },
      {
        text: "Cut every session to 1,024 tokens and time all of the answers once more.",
        why: "The keys and values are the smaller part of what a step reads; shorter sessions would help a little and leave untouched the experts' weights, which grew with the number of developers.",
      },
      {
        text: "Watch the GPU's free memory while all 32 of the developers' sessions run.",
        why: "The GPU holds the weights and all 32 sessions with room to spare; its free memory says nothing about how long each step takes.",
      },
    ],
  },
  {
    id: "outlier",
    mechanism: "precision",
    title: "One loud channel",
    story:
      "A team moves a model to a vendor's build in which every weight and activation takes half the storage it took before. On the same prompts, at temperature 0, its answers are noticeably worse than the original build's. In one layer's input, one activation channel reaches 60 while the others stay below 1.",
    because:
      "Symmetric quantisation has one scale Δ for the whole tensor, the step between its levels, set by its largest magnitude. The outlier makes the scale Δ large, and the small values, which carry most of the information, round to a few levels or to zero.",
    not: {
      "missing-context": "The same prompts went to both builds; only the way the numbers are stored changed.",
      "sampled-wording":
        "At temperature 0 both versions are repeatable; the 8-bit one repeats worse answers, so its distribution changed, not the draw.",
      position: "The degradation appears on short prompts too; it does not grow with distance.",
      memory:
        "One byte per number takes less room than two, and the model runs; the complaint is the quality of its answers.",
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
    assumptions: [
      {
        text: "One scale for the whole tensor, set by its largest magnitude.",
        why: "The damage rests on it: with a scale per channel, the channel that reaches 60 would have its own, and the small values would keep their levels. The calculation uses one scale, as a per-tensor build does.",
        right: true,
      },
      {
        text: "Each value rounds to the nearest of the format's levels.",
        why: "Other rules move a value by at most one level; with so large a scale, the small values lose their levels under any of them.",
      },
      {
        text: "The five values shown stand for the whole of the layer's input.",
        why: "A small sample, but the effect needs only one large value among many small ones, which the story's reading gives.",
      },
    ],
    checks: [
      {
        text: "Raise the temperature and look for better answers among several runs.",
        why: "The distribution itself is worse: runs at a higher temperature give varied answers, not better ones.",
      },
      {
        text: "Give the model longer prompts, with more worked examples in each of them.",
        why: "The same prompts did well in two bytes: the number format changed, not what the model was given.",
      },
      {
        text: "Compare both builds layer by layer; give the loud channel its own scale.",
        why: "If the damage starts at the layer with the loud channel and shrinks once its scale no longer sets everyone's (with its own scale, or with SmoothQuant's migration of it into the weights), the shared scale was the cause.",
        right: true,
      },
    ],
  },
  {
    id: "four-bit",
    mechanism: "precision",
    title: "A model for a smaller card",
    story:
      "A team needs a model to run on a smaller GPU, and switches to a build whose weight file is half the size of the one they used. On their test set, at temperature 0, the new build gets more answers wrong than the old one. In one row of weights the largest is 0.9, while most are below 0.05.",
    because:
      "With 4 bits there are only a few levels on each side of zero, and the largest weight sets the scale Δ, the step between them. Weights far below the scale Δ all round to the same level, often zero, and the layer loses what they encoded.",
    not: {
      "missing-context": "The same prompts went to both models; only the way the weights are stored changed.",
      "sampled-wording":
        "At temperature 0 both models are repeatable: the 4-bit one repeats worse answers, so its distribution changed, not the draw.",
      position: "The errors do not depend on how long the prompts are or where the facts stand in them.",
      memory: "The smaller model fits and runs, which was the point; its answers are the complaint.",
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
        doc: "A model for a smaller card: the largest weight of the row.",
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
        doc: "A model for a smaller card: the number of bits of the weights' symmetric quantisation.",
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
        doc: "A model for a smaller card: the width the model ran at before.",
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
    assumptions: [
      {
        text: "The test set is representative of the users' questions.",
        why: "It decides how much the loss hurts in use, but both formats were compared on the same test set, so it does not decide the cause.",
      },
      {
        text: "Each weight rounds to the nearest of the format's levels.",
        why: "Careful rounding (GPTQ) adjusts the other weights to compensate, which helps; with one scale for the row the small weights still fall below its first level.",
      },
      {
        text: "One scale for the whole row, set by its largest weight.",
        why: "Weights far below the largest round to zero because they share its scale; per-group scales, as GPTQ and AWQ use, give small weights a scale of their own and keep far more of them.",
        right: true,
      },
    ],
    checks: [
      {
        text: "Compare the formats layer by layer; try per-group scales at half a byte.",
        why: "If the answers recover once small weights get their own scale, the shared scale was the cause, and the layer-by-layer comparison shows where.",
        right: true,
      },
      {
        text: "Run the test set again at a higher temperature, several times over.",
        why: "Both models repeat their answers at temperature 0; a higher temperature draws from the same, worse distribution.",
      },
      {
        text: "Check that the new build fits the smaller GPU with room to spare for the cache.",
        why: "It fits and runs, which was the point; the answers are the complaint.",
      },
    ],
  },
];
