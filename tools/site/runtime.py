"""The fast start: Python precompiled and pre-imported at build time.

``add(site)`` replaces ``pyodide/python_stdlib.zip`` by the same files precompiled to
``.pyc``, adds ``pyodide/snapshot.bin.gz`` (a memory snapshot with our modules imported)
and puts a ``.pyc`` beside every module of ``py/hearts.zip``. All three are made by
``tools/site/build_runtime.mjs`` under Node from the pinned Pyodide, and cached in
``node_modules/.cache/hearts-runtime/`` by the hash of everything they depend on (so a
rebuild with the same inputs costs a copy).
"""

from __future__ import annotations

import hashlib
import re
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
RUNTIME_FILES = {"python_stdlib.zip": "pyodide", "snapshot.bin.gz": "pyodide", "hearts.zip": "py"}

# Imported before the snapshot is taken: the stdlib modules the page and PyScript load at
# start (seen in sys.modules of a running page), then all of our own modules.
SNAPSHOT_STDLIB = (
    "asyncio", "base64", "codeop", "collections", "contextlib", "dataclasses", "dis",
    "enum", "functools", "html", "inspect", "json", "logging", "pathlib", "random", "re",
    "shutil", "socket", "ssl", "subprocess", "tempfile", "textwrap", "tokenize", "traceback",
    "typing", "urllib.parse", "zipfile",
)
SNAPSHOT_SKIP = ("hearts.bench", "hearts.arena", "web.app")


def _digest(paths: Iterable[Path], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


# A module that touches the browser (js, pyscript, pyodide.ffi) can't be imported under Node,
# and JS objects caught in a snapshot would break its restore: such modules load at start.
_BROWSER_IMPORT = re.compile(rb"^\s*(?:from|import)\s+(?:js|pyscript|pyodide)\b", re.MULTILINE)


def snapshot_modules(py_zip: Path) -> list[str]:
    """What to import before the snapshot: the stdlib list, then those of our modules in the
    zip that don't use the browser (the engine, and the page's pure helpers)."""
    ours = []
    with zipfile.ZipFile(py_zip) as archive:
        for name in sorted(archive.namelist()):
            if not name.endswith(".py"):
                continue
            module = name[:-3].replace("/", ".").removesuffix(".__init__")
            if module not in SNAPSHOT_SKIP and not _BROWSER_IMPORT.search(archive.read(name)):
                ours.append(module)
    return [*SNAPSHOT_STDLIB, *ours]


def add(out: Path) -> None:
    """Put the precompiled stdlib, the snapshot and our zip with .pyc into ``out`` (cached)."""
    py_zip = out / "py" / "hearts.zip"
    modules = snapshot_modules(py_zip)
    key = _digest([*(PYODIDE / n for n in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs",
                                           "python_stdlib.zip", "pyodide-lock.json")),
                   RUNTIME_TOOL, py_zip], extra=" ".join(modules))
    cached = CACHE / key[:24]
    if not all((cached / name).exists() for name in RUNTIME_FILES):
        CACHE.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="building-", dir=CACHE))
        try:
            print("building the Python runtime (precompiled stdlib, memory snapshot) under Node…",
                  flush=True)
            subprocess.run(["node", str(RUNTIME_TOOL), str(work), str(py_zip), *modules],
                           check=True)
            try:
                work.rename(cached)
            except OSError:  # another build got there first: theirs is the same
                shutil.rmtree(work, ignore_errors=True)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        _prune(keep=cached)
    for name, folder in RUNTIME_FILES.items():
        shutil.copyfile(cached / name, out / folder / name)


def _prune(keep: Path, entries: int = 4) -> None:
    """Keep the cache small: the newest few entries."""
    done = sorted((p for p in CACHE.iterdir() if p.is_dir() and not p.name.startswith("building-")),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for old in done[entries:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
