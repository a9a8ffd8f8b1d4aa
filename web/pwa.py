"""Build steps that make the site fast to start, installable and offline (issue 5).

``finish(out)`` runs after ``web/build.py`` has assembled ``out`` and adds:

* ``pyodide/python_stdlib.zip`` precompiled to ``.pyc``, ``pyodide/snapshot.bin.gz``, a
  memory snapshot with our engine imported, and ``.pyc`` files added to ``py/hearts.zip``
  for the modules that load at start: all made by ``tools/build_runtime.mjs`` under
  Node from the pinned Pyodide, cached in ``node_modules/.cache/hearts-runtime/`` by the
  hash of everything they depend on (so a rebuild with the same inputs costs a copy);
* the app's icons, drawn here (an SVG and PNGs rendered by a small signed-distance
  rasteriser and PNG writer, so the build needs nothing but Python) and its manifest;
* the version label in ``index.html`` (a content hash unless given);
* ``sw.js``, from ``web/sw.js``: the precache list of every file of the site and a cache
  name made from their content hashes.

Standard library only: the site build runs on the system Python.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
RUNTIME_TOOL = ROOT / "tools" / "build_runtime.mjs"
CACHE = ROOT / "node_modules" / ".cache" / "hearts-runtime"
ICON_CACHE = ROOT / "node_modules" / ".cache" / "hearts-icons"
RUNTIME_FILES = {"python_stdlib.zip": "pyodide", "snapshot.bin.gz": "pyodide", "hearts.zip": "py"}

# Imported before the snapshot is taken: the stdlib modules the page and PyScript load at
# start (seen in sys.modules of a running page), then all of our own modules.
SNAPSHOT_STDLIB = (
    "asyncio", "base64", "codeop", "collections", "contextlib", "dataclasses", "dis",
    "enum", "functools", "html", "inspect", "json", "logging", "pathlib", "random", "re",
    "shutil", "socket", "ssl", "subprocess", "tempfile", "textwrap", "tokenize", "traceback",
    "typing", "urllib.parse", "zipfile",
)
SNAPSHOT_SKIP = ("hearts.bench", "hearts.arena", "web.app", "web.pwa", "web.build", "web.serve")

THEME = "#0f5132"      # as index.html's theme-color
FELT = (23, 100, 58)   # --felt
RED = (196, 16, 43)    # --red
CARD = (255, 255, 255)
VERSION_MARK = '<span id="version">dev</span>'


# --- fast start ------------------------------------------------------------------------------

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


def runtime(out: Path) -> None:
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


# --- icons -----------------------------------------------------------------------------------

def _png(width: int, height: int, rows: Iterable[bytes]) -> bytes:
    """An 8-bit RGBA PNG from rows of width*4 bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance to a rounded rectangle (centre, half sizes, corner radius)."""
    qx = abs(px - cx) - hw + r
    qy = abs(py - cy) - hh + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


class _Heart:
    """The heart: a square turned 45° with a circle on each upper side (the classic shape)."""

    def __init__(self, cx: float, cy: float, width: float) -> None:
        d = width / (1 + math.sqrt(2))          # half diagonal of the square
        self.cx, self.d = cx, d
        self.cy = cy + (1.5 + 1 / math.sqrt(2) - 2) / 2 * d  # centred on its own height
        self.h = d / math.sqrt(2)               # half side of the square = circle radius
        self.circles = ((cx - d / 2, self.cy - d / 2), (cx + d / 2, self.cy - d / 2))

    def sd(self, px: float, py: float) -> float:
        dx, dy = px - self.cx, py - self.cy
        u, v = (dx + dy) / math.sqrt(2), (dx - dy) / math.sqrt(2)
        qx, qy = abs(u) - self.h, abs(v) - self.h
        dist = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0)
        for ox, oy in self.circles:
            dist = min(dist, math.hypot(px - ox, py - oy) - self.h)
        return dist

    def svg(self) -> str:
        s = 2 * self.h
        (lx, ly), (rx, ry) = self.circles
        return (f'<g fill="rgb{RED}"><rect x="{self.cx - self.h:.2f}" y="{self.cy - self.h:.2f}" '
                f'width="{s:.2f}" height="{s:.2f}" '
                f'transform="rotate(45 {self.cx:.2f} {self.cy:.2f})"/>'
                f'<circle cx="{lx:.2f}" cy="{ly:.2f}" r="{self.h:.2f}"/>'
                f'<circle cx="{rx:.2f}" cy="{ry:.2f}" r="{self.h:.2f}"/></g>')


def _layout(maskable: bool) -> tuple[float, float, float, float, _Heart]:
    """(background corner radius, card half width, half height, corner radius, heart), in a
    unit square. A maskable icon fills the square; its card stays in the 80 % safe circle."""
    scale = 0.78 if maskable else 1.0
    hw, hh = 0.30 * scale, 0.40 * scale
    return (0.0 if maskable else 0.2, hw, hh, 0.06 * scale, _Heart(0.5, 0.5, 0.46 * scale))


def icon_svg(maskable: bool = False) -> str:
    radius, hw, hh, r, heart = _layout(maskable)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
            f'<rect width="1" height="1" rx="{radius}" fill="rgb{FELT}"/>'
            f'<rect x="{0.5 - hw:.3f}" y="{0.5 - hh:.3f}" width="{2 * hw:.3f}" '
            f'height="{2 * hh:.3f}" rx="{r:.3f}" fill="rgb{CARD}"/>'
            f"{heart.svg()}</svg>\n")


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG of ``size`` pixels, anti-aliased by signed distance."""
    radius, hw, hh, r, heart = _layout(maskable)
    layers: list[tuple[tuple[int, int, int], Callable[[float, float], float]]] = [
        (FELT, lambda x, y: _box(x, y, 0.5, 0.5, 0.5, 0.5, radius)),
        (CARD, lambda x, y: _box(x, y, 0.5, 0.5, hw, hh, r)),
        (RED, heart.sd),
    ]
    rows = []
    for j in range(size):
        y = (j + 0.5) / size
        row = bytearray()
        for i in range(size):
            x = (i + 0.5) / size
            color = (0.0, 0.0, 0.0)
            alpha = 0.0
            for rgb, sd in layers:
                cover = 0.5 - sd(x, y) * size
                if cover <= 0.0:
                    break  # each layer lies inside the one below it
                cover = min(cover, 1.0)
                color = tuple(c + (v - c) * cover for c, v in zip(color, rgb, strict=True))
                alpha = alpha + (1.0 - alpha) * cover
            if alpha > 0:
                row += bytes(round(c) for c in color) + bytes((round(alpha * 255),))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return _png(size, size, rows)


