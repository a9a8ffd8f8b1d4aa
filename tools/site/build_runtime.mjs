#!/usr/bin/env node
// Build-time fast start for the page: run the pinned Pyodide under Node and make
//   OUT/python_stdlib.zip  the standard library precompiled to .pyc by Pyodide's own Python
//                          (the npm zip ships sources only, compiled again at every start);
//   OUT/hearts.zip         our Python zip (PY_ZIP) with a .pyc beside every module, for the
//                          modules that can't be in the snapshot (those using the browser);
//   OUT/snapshot.bin.gz    a memory snapshot of that Python with our engine (and the stdlib
//                          modules the page and PyScript use) already imported, gzipped.
//
// Usage: node tools/site/build_runtime.mjs [--strict] OUT_DIR PY_ZIP MODULE...
//   PY_ZIP: the site's zip of our Python (unpacked into /home/pyodide, where PyScript puts it
//   too, so module paths match after a restore); MODULE...: what to import before the snapshot.
//   A module that fails to import is left out of the snapshot and named on stderr; with
//   --strict, that fails the build. The browser's modules (js, pyscript) can't be imported
//   meanwhile: JS objects caught in a snapshot would break its restore.
//
// The snapshot is tied to this exact Pyodide build (its BUILD_ID is checked on load) and to
// this exact stdlib zip (zipimport keeps the zip's directory in memory): the page must use
// both files from the same build. tools/site/runtime.py calls this and caches the result.
// Pyodide's snapshot API is private (_makeSnapshot / makeMemorySnapshot / _loadSnapshot):
// the page falls back to an ordinary start if a snapshot can't be used.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = path.join(REPO, "node_modules", "pyodide") + path.sep;

// Compile every .py of the stdlib zip to an unchecked hash-based .pyc (no source check at
// import, same bytes every build) named as the source would be, so tracebacks read as usual.
const COMPILE_STDLIB = `
import importlib.util, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_stdlib(src_path, out_path):
    stamp = (2020, 1, 1, 0, 0, 0)
    kept = compiled = 0
    with zipfile.ZipFile(src_path) as src, \\
            zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in src.infolist():
            data = src.read(info)
            name = info.filename
            if name.endswith(".py"):
                try:
                    code = compile(data, src_path + "/" + name, "exec", dont_inherit=True)
                except SyntaxError:
                    pass  # (none today) keep the source: it can't be imported anyway
                else:
                    data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data),
                                                   checked=False))
                    name = name[:-3] + ".pyc"
                    compiled += 1
            kept += 1
            entry = zipfile.ZipInfo(name, stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, data)
    return compiled, kept

def add_pycache(src_path, out_path):
    """Our zip plus __pycache__/NAME.cpython-3XX.pyc beside each module (unpacked into
    the working directory at start, where the import system finds them: no compiling)."""
    import sys
    stamp = (2020, 1, 1, 0, 0, 0)
    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(src_path) as src, \
            zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in src.infolist():
            data = src.read(info)
            out.writestr(info, data)
            if info.filename.endswith(".py"):
                code = compile(data, "/home/pyodide/" + info.filename, "exec", dont_inherit=True)
                folder, _, name = info.filename.rpartition("/")
                pyc = (folder + "/" if folder else "") + f"__pycache__/{name[:-3]}.{tag}.pyc"
                entry = zipfile.ZipInfo(pyc, stamp)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = 0o644 << 16
                out.writestr(entry, bytes(_code_to_hash_pyc(
                    code, importlib.util.source_hash(data), checked=False)))
`;

function log(message) {
  process.stderr.write(`build_runtime: ${message}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const strict = args[0] === "--strict";
  const [outDir, pyZip, ...modules] = strict ? args.slice(1) : args;
  if (!outDir || !pyZip) {
    process.stderr.write(
      "usage: node tools/site/build_runtime.mjs [--strict] OUT_DIR PY_ZIP MODULE...\n");
    process.exit(2);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const { loadPyodide } = await import(pathToFileURL(PYODIDE_DIR + "pyodide.mjs").href);
  const quiet = { stdout: () => {}, stderr: (line) => log(line) };

  // 1. The stdlib, precompiled by the same Python that will run it.
  let t0 = Date.now();
  const stdlib = path.join(outDir, "python_stdlib.zip");
  {
    const py = await loadPyodide({ indexURL: PYODIDE_DIR, ...quiet });
    py.runPython(COMPILE_STDLIB);
    const counts = py.globals.get("compile_stdlib")("/lib/python314.zip", "/tmp/stdlib.zip");
    fs.writeFileSync(stdlib, py.FS.readFile("/tmp/stdlib.zip"));
    log(`stdlib: ${counts.toJs().join(" of ")} files compiled in ${Date.now() - t0} ms`);
    py.FS.writeFile("/tmp/ours.zip", new Uint8Array(fs.readFileSync(pyZip)));
    py.globals.get("add_pycache")("/tmp/ours.zip", "/tmp/hearts.zip");
    fs.writeFileSync(path.join(outDir, "hearts.zip"), py.FS.readFile("/tmp/hearts.zip"));
  }

  // 2. A fresh Python on that stdlib, our modules imported, then its memory.
  t0 = Date.now();
  const py = await loadPyodide({
    indexURL: PYODIDE_DIR, stdLibURL: stdlib, _makeSnapshot: true, ...quiet,
  });
  const home = "/home/pyodide";
  py.FS.mkdirTree(home);
  py.FS.chdir(home);
  py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(outDir, "hearts.zip"))), "zip",
    { extractDir: home });
  // A module that fails to import is left out (it loads at start instead) and named here.
  // js and pyscript are refused meanwhile: a module needing them at import time fails to
  // import, rather than putting JS objects in the snapshot (js exists under Node too).
  py.runPython(`
import importlib, importlib.abc, sys
class _NoBrowser(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("js", "pyscript"):
            raise ImportError(f"{name} is the browser's, not importable in the snapshot")
        return None
def _import_all(names):
    failed = []
    sys.meta_path.insert(0, _NoBrowser())
    try:
        for name in names:
            try:
                importlib.import_module(name)
            except Exception as exc:
                failed.append(f"{name} ({type(exc).__name__}: {exc})")
    finally:
        del sys.meta_path[0]
    for name in ("js", "pyscript"):
        if name in sys.modules:
            failed.append(f"{name} got imported: JS objects would break the snapshot")
    return failed
`);
  const importAll = py.globals.get("_import_all");
  const result = importAll(py.toPy(modules));
  const failed = result.toJs();
  result.destroy();
  importAll.destroy();
  py.runPython("del _import_all, _NoBrowser");
  for (const line of failed) log(`not in the snapshot: ${line}`);
  if (failed.some((line) => line.includes("got imported"))) throw new Error("unsafe snapshot");
  if (strict && failed.length) {
    throw new Error(`--strict: ${failed.length} module(s) failed to import`);
  }
  const snapshot = py.makeMemorySnapshot();
  const gz = zlib.gzipSync(snapshot, { level: 6 });
  fs.writeFileSync(path.join(outDir, "snapshot.bin.gz"), gz);
  log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB, ${(gz.length / 1e6).toFixed(1)} MB `
    + `gzipped, ${modules.length - failed.length} modules, in ${Date.now() - t0} ms`);
}

main().then(() => process.exit(0), (err) => {
  process.stderr.write(`build_runtime: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
