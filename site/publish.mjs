// The last steps of a build, on the finished edition folder: what the build does after every page
// is written, and what a test does to a changed copy of the edition "as the build would"
// (tests/hosting/offline.test.js publishes a new edition this way).
//   writeOffline(dir)   the offline copy: which files it keeps (the chapter and what it loads),
//                       their count and size in reader.html's control, and sw.js, the service
//                       worker, whose version is a hash of exactly those files
//   writeServerFiles(dir)  the servers' configurations, from site/hosting.mjs
//   precompress(dir)    file.br and file.gz beside every compressible file
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { compressible, htaccess, netlifyHeaders, nginxConf } from "./hosting.mjs";
import { MANIFEST } from "./src/offline.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every file under `dir`, as paths relative to it with "/" ("assets/reader.0123456789.css"), sorted. */
export async function filesOf(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      path
        .relative(dir, path.join(e.parentPath ?? e.path, e.name))
        .split(path.sep)
        .join("/"),
    )
    .sort();
}

// --- the offline copy --------------------------------------------------------------------------
// What is kept: reader.html and every file it loads (its style sheet and what that names: the
// formulas' font; its scripts), and the web app manifest and the icons it names (the manifest is
// linked by the page's script, site/src/offline.js, where it is served), nothing more. Not the
// one-file edition (the same chapter again, 1.3 MB more, and a download, not a page the worker
// would ever be asked for), not the embedding or hosting guides, not embed.html or the package:
// the reader asked to keep the chapter. The list is read from the pages themselves, so it cannot
// miss a file the chapter starts to load.

/**
 * The attributes of a <link> or <script> that name a file the page loads: href (not an <a>'s) and
 * src, and what reader-head.js's element names for it to load (data-font, the formulas' font asked
 * for ahead; data-widgets, the widgets' script, started once the first screen is shown). The build
 * points them at the hashed files (site/build.mjs withAssets), and the offline copy keeps what they
 * name (pageLoads).
 */
export const LOADING_ATTRIBUTES = "href|src|data-font|data-widgets";

/**
 * The addresses a page's markup loads, relative to it (LOADING_ATTRIBUTES), where scripts run: not
 * what a <noscript> holds (the figures' drawings link their styles for a reader without scripts,
 * whom no service worker serves, so the offline copy has no use for them).
 */
const pageLoads = (html) =>
  [...html.replace(/<noscript\b[^>]*>[\s\S]*?<\/noscript>/g, "").matchAll(/<(?:link|script)\b[^>]*>/g)]
    .flatMap((tag) => [...tag[0].matchAll(new RegExp(`\\s(?:${LOADING_ATTRIBUTES})="([^"]+)"`, "g"))].map((m) => m[1]))
    .filter((u) => !/^(data:|#)/.test(u));

/** The files the offline copy keeps, relative to the edition's folder, reader.html first. */
export async function offlineFiles(dir) {
  const kept = new Set(["reader.html"]);
  const add = (from, address) => {
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(from), address));
    if (file.startsWith("../") || /^[a-z]+:/i.test(address))
      throw new Error(`${from} loads ${address}, outside the edition`);
    if (!existsSync(path.join(dir, file))) throw new Error(`${from} loads ${address}, which the edition does not have`);
    kept.add(file);
    return file;
  };
  const read = (file) => readFile(path.join(dir, file), "utf8");
  for (const address of [...pageLoads(await read("reader.html")), MANIFEST]) {
    const file = add("reader.html", address);
    if (file.endsWith(".css"))
      for (const [, url] of (await read(file)).matchAll(/url\("?([^")]+)"?\)/g))
        if (!url.startsWith("data:")) add(file, url);
    if (file.endsWith(".webmanifest")) for (const icon of JSON.parse(await read(file)).icons ?? []) add(file, icon.src);
  }
  return [...kept];
}

/** "1.3 MB": a size as the control states it. */
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The control's first words, before the reader has kept anything. */
const offlineOffer = (files, size) =>
  `Keeps the chapter, ${files} files (${size}), in this browser, so that it opens with no network.`;

/**
 * Writes the offline copy's numbers into reader.html's control (#offline: data-files, data-size
 * and its status line; reader.html is one of the files counted, so its size is counted with the
 * numbers in it) and writes sw.js: site/sw.js with the list of files and the version, the first 16
 * hex digits of SHA-256 over every kept file's name and bytes. A change to any byte of the kept
 * files makes a new version, hence a new sw.js, which the browser installs on the next visit.
 * Returns { version, files, bytes }.
 */