ICONS = (  # file, size, maskable
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-192.png", 192, True),
    ("maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


def icons(out: Path) -> None:
    """Write ``out/icons/``: the SVG (also the favicon) and the PNG sizes (rendering takes
    a few seconds, so they are cached by this file's hash)."""
    folder = out / "icons"
    folder.mkdir(exist_ok=True)
    (folder / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    cached = ICON_CACHE / _digest([Path(__file__)])[:24]
    if not all((cached / name).exists() for name, _, _ in ICONS):
        cached.mkdir(parents=True, exist_ok=True)
        for name, size, maskable in ICONS:
            part = cached / f"{name}.{os.getpid()}.part"  # (builds may run side by side)
            part.write_bytes(icon_png(size, maskable))
            part.replace(cached / name)
    for name, _, _ in ICONS:
        shutil.copyfile(cached / name, folder / name)


def manifest(out: Path) -> None:
    """The web app manifest; every URL relative, so the site works under any sub-path."""
    data = {
        "name": "Hearts",
        "short_name": "Hearts",
        "description": "Hearts against three computer players. Works offline.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME,
        "theme_color": THEME,
        "categories": ["games"],
        "icons": [
            {"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            *({"src": f"icons/{name}", "sizes": f"{size}x{size}", "type": "image/png",
               "purpose": "maskable" if maskable else "any"}
              for name, size, maskable in ICONS if name != "apple-touch-icon.png"),
        ],
    }
    (out / "manifest.webmanifest").write_text(json.dumps(data, indent=1) + "\n",
                                              encoding="utf-8")


# --- version and service worker -------------------------------------------------------------

# PyScript chunks the page never loads: the code editor, the terminal, TOML configs, the zip
# helper, packages and MicroPython (checked by the offline e2e tests, which play with no
# network). They stay on the site but are not precached: ~1.1 MB less per install or update.
NOT_PRECACHED = ("pyscript/codemirror", "pyscript/index-", "pyscript/xterm", "pyscript/toml-",
                 "pyscript/zip-", "pyscript/mpy-", "pyscript/pyodide_graph-",
                 "pyscript/service-worker", "pyscript/storage")


def site_files(out: Path) -> list[Path]:
    """Every file of the site but the service worker itself, sorted."""
    return sorted(p for p in out.rglob("*") if p.is_file() and p.name != "sw.js")


def precached(out: Path) -> list[Path]:
    """The files the service worker caches at install."""
    return [p for p in site_files(out)
            if not p.relative_to(out).as_posix().startswith(NOT_PRECACHED)]


def stamp_version(out: Path, version: str | None) -> str:
    """Write the version label into index.html: ``version``, else a hash of the site."""
    page = out / "index.html"
    text = page.read_text(encoding="utf-8")
    if version is None:
        version = _digest(site_files(out))[:8]
    if VERSION_MARK in text:
        page.write_text(text.replace(VERSION_MARK, f'<span id="version">{version}</span>'),
                        encoding="utf-8")
    return version


def service_worker(out: Path) -> str:
    """Write ``out/sw.js``; returns its cache name."""
    files = site_files(out)
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(out).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    template = (ROOT / "web" / "sw.js").read_text(encoding="utf-8")
    h.update(template.encode())
    cache = h.hexdigest()[:16]
    entries = [["./" if p.name == "index.html" and p.parent == out
                else p.relative_to(out).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()]
               for p in precached(out)]
    listing = "[\n" + ",\n".join(f" {json.dumps(e)}" for e in entries) + "\n]"
    text = (template.replace("__CACHE_VERSION__", cache).replace("__PRECACHE__", listing))
    (out / "sw.js").write_text(text, encoding="utf-8")
    return cache


def finish(out: Path, version: str | None = None) -> str:
    """All of the above, in order (the service worker last: it lists the others)."""
    if os.environ.get("HEARTS_FAST_START", "1") != "0":
        runtime(out)
    icons(out)
    manifest(out)
    stamp_version(out, version or os.environ.get("HEARTS_VERSION") or None)
    return service_worker(out)
