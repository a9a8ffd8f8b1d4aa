// Before the game is ready: say what is happening (the loader in index.html) and, on a
// repeat visit, paint the table as it was last drawn (see "The table at once" below).
// (Everything about the game itself is Python: web/main.py starts it.)
// @ts-check
(function () {
  "use strict";
  // Every sentence of the page lives in web/words.py, but these are shown before Python is
  // up (or when it never gets going): they can't come from there, so they are here, in one
  // place. (The loader's first words, "Shuffling… fetching the cards", are in index.html.)
  /** @type {{stages: Record<string, string>, failed: string, slow: string, waiting: string}} */
  var WORDS = {
    stages: {
      "download": "fetching the cards",
      "restore": "setting up the table",
      "Loading Pyodide": "fetching the cards",
      "Loading interpreter": "fetching the cards",
      "Loaded interpreter": "setting up the table",
      "Loading files": "bringing the players in",
      "Loaded files": "dealing"
    },
    failed: "The game didn't finish loading. Check your connection and try again.",
    slow: "This is taking longer than usual. Your connection may be slow.",
    waiting: "Getting the cards ready…" // over the prompt of a painted table
  };
  if (location.protocol === "file:") {
    document.documentElement.classList.add("from-file");
    document.addEventListener("DOMContentLoaded", function () {
      the("file-note").hidden = false;
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
  /** @type {Record<string, string[]>} */
  // A first visit's come packed with brotli, and its decoder first (tools/site/brotli.py).
  var preloads = {
    snapshot: ["python_stdlib_start.zip", "pyodide.asm.wasm"], // (the snapshot: from the cache)
    plain: ["../static/brotli/brotli_dec_wasm_bg.wasm", "python_stdlib_plain.zip.br",
      "pyodide.asm.wasm.br"],
    whole: ["python_stdlib.zip", "pyodide.asm.wasm"]
  };
  var preload = preloads[plan];
  preload = preload.map(function (name) { return "./pyodide/" + name; });
  if (plan === "plain") {
    var decoder = document.createElement("link");
    decoder.rel = "modulepreload";
    decoder.href = "./static/brotli/brotli_dec_wasm.js";
    document.head.appendChild(decoder);
  }
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
  var words = WORDS.stages;
  // Where each stage puts the bar (0..1); the download fills 0.05..0.8 by its bytes.
  /** @type {Record<string, number>} */
  var floor = {
    "Loading Pyodide": 0.02, "Loading interpreter": 0.05, "restore": 0.8,
    "Loaded interpreter": 0.85, "Loading files": 0.9, "Loaded files": 0.95
  };
  var STALL_MS = 15000;
  var shown = 0;
  var last = Date.now();
  var failed = false;

  /** @param {string} id */
  function el(id) { return document.getElementById(id); }

  /** An element the page always has (a missing one throws here, not further on).
   * @template {Node} T @param {T | null} node @returns {T} */
  function found(node) {
    if (node === null) throw new Error("a part of the page is missing");
    return node;
  }

  /** @param {string} id */
  function the(id) { return found(el(id)); }

  /** @param {number} fraction @param {string} [stage] */
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

  /** @param {string} text */
  function notice(text) {
    var stall = el("load-stall");
    if (!stall || document.documentElement.dataset.ready) return;
    the("load-stall-text").textContent = text;
    stall.hidden = false;
  }

  // (PyScript's and web/static/start.mjs's CustomEvents)
  window.addEventListener("py:progress", function (event) {
    var stage = String(/** @type {CustomEvent} */ (event).detail || "");
    show(floor[stage] || 0, stage);
  });
  window.addEventListener("hearts:progress", function (event) {
    /** @type {{stage?: string, received?: number, total?: number}} */
    var d = /** @type {CustomEvent} */ (event).detail || {};
    if (d.stage === "download" && d.total && d.total > 0) {
      show(0.05 + 0.75 * Math.min((d.received || 0) / d.total, 1), "download");
    } else {
      show(floor[d.stage || ""] || 0, d.stage);
    }
  });
  // A script, module or style of the start that fails to load (capture: they don't bubble).
  window.addEventListener("error", function (event) {
    var t = event.target;
    if (t instanceof HTMLScriptElement
        || (t instanceof HTMLLinkElement && /stylesheet|preload/.test(t.rel))) {
      failed = true;
      notice(WORDS.failed);
    }
  }, true);
  var timer = setInterval(function () {
    if (document.documentElement.dataset.ready) return clearInterval(timer);
    if (!failed && Date.now() - last > STALL_MS) {
      notice(WORDS.slow);
    }
  }, 1000);
  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.id === "load-retry") location.reload();
  });

  // --- The table at once --------------------------------------------------------------
  // After every draw, web/table/view.py calls heartsKeepTable(state, local): a copy of the
  // felt (#table's HTML) and of the stats line goes to localStorage with the build's version
  // (<meta name="hearts-version">), written once the page is idle and on the way out. At
  // the next start, the inline script after #table in index.html calls heartsPaint(): the
  // copy is painted before anything below it is laid out (<html data-painted>), all of it
  // inert but the hand, "Getting the cards ready…" over the prompt, which keeps its box. A
  // tap on a card of the painted hand, while passing or on your turn, is kept and shows at
  // once (see "Taps on the painted table" below); Python carries it out once it is up.
  // Python's first draw updates those same elements in place (it finds them by id, the
  // cards by data-card), so nothing moves; data-ready ends the paint. A copy of another
  // version, unreadable, of a finished game or a table of friends, or not matching this
  // page's table, is deleted, and the ordinary loader shows.
  var FELT_KEY = "hearts.felt";
  /** @type {Record<string, boolean>} */
  var KEPT = { pass: true, play: true, wait: true, moon: true, summary: true };
  // What a copy may not hold (it is parsed as HTML: nothing in it may run or load).
  var UNSAFE = "script,style,link,meta,base,iframe,frame,object,embed,img,image,video,audio,"
    + "source,svg,math,form,input,textarea,select,template,a";
  var keepPending = false;
  var root = document.documentElement;

  function version() {
    var meta = document.querySelector('meta[name="hearts-version"]');
    return meta instanceof HTMLMetaElement ? meta.content : "";
  }

  function forgetFelt() {
    try { localStorage.removeItem(FELT_KEY); } catch (error) { /* no storage: nothing kept */ }
  }

  function writeFelt() {
    if (!keepPending) return;
    keepPending = false;
    var table = el("table"), stats = el("stats");
    if (root.dataset.ready !== "true" || root.dataset.painted || !KEPT[root.dataset.state || ""]
        || !table || !stats) return;
    var copy = {
      version: version(), state: root.dataset.state, table: table.innerHTML,
      stats: stats.innerHTML, people: table.getAttribute("data-people") || "",
      fourColour: root.classList.contains("four-colour")
    };
    try {
      localStorage.setItem(FELT_KEY, JSON.stringify(copy));
    } catch (error) { // storage full or refused: the game's own save comes first
      forgetFelt();
    }
  }

  window.heartsKeepTable = function (state, local) {
    state = String(state);
    if (state === "loading") return; // (Python's draws before the game is ready)
    if (!local || !KEPT[state]) {
      keepPending = false;
      forgetFelt();
      return;
    }
    if (keepPending) return;
    keepPending = true;
    if (window.requestIdleCallback) window.requestIdleCallback(writeFelt, { timeout: 1000 });
    else setTimeout(writeFelt, 200);
  };
  window.addEventListener("pagehide", writeFelt);

  // The saved HTML as nodes, if it is a copy of `live`: the same ids, each once, and
  // nothing that could run or load.
  /** @param {string} html @param {Element} live @returns {DocumentFragment | null} */
  function parsed(html, live) {
    var box = document.createElement("template");
    box.innerHTML = html;
    var nodes = box.content;
    if (nodes.querySelector(UNSAFE)) return null;
    var all = nodes.querySelectorAll("*");
    for (var i = 0; i < all.length; i++) {
      for (var j = 0; j < all[i].attributes.length; j++) {
        var name = all[i].attributes[j].name;
        if (/^on|^(href|src|srcset|action|formaction|style)$/i.test(name)
            && !(name === "style"
                 && /^(--[a-z]+: ?[0-9.]+;? ?)+$/.test(all[i].getAttribute(name) || ""))) {
          return null;
        }
      }
    }
    var ids = function (/** @type {ParentNode} */ where) {
      return Array.from(where.querySelectorAll("[id]"), function (node) {
        return node.id;
      }).sort().join(" ");
    };
    return ids(nodes) === ids(live) ? nodes : null;
  }

  /** @param {string} text */
  function paint(text) {
    var copy;
    try { copy = JSON.parse(text); } catch (error) { return false; }
    if (!copy || typeof copy !== "object" || copy.version !== version() || !KEPT[copy.state]
        || typeof copy.table !== "string" || typeof copy.stats !== "string") return false;
    var table = el("table"), stats = el("stats"), loader = el("loader");
    if (!table || !stats || !loader) return false;
    var felt = parsed(copy.table, table), line = parsed(copy.stats, stats);
    if (!felt || !line) return false;
    found(felt.getElementById("loader")).replaceWith(loader); // the live one, as the page has it
    found(felt.getElementById("alert")).textContent = ""; // (said once, not again at every start)
    found(felt.getElementById("event")).textContent = "";
    table.replaceChildren(felt);
    stats.replaceChildren(line);
    if (typeof copy.people === "string" && /^[0-9]+$/.test(copy.people)) {
      table.setAttribute("data-people", copy.people);
    }
    root.classList.toggle("four-colour", copy.fourColour === true);
    the("prompt").setAttribute("data-wait", WORDS.waiting);
    for (var k = 0; k < table.children.length; k++) {
      var part = table.children[k];
      if (part instanceof HTMLElement && part.id !== "hand") part.inert = true;
    }
    paintedState = copy.state;
    the("hand").addEventListener("click", keepTap, true);
    performance.mark("hearts:taps-kept"); // (from now on a tap counts: tools/bench_start.py)
    root.dataset.painted = "true";
    return true;
  }

  // --- Taps on the painted table -------------------------------------------------------
  // Until Python is up, a tap (a click, or Enter/Space on a focused card) on a card of the
  // painted hand is kept, in order, when the painted table waits for you: while passing,
  // each tap chooses a card or takes it back (raised at once, as Python would show it, up
  // to three); on your turn, the first playable card tapped is taken (raised at once; a
  // dimmed card tapped before it is kept too, so that Python says why it can't be played).
  // Python takes the taps once its table is drawn (window.heartsTakeTaps, web/main.py) and
  // makes each as if it came now: one no longer legal is refused with its reason, as any
  // tap is. Any other tap on the painted table does nothing. Once Python has taken them,
  // every tap is Python's: one the browser held while Python was busy lands on the live
  // table, which shows the same cards in the same places.
  /** @type {string[]} */
  var taps = [];
  var paintedState = "";
  var tapsTaken = false;

  /** @param {Event} event */
  function keepTap(event) {
    if (tapsTaken) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var target = event.target instanceof Element ? event.target.closest("[data-card]") : null;
    var card = target && target.getAttribute("data-card");
    if (!target || !card) return;
    if (paintedState === "pass") {
      var chosen = target.classList.contains("selected");
      if (chosen || document.querySelectorAll("#hand .card.selected").length < 3) {
        target.classList.toggle("selected", !chosen);
      }
      taps.push(card); // (a fourth: Python says to take one back first)
    } else if (paintedState === "play" && !document.querySelector("#hand .card.kept")) {
      if (target.getAttribute("aria-disabled") !== "true") {
        target.classList.add("selected", "kept");
      }
      taps.push(card);
    }
  }

  // Python's first call once its table is drawn: the taps kept, in order (each a card's
  // notation); from then on taps are Python's.
  window.heartsTakeTaps = function () {
    tapsTaken = true;
    var hand = el("hand");
    if (hand) hand.removeEventListener("click", keepTap, true);
    var kept = taps;
    taps = [];
    return kept;
  };

  // The game is ready: the table is Python's now, and takes taps at once.
  function unpaint() {
    delete root.dataset.painted;
    var prompt = el("prompt"), table = el("table");
    if (prompt) prompt.removeAttribute("data-wait");
    if (!table) return;
    for (var k = 0; k < table.children.length; k++) {
      var part = table.children[k];
      if (part instanceof HTMLElement) part.inert = false;
    }
  }

  window.heartsPaint = function () {
    window.heartsPaint = undefined; // (once)
    if (location.protocol === "file:" || root.dataset.ready) return;
    var text = null;
    try { text = localStorage.getItem(FELT_KEY); } catch (error) { return; }
    if (text === null) return;
    var painted = false;
    try { painted = paint(text); } catch (error) { painted = false; }
    if (!painted) {
      forgetFelt();
      return;
    }
    new MutationObserver(function (changes, observer) {
      if (root.dataset.ready === "true") {
        observer.disconnect();
        unpaint();
      }
    }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
  };
})();
