#!/usr/bin/env node
// Build-time fast start for the page: run the pinned Pyodide under Node and make
//   OUT/python_stdlib.zip  the standard library precompiled to .pyc by Pyodide's own Python
//                          (the npm zip ships sources only, compiled again at every start);
//   OUT/hearts.zip         our Python zip (PY_ZIP) with a .pyc beside every module, what
//                          the snapshot's Python imports;
//   OUT/hearts_site.zip    our Python zip as the site serves it: .pyc files, no sources
//                          (ours in both zips compiled without module and function
//                          docstrings: 75 kB less to download, a smaller snapshot);
//                          it holds _pyscript_cache too: PyScript's own modules compiled
//                          (in the snapshot as well);
//   OUT/python_stdlib_start.zip  the part of that stdlib the snapshot start needs: the
//                          modules imported before the snapshot, the packages KEPT_WHOLE and
//                          the EXTRA modules (named after "--extra"), precompiled;
//   OUT/python_stdlib_plain.zip  the part the ordinary start of a first visit needs: the
//                          above and every stdlib module imported before the snapshot,
//                          precompiled, with the finder module _hearts_stdlib; with
//                          "--first NAME...", only those modules (what the page has imported
//                          once its table is ready) and the rest in
//   OUT/python_stdlib_later.zip  fetched once the table is on the screen;
//   OUT/snapshot.bin.gz    a memory snapshot of Python on that small stdlib with our engine
//                          (and the stdlib modules the page and PyScript use) already
//                          imported, garbage collected, gzipped.
//
// Usage: node tools/site/build_runtime.mjs [--strict] OUT_DIR PY_ZIP MODULE... [--extra NAME...]
//                                          [--first NAME...]
//   PY_ZIP: the site's zip of our Python (unpacked into /home/pyodide, where PyScript puts it
//   too, so module paths match after a restore); MODULE...: what to import before the snapshot.
//   A module that fails to import is left out of the snapshot and named on stderr; with
//   --strict, that fails the build. The browser's modules (js, pyscript) can't be imported
//   meanwhile: JS objects caught in a snapshot would break its restore.
//
// The snapshot is tied to this exact Pyodide build (its BUILD_ID is checked on load) and to
// this exact stdlib zip (zipimport keeps the zip's directory in memory): the page must use
// the snapshot with python_stdlib_start.zip from the same build (the ordinary start uses the
// whole python_stdlib.zip). tools/site/runtime.py calls this and caches the result.
// Pyodide's snapshot API is private (_makeSnapshot / makeMemorySnapshot / _loadSnapshot):
// the page falls back to an ordinary start if a snapshot can't be used.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

// Kept whole in the start's stdlib: codecs are looked up by name when text is decoded, and
// Pyodide's own packages import their parts lazily.
const KEPT_WHOLE = ["encodings", "pyodide", "_pyodide"];

// The ordinary start's stdlib holds only what the page imports, and these small codecs
// (a missing one would only cost the whole stdlib's download).
const PLAIN_EXTRA = ["encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig"];

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = path.join(REPO, "node_modules", "pyodide") + path.sep;
const FINDER = path.join(REPO, "tools", "site", "stdlib_finder.py");
// PyScript's Python package, as its core writes it at start (an artifact of its build).
const PYSCRIPT_STDLIB = path.join(REPO, "node_modules", "@pyscript", "core", "src", "stdlib",
  "pyscript.js");

// Compile every .py of the stdlib zip to an unchecked hash-based .pyc (no source check at
// import, same bytes every build) named as the source would be, so tracebacks read as usual.
// The stdlib is compiled as python -OO would (no docstrings, no asserts: a zip an eighth
// smaller, fewer bytes in the snapshot), but for Pyodide's own packages, which read their
// docstrings. All the stdlib zips of the page are cut from this one: a module of one never
// meets a module of the other kind (email's policies, e.g., extend their bases' docstrings).
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
                lean = not name.startswith(("pyodide/", "_pyodide/"))
                try:
                    code = compile(data, src_path + "/" + name, "exec", dont_inherit=True,
                                   optimize=2 if lean else 0)
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

