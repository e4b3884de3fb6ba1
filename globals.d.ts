// Ambient declarations for the type check (tsconfig.json), for what the JavaScript under check
// gets from its build rather than from an import: the text of a .css file (esbuild's text
// loader in site/build.mjs) and the Emscripten glue that bindings/wasm/boundary.js runs inside
// (it is appended to the module with --post-js). The module's own API is dist/llmmath.d.ts.

/** A stylesheet imported by a widget: its CSS text (esbuild's "text" loader). */
declare module "*.css" {
  const text: string;
  export default text;
}

/** The WebAssembly memory's bytes (Emscripten glue, in scope of boundary.js). */
declare var HEAP8: Int8Array;
/** Resolves the factory's promise with the module (Emscripten glue, in scope of boundary.js). */
declare var readyPromiseResolve: (module: LLMMath) => void;
