// The public API in Node against the native core, for every core function: the
// wasm / native ratio at widget size (the inputs the reader's figures pass by default, 2×
// budget) and at large size (attention 512 × 64 and 2048 × 64, sampling over 50,257, 128,256
// and 2^20 logits, quantize 2^20, moeRoute 4096 × 64; 1.3× for sampling 2^20, quantize 2^20
// and attention 2048 × 64, the budget of issue 9), measured in one run. The cases and their
// inputs are bench/cases.js's.
//
// The native side is bench/native.cpp, a long-lived process holding the same inputs as the
// core's types, so that native and API timings of each case alternate within every round
// (native first in even rounds, API first in odd ones: neither side always runs on a cache the
// other warmed) and both see the same machine. Both sides are warm, as in a page that has run
// a while: the native heap is reused from call to call as the module's WebAssembly memory is
// (a native process per round would pay for fresh memory in its first calls). Before any timing each case's result is checked against the native one, so that a
// ratio never compares different work. A widget-size call takes microseconds, shorter than
// the noise of one timing, so each timing covers as many calls as fill about TARGET_MS through
// the API (calibrated once per case after a warm-up; the native side makes as many) and is
// divided by them; a large call is timed alone.
//
// Two more sides tell the API's time apart: the core alone in WebAssembly (bench/native.cpp
// itself compiled with Emscripten, the module's flags and allocator, run by Node: no JavaScript
// boundary at all), and the result's copy (a deep copy, in JavaScript, of one result the API
// returned: the fresh plain arrays and objects any boundary that keeps the API's contract must
// make). Their sum over the native time is the least the API could cost with this build of the
// core, whatever its boundary did: the "bound" of each case.
//
// Figures per case: milliseconds per call, median and p95 over every timing of the run (and
// the fastest); the ratio API / native of each round (fastest timing of the round on each side:
// the code's cost, not the machine's hiccups), its median and p95 over the rounds. The budget
// is judged on the median ratio. The API side takes the inputs as a page passes them, plain
// arrays, and for the large cases also as Float64Arrays. Minor page faults per call are
// recorded too: on a virtual machine that backs fresh memory slowly they explain most of the
// API's extra time at large size (the API returns plain arrays, new JavaScript memory on every
// call; the native core reuses its heap).
//
//   node bench/api.js [--rounds N] [--large-rounds N] [--only widget|large] [--check]
//       LLMMATH_JS=… for another build of the module, LLMMATH_NATIVE_BENCH=… for another native
//       binary. --check exits 1 when a median ratio is over its budget (./build.sh bench does
//       not pass it: a benchmark, not a test).
// The figures go under "api" in bench/results.json, beside bench/page.js's.
"use strict";
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");
const { cases: makeCases, typed } = require("./cases.js");

const root = path.join(__dirname, "..");
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ROUNDS = { widget: Number(option("--rounds", 10)), large: Number(option("--large-rounds", 3)) };
const REPS = { widget: 3, large: 3 }; // timings per side, case and round
const TARGET_MS = 5; // one widget-size timing lasts about this long through the API
const MAX_CALLS = 100000;
const WARM_MS = 50,
  WARM_PASSES = 3,
  CALIBRATE_MS = 100;
const only = option("--only", null);

// The headers native.cpp calls the core through (the adapters shared with the module).
const adapters = [
  path.join(root, "bindings", "native", "native.hpp"),
  path.join(root, "bindings", "api", "adapters.hpp"),
];

/** The native benchmark: LLMMATH_NATIVE_BENCH, CMake's (bench/CMakeLists.txt), or built here. */
function nativeBench() {
  if (process.env.LLMMATH_NATIVE_BENCH) return process.env.LLMMATH_NATIVE_BENCH;
  const source = path.join(__dirname, "native.cpp");
  const fromCMake = path.join(root, "build", "native", "bench", "llmmath_bench");
  if (fs.existsSync(fromCMake) && fs.statSync(fromCMake).mtimeMs > fs.statSync(source).mtimeMs) return fromCMake;
  // The core library CMake built (Release: -O3 -DNDEBUG), linked with the same flags.
  const library = path.join(root, "build", "native", "libllmmath_core.a");
  if (!fs.existsSync(library)) throw new Error(`${library} is missing: build the core first (./build.sh core)`);
  const binary = path.join(root, "build", "bench", "llmmath_bench");
  const stale = (f) => fs.statSync(f).mtimeMs > fs.statSync(binary).mtimeMs;
  if (!fs.existsSync(binary) || [source, library, ...adapters].some(stale)) {
    fs.mkdirSync(path.dirname(binary), { recursive: true });
    execFileSync(
      "c++",
      [
        "-std=c++17",
        "-O3",
        "-DNDEBUG",
        "-I",
        path.join(root, "core", "include"),
        "-I",
        "/usr/include/eigen3",
        source,
        library,
        "-o",
        binary,
      ],
      { stdio: "inherit" },
    );
  }
  return binary;
}

