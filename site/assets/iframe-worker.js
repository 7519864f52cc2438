/*
 * Roadkit: Web Workers for pages opened from file:// (the offline copy of the site).
 *
 * Browsers refuse `new Worker(...)` on file:// pages, and Material's search runs in a worker.
 * There, this shim runs the worker script in a hidden same-origin iframe instead: the page's
 * `postMessage` becomes a "message" event in the iframe, and the script's own `postMessage`
 * comes back as a "message" event on the worker object. Over http(s) it does nothing.
 * (Material's offline plugin would load the `iframe-worker` package from a CDN for this; an
 * offline reader cannot reach a CDN, so the site carries its own.)
 */
(function () {
  "use strict";
  if (location.protocol !== "file:" || typeof EventTarget !== "function") return;

  class FileWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this._queue = [];
      this._ready = false;
      const frame = document.createElement("iframe");
      frame.hidden = true;
      frame.setAttribute("aria-hidden", "true");
      frame.tabIndex = -1;
      (document.body || document.documentElement).appendChild(frame);
      this._frame = frame;
      const scope = frame.contentWindow;
      scope.postMessage = (data) => this._emit("message", data);
      scope.importScripts = () => {
        console.warn("iframe-worker: importScripts is not available offline");
      };
      const doc = frame.contentDocument;
      const script = doc.createElement("script");
      script.src = new URL(String(url), location.href).href;
      script.onload = () => {
        this._ready = true;
        for (const data of this._queue.splice(0)) this.postMessage(data);
      };
      script.onerror = () => this._emit("error", null);
      (doc.head || doc.documentElement).appendChild(script);
    }

    postMessage(data) {
      if (!this._ready) {
        this._queue.push(data);
        return;
      }
      const scope = this._frame.contentWindow;
      // A copy, as a worker gets: Zensical's search rewrites the query it is handed, which (shared)
      // emptied the dialog's own box and left its links an earlier query's.
      scope.dispatchEvent(new scope.MessageEvent("message", { data: structuredClone(data) }));
    }

    terminate() {
      this._frame.remove();
    }

    _emit(type, data) {
      // Asynchronous, like a real worker's messages.
      setTimeout(() => {
        const event = new MessageEvent(type, { data: structuredClone(data) });
        const handler = type === "message" ? this.onmessage : this.onerror;
        if (typeof handler === "function") handler.call(this, event);
        this.dispatchEvent(event);
      }, 0);
    }
  }

  window.Worker = FileWorker;
})();
