// The speed budget of issue 9: through the public API in Node, sampling 2^20 logits, quantize
// 2^20 values and attention 2048 × 64 within 1.3× of the native core, measured in one run.
//
// Native and API rounds alternate (native, API, native, API, …) so that both see the same
// machine; each figure is the fastest call of all rounds (the code's cost, not the machine's
// hiccups), with the median beside it. The native side is bench/native.cpp, the core's own
// calls on the same inputs; the API side is dist/llmmath.js with the inputs as a page passes
// them, plain arrays, and as Float64Arrays. Minor page faults per call are printed too: on a
// virtual machine that backs fresh memory slowly they explain most of the API's extra time
// (the API returns plain arrays, new JavaScript memory on every call; the native core reuses
// its heap).
//
//   node bench/api.js [--rounds N] [--check]      LLMMATH_JS=… for another build,
//                                                  LLMMATH_NATIVE_BENCH=… for another native binary
// --check exits 1 when a ratio is over the budget. The figures are also written under "api" in
// bench/results.json (beside bench/page.js's), which ./build.sh bench reports.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const BUDGET = 1.3;
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf("--rounds") + 1]) || 3;
const REPS = 3; // calls per case and round

/** The native benchmark: LLMMATH_NATIVE_BENCH, CMake's (LLMMATH_BENCH), or built here. */
function nativeBench() {
  if (process.env.LLMMATH_NATIVE_BENCH) return process.env.LLMMATH_NATIVE_BENCH;
  const fromCMake = path.join(root, "build", "native", "bench", "llmmath_bench");
  if (fs.existsSync(fromCMake)) return fromCMake;
  // The core library CMake built (Release: -O3 -DNDEBUG), linked with the same flags.
  const library = path.join(root, "build", "native", "libllmmath_core.a");
  if (!fs.existsSync(library)) throw new Error(`${library} is missing: build the core first (./build.sh core)`);
  const source = path.join(__dirname, "native.cpp");
  const binary = path.join(root, "build", "bench", "llmmath_bench");
  const stale = (f) => fs.statSync(f).mtimeMs > fs.statSync(binary).mtimeMs;
  if (!fs.existsSync(binary) || stale(source) || stale(library)) {
    fs.mkdirSync(path.dirname(binary), { recursive: true });
    execFileSync("c++", ["-std=c++17", "-O3", "-DNDEBUG", "-I", path.join(root, "core", "include"),
      "-I", "/usr/include/eigen3", source, library, "-o", binary], { stdio: "inherit" });
  }
  return binary;
}

function native(binary) {
  return JSON.parse(execFileSync(binary, [String(REPS)], { encoding: "utf8" }));
}

/** Milliseconds of each of REPS calls, and minor page faults per call. */
function timed(call) {
  const ms = [];
  const faults = process.resourceUsage().minorPageFault;
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    call();
    ms.push(performance.now() - t0);
  }
  return { ms, faults: (process.resourceUsage().minorPageFault - faults) / REPS };
}

(async () => {
  const modulePath = path.resolve(process.env.LLMMATH_JS || path.join(root, "dist", "llmmath.js"));
  const m = await require(modulePath)();
  const binary = nativeBench();

  // The inputs of bench/native.cpp: sin of the index.
  const n = 2 ** 20;
  const logits = Array.from({ length: n }, (_, i) => Math.sin(i));
  const q = Array.from({ length: 2048 }, (_, i) => Array.from({ length: 64 }, (_, j) => Math.sin(7 * i + j)));
  const typed = { logits: Float64Array.from(logits), q: q.map((row) => Float64Array.from(row)) };
  const api = {
    sampling: [() => m.sampling({ logits }), () => m.sampling({ logits: typed.logits })],
    quantize: [() => m.quantize(logits), () => m.quantize(typed.logits)],
    attention: [() => m.attention(q, q, q), () => m.attention(typed.q, typed.q, typed.q)],
  };

  const runs = {}; // case → { native: [...], plain: [...], typed: [...], faults }
  for (const name of Object.keys(api)) runs[name] = { native: [], plain: [], typed: [], faults: {} };
  for (let round = 0; round < rounds; round++) {
    const nat = native(binary);
    for (const name of Object.keys(api)) {
      runs[name].native.push(...nat[name].ms);
      runs[name].faults.native = nat[name].faults;
      const plain = timed(api[name][0]);
      const typedRun = timed(api[name][1]);
      runs[name].plain.push(...plain.ms);
      runs[name].typed.push(...typedRun.ms);
      runs[name].faults.plain = plain.faults;
      runs[name].faults.typed = typedRun.faults;
    }
  }

  const min = (xs) => Math.min(...xs);
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  const fmt = (xs) => `${min(xs).toFixed(0).padStart(5)} (${median(xs).toFixed(0).padStart(5)})`;
  console.log(`${modulePath} against ${binary}`);
  console.log(`${rounds} rounds × ${REPS} calls; ms: fastest (median); ratio = API fastest / native fastest; budget ${BUDGET}×`);
  console.log("case         native        API, plain arrays   API, Float64Array   ratio plain  ratio typed  page faults/call (native, plain, typed)");
  let over = false;
  const figures = { budget: BUDGET, rounds, callsPerRound: REPS, cases: {} };
  for (const [name, r] of Object.entries(runs)) {
    const ratioPlain = min(r.plain) / min(r.native);
    const ratioTyped = min(r.typed) / min(r.native);
    over ||= ratioPlain > BUDGET || ratioTyped > BUDGET;
    console.log(`${name.padEnd(12)} ${fmt(r.native)}  ${fmt(r.plain)}        ${fmt(r.typed)}        ` +
      `${ratioPlain.toFixed(2).padStart(5)}        ${ratioTyped.toFixed(2).padStart(5)}        ` +
      `${r.faults.native.toFixed(0)}, ${r.faults.plain.toFixed(0)}, ${r.faults.typed.toFixed(0)}`);
    const ms = (xs) => ({ fastest: Number(min(xs).toFixed(1)), median: Number(median(xs).toFixed(1)) });
    figures.cases[name] = { nativeMs: ms(r.native), plainArraysMs: ms(r.plain), float64ArraysMs: ms(r.typed),
      ratioPlainArrays: Number(ratioPlain.toFixed(2)), ratioFloat64Arrays: Number(ratioTyped.toFixed(2)),
      pageFaultsPerCall: { native: Math.round(r.faults.native), plainArrays: Math.round(r.faults.plain),
        float64Arrays: Math.round(r.faults.typed) } };
  }
  const resultsFile = path.join(__dirname, "results.json");
  let results = {};
  try {
    results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
  } catch {
    // no results yet: this benchmark's are the first
  }
  results.api = { date: new Date().toISOString(), ...figures };
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  if (args.includes("--check") && over) process.exitCode = 1;
})();
