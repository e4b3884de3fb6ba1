// Figure 5.1's settings, declared once: the attributes of <llm-speculative> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide) and the limits they keep to:
// the draft lengths of the slider and the chart, the simulated log's target calls and its seeds.
// Pure data: no part of the figure draws here.

// Draft lengths on the slider and the chart, and the range searched for the best one.
export const GAMMA_MAX = 20;
export const GAMMAS = Array.from({ length: GAMMA_MAX + 1 }, (_, g) => g);
// The simulated log: up to 10^5 target calls, so that rounds·γ stays within the core's 10^7
// draft tokens at the longest draft; 10^4 by default, enough to put accepted / checked within
// about ±0.01 of α (two standard errors at α = 0.5). Seeds are speculativeMeasure's, [0, 2^32).
export const MAX_ROUNDS = 100000;
export const SEED_RANGE = 2 ** 32;

/** The figure's attributes (see the kit's attributes.js for what each field means). */
export const ATTRIBUTES = [
  {
    name: "alpha",
    type: "number",
    min: 0,
    max: 1,
    default: 0.5,
    doc: "The acceptance rate α: the probability that the target accepts one drafted token.",
  },
  {
    name: "gamma",
    type: "integer",
    min: 0,
    max: GAMMA_MAX,
    default: 3,
    doc: "The draft length γ: how many tokens the draft model proposes per target call.",
  },
  {
    name: "cost-ratio",
    type: "number",
    min: 0,
    max: 1,
    default: 0.1,
    doc: "The cost ratio c: the time of one draft step over one target step.",
  },
  {
    name: "rounds",
    type: "integer",
    min: 1,
    max: MAX_ROUNDS,
    default: 10000,
    doc: "The target calls in the simulated log from which α is measured back.",
  },
  {
    name: "seed",
    type: "integer",
    min: 0,
    max: SEED_RANGE - 1,
    default: 1,
    doc: "The seed of the simulated log: the same seed replays the same log.",
  },
];