/**
 * The same program compiled to WebAssembly (build/bench/llmmath_bench_wasm.js, run by Node):
 * the module's core library (build/wasm/libllmmath_core.a, built by the wasm preset) with the
 * module's compile flags and its allocator (bindings/wasm/memory.cpp), so that it computes
 * exactly as the module does, without the bindings.
 */
function wasmCoreBench() {
  const source = path.join(__dirname, "native.cpp");
  const allocator = path.join(root, "bindings", "wasm", "memory.cpp");
  const library = path.join(root, "build", "wasm", "libllmmath_core.a");
  if (!fs.existsSync(library)) throw new Error(`${library} is missing: build the core first (./build.sh core)`);
  const script = path.join(root, "build", "bench", "llmmath_bench_wasm.js");
  const stale = (f) => fs.statSync(f).mtimeMs > fs.statSync(script).mtimeMs;
  if (!fs.existsSync(script) || [source, allocator, library, ...adapters].some(stale)) {
    fs.mkdirSync(path.dirname(script), { recursive: true });
    // Debian's Emscripten runs its tools with this Node, which needs Debian's node modules.
    const env = { ...process.env, NODE_PATH: ["/usr/share/nodejs", process.env.NODE_PATH].filter(Boolean).join(":") };
    execFileSync(
      "em++",
      [
        "-std=c++17",
        "-O3",
        "-DNDEBUG",
        "-fwasm-exceptions",
        "-msimd128",
        "-I",
        path.join(root, "core", "include"),
        "-I",
        "/usr/include/eigen3",
        source,
        allocator,
        library,
        "-s",
        "NODERAWFS=1",
        "-s",
        "ALLOW_MEMORY_GROWTH=1",
        "-s",
        "ENVIRONMENT=node",
        "-s",
        "SINGLE_FILE=1",
        "-o",
        script,
      ],
      { stdio: "inherit", env },
    );
  }
  return script;
}

