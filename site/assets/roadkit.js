/*
 * Roadkit: the "Only <game>" switch in the search panel, diagrams that open full screen, and names
 * for what Material leaves unnamed.
 * Without JavaScript the site still works: search covers every game and a diagram's link opens
 * the drawing on its own.
 */
(function () {
  "use strict";

  function scopeSwitch() {
    var api = window.RK_SEARCH, games = window.RK_GAMES || {};
    var game = api && api.pageGame();
    var wrap = document.querySelector(".md-search__scrollwrap");
    if (!game || !wrap || !games[game]) return;
    var label = document.createElement("label");
    label.className = "rk-scope";
    var box = document.createElement("input");
    box.type = "checkbox";
    box.checked = api.scopeOn();
    box.addEventListener("change", function () { api.setScope(box.checked); });
    var text = document.createElement("span");
    text.textContent = "Only " + games[game].name;
    label.appendChild(box);
    label.appendChild(text);
    wrap.insertBefore(label, wrap.firstChild);
  }

  function lightbox() {
    var dialog = null;
    document.addEventListener("click", function (ev) {
      var link = ev.target.closest && ev.target.closest("a.rk-zoom");
      if (!link || typeof HTMLDialogElement !== "function") return;
      ev.preventDefault();
      if (!dialog) {
        dialog = document.createElement("dialog");
        dialog.className = "rk-lightbox";
        dialog.setAttribute("aria-label", "Diagram");
        dialog.addEventListener("click", function () { dialog.close(); });
        document.body.appendChild(dialog);
      }
      var source = link.querySelector("img");
      var img = document.createElement("img");
      img.src = link.href;
      img.alt = source ? source.alt : "";
      var width = source ? Number(source.getAttribute("width")) || 0 : 0;
      img.style.width = Math.max(width * 1.5, Math.min(window.innerWidth, window.innerHeight)) + "px";
      var hint = document.createElement("p");
      hint.textContent = (source ? source.alt + " " : "") + "(tap to close)";
      dialog.replaceChildren(img, hint);
      dialog.showModal();
    });
  }

  // Ukrainian words (Дроноводи and the names its cards print) are read as Ukrainian by screen
  // readers: each run of Cyrillic text on the page is marked lang="uk".
  var CYRILLIC = /[\u0400-\u04FF]/;
  var RUN = /[\u0400-\u04FF](?:[\u0400-\u04FF'’ʼ-]| (?=[\u0400-\u04FF]))*/g;
  function markUkrainian() {
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        var el = n.parentElement;
        return CYRILLIC.test(n.nodeValue) && el && !el.closest("script, style, textarea, [lang]:not(html)")
          ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue, frag = document.createDocumentFragment(), at = 0, m;
      RUN.lastIndex = 0;
      while ((m = RUN.exec(text))) {
        if (m.index > at) frag.appendChild(document.createTextNode(text.slice(at, m.index)));
        var span = document.createElement("span");
        span.lang = "uk";
        span.textContent = m[0];
        frag.appendChild(span);
        at = m.index + m[0].length;
      }
      if (at < text.length) frag.appendChild(document.createTextNode(text.slice(at)));
      node.parentNode.replaceChild(frag, node);
    });
  }

  // Material's search panel is a dialog without a name, and its footer links carry a label with
  // apostrophes escaped twice. The label is rebuilt from the link's own words ("Previous: Setup"),
  // never removed: on a phone the words are hidden and the label is the link's only name.
  function names() {
    var search = document.querySelector(".md-search[role='dialog']");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-footer__link").forEach(function (a) {
      var way = a.querySelector(".md-footer__direction"), title = a.querySelector(".md-ellipsis");
      if (!way || !title) return;
      a.setAttribute("aria-label", way.textContent.trim() + ": " + title.textContent.trim());
    });
  }

  names();
  scopeSwitch();
  lightbox();
  markUkrainian();
})();
