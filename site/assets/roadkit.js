/*
 * Roadkit: the "Only <game>" switch in the search panel, and diagrams that open full screen.
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

  scopeSwitch();
  lightbox();
})();
