// The page's DOM helpers (site/src/dom.js): patch(), which redraws a figure by writing into the
// nodes already on the page, and the charts it redraws (site/src/kit/plot.js), tested in a
// page of their own under a strict Content-Security-Policy (no inline styles), as embed.html is.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { buildSync } = require("esbuild");
const { useBrowser } = require("./browser.js");

const browser = useBrowser(test);

// dom.js and the line chart, bundled as one script that sets window.kit.
const kit = buildSync({
  stdin: {
    contents: 'export * from "./dom.js"; export { lineChart } from "./kit/plot.js";',
    resolveDir: path.join(__dirname, "..", "..", "site", "src"),
    loader: "js",
  },
  bundle: true,
  format: "iife",
  globalName: "kit",
  write: false,
  logLevel: "silent",
}).outputFiles[0].text;

/** A blank page with the kit loaded, its policy forbidding inline styles; returns { page, errors }. */
async function openKit() {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page: ${err.message}`));
  await page.setContent(
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="style-src 'none'"></head><body><div id="box"></div></body></html>`,
  );
  await page.addScriptTag({ content: kit });
  await page.evaluate(() => {
    window.violations = 0;
    document.addEventListener("securitypolicyviolation", () => (window.violations += 1));
  });
  return { page, errors };
}

test("patch writes into the nodes already there: same nodes, new text, attributes and styles", async () => {
  const { page, errors } = await openKit();
  const r = await page.evaluate(() => {
    const { h, fill, patch } = window.kit;
    const box = document.getElementById("box");
    const row = (cells) =>
      h(
        "tr",
        {},
        cells.map(([text, props]) => h("td", props, text)),
      );
    fill(
      box,
      h(
        "table",
        {},
        h(
          "tbody",
          {},
          row([
            ["1", { class: "a", title: "one" }],
            ["2", { style: { "--w": "0.5" } }],
          ]),
        ),
      ),
    );
    const cells = [...box.querySelectorAll("td")];
    const table = box.firstChild;
    patch(
      box,
      h(
        "table",
        {},
        h(
          "tbody",
          {},
          row([
            ["10", { class: "b" }],
            ["2", { style: { "--w": "0.25" }, title: "two" }],
            ["3", {}],
          ]),
        ),
      ),
    );
    const after = [...box.querySelectorAll("td")];
    return {
      sameTable: box.firstChild === table,
      sameCells: after[0] === cells[0] && after[1] === cells[1],
      texts: after.map((c) => c.textContent),
      class0: after[0].getAttribute("class"),
      title0: after[0].hasAttribute("title"),
      w1: after[1].style.getPropertyValue("--w"),
      title1: after[1].getAttribute("title"),
      count: after.length,
    };
  });
  assert.equal(r.sameTable, true, "the table is the one already there");
  assert.equal(r.sameCells, true, "the cells are the ones already there");
  assert.deepEqual(r.texts, ["10", "2", "3"]);
  assert.equal(r.class0, "b");
  assert.equal(r.title0, false, "an attribute the new drawing lacks is removed");
  assert.equal(r.w1, "0.25", "a style property is written through the CSSOM");
  assert.equal(r.title1, "two");
  assert.equal(r.count, 3, "a cell more is appended");
  assert.equal(await page.evaluate(() => window.violations), 0, "no inline style was blocked by the policy");
  assert.deepEqual(errors, []);
  await page.close();
});

