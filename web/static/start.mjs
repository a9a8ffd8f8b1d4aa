// PyScript's `interpreter` module (see index.html's config): Pyodide started the fastest way
// the files at hand allow, and the ordinary way if that fails.
//
// PyScript imports this module, reads `version` and calls `loadPyodide(options)`. As soon as
// this module runs it starts Python; PyScript's call gets that interpreter, with its own
// output handlers connected. Which start, web/static/boot.js decided (<html
// data-start-with>, from what is cached; `?start=` overrides it):
//   "snapshot": a later visit, the site in the service worker's cache: read the memory
//     snapshot made at build time (tools/site/build_runtime.mjs), unpacked by the worker
//     when it installed (else the .gz, unpacked here with DecompressionStream), and start
//     Pyodide from it (`_loadSnapshot`, a private API), on a small stdlib
//     (python_stdlib_start.zip: what may be imported after the restore), our modules
//     imported already;
//   "plain": a first visit: the ordinary start, on a stdlib cut to what the page imports
//     (precompiled), 6 MB less to download than the snapshot; that stdlib and the wasm come
//     packed with brotli (python_stdlib_plain.zip.br, pyodide.asm.wasm.br: 1.1 MB less
//     than gzip), unpacked here as they arrive by a small decoder (static/brotli/);
//   "whole": the ordinary start on the whole precompiled stdlib, the fallback of both.
// The ordinary starts put our zip, py/hearts.zip.gz, on sys.path, and the second one of
// private tables and online play once the page asks for it (window.heartsLoadLater).
// Each start that fails (a missing, damaged or foreign snapshot, a stdlib that can't start)
// logs a warning and hands over to the next one. With a small stdlib, a module missing from
// it makes Python fetch the whole python_stdlib.zip (module _hearts_stdlib, made from
// tools/site/stdlib_finder.py; a console warning names the module).
// <html data-start> says which start ran.

// @ts-check
// @ts-ignore: the site's copy of node_modules/pyodide, whose types are named just below
import * as pyodideModule from "../pyodide/pyodide.mjs";

/** @typedef {import("pyodide").PyodideInterface} Pyodide */
/** @typedef {{stdout?: (line: string) => void, stderr?: (line: string) => void}} Options */
/** @type {typeof import("pyodide")} */
const pyodide = pyodideModule;

export const version = pyodide.version;

const INDEX_URL = new URL("../pyodide/", import.meta.url).href;
const SNAPSHOT_URL = new URL("../pyodide/snapshot.bin.gz", import.meta.url).href;
// The sha256 of snapshot.bin.gz (the build fills it in). The service worker keeps the
// snapshot unpacked too, in its cache only, under a URL that names the .gz it came from: a
// page reads only its own version's snapshot, whichever caches the origin holds.
const SNAPSHOT_DIGEST = "/* snapshot digest */";
const UNPACKED_SNAPSHOT_URL = `${SNAPSHOT_URL.slice(0, -3)}?sha256=${SNAPSHOT_DIGEST}`;
const START_STDLIB_URL = new URL("../pyodide/python_stdlib_start.zip", import.meta.url).href;
const PLAIN_STDLIB_URL = new URL("../pyodide/python_stdlib_plain.zip.br", import.meta.url).href;
const OUR_ZIP_URL = new URL("../py/hearts.zip.gz", import.meta.url).href;
const LATER_ZIP_URL = new URL("../py/hearts_later.zip.gz", import.meta.url).href;
const WHOLE_STDLIB_URL = new URL("../pyodide/python_stdlib.zip", import.meta.url).href;
const LATER_STDLIB_URL = new URL("../pyodide/python_stdlib_later.zip.gz", import.meta.url).href;
const WASM_URL = new URL("../pyodide/pyodide.asm.wasm", import.meta.url).href;
const PACKED_WASM_URL = `${WASM_URL}.br`;
const BROTLI_URL = new URL("./brotli/brotli_dec_wasm.js", import.meta.url).href;
const BROTLI_WASM_URL = new URL("./brotli/brotli_dec_wasm_bg.wasm", import.meta.url).href;

