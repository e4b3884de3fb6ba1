// The reader's "Keep this chapter for offline reading" (reader.html's #offline, in the contents):
// on a hosted copy, the reader may ask the browser to keep the chapter; nothing is kept unless
// they press it. Pressing it registers sw.js (site/sw.js), which caches the chapter's files (the
// build counted them: #offline's data-files and data-size) and serves them when the network fails.
// The control then says what is kept and how to remove it: "Remove the offline copy" (which
// unregisters the worker and deletes its caches), or the site's data in the browser's settings.
// Where a worker cannot run, it says why when pressed, and what to do instead:
//   - from file:// (a browser never runs a worker there): the file is on the reader's disk already;
//   - over plain http from another machine, or in a browser without workers: the one-file edition.
// The button and its status line are in the page's markup from the start, so nothing on the page
// moves when this runs; only a reader who kept a copy sees the status line change on a visit.
// The one-file edition has no such control (the build takes it out): it is already one file.
//
// The web app manifest (manifest.webmanifest: the chapter installable as an app) is linked from
// here, and only over http(s): from file:// Chromium refuses to read it (a CORS error in the
// console), and there is nothing to install.

/** The manifest's address, beside reader.html; site/publish.mjs keeps it in the offline copy. */
export const MANIFEST = "manifest.webmanifest";

export function setUpOffline() {
  const box = document.getElementById("offline");
  if (!box) return;
  const served = location.protocol === "https:" || location.protocol === "http:";
  if (served) document.head.append(Object.assign(document.createElement("link"), { rel: "manifest", href: MANIFEST }));
  const keep = /** @type {HTMLButtonElement} */ (box.querySelector("#offline-keep"));
  const remove = /** @type {HTMLButtonElement} */ (box.querySelector("#offline-remove"));
  const status = box.querySelector("#offline-status");
  const { files, size } = box.dataset;
  const say = (text) => {
    status.textContent = text;
  };
  let busy = false;
  // file:// has workers and caches in Chromium, and is a secure context, but registers no worker
  const possible = served && "serviceWorker" in navigator && "caches" in window && window.isSecureContext;
  // The worker's caches are named for the chapter's folder (its registration's scope), then the version.
  const prefix = `llmmath-attention ${new URL(".", location.href).href} `;
  const ourCaches = async () => (await caches.keys()).filter((name) => name.startsWith(prefix));
  const keptWords = () =>
    `Kept in this browser: the chapter, ${files} files (${size}). It opens from them with no network; a new edition replaces them on your next visit. To remove them: the button above, or this site's data in your browser's settings.`;
  /** Shows the button for what can be done next; the focus follows it if it was on the other. */
  const show = (isKept) => {
    const hadFocus = document.activeElement === keep || document.activeElement === remove;
    keep.hidden = isKept;
    remove.hidden = !isKept;
    if (hadFocus) (isKept ? remove : keep).focus();
  };

  if (possible)
    // A copy kept on an earlier visit: say so, and offer its removal.
    navigator.serviceWorker.getRegistration().then(async (registration) => {
      if (registration?.active && (await ourCaches()).length > 0) {
        show(true);
        say(keptWords());
      }
    });

  keep.addEventListener("click", async () => {
    if (location.protocol === "file:") {
      say(
        "This chapter is a file on your disk, so it already opens with no network. Keeping a copy in the browser is for the chapter on a web site.",
      );
      return;
    }
    if (!possible) {
      say(
        "This browser keeps a copy only of a page served over https. Take the one-file download above instead: the whole chapter in one file.",
      );
      return;
    }
    // A second press while the first is at work does nothing (the button is not disabled: a
    // disabled button loses the keyboard's focus).
    if (busy) return;
    busy = true;
    say(`Keeping the chapter, ${files} files (${size})…`);
    try {
      const registration = await navigator.serviceWorker.register("sw.js");
      await activated(registration);
      show(true);
      say(keptWords());
    } catch (error) {
      say(`The chapter could not be kept (${error.message}). Nothing was kept; try again once the network is back.`);
    } finally {
      busy = false;
    }
  });

  remove.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    try {
      const registration = possible ? await navigator.serviceWorker.getRegistration() : undefined;
      await registration?.unregister();
      for (const name of await ourCaches()) await caches.delete(name);
      show(false);
      say("The offline copy is removed: this browser keeps nothing of the chapter beyond its usual cache.");
    } finally {
      busy = false;
    }
  });
}

/** Resolves once the registration's worker is active (its files all kept); rejects if it fails to install. */
function activated(registration) {
  return new Promise((resolve, reject) => {
    const worker = registration.installing ?? registration.waiting;
    if (!worker) {
      if (registration.active) resolve(undefined);
      else reject(new Error("no worker was installed"));
      return;
    }
    worker.addEventListener("statechange", () => {
      if (worker.state === "activated") resolve(undefined);
      else if (worker.state === "redundant") reject(new Error("a file of the chapter could not be fetched"));
    });
  });
}