def compile_lean(data, filename):
    """Our module compiled without its module and function docstrings (nothing reads them;
    a sixth fewer bytes to download and in the snapshot's heap). Class docstrings stay
    (dataclasses would compute one at import), and so do asserts: this is not -OO."""
    import ast
    tree = ast.parse(data, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                if len(body) == 1:
                    body[0] = ast.copy_location(ast.Pass(), body[0])
                else:
                    del body[0]
    return compile(tree, filename, "exec", dont_inherit=True)

def sourceless(src_path, out_path):
    """Our zip as the site serves it: a .pyc in place of each module, no sources (half the
    bytes of both; the snapshot start has them imported already; tracebacks keep file
    names and line numbers, not the lines)."""
    stamp = (2020, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(src_path) as src, \
            zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in src.infolist():
            data = src.read(info)
            if not info.filename.endswith(".py"):
                out.writestr(info, data)
                continue
            code = compile_lean(data, "/home/pyodide/" + info.filename)
            entry = zipfile.ZipInfo(info.filename + "c", stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, bytes(_code_to_hash_pyc(
                code, importlib.util.source_hash(data), checked=False)))

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
                code = compile_lean(data, "/home/pyodide/" + info.filename)
                folder, _, name = info.filename.rpartition("/")
                pyc = (folder + "/" if folder else "") + f"__pycache__/{name[:-3]}.{tag}.pyc"
                entry = zipfile.ZipInfo(pyc, stamp)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = 0o644 << 16
                out.writestr(entry, bytes(_code_to_hash_pyc(
                    code, importlib.util.source_hash(data), checked=False)))

def add_pyscript_cache(zip_path, sources):
    """Add the module _pyscript_cache to our zip: FILES, the .pyc of each module of
    PyScript's own package (sources: {file name: text}, as PyScript writes them into
    ./pyscript at every start), for its __pycache__. Compiling them there costs ~0.2 s of
    every start. Checked hash-based: a .pyc whose source differs is compiled as usual."""
    import sys
    tag = sys.implementation.cache_tag
    files = {}
    for name, text in sorted(sources.items()):
        data = text.encode("utf-8")
        code = compile(data, "/home/pyodide/pyscript/" + name, "exec", dont_inherit=True)
        files[f"{name[:-3]}.{tag}.pyc"] = bytes(_code_to_hash_pyc(
            code, importlib.util.source_hash(data), checked=True))
    module = f"FILES = {files!r}\\n".encode()
    code = compile(module, "/home/pyodide/_pyscript_cache.py", "exec", dont_inherit=True)
    entry = zipfile.ZipInfo("_pyscript_cache.pyc", (2020, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = 0o644 << 16
    with zipfile.ZipFile(zip_path, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        out.writestr(entry, bytes(_code_to_hash_pyc(
            code, importlib.util.source_hash(module), checked=False)))
    return len(files)
`;

// The small stdlibs, cut from the big one: for the snapshot start, what may be imported
// after the restore (modules already in sys.modules need no file): the packages keep_whole
// and the modules of extra not imported yet (with their packages' __init__); for the
// ordinary start of a first visit (with_imported), also every module in sys.modules (what
// Pyodide's own start, PyScript and our modules import), and the finder module
// _hearts_stdlib (tools/site/stdlib_finder.py, compiled, its MODULES filled in), which the
// page installs after that start. Its finder, last on sys.meta_path, is the safety net of
// both: a stdlib module missing from the small zip makes it fetch the whole stdlib.
const TRIM_STDLIB = `
import sys, zipfile

def stdlib_modules(src_path):
    names = zipfile.ZipFile(src_path).namelist()
    return sorted({n.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".")
                   for n in names if n.endswith(".pyc")})

def trim_stdlib(src_path, out_path, keep_whole, extra, imported, with_imported, finder_source):
    """imported: the modules in sys.modules of the snapshot's Python."""
    imported = set(imported)
    whole = tuple(name + "/" for name in keep_whole)
    stdlib = zipfile.ZipFile(src_path)
    names = stdlib.namelist()
    parts = set()
    for name in [*extra, *(imported if with_imported else [])]:
        if name in imported and not with_imported:
            continue  # in the snapshot already
        bits = name.split(".")
        for i in range(1, len(bits) + 1):
            parts.add("/".join(bits[:i]))
    wanted = {name for name in names if name.startswith(whole)
              or name.removesuffix(".pyc").removesuffix("/__init__") in parts}
    missing = [name for name in extra if name not in imported and not any(
        n.removesuffix(".pyc").removesuffix("/__init__") == name.replace(".", "/")
        for n in names)]
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in stdlib.infolist():
            if info.filename in wanted:
                out.writestr(info, stdlib.read(info))
        if finder_source:
            import importlib.util
            from importlib._bootstrap_external import _code_to_hash_pyc
            code = compile(finder_source, "/lib/python314.zip/_hearts_stdlib.py", "exec", dont_inherit=True)
            entry = zipfile.ZipInfo("_hearts_stdlib.pyc", (2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, bytes(_code_to_hash_pyc(
                code, importlib.util.source_hash(finder_source.encode()), checked=False)))
    return len(wanted), len(names), missing

def split_stdlib(src_path, first_path, later_path, first):
    """The zip src_path cut in two: the modules first (with their packages' __init__) and
    _hearts_stdlib into first_path, the rest into later_path. Returns their file counts."""
    parts = {"_hearts_stdlib"}
    for name in first:
        bits = name.split(".")
        parts.update("/".join(bits[:i]) for i in range(1, len(bits) + 1))
    counts = [0, 0]
    source = zipfile.ZipFile(src_path)
    with zipfile.ZipFile(first_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as one, \
            zipfile.ZipFile(later_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as two:
        for info in source.infolist():
            module = info.filename.removesuffix(".pyc").removesuffix("/__init__")
            into = 0 if module in parts else 1
            (one, two)[into].writestr(info, source.read(info))
            counts[into] += 1
    return counts

`;

function log(message) {
  process.stderr.write(`build_runtime: ${message}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const strict = args[0] === "--strict";
  const rest = strict ? args.slice(1) : args;
  const cutFirst = rest.indexOf("--first");
  const first = cutFirst < 0 ? [] : rest.slice(cutFirst + 1);
  const named = cutFirst < 0 ? rest : rest.slice(0, cutFirst);
  const cut = named.indexOf("--extra");
  const [outDir, pyZip, ...modules] = cut < 0 ? named : named.slice(0, cut);
  const extra = cut < 0 ? [] : named.slice(cut + 1);
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
  // (kept for step 3: cutting the small stdlibs there keeps the snapshot's memory small)
  const py0 = await loadPyodide({ indexURL: PYODIDE_DIR, ...quiet });
  {
    const py = py0;
    py.runPython(COMPILE_STDLIB);
    const counts = py.globals.get("compile_stdlib")("/lib/python314.zip", "/tmp/stdlib.zip");
    fs.writeFileSync(stdlib, py.FS.readFile("/tmp/stdlib.zip"));
    log(`stdlib: ${counts.toJs().join(" of ")} files compiled in ${Date.now() - t0} ms`);
    py.FS.writeFile("/tmp/ours.zip", new Uint8Array(fs.readFileSync(pyZip)));
    py.globals.get("add_pycache")("/tmp/ours.zip", "/tmp/hearts.zip");
    fs.writeFileSync(path.join(outDir, "hearts.zip"), py.FS.readFile("/tmp/hearts.zip"));
    py.globals.get("sourceless")("/tmp/ours.zip", "/tmp/hearts_site.zip");
    const { default: pyscriptFiles } = await import(pathToFileURL(PYSCRIPT_STDLIB).href);
    const sources = Object.fromEntries(Object.entries(pyscriptFiles.pyscript || {})
      .filter(([name, text]) => name.endsWith(".py") && typeof text === "string"));
    const cached = py.globals.get("add_pyscript_cache")("/tmp/hearts_site.zip", py.toPy(sources));
    log(`PyScript's package: ${cached} modules precompiled`);
    fs.writeFileSync(path.join(outDir, "hearts_site.zip"), py.FS.readFile("/tmp/hearts_site.zip"));
    py.runPython(TRIM_STDLIB);
    py.FS.writeFile("/tmp/compiled.zip", new Uint8Array(fs.readFileSync(stdlib)));
  }
  const modulesOfStdlib = py0.globals.get("stdlib_modules")("/tmp/compiled.zip").toJs();
  const finderSource = fs.readFileSync(FINDER, "utf8")
    + `\nMODULES = frozenset(${JSON.stringify(modulesOfStdlib)})\n`;

  // 2. A fresh Python on that stdlib, our modules imported, then its memory.
  const IMPORT_ALL = `
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
`;
  const home = "/home/pyodide";
  const ours = new Uint8Array(fs.readFileSync(path.join(outDir, "hearts.zip")));
  async function pythonWithOurs(stdLibURL, more = {}) {
    const py = await loadPyodide({ indexURL: PYODIDE_DIR, stdLibURL, ...more, ...quiet });
    py.FS.mkdirTree(home);
    py.FS.chdir(home);
    py.unpackArchive(ours, "zip", { extractDir: home });
    // A module that fails to import is left out (it loads at start instead) and named here.
    // js and pyscript are refused meanwhile: a module needing them at import time fails to
    // import, rather than putting JS objects in the snapshot (js exists under Node too).
    py.runPython(IMPORT_ALL);
    return py;
  }
  t0 = Date.now();
  const py = await pythonWithOurs(stdlib, { _makeSnapshot: true });
  const importAll = py.globals.get("_import_all");
  const result = importAll(py.toPy(modules));
  const failed = result.toJs();
  result.destroy();
  importAll.destroy();
  // PyScript's modules precompiled (_pyscript_cache, from the site's zip) go into the
  // snapshot too: the snapshot start writes them out for PyScript without reading our zip,
  // which that start doesn't need (every module of ours is imported already).
  py.FS.writeFile("/tmp/hearts_site.zip", new Uint8Array(
    fs.readFileSync(path.join(outDir, "hearts_site.zip"))));
  py.runPython(`
import sys
sys.path.insert(0, "/tmp/hearts_site.zip")
try:
    import _pyscript_cache
finally:
    del sys.path[0]
    sys.path_importer_cache.pop("/tmp/hearts_site.zip", None)
`);
  py.FS.unlink("/tmp/hearts_site.zip");
  // The modules imported now: the small stdlibs are cut from this list (step 3). The
  // zipimport caches of the big stdlib are dropped: after the restore, Python reads the
  // directory of the zip it is given (the small one).
  const imported = py.runPython("import sys; sorted(sys.modules)").toJs();
  py.globals.set("_finder_source", finderSource);
  py.runPython(`
import types as _types
_hearts_stdlib = _types.ModuleType("_hearts_stdlib")
_hearts_stdlib.__file__ = "_hearts_stdlib.py"
exec(compile(_finder_source, "_hearts_stdlib.py", "exec", dont_inherit=True),
     _hearts_stdlib.__dict__)
sys.modules["_hearts_stdlib"] = _hearts_stdlib
_hearts_stdlib.install("")
del _types, _hearts_stdlib, _finder_source
`);
  py.runPython(`
import gc, sys, zipimport
for _key in [k for k in sys.path_importer_cache if k.startswith("/lib/python3") and ".zip" in k]:
    del sys.path_importer_cache[_key]
zipimport._zip_directory_cache.clear()
del _import_all, _NoBrowser, _key
gc.collect()
`);
  for (const line of failed) log(`not in the snapshot: ${line}`);
  if (failed.some((line) => line.includes("got imported"))) throw new Error("unsafe snapshot");
  if (strict && failed.length) {
    throw new Error(`--strict: ${failed.length} module(s) failed to import`);
  }
  const snapshot = py.makeMemorySnapshot();
  const gz = zlib.gzipSync(snapshot, { level: 9 });
  fs.writeFileSync(path.join(outDir, "snapshot.bin.gz"), gz);
  log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB, ${(gz.length / 1e6).toFixed(1)} MB `
    + `gzipped, ${modules.length - failed.length} modules, in ${Date.now() - t0} ms`);

  // 3. The small stdlibs, cut from the compiled one by the first Python.
  const trim = py0.globals.get("trim_stdlib");
  for (const [file, plain] of [["python_stdlib_start.zip", false],
                               ["python_stdlib_plain.zip", true]]) {
    const out = path.join(outDir, file);
    const trimmed = trim("/tmp/compiled.zip", "/tmp/small.zip",
      py0.toPy(plain ? [] : KEPT_WHOLE),
      py0.toPy(plain ? [...extra, ...PLAIN_EXTRA] : extra), py0.toPy(imported), plain,
      plain ? finderSource : "").toJs();
    if (plain) {
      // (always both zips: with no --first list, the later one is empty)
      const counts = py0.globals.get("split_stdlib")("/tmp/small.zip", "/tmp/first.zip",
        "/tmp/later.zip", py0.toPy(first.length ? [...first, ...PLAIN_EXTRA] : [...imported, ...extra, ...PLAIN_EXTRA]))
        .toJs();
      const later = path.join(outDir, "python_stdlib_later.zip");
      fs.writeFileSync(out, py0.FS.readFile("/tmp/first.zip"));
      fs.writeFileSync(later, py0.FS.readFile("/tmp/later.zip"));
      py0.FS.unlink("/tmp/first.zip");
      py0.FS.unlink("/tmp/later.zip");
      log(`python_stdlib_later.zip: ${counts[1]} files, `
        + `${(fs.statSync(later).size / 1e6).toFixed(2)} MB (once the table is up)`);
      trimmed[0] = counts[0];
    } else {
      fs.writeFileSync(out, py0.FS.readFile("/tmp/small.zip"));
    }
    py0.FS.unlink("/tmp/small.zip");
    log(`${file}: ${trimmed[0]} of ${trimmed[1]} files, `
      + `${(fs.statSync(out).size / 1e6).toFixed(2)} MB`);
    if (trimmed[2].length) throw new Error(`--extra: no such stdlib module ${trimmed[2]}`);
  }
  trim.destroy();
}

main().then(() => process.exit(0), (err) => {
  process.stderr.write(`build_runtime: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