// PyScript writes its own package into ./pyscript at every start, and would compile it there:
// its modules, compiled at build time (module _pyscript_cache, tools/site/build_runtime.mjs),
// go into its __pycache__ first (checked hash-based .pyc: one whose source differs is
// simply compiled as before).
const WRITE_PYSCRIPT_CACHE = `
try:
    import _pyscript_cache
except ImportError:
    pass
else:
    import os, sys
    _folder = os.path.join(os.getcwd(), "pyscript", "__pycache__")
    os.makedirs(_folder, exist_ok=True)
    for _name, _data in _pyscript_cache.FILES.items():
        with open(os.path.join(_folder, _name), "wb") as _file:
            _file.write(_data)
    del sys.modules["_pyscript_cache"]  # (its bytes are in the files now)
`;
// After a restore, Python's state is the one frozen at build time: reseed `random` (every page
// would otherwise draw the same numbers) and forget cached directory listings. Every module
// of ours is imported already (the build fails otherwise), and PyScript's compiled modules
// are in the snapshot too: this start needs no zip of ours. Then check the engine is there:
// a restore that "worked" into a broken interpreter must not start the game.
const AFTER_RESTORE = `
import importlib, random, _hearts_stdlib
random.seed()
_hearts_stdlib.install(${JSON.stringify(WHOLE_STDLIB_URL)})
importlib.invalidate_caches()
${WRITE_PYSCRIPT_CACHE}
import hearts
hearts.Game.new(1)
`;
// After an ordinary start on the small stdlib: the safety net, from that zip (a site built
// with HEARTS_FAST_START=0 has none: its python_stdlib_plain.zip.br is the npm stdlib). That
// stdlib holds what the page imports until its table is ready; the rest of what it may
// import, python_stdlib_later.zip.gz, is fetched with our second zip (laterLoader), or by
// the finder if a module of it is imported before.
const AFTER_PLAIN_START = `
try:
    import _hearts_stdlib
except ImportError:
    pass
else:
    _hearts_stdlib.install(${JSON.stringify(WHOLE_STDLIB_URL)}, ${JSON.stringify(LATER_STDLIB_URL)})
`;
const LATER_STDLIB_PATH = "/lib/python_stdlib_later.zip";

// The loader's bar (web/static/boot.js) follows the bytes of the biggest download (the
// snapshot, or the wasm) and the stages of the start.
/** @param {{stage: string, received?: number, total?: number}} detail */
function progress(detail) {
  if (typeof window !== "undefined") {
    window.dispatchEvent(new CustomEvent("hearts:progress", { detail }));
  }
}

// The snapshot: unpacked already, straight from the service worker's cache (web/static/sw.js
// unpacks it when it installs; read as a blob, ~50 ms, where unpacking the .gz here costs
// ~0.4 s of this thread, and streaming it through the worker ~0.15 s), else the .gz.
async function fetchSnapshot() {
  try {
    const response = typeof caches === "object" && !SNAPSHOT_DIGEST.startsWith("/*")
      ? await caches.match(UNPACKED_SNAPSHOT_URL) : undefined;
    if (response) {
      const bytes = new Uint8Array(await (await response.blob()).arrayBuffer());
      if (bytes.length === SIZES["snapshot.bin"]) {
        performance.mark("hearts:snapshot-read");
        performance.mark("hearts:snapshot-unpacked");
        progress({ stage: "restore" });
        return bytes;
      }
    }
  } catch (error) {
    console.warn("Hearts: the unpacked snapshot can't be read:", error);
  }
  return fetchPackedSnapshot();
}

