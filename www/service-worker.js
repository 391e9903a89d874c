/* global self, caches, fetch, location, Request, URL, VERSION, ASSETS */
/**
 * The offline cache (dist/sw.js: vite.config.ts writes `VERSION` and `ASSETS` above this
 * text). After one visit to any page of odelab's origin (the playground, an embed, the
 * example lecture), every file of the build is in the cache `odelab-<VERSION>`, so the
 * playground, the example lecture and each of its embeds load and compute without
 * network. `VERSION` is a hash of the build's files: a new release is a new sw.js, which
 * the browser installs on the next visit; it fills a new cache and deletes the old one.
 *
 * Files under assets/ carry a content hash in their name: served from the cache first.
 * Everything else (index.html, embed.js, the example lecture and assignments) is asked
 * of the network first, so an online visitor always sees the release on the server, and
 * taken from the cache when the network fails. This script runs under its own origin's
 * policy: it fetches nothing outside the list of the build's own files.
 */
const CACHE = `odelab-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // `reload`: the files from the server, not from the HTTP cache of an older release.
      .then((cache) => cache.addAll(ASSETS.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('odelab-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== location.origin) return;
  event.respondWith(respond(request));
});

async function respond(request) {
  const cache = await caches.open(CACHE);
  if (new URL(request.url).pathname.includes('/assets/')) {
    const hit = await cache.match(request);
    if (hit) return hit;
  }
  try {
    return await fetch(request);
  } catch (error) {
    // Offline: a page's query (`?scenario=…&embed=1`) is read by its script, not the server;
    // the folder's own address is its index.html.
    const url = new URL(request.url);
    if (url.pathname.endsWith('/')) url.pathname += 'index.html';
    const hit = await cache.match(url.href, { ignoreSearch: true });
    if (hit) return hit;
    throw error;
  }
}
