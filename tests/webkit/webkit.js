// Drives WebKitGTK (the engine of Safari and of every iPhone browser) through Debian's
// WebKitWebDriver, over classic WebDriver HTTP from Node's fetch: a small client of our own, no
// npm dependency. Each test file starts what it needs and stops it: an X server of its own (Xvfb,
// MiniBrowser has no headless mode), the driver on a free 127.0.0.1 port, one MiniBrowser session,
// and a server of dist/ on 127.0.0.1.
//
// Page errors. WebKitWebDriver 2.50 speaks classic WebDriver only: a session asking for
// webSocketUrl (WebDriver BiDi) is refused ("Failed to match capabilities"), and classic WebDriver
// has no log of a page's errors. So the pages are served from 127.0.0.1 by a server that puts one
// script of this file's before anything else in every page, right after its <meta charset>: it
// records uncaught errors, unhandled rejections, refusals by the page's Content-Security-Policy,
// elements that failed to load and console.error calls, from before the page's first script on,
// and the tests read that record. It comes before the page's meta policy, so it runs under none
// (the one-file edition allows only its own inline scripts, by hash) and changes nothing the
// policy then allows or refuses. Served, not opened from disk: WebKit gives a page from file:// an
// opaque origin, so every error of its scripts reaches the page as "Script error." with no more,
// which cannot tell a thrown exception from WebKit's notice that a ResizeObserver loop left
// notifications for the next frame (see pageErrors). openFile() opens dist/ from disk for the
// tests of the edition as a reader keeps it, which need no record of errors.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const zlib = require("node:zlib");
const { serve, freePort } = require("../browser/browser.js");
const { drawEveryFigure, figuresOnPage, assertEveryFigureDrawn } = require("../browser/in-page.js");

// LLMMATH_DIST: another built copy of dist/ (a helper building in parallel); default dist/.
const dist = path.resolve(process.env.LLMMATH_DIST || path.join(__dirname, "..", "..", "dist"));
const artifacts = path.resolve(__dirname, "..", "..", "build", "test-artifacts");

const DRIVER = process.env.WEBKIT_DRIVER_PATH || "/usr/bin/WebKitWebDriver";
const MINIBROWSER = process.env.MINIBROWSER_PATH || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const XVFB = process.env.XVFB_PATH || "/usr/bin/Xvfb";

// The script every served page loads first (see above), and where it keeps what it saw.
const WATCH_FILE = "llmmath-webkit-watch.js";
const WATCH = `"use strict";
(() => {
  const seen = [];
  Object.defineProperty(window, "__pageErrors", { value: seen });
  const text = (x) => (x instanceof Error ? \`\${x.name}: \${x.message}\` : String(x));
  addEventListener(
    "error",
    (e) => {
      if (e instanceof ErrorEvent) seen.push(\`uncaught: \${e.message} (\${e.filename}:\${e.lineno})\`);
      else if (e.target instanceof Element) seen.push(\`not loaded: <\${e.target.localName}> \${e.target.src || e.target.href || ""}\`);
    },
    true,
  );
  addEventListener("unhandledrejection", (e) => seen.push(\`unhandled rejection: \${text(e.reason)}\`));
  addEventListener(
    "securitypolicyviolation",
    (e) => seen.push(\`refused by the policy's \${e.effectiveDirective}: \${e.blockedURI || "inline"}\`),
    true,
  );
  const error = console.error;
  console.error = function (...args) {
    seen.push(\`console: \${args.map(text).join(" ")}\`);
    return error.apply(this, args);
  };
})();
`;

