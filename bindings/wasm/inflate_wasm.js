// The embedded WebAssembly of dist/llmmath.js is stored gzip-compressed (gzip_embedded_wasm.js,
// run after the link): base64 of raw wasm compresses badly a second time (a server's gzip of the
// whole file shrank the 323 KB wasm's 431 KB of base64 to 170 KB, against 127 KB for the wasm
// itself), while base64 of gzip costs about its own size once the file is compressed again.
// Emscripten prepends this file to the module (--pre-js), inside the factory: it gives the
// loader an instantiateWasm hook (Emscripten's documented way to instantiate the module oneself)
// that decodes the data URI (embeddedBytes), inflates it with the platform's
// DecompressionStream (no fetch, no eval: file:// and strict Content-Security-Policies as before;
// Chrome 80, Firefox 113, Safari 16.4, Node 18, each older than the module's wasm SIMD and
// exceptions need but Firefox's), and instantiates it. An embedded wasm that is not gzip (the
// magic bytes tell) is instantiated as it is.
if (!Module["instantiateWasm"]) {
  Module["instantiateWasm"] = function instantiateEmbeddedWasm(imports, receiveInstance) {
    const embedded = embeddedBytes(wasmBinaryFile);
    const gzipped = embedded && embedded[0] === 0x1f && embedded[1] === 0x8b;
    const bytes = !gzipped
      ? Promise.resolve(embedded)
      : typeof DecompressionStream !== "function"
        ? Promise.reject(new Error("this browser cannot inflate the engine (no DecompressionStream)"))
        : inflated(embedded);
    bytes
      .then((binary) => WebAssembly.instantiate(binary, imports))
      .then((result) => receiveInstance(result.instance, result.module))
      .catch(readyPromiseReject);
    return {};
  };
}

// The data URI's bytes: by the platform's decoder where there is one (Chromium 140, Firefox 133,
// Safari 18.2), else by the loader's own, a loop in JavaScript that took 10 to 20 ms of the main
// thread at a cold load for the 170 KB of gzip.
function embeddedBytes(uri) {
  if (typeof Uint8Array.fromBase64 === "function" && uri.startsWith(dataURIPrefix))
    return Uint8Array.fromBase64(uri.slice(dataURIPrefix.length));
  return tryParseAsDataURI(uri);
}

// The gzip inflated, its pieces read from the stream and joined here: each read resolves in a
// microtask, so the whole inflate is done at the end of the task that asked for it and the
// wasm's compilation (on another thread) starts then. A Response's arrayBuffer() of the same
// stream (a Blob's too) resolved only after the tasks queued meanwhile, a frame among them: the
// engine started 30 to 40 ms later at a cold load of the reader.
async function inflated(gzip) {
  const inflater = new DecompressionStream("gzip");
  const writer = inflater.writable.getWriter();
  writer.write(gzip).catch(() => {});
  writer.close().catch(() => {});
  const reader = inflater.readable.getReader();
  const pieces = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    size += value.length;
  }
  const binary = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    binary.set(piece, at);
    at += piece.length;
  }
  return binary;
}
