// Assembles dist/ (or the folder given as argument), the one place that does:
//   node site/build.mjs [out] [--module FILE] [--core-only]
//   llmmath.js, .d.ts      the core as CMake's wasm preset built it (build/wasm/…, or --module)
//                          and its declarations (bindings/wasm/llmmath.d.ts); --core-only stops here
//   reader.html            the chapter: site/reader.html with its sections (site/sections/), every
//                          \( … \) and \[ … \] typeset at build time as MathML by KaTeX (no script,
//                          read as mathematics by screen readers)
//   reader.css, reader.js  the page's styles and its glue (URL state, sharing), after …
//   reader-head.js         the reader's first script: asks for the formulas' font ahead (src/reader-head.js)
//   chapter-math.woff2     the formulas' font (site/fonts/: Latin Modern Math cut down to them)
//   llmmath-widgets.js     the script embed: the core and every widget in one classic script
//                          (file:// cannot load ES modules); widget styles travel inside it
//   embed.html             one figure with its caption, for a frame (embed.html?widget=…); one
//                          file, with site/embed.css, site/src/embed.js and the widgets inline
//   embed-guide.html       the course authors' guide, with every widget's attribute table made
//                          from the widgets' own declarations
//   reader-standalone.html the whole chapter in one file (styles and scripts inline, allowed by
//                          their hashes in the page's Content-Security-Policy)
// Every page carries a <noscript> note with the eight exercise answers, computed here by the core.
import { build } from "esbuild";
import katex from "katex";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exerciseAnswers } from "./noscript.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const out = path.resolve(args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--module") ?? path.join(root, "dist"));
await mkdir(out, { recursive: true });
const read = (file) => readFile(path.join(here, file), "utf8");

// --- the core ------------------------------------------------------------------------------
// A folder that already holds llmmath.js (a test build) keeps it unless --module is given.
const moduleFile = option("--module") ?? path.join(root, "build", "wasm", "bindings", "wasm", "llmmath.js");
if (option("--module") || !existsSync(path.join(out, "llmmath.js")) || path.join(root, "dist") === out) {
  await copyFile(moduleFile, path.join(out, "llmmath.js"));
}
await copyFile(path.join(root, "bindings", "wasm", "llmmath.d.ts"), path.join(out, "llmmath.d.ts"));
if (args.includes("--core-only")) process.exit(0);

/**
 * Replaces \( … \) (inline) and \[ … \] (display) with KaTeX's MathML; stops on a TeX error.
 * A display formula, and a table in a .table-scroll box, can be wider than a phone: they scroll
 * sideways (reader.css) and take the focus, so that a keyboard can scroll them too.
 */
export function typeset(html, file) {
  return html.replace(/\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g, (match, display, inline) => {
    const tex = (display ?? inline).trim();
    try {
      const mathml = katex.renderToString(decodeEntities(tex), {
        displayMode: display !== undefined,
        output: "mathml",
        throwOnError: true,
        strict: "error",
      });
      return display === undefined ? mathml : mathml.replace("<math ", '<math tabindex="0" ');
    } catch (error) {
      throw new Error(`${file}: cannot typeset ${match.slice(0, 60)}…: ${error.message}`);
    }
  }).replace(/<div class="table-scroll">/g, '<div class="table-scroll" tabindex="0" role="group" aria-label="Table">');
}