export async function writeOffline(dir) {
  const files = await offlineFiles(dir);
  const readerFile = path.join(dir, "reader.html");
  let html = await readFile(readerFile, "utf8");
  const others = (await Promise.all(files.slice(1).map((f) => readFile(path.join(dir, f))))).reduce(
    (s, b) => s + b.length,
    0,
  );
  const control =
    /(<div class="offline" id="offline") data-files="\d*" data-size="[^"]*">([\s\S]*?<p id="offline-status" role="status">)[^<]*(<\/p>)/;
  if (!control.test(html)) throw new Error("reader.html has no offline control (#offline, #offline-status)");
  // The total counts reader.html with the total written in it: written until it no longer changes.
  let bytes = 0;
  for (let round = 0; round < 5; round += 1) {
    const size = megabytes(bytes);
    const next = html.replace(
      control,
      (_, open, middle, close) =>
        `${open} data-files="${files.length}" data-size="${size}">${middle}${offlineOffer(files.length, size)}${close}`,
    );
    const total = others + Buffer.byteLength(next);
    html = next;
    if (megabytes(total) === size && round > 0) break;
    bytes = total;
  }
  await writeFile(readerFile, html);
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(`${f}\0`);
    hash.update(await readFile(path.join(dir, f)));
  }
  const version = hash.digest("hex").slice(0, 16);
  const source = await readFile(path.join(here, "sw.js"), "utf8");
  const placeholder = 'const VERSION = "unbuilt";\nconst FILES = [];\n';
  if (!source.includes(placeholder)) throw new Error(`site/sw.js has no ${JSON.stringify(placeholder)} to fill`);
  await writeFile(
    path.join(dir, "sw.js"),
    source.replace(placeholder, () => `const VERSION = "${version}";\nconst FILES = ${JSON.stringify(files)};\n`),
  );
  return { version, files, bytes: others + Buffer.byteLength(html) };
}

// --- the servers' configurations ------------------------------------------------------------------
/** The files a server's configuration is written for: the edition's, without the compressed copies and the configurations. */
export const servedFiles = async (dir) =>
  (await filesOf(dir)).filter((f) => !/\.(br|gz)$/.test(f) && f !== "_headers" && f !== ".htaccess");

/** The servers' configurations for an edition of these files (servedFiles), their texts by path. */
export const serverFiles = (files) => ({
  "hosting/nginx.conf": nginxConf(),
  ".htaccess": htaccess(),
  _headers: netlifyHeaders(files),
});

/**
 * Writes dist/hosting/nginx.conf, dist/.htaccess (Apache reads it from the folder it serves) and
 * dist/_headers (Netlify and Cloudflare Pages read it from the published folder's root), for the
 * edition's files `files` (by default those in `dir` now). Returns their texts by path.
 */
export async function writeServerFiles(dir, files) {
  const texts = serverFiles(files ?? (await servedFiles(dir)));
  await mkdir(path.join(dir, "hosting"), { recursive: true });
  for (const [name, text] of Object.entries(texts)) await writeFile(path.join(dir, name), text);
  return texts;
}

// --- precompressed copies ---------------------------------------------------------------------------
const made = new Map(); // SHA-256 of bytes → their copies, so that the build compresses a file once
/** A file's bytes as the build's .br (Brotli, best quality) and .gz (gzip level 9, no name or date). */
export function compressed(bytes) {
  const key = createHash("sha256").update(bytes).digest("hex");
  if (!made.has(key)) made.set(key, compress(bytes));
  return made.get(key);
}
function compress(bytes) {
  return {
    br: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gz: gzipSync(bytes, { level: 9 }),
  };
}

/**
 * Writes file.br and file.gz beside every compressible file of `dir` (site/hosting.mjs: text,
 * JSON, SVG; not fonts, images or archives) and removes the copies of files no longer there. The
 * same bytes give the same copies (zlib writes no date into the gzip header).
 */
export async function precompress(dir) {
  const all = await filesOf(dir);
  const have = new Set(all);
  for (const f of all) {
    const m = /^(.*)\.(br|gz)$/.exec(f);
    if (m && (!have.has(m[1]) || !compressible(m[1]))) await rm(path.join(dir, f));
  }
  for (const f of all) {
    if (/\.(br|gz)$/.test(f) || !compressible(f)) continue;
    const { br, gz } = compressed(await readFile(path.join(dir, f)));
    await writeFile(path.join(dir, `${f}.br`), br);
    await writeFile(path.join(dir, `${f}.gz`), gz);
  }
}