/** Starts the native program (or, with `script`, Node on it) with the cases; ask(line) resolves to its parsed answer. */
async function startNative(binary, cases, script) {
  const child = script
    ? spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"] })
    : spawn(binary, [], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()?.resolve(line));
  child.on("exit", (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${binary} exited (${code})`));
  });
  const next = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  const parse = (line) => {
    const answer = JSON.parse(line);
    if (answer.error) throw new Error(`${binary}: ${answer.error}`);
    return answer;
  };
  const ready = next();
  child.stdin.write(`${JSON.stringify(cases.map((c) => ({ fn: c.fn, args: c.args })))}\n`);
  const first = await ready;
  if (!first.startsWith("ready ")) parse(first);
  return {
    values: JSON.parse(first.slice("ready ".length)),
    ask: async (index, calls, reps) => {
      const answer = next();
      child.stdin.write(`${index} ${calls} ${reps}\n`);
      return parse(await answer);
    },
    close: () => child.stdin.end(),
  };
}

/**
 * The number bench/native.cpp returns for a case: the first number of the result, depth first, in
 * the order of its fields (both sides hand a result on by the core's field list, so the order is
 * the same). null (a masked entry) is skipped.
 */
function firstNumber(r) {
  if (typeof r === "number") return r;
  if (r === null || typeof r !== "object") return undefined;
  for (const v of Array.isArray(r) ? r : Object.values(r)) {
    const x = firstNumber(v);
    if (x !== undefined) return x;
  }
  return undefined;
}

/** reps timings of `calls` calls: milliseconds per call of each, minor page faults per call. */
function timed(call, calls, reps) {
  const ms = [];
  const faults = process.resourceUsage().minorPageFault;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    for (let c = 0; c < calls; c++) call();
    ms.push((performance.now() - t0) / calls);
  }
  return { ms, faults: (process.resourceUsage().minorPageFault - faults) / (calls * reps) };
}

/**
 * Before any timing, every widget-size case runs for WARM_MS, round-robin, WARM_PASSES times:
 * the first calls of each function are 10 to 100 times slower (V8 compiles the module's
 * functions lazily and optimises them on background threads, which on a busy 2-core machine
 * take a while to get the processor). Round-robin gives those threads wall time while the
 * other cases run.
 */
function warm(calls) {
  for (let pass = 0; pass < WARM_PASSES; pass++) {
    for (const call of calls) {
      const t0 = performance.now();
      while (performance.now() - t0 < WARM_MS) call();
    }
  }
}

/**
 * Calls per timing so that one timing lasts about TARGET_MS (1 for a call that long), from the
 * mean time of CALIBRATE_MS of calls: a mean over many calls is not thrown off by one
 * interruption, as a short timing is.
 */
function calibrate(call) {
  const t0 = performance.now();
  let n = 0,
    t = 0;
  while (n < MAX_CALLS && t < CALIBRATE_MS) {
    call();
    n += 1;
    t = performance.now() - t0;
  }
  return Math.max(1, Math.min(MAX_CALLS, Math.round((n * TARGET_MS) / t)));
}

/**
 * A function that deep-copies results shaped like `sample` into fresh plain values: what
 * returning such a result costs at the least. It is written for the shape, as the fastest
 * boundary would be: an object by one literal with the result's keys (V8 then allocates it
 * with its final shape at once), an array of numbers, booleans or nulls by slice() (a block
 * copy), an array of arrays or objects entry by entry with the copier of its first entry's
 * shape (the API's arrays hold one kind each).
 */
function copier(sample) {
  if (Array.isArray(sample)) {
    if (sample.length === 0 || sample[0] === null || typeof sample[0] !== "object") return (v) => v.slice();
    const entry = copier(sample[0]);
    return (v) => {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = entry(v[i]);
      return out;
    };
  }
  if (sample === null || typeof sample !== "object") return (v) => v;
  const keys = Object.keys(sample);
  const parts = keys.map((k) => copier(sample[k]));
  // new Function is the benchmark's own, in Node: the page never builds code.
  const literal = new Function(
    "parts",
    `return (v) => ({ ${keys.map((k, i) => `${JSON.stringify(k)}: parts[${i}](v[${JSON.stringify(k)}])`).join(", ")} });`,
  );
  return literal(parts);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const stats = (xs) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), fastest: Math.min(...xs), n: xs.length });

(async () => {
  const modulePath = path.resolve(process.env.LLMMATH_JS || path.join(root, "dist", "llmmath.js"));
  const m = await require(modulePath)();
  const all = (await makeCases(m)).filter((c) => !only || c.size === only);
  const binary = nativeBench();
  const native = await startNative(binary, all);
  const coreScript = wasmCoreBench();
  const core = await startNative(null, all, coreScript);
  // The same inputs give the same numbers in the wasm core as natively (to rounding).
  all.forEach((c, i) => {
    const w = core.values[i],
      nat = native.values[i];
    if (!(Math.abs(w - nat) <= 1e-9 * Math.max(1, Math.abs(nat))))
      throw new Error(`${c.name}: the wasm core gives ${w}, the native core ${nat}`);
  });

  const started = performance.now();
  const runs = all.map((c) => {
    const plain = () => m[c.fn](...c.args);
    const typedArgs = c.size === "large" ? c.args.map(typed) : null;
    const sides = { plain };
    if (typedArgs) sides.float64 = () => m[c.fn](...typedArgs);
    // Every side once before any timing, its result checked against the native one: the
    // same inputs read the same way must give the same number (to rounding: the wasm build
    // may vectorise sums differently).
    for (const [side, call] of Object.entries(sides)) {
      const api = firstNumber(call()),
        nat = native.values[all.indexOf(c)];
      if (!(Math.abs(api - nat) <= 1e-9 * Math.max(1, Math.abs(nat)))) {
        throw new Error(`${c.name} (${side}): the API gives ${api}, the native core ${nat}: not the same inputs?`);
      }
    }
    const result = plain();
    const copy = copier(result);
    sides.copy = () => copy(result);
    return {
      c,
      sides,
      calls: 1,
      ms: { native: [], core: [], plain: [], float64: [], copy: [] },
      rounds: [],
      faults: {},
    };
  });
  const small = runs.filter((r) => r.c.size === "widget");
  warm(small.map((r) => r.sides.plain));
  for (const run of small) run.calls = calibrate(run.sides.plain);

  // Round -1 warms the widget-size cases once more, timed like the others but not counted.
  const maxRounds = Math.max(...all.map((c) => ROUNDS[c.size]));
  for (let round = small.length ? -1 : 0; round < maxRounds; round++) {
    for (const [index, run] of runs.entries()) {
      if (round >= ROUNDS[run.c.size] || (round < 0 && run.c.size !== "widget")) continue;
      const reps = REPS[run.c.size];
      const fastest = {};
      const measure = async (side) => {
        const t =
          side === "native"
            ? await native.ask(index, run.calls, reps)
            : side === "core"
              ? await core.ask(index, run.calls, reps)
              : timed(run.sides[side], run.calls, reps);
        if (round < 0) return;
        run.ms[side].push(...t.ms);
        run.faults[side] = t.faults;
        fastest[side] = Math.min(...t.ms);
      };
      const apiSides = Object.keys(run.sides).filter((s) => s !== "copy");
      const order = round % 2 !== 1 ? ["native", "core", ...apiSides, "copy"] : ["copy", ...apiSides, "core", "native"];
      for (const side of order) await measure(side);
      if (round >= 0) {
        run.rounds.push({
          ...Object.fromEntries([...apiSides, "core"].map((s) => [s, fastest[s] / fastest.native])),
          bound: (fastest.core + fastest.copy) / fastest.native,
        });
      }
    }
  }
  native.close();
  core.close();
  const seconds = (performance.now() - started) / 1000;

  const figures = {
    date: new Date().toISOString(),
    module: modulePath,
    native: binary,
    wasmCore: coreScript,
    seconds: Number(seconds.toFixed(1)),
    rounds: Object.fromEntries(Object.entries(ROUNDS).filter(([size]) => all.some((c) => c.size === size))),
    timingsPerRound: REPS,
    targetMsPerTiming: TARGET_MS,
    cases: {},
  };
  let over = false;
  for (const run of runs) {
    const { c } = run;
    const ratio = (side) => ({
      ...stats(run.rounds.map((r) => r[side])),
      ofFastest: Math.min(...run.ms[side]) / Math.min(...run.ms.native),
    });
    const entry = {
      fn: c.fn,
      size: c.size,
      what: c.what,
      budget: c.budget,
      callsPerTiming: run.calls,
      nativeMs: stats(run.ms.native),
      apiMs: stats(run.ms.plain),
      ratio: ratio("plain"),
      // the core alone in wasm, the copy of a result, and their sum over native (the bound)
      coreMs: stats(run.ms.core),
      coreRatio: ratio("core"),
      resultCopyMs: stats(run.ms.copy),
      bound: stats(run.rounds.map((r) => r.bound)),
      pageFaultsPerCall: { native: run.faults.native, api: run.faults.plain },
    };
    if (run.sides.float64) {
      entry.apiFloat64Ms = stats(run.ms.float64);
      entry.ratioFloat64 = ratio("float64");
      entry.pageFaultsPerCall.apiFloat64 = run.faults.float64;
    }
    if (c.budget) over ||= entry.ratio.median > c.budget || (entry.ratioFloat64?.median ?? 0) > c.budget;
    figures.cases[c.name] = entry;
  }

  // The console's table; ./build.sh bench prints the full one (bench/compare.js) at the end.
  const ms = (s) =>
    s.median >= 1
      ? s.median.toFixed(1)
      : s.median >= 0.001
        ? `${(s.median * 1000).toFixed(2)} µs`
        : `${(s.median * 1e6).toFixed(0)} ns`;
  console.log(`${modulePath} against ${binary}, ${seconds.toFixed(0)} s`);
  console.log(
    `rounds: ${Object.entries(figures.rounds)
      .map(([size, n]) => `${n} ${size === "widget" ? "at widget size" : size}`)
      .join(", ")}; ` +
      `${REPS.widget} timings per side and round; ` +
      "time per call (median); ratio = API / native per round, median (p95); core = the wasm core alone / native; " +
      "bound = (wasm core + a copy of the result) / native, the least any boundary could give",
  );
  console.log(
    `${"case".padEnd(20)} ${"calls".padStart(6)} ${"native".padStart(10)} ${"core".padStart(7)} ${"bound".padStart(7)} ${"API".padStart(10)} ${"ratio".padStart(15)}` +
      `  ${"Float64Array".padStart(12)} ${"ratio".padStart(15)}  ${"budget".padEnd(14)}  page faults per call (native, API, Float64Array)`,
  );
  for (const [name, e] of Object.entries(figures.cases)) {
    const r = (x) => `${x.median.toFixed(2)} (${x.p95.toFixed(2)})`.padStart(15);
    const judge = (x) => (!e.budget ? "" : x.median <= e.budget ? "ok" : "over");
    console.log(
      `${name.padEnd(20)} ${String(e.callsPerTiming).padStart(6)} ${ms(e.nativeMs).padStart(10)} ` +
        `${`${e.coreRatio.median.toFixed(2)}×`.padStart(7)} ${`${e.bound.median.toFixed(2)}×`.padStart(7)} ${ms(e.apiMs).padStart(10)} ${r(e.ratio)}` +
        `  ${(e.apiFloat64Ms ? ms(e.apiFloat64Ms) : "").padStart(12)} ${e.ratioFloat64 ? r(e.ratioFloat64) : "".padStart(15)}` +
        `  ${(e.budget ? `${e.budget}× ${judge(e.ratio)}${e.ratioFloat64 ? `/${judge(e.ratioFloat64)}` : ""}` : "—").padEnd(14)}` +
        (e.size === "large"
          ? `  ${Object.values(e.pageFaultsPerCall)
              .map((f) => f.toFixed(0))
              .join(", ")}`
          : ""),
    );
  }

  const resultsFile = path.join(__dirname, "results.json");
  let results = {};
  try {
    results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
  } catch {
    // no results yet: this benchmark's are the first
  }
  results.api = figures;
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  if (args.includes("--check") && over) process.exitCode = 1;
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
