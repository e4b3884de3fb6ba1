// How a web server serves the edition, declared once: each kind of file's headers (its type, its
// caching, its Content-Security-Policy, the headers every response carries) and what is
// compressed ahead. Everything else is made from this:
//   - the pages' <meta> policies (site/build.mjs fills each page's from POLICIES: a page opened
//     from file://, or served by a host that sends no header, such as GitHub Pages, still has it);
//   - dist/hosting/nginx.conf, dist/.htaccess (Apache) and dist/_headers (Netlify, Cloudflare
//     Pages), by nginxConf(), htaccess() and netlifyHeaders() below;
//   - dist/hosting.html, the hosting guide, which shows those three files as they are;
//   - the tests (tests/hosting/), which ask a real nginx and Apache for every kind of file and
//     compare what comes back with headersFor().
// A kind is found by the first pattern that matches a file's path in the edition ("reader.html",
// "assets/reader.0123456789.css"): the same regular expression is written into nginx's and
// Apache's configurations, so that every server decides the same way.

/** The folder of the files whose names carry a hash of their content (site/build.mjs). */
export const ASSETS = "assets";

/** The one-file edition: its policy allows its inline blocks by their hashes, which each build changes. */
export const STANDALONE = "reader-standalone.html";

/**
 * Content-Security-Policy by kind of response, directive → sources. A <meta> carries all but
 * what only a header can say (META_EXCLUDED); a policy whose every directive is header-only has
 * no <meta> form.
 *   page        the chapter, the embedding guide and the hosting guide: their own files only;
 *               WebAssembly ('wasm-unsafe-eval'); no request of their own beyond their site
 *               (connect-src 'self': the pages fetch nothing, but a crawler's tool reading the
 *               site's robots.txt from the page, as Lighthouse does, is refused under 'none');
 *               the offline copy's worker and the web app manifest from their own folder; framed
 *               only by a page of the same site (frame-ancestors 'self', a header's alone)
 *   embed       embed.html, made to be framed by any course: no frame-ancestors at all (a
 *               frame-ancestors * would still refuse a course page opened from file://); its one
 *               font is inside its style sheet (font-src data:)
 *   standalone  the one-file edition: its <meta> policy names the hashes of its inline scripts
 *               and styles, which change with every build (site/build.mjs oneFile); the header
 *               adds only what a <meta> cannot say, so that a server's configuration, written
 *               once, never refuses a newer copy
 *   worker      the offline copy's service worker (sw.js): it fetches and caches the chapter's
 *               own files and runs nothing else; a worker's policy is its script's header
 *   file        everything else: nothing is a document, and none may act as one (an SVG or a
 *               text opened on its own runs and loads nothing)
 */
export const POLICIES = {
  page: {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'"],
    "font-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'self'"],
  },
  embed: {
    "default-src": ["'none'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'"],
    "font-src": ["data:"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  },
  standalone: { "frame-ancestors": ["'self'"] },
  worker: { "default-src": ["'none'"], "connect-src": ["'self'"] },
  file: { "default-src": ["'none'"] },
};

/** Directives a <meta> policy may not carry (CSP 3: the browser ignores them there, with a warning). */
export const META_EXCLUDED = new Set(["frame-ancestors", "report-uri", "sandbox"]);

/** A policy's text: "directive source source; …", in the declared order. */
export function policyText(policy, { meta = false } = {}) {
  return Object.entries(policy)
    .filter(([directive]) => !(meta && META_EXCLUDED.has(directive)))
    .map(([directive, sources]) => [directive, ...sources].join(" "))
    .join("; ");
}

/** A page's <meta> policy (its header's, less the header-only directives). */
export const metaPolicy = (kind) => policyText(POLICIES[kind], { meta: true });

/**
 * Caching, two ways:
 *   immutable   a file whose name carries a hash of its bytes (assets/) never changes under that
 *               name: a browser keeps it a year and never asks again; a new build gives a new name
 *   revalidate  everything else (the pages, the names course authors copy, the service worker,
 *               the manifest): a browser may keep it but asks each time whether it changed (a
 *               conditional request, answered 304 Not Modified by its ETag while it has not), so a
 *               new build is seen on the next visit
 */
export const CACHING = {
  immutable: "public, max-age=31536000, immutable",
  revalidate: "no-cache",
};

/** Kinds of file, the first whose pattern matches a path wins. */
export const KINDS = [
  { name: "worker", pattern: "(^|/)sw\\.js$", caching: "revalidate", policy: "worker" },
  { name: "hashed", pattern: `(^|/)${ASSETS}/`, caching: "immutable", policy: "file" },
  { name: "embed", pattern: "(^|/)embed\\.html$", caching: "revalidate", policy: "embed" },
  {
    name: "standalone",
    pattern: `(^|/)${STANDALONE.replace(/[.]/g, "\\$&")}$`,
    caching: "revalidate",
    policy: "standalone",
  },
  { name: "page", pattern: "\\.html$", caching: "revalidate", policy: "page" },
  { name: "file", pattern: ".", caching: "revalidate", policy: "file" },
];

