// Real web servers for the hosting tests: Debian's nginx and Apache, each started on 127.0.0.1
// with a configuration of its own in a temporary folder, serving a copy of dist/ with the hosting
// guide's configuration as the guide prints it (dist/hosting.html), and stopped by the test that
// started it (test.after, which runs when a test fails too; and when Node exits, whatever happens).
// Also: what the edition declares (site/hosting.mjs, site/publish.mjs, loaded as ES modules) and a
// raw HTTP client that sees the bytes as sent, compressed or not.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const http = require("node:http");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { dist, freePort } = require("../browser/browser.js");

const site = path.join(__dirname, "..", "..", "site");
/** site/hosting.mjs, the declaration of how the edition is served. */
const declaration = () => import(pathToFileURL(path.join(site, "hosting.mjs")).href);
/** site/publish.mjs, the build's last steps (the offline copy, the precompressed copies). */
const publish = () => import(pathToFileURL(path.join(site, "publish.mjs")).href);

const NGINX = "/usr/sbin/nginx";
const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
const APACHE = "/usr/sbin/apache2";
const APACHE_MODULES = "/usr/lib/apache2/modules";

/**
 * A server's configuration as the hosting guide shows it: the text of dist/hosting.html's
 * <pre data-config="name"><code>, unescaped. The tests run this text, not a copy of their own.
 */
function guideConfig(name, html = fs.readFileSync(path.join(dist, "hosting.html"), "utf8")) {
  const m = new RegExp(
    `<pre class="config" tabindex="0" data-config="${name.replace(/[.]/g, "\\.")}"><code>([\\s\\S]*?)</code></pre>`,
  ).exec(html);
  if (!m) throw new Error(`dist/hosting.html shows no ${name}`);
  return m[1]
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** A temporary folder, readable by the servers' workers (nginx's run as nobody when started as root). */
function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** A copy of dist/ in a temporary folder, every file readable by anyone. */
function copyOfDist() {
  const dir = tempDir("llmmath-served-");
  const root = path.join(dir, "site");
  fs.cpSync(dist, root, { recursive: true });
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
    fs.chmodSync(path.join(e.parentPath ?? e.path, e.name), e.isDirectory() ? 0o755 : 0o644);
  fs.chmodSync(root, 0o755);
  return { dir, root };
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects after `ms` or if `child` exits first. */
async function listening(port, child, ms = 10000) {
  const start = Date.now();
  let exited = null;
  child.once("exit", (code, signal) => (exited = `exited with ${code ?? signal}`));
  while (Date.now() - start < ms) {
    if (exited) throw new Error(exited);
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
}

// Every server started and not yet stopped, each by its stop(): a test file's after() stops them
// all (stopAll), whatever its tests did; and if Node exits anyway, they are killed with it.
const running = new Map();
process.on("exit", () => {
  for (const child of running.keys()) child.kill("SIGKILL");
});
/** Stops every server this process started that is still running. */
async function stopAll() {
  await Promise.all([...running.values()].map((stop) => stop()));
}

/** Starts `command` and waits for its port; returns { origin, port, stop }. */
async function startServer(command, args, port, logs) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    running.delete(child);
  };
  running.set(child, stop);
  try {
    await listening(port, child);
  } catch (error) {
    await stop();
    const log = fs.existsSync(logs) ? fs.readFileSync(logs, "utf8") : "";
    throw new Error(`${path.basename(command)} did not start: ${error.message}\n${output}\n${log}`, { cause: error });
  }
  return { origin: `http://127.0.0.1:${port}`, port, stop };
}

/**
 * nginx serving `root` on 127.0.0.1:`port` (a free one if none): a minimal nginx.conf of this
 * test (its pid, logs and temporary files in `dir`, in the foreground, the Brotli module loaded)
 * whose one server block includes `include` (the hosting guide's nginx.conf) as it is.
 */
async function startNginx({ dir, root, include, port }) {
  port ??= await freePort();
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    conf,
    `load_module ${BROTLI_MODULE};
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events { worker_connections 64; }
http {
  access_log ${dir}/nginx-access.log;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    include ${include};
  }
}
`,
  );
  return startServer(NGINX, ["-p", dir, "-c", conf, "-e", `${dir}/nginx-error.log`], port, `${dir}/nginx-error.log`);
}

/**
 * A copy of dist/ served as the hosting guide says, on 127.0.0.1: "nginx" with the guide's
 * nginx.conf (its text, dist/hosting.html's) written to `include` and included in the server
 * block, or "apache" with the guide's .htaccess in the folder. Returns { served, server, include }
 * (include null for Apache); stopAll() stops the server, and the caller removes served.dir.
 */
async function serveAsTheGuideSays(kind) {
  const served = copyOfDist();
  try {
    if (kind === "nginx") {
      const include = path.join(served.dir, "llmmath.conf");
      fs.writeFileSync(include, guideConfig("hosting/nginx.conf"));
      return { served, include, server: await startNginx({ dir: served.dir, root: served.root, include }) };
    }
    if (kind === "apache") {
      fs.writeFileSync(path.join(served.root, ".htaccess"), guideConfig(".htaccess"));
      return { served, include: null, server: await startApache({ dir: served.dir, root: served.root }) };
    }
    throw new Error(`no server named ${kind}`);
  } catch (error) {
    fs.rmSync(served.dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Apache 2.4 serving `root` on 127.0.0.1:`port`, in one process in the foreground (-X), with the
 * modules the guide names and those Debian enables by default that touch a static file (its
 * type table, mod_deflate compressing text on the fly, mod_dir); the folder allows its
 * .htaccess (AllowOverride FileInfo Indexes), which is the guide's.
 */
async function startApache({ dir, root, port }) {
  port ??= await freePort();
  const conf = path.join(dir, "httpd.conf");
  const user = process.getuid?.() === 0 ? "User nobody\nGroup nogroup\n" : "";
  const modules = ["mpm_event", "authz_core", "mime", "dir", "rewrite", "headers", "filter", "deflate", "setenvif"];
  fs.writeFileSync(
    conf,
    `ServerRoot ${dir}
Listen 127.0.0.1:${port}
ServerName 127.0.0.1
PidFile ${dir}/apache.pid
ErrorLog ${dir}/apache-error.log
Mutex file:${dir}
${user}${modules.map((m) => `LoadModule ${m}_module ${APACHE_MODULES}/mod_${m}.so`).join("\n")}
TypesConfig /etc/mime.types
AddOutputFilterByType DEFLATE text/html text/plain text/xml text/css text/javascript application/javascript application/json
DocumentRoot ${root}
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory ${root}>
  AllowOverride FileInfo Indexes
  Require all granted
</Directory>
`,
  );
  return startServer(APACHE, ["-X", "-f", conf], port, `${dir}/apache-error.log`);
}

/**
 * GET (or HEAD) `url` with `headers`, the body as sent (not decompressed): { status, headers, body }.
 */
function get(url, headers = {}, method = "GET") {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

module.exports = {
  declaration,
  publish,
  guideConfig,
  tempDir,
  copyOfDist,
  freePort,
  startNginx,
  startApache,
  serveAsTheGuideSays,
  stopAll,
  get,
  NGINX,
  APACHE,
};
