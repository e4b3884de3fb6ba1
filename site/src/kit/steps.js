// One prediction an exercise asks (FigureAnswer, answer.js): its form (label, field, unit, Check,
// tolerance) and its status line (makeStep); what it is told of the number it expects, from the
// figure's result (writeExpected); the reading of the number the reader typed (readStep,
// parsePrediction); and what a check says of it (judge): right, with the figure's value, or not yet, with the
// hint at the step that went wrong. The exercise keeps what follows from a verdict (answer.js
// check()).
import { h, patch, uniqueId } from "../dom.js";
import { fmt } from "../format.js";

/**
 * One prediction asked (step()): its form's parts, its status line, the box that holds both (what
 * docks), the value it expects now and whether the number in it was checked against the
 * figure's inputs as they are.
 * @typedef {{ labelEl: HTMLElement, input: HTMLInputElement, unitEl: HTMLElement, toleranceEl: HTMLElement,
 *   feedback: HTMLElement, form: HTMLFormElement, box: HTMLElement, expected: any, checked: boolean }} Step
 */

/**
 * A prediction as typed: "0.5", "0,5", "−0.25", "8,192", "8 192", "1e-3", a fraction "1/2", a
 * number followed by words ("1.875 tokens": the words are the reader's unit, and dropped), and,
 * with `probability` (the answer is one), a percentage "50%". Returns a finite number or null.
 * Reading the reader's own number is not mathematics the figure explains.
 * @param {string} text
 * @param {{ probability?: boolean }} [options]
 */
export function parsePrediction(text, { probability = false } = {}) {
  let s = String(text)
    .trim()
    .replace(/[\u2212\u2012\u2013]/g, "-")
    .replace(/[\u00a0\u202f]/g, " ");
  // Words after the last digit or % ("tokens", "per call") name a unit: the number is before them.
  s = s.replace(/(?<=[\d.%])\s*\p{L}[\p{L}\s.-]*$/u, "");
  let scale = 1;
  if (/%$/.test(s)) {
    if (!probability) return null;
    s = s.slice(0, -1);
    scale = 100;
  }
  const parts = s.split("/");
  if (parts.length > 2) return null;
  const [numerator, denominator = 1] = parts.map(plainNumber);
  if (numerator === null || denominator === null || denominator === 0) return null;
  const x = numerator / denominator / scale;
  return Number.isFinite(x) ? x : null;
}

/** One number as typed, without a unit: "0,5", "8 192", "-1e3" → its value, or null. */
function plainNumber(text) {
  let s = text.replace(/[\s_']/g, "");
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, "");
  else if (/^[-+]?\d*,\d+$/.test(s)) s = s.replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return null;
  const x = Number(s);
  return Number.isFinite(x) ? x : null;
}

/** "within 0.01" or "exactly": the tolerance as the reader is told it. */
export function toleranceText(tolerance) {
  return tolerance === 0 ? "exactly" : `within ${fmt(tolerance, 8)}`;
}

/**
 * One prediction asked: its form (label, field, unit, Check, tolerance) and its status line.
 * @param {import("./answer.js").FigureAnswer} answer
 * @returns {Step}
 */
export function makeStep(answer) {
  const id = uniqueId("predict");
  const step = {
    // named at once, before the figure draws and the label says what to predict
    labelEl: h("label", { for: id }, "Your prediction:"),
    input: h("input", {
      id,
      type: "text",
      inputmode: "decimal",
      autocomplete: "off",
      spellcheck: "false",
      class: "predict-input",
      "aria-describedby": `${id}-tolerance`,
    }),
    unitEl: h("span", { class: "predict-unit" }),
    toleranceEl: h("span", { id: `${id}-tolerance`, class: "predict-tolerance" }),
    feedback: h("p", { class: "predict-feedback", role: "status", "aria-live": "polite" }),
    form: /** @type {HTMLFormElement} */ (/** @type {unknown} */ (null)),
    box: /** @type {HTMLElement} */ (/** @type {unknown} */ (null)),
    expected: null,
    checked: false,
  };
  step.form = h(
    "form",
    {
      class: "predict",
      novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        answer.check(step);
      },
    },
    // Which exercise a docked field belongs to (shown only when docked: in place, its heading is above it).
    h("span", { class: "predict-dock-title", "aria-hidden": "true" }, answer.exerciseName()),
    h("span", { class: "predict-field" }, step.labelEl, " ", step.input, step.unitEl),
    h("button", { type: "submit" }, "Check"),
    step.toleranceEl,
  );
  step.box = h("div", { class: "predict-step" }, step.form, step.feedback);
  return step;
}

/**
 * Writes what `step` expects now (step.expected, from the figure's result) into its form: the label,
 * the unit and the tolerance. Written into what is there (dom.js patch()): at most inputs only the
 * numbers change.
 * @param {Step} step
 */
export function writeExpected(step) {
  const { label, unit, tolerance } = step.expected;
  patch(step.labelEl, label);
  patch(step.unitEl, unit ? ` ${unit}` : "");
  patch(step.toleranceEl, `Counted right ${toleranceText(tolerance)}, for the figure's inputs as they are now.`);
}

/**
 * The number typed into `step`, read for a check ({ guess }), or why it cannot be checked
 * ({ problem }): the figure has no result to check against (`engineError`: its engine did not
 * start), or what was typed is not a number. The field is marked invalid while it is not.
 * @param {Step} step
 * @param {string} [engineError]
 * @returns {{ guess?: number, problem?: string }}
 */
export function readStep(step, engineError) {
  const p = step.expected;
  if (!p)
    return {
      problem: engineError
        ? "The figure cannot check a prediction here: its engine did not start."
        : "The figure has no result to check against yet: fix its inputs first.",
    };
  const guess = parsePrediction(step.input.value, { probability: p.probability === true });
  step.input.setAttribute("aria-invalid", guess === null ? "true" : "false");
  if (guess !== null) return { guess };
  const percent = p.probability !== true && /%\s*$/.test(step.input.value);
  return {
    problem: percent
      ? "Type the number itself, without %: this answer is not a probability."
      : "Type a number, such as 0.25 (a decimal point or comma both work, and so does a fraction such as 1/4).",
  };
}

/**
 * What a check says of a number that was read, `guess`, against the prediction `p` (see
 * answer.js's header): whether it is right, and the verdict, which on a right number says what
 * comes next (`asks`: the follow-up, else the worked answer) and on a wrong one gives the hint of
 * the first common wrong answer it is near, else `p.otherwise`.
 * @param {any} p
 * @param {number} guess
 * @param {boolean} asks
 */
export function judge(p, guess, asks) {
  const near = (x, tol) => Math.abs(guess - x) <= tol;
  const g = fmt(guess, 10);
  const exact = p.tolerance === 0;
  if (near(p.value, p.tolerance))
    return {
      right: true,
      text: `Right: the figure's inputs give ${fmt(p.value, p.digits)}, ${exact ? "exactly your number" : `and ${g} is ${toleranceText(p.tolerance)} of it`}. ${asks ? "Now the follow-up, below." : "The worked answer is open below."}`,
    };
  const hint = p.hints.find(
    (x) => Number.isFinite(x.value) && near(x.value, p.tolerance) && !(Math.abs(x.value - p.value) <= p.tolerance),
  );
  return {
    right: false,
    text: `Not yet: ${g} is not ${exact ? "" : `${toleranceText(p.tolerance)} of `}the answer. ${hint ? hint.text : p.otherwise} Try again, or open the answer.`,
  };
}
