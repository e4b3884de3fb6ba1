// The one WebAssembly core of the page. dist/llmmath.js, loaded as a classic script before this
// bundle, defines the global factory createLLMMath; every widget on the page shares the module
// it resolves to. Widgets never compute: they pass the reader's inputs here and draw the result.

/** @type {Promise<LLMMath> | null} */
let instance = null;

/**
 * Resolves to the core module (created on first call, then shared).
 * @returns {Promise<LLMMath>}
 */
export function loadCore() {
  if (!instance) {
    const factory = globalThis.createLLMMath;
    instance =
      typeof factory === "function"
        ? factory()
        : Promise.reject(new Error('llmmath.js did not load: include <script src="llmmath.js"></script> first'));
  }
  return instance;
}
