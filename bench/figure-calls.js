// The calls the reader's figures make to the core when they first draw with their default
// settings: dist/reader.html is opened in headless Chromium with every function of the API's
// declarations (bindings/api/) wrapped to record its arguments, and read until the page says
// every figure is drawn (html[data-ready]). These are bench/cases.js's widget-size cases: what
// the page really passes, not a copy of it kept by hand.
//
//   node bench/figure-calls.js      prints, per function, how many calls and the first one's size
"use strict";
const { functions } = require("../bindings/api/index.js");
const { launch, openReader } = require("../tests/browser/browser.js");

/**
 * Every call the page made, in order, as { fn, args } with typed arrays as plain arrays (the form
 * a page passes most often, and the one JSON carries to the native side).
 */
async function figureCalls() {
  const { context, close } = await launch();
  try {
    await context.addInitScript(
      (names) => {
        const calls = [];
        Object.defineProperty(globalThis, "llmmathRecordedCalls", { value: calls });
        const plain = (v) =>
          ArrayBuffer.isView(v)
            ? Array.from(v)
            : Array.isArray(v)
              ? v.map(plain)
              : v && typeof v === "object"
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
                : v;
        let factory;
        // llmmath.js assigns the factory to the global; the widgets call it through the global.
        Object.defineProperty(globalThis, "createLLMMath", {
          configurable: true,
          get: () => factory,
          set(f) {
            factory = (...a) =>
              f(...a).then((m) => {
                for (const name of names) {
                  const call = m[name];
                  m[name] = (...args) => {
                    calls.push({ fn: name, args: JSON.parse(JSON.stringify(plain(args))) });
                    return call(...args);
                  };
                }
                return m;
              });
          },
        });
      },
      functions.map((f) => f.name),
    );
    const { page } = await openReader(context);
    return await page.evaluate(() => globalThis.llmmathRecordedCalls);
  } finally {
    await close();
  }
}

module.exports = { figureCalls };

if (require.main === module) {
  figureCalls().then((calls) => {
    const counts = {};
    for (const c of calls) counts[c.fn] = (counts[c.fn] ?? 0) + 1;
    for (const f of functions) console.log(`${f.name.padEnd(22)} ${String(counts[f.name] ?? 0).padStart(4)} calls`);
  });
}
