// The embedded WebAssembly of dist/llmmath.js is stored gzip-compressed (gzip_embedded_wasm.js,
// run after the link): base64 of raw wasm compresses badly a second time (a server's gzip of the
// whole file shrank the 323 KB wasm's 431 KB of base64 to 170 KB, against 127 KB for the wasm
// itself), while base64 of gzip costs about its own size once the file is compressed again.
// Emscripten prepends this file to the module (--pre-js), inside the factory: it gives the
// loader an instantiateWasm hook (Emscripten's documented way to instantiate the module oneself)
// that decodes the data URI with the loader's own decoder, inflates it with the platform's
// DecompressionStream (no fetch, no eval: file:// and strict Content-Security-Policies as before;
// Chrome 80, Firefox 113, Safari 16.4, Node 18, each older than the module's wasm SIMD and
// exceptions need but Firefox's), and instantiates it. An embedded wasm that is not gzip (the
// magic bytes tell) is instantiated as it is.
if (!Module["instantiateWasm"]) {
  Module["instantiateWasm"] = function instantiateEmbeddedWasm(imports, receiveInstance) {
    const embedded = tryParseAsDataURI(wasmBinaryFile);
    const gzipped = embedded && embedded[0] === 0x1f && embedded[1] === 0x8b;
    const bytes = !gzipped
      ? Promise.resolve(embedded)
      : typeof DecompressionStream !== "function"
        ? Promise.reject(new Error("this browser cannot inflate the engine (no DecompressionStream)"))
        : new Response(streamOf(embedded).pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    bytes
      .then((binary) => WebAssembly.instantiate(binary, imports))
      .then((result) => receiveInstance(result.instance, result.module))
      .catch(readyPromiseReject);
    return {};
  };
}

// A stream of the bytes made here, not a Blob's: Chromium keeps a Blob's bytes in its browser
// process, and reading them back cost about 30 ms at load.
function streamOf(bytes) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