/**
 * Media types by the file's last extension (a declaration, llmmath.d.ts, ends in .ts: nginx's and
 * Apache's stock tables call that a video, MPEG transport stream). Text is UTF-8, said in the type.
 * `compress`: the build writes .br and .gz copies beside every such file; the others are
 * compressed already (woff2, png, the package's .tgz).
 */
export const TYPES = {
  html: { type: "text/html", charset: true, compress: true },
  css: { type: "text/css", charset: true, compress: true },
  js: { type: "text/javascript", charset: true, compress: true },
  json: { type: "application/json", compress: true },
  webmanifest: { type: "application/manifest+json", compress: true },
  svg: { type: "image/svg+xml", compress: true },
  ts: { type: "text/plain", charset: true, compress: true },
  md: { type: "text/markdown", charset: true, compress: true },
  conf: { type: "text/plain", charset: true, compress: true },
  txt: { type: "text/plain", charset: true, compress: true },
  // the notebook edition (site/notebook.mjs): JSON, the type Jupyter's own servers give it
  ipynb: { type: "application/x-ipynb+json", compress: true },
  woff2: { type: "font/woff2" },
  png: { type: "image/png" },
  tgz: { type: "application/gzip" },
  // the learning platforms' packages (site/lms.mjs): SCORM zips and the Common Cartridge
  zip: { type: "application/zip" },
  imscc: { type: "application/vnd.ims.imsccv1p3" },
};
/** The type of a file with no extension the table knows: bytes, for download. */
export const DEFAULT_TYPE = "application/octet-stream";

/** Headers every response carries, whatever its kind. */
export const COMMON = {
  // the declared type is the type: no guessing from the bytes
  "X-Content-Type-Options": "nosniff",
  // the edition links nowhere that needs to know where the reader came from
  "Referrer-Policy": "no-referrer",
};

/** A path's extension as TYPES knows it ("llmmath.d.ts" → "ts"), or "". */
const extension = (file) => /\.([a-z0-9]+)$/i.exec(file)?.[1].toLowerCase() ?? "";

/** The kind of a path in the edition ("reader.html", "assets/x.css"). */
export function kindOf(file) {
  return KINDS.find((k) => new RegExp(k.pattern).test(file));
}

/** Whether the build writes .br and .gz copies beside this file. */
export const compressible = (file) => Boolean(TYPES[extension(file)]?.compress);

/** The Content-Type of a path. */
export function contentType(file) {
  const t = TYPES[extension(file)];
  if (!t) return DEFAULT_TYPE;
  return t.charset ? `${t.type}; charset=utf-8` : t.type;
}

/**
 * Every header the declaration gives a path's response (names as declared; HTTP names are
 * case-insensitive), before compression: Content-Encoding is the server's, by the request.
 */
export function headersFor(file) {
  const kind = kindOf(file);
  return {
    "Content-Type": contentType(file),
    "Cache-Control": CACHING[kind.caching],
    "Content-Security-Policy": policyText(POLICIES[kind.policy]),
    ...COMMON,
    ...(compressible(file) ? { Vary: "Accept-Encoding" } : {}),
  };
}

/** The headers a kind sets itself (not the type, which follows the extension, nor Vary). */
function kindHeaders(kind) {
  return {
    "Cache-Control": CACHING[kind.caching],
    "Content-Security-Policy": policyText(POLICIES[kind.policy]),
    ...COMMON,
  };
}

const HEADER_NOTE = `Written by site/build.mjs from site/hosting.mjs; dist/hosting.html explains each line.`;

// --- nginx ------------------------------------------------------------------------------------
/**
 * nginx: the lines to include in the server {} (or a location {}) whose root is the edition's
 * folder; nothing in it names a machine, a path or a port. Each kind is a regex location with all
 * of its headers: nginx's add_header is not inherited by a location that sets any of its own.
 */
export function nginxConf() {
  const q = (s) => `"${s.replace(/["\\]/g, "\\$&")}"`;
  const byType = new Map();
  for (const [ext, t] of Object.entries(TYPES)) byType.set(t.type, [...(byType.get(t.type) ?? []), ext]);
  const charsetTypes = [
    ...new Set(
      Object.values(TYPES)
        .filter((t) => t.charset && t.type !== "text/html")
        .map((t) => t.type),
    ),
  ];
  const headerLines = (headers, indent) =>
    Object.entries(headers)
      .map(([name, value]) => `${indent}add_header ${name} ${q(value)} always;`)
      .join("\n");
  const locations = KINDS.filter((k) => k.name !== "file")
    .map((k) => `# ${k.name}\nlocation ~ ${k.pattern} {\n${headerLines(kindHeaders(k), "    ")}\n}`)
    .join("\n");
  return `# Attention and Transformers, the edition served by nginx. ${HEADER_NOTE}
# Include it where the edition's folder is the root:
#   server { listen 443 ssl; server_name …; root /srv/attention; include /srv/attention/hosting/nginx.conf; }
# brotli_static needs nginx's brotli module (Debian: libnginx-mod-http-brotli-static).

# Types by extension, instead of the stock table (which calls llmmath.d.ts a video).
types {
${[...byType].map(([type, exts]) => `    ${type} ${exts.join(" ")};`).join("\n")}
}
default_type ${DEFAULT_TYPE};
charset utf-8;
charset_types ${charsetTypes.join(" ")};

# The build wrote file.br and file.gz beside each text file: send the one the browser takes.
brotli_static on;
gzip_static on;
gzip_vary on;
index reader.html;

# Files of no kind below (the "file" kind).
${headerLines(kindHeaders(KINDS.find((k) => k.name === "file")), "")}

${locations}
`;
}

