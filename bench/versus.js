// Two builds of the reader side by side, in one run: the input phase of bench/page.js (INPUTS
// inputs across each figure's controls, one per frame) on each build in turn, ROUNDS times
// (old, new, old, new, …, so that a machine growing slower or faster weighs on both alike), then
// per figure the input→DOM median and p95 of the pooled inputs and the missed frames, summed.
// What a change to the widgets' drawing is judged by (issue 18: no worse than before).
//
//   node bench/versus.js OLD_DIST NEW_DIST [rounds=3] [inputs=200]
//
// OLD_DIST and NEW_DIST are built copies of dist/ (for an older commit: git worktree add, then
// ./build.sh there, or keep a copy of dist/ from before the change).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { chromium } = require("playwright-core");
const { CHROMIUM, FLAGS } = require("../tests/browser/browser.js");

const [oldDist, newDist] = process.argv.slice(2, 4).map((d) => d && path.resolve(d));
const ROUNDS = Number(process.argv[4] ?? 3);
const INPUTS = process.argv[5] ?? "200";
if (!oldDist || !newDist || ![oldDist, newDist].every((d) => fs.existsSync(path.join(d, "reader.html")))) {
  console.error("usage: node bench/versus.js OLD_DIST NEW_DIST [rounds] [inputs] (each a dist/ with reader.html)");
  process.exit(2);
}
// page.js reads its inputs count from argv[3] when loaded.
process.argv = [process.argv[0], "page.js", "1", INPUTS];
const { inputs, summary } = require("./page.js");

(async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const pooled = { old: {}, new: {} };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [which, root] of [
        ["old", oldDist],
        ["new", newDist],
      ]) {
        const r = await inputs(browser, root, true);
        for (const [id, w] of Object.entries(r.widgets)) {
          const p = (pooled[which][id] ??= { dom: [], misses: 0, errors: 0 });
          p.dom.push(...w.dom);
          p.misses += w.missedFrames;
          p.errors += w.pageErrors;
        }
        process.stderr.write(`round ${round + 1}/${ROUNDS}: ${which} done\n`);
      }
    }
  } finally {
    await browser.close();
  }
  const ms = (x) => x.toFixed(2).padStart(6);
  console.log(`input → DOM (ms) and missed frames, ${ROUNDS} rounds × ${INPUTS} inputs per figure`);
  console.log(`old: ${oldDist}\nnew: ${newDist}`);
  console.log("figure                | median old    new |  p95 old    new | missed old  new | errors");
  let total = { old: 0, new: 0 };
  for (const id of Object.keys(pooled.new)) {
    const o = pooled.old[id],
      n = pooled.new[id];
    if (!o) continue;
    const so = summary(o.dom),
      sn = summary(n.dom);
    total.old += o.misses;
    total.new += n.misses;
    console.log(
      `${id.padEnd(21)} | ${ms(so.median)} ${ms(sn.median)} | ${ms(so.p95)} ${ms(sn.p95)} | ${String(o.misses).padStart(6)} ${String(n.misses).padStart(4)} | ${o.errors + n.errors}`,
    );
  }
  console.log(`missed frames in all: old ${total.old}, new ${total.new}`);
})();
