// The offline copy of the chapter: dist/sw.js, the service worker that reader.html registers when
// the reader presses "Keep this chapter for offline reading" (site/src/offline.js), and only then.
// site/publish.mjs writes it from this file with the two constants filled in: FILES, the chapter's
// files (reader.html and everything it loads, nothing else), and VERSION, a hash of exactly those
// files' names and bytes. So every published change to the chapter is a new sw.js, which the
// browser fetches on the reader's next visit (it always asks the server for it, past any cache)
// and installs beside the old one.
//   install    every file of FILES into a cache named for this version (all or nothing: addAll
//              fails whole), then take over at once
//   activate   delete the caches of earlier versions of this chapter (the same folder of the same
//              site), so that one copy is kept, never two
//   fetch      the files of FILES only; everything else (the guides, embed.html, the one-file
//              download) goes to the network as if there were no worker. A file under assets/
//              (its name is a hash of its content) is taken from the cache; the others (the page,
//              the manifest) from the network first, so that a new edition is read as soon as it
//              is published, and from the cache when the network fails.
const VERSION = "unbuilt";
const FILES = [];

const scope = self.registration.scope;
// Caches are shared by a whole site: the name says which chapter (its folder) and which version.
const PREFIX = `llmmath-attention ${scope} `;
const CACHE = `${PREFIX}${VERSION}`;
const kept = new Set(FILES.map((f) => new URL(f, scope).href));
const hashed = new URL("assets/", scope).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        // asked of the server again, past the browser's HTTP cache, so that the copy is this edition
        await cache.addAll(FILES.map((f) => new Request(new URL(f, scope), { cache: "no-cache" })));
      } catch (error) {
        await caches.delete(CACHE);
        throw error;
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** The kept response for an address, or undefined. */
async function fromCache(address) {
  const cache = await caches.open(CACHE);
  return cache.match(address, { ignoreVary: true });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  // The folder's own address is the chapter: the servers answer it with reader.html (index).
  const address = request.mode === "navigate" && url.href === scope ? new URL("reader.html", scope).href : url.href;
  if (!kept.has(address)) return;
  if (address.startsWith(hashed)) {
    event.respondWith(fromCache(address).then((kept) => kept ?? fetch(request)));
    return;
  }
  event.respondWith(
    fetch(request).catch(async (error) => {
      const copy = await fromCache(address);
      if (copy) return copy;
      throw error;
    }),
  );
});
