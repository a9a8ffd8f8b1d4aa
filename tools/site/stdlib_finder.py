"""The safety net of the page's small stdlibs: module ``_hearts_stdlib`` in the page.

Both starts of the page mount a stdlib zip cut to what the page imports (the snapshot
start: ``python_stdlib_start.zip``; the ordinary start of a first visit:
``python_stdlib_plain.zip``, what the page imports until its table is ready, and after it
``python_stdlib_later.zip``, the rest of what it may import, which web/static/start.mjs
fetches once the table is on the screen and mounts with ``add_zip``).
``install(url, later)`` puts a finder last on ``sys.meta_path``: a stdlib module missing
from the zips mounted makes it fetch the later zip at ``later`` if it isn't mounted yet, then
the whole precompiled stdlib at ``url`` (each once, synchronously) and import from there,
with a console warning naming the module. ``tools/site/build_runtime.mjs`` runs this file
in the snapshot's Python and zips it, compiled, into ``python_stdlib_plain.zip``; it sets
``MODULES`` (every module of the whole stdlib, so that other names, e.g. a library probing
for an optional package, never cost a download).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

MODULES: frozenset[str] = frozenset()  # set by the build
WHOLE = "/lib/python_stdlib_whole.zip"
LATER = "/lib/python_stdlib_later.zip"


def _fetch(url: str, path: str) -> bool:
    """Write the file at ``url`` to ``path`` (a synchronous request: imports can't wait)."""
    import js  # type: ignore[import-not-found]  # the page's, not importable at build time

    request = js.XMLHttpRequest.new()
    request.open("GET", url, False)
    request.overrideMimeType("text/plain; charset=x-user-defined")
    request.send(None)
    if request.status != 200:
        return False
    table = {0xF780 + i: 0x80 + i for i in range(128)}
    data = str(request.responseText).translate(table).encode("latin-1")
    if data[:2] == b"\x1f\x8b":  # (gzipped, unless the server sent it unpacked)
        import zlib

        data = zlib.decompress(data, 31)
    with open(path, "wb") as file:
        file.write(data)
    return True


class WholeStdlib:
    """Imports a stdlib module the small stdlib lacks: fetches the later zip, then the
    whole stdlib, each once."""

    def __init__(self, url: str, later: str = "") -> None:
        self.url = url
        self.later = later
        self.tried = False
        """The whole stdlib was fetched (or tried)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name not in MODULES:
            return None
        if self.later and LATER not in sys.path:
            import js

            js.console.warn(f"Hearts: {name} is not in the first stdlib: loading the rest now")
            if _fetch(self.later, LATER):
                add_zip(LATER)
                _also_in(LATER, path)
                spec = importlib.machinery.PathFinder.find_spec(name, path, target)
                if spec is not None:
                    return spec
            self.later = ""  # (tried)
        if not self.url:
            return None
        if not self.tried:
            self.tried = True
            import js

            js.console.warn(f"Hearts: {name} is not in the start's stdlib: loading all of it")
            if not _fetch(self.url, WHOLE):
                return None
            add_zip(WHOLE)
        # A package imported from the small zip after the fetch (``email`` for
        # ``email.mime``) has only the small zip's folder: its part is looked for here.
        _also_in(WHOLE, path)
        return importlib.machinery.PathFinder.find_spec(name, path, target)


def _also_in(mounted: str, entries: object) -> None:
    """Add to a package's ``__path__`` the folder of the zip ``mounted`` for each of the
    small zip's (or the later zip's: both hold parts of the stdlib)."""
    if not isinstance(entries, list):
        return
    for entry in list(entries):
        if isinstance(entry, str) and entry.startswith(("/lib/python3", LATER + "/")) \
                and ".zip/" in entry:
            folder = mounted + "/" + entry.split(".zip/", 1)[1]
            if folder not in entries:
                entries.append(folder)


def add_zip(path: str) -> None:
    """Put the stdlib zip at ``path`` (the later one, or the whole) on ``sys.path``, after
    the small one, and its folders in the ``__path__`` of the packages imported already."""
    if path in sys.path:
        return
    sys.path.append(path)
    for module in list(sys.modules.values()):
        _also_in(path, getattr(module, "__path__", None))
    # (no importlib.invalidate_caches(): a new entry has no cache yet, and that call would
    # import importlib.metadata, and email, for nothing)


def install(url: str, later: str = "") -> None:
    """Put the finder last on ``sys.meta_path`` (once) and tell it the whole stdlib's URL
    and the later zip's (none: the start has none)."""
    for finder in sys.meta_path:
        if isinstance(finder, WholeStdlib):
            finder.url = url
            finder.later = later
            return
    sys.meta_path.append(WholeStdlib(url, later))
