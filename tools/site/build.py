"""Assemble the static site: ``python tools/site/build.py [OUT]`` (default ``_site``).

The site is our page, its CSS and JS glue, our Python (every module of ``hearts/`` and
``web/``, and of the QR library segno, copied from the venv: run this with the venv's
Python; zipped into ``py/hearts.zip.gz`` and, for private tables and online play,
``py/hearts_later.zip.gz``, which web/static/start.mjs puts on sys.path; a first visit gets
them and its wasm and stdlib packed with brotli instead, ``NAME.br``: ``brotli.py``), and
the Python runtime copied from ``node_modules`` (Pyodide and PyScript, pinned by
package-lock.json; no ``*.map`` files). Then the fast start (``runtime.py``), the version
label (``version.py``) and, last as it lists all the others, the service worker
(``offline.py``). Everything is addressed by relative URLs.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(ROOT))

from tools.site import brotli, offline, runtime  # noqa: E402
from tools.site.version import stamp as stamp_version  # noqa: E402

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
STATIC = ROOT / "web" / "static"  # served as static/, but for these:
WORKER_TEMPLATE = STATIC / "sw.js"  # the site's sw.js is written from it (tools/site/offline.py)
MANIFEST = STATIC / "manifest.webmanifest"  # beside the page: its start URL and scope are "./"
ROOM_ENTRY = STATIC / "room.mjs"  # bundled with the relay library into static/room.js
PACKAGES = ("hearts", "web")  # every module of these goes into py/hearts.zip, and of
VENDORED = ("segno",)         # these, as installed for the Python running the build (the venv),
                              # the modules that importing the package loads
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed, so the zip's bytes depend only on the sources
# Private tables and online play, a third of our Python: an ordinary start (a first visit)
# fetches them only once the table is on the screen, from py/hearts_later.zip.gz, with the
# modules only they import. What `import web.main` imports stays in py/hearts.zip.gz.
LATER_PACKAGES = ("web.friends", "web.p2p", "segno")


def package_files(folder: Path, name: str) -> list[tuple[Path, str]]:
    """(source, name in the zip) for every module of the package in ``folder``, sub-packages
    included, as the package ``name`` (so its modules import as ``name.module``)."""
    return [(path, f"{name}/{path.relative_to(folder).as_posix()}")
            for path in sorted(folder.rglob("*.py")) if "__pycache__" not in path.parts]


def installed_package(name: str) -> Path:
    """The folder of the installed package ``name``, at the version pyproject.toml pins."""
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pin = next((dep for dep in pins["project"]["dependencies"]
                if dep.partition("==")[0] == name), None)
    spec = importlib.util.find_spec(name)
    try:
        installed = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        installed = None
    if pin is None or spec is None or spec.origin is None or f"{name}=={installed}" != pin:
        raise SystemExit(f"{name}: {pin or 'not pinned in pyproject.toml'} is needed, "
                         f"{sys.executable} has {installed or 'none'}: build with the venv's "
                         "Python (make site)")
    return Path(spec.origin).parent


def loaded_files(name: str) -> set[str]:
    """The files (relative to the package's folder) of the modules ``import name`` loads,
    asked of a fresh interpreter (a library's command line and helpers stay out)."""
    probe = ("import importlib, json, sys; importlib.import_module(sys.argv[1]); "
             "print(json.dumps([m.__file__ for k, m in sys.modules.items() "
             "if (k == sys.argv[1] or k.startswith(sys.argv[1] + '.')) "
             "and getattr(m, '__file__', None)]))")
    out = subprocess.run([sys.executable, "-c", probe, name], check=True, capture_output=True,
                         text=True).stdout
    folder = installed_package(name)
    return {Path(path).relative_to(folder).as_posix() for path in json.loads(out)}


def vendored_files(name: str) -> list[tuple[Path, str]]:
    """(source, name in the zip) for the modules of the installed package ``name`` that
    importing it loads."""
    wanted = loaded_files(name)
    folder = installed_package(name)
    return [(path, zipped) for path, zipped in package_files(folder, name)
            if path.relative_to(folder).as_posix() in wanted]


def python_files() -> list[tuple[Path, str]]:
    """(source, name in the zip) for every module the page may import."""
    return [entry for name in PACKAGES for entry in package_files(ROOT / name, name)] + [
        entry for name in VENDORED for entry in vendored_files(name)]


def _not_served(folder: str, names: list[str]) -> set[str]:
    """What of web/static/ is not copied to static/: the files of the site's root."""
    return {name for name in names
            if Path(folder, name) in (WORKER_TEMPLATE, MANIFEST, ROOM_ENTRY)}


def bundle_room(out: Path) -> None:
    """``static/room.js``: web/static/room.mjs and the relay library (Trystero, pinned in
    package-lock.json) in one minified file served from the site, bundled by esbuild."""
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    subprocess.run([str(esbuild), str(ROOM_ENTRY), "--bundle", "--format=esm", "--minify",
                    "--log-level=warning", f"--outfile={out / 'static' / 'room.js'}"],
                   check=True, cwd=ROOT)


def stored(py_zip: Path) -> bytes:
    """The zip ``py_zip`` with the same files stored, not deflated one by one: packed whole,
    it is 7-12 % smaller (the files share names and bytecode). Python imports from the zip
    once it is unpacked (zipimport)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(py_zip) as source, zipfile.ZipFile(buffer, "w") as kept:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, info.date_time)
            entry.external_attr = info.external_attr
            kept.writestr(entry, source.read(info), zipfile.ZIP_STORED)
    return buffer.getvalue()


def stored_and_gzipped(py_zip: Path) -> Path:
    """Replace ``py_zip`` by ``NAME.zip.gz``, stored and gzipped whole; web/static/start.mjs
    unpacks it (with zlib or DecompressionStream)."""
    target = py_zip.with_name(py_zip.name + ".gz")
    target.write_bytes(gzip.compress(stored(py_zip), compresslevel=9, mtime=0))
    py_zip.unlink()
    return target


def stored_and_brotli(py_zip: Path) -> Path:
    """Replace ``py_zip`` by ``NAME.zip.br``, stored and brotli-packed whole (``brotli.py``:
    a quarter smaller than gzip); web/static/start.mjs unpacks it with its brotli decoder."""
    target = brotli.pack(py_zip, stored(py_zip))
    py_zip.unlink()
    return target


def imported_by_main() -> set[str]:
    """The modules ``import web.main`` imports, in a fresh Python (the one running the build:
    the graph of imports is the page's; importing runs nothing of ours)."""
    script = "import json, sys, web.main; print(json.dumps(sorted(sys.modules)))"
    found = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)},
                           capture_output=True, text=True).stdout
    return set(json.loads(found))


