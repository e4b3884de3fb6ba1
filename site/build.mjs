// Builds the site into the folder given as argument (dist/):
//   reader.html  the chapter (site/reader.html with its sections from site/sections/), with every \( … \) and \[ … \] formula typeset at build time as
//                MathML by KaTeX, so formulas need no script, no font download and no network,
//                and screen readers read them as mathematics;
//   reader.js    the widgets, bundled by esbuild into one classic script (file:// cannot load
//                ES modules);
//   reader.css   the page's styles followed by every widget's (src/widgets/*.css).
// llmmath.js (the core) is copied in by build.sh.
import { build } from "esbuild";
import katex from "katex";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? "dist");
await mkdir(out, { recursive: true });

/** Replaces \( … \) (inline) and \[ … \] (display) with KaTeX's MathML; stops on a TeX error. */
export function typeset(html, file) {
  return html.replace(/\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g, (match, display, inline) => {
    const tex = (display ?? inline).trim();
    try {
      return katex.renderToString(decodeEntities(tex), {
        displayMode: display !== undefined,
        output: "mathml",
        throwOnError: true,
        strict: "error",
      });
    } catch (error) {
      throw new Error(`${file}: cannot typeset ${match.slice(0, 60)}…: ${error.message}`);
    }
  });
}

// TeX inside HTML source writes <, > and & as entities.
function decodeEntities(s) {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Replaces each <!-- include sections/NAME.html --> with that file (one section of the chapter). */
async function includeSections(html) {
  const parts = html.split(/<!-- include (sections\/[\w-]+\.html) -->/);
  for (let i = 1; i < parts.length; i += 2) {
    parts[i] = typeset(await readFile(path.join(here, parts[i]), "utf8"), `site/${parts[i]}`);
  }
  return parts.join("");
}

const template = await readFile(path.join(here, "reader.html"), "utf8");
await writeFile(path.join(out, "reader.html"), await includeSections(typeset(template, "site/reader.html")));
await writeFile(path.join(out, "reader.css"), await readFile(path.join(here, "reader.css"), "utf8"));

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

/** Bundles one entry of src/ into a classic script; returns its text. */
async function bundle(entry) {
  const result = await build({
    entryPoints: [path.join(here, "src", entry)],
    bundle: true,
    format: "iife",
    minify: true,
    target: ["chrome95", "firefox100", "safari15.2"],
    write: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [cssAsText],
  });
  return result.outputFiles[0].text;
}

// llmmath-widgets.js: the core and every widget in one classic script (the script embed).
const core = await readFile(path.join(out, "llmmath.js"), "utf8");
const widgetsJs = `${core}\n${await bundle("widgets-embed.js")}`;
await writeFile(path.join(out, "llmmath-widgets.js"), widgetsJs);
await writeFile(path.join(out, "reader.js"), await bundle("reader.js"));
