// The top-level definitions of reference/*.py, as the figures' "Copy as NumPy" programs inline
// them (site/src/numpy.js). site/build.mjs bundles the site with this module replaced by the
// table it reads from the .py files at build time (referenceDefinitions()); this stand-in, empty,
// is what the type check and a test that imports the site's modules unbundled see.

/**
 * @typedef {object} ReferenceDefinition
 * @property {string} name a function or constant of reference/*.py, unique across the folder
 * @property {string} text its source, verbatim, with the comment lines right above it
 * @property {string[]} needs every other definition it uses, directly or through another, in
 *   the table's order (files by name, then as written)
 * @property {string[]} imports the import lines that it and those use
 */

/** @type {ReferenceDefinition[]} */
export default [];