def module_of(name: str) -> str:
    """The module a zip entry holds: ``web/p2p/__init__.pyc`` is ``web.p2p``."""
    return name.rpartition(".")[0].removesuffix("/__init__").replace("/", ".")


def imports_of(path: Path, module: str) -> set[str]:
    """What the import statements of ``path`` (the module ``module``) name, at any depth
    (function bodies too), relative imports resolved; ``from a import b`` names ``a``
    and ``a.b`` (a module or not)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def later_modules(files: list[tuple[Path, str]], imported: set[str]) -> set[str]:
    """The modules of ``files`` for the later zip: those of LATER_PACKAGES not
    ``imported`` at start, and any other not imported at start that imports one of them."""
    def in_later_packages(module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in LATER_PACKAGES)

    names = {module_of(name): imports_of(source, module_of(name)) for source, name in files}
    later = {m for m in names if in_later_packages(m) and m not in imported}
    grew = True
    while grew:
        grew = False
        for module, imports in names.items():
            if module not in later and module not in imported and imports & later:
                later.add(module)
                grew = True
    return later


def split_later(py_zip: Path, later: set[str]) -> Path:
    """Move the modules ``later`` from ``py_zip`` into ``hearts_later.zip`` beside it;
    returns that zip."""
    later_zip = py_zip.with_name("hearts_later.zip")
    kept = py_zip.with_name("hearts_first.zip")
    with zipfile.ZipFile(py_zip) as source, \
            zipfile.ZipFile(kept, "w", zipfile.ZIP_DEFLATED) as first, \
            zipfile.ZipFile(later_zip, "w", zipfile.ZIP_DEFLATED) as rest:
        for info in source.infolist():
            into = rest if module_of(info.filename) in later else first
            into.writestr(info, source.read(info))
    kept.replace(py_zip)
    return later_zip


def build(out: Path, version: str | None = None) -> Path:
    """Build the site into ``out`` (replacing it) and return it.

    ``version``: the label the page shows (default: ``HEARTS_VERSION``, else a hash
    of the site). ``HEARTS_FAST_START=0`` leaves out the fast start.
    """
    pyodide = ROOT / "node_modules" / "pyodide"
    pyscript = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
    for needed in (pyodide / "pyodide.mjs", pyscript / "core.js"):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: run `npm ci` first")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(STATIC, out / "static", ignore=_not_served)
    bundle_room(out)
    (out / "pyodide").mkdir()
    (out / "pyscript").mkdir()
    (out / "py").mkdir()
    shutil.copy2(ROOT / "index.html", out / "index.html")
    shutil.copy2(MANIFEST, out / MANIFEST.name)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, out / "pyodide" / name)
    for path in sorted(pyscript.iterdir()):
        if path.is_file() and not path.name.endswith(".map"):
            shutil.copy2(path, out / "pyscript" / path.name)
    with zipfile.ZipFile(out / "py" / "hearts.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for source, name in python_files():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
    if os.environ.get("HEARTS_FAST_START", "1") != "0":
        runtime.add(out)
    else:  # the first visit's start, on the npm stdlib (no snapshot: that start falls back)
        shutil.copy2(pyodide / "python_stdlib.zip", out / "pyodide" / "python_stdlib_plain.zip")
    later = later_modules(python_files(), imported_by_main())
    # A first visit's files come packed with brotli (tools/site/brotli.py); the zips that a
    # later visit's fallbacks may fetch are gzipped too.
    for py_zip in (split_later(out / "py" / "hearts.zip", later), out / "py" / "hearts.zip",
                   out / "pyodide" / "python_stdlib_later.zip"):
        if py_zip.exists():  # (a site without the fast start has no later stdlib)
            brotli.pack(py_zip, stored(py_zip))
            stored_and_gzipped(py_zip)
    stored_and_brotli(out / "pyodide" / "python_stdlib_plain.zip")
    brotli.pack(out / "pyodide" / "pyodide.asm.wasm")
    brotli.add_decoder(out / "static")
    # start.mjs: the wasm's size (for the loader's bar), the snapshot's unpacked (one
    # buffer) and its digest (the worker's cache keeps it unpacked under it), the lock
    # file's info without its packages (none ship)
    start = out / "static" / "start.mjs"
    sizes = {name: (out / "pyodide" / name).stat().st_size for name in ("pyodide.asm.wasm",)}
    snapshot = out / "pyodide" / "snapshot.bin.gz"
    digest = "/* snapshot digest */"  # (none: start.mjs reads no unpacked snapshot)
    if snapshot.exists():  # unpacked, the size gzip keeps in its last 4 bytes (< 4 GB)
        sizes["snapshot.bin"] = int.from_bytes(snapshot.read_bytes()[-4:], "little")
        digest = hashlib.sha256(snapshot.read_bytes()).hexdigest()
    lock = json.loads((out / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    start.write_text(start.read_text(encoding="utf-8")
                     .replace("{/* sizes */}", json.dumps(sizes), 1)
                     .replace('"/* snapshot digest */"', json.dumps(digest), 1)
                     .replace("{/* lock */}", json.dumps({"info": lock["info"], "packages": {}}),
                              1), encoding="utf-8")
    stamp_version(out, version or os.environ.get("HEARTS_VERSION") or None)
    offline.write(out, WORKER_TEMPLATE)
    return out


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "_site"
    build(out.resolve())
    print(f"built {out}")


if __name__ == "__main__":
    main(sys.argv)
