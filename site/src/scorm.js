// The learning platform's side of the SCORM packages (site/lms.mjs): the launch page's first
// script, before the chapter's. It finds the platform's run-time, puts back the progress saved on
// an earlier visit (cmi suspend data, as <html data-progress>, which the chapter reads at start:
// progress.js), and reports each "llm-progress" to it:
//   SCORM 1.2 (window.API)          cmi.core.lesson_status   incomplete, completed once complete
//                                   cmi.core.score.raw/min/max  the score as a percentage, 0 to 100
//                                   cmi.suspend_data         the progress's JSON (at most 4,096)
//   SCORM 2004 (window.API_1484_11) cmi.completion_status    incomplete, completed
//                                   cmi.success_status       passed once every exercise is right,
//                                                            unknown before (the chapter sets no
//                                                            pass mark: grade on the score)
//                                   cmi.score.scaled, raw/min/max  the same score, scaled 0 to 1
//                                   cmi.suspend_data         the same JSON (at most 64,000)
// and exit "suspend", so that the platform gives the suspend data back at the next launch; each
// report is committed at once (a reader checks a number by hand: few commits). On pagehide the
// session ends (LMSFinish / Terminate).
// Which run-time: the script's data-scorm ("1.2" or "2004"), written by the package's build. With
// data-complete="view" (a figure alone, but Figure 9.1, which keeps a score and reports as the
// chapter does) the package is completed once it is launched, and reports nothing else. Without
// a run-time (the page opened outside a platform) it does nothing.
// Found as the specifications say: the window's parents, up to seven levels, then its opener's.

const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
const edition = script?.dataset.scorm === "2004" ? "2004" : "1.2";
const onView = script?.dataset.complete === "view";
const NAME = edition === "2004" ? "API_1484_11" : "API";

/** The run-time in `win`'s chain of parents (seven levels at most), or null. */
function findIn(win) {
  for (let level = 0; win && level <= 7; level += 1) {
    try {
      if (win[NAME]) return win[NAME];
    } catch {
      return null; // a parent of another origin: no run-time can be reached through it
    }
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}

const api = findIn(window) ?? (window.opener ? findIn(window.opener) : null);

/** The calls of either edition, by one name each. */
const calls =
  edition === "2004"
    ? {
        start: () => api.Initialize(""),
        get: (k) => api.GetValue(k),
        set: (k, v) => api.SetValue(k, v),
        commit: () => api.Commit(""),
        finish: () => api.Terminate(""),
      }
    : {
        start: () => api.LMSInitialize(""),
        get: (k) => api.LMSGetValue(k),
        set: (k, v) => api.LMSSetValue(k, v),
        commit: () => api.LMSCommit(""),
        finish: () => api.LMSFinish(""),
      };

/** The longest suspend data each edition keeps. */
const MAX_SUSPEND = edition === "2004" ? 64000 : 4096;

/**
 * What is saved to come back to: the exercises committed and Figure 9.1's choices, as the
 * progress's JSON; should it not fit (a 1.2 platform's 4,096 characters), without Figure 9.1's
 * choices, and else nothing.
 */
function suspendData(progress) {
  const exercises = Object.fromEntries(Object.entries(progress.exercises).filter(([, e]) => e.committed));
  const diagnosis = progress.diagnosis?.settings ? { settings: progress.diagnosis.settings } : null;
  for (const kept of [
    { version: 1, exercises, diagnosis },
    { version: 1, exercises },
  ]) {
    const json = JSON.stringify(kept);
    if (json.length <= MAX_SUSPEND) return json;
  }
  return "";
}

/** A percentage with at most one decimal: "83.3". */
const percent = (raw, max) => String(max > 0 ? Math.round((1000 * raw) / max) / 10 : 0);

function report(progress) {
  const done = progress.complete ? "completed" : "incomplete";
  const { raw, max } = progress.score;
  if (edition === "2004") {
    calls.set("cmi.completion_status", done);
    const allRight =
      Object.values(progress.exercises).length > 0 && Object.values(progress.exercises).every((e) => e.right);
    calls.set("cmi.success_status", allRight ? "passed" : "unknown");
    calls.set("cmi.score.min", "0");
    calls.set("cmi.score.max", "100");
    calls.set("cmi.score.raw", percent(raw, max));
    calls.set("cmi.score.scaled", String(max > 0 ? Math.round((10000 * raw) / max) / 10000 : 0));
  } else {
    calls.set("cmi.core.lesson_status", done);
    calls.set("cmi.core.score.min", "0");
    calls.set("cmi.core.score.max", "100");
    calls.set("cmi.core.score.raw", percent(raw, max));
  }
  calls.set("cmi.suspend_data", suspendData(progress));
  calls.commit();
}

if (api && String(calls.start()) === "true") {
  calls.set(edition === "2004" ? "cmi.exit" : "cmi.core.exit", "suspend");
  if (onView) {
    calls.set(edition === "2004" ? "cmi.completion_status" : "cmi.core.lesson_status", "completed");
    calls.commit();
  } else {
    const saved = String(calls.get("cmi.suspend_data") ?? "");
    if (saved) document.documentElement.setAttribute("data-progress", saved);
    else {
      calls.set(edition === "2004" ? "cmi.completion_status" : "cmi.core.lesson_status", "incomplete");
      calls.commit();
    }
    document.addEventListener("llm-progress", (e) => report(/** @type {CustomEvent} */ (e).detail));
  }
  let finished = false;
  addEventListener("pagehide", () => {
    if (finished) return;
    finished = true;
    calls.commit();
    calls.finish();
  });
}
