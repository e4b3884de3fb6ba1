// The learning platforms' packages (site/lms.mjs), as a platform takes them:
// each zip is read (its own reader below, node:zlib), its imsmanifest.xml parsed by the browser's
// XML parser and held to the rules of the specifications that can be checked offline, and the
// chapter's packages are launched from their manifests in a page that plays the platform, with a
// real SCORM run-time: scorm-again's Scorm12API (window.API) or Scorm2004API (window.API_1484_11).
// A prediction committed in the frame reaches the run-time (status, score, suspend data), the
// session ends when the frame is left, and a relaunch with the saved data shows the exercise
// committed; a relaunch with every exercise committed reports completion. A figure's package is
// completed once launched, but Figure 9.1's, which reports its score and keeps it across visits.
// Nothing is fetched beyond the platform's own server.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const { useBrowser, dist, serve, artifact } = require("./browser.js");
const { core } = require("./exercise-list.js");

const browser = useBrowser(test);
const LMS = path.join(dist, "lms");
const CHAPTER = "attention-and-transformers";
const EDITIONS = {
  1.2: {
    file: `${CHAPTER}-scorm12.zip`,
    schemaversion: "1.2",
    namespace: "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    adlcp: "http://www.adlnet.org/xsd/adlcp_rootv1p2",
    scoAttribute: "scormtype",
    api: "API",
    runtime: "Scorm12API",
  },
  2004: {
    file: `${CHAPTER}-scorm2004.zip`,
    schemaversion: "2004 4th Edition",
    namespace: "http://www.imsglobal.org/xsd/imscp_v1p1",
    adlcp: "http://www.adlnet.org/xsd/adlcp_v1p3",
    scoAttribute: "scormType",
    api: "API_1484_11",
    runtime: "Scorm2004API",
  },
};
const EXERCISES = ["1", "2", "3", "4", "4b", "5", "6", "7", "8"];

/**
 * The files of a zip, name → Buffer: read from its central directory, each entry's data from its
 * local header, inflated when deflated, and its CRC-32 checked.
 */
function unzip(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, "the zip has an end of central directory");
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const files = new Map();
  for (let i = 0; i < count; i += 1) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, "a central directory entry");
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    const packed = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extra = buffer.readUInt16LE(at + 30);
    const comment = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extra + comment;
    assert.equal(buffer.readUInt32LE(local), 0x04034b50, `${name}: a local header`);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(start, start + packed);
    assert.ok(method === 0 || method === 8, `${name}: stored or deflated, not method ${method}`);
    const data = method === 8 ? zlib.inflateRawSync(raw) : raw;
    assert.equal(data.length, size, `${name}: its size`);
    assert.equal(zlib.crc32(data), crc, `${name}: its CRC-32`);
    assert.ok(!files.has(name), `${name}: once in the zip`);
    files.set(name, data);
  }
  return files;
}

/**
 * The manifest as the browser's XML parser reads it (in a blank page): its root's namespace, the
 * schema and version, the organizations and their items, the resources with their files, every
 * identifier. `adlcp` and `scoAttribute` name the SCO attribute of the edition (null: a cartridge).
 */
async function readManifest(page, text, { adlcp = null, scoAttribute = null } = {}) {
  return page.evaluate(
    ([text, adlcp, scoAttribute]) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      const error = doc.querySelector("parsererror");
      if (error) return { error: error.textContent };
      const root = doc.documentElement;
      const ns = root.namespaceURI;
      const kids = (el, name) => [...el.children].filter((c) => c.localName === name && c.namespaceURI === ns);
      const one = (el, name) => kids(el, name)[0] ?? null;
      const metadata = one(root, "metadata");
      const organizations = one(root, "organizations");
      const items = (el) => kids(el, "item").flatMap((item) => [item, ...items(item)]);
      return {
        root: root.localName,
        namespace: ns,
        schema: one(metadata, "schema")?.textContent,
        schemaversion: one(metadata, "schemaversion")?.textContent,
        defaultOrganization: organizations.getAttribute("default"),
        organizations: kids(organizations, "organization").map((o) => ({
          identifier: o.getAttribute("identifier"),
          title: one(o, "title")?.textContent ?? null,
          items: items(o).map((i) => ({
            identifier: i.getAttribute("identifier"),
            identifierref: i.getAttribute("identifierref"),
            parameters: i.getAttribute("parameters"),
            title: one(i, "title")?.textContent ?? null,
          })),
        })),
        resources: kids(one(root, "resources"), "resource").map((r) => ({
          identifier: r.getAttribute("identifier"),
          type: r.getAttribute("type"),
          href: r.getAttribute("href"),
          sco: adlcp ? r.getAttributeNS(adlcp, scoAttribute) : null,
          files: kids(r, "file").map((f) => f.getAttribute("href")),
        })),
        identifiers: [...doc.querySelectorAll("[identifier]")].map((el) => el.getAttribute("identifier")),
      };
    },
    [text, adlcp, scoAttribute],
  );
}

