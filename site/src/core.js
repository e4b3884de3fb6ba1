// The one WebAssembly core of the page. The entry that registers the widgets (widgets-embed.js,
// the script embed; widgets-module.js, the package's ES module) hands its factory createLLMMath
// here first; every widget on the page shares the module it resolves to. Widgets never compute:
// they pass the reader's inputs here and draw the result.

/** @type {(() => Promise<LLMMath>) | null} */
let factory = null;
/** @type {Promise<LLMMath> | null} */
let instance = null;

/**
 * Names the factory of the shared core (called once by the entry, before any widget starts).
 * @param {() => Promise<LLMMath>} createLLMMath
 */
export function provideCore(createLLMMath) {
  factory = createLLMMath;
}

/**
 * Resolves to the core module (created on first call, then shared).
 * @returns {Promise<LLMMath>}
 */
export function loadCore() {
  if (!instance) {
    instance = factory ? factory() : Promise.reject(new Error("the widgets' entry gave no core (provideCore)"));
  }
  return instance;
}
