// The service worker: after one visit the game loads and plays with no network.
// This is a template: web/pwa.py writes the site's sw.js with the list of every file of the
// site and a cache version made from their content hashes, so any change to any file makes a
// new worker, which the browser installs in the background on the next visit.
"use strict";

const VERSION = "__CACHE_VERSION__";
const FILES = __PRECACHE__;

// Several apps can share an origin (user.github.io/a/, user.github.io/b/): our caches are
// named after our scope, and we only ever delete our own.
const PREFIX = `hearts ${self.registration.scope} `;
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache": revalidate with the server rather than trust the HTTP cache, so a new
    // version never precaches a stale file (unchanged files cost a 304, not a download).
    await cache.addAll(FILES.map((url) => new Request(url, { cache: "no-cache" })));
    // Take over at once: an open page has all it needs in memory and keeps working; the page
    // is told (controllerchange) and offers a reload; the next load runs the new version.
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  const navigate = request.mode === "navigate";
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page is cached as "./"; a navigation may carry a query (?seed=3) or say index.html.
    const url = new URL(request.url);
    const page = navigate && (url.pathname.endsWith("/") || url.pathname.endsWith("/index.html"));
    const hit = await cache.match(page ? "./" : request, { ignoreSearch: page });
    if (hit) return hit;
    try {
      return await fetch(request);
    } catch (error) {
      if (navigate) {
        const fallback = await cache.match("./");
        if (fallback) return fallback;
      }
      throw error;
    }
  })());
});
