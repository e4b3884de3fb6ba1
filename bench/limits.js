// The worst cases of every function of dist/llmmath.js within its limits, timed through the
// public API: the cases each function's declaration names (`worst`, bindings/api/<concept>.js),
// whose figures its doc states. Each case runs in a fresh module, a few times; the minimum is
// the function's cost on a warm page, the median what a reader typically waits.
//
//   node bench/limits.js [name …]        a function's name runs its cases; LLMMATH_JS=… to time
//                                        another build, REPS=… (default 5)
"use strict";
const path = require("node:path");

const modulePath = path.resolve(process.env.LLMMATH_JS || path.join(__dirname, "..", "dist", "llmmath.js"));
const createLLMMath = require(modulePath);
const REPS = Number(process.env.REPS || 5);

const { functions, inputs } = require("../bindings/api/index.js");

// Every declared worst case: [name (the function's, numbered when it has several), what, fn, args].
const cases = functions.flatMap((f) =>
  (f.worst ?? []).map((c, i) => [f.worst.length > 1 ? `${f.name} ${i + 1}` : f.name, c.what, f.name, c.args]),
);

async function time([name, what, fn, build]) {
  const m = await createLLMMath();
  const args = build(inputs);
  const call = () => m[fn](...args);
  const before = m.memoryStats();
  const times = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    call();
    times.push(performance.now() - t0);
  }
  const after = m.memoryStats();
  times.sort((a, b) => a - b);
  return {
    name,
    what,
    min: times[0],
    median: times[REPS >> 1],
    max: times[REPS - 1],
    heapMiB: after.memoryBytes / 2 ** 20,
    leakedBytes: after.bytesInUse - before.bytesInUse,
  };
}

(async () => {
  const only = process.argv.slice(2);
  console.log(`${modulePath}, ${REPS} calls each (ms)`);
  for (const c of cases.filter(([name, , fn]) => only.length === 0 || only.includes(name) || only.includes(fn))) {
    const r = await time(c);
    console.log(
      `${r.name.padEnd(20)} min ${r.min.toFixed(0).padStart(5)}  median ${r.median.toFixed(0).padStart(5)}  ` +
        `max ${r.max.toFixed(0).padStart(5)}  wasm memory ${r.heapMiB.toFixed(0).padStart(4)} MiB  leaked ${r.leakedBytes} B  ${r.what}`,
    );
  }
})();
