// Post-link step of the SINGLE_FILE module: replaces the embedded wasm (a base64 data URI) by its
// gzip, still in base64; inflate_wasm.js (--pre-js) inflates it when the module loads. The gzip is
// Zopfli's (Debian's zopfli, 15 iterations), a gzip any inflater reads, about 5 % smaller than
// zlib's level 9 (the 327 KB wasm of the serving plan: 136,710 → 129,709 bytes) for a second of
// build time.
// Measured on the 323 KB wasm of the -O3 build: dist/llmmath.js 490 → 230 KB raw, 186 → 146 KB
// once gzipped as a server sends it. The output is the same for the same input (gzip's header
// carries no time or name here). Fails unless the file holds exactly one such data URI.
//
//   node gzip_embedded_wasm.js llmmath.js
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const file = process.argv[2];
const js = fs.readFileSync(file, "utf8");
const prefix = "data:application/octet-stream;base64,";
const uris = [...js.matchAll(/data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/g)];
if (uris.length !== 1) {
  console.error(`gzip_embedded_wasm: expected one embedded wasm in ${file}, found ${uris.length}`);
  process.exit(1);
}
const [uri, base64] = uris[0];
const bytes = Buffer.from(base64, "base64");
if (bytes[0] === 0x1f && bytes[1] === 0x8b) process.exit(0); // already done (a rerun)
if (bytes.readUInt32BE(0) !== 0x0061736d) {
  console.error(`gzip_embedded_wasm: the data URI of ${file} is not WebAssembly`);
  process.exit(1);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-wasm-"));
const raw = path.join(dir, "llmmath.wasm");
fs.writeFileSync(raw, bytes);
const zopfli = spawnSync("zopfli", ["-c", "--i15", raw], { maxBuffer: 64 << 20 });
fs.rmSync(dir, { recursive: true, force: true });
if (zopfli.error || zopfli.status !== 0) {
  console.error(
    `gzip_embedded_wasm: zopfli failed (${zopfli.error?.message ?? zopfli.stderr}): install Debian's zopfli (./build.sh does)`,
  );
  process.exit(1);
}
// its header: gzip's magic, deflate, no name and no time (the same input gives the same file)
const gz = zopfli.stdout;
if (gz[0] !== 0x1f || gz[1] !== 0x8b || gz.readUInt32LE(4) !== 0) {
  console.error("gzip_embedded_wasm: zopfli's output is not a gzip without a time");
  process.exit(1);
}
const gzipped = gz.toString("base64");
fs.writeFileSync(
  file,
  js.replace(uri, () => prefix + gzipped),
);
