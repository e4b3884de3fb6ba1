// Post-link step of the SINGLE_FILE module: replaces the embedded wasm (a base64 data URI) by its
// gzip, level 9, still in base64; inflate_wasm.js (--pre-js) inflates it when the module loads.
// Measured on the 323 KB wasm of the -O3 build: dist/llmmath.js 490 → 230 KB raw, 186 → 146 KB
// once gzipped as a server sends it. The output is the same for the same input (gzip's header
// carries no time or name here). Fails unless the file holds exactly one such data URI.
//
//   node gzip_embedded_wasm.js llmmath.js
"use strict";
const fs = require("node:fs");
const zlib = require("node:zlib");

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
const gzipped = zlib.gzipSync(bytes, { level: 9 }).toString("base64");
fs.writeFileSync(
  file,
  js.replace(uri, () => prefix + gzipped),
);
