"""The fast start: Python precompiled and pre-imported at build time.

``add(site)`` replaces ``pyodide/python_stdlib.zip`` by the same files precompiled to
``.pyc``, adds ``pyodide/snapshot.bin.gz`` (a memory snapshot with our modules imported)
and the two small stdlibs cut from the big one for the two starts
(``python_stdlib_start.zip``, ``python_stdlib_plain.zip`` and, for later, its
``python_stdlib_later.zip``), and replaces ``py/hearts.zip``
by the same modules precompiled, without their sources (0.4 instead of 0.6 MB: the
snapshot start has them imported already; on a first visit compiling them would cost
~0.5 s; tracebacks keep file names and line numbers). All are made by
``tools/site/build_runtime.mjs`` under Node from the pinned Pyodide, and cached in
``node_modules/.cache/hearts-runtime/`` by the hash of everything they depend on (so a
rebuild with the same inputs costs a copy).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
RUNTIME_TOOL = Path(__file__).resolve().parent / "build_runtime.mjs"
CACHE = ROOT / "node_modules" / ".cache" / "hearts-runtime"
FINDER = Path(__file__).resolve().parent / "stdlib_finder.py"
PYSCRIPT_STDLIB = ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
RUNTIME_FILES = {"python_stdlib.zip": "pyodide", "python_stdlib_start.zip": "pyodide",
                 "python_stdlib_plain.zip": "pyodide", "python_stdlib_later.zip": "pyodide",
                 "snapshot.bin.gz": "pyodide", "hearts_site.zip": "py/hearts.zip"}

# Imported before the snapshot is taken: the stdlib modules the page and PyScript load at
# start (seen in sys.modules of a running page), then all of our own modules.
SNAPSHOT_STDLIB = (
    "asyncio", "base64", "codeop", "collections", "contextlib", "dataclasses", "dis",
    "enum", "functools", "html", "importlib.metadata", "inspect", "json", "logging",
    "pathlib", "random", "re",
    "shutil", "socket", "ssl", "subprocess", "tempfile", "textwrap", "tokenize", "traceback",
    "typing", "urllib.parse", "zipfile",
)
# The snapshot start gets a small stdlib (python_stdlib_start.zip) with only what may be
# imported after the restore: the packages encodings, pyodide and _pyodide whole, and the
# modules of STDLIB_USED that the snapshot lacks. STDLIB_USED lists the stdlib modules seen
# in sys.modules of the pages of the e2e tests (every phase: a hand, the dialogs, private
# tables, the error dialog), recorded by tools/site/record_stdlib.py. A module missing from
# the small stdlib still imports: Python then fetches the whole python_stdlib.zip (once,
# with a console warning naming the module), so re-record after the page imports more.
STDLIB_USED = Path(__file__).resolve().parent / "stdlib_used.txt"
START_STDLIB_EXTRA = tuple(STDLIB_USED.read_text(encoding="utf-8").split())
# The first visit's stdlib is cut in two: python_stdlib_plain.zip holds the modules of
# STDLIB_FIRST, those in sys.modules of a page started the ordinary way once its table is
# ready (recorded by ``python -m tools.site.record_stdlib --first _site``), and
# python_stdlib_later.zip the rest of what the page may import, fetched once the table is on
# the screen (web/static/start.mjs). A module missing from the first zip still imports: the
# finder fetches the later zip then (once, synchronously, with a console warning).
STDLIB_FIRST = Path(__file__).resolve().parent / "stdlib_first.txt"
PLAIN_STDLIB_FIRST = tuple(STDLIB_FIRST.read_text(encoding="utf-8").split())
# Every module of our zip is imported before the snapshot too. The page's modules import
# nothing of the browser on import (only web/browser.py reaches PyScript, when main() runs),
# so one that fails to import under Node is a bug: True makes it stop the build. (False
# would leave it out, named in the build's log, to be imported at each start instead.)
STRICT_IMPORTS = True


def _digest(paths: Iterable[Path], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def zip_modules(py_zip: Path) -> list[str]:
    """The modules of a zip of Python files, in the zip's order (packages by their name)."""
    with zipfile.ZipFile(py_zip) as archive:
        return [name[:-3].replace("/", ".").removesuffix(".__init__")
                for name in archive.namelist() if name.endswith(".py")]


def snapshot_modules(py_zip: Path) -> list[str]:
    """What to import before the snapshot: the stdlib list, then every module of the zip
    (but a ``__main__``, which would run its program)."""
    ours = [m for m in zip_modules(py_zip) if m.rpartition(".")[2] != "__main__"]
    return [*SNAPSHOT_STDLIB, *ours]


def add(out: Path) -> None:
    """Put the precompiled stdlib, the snapshot and our zip with .pyc into ``out`` (cached)."""
    py_zip = out / "py" / "hearts.zip"
    modules = snapshot_modules(py_zip)
    key = _digest([*(PYODIDE / n for n in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs",
                                           "python_stdlib.zip", "pyodide-lock.json")),
                   PYSCRIPT_STDLIB, RUNTIME_TOOL, FINDER, py_zip],
                  extra=f"{STRICT_IMPORTS} {' '.join(modules)} | {' '.join(START_STDLIB_EXTRA)}"
                        f" | {' '.join(PLAIN_STDLIB_FIRST)}")
    cached = CACHE / key[:24]
    if not all((cached / name).exists() for name in RUNTIME_FILES):
        CACHE.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="building-", dir=CACHE))
        try:
            print("building the Python runtime (precompiled stdlib, memory snapshot) under Node…",
                  flush=True)
            strict = ["--strict"] if STRICT_IMPORTS else []
            done = subprocess.run(["node", str(RUNTIME_TOOL), *strict, str(work), str(py_zip),
                                   *modules, "--extra", *START_STDLIB_EXTRA,
                                   "--first", *PLAIN_STDLIB_FIRST], check=False)
            if done.returncode:
                raise SystemExit(f"{RUNTIME_TOOL.name} failed (exit {done.returncode}): see "
                                 "its lines above")
            try:
                work.rename(cached)
            except OSError:  # another build got there first: theirs is the same
                shutil.rmtree(work, ignore_errors=True)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        _prune(keep=cached)
    for name, where in RUNTIME_FILES.items():
        target = out / where
        shutil.copyfile(cached / name, target if target.suffix else target / name)


def _prune(keep: Path, entries: int = 4) -> None:
    """Keep the cache small: the newest few entries."""
    done = sorted((p for p in CACHE.iterdir() if p.is_dir() and not p.name.startswith("building-")),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for old in done[entries:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