// TeX inside HTML source writes <, > and & as entities.
function decodeEntities(s) {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function escapeHtml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Replaces each <!-- include sections/NAME.html --> with that file, typeset. */
async function includeSections(html) {
  const parts = html.split(/<!-- include (sections\/[\w-]+\.html) -->/);
  for (let i = 1; i < parts.length; i += 2) parts[i] = typeset(await read(parts[i]), `site/${parts[i]}`);
  return parts.join("");
}

/**
 * Gives each heading with an id inside <main> (every section's h2, and an h3 with an id) a
 * permalink at its end: <a class="permalink" href="#id">#</a>, shown on hover and focus
 * (reader.css). The heading's words go in a <span id="id-name">, and what the heading labelled
 * (its section's aria-labelledby) is labelled by that span, so that a section is named by its
 * title alone, not by the title and "Link to this section". The contents and the figures'
 * captions are left as they are.
 */
function permalinks(html) {
  return html.replace(/<main\b[\s\S]*?<\/main>/, (main) => {
    const ids = new Set();
    const linked = main.replace(/<(h[23])\b([^>]*?\sid="([^"]+)"[^>]*)>([\s\S]*?)<\/\1>/g, (_, tag, attrs, id, inner) => {
      ids.add(id);
      return `<${tag}${attrs}><span id="${id}-name">${inner}</span> <a class="permalink" href="#${id}" aria-label="Link to this section">#</a></${tag}>`;
    });
    return linked.replace(/\saria-labelledby="([^"]+)"/g, (attr, ref) => (ids.has(ref) ? ` aria-labelledby="${ref}-name"` : attr));
  });
}

/** Fills a page's <!-- name --> placeholders; a missing placeholder is a build error. */
function fill(html, file, values) {
  for (const [name, value] of Object.entries(values)) {
    const mark = `<!-- ${name} -->`;
    if (!html.includes(mark)) throw new Error(`${file}: no ${mark}`);
    html = html.replace(mark, () => value);
  }
  return html;
}

