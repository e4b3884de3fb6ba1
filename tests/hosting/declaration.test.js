// The built edition against the one declaration of how it is served (site/hosting.mjs), with no
// server: the configurations in dist/ are what the declaration makes now, the hosting guide shows
// them as they are, each page's <meta> policy is its kind's, every compressible file has the
// build's .br and .gz beside it (and nothing else has), the offline copy's sw.js names exactly the
// chapter's files with a version that is their hash, and the manifest parses and names files the
// edition has.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const { dist } = require("../browser/browser.js");
const { declaration, publish, guideConfig } = require("./servers.js");

const read = (file) => fs.readFileSync(path.join(dist, file), "utf8");

test("nginx.conf, .htaccess and _headers in dist/ are the declaration's, and the hosting guide shows each as it is", async () => {
  const { nginxConf, htaccess, netlifyHeaders } = await declaration();
  const { servedFiles } = await publish();
  const files = await servedFiles(dist);
  const made = { "hosting/nginx.conf": nginxConf(), ".htaccess": htaccess(), _headers: netlifyHeaders(files) };
  for (const [file, text] of Object.entries(made)) {
    assert.equal(read(file), text, `dist/${file} is stale: run the build`);
    assert.equal(guideConfig(file), text, `hosting.html shows dist/${file}`);
  }
  // every served file but the hashed ones (one rule for their folder) has its own rule in _headers
  for (const f of files.filter((f) => !f.startsWith("assets/")))
    assert.ok(made._headers.includes(`\n/${f}\n`), `_headers: /${f}`);
});

test("each page's <meta> policy is its kind's, with nothing only a header can carry", async () => {
  const { kindOf, metaPolicy, policyText, POLICIES } = await declaration();
  const meta = (html) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  for (const page of ["reader.html", "embed.html", "embed-guide.html", "hosting.html"]) {
    const kind = kindOf(page).policy;
    assert.equal(meta(read(page)), metaPolicy(kind), page);
    assert.doesNotMatch(meta(read(page)), /frame-ancestors/, page);
    assert.equal(metaPolicy(kind), policyText(POLICIES[kind]).replace(/; frame-ancestors [^;]*/, ""), page);
  }
  assert.equal(kindOf("embed.html").policy, "embed");
  assert.equal(kindOf("reader.html").policy, "page");
  // the one-file edition's policy is its own (the hashes of its inline blocks); the header adds frame-ancestors alone
  assert.match(meta(read("reader-standalone.html")), /script-src 'sha256-/);
  assert.deepEqual(Object.keys(POLICIES.standalone), ["frame-ancestors"]);
  assert.equal(kindOf("reader-standalone.html").policy, "standalone");
});

test("every compressible file has the build's .br and .gz beside it, which decompress to it; no other file has one", async () => {
  const { compressible } = await declaration();
  const { filesOf, compressed } = await publish();
  const all = await filesOf(dist);
  const have = new Set(all);
  let n = 0;
  for (const f of all) {
    if (/\.(br|gz)$/.test(f)) {
      const source = f.slice(0, -3);
      assert.ok(have.has(source) && compressible(source), `${f}: a copy of no compressible file`);
      continue;
    }
    if (!compressible(f)) continue;
    const bytes = fs.readFileSync(path.join(dist, f));
    const br = fs.readFileSync(path.join(dist, `${f}.br`));
    const gz = fs.readFileSync(path.join(dist, `${f}.gz`));
    assert.ok(zlib.brotliDecompressSync(br).equals(bytes), `${f}.br is ${f}`);
    assert.ok(zlib.gunzipSync(gz).equals(bytes), `${f}.gz is ${f}`);
    // the same bytes as the build makes them (deterministic, so a copy can be checked)
    const again = compressed(bytes);
    assert.ok(again.br.equals(br) && again.gz.equals(gz), `${f}: the copies are the build's`);
    assert.ok(br.length < bytes.length || bytes.length < 200, `${f}.br is smaller`);
    n += 1;
  }
  assert.ok(n > 20, `${n} compressible files`);
  for (const f of ["reader.html", "llmmath-widgets.js", "sw.js", "manifest.webmanifest", "llmmath.d.ts"])
    assert.ok(compressible(f), f);
  for (const f of all.filter((f) => /\.(woff2|png|tgz)$/.test(f))) assert.ok(!compressible(f), f);
});

test("sw.js keeps exactly the chapter's files, under a version that is their hash; reader.html states their number and size", async () => {
  const { offlineFiles } = await publish();
  const files = await offlineFiles(dist);
  const sw = read("sw.js");
  const listed = JSON.parse(/^const FILES = (.*);$/m.exec(sw)[1]);
  assert.deepEqual(listed, files);
  assert.equal(files[0], "reader.html");
  // the page, what it loads (style sheet, font, scripts), the manifest and its icons; nothing else
  const kinds = files.map((f) => f.replace(/\.[0-9a-f]{10}\./, ".*."));
  assert.deepEqual(kinds.sort(), [
    "assets/chapter-math.*.woff2",
    "assets/icon-192.*.png",
    "assets/icon-512.*.png",
    "assets/icon.*.svg",
    "assets/llmmath-widgets.*.js",
    "assets/reader-head.*.js",
    "assets/reader.*.css",
    "assets/reader.*.js",
    "manifest.webmanifest",
    "reader.html",
  ]);
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  for (const f of files) {
    const data = fs.readFileSync(path.join(dist, f));
    hash.update(`${f}\0`);
    hash.update(data);
    bytes += data.length;
  }
  assert.equal(/^const VERSION = "([0-9a-f]{16})";$/m.exec(sw)?.[1], hash.digest("hex").slice(0, 16));
  const box = /<div class="offline" id="offline" data-files="(\d+)" data-size="([^"]+)">/.exec(read("reader.html"));
  assert.equal(Number(box[1]), files.length);
  assert.equal(box[2], `${(bytes / 1e6).toFixed(1)} MB`);
  assert.match(
    read("reader.html"),
    new RegExp(
      `<p id="offline-status" role="status">Keeps the chapter, ${files.length} files \\(${box[2].replace(".", "\\.")}\\)`,
    ),
  );
  // the one-file edition has no control to keep it (its script has the code, which finds none)
  assert.doesNotMatch(read("reader-standalone.html"), /id="offline"|<link rel="manifest"/);
});

test("the manifest parses, opens the chapter, and names icons the edition has", () => {
  const manifest = JSON.parse(read("manifest.webmanifest"));
  assert.equal(manifest.start_url, "reader.html");
  assert.equal(manifest.display, "standalone");
  assert.ok(manifest.name && manifest.short_name && manifest.background_color && manifest.theme_color);
  const sizes = manifest.icons.map((i) => `${i.sizes} ${i.type} ${i.purpose}`);
  assert.deepEqual(sizes, [
    "any image/svg+xml any",
    "192x192 image/png any",
    "192x192 image/png maskable",
    "512x512 image/png any",
    "512x512 image/png maskable",
  ]);
  for (const icon of manifest.icons) {
    const bytes = fs.readFileSync(path.join(dist, icon.src));
    if (icon.type === "image/png") {
      // a PNG of the size it says: its IHDR's width and height
      assert.equal(bytes.subarray(1, 4).toString("latin1"), "PNG");
      const px = Number(icon.sizes.split("x")[0]);
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [px, px], icon.src);
    } else
      assert.match(bytes.toString("utf8"), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 100 100">/);
  }
});