// The snapshot, unpacked as it is read (DecompressionStream) into a buffer of its size (the
// build fills in SIZES["snapshot.bin"]; it grows if that is wrong), counted for the bar.
async function fetchPackedSnapshot() {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  const response = await fetch(SNAPSHOT_URL);
  performance.mark("hearts:snapshot-response");
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${SNAPSHOT_URL}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  if (!response.body) throw new Error(`no body for ${SNAPSHOT_URL}`);
  const reader = response.body.getReader();
  /** @type {ReadableStreamReadResult<Uint8Array> | null} */
  let head = await reader.read();
  // (a server that sends it with Content-Encoding: gzip: the browser has unpacked it)
  const gzipped = !head.done && head.value[0] === 0x1f && head.value[1] === 0x8b;
  let received = 0;
  /** @type {ReadableStream<Uint8Array>} */
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = head || await reader.read();
      head = null;
      if (done) {
        performance.mark("hearts:snapshot-read");
        progress({ stage: "restore" });
        controller.close();
        return;
      }
      received += value.length;
      progress({ stage: "download", received, total });
      controller.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  // (bytes in, bytes out: tsc's lib types DecompressionStream's input more loosely)
  const unpacked = await collect(gzipped ? body.pipeThrough(
    /** @type {ReadableWritablePair<Uint8Array, Uint8Array>} */ (
      /** @type {unknown} */ (new DecompressionStream("gzip")))) : body,
  SIZES["snapshot.bin"] || 0);
  performance.mark("hearts:snapshot-unpacked");
  return unpacked;
}

// The bytes of a stream in one array, allocated once when `size` is right.
/** @param {ReadableStream<Uint8Array>} stream @param {number} size */
async function collect(stream, size) {
  let out = new Uint8Array(size);
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.length > out.length) {
      const bigger = new Uint8Array(Math.max(out.length * 2, length + value.length, 1 << 20));
      bigger.set(out.subarray(0, length));
      out = bigger;
    }
    out.set(value, length);
    length += value.length;
  }
  return length === out.length ? out : out.slice(0, length);
}

// On a snapshot start Pyodide compiles the wasm only once it has the snapshot: compile it
// meanwhile (the instance is made, as Pyodide asks, from this module). If this compile
// fails, Pyodide's own call runs as usual.
function compileWasmEarly() {
  const streaming = WebAssembly.instantiateStreaming;
  if (typeof WebAssembly.compileStreaming !== "function" || typeof streaming !== "function") {
    return;
  }
  const compiled = WebAssembly.compileStreaming(fetch(WASM_URL));
  compiled.catch(() => {});
  WebAssembly.instantiateStreaming = async function (source, imports) {
    WebAssembly.instantiateStreaming = streaming; // once
    let module;
    try {
      module = await compiled;
    } catch (error) {
      console.warn("Hearts: compiling the wasm early failed:", error);
      return streaming.call(WebAssembly, source, imports);
    }
    performance.mark("hearts:wasm-compiled");
    const instance = await WebAssembly.instantiate(module, imports);
    return { module, instance };
  };
}

// The bar follows the wasm's bytes on an ordinary start (Pyodide fetches it itself: its
// streaming compile is wrapped to count them). (The build fills in SIZES, bytes unpacked.)
/** @type {Record<string, number>} */
const SIZES = {/* sizes */};
// Pyodide's lock file lists the 357 packages of its distribution (27 kB gzipped, one more
// request before Python starts); the site ships none of them: the fast starts get the
// lock's `info` only (the build fills it in; the whole-stdlib start keeps the file).
/** @type {import("pyodide").Lockfile | {info?: undefined}} */
const LOCK = {/* lock */};
const NO_PACKAGES = LOCK.info ? { lockFileContents: LOCK } : {};
function countWasmBytes() {
  const streaming = WebAssembly.instantiateStreaming;
  const total = SIZES["pyodide.asm.wasm"] || 0;
  if (typeof streaming !== "function" || !total || typeof TransformStream !== "function") return;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    WebAssembly.instantiateStreaming = streaming; // once
    const response = await source;
    let received = 0;
    if (!response.body) return streaming.call(WebAssembly, response, imports);
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        received += chunk.length;
        progress({ stage: "download", received, total });
        controller.enqueue(chunk);
      },
      flush() { // Python's own start, next: a second of idle network
        performance.mark("hearts:wasm-downloaded");
        progress({ stage: "restore" });
        fetchOurZip();
      },
    }));
    const made = await streaming.call(WebAssembly, new Response(counted, {
      status: response.status, statusText: response.statusText, headers: response.headers,
    }), imports);
    performance.mark("hearts:wasm-instantiated");
    return made;
  };
}

