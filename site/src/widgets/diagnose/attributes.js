// Figure 9.1's settings, declared once: the attributes of <llm-diagnose> (the kit reads them,
// kit/attributes.js: its state, its link, embed.html and the guide): the order, the scenario
// shown, the choices made at each step and one attribute per input of every scenario, with the
// limits they keep to. Pure data: no part of the figure draws here.
import { MECHANISM_IDS, REASONS, inputAttribute, scenarios } from "./scenarios.js";

export const MAX_SEED = 2 ** 32 - 1;

// picks: the six mechanisms of one scenario take 63 characters; 128 leaves room for stray
// entries, which normalize() then names in its note instead of refusing the whole value.
export const ATTRIBUTES = [
  {
    name: "seed",
    type: "integer",
    min: 0,
    max: MAX_SEED,
    default: 1,
    label: "Order of the scenarios, shuffled by seed",
    doc: "The shuffled order of the scenarios: the same seed gives the same order; “Start again” takes the next seed.",
  },
  {
    name: "scenario",
    type: "integer",
    min: 1,
    max: scenarios.length,
    default: 1,
    print: false,
    doc: "The position, in that order, of the scenario shown (1 is the first).",
  },
  {
    name: "picks",
    type: "labels",
    minLength: 1,
    maxLength: scenarios.length,
    maxChars: 128,
    default: [],
    print: false,
    doc: `The mechanisms chosen so far, scenario by scenario in the shuffled order: “|” between scenarios, “,” between the choices of one, which end at the right one (e.g. memory|speed,position). Mechanisms: ${MECHANISM_IDS.join(", ")}.`,
  },
  ...REASONS.map(({ key, question }) => ({
    name: key,
    type: "labels",
    minLength: 1,
    maxLength: scenarios.length,
    maxChars: 32,
    default: [],
    print: false,
    doc: `The answers chosen so far to “${question}”, as picks writes the mechanisms, each choice by its number in the scenario's list (1 is the first shown), e.g. 2|3,1; a scenario's answers count once the step before is right.`,
  })),
  ...scenarios.flatMap((s) =>
    s.inputs.map((i) => ({
      name: inputAttribute(s, i),
      ...(i.aliases ? { aliases: i.aliases.map((a) => `${s.id}-${a}`) } : {}),
      type: i.type ?? "number",
      min: i.min,
      max: i.max,
      default: i.value,
      label: `${s.title}: ${i.label}`,
      doc: i.doc,
    })),
  ),
];