/**
 * The rules of a package's manifest that can be checked offline: one organization, the default,
 * whose items each reference a resource; every identifier unique; every file a resource lists in
 * the zip, and every file of the zip listed; each resource's href among its files. Returns the
 * resource of the first item with one (the launch).
 */
function checkStructure(label, m, files) {
  assert.equal(m.error, undefined, `${label}: the manifest is well-formed XML`);
  assert.equal(m.root, "manifest", label);
  assert.equal(m.organizations.length, 1, `${label}: one organization`);
  const [org] = m.organizations;
  assert.equal(m.defaultOrganization ?? org.identifier, org.identifier, `${label}: the default is that organization`);
  assert.ok(org.title || org.items.length, `${label}: the organization has a title or items`);
  const byId = new Map(m.resources.map((r) => [r.identifier, r]));
  const referencing = org.items.filter((i) => i.identifierref);
  assert.ok(referencing.length >= 1, `${label}: items reference resources`);
  for (const item of referencing) {
    assert.ok(byId.has(item.identifierref), `${label}: item ${item.identifier} references a resource of the manifest`);
    assert.ok(item.title, `${label}: item ${item.identifier} has a title`);
  }
  assert.equal(new Set(m.identifiers).size, m.identifiers.length, `${label}: identifiers unique`);
  const listed = new Set(m.resources.flatMap((r) => r.files));
  for (const f of listed) assert.ok(files.has(f), `${label}: ${f}, listed, is in the zip`);
  for (const f of files.keys())
    if (f !== "imsmanifest.xml") assert.ok(listed.has(f), `${label}: ${f}, in the zip, is listed`);
  for (const r of m.resources)
    assert.ok(r.files.includes(r.href), `${label}: ${r.href}, a launch, is one of its files`);
  const launch = byId.get(referencing[0].identifierref);
  return { launch, item: referencing[0] };
}

/** A SCORM package's manifest: the structure, then the edition's schema version and its SCO. */
async function checkScorm(page, label, files, edition) {
  const e = EDITIONS[edition];
  assert.ok(files.has("imsmanifest.xml"), `${label}: imsmanifest.xml at the root`);
  const m = await readManifest(page, files.get("imsmanifest.xml").toString("utf8"), e);
  const found = checkStructure(label, m, files);
  assert.equal(m.namespace, e.namespace, `${label}: the content packaging namespace of SCORM ${edition}`);
  assert.equal(m.schema, "ADL SCORM", label);
  assert.equal(m.schemaversion, e.schemaversion, label);
  assert.equal(found.launch.sco, "sco", `${label}: the launch resource is a SCO (adlcp:${e.scoAttribute})`);
  assert.equal(found.launch.type, "webcontent", label);
  return found;
}

