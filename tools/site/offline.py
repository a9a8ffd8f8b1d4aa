"""The service worker: ``write(site, template)`` writes ``site/sw.js`` from the template
(``web/static/sw.js``) with the precache list of the site's files and a cache name made from
their contents, so any change to any file makes a new worker, which the browser installs
in the background on the next visit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

WORKER = "sw.js"  # at the site's root: a worker controls the folder it is served from

# PyScript chunks the page never loads: the code editor, the terminal, TOML configs, the zip
# helper, packages, MicroPython and the plugins index.html turns off (checked by the offline
# e2e tests, which play with no network). They stay on the site but are not precached:
# ~1.1 MB less per install or update.
NOT_PRECACHED = ("pyscript/codemirror", "pyscript/index-", "pyscript/xterm", "pyscript/toml-",
                 "pyscript/zip-", "pyscript/mpy-", "pyscript/pyodide_graph-",
                 "pyscript/service-worker", "pyscript/storage", "pyscript/py-editor-",
                 "pyscript/py-game-", "pyscript/py-terminal-", "pyscript/donkey-",
                 "pyscript/deprecations-manager-")
# The brotli copies of the wasm and the stdlib and their decoder (tools/site/brotli.py) are
# for a first visit, which no worker serves; a later one starts from the snapshot, or falls
# back to the files they copy, which are precached: ~3.9 MB less per install or update.
NOT_PRECACHED_SUFFIXES = (".br",)
NOT_PRECACHED_FOLDERS = ("static/brotli/",)


def site_files(site: Path) -> list[Path]:
    """Every file of the site but the service worker itself, sorted by path.

    The worker is left out of everything it lists: it is written from the list (so it can't
    hold its own hash), and the browser fetches it itself, bypassing any cache, to look for
    updates.
    """
    worker = site / WORKER
    return sorted((p for p in site.rglob("*") if p.is_file() and p != worker),
                  key=lambda p: p.relative_to(site).as_posix())


def url(site: Path, path: Path) -> str:
    """The URL of a site file relative to the worker; the page is cached as ``./``."""
    name = path.relative_to(site).as_posix()
    return "./" if name == "index.html" else name


def precache(site: Path, template: str = "") -> tuple[str, list[tuple[str, str]]]:
    """The worker's cache name and its precache list of (URL, sha256 of the content).

    The cache name hashes every site file's path and bytes (those not precached too) and the
    worker's template: it changes whenever anything the site serves changes.
    """
    h = hashlib.sha256()
    entries = []
    for path in site_files(site):
        name = path.relative_to(site).as_posix()
        digest = hashlib.sha256(path.read_bytes())
        h.update(name.encode() + b"\0")
        h.update(digest.digest())
        if not (name.startswith((*NOT_PRECACHED, *NOT_PRECACHED_FOLDERS))
                or name.endswith(NOT_PRECACHED_SUFFIXES)):
            entries.append((url(site, path), digest.hexdigest()))
    h.update(template.encode())
    return h.hexdigest()[:16], entries


def write(site: Path, template: Path) -> str:
    """Write ``site/sw.js`` from ``template``; returns its cache name."""
    text = template.read_text(encoding="utf-8")
    cache, entries = precache(site, text)
    listing = "[\n" + ",\n".join(f" {json.dumps(list(e))}" for e in entries) + "\n]"
    (site / WORKER).write_text(
        text.replace("__CACHE_VERSION__", cache).replace("__PRECACHE__", listing),
        encoding="utf-8")
    return cache