test("patch removes what the new drawing lacks, replaces nodes of another kind and controls, and moves listeners", async () => {
  const { page, errors } = await openKit();
  const r = await page.evaluate(() => {
    const { h, fill, patch } = window.kit;
    const box = document.getElementById("box");
    const clicks = [];
    fill(
      box,
      h("button", { onclick: () => clicks.push(1) }, "go"),
      h("p", {}, "a"),
      h("input", { value: "x" }),
      h("span", {}, "gone"),
    );
    const [button, p, input] = box.children;
    button.focus();
    patch(box, h("button", { onclick: () => clicks.push(2) }, "go"), h("div", {}, "a"), h("input", { value: "y" }));
    box.firstChild.click();
    return {
      sameButton: box.firstChild === button,
      focused: document.activeElement === button,
      replacedP: box.children[1] !== p && box.children[1].localName === "div",
      replacedInput: box.children[2] !== input,
      inputValue: box.children[2].value,
      count: box.childNodes.length,
      clicks,
    };
  });
  assert.equal(r.sameButton, true);
  assert.equal(r.focused, true, "the focused button keeps the focus");
  assert.deepEqual(r.clicks, [2], "the new listener runs, the old one is gone");
  assert.equal(r.replacedP, true, "a node of another kind is replaced");
  assert.equal(r.replacedInput, true, "a form control is replaced, not written into");
  assert.equal(r.inputValue, "y");
  assert.equal(r.count, 3, "the node the new drawing lacks is removed");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a listener the new drawing drops is removed, however deep, and one it adds works at the next redraw too", async () => {
  const { page, errors } = await openKit();
  const clicks = await page.evaluate(() => {
    const { h, fill, patch } = window.kit;
    const box = document.getElementById("box");
    const clicks = [];
    const row = (onclick) => h("table", {}, h("tbody", {}, h("tr", {}, h("td", {}, h("button", { onclick }, "pick")))));
    fill(
      box,
      row(() => clicks.push("first")),
    );
    patch(box, row(undefined)); // the same markup without the listener
    box.querySelector("button").click();
    patch(
      box,
      row(() => clicks.push("third")),
    );
    patch(box, row(undefined));
    box.querySelector("button").click();
    patch(
      box,
      row(() => clicks.push("fifth")),
    );
    box.querySelector("button").click();
    return clicks;
  });
  assert.deepEqual(clicks, ["fifth"], "only the listener of the drawing on the page runs");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a chart patched into a narrow box is drawn at the box's width at once, and keeps its new spec", async () => {
  const { page, errors } = await openKit();
  await page.evaluate(() => {
    // The charts' own rule (plot.css): a chart takes its box's width.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("svg.chart { display: block; width: 100%; height: auto; }");
    document.adoptedStyleSheets = [sheet];
    document.getElementById("box").style.width = "300px";
  });
  const spec = (y) => ({
    title: "t",
    x: { min: 0, max: 1, ticks: [0, 1], label: "x" },
    y: { min: 0, max: 1, ticks: [0, 1], label: "y" },
    series: [
      {
        points: [
          [0, 0],
          [1, y],
        ],
      },
    ],
  });
  await page.evaluate((s) => window.kit.fill(document.getElementById("box"), window.kit.lineChart(s)), spec(0.5));
  // The first drawing is fitted to the box once it is laid out (a ResizeObserver).
  await page.waitForFunction(() => document.querySelector("#box svg").getAttribute("viewBox").split(" ")[2] === "300");
  const r = await page.evaluate((s) => {
    const box = document.getElementById("box");
    const svg = box.querySelector("svg");
    window.kit.patch(box, window.kit.lineChart(s));
    const now = box.querySelector("svg");
    return {
      same: now === svg,
      width: now.getAttribute("viewBox").split(" ")[2],
      described: now.getAttribute("aria-describedby"),
      description: Boolean(document.getElementById(now.getAttribute("aria-describedby"))),
      points: now.querySelector("polyline").getAttribute("points"),
    };
  }, spec(1));
  assert.equal(r.same, true, "the chart is the one already there");
  assert.equal(r.width, "300", "drawn for its box at once, not at its design width of 520");
  assert.equal(r.description, true, `aria-describedby ${r.described} points at the new description`);
  const [, end] = r.points.split(" ");
  // y = 1 is the top of the plot: the new spec's point, not the old one's (y = 0.5).
  assert.equal(Number(end.split(",")[1]), 14, `the last point ${end} is the new spec's`);
  // Widening the box redraws the kept chart from the new spec.
  await page.evaluate(() => {
    document.getElementById("box").style.width = "400px";
  });
  await page.waitForFunction(() => document.querySelector("#box svg").getAttribute("viewBox").split(" ")[2] === "400");
  const points = await page.evaluate(() => document.querySelector("#box polyline").getAttribute("points"));
  assert.equal(Number(points.split(" ")[1].split(",")[1]), 14, "refitted from the new spec");
  assert.equal(await page.evaluate(() => window.violations), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a kept part is built only when the node in its place shows another key, alone or among others, with its listeners", async () => {
  const { page, errors } = await openKit();
  const r = await page.evaluate(() => {
    const { h, keep, patch, fill } = window.kit;
    const box = document.getElementById("box");
    let builds = 0,
      clicks = 0;
    const drawing = (key) =>
      keep(["dom-test", key], () => {
        builds += 1;
        return h("ul", { class: key }, h("li", { onclick: () => (clicks += 1) }, key));
      });
    const shown = [];
    const show = (...d) => {
      patch(box, ...d);
      shown.push(`${box.firstChild.getAttribute("class")}:${box.textContent}`);
    };
    // Among other children: the key is the part's node's.
    show(drawing("a"), "!");
    const list = box.firstChild;
    show(drawing("a"), "!");
    const afterSame = builds;
    show(drawing("b"), "!");
    show(h("ul", { class: "plain" }, h("li", {}, "plain")), "!");
    show(drawing("b"), "!");
    const sameNode = box.firstChild === list;
    box.querySelector("li").click();
    // Alone: the part may be several nodes, and the key is the box's.
    let severalBuilds = 0;
    const several = (key) =>
      keep(["several", key], () => {
        severalBuilds += 1;
        return [h("p", {}, key), h("p", {}, "second")];
      });
    patch(box, several("x"));
    const first = box.firstChild;
    patch(box, several("x"));
    const kept = box.firstChild === first && box.childNodes.length === 2;
    patch(box, several("y"));
    const twoShown = box.textContent;
    // A part without listeners asked for again where it was shown is a copy of its first drawing.
    let quietBuilds = 0;
    const quiet = (key) =>
      keep(["quiet", key], () => {
        quietBuilds += 1;
        return h("ol", {}, h("li", {}, key));
      });
    const seen = [];
    for (const key of ["p", "q", "p", "q", "p", "r"]) {
      patch(box, quiet(key));
      seen.push(box.textContent);
    }
    // Nested in a drawing put on the page as it is (fill, or a node of a new kind): built there.
    fill(
      box,
      h(
        "section",
        {},
        h("div", {}, drawing("c")),
        keep("lone", () => h("em", {}, "lone")),
      ),
    );
    const comments = document.createTreeWalker(box, NodeFilter.SHOW_COMMENT).nextNode();
    const filled = box.textContent;
    box.querySelector("li").click();
    return {
      shown,
      afterSame,
      builds,
      sameNode,
      kept,
      severalBuilds,
      twoShown,
      filled,
      comments,
      clicks,
      quietBuilds,
      seen,
    };
  });
  // A node that showed a part and was then written with something else no longer counts as
  // showing it: the part drawn again is built and written in full.
  assert.deepEqual(r.shown, ["a:a!", "a:a!", "b:b!", "plain:plain!", "b:b!"]);
  assert.equal(r.afterSame, 1, "the same key again: nothing built");
  assert.equal(r.builds, 4, "a, b, b after a plain drawing (a part with listeners is never copied), c");
  assert.equal(r.sameNode, true, "a part built for another key is written into the node there");
  assert.equal(r.kept, true, "a part of several nodes alone in its box is left as it is for the same key");
  assert.equal(r.severalBuilds, 2);
  assert.equal(r.twoShown, "ysecond");
  assert.equal(r.filled, "clone");
  assert.equal(r.comments, null, "no placeholder is left in the page");
  assert.deepEqual(r.seen, ["p", "q", "p", "q", "p", "r"]);
  // The first drawing is put on the page itself, so it is not remembered; each one written into
  // the nodes there is.
  assert.equal(r.quietBuilds, 4, "p, q, p built; then q and p drawn from what was remembered; r built");
  assert.equal(r.clicks, 2, "a kept part's listeners work, on the page and where fill() built it");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a chart redrawn keeps its axes when only its marker moves, and shows new ticks and rows when they change", async () => {
  const { page, errors } = await openKit();
  const spec = (ticks, y, marker) => ({
    title: "t",
    x: { min: 0, max: 1, ticks: [0, 1], label: "x" },
    y: { min: 0, max: 1, ticks, label: "y" },
    series: [
      {
        points: [
          [0, 0],
          [1, y],
        ],
      },
    ],
    markers: [{ x: marker, y: marker, label: String(marker) }],
  });
  const r = await page.evaluate(
    (specs) => {
      const { patch, lineChart } = window.kit;
      const box = document.getElementById("box");
      const read = () => ({
        yLabels: [...box.querySelectorAll("g.axes text[text-anchor='end']")].map((t) => t.textContent),
        rows: [...box.querySelectorAll("tbody tr")].map((tr) => tr.textContent),
        marker: box.querySelector("circle").getAttribute("cx"),
      });
      patch(box, lineChart(specs[0]));
      const axes = box.querySelector("g.axes");
      const first = read();
      patch(box, lineChart(specs[1]));
      const moved = { ...read(), sameAxes: box.querySelector("g.axes") === axes };
      patch(box, lineChart(specs[2]));
      return { first, moved, changed: read() };
    },
    [spec([0, 1], 0.5, 0.2), spec([0, 1], 0.5, 0.6), spec([0, 0.5, 1], 1, 0.6)],
  );
  assert.deepEqual(r.first.yLabels, ["0", "1"]);
  assert.equal(r.moved.sameAxes, true, "the axes group is the one already there");
  assert.notEqual(r.moved.marker, r.first.marker, "the marker moved");
  assert.deepEqual(r.moved.rows, r.first.rows);
  assert.deepEqual(r.changed.yLabels, ["0", "0.5", "1"], "new ticks are drawn");
  assert.notDeepEqual(r.changed.rows, r.first.rows, "the data table follows the new curve");
  assert.equal(r.changed.rows.length, 2);
  assert.match(r.changed.rows[1], /^11$/, "x = 1, y = 1 in the last row");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a frozen node stays as it is while patch() redraws around it, and shows the latest drawing meant for it when thawed", async () => {
  const { page, errors } = await openKit();
  const r = await page.evaluate(() => {
    const { h, fill, patch, freeze, thaw } = window.kit;
    const box = document.getElementById("box");
    const drawing = (a, b) => h("div", {}, h("p", { class: `a${a}` }, `a ${a}`), h("p", {}, `b ${b}`));
    fill(box, drawing(1, 1));
    const [pa, pb] = box.firstChild.children;
    freeze(pa);
    patch(box, drawing(2, 2));
    const during = [pa.className, pa.textContent, pb.textContent];
    patch(box, drawing(3, 3));
    const direct = h("span", {}, "direct");
    patch(pa, direct); // a figure writing into the frozen node itself: its children, kept too
    const stillFrozen = pa.textContent;
    thaw(pa);
    const thawed = [box.firstChild.children[0] === pa, pa.className, pa.textContent];
    patch(box, drawing(4, 4));
    return { during, stillFrozen, thawed, after: pa.textContent, b: pb.textContent };
  });
  assert.deepEqual(r.during, ["a1", "a 1", "b 2"], "the frozen node is left as it was; its sibling follows");
  assert.equal(r.stillFrozen, "a 1", "a patch into the frozen node itself waits too");
  assert.deepEqual(
    r.thawed,
    [true, "a3", "direct"],
    "thawed: the latest drawing (its attributes, then the children written into it)",
  );
  assert.equal(r.after, "a 4", "after thaw, patch() writes into it again");
  assert.equal(r.b, "b 4");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a withheld node shows no digit in its text or telling attributes and no custom property, and restore() puts back the latest", async () => {
  const { page, errors } = await openKit();
  const r = await page.evaluate(() => {
    const { h, fill, freeze, thaw, withhold } = window.kit;
    const box = document.getElementById("box");
    const cell = h("td", { title: "weight 0.25", "aria-label": "key 3: 0.25", class: "c2", "data-w": "0.25" }, "0.25");
    cell.style.setProperty("--w", "0.25");
    const label = h("text", {}, "m − n = 2: 0.9999");
    fill(box, h("div", {}, cell, label));
    const root = box.firstChild;
    freeze(root, { withhold: true });
    const shown = {
      text: root.textContent,
      title: cell.getAttribute("title"),
      aria: cell.getAttribute("aria-label"),
      data: cell.getAttribute("data-w"),
      cls: cell.className,
      w: cell.style.getPropertyValue("--w"),
    };
    // Written into while withheld (not through patch): withheld again by its writer.
    label.firstChild.data = "m − n = 100: 0.7701";
    withhold(root);
    const rewritten = label.textContent;
    thaw(root);
    return {
      shown,
      rewritten,
      back: [cell.textContent, cell.getAttribute("title"), cell.style.getPropertyValue("--w"), label.textContent],
      violations: window.violations,
    };
  });
  assert.deepEqual(r.shown, {
    text: "•.••m − n = •: •.••••",
    title: "weight •.••",
    aria: "key •: •.••",
    data: "•.••",
    cls: "c2",
    w: "",
  });
  assert.equal(r.rewritten, "m − n = •••: •.••••");
  assert.deepEqual(r.back, ["0.25", "weight 0.25", "0.25", "m − n = 100: 0.7701"]);
  assert.equal(r.violations, 0, "custom properties are put back through the style object, which the policy allows");
  assert.deepEqual(errors, []);
  await page.close();
});
