// The service worker: after one visit the game loads and plays with no network.
// This is a template: tools/site/offline.py writes the site's sw.js with the list of every
// file of the site and a cache version made from their content hashes, so any change to any
// file makes a new worker, which the browser installs in the background on the next visit.
// @ts-check
"use strict";

/** This script's global scope, as the worker it is (tsc's lib types `self` as any worker). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const VERSION = "__CACHE_VERSION__";
const FILES = __PRECACHE__; // [url relative to this script, sha256 of its content]

// Several apps can share an origin (user.github.io/a/, user.github.io/b/): our caches are
// named after our scope, and we only ever delete our own.
const PREFIX = `hearts ${worker.registration.scope} `;
const CACHE = PREFIX + VERSION;

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// One file of this version: "no-cache" revalidates with the server rather than trusting the
// HTTP cache (an unchanged file costs a 304, not a download), and the content must hash to
// what the build listed: a host caught mid-deploy (old and new files mixed) fails the
// install, and the browser tries again on a later visit, keeping the working version.
/** @param {string} url @param {string} sha256 */
async function fetchChecked(url, sha256) {
  const response = await fetch(new Request(url, { cache: "no-cache" }));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const digest = hex(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  if (digest !== sha256) throw new Error(`${url}: not the file of version ${VERSION}`);
  return response;
}

// A file NAME.bin.gz (the memory snapshot) is kept unpacked too, as NAME.bin?sha256=DIGEST
// (the .gz's): the page reads it from this cache at every later start (web/static/start.mjs),
// where unpacking 30 MB costs ~0.4 s of its main thread; here it is done once, in the
// background. (The page falls back to the .gz.)
/** @param {Response} response */
async function unpacked(response) {
  const bytes = new Uint8Array(await response.clone().arrayBuffer());
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b; // (unless the server unpacked it)
  const body = gzipped
    ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
      .arrayBuffer()
    : bytes;
  return new Response(body, { headers: { "Content-Type": "application/octet-stream" } });
}

worker.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const responses = await Promise.all(FILES.map(([url, sha256]) => fetchChecked(url, sha256)));
    const cache = await caches.open(CACHE);
    const unpacks = await Promise.all(FILES.map(([url], i) =>
      url.endsWith(".bin.gz") ? unpacked(responses[i]) : null));
    await Promise.all(FILES.map(([url], i) => cache.put(url, responses[i])));
    await Promise.all(unpacks.map((response, i) =>
      response && cache.put(`${FILES[i][0].slice(0, -3)}?sha256=${FILES[i][1]}`, response)));
    // Take over at once: an open page has all it needs in memory and keeps working; the page
    // is told (controllerchange) and offers a reload; the next load runs the new version.
    await worker.skipWaiting();
  })());
});

worker.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(worker.registration.scope)) return;
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
