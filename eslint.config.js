// ESLint (flat config): @eslint/js's recommended rules, which find mistakes (an undefined or
// unused name, unreachable code, a duplicate key), over all of the project's JavaScript, each
// folder with the globals of where it runs. Style is Prettier's (.prettierrc.json), not rules here.
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  // Generated, installed or not the project's JavaScript (.prettierignore lists the same).
  { ignores: ["dist/", "build/", "node_modules/", "tests/fuzz/corpus/"] },
  js.configs.recommended,
  {
    rules: {
      // A page that embeds a widget must find its built-ins as it left them.
      "no-extend-native": "error",
      // Two spaces in a test's pattern are how it spells an indentation.
      "no-regex-spaces": "off",
      // A base class's method names the parameter its overrides take (LlmWidget.presetFields).
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // The page's modules, bundled by esbuild for the browser.
    files: ["site/src/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    // Appended to the Emscripten module (--post-js): runs inside its factory, beside its glue.
    files: ["bindings/wasm/boundary.js"],
    languageOptions: {
      sourceType: "script",
      // The glue's HEAP8 and readyPromiseResolve, and llmmathApi of api-table.js (generated).
      globals: { ...globals.browser, HEAP8: "readonly", readyPromiseResolve: "writable", llmmathApi: "readonly" },
    },
  },
  {
    // Put ahead of the Emscripten glue (--pre-js), inside the factory: its loader's names.
    files: ["bindings/wasm/inflate_wasm.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        ...globals.browser,
        Module: "readonly",
        tryParseAsDataURI: "readonly",
        dataURIPrefix: "readonly",
        wasmBinaryFile: "readonly",
        readyPromiseReject: "readonly",
      },
    },
  },
  {
    // A step of the build after the module's link (node bindings/wasm/gzip_embedded_wasm.js).
    files: ["bindings/wasm/gzip_embedded_wasm.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
  {
    // The build (site/build.mjs, site/noscript.mjs): Node ES modules.
    files: ["**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
  {
    // The build's drawing of the figures, which hands functions to the page it opens.
    files: ["site/prerender.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The offline copy's service worker (site/sw.js, written to dist/sw.js by site/publish.mjs).
    files: ["site/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    // Tests, the benchmark and the API's declarations: Node CommonJS scripts. The browser tests
    // hand functions to the page (page.evaluate), which run there and use its globals.
    files: ["tests/**/*.js", "bench/**/*.js", "bindings/api/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
  {
    files: [
      "tests/browser/**/*.js",
      "tests/firefox/**/*.js",
      "tests/hosting/**/*.js",
      "tests/webkit/**/*.js",
      "tests/visual/**/*.js",
      "bench/page.js",
    ],
    languageOptions: {
      globals: {
        ...globals.node,
        ...globals.browser,
        // The page's own globals: the module's factory, axe-core injected by a test, and
        // phone.test.js's everyElement() (added to the page by an init script).
        createLLMMath: "readonly",
        axe: "readonly",
        everyElement: "readonly",
      },
    },
  },
];
