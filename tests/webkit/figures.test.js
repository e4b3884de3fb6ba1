// Each figure alone in embed.html, in WebKitGTK, as a course's frame shows it (a page of one
// figure loads in a fraction of the chapter's time): it draws with its caption, and logs no page
// error by the end of the test, the page read to its end;
// one of its controls moved by keyboard changes its drawing, and a number it shows is then the
// engine's for its new inputs (a fresh createLLMMath() in the page); its take-away buttons work:
// Download SVG saves the picture (read back from the file the browser saved) and Copy as NumPy
// gives the program, saying whether the clipboard took it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { useWebKit, open, pageErrors, readThrough, assertFiguresDrawn, download, KEYS } = require("./webkit.js");
const { figures, trials } = require("../browser/registry.js");

const webkit = useWebKit(test);

// Each figure's trial (its <name>-figure.js, through the registry): the control to move, and a
// number it shows (`engine.shown`, of its shadow root) with the engine's value for it
// (`engine.core`, of the element and a fresh createLLMMath() in the page); `tol` is half of the
// last decimal shown (an array: one per number), or none for equality (the diagnosis's lines).
/** Runs the trial's `engine` in the page for figure `id`: { shown, core }. */
const engineCheck = (session, engine, id) =>
  session.evaluate(
    `async (id) => {
      const el = document.getElementById(id);
      return { shown: (${engine.shown})(el.shadowRoot), core: await (${engine.core})(el, await createLLMMath()) };
    }`,
    id,
  );

/** Everything the figure draws (its charts and tables, its calculation), to tell a redraw. */
const drawing = (id) =>
  webkit.session.execute(
    (id) =>
      [...document.getElementById(id).shadowRoot.querySelectorAll("svg, table, .worked, .diagnose-lines")]
        .map((n) => n.outerHTML)
        .join("\n"),
    id,
  );

/** The figure's panel: its heading or note and its text to copy, if any. */
const panel = (id) =>
  webkit.session.execute((id) => {
    const p = document.getElementById(id).shadowRoot.querySelector(".llm-panel");
    return {
      hidden: p.hidden,
      label: p.querySelector(".llm-panel-head strong, .llm-takeaway-note")?.textContent ?? "",
      text: p.querySelector("textarea")?.value ?? "",
    };
  }, id);

/** Within `tol` (a number, or one per value) of the engine's values, or equal when none is given. */
function assertShown(shown, core, tol, what) {
  assert.equal(shown.length, core.length, `${what}: ${shown.length} numbers shown, ${core.length} from the engine`);
  if (tol === undefined) return assert.deepEqual(shown, core, what);
  shown.forEach((x, i) => {
    const t = Array.isArray(tol) ? tol[i] : tol;
    assert.ok(Math.abs(x - core[i]) <= t, `${what}, value ${i + 1}: shown ${x}, the engine's ${core[i]} (±${t})`);
  });
}

for (const [name, { id, tag }] of Object.entries(figures)) {
  const { control: selector, engine } = trials[name];
  test(`webkit: embed.html?widget=${name} draws, follows a keyboard move with the engine's numbers, and its take-away buttons work`, async () => {
    const { session } = webkit;
    await open(webkit, "embed.html", { suffix: `?widget=${name}` });
    const [figure] = await assertFiguresDrawn(assert, webkit, `embed.html?widget=${name}`);
    assert.equal(figure.tag, tag);
    assert.equal(figure.id, id);
    const caption = await session.execute(() => document.querySelector("main > figure > figcaption").textContent);
    assert.match(caption, /^Figure \d\.\d\. /);
    await session.execute((id) => {
      window.changes = 0;
      document.getElementById(id).addEventListener("llm-change", () => window.changes++);
    }, id);

    // The diagnosis shows its calculation once the reader names the mechanism: its choices in turn.
    if (name === "diagnose") {
      const analysisShown = () =>
        session.execute((id) => !document.getElementById(id).shadowRoot.querySelector(".diagnose-analysis").hidden, id);
      const choices = await session.execute(
        (id) => [...document.getElementById(id).shadowRoot.querySelectorAll(".diagnose-choice")],
        id,
      );
      assert.equal(choices.length, 6);
      for (const choice of choices) {
        if (await analysisShown()) break;
        await session.click(choice);
      }
      assert.ok(await analysisShown(), "the right mechanism opens the calculation");
    }

    // One step of the control by keyboard: up, or down where it is at its largest.
    const control = await session.find(selector, `#${id}`);
    const value = () => session.execute((input) => input.value, control);
    const start = await value();
    const before = await drawing(id);
    const { shown: shownBefore } = await engineCheck(session, engine, id);
    await session.sendKeys(control, KEYS.ArrowUp);
    if ((await value()) === start) await session.sendKeys(control, KEYS.ArrowDown);
    assert.notEqual(await value(), start, `#${id}'s ${selector} moved`);
    assert.ok(await session.execute(() => window.changes > 0), `#${id} sent llm-change`);
    assert.notEqual(await drawing(id), before, `#${id}'s drawing changed`);
    const { shown, core } = await engineCheck(session, engine, id);
    assertShown(shown, core, engine.tol, `#${id} after the move`);
    assert.notDeepEqual(shown, shownBefore, `#${id}'s number changed with the move`);

    // Download SVG: the file the browser saved is the picture, with the caption and its text.
    const button = await session.find(".llm-download-svg", `#${id}`);
    const saved = await download(webkit, `${id}.svg`, () => session.click(button));
    assert.ok(saved, `${id}.svg was saved`);
    assert.match(saved, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
    assert.ok(saved.includes(`<title>${caption.trim().slice(0, 40)}`), "the picture's title is the caption");
    assert.ok((saved.match(/<text/g) ?? []).length > 3, "the picture has its text");
    assert.doesNotMatch(saved, /var\(--|currentColor/, "every colour is resolved");
    assert.deepEqual(
      await session.execute(
        (svg) =>
          new DOMParser().parseFromString(svg, "image/svg+xml").querySelector("parsererror")?.textContent ?? null,
        saved,
      ),
      null,
      "the SVG parses",
    );
    assert.equal((await panel(id)).label, `Downloaded ${id}.svg: the figure as it is now, with its caption.`);

    // Copy as NumPy: the program, copied (the button's click is the reader's gesture) or shown to copy.
    await session.click(await session.find(".llm-copy-numpy", `#${id}`));
    const program = await panel(id);
    assert.equal(program.hidden, false);
    assert.equal(program.label, "Python program copied to the clipboard (it needs only NumPy)");
    assert.match(program.text, /^# /);
    assert.match(program.text, /^import numpy as np$/m);

    await readThrough(webkit);
    assert.deepEqual(await pageErrors(webkit), []);
  });
}