// Our Python for the ordinary starts, py/hearts.zip.gz (a zip of stored files, gzipped
// whole: 12 % smaller than the same files deflated one by one), is unpacked by zlib and goes
// on sys.path as a zip (zipimport reads a module from it when it is first imported), not
// into files as PyScript's `files` config would. It is fetched once the wasm is in, while
// Python starts (the network is idle then). Private tables and online play come in a
// second zip, py/hearts_later.zip.gz, which the page asks for once the table is on the
// screen (window.heartsLoadLater, see web/browser.py): a third less to download before the
// game starts. (A snapshot start has both imported already.)
const OUR_ZIP_PATH = "/home/pyodide/hearts.zip";
const LATER_ZIP_PATH = "/home/pyodide/hearts_later.zip";
/** @type {Promise<Uint8Array> | null} */
let ourZip = null;

/** @param {string} url @returns {Promise<Uint8Array>} */
function fetchBytes(url) {
  return fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    return new Uint8Array(await response.arrayBuffer());
  });
}

function fetchOurZip() {
  if (!ourZip) {
    ourZip = fetchZip(OUR_ZIP_URL).then((bytes) => {
      performance.mark("hearts:our-zip-unpacked");
      return bytes;
    });
    ourZip.catch(() => {}); // (awaited by installOurZip)
  }
  return ourZip;
}

// A zip of ours or the stdlib's later part, from `NAME.gz`: from `NAME.br` instead, unpacked
// here, if this start has the brotli decoder (a first visit: tools/site/brotli.py).
/** @param {string} gzipped @returns {Promise<Uint8Array>} */
function fetchZip(gzipped) {
  const decoder = brotli;
  if (!decoder) return fetchBytes(gzipped);
  const packed = gzipped.replace(/\.gz$/, ".br");
  return decoder.then((got) => fetchUnbrotli(got, packed, ZIP_MAGIC))
    .then(async (response) => new Uint8Array(await response.arrayBuffer()))
    .catch((error) => {
      console.warn(`Hearts: fetching ${gzipped} instead:`, error);
      return fetchBytes(gzipped);
    });
}

// A zip of ours (gzipped, unless the server sent it with Content-Encoding: gzip) at `path`,
// first on sys.path; then `more` (Python) runs.
/** @param {Pyodide} py @param {Uint8Array} bytes @param {string} path */
function installZip(py, bytes, path, more = "") {
  py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  py.FS.writeFile(path, bytes);
  runIn(py, `
import sys, zlib
with open(${JSON.stringify(path)}, "rb") as _file:
    _data = _file.read()
if _data[:2] == b"\\x1f\\x8b":
    with open(${JSON.stringify(path)}, "wb") as _file:
        _file.write(zlib.decompress(_data, 31))
del _file, _data
if ${JSON.stringify(path)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(path)})
${more}`);
}

/** @param {Pyodide} py */
async function installOurZip(py) {
  installZip(py, await fetchOurZip(), OUR_ZIP_PATH, WRITE_PYSCRIPT_CACHE);
  performance.mark("hearts:our-zip-installed");
}

// The second zip's modules of packages imported already from the first (web, web.p2p,
// web.table, …) are looked for in those packages' __path__, not on sys.path: each gets the
// second zip's folder too.
const EXTEND_PACKAGES = `
import sys, zipfile
with zipfile.ZipFile(${JSON.stringify(LATER_ZIP_PATH)}) as _zip:
    _folders = {"/".join(_name.split("/")[:_depth]) for _name in _zip.namelist()
                for _depth in range(1, _name.count("/") + 1)}
for _name, _module in list(sys.modules.items()):
    _folder = _name.replace(".", "/")
    _entry = ${JSON.stringify(LATER_ZIP_PATH)} + "/" + _folder
    if _folder in _folders and hasattr(_module, "__path__") and _entry not in _module.__path__:
        _module.__path__.append(_entry)
del _zip, _folders, _name, _module, _folder, _entry
`;

