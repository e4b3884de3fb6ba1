// The reader's progress, for whatever page holds the chapter or a figure: a course page, a
// learning platform's SCORM package (site/lms.mjs), a host that keeps a gradebook. Which exercises
// are done, and how, and Figure 9.1's score, told two ways, always the same JSON:
//   - an "llm-progress" event on document (bubbles, composed), each time the progress changes,
//     detail = the progress object below;
//   - <html data-progress="…">, the same as JSON text, for a host that arrives after the event.
// The progress:
//   { version: 1,
//     exercises: { "1": { committed, right, tries }, …, "4b": …, "8": … },  // by exercise name
//     diagnosis: { right, answered, total, settings } | null,  // Figure 9.1, when on the page
//     score: { raw, max },  // exercises right + Figure 9.1's steps right at the first try
//     complete }            // every exercise on the page committed; on a page with none, every
//                           // step of Figure 9.1 answered (without it: false)
// An exercise is committed once a number was checked or its answer opened, right once every number
// it asks was checked right before its answer was shown on request (answer.js); tries counts the
// numbers checked. `settings` is Figure 9.1's own state (its choices), as a query string of the
// settings that differ from its defaults.
//
// A host gives back what it saved (a SCORM package's suspend data) in either of two ways:
//   - data-progress on <html> set before the page's script runs (a script before it, or the
//     markup): read once at start;
//   - at any time, document.dispatchEvent(new CustomEvent("llm-progress-restore", { detail })),
//     detail the saved object or its JSON text.
// What is read back is checked as any input: unknown exercises and fields are dropped, and
// Figure 9.1's settings go through the figure's own reading of its settings.
import { figures } from "./widgets/figures.js";
import { declarationNamed } from "./kit/attributes.js";
import { toQuery } from "./share.js";

/** The longest saved progress read back, in characters (SCORM 2004's suspend data holds 64,000). */
export const MAX_SAVED = 64000;

/** An exercise's name, as its heading has it ("Exercise 4b" → "4b"); else its figure's id. */
function exerciseKey(answer) {
  const m = /^Exercise\s+(\S+)$/.exec(answer.exerciseName?.() ?? "");
  return m ? m[1] : (answer.getAttribute("for") ?? "");
}

/**
 * Starts reporting the progress of the exercises and of Figure 9.1 in this document, and restores
 * what a host saved (see the top). Call once every widget is defined and on the page.
 */
export function setUpProgress() {
  const root = document.documentElement;
  /** @type {Map<string, any>} the exercises' elements, by name */
  const answers = new Map();
  for (const el of document.querySelectorAll("*"))
    if (el.localName.startsWith("llm-answer-") && "progress" in el) answers.set(exerciseKey(el), el);
  const diagnose = /** @type {any} */ (document.querySelector(figures.diagnose.tag));

  function progressNow() {
    const exercises = {};
    for (const [key, answer] of answers) exercises[key] = { ...answer.progress };
    let diagnosis = null;
    if (diagnose?.state) {
      const { right, answered, total } = diagnose.score();
      diagnosis = { right, answered, total, settings: toQuery(diagnose.settings("defaults")) };
    }
    const list = Object.values(exercises);
    return {
      version: 1,
      exercises,
      diagnosis,
      score: {
        raw: list.filter((e) => e.right).length + (diagnosis?.right ?? 0),
        max: list.length + (diagnosis?.total ?? 0),
      },
      // Figure 9.1 alone (embed.html, its own package): every step answered.
      complete:
        list.length > 0
          ? list.every((e) => e.committed)
          : diagnosis !== null && diagnosis.total > 0 && diagnosis.answered === diagnosis.total,
    };
  }

  let told = "";
  function tell() {
    const progress = progressNow();
    const json = JSON.stringify(progress);
    if (json === told) return;
    told = json;
    root.setAttribute("data-progress", json);
    document.dispatchEvent(new CustomEvent("llm-progress", { bubbles: true, composed: true, detail: progress }));
  }

  /** Puts back saved progress (an object or its JSON text); what does not fit is dropped. */
  function restore(saved) {
    let data = saved;
    if (typeof saved === "string") {
      if (saved.length > MAX_SAVED) return;
      try {
        data = JSON.parse(saved);
      } catch {
        return;
      }
    }
    if (!data || typeof data !== "object") return;
    const exercises = data.exercises && typeof data.exercises === "object" ? data.exercises : {};
    for (const [key, answer] of answers) {
      const e = Object.hasOwn(exercises, key) ? exercises[key] : null;
      if (!e || e.committed !== true) continue;
      const tries = Number.isSafeInteger(e.tries) && e.tries >= 0 ? e.tries : 0;
      answer.restoreProgress({ committed: true, right: e.right === true, tries });
    }
    // Figure 9.1's choices, unless the address gave it settings of its own (the reader's link wins).
    const settings = data.diagnosis?.settings;
    if (diagnose && typeof settings === "string" && settings.length <= MAX_SAVED) {
      if (diagnose.state && diagnose.settings("attributes").length === 0) {
        const known = (name) => declarationNamed(diagnose.constructor.attributes, name) !== undefined;
        const given = new Map([...new URLSearchParams(settings)].filter(([name]) => known(name)));
        diagnose.applySettings(given, []);
      }
    }
    tell();
  }

  document.addEventListener("llm-answer-progress", tell);
  if (diagnose) diagnose.addEventListener("llm-change", tell);
  document.addEventListener("llm-progress-restore", (e) => restore(/** @type {CustomEvent} */ (e).detail));
  const saved = root.getAttribute("data-progress");
  if (saved) restore(saved);
  else tell();
}
