// The figures' first drawings, made at build time and put in the reader's pages, so that a reader
// sees a figure as soon as its place is on the screen rather than after the engine has loaded
// (the first screen first). The core draws them, as it draws for a reader: the built
// reader.html is opened in Debian's headless Chromium, every figure is drawn at a laptop's width,
// and each figure's shadow root is read back as markup. In the pages, each figure's element then
// carries its drawing in a <noscript data-drawing>, which, where scripts run, the parser reads as
// text as fast as it can scan for its end (no element is made: the figures' 4,900 inert elements
// in <template>s cost a load about 70 ms of parsing) and which neither runs nor shows;
// src/drawing.js shows it in the figure's shadow root where it is needed: the figures of the
// first screen and the one below as soon as the parser has read them (src/first-screen.js, run
// by reader-head.js, before the widgets' script), a figure that starts before the engine has
// loaded (src/kit/base.js). The widget, once the engine has loaded, draws afresh and puts
// its own elements in place of the drawing in one step (LlmWidget._showLive). Until then the
// drawing is inert: it answers no click or key, since nothing would follow. Where scripts do not
// run the parser shows it, for good (withDrawings); nothing shows it where the address gives
// settings the drawing does not have (src/place.js).
//
// The drawing is styled by the widgets' own style sheets, whose texts the page carries inert (in
// the <noscript>s, never put in the page as <style> elements): drawing.js makes constructed style
// sheets of them and gives them to the shadow root, as the widgets do with theirs. A page's
// Content-Security-Policy (style-src 'self', with no 'unsafe-inline') has nothing to refuse, and
// no file is asked for.

import { chromium } from "playwright-core";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DRAWING_BLOCK, DRAWING_HOST, KIT } from "./src/drawing.js";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// A laptop's window: the width the chapter's column has at its widest. A narrower screen shows
// the drawing scaled until the figure draws for its own width.
const VIEWPORT = { width: 1280, height: 900 };

/**
 * Empties, in each figure's shadow root of the build's page, the elements whose content the
 * figure's drawing leaves out: those the figure does not show (display: none) and would show on no
 * screen and in no print, each the outermost of its kind. Each stays, empty, so that the rules that
 * count an element's siblings (:nth-child, +, ~) match in the drawing as in the figure. A drawing
 * is inert until the figure draws afresh, so nothing can bring those into view: the compact
 * opening figure's editors, worked calculation and panels (273 of its 342 elements). Left out,
 * the first screen's drawing is quicker to style and lay out before the first paint, and the page
 * is shorter by what they took. Kept: an element that a rule under a condition (@media print, a
 * width, @supports) gives a display, whether or not that condition holds here (one that hides, as
 * print does the controls, shows nothing); what a select or a datalist holds (its options, not
 * laid out as boxes). Run in the page (page.evaluate): it must use nothing from outside itself.
 */
export function emptyUnshown() {
  /** The selectors of the rules under a condition that give a display other than none (or all). */
  const conditional = [];
  const walk = (rules, underCondition) => {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) {
        const display = rule.style.getPropertyValue("display");
        if (underCondition && ((display && display !== "none") || rule.style.getPropertyValue("all")))
          conditional.push(rule.selectorText);
        if (rule.cssRules?.length) walk(rule.cssRules, underCondition);
      } else if ("cssRules" in rule) walk(/** @type {CSSGroupingRule} */ (rule).cssRules, true);
    }
  };
  /** Whether a rule under a condition may give `el` a display (:host read as any host, to be safe). */
  const mayShow = (el) =>
    conditional.some((selector) => {
      try {
        return el.matches(selector.replace(/:host(\([^()]*\))?/g, ":where(*)"));
      } catch {
        return true;
      }
    });
  for (const host of document.querySelectorAll("[data-figure]")) {
    const root = host.shadowRoot;
    if (!root) continue;
    conditional.length = 0;
    for (const sheet of root.adoptedStyleSheets) walk(sheet.cssRules, false);
    for (const style of root.querySelectorAll("style")) if (style.sheet) walk(style.sheet.cssRules, false);
    /** @type {Element[]} */
    const unshown = [];
    for (const el of root.querySelectorAll("*")) {
      const within = el.parentElement?.closest("select, datalist") || unshown.some((u) => u.contains(el));
      if (el.localName !== "style" && !within && getComputedStyle(el).display === "none" && !mayShow(el))
        unshown.push(el);
    }
    for (const el of unshown) el.replaceChildren();
  }
}

