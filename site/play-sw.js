/*
 * Roadkit's service worker, registered by the Play pages only: once a Play page has loaded, the
 * files it fetched (Pyodide, the engine, the game's content, the pages) are answered from the cache
 * first, so the game plays offline. Their names carry a digest of their bytes, so a new build brings
 * new names, never a stale mix.
 */
"use strict";
var CACHE = "roadkit-play-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
// The Play page sends what it loaded on its first visit (its worker's files included, which no page
// under this worker's control fetched yet): kept now, so the next visit plays offline.
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.keep) || [];
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return cache.match(url).then(function (hit) { return hit || cache.add(url).catch(function () {}); });
    }));
  }));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  // Pages first from the network (a new build shows), from the cache when offline; the rest cache first.
  var page = request.mode === "navigate";
  event.respondWith(caches.open(CACHE).then(function (cache) {
    var fetched = fetch(request).then(function (response) {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
    if (page) return fetched.catch(function () { return cache.match(request, { ignoreSearch: true }); });
    return cache.match(request).then(function (hit) { return hit || fetched; });
  }));
});
