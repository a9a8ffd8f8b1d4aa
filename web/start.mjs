// PyScript's `interpreter` module (see index.html's config): Pyodide started from the memory
// snapshot made at build time (tools/build_runtime.mjs), or the ordinary way if that fails.
//
// PyScript imports this module, reads `version` and calls `loadPyodide(options)`. We add the
// snapshot: downloaded gzipped from the moment this module loads (alongside PyScript's own
// loading), unpacked with DecompressionStream and handed to Pyodide as `_loadSnapshot`. A
// snapshot that is missing, damaged or from another Pyodide build makes loadPyodide throw;
// then Python starts the ordinary way (slower, same game). The stdlib zip in ../pyodide/ is
// the precompiled one in both cases. <html data-start> says which start ran.

import * as pyodide from "../pyodide/pyodide.mjs";

export const version = pyodide.version;

const INDEX_URL = new URL("../pyodide/", import.meta.url).href;
const SNAPSHOT_URL = new URL("../pyodide/snapshot.bin.gz", import.meta.url).href;

// After a restore, Python's state is the one frozen at build time: reseed `random` (every page
// would otherwise draw the same numbers) and forget cached directory listings. Then check the
// engine is there: a restore that "worked" into a broken interpreter must not start the game.
const AFTER_RESTORE = `
import importlib, random
random.seed()
importlib.invalidate_caches()
import hearts
hearts.Game.new(1)
`;

async function fetchSnapshot() {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  const response = await fetch(SNAPSHOT_URL);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${SNAPSHOT_URL}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes; // a server already un-gzipped it
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const snapshot = fetchSnapshot();
let snapshotFailed = false;
// Handled in loadPyodide; this also keeps it from being reported as unhandled meanwhile.
snapshot.catch(() => { snapshotFailed = true; });

function started(kind) {
  document.documentElement.dataset.start = kind;
  performance.mark(`hearts:start-${kind}`);
}

async function fromSnapshot(config) {
  // (If the download has failed already, don't start a Pyodide only to throw it away.)
  if (snapshotFailed) await snapshot;
  const py = await pyodide.loadPyodide({ ...config, _loadSnapshot: snapshot });
  const scope = py.toPy({});
  try {
    py.runPython(AFTER_RESTORE, { globals: scope });
  } finally {
    scope.destroy();
  }
  return py;
}

export async function loadPyodide(options = {}) {
  const config = { ...options, indexURL: INDEX_URL };
  try {
    const py = await fromSnapshot(config);
    started("snapshot");
    return py;
  } catch (error) {
    console.warn("Hearts: starting Python without the snapshot:", error);
  }
  const py = await pyodide.loadPyodide(config);
  started("plain");
  return py;
}