/** Waits for `child` to exit, or kills it after `ms`. */
function stop(child, ms = 3000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts an X server of its own on a free display (Xvfb chooses it: -displayfd). Its screen is
 * tall: each file the browser saves adds a row to its downloads bar, which the window grows by
 * to keep the page's viewport (open()).
 */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const child = spawn(XVFB, ["-displayfd", "3", "-screen", "0", "1600x2400x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    let said = "";
    let log = "";
    child.stderr.on("data", (d) => (log += d));
    child.stdio[3].on("data", (d) => {
      said += d;
      if (said.includes("\n")) resolve({ child, display: `:${said.trim()}` });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`Xvfb exited (${code}) before it had a display: ${log}`)));
  });
}

/** Polls `check` every `every` ms until it gives a truthy value or `ms` pass. */
async function until(check, { ms = 10000, every = 100, what = "a condition" } = {}) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end)
      throw new Error(`gave up waiting for ${what} after ${ms} ms${last ? `: ${last.message}` : ""}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

// How WebDriver writes an element in JSON (the W3C spec's identifier).
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** The keys WebDriver names by code points of the Private Use Area (the spec's table). */
const KEYS = Object.freeze({
  ArrowLeft: "\uE012",
  ArrowUp: "\uE013",
  ArrowRight: "\uE014",
  ArrowDown: "\uE015",
});

/** One WebDriver session: the commands these tests use, each one HTTP request. */
class Session {
  constructor(origin, id) {
    this.base = `${origin}/session/${id}`;
  }

  async command(method, route, body) {
    const res = await fetch(this.base + route, {
      method,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = await res.json();
    if (!res.ok) throw new Error(`WebDriver ${method} ${route}: ${value?.error}: ${value?.message}`);
    return value;
  }

  navigate(url) {
    return this.command("POST", "/url", { url });
  }

  url() {
    return this.command("GET", "/url");
  }

  /** Runs `fn(...args)` in the page and returns its value (elements as references). */
  execute(fn, ...args) {
    return this.command("POST", "/execute/sync", { script: `return (${fn}).apply(null, arguments);`, args });
  }

  /**
   * Runs `fn(...args)` in the page and waits for the promise it returns (the async command's
   * callback): its value, or an Error with the page's message when it rejects.
   */
  async evaluate(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
Promise.resolve()
  .then(() => (${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
  .then((value) => done({ value }), (e) => done({ error: String((e && e.stack) || e) }));`;
    const out = await this.command("POST", "/execute/async", { script, args });
    if (out && "error" in out) throw new Error(`in the page: ${out.error}`);
    return out?.value;
  }

  /** The element for `css` in the document, or `css` inside the shadow root of `host` (a selector). */
  async find(css, host) {
    const el = await this.execute(
      (css, host) => (host ? document.querySelector(host)?.shadowRoot : document)?.querySelector(css) ?? null,
      css,
      host ?? null,
    );
    if (!el) throw new Error(`no element ${host ? `${host} >>> ` : ""}${css}`);
    return el;
  }

  /**
   * Clicks an element as a reader does: a trusted click in its middle. The element is first put
   * in the middle of the screen: WebKitWebDriver refused ("element not interactable") a button
   * below a screen shortened by the browser's downloads bar, where it scrolled none.
   */
  async click(el) {
    await this.execute((el) => el.scrollIntoView({ block: "center" }), el);
    return this.command("POST", `/element/${el[ELEMENT]}/click`, {});
  }

  /** Types `text` into an element (WebDriver's Element Send Keys: focus it, then the keys). */
  sendKeys(el, text) {
    return this.command("POST", `/element/${el[ELEMENT]}/value`, { text });
  }

  /** Presses and releases each key in turn where the focus is (keys by their names in KEYS). */
  press(...names) {
    const actions = names.flatMap((n) => {
      const value = KEYS[n] ?? n;
      return [
        { type: "keyDown", value },
        { type: "keyUp", value },
      ];
    });
    return this.command("POST", "/actions", { actions: [{ type: "key", id: "keyboard", actions }] });
  }

  /** Sets the window so that the page's viewport is `width` × `height` CSS px. */
  async viewport(width, height) {
    // MiniBrowser's window holds a toolbar above the page: the window is the viewport plus it.
    const [dw, dh] = await this.execute(() => [outerWidth - innerWidth, outerHeight - innerHeight]);
    await this.command("POST", "/window/rect", { width: width + dw, height: height + dh });
    // The window may take its new size a moment after the command returns (no window manager).
    const size = () => this.execute(() => [innerWidth, innerHeight]);
    await until(async () => String(await size()) === String([width, height]), { ms: 5000 }).catch(async () => {
      throw new Error(`asked for a ${width} × ${height} viewport, got ${(await size()).join(" × ")}`);
    });
  }

  /** Resolves once the page has drawn two more frames: what it changed is on screen. */
  painted() {
    return this.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }

  /** The viewport as PNG bytes, once painted; written to `file` if given. */
  async screenshot(file) {
    await this.painted();
    const png = Buffer.from(await this.command("GET", "/screenshot"), "base64");
    if (file) fs.writeFileSync(file, png);
    return png;
  }

  quit() {
    return this.command("DELETE", "");
  }
}