/**
 * Opens `dir`/reader.html (built, with its assets) in headless Chromium, draws every figure and
 * returns, for each figure with an id: { tag, attributes (its element's, as [name, value], as the
 * kit set them), html (its shadow root's children as markup, controls' values written as
 * attributes, each child inert), css (the rules of the sheets other parts gave its root, and of
 * the classes that stand for its elements' style attributes), numpy (its NumPy program for the
 * state and result it was drawn with, its first settings: the notebook's code cell, site/
 * notebook.mjs) and, for Figure 9.1, scenarios (its paperScenarios(): the notebook's end) }.
 * `ownSheets` maps each widget's tag to how many style sheets the widget gives
 * its root itself (kit/base.js styleTexts). `numpyScript`, a classic script that defines
 * globalThis.llmNumpyProgram(element) as takeaway.js's numpyProgram (Copy as NumPy), is run in
 * the page for the programs: the page itself exposes no such function.
 */
export async function drawFigures(dir, ownSheets, numpyScript) {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: the build draws the figures' first drawings with Chromium (apt-get install chromium, or CHROMIUM_PATH)`,
    );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: "light", reducedMotion: "reduce" });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(pathToFileURL(path.join(dir, "reader.html")).href);
    await page.evaluate(async () => {
      const widgets = [...document.querySelectorAll("*")].filter((el) => el.localName.startsWith("llm-"));
      await Promise.all(widgets.map((el) => customElements.whenDefined(el.localName)));
      for (const el of widgets) /** @type {any} */ (el).drawNow?.();
    });
    await page.waitForSelector("html[data-ready]", { timeout: 60000 });
    // the charts fitted to their boxes (a ResizeObserver's redraw, before a frame is painted)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (errors.length) throw new Error(`reader.html, drawn for the build: ${errors.join("; ")}`);
    // Each figure's program, from the state and result the widget keeps, computed in the page by
    // the same function as Copy as NumPy (an exercise's withholding does not apply: it is the
    // figure's program all the same).
    await page.evaluate(numpyScript);
    const programs = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll("[data-figure][id]")].map((el) => [
          el.id,
          /** @type {any} */ (globalThis).llmNumpyProgram(el),
        ]),
      ),
    );
    // Figure 9.1's scenarios with their answers and calculations, for the notebook's end.
    const scenarios = await page.evaluate(() =>
      /** @type {any} */ (document.querySelector("llm-diagnose[data-figure]"))?.paperScenarios(),
    );
    await page.evaluate(emptyUnshown);
    const drawn = await page.evaluate((ownSheets) => {
      const out = {};
      for (const el of document.querySelectorAll("[data-figure][id]")) {
        const root = el.shadowRoot;
        if (!root || !el.hasAttribute("data-ready") || root.querySelector(".llm-status.llm-error:not(:empty)"))
          throw new Error(`#${el.id} did not draw`);
        // What a control holds is a property; the markup says it in attributes (not for one an
        // exercise withholds, answer.js: its attributes are withheld already, its value is not).
        for (const input of root.querySelectorAll("input:not([data-predict-conceal] *, [data-predict-conceal])")) {
          if (input.type === "checkbox" || input.type === "radio") input.toggleAttribute("checked", input.checked);
          else input.setAttribute("value", input.value);
        }
        for (const option of root.querySelectorAll("option")) option.toggleAttribute("selected", option.selected);
        for (const area of root.querySelectorAll("textarea")) area.textContent = area.value;
        // A style the script set on an element (a bar's width, a colour) would be a style
        // attribute in markup, which a policy without 'unsafe-inline' refuses: each becomes a
        // class of the drawing's own, its declarations a rule (important, as an element's own
        // style outweighs the style sheets' rules).
        const classes = new Map();
        const html = [...root.children]
          .map((child) => {
            const copy = /** @type {HTMLElement} */ (child.cloneNode(true));
            copy.setAttribute("inert", "");
            // The figure's live region says its summary once the reader pauses (base.js), so at
            // the moment of the copy it may or may not have spoken: the drawing keeps it empty,
            // and two builds of one tree write the same page.
            for (const live of copy.querySelectorAll(".llm-live")) live.textContent = "";
            for (const styled of [copy, ...copy.querySelectorAll("[style]")]) {
              if (!styled.hasAttribute("style")) continue;
              const style = /** @type {HTMLElement} */ (styled).style;
              const rule = [...style].map((name) => `${name}: ${style.getPropertyValue(name)} !important;`).join(" ");
              if (!classes.has(rule)) classes.set(rule, `llm-drawn-${classes.size}`);
              styled.removeAttribute("style");
              styled.classList.add(/** @type {string} */ (classes.get(rule)));
            }
            return copy.outerHTML;
          })
          .join("");
        // Sheets given to the root besides the widget's own: an exercise's, which blurs what it
        // withholds (answer.js).
        const given = root.adoptedStyleSheets
          .slice(ownSheets[el.localName])
          .map((sheet) => [...sheet.cssRules].map((r) => r.cssText).join("\n"));
        const css = [...given, ...[...classes].map(([rule, name]) => `.${name} { ${rule} }`)].join("\n");
        // The element's attributes as the kit and the exercises have set them (data-predict-first),
        // but those that say it is live (data-ready) or follow the reader's page (data-scheme).
        const attributes = [...el.attributes]
          .filter((a) => !["data-ready", "data-scheme", "id"].includes(a.name))
          .map((a) => [a.name, a.value]);
        out[el.id] = { tag: el.localName, attributes, html, css };
      }
      return out;
    }, ownSheets);
    for (const [id, d] of Object.entries(drawn)) {
      d.numpy = programs[id];
      if (d.tag === "llm-diagnose") d.scenarios = scenarios;
    }
    return drawn;
  } finally {
    await browser.close();
  }
}

