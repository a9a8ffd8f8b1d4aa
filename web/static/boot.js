// The only JavaScript of our own: before Python is ready, say what is happening.
// (Everything about the game itself is Python: web/main.py starts it.)
(function () {
  "use strict";
  if (location.protocol === "file:") {
    document.documentElement.classList.add("from-file");
    document.addEventListener("DOMContentLoaded", function () {
      document.getElementById("file-note").hidden = false;
    });
  }
  var stages = {
    "Loading Pyodide": "loading Python",
    "Loading interpreter": "starting Python",
    "Loaded interpreter": "Python started",
    "Loading files": "loading the game",
    "Loaded files": "dealing"
  };
  window.addEventListener("py:progress", function (event) {
    var stage = document.getElementById("load-stage");
    var text = String(event.detail || "");
    if (stage) stage.textContent = stages[text] || text.toLowerCase();
  });
})();