/**
 * Serves dist/ on 127.0.0.1 (tests/browser/browser.js's server), every page with WATCH_FILE
 * first. Throws on a page with no <meta charset> line to put it after: then the record would not
 * start before the page.
 */
function serveWatched() {
  return serve({
    files: (pathname) => path.join(dist, decodeURIComponent(pathname)),
    body: (pathname) => {
      if (pathname === `/${WATCH_FILE}`) return WATCH;
      if (!pathname.endsWith(".html")) return null;
      const file = path.join(dist, decodeURIComponent(pathname));
      if (!fs.existsSync(file)) return null;
      const html = fs.readFileSync(file, "utf8");
      const charset = /<meta charset="utf-8">\n/i;
      if (!charset.test(html))
        throw new Error(`${pathname} has no <meta charset="utf-8"> line to load the watch after`);
      return html.replace(charset, (m) => `${m}<script src="/${WATCH_FILE}"></script>\n`);
    },
  });
}

/**
 * Starts Xvfb, WebKitWebDriver and a MiniBrowser session for one test file: registers node:test
 * before/after hooks and returns an object whose `session` is the running session, `server` the
 * server of dist/ (its origin, the paths asked for and those missing), `home` the browser's home
 * folder (its downloads), `size` the viewport open() gives each page.
 */
function useWebKit(test, { width = 1280, height = 900 } = {}) {
  const webkit = { session: null, server: null, home: null, size: [width, height] };
  let home, xvfb, driver;
  test.before(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "llmmath-webkit-"));
    webkit.home = home;
    webkit.server = await serveWatched();
    xvfb = await startXvfb();
    const port = await freePort();
    // The browser's caches, settings and downloads go to the temporary folder, not the user's.
    const env = {
      ...process.env,
      // the X server above, even under a desktop's Wayland session
      DISPLAY: xvfb.display,
      GDK_BACKEND: "x11",
      WAYLAND_DISPLAY: "",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(home, "run-")),
      // Xvfb has no GPU. With accelerated compositing (software GL), WebKitGTK 2.50 left parts of
      // a page unpainted after they changed (a slider's thumb where the page had moved it, an
      // <output>'s new text, a panel just opened) until the next scroll, so that screenshots
      // showed an older page than the one the DOM held. Without it, every paint reaches the window.
      WEBKIT_DISABLE_COMPOSITING_MODE: "1",
    };
    // MiniBrowser's toolbar keeps its window at least 447 px wide, wider than a phone's 390 px:
    // this style sheet of the browser's own widgets (GTK's, not the page's) lets it narrow.
    fs.mkdirSync(path.join(home, "config", "gtk-3.0"), { recursive: true });
    fs.writeFileSync(
      path.join(home, "config", "gtk-3.0", "gtk.css"),
      "* { min-width: 0; min-height: 0; padding: 0; margin: 0; }\n",
    );
    driver = spawn(DRIVER, [`--port=${port}`, "--host=127.0.0.1"], { env, stdio: ["ignore", "ignore", "pipe"] });
    let driverLog = "";
    driver.stderr.on("data", (d) => (driverLog = (driverLog + d).slice(-4000)));
    const origin = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${origin}/status`)).ok, { what: `WebKitWebDriver on ${origin}` }).catch(
      (error) => {
        throw new Error(`${error.message}\n${driverLog}`);
      },
    );
    const res = await fetch(`${origin}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        capabilities: {
          alwaysMatch: {
            browserName: "MiniBrowser",
            "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
          },
        },
      }),
    });
    const { value } = await res.json();
    if (!res.ok) throw new Error(`no WebKit session: ${value?.message}\n${driverLog}`);
    webkit.session = new Session(origin, value.sessionId);
    // A script may take long: reading the chapter through takes about 7 s on an idle machine.
    await webkit.session.command("POST", "/timeouts", { script: 120000, pageLoad: 60000 });
    await webkit.session.viewport(width, height);
  });
  test.after(async () => {
    await webkit.session?.quit().catch(() => {});
    await stop(driver);
    await stop(xvfb?.child);
    await webkit.server?.close();
    // The browser's last processes may still be writing their caches as they end.
    if (home) fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });
  return webkit;
}

