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
// reader.css: the page's styles, then each concept's widget styles (src/widgets/<concept>.css).
const widgetDir = path.join(here, "src", "widgets");
const widgetCss = (await readdir(widgetDir)).filter((f) => f.endsWith(".css")).sort();
const css = [await readFile(path.join(here, "reader.css"), "utf8")];
for (const f of widgetCss) css.push(`/* ---- src/widgets/${f} ---- */\n` + (await readFile(path.join(widgetDir, f), "utf8")));
await writeFile(path.join(out, "reader.css"), css.join("\n"));
await build({
  entryPoints: [path.join(here, "src", "reader.js")],
  bundle: true,
  format: "iife",
  minify: true,
  target: ["chrome95", "firefox100", "safari15.2"],
  outfile: path.join(out, "reader.js"),
  legalComments: "none",
  logLevel: "warning",
});
