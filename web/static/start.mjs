// PyScript's `interpreter` module (see index.html's config): Pyodide started from the memory
// snapshot made at build time (tools/site/build_runtime.mjs), or the ordinary way if that fails.
//
// PyScript imports this module, reads `version` and calls `loadPyodide(options)`. As soon as
// this module runs, it downloads the gzipped snapshot, unpacks it with DecompressionStream and
// starts Pyodide from it (`_loadSnapshot`); PyScript's call gets that interpreter, with its
// own output handlers connected. A snapshot that is missing, damaged or from another Pyodide
// build makes that start throw; then Python starts the ordinary way (slower, same game). The
// snapshot start uses a small precompiled stdlib (python_stdlib_start.zip: what may be
// imported after the restore; a module missing from it makes Python fetch the whole
// python_stdlib.zip, with a console warning); the ordinary start uses the whole precompiled
// stdlib. <html data-start> says which start ran.

import * as pyodide from "../pyodide/pyodide.mjs";

export const version = pyodide.version;

const INDEX_URL = new URL("../pyodide/", import.meta.url).href;
const SNAPSHOT_URL = new URL("../pyodide/snapshot.bin.gz", import.meta.url).href;
const START_STDLIB_URL = new URL("../pyodide/python_stdlib_start.zip", import.meta.url).href;
const WHOLE_STDLIB_URL = new URL("../pyodide/python_stdlib.zip", import.meta.url).href;

// After a restore, Python's state is the one frozen at build time: reseed `random` (every page
// would otherwise draw the same numbers) and forget cached directory listings. Then check the
// engine is there: a restore that "worked" into a broken interpreter must not start the game.
const AFTER_RESTORE = `
import importlib, random, sys
random.seed()
for finder in sys.meta_path:
    if type(finder).__name__ == "WholeStdlib":
        finder.url = ${JSON.stringify(WHOLE_STDLIB_URL)}
importlib.invalidate_caches()
import hearts
hearts.Game.new(1)
`;

// The loader's bar (web/static/boot.js) follows the bytes of the snapshot, the biggest
// download, and the stages of the start.
function progress(detail) {
  if (typeof window !== "undefined") {
    window.dispatchEvent(new CustomEvent("hearts:progress", { detail }));
  }
}

async function fetchSnapshot() {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  const response = await fetch(SNAPSHOT_URL);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${SNAPSHOT_URL}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    progress({ stage: "download", received, total });
  }
  progress({ stage: "restore" });
  const blob = new Blob(chunks);
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  if (head[0] !== 0x1f || head[1] !== 0x8b) return new Uint8Array(await blob.arrayBuffer());
  const stream = blob.stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// Start Python from the snapshot at once: index.html loads this module before PyScript's, so
// the snapshot download, the wasm compile and the restore overlap PyScript setting itself up
// (~0.8 s of JavaScript here); PyScript's loadPyodide call then picks up the result.
const early = fromSnapshot();
early.catch(() => {}); // handled in loadPyodide; not an unhandled rejection meanwhile
let used = false;

function started(kind) {
  if (typeof document === "undefined") return;
  document.documentElement.dataset.start = kind;
  performance.mark(`hearts:start-${kind}`);
}

async function fromSnapshot() {
  performance.mark("hearts:interpreter-start");
  const snapshot = fetchSnapshot();
  snapshot.catch(() => {}); // (Pyodide awaits it a little later)
  const py = await pyodide.loadPyodide({
    indexURL: INDEX_URL,
    stdLibURL: START_STDLIB_URL,
    _loadSnapshot: snapshot,
    // (nothing prints before PyScript connects its own output below)
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  const scope = py.toPy({});
  try {
    py.runPython(AFTER_RESTORE, { globals: scope });
  } finally {
    scope.destroy();
  }
  performance.mark("hearts:interpreter-end");
  return py;
}

export async function loadPyodide(options = {}) {
  if (!used) {
    used = true;
    try {
      const py = await early;
      if (options.stdout) py.setStdout({ batched: options.stdout });
      if (options.stderr) py.setStderr({ batched: options.stderr });
      started("snapshot");
      return py;
    } catch (error) {
      console.warn("Hearts: starting Python without the snapshot:", error);
    }
  }
  performance.mark("hearts:interpreter-start");
  const py = await pyodide.loadPyodide({ ...options, indexURL: INDEX_URL });
  performance.mark("hearts:interpreter-end");
  started("plain");
  return py;
}