/**
 * Opens dist/<file> as served (with an optional query or fragment), draws every figure (a figure
 * draws as it nears the screen; `lazy` leaves them so, as for a reader, and then waits for
 * html[data-first-screen]) and waits for `ready` (html[data-ready] unless told; a selector, or
 * null). Returns its address.
 */
function open(webkit, file, options) {
  return load(webkit, `${webkit.server.origin}/${file}`, options);
}

/** Opens dist/<file> from disk, file://, as open() does. */
function openFile(webkit, file, options) {
  return load(webkit, pathToFileURL(path.join(dist, file)).href, options);
}

async function load(
  webkit,
  page,
  { lazy = false, ready = lazy ? "html[data-first-screen]" : "html[data-ready]", suffix = "", ms = 20000 } = {},
) {
  // The viewport the file's tests asked for, again if a download's bar or a test changed it.
  const [width, height] = webkit.size;
  const now = await webkit.session.execute(() => [innerWidth, innerHeight]);
  if (now[0] !== width || now[1] !== height) await webkit.session.viewport(width, height);
  // The same file with another fragment would only scroll the page: load it afresh.
  if ((await webkit.session.url()).split(/[?#]/)[0] === page) await webkit.session.navigate("about:blank");
  await webkit.session.navigate(page + suffix);
  if (!lazy) await drawAll(webkit, ms);
  if (ready) await waitFor(webkit, ready, ms);
  return page + suffix;
}

/** Draws every figure of the page now, as printing does (tests/browser/in-page.js drawEveryFigure). */
function drawAll(webkit, ms) {
  return webkit.session.evaluate(drawEveryFigure, ms);
}

/** Waits until `css` matches an element of the page (in the page, not by polling the driver). */
function waitFor(webkit, css, ms = 20000) {
  return webkit.session.evaluate(
    (css, ms) =>
      new Promise((resolve, reject) => {
        const end = performance.now() + ms;
        const look = () => {
          if (document.querySelector(css)) resolve(true);
          else if (performance.now() > end) reject(new Error(`no ${css} after ${ms} ms`));
          else setTimeout(look, 50);
        };
        look();
      }),
    css,
    ms,
  );
}

/**
 * Runs `action` (a click) and resolves to the text of the file `name` the browser then saved
 * (MiniBrowser saves downloads in the home folder useWebKit gives it, without asking), or null
 * if none was whole within `ms`. A file of that name saved before is removed first.
 *
 * MiniBrowser writes the download under its own name as the data arrives, so the file exists,
 * with a part of the text, before it is whole: a CI run once read the first 8 KiB of an SVG and
 * failed to parse it. The file is read until `complete(text)` holds; for an SVG, until it ends
 * with its closing tag.
 */
async function download(webkit, name, action, { ms = 20000, complete = svgComplete } = {}) {
  const file = path.join(webkit.home, name);
  fs.rmSync(file, { force: true });
  await action();
  return until(
    () => {
      if (!fs.existsSync(file)) return null;
      const text = fs.readFileSync(file, "utf8");
      return complete(text) ? { text } : null;
    },
    { ms, what: `${name} saved whole` },
  ).then(
    ({ text }) => text,
    () => null,
  );
}

/** Whether the text of a saved SVG file is whole: it ends with the root's closing tag. */
function svgComplete(text) {
  return /<\/svg>\s*$/.test(text);
}

// WebKit's notice, reported as an error event, that the ResizeObserver callbacks of one frame
// changed the size of an element observed higher up the page, whose callback then waits for the
// next frame. Not an exception of the page's scripts, so not a page error here; measured on
// embed.html, in about 1 load in 15 at 1280 × 900 and more as the window shrinks: a chart's first
// fit to its box (plot.js, in its observer's callback) grows the page whose height embed.js
// observes on <html>. Chromium 156 reported none over the same loads.
const LOOP_NOTICE = "uncaught: ResizeObserver loop completed with undelivered notifications.";

/** What the watch recorded on the page now open: errors, in order (not LOOP_NOTICE). */
async function pageErrors(webkit) {
  const seen = await webkit.session.execute(() =>
    window.__pageErrors ? [...window.__pageErrors] : ["the watch did not run"],
  );
  return seen.filter((e) => !e.startsWith(`${LOOP_NOTICE} (`));
}

/** Addresses the page fetched other than its own site's (and data: and blob: URLs). */
function outsideRequests(webkit) {
  return webkit.session.execute(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => e.name)
      .filter((u) => !u.startsWith(`${location.origin}/`) && !/^(data|blob):/.test(u)),
  );
}

/**
 * Scrolls through the whole page as a reader does, so that every section is laid out and every
 * figure drawn (sections off screen skip layout), then gives the browser a moment to report.
 */
function readThrough(webkit) {
  return webkit.session.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // A screen at a time (the chapter is some 45,000 px long; WebKit lays out each section as it
    // comes near the screen, which costs more than Chromium's).
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await frame();
    }
    scrollTo(0, 0);
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
}

/** Fails unless every figure is ready, shows no error and drew its figure (in-page.js); returns them. */
async function assertFiguresDrawn(assert, webkit, what) {
  return assertEveryFigureDrawn(assert, await webkit.session.execute(figuresOnPage), what);
}

/**
 * The pixels of a PNG as WebKit writes its screenshots (8 bits a channel, RGB or RGBA, not
 * interlaced): { width, height, channels, data } with rows unfiltered, top to bottom.
 */
function decodePng(png) {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, type, , , interlace] = png.subarray(24, 29);
  if (depth !== 8 || (type !== 2 && type !== 6) || interlace) throw new Error(`a PNG of a kind not read here`);
  const channels = type === 6 ? 4 : 3;
  const parts = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString("latin1", at + 4, at + 8) === "IDAT") parts.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = zlib.inflateSync(Buffer.concat(parts));
  const stride = width * channels;
  const data = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? data[y * stride + x - channels] : 0;
      const b = y > 0 ? data[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? data[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predicted === undefined) throw new Error(`PNG filter ${filter}`);
      data[y * stride + x] = (line[x] + predicted) & 0xff;
    }
  }
  return { width, height, channels, data };
}

function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}

module.exports = {
  useWebKit,
  open,
  openFile,
  waitFor,
  pageErrors,
  outsideRequests,
  readThrough,
  assertFiguresDrawn,
  artifact,
  decodePng,
  download,
  KEYS,
  dist,
};
