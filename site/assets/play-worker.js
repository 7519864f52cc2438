/*
 * Roadkit's Play page worker: Pyodide (served by the site itself) runs the game's engine here, off
 * the page's thread, so the page stays responsive while the computer thinks. The page sends calls;
 * the worker answers with what the table view gives a person's seat, nothing more.
 */
/* global importScripts, loadPyodide */
"use strict";

var ready = null;

function boot(config) {
  try {
    importScripts(config.pyodide + "pyodide.js");
  } catch (err) {
    return Promise.reject(new Error("Pyodide did not load from " + config.pyodide));
  }
  return loadPyodide({ indexURL: config.pyodide }).then(function (py) {
    return Promise.all([
      fetch(config.engineZip).then(function (r) {
        if (!r.ok) throw new Error("the game's code did not load (" + r.status + ")");
        return r.arrayBuffer();
      }),
      fetch(config.content).then(function (r) {
        if (!r.ok) throw new Error("the game's content did not load (" + r.status + ")");
        return r.text();
      }),
      fetch(config.examples).then(function (r) { return r.ok ? r.text() : "{}"; })
    ]).then(function (got) {
      py.unpackArchive(got[0], "zip", { extractDir: "/home/pyodide/roadkit" });
      py.runPython("import sys; sys.path.insert(0, '/home/pyodide/roadkit')");
      return { api: py.pyimport("generators.play.browser"), content: got[1], examples: got[2],
               engine: config.engine };
    });
  });
}

self.onmessage = function (event) {
  var msg = event.data;
  if (msg.call === "boot") {
    ready = boot(msg.config);
  }
  ready.then(function (rk) {
    var api = rk.api, args = msg.args || [];
    var out;
    if (msg.call === "boot") out = api.settings(rk.engine, rk.content);
    else if (msg.call === "start") out = api.start(rk.engine, rk.content, rk.examples, JSON.stringify(args[0]));
    else if (msg.call === "choose") out = api.choose(args[0]);
    else if (msg.call === "computer") out = api.computer(args[0]);
    else if (msg.call === "hint") out = api.hint(args[0]);
    else if (msg.call === "undo") out = api.undo();
    else throw new Error("no call " + msg.call);
    self.postMessage({ id: msg.id, result: out });
  }).catch(function (err) {
    self.postMessage({ id: msg.id, error: String(err && err.message || err) });
  });
};
