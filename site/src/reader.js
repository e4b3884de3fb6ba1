// The reader page's own glue, loaded after llmmath-widgets.js (which registers the widgets):
//  - every figure's state lives in the URL fragment as the reader works, after the section
//    anchor: reader.html#sampling?sampling.temperature=0.7&rope.m=3 (history is replaced, not
//    added to), and is restored on load; a name is the figure's in the registry (figures.js), or
//    for a figure it does not name, its id without "-figure". A figure's former names (its
//    aliases) are read too, the name winning over them, and only the name is written;
//  - each figure gets Copy link and Copy embed code beside its Reset, then what takeaway.js adds;
//  - data-ready on <html> once every widget on the page has rendered;
//  - the reader's progress through the exercises, told to the host (progress.js);
//  - printing, as a workbook: the state on the first page, each figure's settings, the answers in
//    a Solutions part at the end (print.js).
import { figures } from "./widgets/figures.js";
import { declarationNamed, shown } from "./kit/attributes.js";
import { copyText, embedCode, toQuery } from "./share.js";
import { addTakeawayActions } from "./takeaway.js";
import { h } from "./dom.js";
import { focusWhereScrolls } from "./scrollable.js";
import { setUpPrint } from "./print.js";
import { setUpOffline } from "./offline.js";
import { placeInAddress } from "./place.js";
import { startWidgets } from "./first-screen.js";
import { setUpProgress } from "./progress.js";

// "Keep this chapter for offline reading", in the contents: needs no figure (offline.js).
setUpOffline();

// llmmath-widgets.js is fetched and run once the first screen is shown (first-screen.js, started
// by reader-head.js), which is mostly after this script (at the end of <body>) has run, and in the
// one-file edition, where it is inline after reader-head.js, before: the page's glue
// waits for it when it has not run yet. It adds no global of its own to say so (the script
// embed's one name is the core's createLLMMath): its elements being defined is the sign.
// Every figure's element, not the first's: the reader's first screen's are defined before the rest,
// which come a figure at a time, each with its exercises (widgets-embed.js), and this script may
// run in between.
/** The print's handler once main() has set it up (print.js), else null. */
let printNow = null;
if (Object.values(figures).every((f) => customElements.get(f.tag))) main();
else addEventListener("llmmath-widgets", main, { once: true });
// A print asked for while the rest are still being defined (the first screen's figures drew, the
// others come a figure a task): they are all defined at once (widgets-embed.js), main() runs, and
// the print's handler, added during this event, is called here, as the event would not call it.
addEventListener("beforeprint", () => {
  if (printNow) return;
  dispatchEvent(new Event("llmmath-define-now"));
  /** @type {any} */ (printNow)?.();
});
// Should the first screen not have started it (reader-head.js did not run), the page's load does,
// a frame later: on a loaded machine the page can finish loading before the frame in which
// first-screen.js learns its first screen, and started at once the script ran ahead of that screen
// (a test saw it so, 2 loads in 10). Within that frame the first screen is known and its mark
// queued first. (A tab out of sight draws no frames: its figures start when it is shown.)
addEventListener("load", () => requestAnimationFrame(() => setTimeout(startWidgets, 0)), { once: true });

