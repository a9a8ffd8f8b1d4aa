// Before the game is ready, say what is happening (the loader in index.html).
// (Everything about the game itself is Python: web/main.py starts it.)
(function () {
  "use strict";
  if (location.protocol === "file:") {
    document.documentElement.classList.add("from-file");
    document.addEventListener("DOMContentLoaded", function () {
      document.getElementById("file-note").hidden = false;
    });
  }
  // Which start (web/static/start.mjs runs it): from the memory snapshot when the site is in
  // the service worker's cache (a worker controls the page only once it has cached every
  // file), else — a first visit — the ordinary start on a small stdlib, 6 MB less to
  // download; the worker then fetches the snapshot in the background for the next visit.
  // ?start=snapshot|plain|whole overrides it (tests, measurements). Its big files are
  // preloaded from here, so they start with the page.
  var forced = /[?&]start=(snapshot|plain|whole)(&|$)/.exec(location.search);
  var plan = forced ? forced[1]
    : (navigator.serviceWorker && navigator.serviceWorker.controller ? "snapshot" : "plain");
  document.documentElement.dataset.startWith = plan;
  var preload = {
    snapshot: ["python_stdlib_start.zip"], // (start.mjs reads the snapshot from the cache)
    plain: ["python_stdlib_plain.zip.gz"],
    whole: ["python_stdlib.zip"]
  }[plan];
  preload = preload.map(function (name) { return "./pyodide/" + name; });
  // (Our zip, py/hearts.zip.gz: the snapshot start doesn't need it; the ordinary start asks
  // for it once the wasm is in, while Python starts, so it doesn't slow the downloads that
  // Python's start waits for.)
  for (var i = 0; i < preload.length; i++) {
    var link = document.createElement("link");
    link.rel = "preload";
    link.as = "fetch";
    link.crossOrigin = "anonymous";
    link.href = preload[i];
    document.head.appendChild(link);
  }
  // The loader: a bar driven by the bytes of the biggest download (the snapshot or the wasm,
  // reported by web/static/start.mjs) and the start's stages, in the players' words; a notice with a
  // "Try again" button when nothing moves for a while or a file of the start fails to load.
  var words = {
    "download": "fetching the cards",
    "restore": "setting up the table",
    "Loading Pyodide": "fetching the cards",
    "Loading interpreter": "fetching the cards",
    "Loaded interpreter": "setting up the table",
    "Loading files": "bringing the players in",
    "Loaded files": "dealing"
  };
  // Where each stage puts the bar (0..1); the download fills 0.05..0.8 by its bytes.
  var floor = {
    "Loading Pyodide": 0.02, "Loading interpreter": 0.05, "restore": 0.8,
    "Loaded interpreter": 0.85, "Loading files": 0.9, "Loaded files": 0.95
  };
  var STALL_MS = 15000;
  var shown = 0;
  var last = Date.now();
  var failed = false;

  function el(id) { return document.getElementById(id); }

  function show(fraction, stage) {
    last = Date.now();
    var text = el("load-stage");
    if (stage && text && words[stage]) text.textContent = words[stage];
    if (fraction > shown) {
      shown = Math.min(fraction, 1);
      var bar = el("load-bar");
      if (bar) {
        bar.style.setProperty("--done", String(shown));
        bar.setAttribute("aria-valuenow", String(Math.round(shown * 100)));
      }
    }
    var stall = el("load-stall");
    if (stall && !failed) stall.hidden = true;
  }

  function notice(text) {
    var stall = el("load-stall");
    if (!stall || document.documentElement.dataset.ready) return;
    el("load-stall-text").textContent = text;
    stall.hidden = false;
  }

  window.addEventListener("py:progress", function (event) {
    var stage = String(event.detail || "");
    show(floor[stage] || 0, stage);
  });
  window.addEventListener("hearts:progress", function (event) {
    var d = event.detail || {};
    if (d.stage === "download" && d.total > 0) {
      show(0.05 + 0.75 * Math.min(d.received / d.total, 1), "download");
    } else {
      show(floor[d.stage] || 0, d.stage);
    }
  });
  // A script, module or style of the start that fails to load (capture: they don't bubble).
  window.addEventListener("error", function (event) {
    var t = event.target;
    if (t && t !== window && (t.tagName === "SCRIPT"
        || (t.tagName === "LINK" && /stylesheet|preload/.test(t.rel)))) {
      failed = true;
      notice("The game didn't finish loading. Check your connection and try again.");
    }
  }, true);
  var timer = setInterval(function () {
    if (document.documentElement.dataset.ready) return clearInterval(timer);
    if (!failed && Date.now() - last > STALL_MS) {
      notice("This is taking longer than usual. Your connection may be slow.");
    }
  }, 1000);
  document.addEventListener("click", function (event) {
    if (event.target && event.target.id === "load-retry") location.reload();
  });
})();
