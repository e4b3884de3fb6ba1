// Figure 9.1's scenarios as the figure uses them, and the rules of its three steps. The scenarios
// are site/scenarios/'s, as the build read them ("llmmath:scenarios"), each with its compute (the
// calculation it names, diagnose-calculations.js); with them, the real models they read, the
// attribute and state key of each of their inputs, their shuffled order, how the state writes the
// choices made, the two steps after the mechanism (REASONS) and how the score is written. Data and
// plain functions: no part of the figure draws here.
import { stateKey } from "../../kit/attributes.js";
import { calculations } from "./diagnose-calculations.js";
import { mechanisms, scenarios as scenarioData } from "llmmath:scenarios";
import { modelPresets } from "llmmath:model-presets";

/**
 * The scenarios (site/scenarios/, as the build read them), each with its compute(core, values,
 * models): the calculation it names, with the arguments it gives.
 */
export const scenarios = scenarioData.map((s) => ({
  ...s,
  compute: (core, values, models) => calculations[s.calculation.use](core, values, models, s.calculation.with ?? {}),
}));

/** The real models' committed configurations by id, which the scenarios' compute reads. */
export const MODELS = Object.fromEntries(modelPresets.map((p) => [p.id, p]));
export const MECHANISM_IDS = mechanisms.map((m) => m.id);
export const labelOf = (id) => mechanisms.find((m) => m.id === id).label;

/** The attribute of a scenario's input: "serving" + "batch" → "serving-batch". */
export const inputAttribute = (scenario, input) => `${scenario.id}-${input.name}`;
/** The state key of a scenario's input: "servingBatch". */
export const inputKey = (scenario, input) => stateKey(inputAttribute(scenario, input));

/**
 * The scenarios in the order of `seed` (a whole number in 0 … 2^32 − 1): a Fisher–Yates
 * shuffle driven by mulberry32, so the same seed gives the same order in every browser. The
 * order is no number the chapter explains, and normalize() needs it before the core has loaded,
 * so it is computed here rather than by the core.
 */
export function shuffled(seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out = scenarios.slice();
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(uniform() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The choices made at one position: "memory,speed" → ["memory", "speed"]. */
export const picksOf = (entry) => (entry ? entry.split(",") : []);

/**
 * The two steps after the mechanism, each a list of the scenario's choices (its field) named in
 * the state by their number in that list ("2" is the second): the attribute, the question, and
 * what a verdict says.
 */
export const REASONS = [
  {
    key: "assumptions",
    question: "Which assumption matters most here?",
    right: "Right: this is the one the conclusion rests on.",
    wrong: "Not the one that matters most.",
    retry: "Not that assumption: try another",
    found: "Right assumption.",
  },
  {
    key: "checks",
    question: "Which check would tell you?",
    right: "Right: this check would tell you.",
    wrong: "Not this check.",
    retry: "Not that check: try another",
    found: "Right check.",
  },
];

/** The score as the figure writes it: "7 of 9 steps right at the first try". */
export const tallyOf = ({ right, answered }) =>
  `${right} of ${answered} ${answered === 1 ? "step" : "steps"} right at the first try`;

/** The number, as the state writes it, of the right choice of a scenario's list. */
export const rightOf = (choices) => String(choices.findIndex((c) => c.right) + 1);