// What window.heartsLoadLater() returns: a promise, resolved once the second zip is on
// sys.path (at once after a snapshot start), rejected if it can't be fetched.
/** @param {Pyodide} py @param {string} kind @returns {() => Promise<void>} */
function laterLoader(py, kind) {
  /** @type {Promise<void> | null} */
  let loaded = null;
  return () => {
    if (!loaded) {
      const stdlib = kind === "plain" ? laterStdlib(py) : Promise.resolve();
      loaded = kind === "snapshot" ? Promise.resolve() : fetchZip(LATER_ZIP_URL)
        .then(async (bytes) => {
          await stdlib;
          installZip(py, bytes, LATER_ZIP_PATH, EXTEND_PACKAGES);
        });
    }
    return loaded;
  };
}

// The rest of the first visit's stdlib, mounted after the small one (unless the finder has
// fetched it already, for a module imported before). If it can't be fetched now, the finder
// still fetches it when a module of it is imported.
/** @param {Pyodide} py */
async function laterStdlib(py) {
  const incoming = "/tmp/python_stdlib_later.zip.part";
  try {
    py.FS.writeFile(incoming, await fetchZip(LATER_STDLIB_URL));
    runIn(py, `
import os, sys, zlib, _hearts_stdlib
with open(${JSON.stringify(incoming)}, "rb") as _file:
    _data = _file.read()
os.remove(${JSON.stringify(incoming)})
if _hearts_stdlib.LATER not in sys.path:
    with open(_hearts_stdlib.LATER, "wb") as _file:
        _file.write(zlib.decompress(_data, 31) if _data[:2] == b"\\x1f\\x8b" else _data)
    _hearts_stdlib.add_zip(_hearts_stdlib.LATER)
`);
  } catch (error) {
    console.warn("Hearts: the rest of the stdlib didn't load now:", error);
  }
}

function output() {
  // (nothing prints before PyScript connects its own output)
  return {
    stdout: (/** @type {string} */ line) => console.log(line),
    stderr: (/** @type {string} */ line) => console.warn(line),
  };
}

async function fromSnapshot() {
  performance.mark("hearts:interpreter-start");
  compileWasmEarly();
  const snapshot = fetchSnapshot();
  snapshot.catch(() => {}); // (Pyodide awaits it a little later)
  const py = await pyodide.loadPyodide({
    indexURL: INDEX_URL, stdLibURL: START_STDLIB_URL, _loadSnapshot: snapshot, ...NO_PACKAGES,
    ...output(),
  });
  performance.mark("hearts:restored");
  runIn(py, AFTER_RESTORE);
  performance.mark("hearts:interpreter-end");
  return py;
}

// Brotli, for a first visit's two big files (tools/site/brotli.py): GitHub Pages sends
// gzip only, and DecompressionStream knows no brotli, so a decoder compiled to wasm (npm
// brotli-dec-wasm, ~0.1 MB) unpacks them as they arrive.
/** @typedef {{buf: Uint8Array, code: number, input_offset: number, free(): void}} BrotliStep */
/** @typedef {{dec(input: Uint8Array, outputSize: number): BrotliStep, free(): void}} BrotliStream */
/** @typedef {{BrotliDecStream: new () => BrotliStream}} Brotli */
/** @type {Promise<Brotli> | null} */
let brotli = null;
function loadBrotli() {
  if (!brotli) {
    // (compiled here: its own loader would call WebAssembly.instantiateStreaming, which
    // compileWasmEarly and countWasmBytes wrap for Pyodide's wasm)
    const compiled = WebAssembly.compileStreaming(fetch(BROTLI_WASM_URL));
    brotli = import(BROTLI_URL).then(async (/** @type {any} */ module) => {
      await module.default({ module_or_path: await compiled });
      return /** @type {Brotli} */ (module);
    });
    brotli.catch(() => {}); // (awaited by the start that needs it)
  }
  return brotli;
}
const BROTLI_DONE = 1;
const BROTLI_NEEDS_OUTPUT = 3; // (2: it needs more input, having used all it got)
const UNPACKED_CHUNK = 1 << 20;

