// The edition served by Debian's nginx with the hosting guide's configuration, as the guide prints
// it (dist/hosting.html, the same text as dist/hosting/nginx.conf), included in a server block of
// this test's own on 127.0.0.1 (tests/hosting/servers.js): every file with its declared headers and
// its precompressed copies, revalidation by ETag, the folder's address, the chapter in Chromium
// with no policy violation, and a figure in embed.html framed by another origin.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { useBrowser, artifact, dist } = require("../browser/browser.js");
const { guideConfig, serveAsTheGuideSays, stopAll } = require("./servers.js");
const { everyFile, revalidation, index, readerInChromium, framedEmbed } = require("./checks.js");

const browser = useBrowser(test);
let server;
let served;

test.before(async () => {
  ({ served, server } = await serveAsTheGuideSays("nginx"));
});
test.after(async () => {
  await stopAll();
  if (served) fs.rmSync(served.dir, { recursive: true, force: true });
});

test("the guide shows nginx.conf exactly as the build wrote it", () => {
  assert.equal(guideConfig("hosting/nginx.conf"), fs.readFileSync(path.join(dist, "hosting", "nginx.conf"), "utf8"));
});

test("nginx sends every file with its declared headers, and its .br or .gz by Accept-Encoding, byte for byte", async () => {
  const n = await everyFile(server.origin, served.root);
  assert.ok(n > 25, `${n} files`);
});

test("nginx: pages are revalidated (304 by ETag), hashed files kept a year", () => revalidation(server.origin));

test("nginx: the folder's address is the chapter", () => index(server.origin, served.root));

test("nginx: the chapter in Chromium is ready, every figure drawn, with no policy violation and no error", () =>
  readerInChromium(browser.context, server.origin));

test("nginx: embed.html framed by a page of another origin draws its figure and takes its height; the chapter refuses that frame", () =>
  framedEmbed(browser.context, server.origin, artifact("hosting-nginx-framed.png")));
