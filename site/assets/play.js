/*
 * Roadkit's Play page: a game against the computer in the browser. The engine runs in a Web Worker
 * (assets/play-worker.js) under Pyodide, loaded only here. The game is saved in the browser after
 * every move (localStorage) and resumes after a reload; once it is over, its seed and moves make a short
 * link that replays it (generators/play/links.py; not before: the seed tells the face-down orders). When more than one person plays on one device, the page hides the
 * table between their turns and asks for the device to be passed on, so no one sees another's hand.
 */
(function () {
  "use strict";
  var root = document.getElementById("rk-play");
  if (!root) return;
  // Seconds of think time a computer move (and a hint): about a second; `?think=` sets another.
  var THINK = Number(new URLSearchParams(location.search).get("think")) || 1.0;
  var game = root.dataset.game, store = "roadkit-play-" + game;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function say(text) { status.textContent = text.charAt(0).toUpperCase() + text.slice(1); } // a sentence's start

  var status = el("p", "rk-play-status", "Loading the game (the first time takes a while)…");
  status.setAttribute("role", "status");
  root.replaceChildren(status);

  if (location.protocol === "file:") {
    say("Playing needs the site served over HTTP: the game's rules run in a Web Worker, and browsers do " +
        "not start workers or load the files they need from a page opened as a file. Serve the site " +
        "(`make serve`, or any web server on the build/site folder) and open this page from there.");
    root.dataset.state = "file";
    return;
  }
  if ("serviceWorker" in navigator && root.dataset.sw) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope }).catch(function () {});
  }

  var worker = new Worker(root.dataset.worker);
  worker.onerror = function (e) { fail(new Error(e.message || "the game did not start")); };
  var calls = {}, next = 1;
  worker.onmessage = function (e) {
    var p = calls[e.data.id];
    delete calls[e.data.id];
    if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(JSON.parse(e.data.result));
  };
  function call(name, args, config) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      calls[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, call: name, args: args || [], config: config });
    });
  }

  // The page's parts, filled by show().
  var bar = el("div", "rk-play-bar");
  var board = el("div", "rk-play-board");
  var side = el("div", "rk-play-side");
  var seats = el("ul", "rk-play-seats"), figures = el("dl", "rk-play-figures"), panel = el("div", "rk-play-panel");
  var choices = el("div", "rk-play-choices"), hintBox = el("div", "rk-play-hint");
  var choosing = el("p", "rk-play-choosing"), notice = el("p", "rk-play-notice");
  var handover = el("div", "rk-play-handover");
  notice.setAttribute("role", "alert");
  notice.hidden = true; handover.hidden = true;
  var log = el("ol", "rk-play-log");
  // It scrolls: reachable from the keyboard, named for a screen reader (axe: scrollable-region-focusable).
  log.tabIndex = 0; log.setAttribute("aria-label", "What happened, first to last");
  choices.setAttribute("aria-label", "Your choices");
  log.setAttribute("aria-label", "What happened");
  var busy = false, view = null, settings = [];
  var onScreen = null; // the seat whose table the screen shows (hot seat: only after the device is passed)

  var setting = el("select", "rk-play-setting");
  setting.setAttribute("aria-label", "Setting");
  // Which seats people play (more than one: they pass the device between turns); the rest the computer.
  var seatPick = el("fieldset", "rk-play-seat");
  seatPick.appendChild(el("legend", null, "People play"));
  var seedBox = el("input", "rk-play-seed");
  seedBox.type = "number"; seedBox.min = "1"; seedBox.setAttribute("aria-label", "Seed");
  var newGame = el("button", "md-button", "New game"), undoBtn = el("button", "md-button", "Undo");
  var hintBtn = el("button", "md-button", "Hint"), link = el("a", "rk-play-link", "Link to replay this game");
  var seedLabel = el("label", "rk-play-seed-label", "Seed "); // the dice and shuffles: the same seed, the same game
  seedLabel.appendChild(seedBox);
  [setting, seatPick, seedLabel, newGame, undoBtn, hintBtn, link].forEach(function (x) { bar.appendChild(x); });
  var seatsHead = el("h2", null, "Seats");
  side.append(seatsHead, seats, el("h2", null, "Figures"), figures, panel);
  // The table: the drawing, then the choices (on a phone, right under it), the panel, the log.
  // Hidden whole while the device is passed between two people.
  var acts = el("section", "rk-play-acts"), happened = el("section", "rk-play-happened");
  var area = el("div", "rk-play-area");

  function enable() {
    root.dataset.busy = busy ? "1" : "0"; // for tests and assistive tools: the table is waiting
    undoBtn.disabled = busy || !view || !view.undo;
    hintBtn.disabled = busy || !view || !view.choices.length;
    Array.prototype.forEach.call(choices.querySelectorAll("button"), function (b) { b.disabled = busy; });
  }
  function setBusy(b, text) { busy = b; if (text) say(text); enable(); }

  function who(s) { return s.who + (s.who !== s.seat ? " (" + s.seat + ")" : ""); }
  function seatOf(v) { return v.seats.filter(function (s) { return s.seat === v.seat; })[0] || { seat: v.seat, who: v.seat }; }

  // Between two people's turns on one device: nothing of the last one's table stays on the page.
  function handOver(v) {
    [board, seats, figures, panel, choices, hintBox, log].forEach(function (x) { x.replaceChildren(); });
    choosing.textContent = "";
    area.hidden = true;
    var name = who(seatOf(v)), go = el("button", "md-button md-button--primary rk-play-show", "Show " + name + "’s table");
    handover.replaceChildren(el("h2", null, "Pass the device to " + name),
      el("p", null, "Everyone else, look away: the next screen shows " + name + "’s own cards."), go);
    handover.hidden = false;
    root.scrollIntoView({ block: "start" }); // the table is gone: what is left of the page starts here
    root.dataset.state = "handover";
    say(name + " to play: pass the device.");
    go.addEventListener("click", function () { onScreen = v.seat; show(v); root.scrollIntoView({ block: "start" }); });
    enable();
  }

  function show(v) {
    view = v;
    var saved = JSON.stringify(v.saved);
    try { localStorage.setItem(store, saved); } catch (err) { /* private mode: no save */ }
    // Only a finished game has a link: it holds the seed, which tells every face-down order.
    link.hidden = !v.link;
    if (v.link) link.href = location.pathname + "#g=" + v.link; else link.removeAttribute("href");
    // The game is saved now: a reload resumes it rather than the link it was opened from.
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    if (v.notice) { notice.textContent = v.notice; notice.hidden = false; }
    if (v.people > 1 && v.seat !== onScreen) { handOver(v); return; }
    handover.hidden = true; area.hidden = false;
    onScreen = v.seat;
    board.innerHTML = v.svg; // the engine's own drawing of the public position
    seats.replaceChildren();
    seatsHead.hidden = seats.hidden = seatPick.hidden = v.seats.length < 2; // one seat: nothing to tell apart
    v.seats.forEach(function (s) {
      var li = el("li", s.acting ? "rk-acting" : "", who(s) + (s.seat === v.seat ? ": you" : s.you ? ": a person" :
                  ": the computer") + (s.acting ? ", to act" : ""));
      seats.appendChild(li);
    });
    figures.replaceChildren();
    v.figures.forEach(function (f) {
      figures.append(el("dt", null, f.piece + " " + f.name), el("dd", null, String(f.value)));
    });
    panel.replaceChildren();
    v.panel.forEach(function (p) {
      var ul = el("ul");
      p.lines.forEach(function (l) { ul.appendChild(el("li", null, l)); });
      panel.append(el("h2", null, p.title), ul);
    });
    (v.cards || []).forEach(function (c) { // the printed text of each card named above
      var d = el("details", "rk-play-card");
      d.append(el("summary", null, c.name), el("p", null, c.text));
      panel.appendChild(d);
    });
    log.replaceChildren();
    v.log.forEach(function (e) {
      var li = el("li", "rk-by-" + e.by, e.said);
      if (e.then.length) {
        var ul = el("ul");
        e.then.forEach(function (t) { ul.appendChild(el("li", null, t)); });
        li.appendChild(ul);
      }
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
    choices.replaceChildren();
    hintBox.replaceChildren();
    choosing.textContent = (v.choosing || []).length ? "You chose: " + v.choosing.join("; ") + ". Now choose:" : "";
    v.choices.forEach(function (c) {
      var b = el("button", "md-button rk-choice", c.words);
      b.dataset.n = c.n;
      b.addEventListener("click", function () { act("choose", [c.n]); });
      choices.appendChild(b);
    });
    if (!seatPick.querySelector("input")) {
      v.seats.forEach(function (s) {
        var label = el("label"), box = el("input");
        box.type = "checkbox"; box.value = s.seat; box.checked = v.saved.humans.indexOf(s.seat) >= 0;
        label.append(box, " " + who(s));
        seatPick.appendChild(label);
      });
    }
    if (v.over) say("Game over: " + (v.won ? "you won. " : "you did not win. ") + (v.result || "") + " " + v.status);
    else say(v.phase ? v.phase + ". " + v.status : v.status);
    root.dataset.state = v.over ? "over" : v.computer_to_act ? "computer" : "you";
    enable();
    if (v.computer_to_act && !v.over) {
      setBusy(true, "The computer is thinking…");
      call("computer", [THINK]).then(function (w) { busy = false; show(w); }, fail);
    }
  }
  function fail(err) { busy = false; say("Something went wrong: " + err.message); root.dataset.state = "error"; enable(); }
  function act(name, args) {
    if (busy) return;
    setBusy(true);
    call(name, args).then(function (v) { busy = false; show(v); }, fail);
  }
  function start(request) {
    setBusy(true, "Setting up the table…");
    call("start", [request]).then(function (v) { busy = false; show(v); }, fail);
  }

  newGame.addEventListener("click", function () {
    var people = Array.prototype.map.call(seatPick.querySelectorAll("input:checked"), function (b) { return b.value; });
    notice.hidden = true; onScreen = null;
    start({ setting: setting.value, seed: Number(seedBox.value) || 1 + Math.floor(Math.random() * 1e6),
            humans: people });
  });
  undoBtn.addEventListener("click", function () { act("undo"); });
  hintBtn.addEventListener("click", function () {
    if (busy) return;
    setBusy(true, "The search player is looking at your choices…");
    call("hint", [THINK]).then(function (h) {
      busy = false;
      hintBox.replaceChildren(el("p", null, "In " + h.simulations + " simulations the search player tried:"));
      var ol = el("ol");
      h.moves.forEach(function (m) {
        ol.appendChild(el("li", null, m.words + ": tried in " + m.tried + ", won " +
                          (m.won === null ? "—" : m.won + " %") + " of those"));
      });
      hintBox.appendChild(ol);
      say(view.phase ? view.phase + ". " + view.status : view.status);
      enable();
    }, fail);
  });

  function initial() {
    var g = /[#&]g=([^&]*)/.exec(location.hash);
    if (g) return { link: g[1] }; // read by the worker (generators/play/links.py): a bad link gets a new game and a reason
    var m = /[#&]game=([^&]+)/.exec(location.hash); // an older, longer link: the saved game as JSON
    if (m) {
      try { var old = JSON.parse(decodeURIComponent(m[1])); if (old && typeof old === "object") return old; }
      catch (err) { /* below */ }
      return { link: "" }; // not a game: the worker says so and sets up a new one
    }
    var q = new URLSearchParams(location.search);
    if (q.get("example")) return { example: q.get("example") };
    try { var s = localStorage.getItem(store); if (s) return JSON.parse(s); } catch (err) { /* none */ }
    return { seed: 1 + Math.floor(Math.random() * 1e6) };
  }

  function here(rel) { return new URL(rel, location.href).href; } // the worker resolves against its own URL
  var config = { pyodide: here(root.dataset.pyodide), engineZip: here(root.dataset.engineZip),
                 content: here(root.dataset.content), examples: here(root.dataset.examples),
                 engine: root.dataset.engine };
  // What the page needs to play offline next time: itself, what it loaded, and its worker's files.
  function keepOffline() {
    if (!("serviceWorker" in navigator) || !root.dataset.sw) return;
    var same = function (u) { return u.indexOf(location.origin + "/") === 0; };
    var urls = [location.href.split("#")[0], here(root.dataset.worker), config.engineZip, config.content, config.examples]
      .concat(PYODIDE.map(function (f) { return config.pyodide + f; }))
      .concat(performance.getEntriesByType("resource").map(function (e) { return e.name; }).filter(same));
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ keep: urls });
    });
  }
  var PYODIDE = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

  call("boot", [], config).then(function (s) {
    keepOffline();
    settings = s.settings;
    settings.forEach(function (s) { var o = el("option", null, s.words); o.value = s.label; setting.appendChild(o); });
    acts.append(el("h2", null, "Your choices"), choosing, choices, hintBox);
    happened.append(el("h2", null, "What happened"), log);
    area.append(board, acts, side, happened);
    root.replaceChildren(status, notice, bar, handover, area);
    var first = initial();
    if (first.setting) setting.value = first.setting;
    start(first);
  }, fail);
})();
