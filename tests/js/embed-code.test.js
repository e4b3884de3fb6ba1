// The embed code (site/src/share.js embedCode), for every figure: two forms, each pasted on its
// own; relative addresses (never file:// or the address the chapter was read at); the figure's
// declared title and height, the compact height for a compact figure; no inline style; the
// settings and view attributes written as the figure reads them back, escaped.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { buildSync } = require("esbuild");
const { figures } = require("../browser/registry.js");

const { embedCode } = (() => {
  const { outputFiles } = buildSync({
    entryPoints: [path.join(__dirname, "..", "..", "site", "src", "share.js")],
    bundle: true,
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const module = { exports: {} };
  new Function("module", "exports", outputFiles[0].text)(module, module.exports);
  return module.exports;
})();

for (const [name, figure] of Object.entries(figures)) {
  test(`${name}: the frame and the script form, relative, titled and sized as declared`, () => {
    const { frame, script } = embedCode({ name, figure, settings: [] });
    assert.match(frame, new RegExp(`^<iframe src="embed\\.html\\?widget=${name}" `));
    assert.ok(frame.includes(` title="${figure.title}" `), frame);
    assert.doesNotMatch(figure.title, /^Figure \d/, "a title that means something outside the chapter");
    assert.ok(frame.includes(` height="${figure.frameHeight.full[800]}" `), frame);
    assert.match(frame, /\n<script src="llmmath-frame\.js"><\/script>$/);
    assert.match(
      script,
      new RegExp(`\\n<script src="llmmath-widgets\\.js"></script>\\n<${figure.tag}></${figure.tag}>$`),
    );
    for (const code of [frame, script]) {
      assert.doesNotMatch(code, /style=|file:|https?:/);
      // one form holds one figure: pasted whole, it shows it once
      assert.equal(code.split(/<iframe |<llm-/).length - 1, 1);
    }
    const compact = embedCode({ name, figure, settings: [], view: [["compact", ""]] });
    assert.ok(compact.frame.includes(`embed.html?widget=${name}&amp;compact" `), compact.frame);
    assert.ok(compact.frame.includes(` height="${figure.frameHeight.compact[800]}" `), compact.frame);
    assert.ok(compact.script.includes(`<${figure.tag} compact></${figure.tag}>`), compact.script);
  });
}

test("settings are escaped for the address and for the attribute", () => {
  const { frame, script } = embedCode({
    name: "sampling",
    figure: figures.sampling,
    settings: [["prompt", 'a "quoted" <b>&</b> prompt']],
    view: [["scheme", "dark"]],
    base: "figures/",
  });
  assert.ok(
    frame.startsWith(
      '<iframe src="figures/embed.html?widget=sampling&amp;prompt=a+%22quoted%22+%3Cb%3E%26%3C%2Fb%3E+prompt&amp;scheme=dark" ',
    ),
    frame,
  );
  assert.match(frame, /<script src="figures\/llmmath-frame\.js"><\/script>$/);
  assert.match(
    script,
    /<script src="figures\/llmmath-widgets\.js"><\/script>\n<llm-sampling prompt="a &quot;quoted&quot; &lt;b&gt;&amp;&lt;\/b&gt; prompt" scheme="dark"><\/llm-sampling>$/,
  );
});

test("data too long for an address rides in the script form as the element's JSON child; the frame form says so", () => {
  const figure = figures.model;
  const json = JSON.stringify({
    model_type: "llama",
    note: "</script><script>alert(1)</script>",
    big: "x".repeat(2000),
  });
  const { frame, script } = embedCode({ name: "model", figure, settings: [["model", "custom"]], inline: json });
  const inner = script.match(
    /<llm-model model="custom"><script type="application\/json">([\s\S]*)<\/script><\/llm-model>$/,
  );
  assert.ok(inner, script);
  assert.equal(inner[1].includes("<"), false, "no < inside the data, so no </script> can end it");
  assert.deepEqual(JSON.parse(inner[1]), JSON.parse(json));
  assert.match(frame, /^<!-- This figure's data is too long for a frame's address/);
  assert.doesNotMatch(frame, /note/);
});