// --- the platform's page ------------------------------------------------------------------------
// It loads scorm-again's run-time (its dist file, as a platform would ship it), and the test
// launches a package's SCO in its frame by launch(href, edition, saved): a fresh run-time on the
// window the SCO looks up, given the cmi data saved at the last visit (suspend data), as a
// platform gives it back on a relaunch. It records whether the SCO ended its session, and what it
// wrote.
// (The package's main entry is dist/scorm-again.js; its exports do not name the minified file beside it.)
const runtimeFile = path.join(path.dirname(require.resolve("scorm-again")), "scorm-again.min.js");
const platformPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Course · Attention and Transformers</title>
<style>
  body { margin: 0; font: 15px system-ui, sans-serif; background: #eef0f3; }
  .bar { background: #2d3b55; color: #fff; padding: 10px 16px; }
  .status { padding: 6px 16px; font-size: 13px; color: #333; }
  iframe { display: block; width: calc(100% - 32px); height: 720px; margin: 0 16px; border: 1px solid #b8bec8; background: #fff; }
</style>
<script src="/scorm-again.min.js"></script>
</head>
<body>
<div class="bar">Introduction to language models · Week 5 · SCORM package</div>
<p class="status" id="status">No SCO launched.</p>
<iframe id="sco" title="The package"></iframe>
<script>
  window.launch = (href, edition, saved) => {
    const names = { "1.2": ["API", "Scorm12API", "LMSFinish"], 2004: ["API_1484_11", "Scorm2004API", "Terminate"] }[edition];
    const api = new window[names[1]]({ autocommit: false, logLevel: 5 });
    if (saved) api.loadFromJSON(saved, "");
    window.finished = false;
    // What the SCO wrote, by element: a run-time refuses to read back a write-only one (exit).
    window.written = {};
    const setName = edition === "2004" ? "SetValue" : "LMSSetValue";
    const set = api[setName].bind(api);
    api[setName] = (element, value) => {
      window.written[element] = value;
      const done = set(element, value);
      const c = edition === "2004" ? api.cmi : api.cmi.core;
      const status = edition === "2004" ? c.completion_status : c.lesson_status;
      document.getElementById("status").textContent =
        "SCORM " + edition + " · " + href + " · status " + status + " · score " + (c.score.raw || "–") +
        " of 100 · suspend data " + api.cmi.suspend_data.length + " characters";
      return done;
    };
    const finish = api[names[2]].bind(api);
    api[names[2]] = (arg) => {
      window.finished = true;
      return finish(arg);
    };
    delete window.API;
    delete window.API_1484_11;
    window[names[0]] = api;
    document.getElementById("status").textContent = "SCORM " + edition + " run-time, launched: " + href;
    document.getElementById("sco").src = href;
  };
  window.leave = () => {
    document.getElementById("sco").src = "about:blank";
  };
</script>
</body>
</html>
`;

let server;
/** The packages' files, by the path they are served under: /<package>/<file>. */
const served = new Map();
test.before(async () => {
  server = await serve({
    files: (pathname) => (pathname === "/scorm-again.min.js" ? runtimeFile : null),
    body: (pathname) => (pathname === "/platform.html" ? platformPage : (served.get(pathname) ?? null)),
  });
});
test.after(() => server?.close());

/** The platform's page with a package's files served beside it, under /<name>/. */
async function openPlatform(name, files) {
  for (const [f, data] of files) served.set(`/${name}/${f}`, data);
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1200, height: 860 });
  const errors = [];
  // Every request, the frame's too: none may leave the platform's server.
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(`${server.origin}/`) && !/^(about|data|blob):/.test(url)) errors.push(`request: ${url}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  await page.goto(`${server.origin}/platform.html`);
  return { page, errors };
}

/** Launches the SCO and resolves to its frame once the chapter has told its progress. */
async function launch(page, href, edition, saved = null) {
  await page.evaluate(([href, edition, saved]) => window.launch(href, edition, saved), [href, edition, saved]);
  const frame = await (await page.$("#sco")).contentFrame();
  await frame.waitForURL((u) => u.href.endsWith(href));
  await frame.waitForSelector("html[data-progress]", { state: "attached" });
  return frame;
}

/** The run-time's cmi values now, read on the platform's side. */
const cmi = (page, edition) =>
  page.evaluate((edition) => {
    const api = edition === "2004" ? window.API_1484_11 : window.API;
    const c = api.cmi;
    return edition === "2004"
      ? {
          status: c.completion_status,
          success: c.success_status,
          scaled: c.score.scaled,
          raw: c.score.raw,
          min: c.score.min,
          max: c.score.max,
          suspend: c.suspend_data,
          exit: window.written["cmi.exit"],
        }
      : {
          status: c.core.lesson_status,
          raw: c.core.score.raw,
          min: c.core.score.min,
          max: c.core.score.max,
          suspend: c.suspend_data,
          exit: window.written["cmi.core.exit"],
        };
  }, edition);

/** Types the core's numbers for exercise 1 into the frame: its first, then its follow-up. */
async function commitExerciseOne(frame) {
  const exercise = frame.locator('#attention .exercise:has([for="attention-figure"])');
  await exercise.scrollIntoViewIfNeeded();
  await frame.waitForSelector("#attention-figure[data-ready]");
  const state = (fn) => core(frame, "attention-figure", fn);
  const weight = await state((m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).weights[0][0]);
  const output = await state((m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).output[0][0]);
  const first = exercise.locator(".predict-step").nth(0);
  await first.locator(".predict-input").fill(String(weight));
  await first.locator(".predict-input").press("Enter");
  await first.locator(".predict-right").waitFor();
  const second = exercise.locator(".follow-up-step .predict-step");
  await second.locator(".predict-input").fill(String(output));
  await second.locator(".predict-input").press("Enter");
  await second.locator(".predict-right").waitFor();
}

for (const edition of ["1.2", "2004"]) {
  test(`the chapter's SCORM ${edition} package: a valid manifest, launched, reports a committed exercise, ends its session, and restores it`, async () => {
    const e = EDITIONS[edition];
    const files = unzip(fs.readFileSync(path.join(LMS, e.file)));
    const name = `chapter-${e.file.replace(/\W/g, "")}`;
    const { page, errors } = await openPlatform(name, files);
    const { launch: resource, item } = await checkScorm(page, e.file, files, edition);
    assert.equal(item.parameters, null, "the chapter needs no launch parameters");
    const href = `/${name}/${resource.href}`;

    // First visit: the run-time is told the SCO is under way, before any exercise.
    let frame = await launch(page, href, edition);
    await page.waitForFunction((api) => window[api].cmi.suspend_data !== "", e.api);
    let now = await cmi(page, edition);
    assert.equal(now.status, "incomplete");
    assert.equal(now.exit, "suspend", "the platform is asked to keep the suspend data");
    assert.equal(Number(now.raw), 0);
    assert.deepEqual([now.min, now.max], ["0", "100"]);

    await commitExerciseOne(frame);
    await page.waitForFunction((api) => window[api].cmi.suspend_data.includes('"1":'), e.api);
    now = await cmi(page, edition);
    const saved = JSON.parse(now.suspend);
    assert.deepEqual(saved.exercises, { 1: { committed: true, right: true, tries: 2 } });
    // One exercise right of nine and Figure 9.1's 45 steps: 1/54 of the score, as a percentage.
    assert.equal(Number(now.raw), Math.round((1000 * 1) / 54) / 10);
    if (edition === "2004") {
      assert.ok(Math.abs(Number(now.scaled) - 1 / 54) <= 1e-4, `scaled ${now.scaled}`);
      assert.equal(now.success, "unknown", "not every exercise is right yet");
    }
    assert.equal(now.status, "incomplete");
    await page.screenshot({ path: artifact(`scorm-${e.file.replace(/\.zip$/, "")}.png`) });

    // Leaving the SCO ends its session (pagehide).
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => window.finished === true);

    // The relaunch, with what the platform kept: exercise 1 shows its answer, committed before.
    frame = await launch(page, href, edition, { suspend_data: now.suspend });
    const one = frame.locator('#attention .exercise:has([for="attention-figure"])');
    assert.equal(await one.locator("details").getAttribute("open"), "", "the committed exercise shows its answer");
    assert.match(
      await one.locator(".predict-feedback").first().textContent(),
      /^On an earlier visit you predicted this right/,
    );
    await one.locator(".predict-feedback").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact(`scorm-${e.file.replace(/\.zip$/, "")}-relaunched.png`) });
    const progress = await frame.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
    assert.deepEqual(progress.exercises["1"], { committed: true, right: true, tries: 2 });
    now = await cmi(page, edition);
    assert.deepEqual(JSON.parse(now.suspend).exercises, saved.exercises, "the suspend data is kept");
    assert.equal(Number(now.raw), Math.round((1000 * 1) / 54) / 10);
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => window.finished === true);

    // A visit that has every exercise committed, right: completed (and in 2004, passed).
    const all = {
      version: 1,
      exercises: Object.fromEntries(EXERCISES.map((n) => [n, { committed: true, right: true, tries: 1 }])),
    };
    frame = await launch(page, href, edition, { suspend_data: JSON.stringify(all) });
    assert.equal(await frame.locator(".exercise details.answer[open]").count(), 9, "every exercise shows its answer");
    await page.waitForFunction(
      ([api, edition]) =>
        (edition === "2004" ? window[api].cmi.completion_status : window[api].cmi.core.lesson_status) === "completed",
      [e.api, edition],
    );
    now = await cmi(page, edition);
    assert.equal(Number(now.raw), Math.round((1000 * 9) / 54) / 10);
    if (edition === "2004") assert.equal(now.success, "passed");
    assert.ok(now.suspend.length <= (edition === "2004" ? 64000 : 4096), "the suspend data fits the edition's limit");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("each figure's SCORM packages: valid manifests, launched with the figure's parameters, completed once shown; Figure 9.1's reports its score and keeps it", async () => {
  const { page, errors } = await openPlatform("none", []);
  const figures = fs.readdirSync(path.join(LMS, "figures")).sort();
  // Eleven figures, one package per edition each.
  assert.equal(figures.length, 22, figures.join(", "));
  for (const file of figures) {
    const edition = file.endsWith("-scorm12.zip") ? "1.2" : "2004";
    const files = unzip(fs.readFileSync(path.join(LMS, "figures", file)));
    const { launch: resource, item } = await checkScorm(page, file, files, edition);
    const name = file.replace(/-scorm(12|2004)\.zip$/, "");
    assert.equal(item.parameters, `?widget=${name}`, file);
    // Completed once shown, but Figure 9.1, which keeps a score.
    assert.equal(
      /<script src="scorm\.js"[^>]* data-complete="view"/.test(files.get("embed.html").toString("utf8")),
      name !== "diagnose",
      `${file}: completed once shown`,
    );
    if (name === "diagnose") {
      await diagnosePackage(page, file, files, resource, item, edition);
      continue;
    }
    if (name !== "sampling") continue;
    // One figure launched in each edition: the LMS appends the item's parameters to the href.
    for (const [f, data] of files) served.set(`/${file}/${f}`, data);
    const href = `/${file}/${resource.href}${item.parameters}`;
    const frame = await launch(page, href, edition);
    await frame.waitForSelector("#sampling-figure[data-ready]");
    const api = EDITIONS[edition].api;
    await page.waitForFunction(
      ([api, edition]) =>
        (edition === "2004" ? window[api].cmi.completion_status : window[api].cmi.core.lesson_status) === "completed",
      [api, edition],
    );
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => window.finished === true);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Figure 9.1's package, launched: incomplete, then a step answered in the frame reaches the
 * run-time as its score (of its 45 steps) and suspend data (its choices), and a relaunch with that
 * suspend data shows the step answered.
 */
async function diagnosePackage(page, file, files, resource, item, edition) {
  for (const [f, data] of files) served.set(`/${file}/${f}`, data);
  const href = `/${file}/${resource.href}${item.parameters}`;
  const api = EDITIONS[edition].api;
  let frame = await launch(page, href, edition);
  await frame.waitForSelector("#diagnose-figure[data-ready]");
  await page.waitForFunction((api) => window[api].cmi.suspend_data !== "", api);
  let now = await cmi(page, edition);
  assert.equal(now.status, "incomplete", `${file}: launched`);
  await frame.evaluate(() => document.getElementById("diagnose-figure").setAttribute("picks", "memory"));
  // The suspend data keeps the figure's choices (its settings); the score is the figure's own.
  await page.waitForFunction(
    (api) => JSON.parse(window[api].cmi.suspend_data).diagnosis?.settings === "picks=memory",
    api,
  );
  const told = await frame.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.deepEqual([told.diagnosis.answered, told.diagnosis.total], [1, 45], file);
  now = await cmi(page, edition);
  assert.equal(Number(now.raw), Math.round((1000 * told.diagnosis.right) / 45) / 10, `${file}: the score, of 45 steps`);
  assert.equal(now.status, "incomplete", `${file}: 44 steps to go`);
  await page.evaluate(() => window.leave());
  await page.waitForFunction(() => window.finished === true);
  frame = await launch(page, href, edition, { suspend_data: now.suspend });
  await frame.waitForSelector("#diagnose-figure[data-ready]");
  const back = await frame.evaluate(() => JSON.parse(document.documentElement.dataset.progress));
  assert.equal(back.diagnosis.answered, 1, `${file}: relaunched, the step is kept`);
  assert.equal(back.diagnosis.right, told.diagnosis.right, file);
  await page.evaluate(() => window.leave());
  await page.waitForFunction(() => window.finished === true);
}

test("the Common Cartridge: a valid 1.3 manifest of web content, the chapter and every figure, each of which opens", async () => {
  const files = unzip(fs.readFileSync(path.join(LMS, `${CHAPTER}.imscc`)));
  const { page, errors } = await openPlatform("cartridge", files);
  const m = await readManifest(page, files.get("imsmanifest.xml").toString("utf8"));
  checkStructure("imscc", m, files);
  assert.equal(m.namespace, "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1");
  assert.equal(m.schema, "IMS Common Cartridge");
  assert.equal(m.schemaversion, "1.3.0");
  assert.equal(m.resources.length, 12, "the chapter and eleven figures");
  for (const r of m.resources) {
    assert.equal(r.type, "webcontent", r.identifier);
    assert.ok(r.href.startsWith("web_resources/"), r.href);
  }
  // The chapter opens as the one-file edition; a figure's page opens the figure.
  const chapter = await browser.context.newPage();
  await chapter.goto(`${server.origin}/cartridge/${m.resources[0].href}`);
  await chapter.waitForSelector("html[data-progress]", { state: "attached" });
  const figure = m.resources.find((r) => r.href.endsWith("/moe.html"));
  await chapter.goto(`${server.origin}/cartridge/${figure.href}`);
  await chapter.waitForSelector("#moe-figure[data-ready]");
  await chapter.close();
  assert.deepEqual(errors, []);
  await page.close();
});
