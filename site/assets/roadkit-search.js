/*
 * Roadkit: search results name their game, and on a game's pages they are limited to that game
 * unless the reader unticks "Only <game>" in the search panel.
 *
 * Material runs search in a Web Worker and renders whatever result message comes back. This
 * script (loaded before Material's bundle, after the file:// worker shim) wraps the Worker: each
 * result group gets its game's name as a tag, and groups of other games are dropped while the
 * scope is on. It also ranks each page by its best section rather than by its title: Material
 * lets a page whose title matches (a chapter called "Missions and scoring") outrank its own
 * sections and folds them out of sight, when the section is the answer. `window.RK_GAMES`
 * (roadkit-games.js, generated) says which top-level folder is which game. A game's pages carry
 * that game's index alone; the whole site's is loaded when the reader unticks the switch.
 */
(function () {
  "use strict";
  var Base = window.Worker;
  if (typeof Base !== "function") return;
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;  // Material's SearchMessageType
  var ALL_KEY = "rk-search-all";
  var state = { worker: null, last: null, page: undefined, pending: [], answered: null,
                setup: null, wide: false, swallow: 0 };

  function games() { return window.RK_GAMES || {}; }

  // The site's top: this project's base (Material's config) and, from a game's project, one up.
  function root() {
    var base = ".";
    var el = document.getElementById("__config");
    try { base = JSON.parse(el.textContent).base || "."; } catch (e) { /* keep "." */ }
    return new URL(base.replace(/\/?$/, "/") + (window.RK_ROOT || ""), location.href).href;
  }

  // Index locations are relative to this project's base; the game is the first folder under the top.
  function projectBase() {
    var base = ".";
    var el = document.getElementById("__config");
    try { base = JSON.parse(el.textContent).base || "."; } catch (e) { /* keep "." */ }
    return new URL(base.replace(/\/?$/, "/"), location.href).href;
  }

  // The game a site path ("mission-drive/rules/turn.html#ramming") belongs to, or null.
  function gameOfPath(path) {
    var first = String(path).split(/[/#?]/)[0].replace(/\.html$/, "");
    return Object.prototype.hasOwnProperty.call(games(), first) ? first : null;
  }

  // ... and of a search index location (relative to this project's base).
  function gameOfLocation(loc) {
    var url = new URL(String(loc), projectBase()).href, top = root();
    return url.indexOf(top) === 0 ? gameOfPath(url.slice(top.length)) : null;
  }

  // The language of a site path: a game's translation folder ("dronovody/uk/...") or English.
  function langOfPath(path) {
    var parts = String(path).split(/[#?]/)[0].split("/"), game = gameOfPath(parts[0]);
    var langs = (game && games()[game].languages) || [];
    return parts.length > 2 && langs.indexOf(parts[1]) >= 0 ? parts[1] : "en";
  }

  function langOfLocation(loc) {
    var url = new URL(String(loc), projectBase()).href, top = root();
    return url.indexOf(top) === 0 ? langOfPath(url.slice(top.length)) : "en";
  }

  function pageLang() {
    var base = root();
    return location.href.indexOf(base) === 0 ? langOfPath(location.href.slice(base.length)) : "en";
  }

  function pageGame() {
    if (state.page === undefined) {
      var base = root();
      state.page = location.href.indexOf(base) === 0 ? gameOfPath(location.href.slice(base.length)) : null;
    }
    return state.page;
  }

  function scopeOn() {
    try { if (sessionStorage.getItem(ALL_KEY) === "1") return false; } catch (e) { /* storage off */ }
    return true;
  }

  function escapeHtml(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  // Material searches every word as a prefix ("moves*"), and a prefix is neither stemmed nor
  // dropped as a stop word: "moves" never found the stemmed "move" of "Move the boss", and the
  // "who" of "who goes first" found "whoever". Question words are left out, and each other plain
  // word is also sent as a whole word ("moves^1"), which the index stems like its own text.
  // The same for Ukrainian (Дроноводи's Ukrainian pages): a one- or two-letter word searched as a
  // prefix ("з", "на") matches half the words of every page. Any other word of one or two letters
  // (a rule number's code, "ДР 5.4") is sent as a whole word alone: as a prefix "ДР" found every
  // "дрон…" of the Ukrainian pages before the rule it names.
  var QUESTION_WORDS = ("a an and are at can do does for how i if in is it my of on or the to " +
    "what when where which who why will with " +
    "а в де до з за зі із і й коли ми мій на нас ну о по та у хто чи що як яка який які").split(" ");
  function expand(query) {
    if (typeof query !== "string" || /["+\-~^:*]/.test(query)) return query;
    var words = query.trim().split(/\s+/).filter(Boolean);
    var kept = words.filter(function (w) { return QUESTION_WORDS.indexOf(w.toLowerCase()) < 0; });
    if (!kept.length) return query;
    function short(w) { return /^[\p{L}\p{N}]{1,2}$/u.test(w); }
    return kept.filter(function (w) { return !short(w); })
      .concat(kept.filter(function (w) { return short(w) || /^[\w.]+$/.test(w); })
        .map(function (w) { return w + "^1"; })).join(" ");
  }

  function isSection(doc) { return String(doc.location).indexOf("#") >= 0; }

  function better(a, b) { return b.score - a.score; }

  // Pages in the reader's language first (a rule number, "ДР 5.4", is the same in Дроноводи's English
  // and Ukrainian pages: the reader wants the one they read), then sections first, best first; the
  // page itself last and never above its best section. Material
  // shows the sections that tie with a group's first item and folds the rest: the sections that
  // come close to the best (up to SHOWN of them) are shown beside it.
  var SHOWN = 3, CLOSE = 0.5;
  function rerank(groups) {
    var lang = pageLang();
    return groups.map(function (group, i) {
      var foreign = langOfLocation(group[0].location) === lang ? 0 : 1;
      var sections = group.filter(isSection).sort(better);
      var pages = group.filter(function (d) { return !isSection(d); });
      var top = sections.length && sections[0].score > 0 ? sections[0] : (pages[0] || { score: 0 });
      var best = top.score;
      if (sections.length && sections[0].score > 0) {
        sections.slice(1).forEach(function (d, j) {
          var shown = j + 1 < SHOWN && d.score >= best * CLOSE;
          d.score = shown ? best : Math.min(d.score, best * 0.99);
        });
        pages.forEach(function (d) { if (d.score > best) d.score = best; });
      }
      return { foreign: foreign, best: best, order: i, group: sections.concat(pages) };
    }).sort(function (a, b) {
      return a.foreign - b.foreign || b.best - a.best || a.order - b.order;
    })
      .map(function (r) { return r.group; });
  }

  function rewrite(data) {
    if (!data || data.type !== RESULT || !data.data || !Array.isArray(data.data.items)) return data;
    var only = scopeOn() ? pageGame() : null;
    var items = [];
    data.data.items.forEach(function (group) {
      if (!group || !group.length) return;
      var game = gameOfLocation(group[0].location);
      if (only && game !== only) return;
      if (game) {
        // Material writes tags as HTML: the name goes in escaped.
        var label = escapeHtml(games()[game].name);
        group.forEach(function (doc) { if (String(doc.location).indexOf("#") < 0) doc.tags = [label]; });
      }
      items.push(group);
    });
    var out = {};
    Object.keys(data.data).forEach(function (k) { out[k] = data.data[k]; });
    out.items = rerank(items);
    return { type: data.type, data: out };
  }

  // A game's pages load the index of that game alone (a quarter of the whole site's). When the
  // reader asks for every game, the hub's index (every game's pages) is loaded as Material loads
  // its own (JSON over http, the script beside it from file://) and handed to the worker in its
  // place, its locations made relative to this game's folder.
  function loadHubIndex(done) {
    var url = root() + "search/search_index.";
    if (location.protocol !== "file:") {
      fetch(url + "json").then(function (r) { return r.json(); }).then(done, function () { /* kept narrow */ });
      return;
    }
    var script = document.createElement("script");
    script.src = url + "js";
    script.onload = function () { if (window.__index) done(window.__index); };
    document.head.appendChild(script);
  }

  function widen() {
    if (state.wide || !state.setup || !pageGame()) return;
    state.wide = true;
    loadHubIndex(function (index) {
      var up = window.RK_ROOT || "";
      var docs = (Array.isArray(index.docs) ? index.docs : []).map(function (doc) {
        var out = {};
        Object.keys(doc).forEach(function (k) { out[k] = doc[k]; });
        out.location = up + doc.location;
        return out;
      });
      var data = {};
      Object.keys(state.setup).forEach(function (k) { data[k] = state.setup[k]; });
      data.config = index.config || state.setup.config;
      data.docs = docs;
      state.swallow += 1;  // Material set up once: this READY is ours (the last query is run again)
      state.worker.postMessage({ type: SETUP, data: data });
    });
  }

  function Scoped(url, options) {
    var worker = new Base(url, options);
    state.worker = worker;
    var add = worker.addEventListener.bind(worker);
    // Results come back in the order queries went out: note which query was just answered.
    add("message", function (ev) {
      if (ev.data && ev.data.type === RESULT) state.answered = state.pending.shift();
      if (ev.data && ev.data.type === READY && state.swallow > 0) {
        state.swallow -= 1;
        ev.rkOwn = true;
        if (state.last !== null) worker.postMessage({ type: QUERY, data: state.last });
      }
    });
    worker.addEventListener = function (type, fn, opts) {
      if (type !== "message") return add(type, fn, opts);
      return add(type, function (ev) {
        if (ev.rkOwn) return;
        var data = rewrite(ev.data);
        fn(data === ev.data ? ev : { type: "message", data: data, target: worker });
      }, opts);
    };
    var post = worker.postMessage.bind(worker);
    worker.postMessage = function (message) {
      var first = message && message.type === SETUP && !state.setup;
      if (first) state.setup = message.data;
      if (message && message.type === QUERY) {
        state.last = message.data;
        state.pending.push(message.data);
        message = { type: QUERY, data: expand(message.data) };
      }
      var sent = post(message);
      if (first && !scopeOn()) widen();
      return sent;
    };
    return worker;
  }
  window.Worker = Scoped;

  // For the scope switch (roadkit.js): the current game, and re-running the last query.
  window.RK_SEARCH = {
    pageGame: pageGame,
    scopeOn: scopeOn,
    answered: function () { return state.answered; },
    setScope: function (on) {
      try { if (on) sessionStorage.removeItem(ALL_KEY); else sessionStorage.setItem(ALL_KEY, "1"); } catch (e) { /* */ }
      if (!on && !state.wide && state.setup) { widen(); return; }  // the query runs again once it is loaded
      if (state.worker && state.last) state.worker.postMessage({ type: QUERY, data: state.last });
    }
  };
})();
