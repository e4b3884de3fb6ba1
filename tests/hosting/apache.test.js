// The edition served by Debian's Apache 2.4 with the hosting guide's .htaccess, as the guide prints
// it (dist/hosting.html, the same text as dist/.htaccess), in the served folder of this test's own
// server on 127.0.0.1 (tests/hosting/servers.js: one process, -X; mod_deflate on, as Debian has
// it): the same checks as nginx's.
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
  ({ served, server } = await serveAsTheGuideSays("apache"));
});
test.after(async () => {
  await stopAll();
  if (served) fs.rmSync(served.dir, { recursive: true, force: true });
});

test("the guide shows .htaccess exactly as the build wrote it", () => {
  assert.equal(guideConfig(".htaccess"), fs.readFileSync(path.join(dist, ".htaccess"), "utf8"));
});

test("Apache sends every file with its declared headers, and its .br or .gz by Accept-Encoding, byte for byte", async () => {
  const n = await everyFile(server.origin, served.root);
  assert.ok(n > 25, `${n} files`);
});

test("Apache: pages are revalidated (304 by ETag), hashed files kept a year", () => revalidation(server.origin));

test("Apache: the folder's address is the chapter", () => index(server.origin, served.root));

test("Apache: the chapter in Chromium is ready, every figure drawn, with no policy violation and no error", () =>
  readerInChromium(browser.context, server.origin));

test("Apache: embed.html framed by a page of another origin draws its figure and takes its height; the chapter refuses that frame", () =>
  framedEmbed(browser.context, server.origin, artifact("hosting-apache-framed.png")));