/**
 * `html` (a reader page) with each figure of `drawings` given its drawing: the element marked
 * data-prerendered and given the attributes the kit set on it (data-figure, …), holding its
 * drawing in a <noscript data-drawing>; at the top of the body, a <template id=KIT> with the kit's
 * styles, `kit`, which every drawing shares. Each figure must be found.
 *
 * The <noscript> serves both kinds of reader. Where scripts run, the parser reads its content as
 * text (as it did the data block, <script type="text/html">, it replaced: no element is made, and
 * the page costs no more to parse), and src/drawing.js shows that markup when it is needed. Where
 * they do not, the parser reads it as elements: a <div> whose declarative shadow root
 * (<template shadowrootmode>) holds the drawing, so that the reader sees every figure as the build
 * drew it, styled by its own styles and no other, and the page's styles leave it alone. Its
 * styles, for reader.html (`sheets`), are <link>s to files in that shadow root (the kit's and the
 * figure's own, which a policy of style-src 'self' allows, where it refuses a <style>), and the
 * figure's own as a text drawing.js reads, in a <template> before the host (inert either way: no
 * policy judges it). A page of one file, with no files beside it (`sheets` null), has <style>s in
 * the shadow root instead, which drawing.js reads too and its policy allows by their hashes.
 * Returns { html, styles: the texts of those <style>s }.
 * @param {string} html
 * @param {string} file
 * @param {Record<string, {tag: string, attributes: string[][], html: string, css: string}>} drawings
 * @param {string} kit
 * @param {{ kit: string, own: Record<string, string> } | null} sheets
 */
export function withDrawings(html, file, drawings, kit, sheets) {
  const quoted = (v) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  /** @type {string[]} */
  const styles = [];
  for (const [id, d] of Object.entries(drawings)) {
    // the content of a <noscript> read as text ends at the first "</noscript"
    if (/<\/noscript/i.test(d.css + d.html))
      throw new Error(`${file}: #${id}'s drawing holds "</noscript", which its <noscript> cannot carry`);
    if (/<\/style/i.test(d.css)) throw new Error(`${file}: #${id}'s styles hold "</style"`);
    const element = new RegExp(`<${d.tag} id="${id}"([^>]*)></${d.tag}>`);
    if (!element.test(html)) throw new Error(`${file}: no empty <${d.tag} id="${id}"> to put its drawing in`);
    let head;
    let before = "";
    if (sheets) {
      if (!sheets.own[id]) throw new Error(`${file}: no style sheet file for #${id}'s drawing`);
      before = `<template><style>${d.css}</style></template>`;
      head = `<link rel="stylesheet" href="${sheets.kit}"><link rel="stylesheet" href="${sheets.own[id]}">`;
    } else {
      head = `<style>${kit}</style><style>${d.css}</style>`;
      styles.push(kit, d.css);
    }
    html = html.replace(element, (_, written) => {
      // the attributes the page was written with, then those the figure set on itself
      const added = d.attributes
        .filter(([name]) => !new RegExp(`\\s${name}(=|\\s|$)`).test(written))
        .map(([name, value]) => (value === "" ? ` ${name}` : ` ${name}="${quoted(value)}"`))
        .join("");
      // The host of the drawing for a reader without scripts has the attributes the kit set on the
      // figure (data-predict-first: the styles of :host([…]) hold back what an exercise withholds)
      // but data-figure, by which the page's styles place figures.
      const host = d.attributes
        .filter(([name]) => name !== "data-figure")
        .map(([name, value]) => (value === "" ? ` ${name}` : ` ${name}="${quoted(value)}"`))
        .join("");
      return `<${d.tag} id="${id}"${written}${added} data-prerendered><noscript ${DRAWING_BLOCK}>${before}<div ${DRAWING_HOST}${host}><template shadowrootmode="open">${head}${d.html}</template></div></noscript></${d.tag}>`;
    });
  }
  // the kit's styles, once, at the top of the body, before any figure
  const body = /<body[^>]*>\n?/;
  if (!body.test(html)) throw new Error(`${file}: no <body> to put the kit's styles after`);
  return {
    html: html.replace(body, (open) => `${open}<template id="${KIT}"><style>${kit}</style></template>\n`),
    styles: [...new Set(styles)],
  };
}