// `body` unpacked as it arrives. A body that starts with `plain`, the unpacked file's first
// bytes, goes as it is (a server that sent the file with Content-Encoding: br: the browser
// has unpacked it). A damaged or cut stream is an error of the stream (told to `failed`).
/**
 * @param {Brotli} decoder @param {ReadableStream<Uint8Array>} body @param {number[]} plain
 * @param {(error: unknown) => void} [failed]
 */
function unbrotli(decoder, body, plain, failed = () => {}) {
  const stream = new decoder.BrotliDecStream();
  let first = true;
  let asIs = false;
  let done = false;
  /** @param {Uint8Array} chunk @param {TransformStreamDefaultController<Uint8Array>} controller */
  function unpack(chunk, controller) {
    if (first) {
      first = false;
      asIs = plain.every((byte, i) => chunk[i] === byte);
    }
    if (asIs) {
      controller.enqueue(chunk);
      return;
    }
    let input = chunk;
    for (let code = BROTLI_NEEDS_OUTPUT; code === BROTLI_NEEDS_OUTPUT;) {
      if (done && input.length) throw new Error("bytes after the end of a brotli stream");
      const step = stream.dec(input, UNPACKED_CHUNK); // (throws on damaged data)
      const { buf, input_offset: used } = step;
      code = step.code;
      step.free();
      if (buf.length) controller.enqueue(buf);
      input = input.subarray(used);
      done = code === BROTLI_DONE;
    }
    if (input.length) throw new Error("bytes after the end of a brotli stream");
  }
  return body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      try {
        unpack(chunk, controller);
      } catch (error) {
        failed(error);
        throw error;
      }
    },
    flush() {
      stream.free();
      if (!asIs && !done) {
        const error = new Error("a brotli stream was cut short");
        failed(error);
        throw error;
      }
    },
  }));
}
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4"

// The first visit's stdlib: a zip of stored files packed whole (tools/site/build.py: 7 %
// fewer bytes than a zip deflated file by file), preloaded by boot.js. Pyodide mounts a zip
// it fetches itself, so it gets the unpacked zip as a blob's URL. (Fetching it first costs
// nothing: the wasm, preloaded, downloads meanwhile, and compiles faster than it downloads.)
/** @param {Promise<Brotli>} decoder */
async function plainStdlibURL(decoder) {
  const response = await fetch(PLAIN_STDLIB_URL);
  const zip = await (await unpacked(response, await decoder, ZIP_MAGIC)).blob();
  performance.mark("hearts:stdlib-unpacked");
  return URL.createObjectURL(new Blob([zip], { type: "application/zip" }));
}

// `response`'s body unpacked as it is read, as a response (an HTTP error throws).
/**
 * @param {Response} response @param {Brotli} decoder @param {number[]} plain
 * @param {(error: unknown) => void} [failed]
 */