function main() {
  // Every widget on the page (the figures and their exercises): the elements llmmath-widgets.js
  // defined, whichever they are.
  /** @type {any[]} the widgets' own properties (ready, settings, engineError) are their classes' */
  const all = [...document.body.querySelectorAll("*")].filter(
    (el) => el.localName.startsWith("llm-") && customElements.get(el.localName),
  );
  // Figures with state: widgets with an id and settings (answers have neither).
  const stateful = all.filter((el) => el.id && typeof el.settings === "function");
  const nameById = new Map(Object.entries(figures).map(([name, f]) => [f.id, name]));
  const keyOf = (el) => nameById.get(el.id) ?? el.id.replace(/-figure$/, "");
  /** The figure's former names, which old links use (figures.js: aliases). */
  const formerKeysOf = (el) => figures[nameById.get(el.id)]?.aliases ?? [];

  /**
   * The fragment as { anchor, params }: "#rope?rope.m=3" → { anchor: "rope", params }. An anchor
   * whose % escapes do not decode ("#%E0%A4") names no place: it is read as none, and `bad` holds
   * it as given. (URLSearchParams reads any query, an escape it cannot decode as U+FFFD.)
   */
  function readFragment() {
    const { id, bad, settings } = placeInAddress();
    return { anchor: id, bad, params: new URLSearchParams(settings) };
  }

  /** Says under the page's title that the link's anchor could not be read (or takes that back). */
  function fragmentNote(bad) {
    document.querySelector(".fragment-note")?.remove();
    if (bad === null) return;
    const note = h(
      "p",
      { class: "noscript fragment-note", role: "status" },
      `The link's place in the page, “#${shown(bad)}”, could not be read (a malformed % escape), so the page opens at its start; the figures' settings after it were read as usual.`,
    );
    underTitle(note);
  }

  /**
   * Applies the fragment's settings to their figures; unknown names are reported in the figure.
   * Settings under a figure's former name are read first, so that its name wins over them.
   */
  function restore() {
    const { params } = readFragment();
    const byKey = new Map(stateful.map((el) => [keyOf(el), el]));
    const byFormerKey = new Map(stateful.flatMap((el) => formerKeysOf(el).map((k) => [k, el])));
    const given = new Map();
    const keyed = [...params].map(([full, value]) => {
      const dot = full.indexOf(".");
      return { prefix: dot > 0 ? full.slice(0, dot) : "", name: full.slice(dot + 1), value };
    });
    const former = keyed.filter((s) => !byKey.has(s.prefix) && byFormerKey.has(s.prefix));
    for (const { prefix, name, value } of [...former, ...keyed.filter((s) => byKey.has(s.prefix))]) {
      const el = byKey.get(prefix) ?? byFormerKey.get(prefix);
      if (!given.has(el)) given.set(el, { settings: new Map(), unknown: [] });
      const known = declarationNamed(el.constructor.attributes, name) !== undefined;
      if (known) given.get(el).settings.set(name, value);
      else given.get(el).unknown.push(name);
    }
    for (const [el, { settings, unknown }] of given) el.applySettings(settings, unknown);
  }

  // Each figure's part of the fragment, worked out again only for the figures that changed since
  // the last write (a figure's settings() compares its whole state with its attributes).
  const queries = new Map();
  const changed = new Set(stateful);

  /** The fragment for the current anchor and every figure's settings that differ from the page's. */
  function fragmentNow(anchor) {
    for (const el of changed) queries.set(el, toQuery(el.settings("attributes"), keyOf(el)));
    changed.clear();
    const parts = stateful.map((el) => queries.get(el)).filter(Boolean);
    return (anchor ? encodeURIComponent(anchor) : "") + (parts.length ? `?${parts.join("&")}` : "");
  }

  // The fragment is written once the reader pauses, WRITE_DELAY ms after the last change, not
  // while a slider moves: in Chromium a write (history.replaceState) takes 1 to 7 ms of the main
  // thread, which, landing between an input and its frame, made that frame late. Leaving the page
  // or printing writes at once.
  const WRITE_DELAY = 250;
  let pending = 0;
  function writeFragment() {
    clearTimeout(pending);
    pending = 0;
    const fragment = fragmentNow(readFragment().anchor);
    if (location.hash.slice(1) !== fragment)
      history.replaceState(history.state, "", fragment ? `#${fragment}` : location.pathname + location.search);
  }
  const scheduleWrite = (event) => {
    if (stateful.includes(event.target)) changed.add(event.target);
    clearTimeout(pending);
    pending = setTimeout(writeFragment, WRITE_DELAY);
  };
  const writeNow = () => {
    if (pending) writeFragment();
  };

  function addShareActions() {
    for (const el of stateful) {
      const name = Object.keys(figures).find((n) => figures[n].id === el.id);
      el.addActions(
        [
          {
            label: "Copy link",
            className: "llm-copy-link",
            run: async () => {
              const query = toQuery(el.settings("attributes"), keyOf(el));
              const link = `${location.href.split("#")[0]}#${encodeURIComponent(el.id)}${query ? `?${query}` : ""}`;
              const copied = await copyText(link);
              el.showPanel(
                copied ? "Link copied to the clipboard" : "Link to this figure as it is now (select and copy)",
                link,
              );
            },
          },
          name
            ? {
                label: "Copy embed code",
                className: "llm-copy-embed",
                run: () => {
                  // a figure showing data its settings cannot hold (a pasted or inline
                  // configuration) says how the embed code carries it
                  const carried = el.embedData?.() ?? null;
                  const code = embedCode({
                    name,
                    figure: figures[name],
                    settings: carried?.settings ?? el.settings("defaults"),
                    view: el.viewSettings(),
                    inline: carried?.inline ?? null,
                  });
                  el.showForms("Embed code for this figure as it is now: paste one form", [
                    {
                      label: "Frame",
                      when: "For a platform that allows only frames, or a page under a strict policy. Put the edition's files (dist/) beside your page.",
                      text: code.frame,
                    },
                    {
                      label: "Script",
                      when: "For a page that allows scripts: the figure is part of your page and takes its colours. Put the edition's files beside your page.",
                      text: code.script,
                    },
                  ]);
                },
              }
            : null,
        ].filter(Boolean),
      );
      // Download SVG and PNG, Copy calculation, Copy as NumPy (takeaway.js).
      addTakeawayActions(el, { caption: el.closest("figure")?.querySelector("figcaption") });
    }
  }

  /**
   * Keeps a link's target at the top while the page draws. Figures above it grow as they draw;
   * Chromium anchors the scroll position to what is on screen, but Firefox does not across
   * sections that skip layout (content-visibility), so the target would drift down the screen.
   * Until the reader scrolls, clicks or types, or the page has settled, the target is put back
   * whenever the chapter's height changes.
   */
  /** Ends the place held now, if any (one place is held at a time: the newest link's). */
  let releaseHold = () => {};
  function holdAnchor(id) {
    releaseHold();
    const target = id ? document.getElementById(id) : null;
    if (!target || typeof ResizeObserver !== "function") return;
    const events = ["wheel", "touchstart", "keydown", "pointerdown"];
    let drawn = false;
    let quiet = 0;
    // Once the first screen's figures have drawn (data-first-screen: the target's screen; the
    // figures a screen above and below it start with them, as they come near the viewport), the
    // hold ends after a second without a change of height (sections near the target are laid out
    // for the first time as it comes into view). Figures further away draw only when the reader
    // goes to them.
    const releaseWhenQuiet = () => {
      clearTimeout(quiet);
      quiet = setTimeout(release, 1000);
    };
    const observer = new ResizeObserver(() => {
      target.scrollIntoView();
      if (drawn) releaseWhenQuiet();
    });
    function release() {
      clearTimeout(quiet);
      observer.disconnect();
      for (const type of events) removeEventListener(type, release, true);
    }
    releaseHold = release;
    observer.observe(document.getElementById("main") ?? document.body);
    for (const type of events) addEventListener(type, release, { capture: true, passive: true });
    whenFirstScreen().then(() => {
      drawn = true;
      releaseWhenQuiet();
    });
  }

  /** Resolves once data-first-screen is set on <html> (reader-head.js). */
  function whenFirstScreen() {
    const root = document.documentElement;
    return new Promise((resolve) => {
      if (root.hasAttribute("data-first-screen")) return resolve(undefined);
      const seen = new MutationObserver(() => {
        if (!root.hasAttribute("data-first-screen")) return;
        seen.disconnect();
        resolve(undefined);
      });
      seen.observe(root, { attributes: true, attributeFilter: ["data-first-screen"] });
    });
  }

  /** Resolves once each of these widgets has drawn. */
  function whenRendered(widgets) {
    return Promise.all(widgets.map((el) => customElements.whenDefined(el.localName).then(() => el.ready)));
  }

  restore();
  // llm-progress and data-progress for a host (a learning platform's package), after the
  // address's settings, which Figure 9.1's saved choices do not override (progress.js).
  setUpProgress();
  focusWhereScrolls();
  addShareActions();
  printNow = setUpPrint({ widgets: all, writeNow }).beforePrint;
  document.addEventListener("llm-change", scheduleWrite);
  addEventListener("pagehide", writeNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") writeNow();
  });
  // A link inside the page (the contents) replaces the fragment: put the state back behind it.
  // The figures near the place it goes to draw as it arrives there, and some stand above it: where
  // the browser does not keep its place as they grow (Safari has no scroll anchoring), the place is
  // held as at a load (measured in WebKit: §2 ended 1,400 to 2,400 px above the screen's top).
  addEventListener("hashchange", () => {
    const { anchor, bad } = readFragment();
    fragmentNote(bad);
    if (!location.hash.includes("?")) writeFragment();
    holdAnchor(anchor);
  });
  const { anchor, bad } = readFragment();
  fragmentNote(bad);
  if (anchor && location.hash.includes("?")) document.getElementById(anchor)?.scrollIntoView();
  holdAnchor(anchor);
  // data-ready: every widget on the page has drawn (a figure draws as it comes near the screen, so
  // this comes once the reader has been everywhere, or printed). It is also a performance mark, for
  // the benchmark; data-first-screen, the first screen's, is reader-head.js's (first-screen.js).
  const mark = (name) => {
    performance.mark(name);
    document.documentElement.setAttribute(name, "");
  };
  whenRendered(all).then(
    () => mark("data-ready"),
    (error) => engineNotice(error.message),
  );

  // --- the engine cannot start ----------------------------------------------------------------
  // Without the engine (WebAssembly off, or a policy without 'wasm-unsafe-eval') every figure says
  // so in its own box; the page says it once, under its title, and sets data-error on <html>. Each
  // exercise then gives its answer as the build computed it, closed under the exercise, as where
  // scripts are off: the exercise's own <noscript> (site/build.mjs), which a browser that runs
  // scripts keeps as text (it is the page's markup, never the reader's, that is parsed here).
  document.addEventListener("llm-engine-error", (e) => engineNotice(/** @type {CustomEvent} */ (e).detail.message));
  // A figure may have failed before this script ran: the page's scripts load one after the other.
  const failedEarly = all.find((el) => el.engineError);
  if (failedEarly) engineNotice(failedEarly.engineError);

  function engineNotice(reason) {
    const root = document.documentElement;
    if (root.hasAttribute("data-error")) return;
    root.setAttribute("data-error", reason);
    let answers = 0;
    for (const held of document.querySelectorAll(".exercise > noscript")) {
      const parsed = new DOMParser().parseFromString(held.textContent ?? "", "text/html");
      const answer = parsed.querySelector("details.noscript-answer");
      if (!answer) continue;
      held.after(document.adoptNode(answer));
      answers += 1;
    }
    const notice = h(
      "div",
      { class: "noscript engine-notice", role: "alert" },
      h(
        "p",
        {},
        h("strong", {}, "The figures cannot run here."),
        ` The chapter's calculation engine did not start (${reason}). `,
        "The text and formulas read as usual",
        answers
          ? ", and each exercise's answer, as computed when the page was built, is under the exercise, behind “Show the answer”."
          : ".",
      ),
    );
    underTitle(notice);
  }
}

/** Puts a notice of the page's right under its title's lines, above the opening figure: on the first screen. */
function underTitle(node) {
  const after =
    document.querySelector("header.masthead .dek") ??
    document.querySelector("header.masthead") ??
    document.getElementById("main")?.previousElementSibling;
  if (after) after.after(node);
  else document.body.prepend(node);
}