// --- scripts -----------------------------------------------------------------------------
// Widget styles are bundled into the scripts as text and adopted into each widget's shadow root.
// Lengths in rem become px here, so that a host page's root font size cannot resize a figure.
const cssAsText = {
  name: "css-as-text",
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const css = await readFile(args.path, "utf8");
      const px = css.replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${+(Number(n) * 16).toFixed(2)}px`);
      return { contents: px, loader: "text" };
    });
  },
};

/**
 * Bundles one entry of src/ (a file name, or { contents } of a module in src/) into a classic
 * script, or CommonJS for the build itself; returns its text.
 */
async function bundle(entry, format = "iife") {
  const result = await build({
    ...(typeof entry === "string"
      ? { entryPoints: [path.join(here, "src", entry)] }
      : { stdin: { contents: entry.contents, resolveDir: path.join(here, "src"), loader: "js" } }),
    bundle: true,
    format,
    minify: format === "iife" && !process.env.LLMMATH_NO_MINIFY,
    target: ["chrome95", "firefox100", "safari15.2"],
    write: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [cssAsText],
  });
  return result.outputFiles[0].text;
}

const coreJs = await readFile(path.join(out, "llmmath.js"), "utf8");
const widgetsJs = `${coreJs}\n${await bundle("widgets-embed.js")}`;
const readerJs = await bundle("reader.js");
const readerHeadJs = await bundle("reader-head.js");
const embedJs = await bundle("embed.js");

// The widgets' declarations and the figures, read by running the widget modules here with a
// stand-in for HTMLElement (nothing is drawn at import).
const { widgets, figures, describeType, formatValue, stateKey } = await (async () => {
  const code = await bundle({ contents: `export { widgets } from "./widgets/index.js";
    export { figures } from "./widgets/figures.js";
    export { describeType, formatValue, stateKey } from "./widgets/attributes.js";` }, "cjs");
  const module = { exports: {} };
  new Function("module", "exports", "HTMLElement", code)(module, module.exports, class {});
  return module.exports;
})();

// --- the noscript note -------------------------------------------------------------------
const core = await createRequire(import.meta.url)(path.join(out, "llmmath.js"))();
const noscript = (page = "reader.html") => `<div class="noscript">
  <p><strong>Scripts are off.</strong> The text and formulas of this chapter read without them, but every figure, and every number in them, is computed in your browser by the chapter's WebAssembly engine, which needs JavaScript. The exercises' answers, computed by the same engine for the exercises' own numbers:</p>
  <ol>
${exerciseAnswers(core).map((a) => `    <li><a href="${page}#${a.section}">${escapeHtml(a.text)}</a></li>`).join("\n")}
  </ol>
</div>`;

// --- the formulas' font -------------------------------------------------------------------
// Latin Modern Math cut down to what the formulas draw, committed in site/fonts/ (made by
// site/fonts/subset.py, which the build does not run): chapter-math.woff2 for the chapter,
// chapter-math-captions.woff2 for the figure captions of embed.html. fonts/math.css declares it
// as url("chapter-math.woff2"): reader.html loads the file from beside it; a one-file page gets
// the font as a data: URL instead (fontInline).
const mathCss = await read("fonts/math.css");
const fontFile = (name) => readFile(path.join(here, "fonts", name));
await writeFile(path.join(out, "chapter-math.woff2"), await fontFile("chapter-math.woff2"));
/** `css` with the font file of fonts/math.css replaced by `woff2` (bytes) as a data: URL. */
function fontInline(css, woff2) {
  const url = 'url("chapter-math.woff2")';
  if (!css.includes(url)) throw new Error(`no ${url} in the styles to inline`);
  return css.replace(url, () => `url("data:font/woff2;base64,${woff2.toString("base64")}")`);
}

// --- reader.html ---------------------------------------------------------------------------
const sectionsHtml = permalinks(await includeSections(typeset(await read("reader.html"), "site/reader.html")));
const readerHtml = fill(sectionsHtml, "site/reader.html", { noscript: noscript("") });
await writeFile(path.join(out, "reader.html"), readerHtml);
// Every page's stylesheet starts with the colour tokens the widgets use too, and the formulas' font.
const tokensCss = await read("src/tokens.css");
const readerCss = `${tokensCss}\n${mathCss}\n${await read("reader.css")}`;
await writeFile(path.join(out, "reader.css"), readerCss);
await writeFile(path.join(out, "reader.js"), readerJs);
await writeFile(path.join(out, "reader-head.js"), readerHeadJs);
await writeFile(path.join(out, "llmmath-widgets.js"), widgetsJs);

// --- one-file pages ------------------------------------------------------------------------
// A page with its stylesheets and scripts inline. A strict policy still holds: each inline block
// is allowed by its SHA-256 hash, nothing else may run, and nothing is fetched; so the page works
// from a USB stick, as an attachment, and in a sandboxed frame opened from file:// (where an
// opaque origin may load no other file).
const sha = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
// Inside a <script> element "</script" would end it and "<!--" changes how it is parsed; in the
// minified bundles both occur only inside string literals, where these escapes mean the same.
const inlineSafe = (js) => js.replace(/<\/script/gi, "<\\/script").replace(/<!--/g, "\\x3C!--");

/** `html` with each <link rel="stylesheet" href> of `styles` and <script src> of `scripts` inline. */
function oneFile(html, file, { styles, scripts }) {
  const hashes = { script: [], style: [] };
  for (const [href, css] of Object.entries(styles)) {
    const tag = `<link rel="stylesheet" href="${href}">`;
    if (!html.includes(tag)) throw new Error(`${file}: no ${tag}`);
    html = html.replace(tag, () => `<style>\n${css}</style>`);
    hashes.style.push(sha(`\n${css}`));
  }
  for (const [src, js] of Object.entries(scripts)) {
    // the reader loads the widgets with `async`; inline, a script runs where it stands
    const tag = [`<script src="${src}"></script>`, `<script src="${src}" async></script>`].find((t) => html.includes(t));
    if (!tag) throw new Error(`${file}: no <script src="${src}">`);
    const safe = inlineSafe(js);
    html = html.replace(tag, () => `<script>${safe}</script>`);
    hashes.script.push(sha(safe));
  }
  // A font inlined as a data: URL (fontInline) is the only font the page may use.
  const css = Object.values(styles).join("\n");
  const fonts = /url\("data:font\//.test(css) ? " font-src data:;" : "";
  html = html.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, () =>
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${hashes.script.join(" ")} 'wasm-unsafe-eval'; style-src ${hashes.style.join(" ")};${fonts} img-src data:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'">`);
  const markupOnly = html.replace(/<(script|style)>[\s\S]*?<\/\1>/g, "").replace(/<a [^>]*>/g, "");
  if (/<(script|link|img|iframe)[^>]+(src|href)="(?!data:)/.test(markupOnly)) throw new Error(`${file} still refers to another file`);
  if (/url\((?!"data:)/.test(css)) throw new Error(`${file}: a style still refers to another file`);
  return html;
}

// --- embed.html ------------------------------------------------------------------------------
// Each figure's caption, as the chapter has it, in a <template> the page picks by name.
const captions = Object.entries(figures).map(([name, f]) => {
  const at = readerHtml.indexOf(`id="${f.id}"`);
  const m = at < 0 ? null : /<figcaption>([\s\S]*?)<\/figcaption>/.exec(readerHtml.slice(at));
  if (!m) throw new Error(`no caption for figure ${f.id} in the chapter`);
  return `<template id="caption-${name}"><figcaption>${m[1]}</figcaption></template>`;
}).join("\n");
const embedHtml = fill(await read("embed.html"), "site/embed.html", { noscript: noscript(), captions });
await writeFile(path.join(out, "embed.html"), oneFile(embedHtml, "embed.html", {
  styles: { "embed.css": fontInline(`${tokensCss}\n${mathCss}\n${await read("embed.css")}`, await fontFile("chapter-math-captions.woff2")) },
  scripts: { "llmmath-widgets.js": widgetsJs, "embed.js": embedJs },
}));

// --- embed-guide.html ----------------------------------------------------------------------
const tables = Object.entries(figures).map(([name, f]) => {
  const cls = widgets[f.tag];
  const decls = cls.attributes;
  // A field the default preset sets has the preset's value as its default.
  const presetDecl = decls.find((d) => d.preset);
  const fromPreset = presetDecl ? cls.presetFields(presetDecl.default) : {};
  const byDefault = (d) => {
    const k = stateKey(d.name);
    const v = Object.hasOwn(fromPreset, k) ? fromPreset[k] : d.default;
    const text = `<code>${escapeHtml(formatValue(d, v))}</code>`;
    return Object.hasOwn(fromPreset, k) ? `${text} (from the preset ${escapeHtml(presetDecl.default)})` : text;
  };
  const rows = decls.map((d) => `      <tr><th scope="row"><code>${escapeHtml(d.name)}</code></th><td>${escapeHtml(describeType(d))}</td><td>${byDefault(d)}</td><td>${escapeHtml(d.doc)}</td></tr>`).join("\n");
  return `  <section id="widget-${name}" class="widget-ref">
    <h3><code>&lt;${f.tag}&gt;</code> · <code>?widget=${name}</code></h3>
    <div class="table-scroll" tabindex="0" role="group" aria-label="Attributes of &lt;${f.tag}&gt;"><table class="attributes">
      <caption>Attributes of <code>&lt;${f.tag}&gt;</code> (the same names as query parameters of embed.html)</caption>
      <thead><tr><th scope="col">attribute</th><th scope="col">type and range</th><th scope="col">default</th><th scope="col">meaning</th></tr></thead>
      <tbody>
${rows}
      </tbody>
    </table></div>
    <figure class="live"><${f.tag} id="example-${name}"></${f.tag}><figcaption>Live: <code>&lt;${f.tag}&gt;&lt;/${f.tag}&gt;</code> with every default.</figcaption></figure>
  </section>`;
}).join("\n");
await writeFile(path.join(out, "embed-guide.html"), fill(await read("embed-guide.html"), "site/embed-guide.html", {
  noscript: noscript(), "attribute-tables": tables, "figure-names": Object.keys(figures).map((n) => `<code>${n}</code>`).join(", "),
}));

// --- reader-standalone.html ------------------------------------------------------------------
const standalone = readerHtml.replace(/<p class="edition-links">[\s\S]*?<\/p>/,
  '<p class="edition-links">This is the one-file edition of the chapter: it needs no other file and makes no request.</p>')
  // the font is inside the style sheet there: nothing to ask for ahead
  .replace('<script src="reader-head.js"></script>\n', "");
await writeFile(path.join(out, "reader-standalone.html"), oneFile(standalone, "reader-standalone.html", {
  styles: { "reader.css": fontInline(readerCss, await fontFile("chapter-math.woff2")) },
  scripts: { "llmmath-widgets.js": widgetsJs, "reader.js": readerJs },
}));