async function unpacked(response, decoder, plain, failed) {
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} for ${response.url}`);
  return new Response(unbrotli(decoder, response.body, plain, failed));
}

/** @param {Brotli} decoder @param {string} url @param {number[]} plain */
async function fetchUnbrotli(decoder, url, plain) {
  return unpacked(await fetch(url), decoder, plain);
}

// Pyodide fetches the wasm itself and compiles it as it arrives: its request gets the
// brotli copy, unpacked as it arrives (so the compile still streams), and the plain wasm
// if the copy can't be fetched. Pyodide only logs a compile that fails (and never starts):
// the promise returned rejects then, so that this start gives way to the next.
/** @param {Brotli} decoder @returns {Promise<never>} */
function fetchPackedWasm(decoder) {
  /** @type {(error: unknown) => void} */
  let failed = () => {};
  /** @type {Promise<never>} */
  const broken = new Promise((_, reject) => { failed = reject; });
  const plainFetch = globalThis.fetch;
  /** @type {typeof fetch} */
  const packedFetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== WASM_URL) return plainFetch(input, init);
    globalThis.fetch = plainFetch; // (once)
    return plainFetch(PACKED_WASM_URL).then(async (response) => new Response(
      (await unpacked(response, decoder, WASM_MAGIC, failed)).body,
      { headers: { "Content-Type": "application/wasm" } },
    )).catch((error) => {
      console.warn("Hearts: fetching the plain wasm instead:", error);
      return plainFetch(input, init);
    });
  };
  globalThis.fetch = packedFetch;
  return broken;
}

async function fromPlainStdlib() {
  performance.mark("hearts:interpreter-start");
  const decoder = loadBrotli();
  const stdLibURL = await plainStdlibURL(decoder);
  const broken = fetchPackedWasm(await decoder);
  countWasmBytes();
  try {
    const py = await Promise.race([broken, pyodide.loadPyodide({
      indexURL: INDEX_URL, stdLibURL, ...NO_PACKAGES, ...output(),
    })]);
    runIn(py, AFTER_PLAIN_START);
    performance.mark("hearts:interpreter-end");
    return py;
  } finally {
    URL.revokeObjectURL(stdLibURL);
  }
}

/** @param {Options} [options] */
async function fromWholeStdlib(options = {}) {
  performance.mark("hearts:interpreter-start");
  const py = await pyodide.loadPyodide({ ...output(), ...options, indexURL: INDEX_URL });
  performance.mark("hearts:interpreter-end");
  return py;
}

/** @param {Pyodide} py @param {string} code */
function runIn(py, code) {
  const scope = py.toPy({});
  try {
    py.runPython(code, { globals: scope });
  } finally {
    scope.destroy();
  }
}

/** @type {Record<string, () => Promise<Pyodide>>} */
const STARTS = { snapshot: fromSnapshot, plain: fromPlainStdlib, whole: fromWholeStdlib };
/** @type {Record<string, string>} */
const AFTER_FAILED = {
  snapshot: "Hearts: starting Python without the snapshot:",
  plain: "Hearts: starting Python on the whole stdlib:",
};
const ORDER = ["snapshot", "plain", "whole"];
const planned = (typeof document !== "undefined" && document.documentElement.dataset.startWith)
  || "plain";
const chain = ORDER.slice(Math.max(ORDER.indexOf(planned), 0));

// Start at once: index.html loads this module before PyScript's, so the downloads, the wasm
// compile and Python's start overlap PyScript setting itself up (~0.8 s of JavaScript here).
const early = STARTS[chain[0]]();
early.catch(() => {}); // handled in loadPyodide; not an unhandled rejection meanwhile
let used = false;

/** @param {string} kind */
function started(kind) {
  if (typeof document === "undefined") return;
  document.documentElement.dataset.start = kind;
  performance.mark(`hearts:start-${kind}`);
}

// Which start ran: [the interpreter, its kind].
/** @param {Options} options @returns {Promise<[Pyodide, string]>} */
async function startPython(options) {
  let kinds = ["whole"];
  if (!used) {
    used = true;
    kinds = chain;
    try {
      const py = await early;
      if (options.stdout) py.setStdout({ batched: options.stdout });
      if (options.stderr) py.setStderr({ batched: options.stderr });
      return [py, chain[0]];
    } catch (error) {
      console.warn(AFTER_FAILED[chain[0]] || "Hearts: Python didn't start:", error);
    }
  }
  for (const kind of kinds.slice(1)) {
    try {
      const py = kind === "whole" ? await fromWholeStdlib(options) : await STARTS[kind]();
      if (kind !== "whole") {
        if (options.stdout) py.setStdout({ batched: options.stdout });
        if (options.stderr) py.setStderr({ batched: options.stderr });
      }
      return [py, kind];
    } catch (error) {
      if (kind === "whole") throw error;
      console.warn(AFTER_FAILED[kind], error);
    }
  }
  return [await fromWholeStdlib(options), "whole"];
}

/** PyScript's call. @param {Options} [options] */
export async function loadPyodide(options = {}) {
  const [py, kind] = await startPython(options);
  if (kind !== "snapshot") await installOurZip(py);
  if (typeof window !== "undefined") window.heartsLoadLater = laterLoader(py, kind);
  started(kind);
  return py;
}