// --- Apache -----------------------------------------------------------------------------------
/**
 * Apache (2.4): dist/.htaccess, read where the folder allows it (AllowOverride FileInfo Indexes;
 * modules mime, rewrite, headers). A precompressed copy is chosen by mod_rewrite, and mod_mime
 * types it by its inner extension and encodes it by its outer one (reader.html.br: text/html, br).
 * The kinds are an <If>/<ElseIf> chain, first match wins as in nginx, on the path as served,
 * which after the rewrite ends in .br or .gz.
 */
export function htaccess() {
  const q = (s) => `"${s.replace(/["\\]/g, "\\$&")}"`;
  const compressed = Object.entries(TYPES)
    .filter(([, t]) => t.compress)
    .map(([ext]) => ext);
  const ifs = KINDS.map((k, i) => {
    const test =
      k.name === "file"
        ? "<Else>"
        : `<${i === 0 ? "If" : "ElseIf"} "%{REQUEST_URI} =~ m#${k.pattern.replace(/\$$/, "(\\.br|\\.gz)?$")}#">`;
    const lines = Object.entries(kindHeaders(k))
      .map(([name, value]) => `  Header always set ${name} ${q(value)}`)
      .join("\n");
    return `${test}\n${lines}\n</${test.slice(1).split(/[\s>]/)[0]}>`;
  }).join("\n");
  return `# Attention and Transformers, the edition served by Apache 2.4. ${HEADER_NOTE}
# Apache reads it in the edition's folder where that folder allows it (AllowOverride FileInfo
# Indexes), with the modules mime, rewrite and headers enabled (Debian: a2enmod rewrite headers).

DirectoryIndex reader.html

# Types by extension, the stock table's for these replaced (it calls llmmath.d.ts a video).
${Object.entries(TYPES)
  .map(([ext, t]) => `AddType ${t.type} .${ext}`)
  .join("\n")}
AddCharset utf-8 ${Object.entries(TYPES)
    .filter(([, t]) => t.charset)
    .map(([ext]) => `.${ext}`)
    .join(" ")}
# A file with no extension (the package's LICENSE) has no type in that table, and Apache 2.4 sends
# none: the declaration's default, as nginx's default_type gives it.
<FilesMatch "^[^.]+$">
  ForceType ${DEFAULT_TYPE}
</FilesMatch>

# The build wrote file.br and file.gz beside each text file: send the one the browser takes.
# file.br is typed by its inner extension and sent with Content-Encoding: br (gzip for .gz).
RemoveType .br .gz
AddEncoding br .br
AddEncoding gzip .gz
RewriteEngine On
RewriteCond %{HTTP:Accept-Encoding} \\bbr\\b
RewriteCond %{REQUEST_FILENAME}.br -f
RewriteRule \\.(${compressed.join("|")})$ %{REQUEST_URI}.br [L,E=no-gzip:1,E=no-brotli:1]
RewriteCond %{HTTP:Accept-Encoding} \\bgzip\\b
RewriteCond %{REQUEST_FILENAME}.gz -f
RewriteRule \\.(${compressed.join("|")})$ %{REQUEST_URI}.gz [L,E=no-gzip:1,E=no-brotli:1]
# Which copy is sent depends on Accept-Encoding, for the plain file too.
<FilesMatch "\\.(${compressed.join("|")})(\\.br|\\.gz)?$">
  Header always merge Vary Accept-Encoding
</FilesMatch>

# Each kind's headers.
${ifs}
`;
}

// --- Netlify and Cloudflare Pages -------------------------------------------------------------
/**
 * dist/_headers, as Netlify and Cloudflare Pages read it from the published folder's root: a rule
 * for every path of `files` (the edition's, from the build) but the precompressed copies, and one
 * for the folder of hashed files. Both services join two rules' values of one header into one
 * list, so no header is set by two rules for one path; both compress by themselves and choose
 * the Content-Type by extension.
 */
export function netlifyHeaders(files) {
  const rule = (pathGlob, headers) =>
    `${pathGlob}\n${Object.entries(headers)
      .map(([name, value]) => `  ${name}: ${value}`)
      .join("\n")}`;
  const hashed = KINDS.find((k) => k.name === "hashed");
  const rules = [rule(`/${ASSETS}/*`, kindHeaders(hashed))];
  for (const file of [...files].sort()) {
    if (/\.(br|gz)$/.test(file) || kindOf(file) === hashed) continue;
    rules.push(rule(`/${file}`, kindHeaders(kindOf(file))));
  }
  return `# Attention and Transformers, the edition's headers for Netlify and Cloudflare Pages. ${HEADER_NOTE}
${rules.join("\n")}
`;
}
