// Offline and updates: registers the service worker (./sw.js, made by tools/site/offline.py)
// once the table is ready, so its downloads don't compete with the game's start, and says
// "Update ready — reload" when a new version has taken over while this page was open.
// The game is saved after every move (and on the way out), so reloading loses nothing.
// @ts-check
(function () {
  "use strict";
  var sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext || location.protocol === "file:") return;

  var hadController = Boolean(sw.controller);
  sw.addEventListener("controllerchange", function () {
    // The first visit's worker claiming the page is not an update; any later one is.
    if (hadController) showUpdate();
    hadController = true;
  });

  function showUpdate() {
    if (document.getElementById("update-notice")) return;
    var note = document.createElement("p");
    note.id = "update-notice";
    note.className = "notice update-notice";
    note.setAttribute("role", "status");
    note.appendChild(document.createTextNode("Update ready — "));
    var button = document.createElement("button");
    button.type = "button";
    button.id = "update-reload";
    button.textContent = "reload";
    button.addEventListener("click", function () { location.reload(); });
    note.appendChild(button);
    var main = document.querySelector("main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  var registered = false;
  function register() {
    if (registered) return;
    registered = true;
    sw.register("./sw.js", { scope: "./", updateViaCache: "none" }).then(function (reg) {
      // A page left open on a phone for days: look for a new version when it comes back.
      document.addEventListener("visibilitychange", function () {
        if (reg && document.visibilityState === "visible") reg.update().catch(function () {});
      });
    }).catch(function (error) {
      console.warn("Hearts: no offline support:", error);
    });
  }

  var root = document.documentElement;
  if (root.dataset.ready === "true") {
    register();
  } else {
    new MutationObserver(function (changes, observer) {
      if (root.dataset.ready === "true") {
        observer.disconnect();
        register();
      }
    }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
    // If Python never gets going, still make the page (its rules, at least) work offline.
    window.addEventListener("load", function () { setTimeout(register, 20000); });
  }
})();
