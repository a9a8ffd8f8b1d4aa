"""The safety net of the page's small stdlibs: module ``_hearts_stdlib`` in the page.

Both starts of the page mount a stdlib zip cut to what the page imports (the snapshot
start: ``python_stdlib_start.zip``; the ordinary start of a first visit:
``python_stdlib_plain.zip``). ``install(url)`` puts a finder last on ``sys.meta_path``: a
stdlib module missing from the small zip makes it fetch the whole precompiled stdlib at
``url`` (once, synchronously) and import from there, with a console warning naming the
module. ``tools/site/build_runtime.mjs`` runs this file in the snapshot's Python and zips
it, compiled, into ``python_stdlib_plain.zip``; it sets ``MODULES`` (every module of the
whole stdlib, so that other names, e.g. a library probing for an optional package, never
cost a download).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

MODULES: frozenset[str] = frozenset()  # set by the build
WHOLE = "/lib/python_stdlib_whole.zip"


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
    with open(path, "wb") as file:
        file.write(str(request.responseText).translate(table).encode("latin-1"))
    return True


class WholeStdlib:
    """Imports a stdlib module the small stdlib lacks: fetches the whole one, once."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.tried = False

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name not in MODULES or not self.url:
            return None
        if not self.tried:
            self.tried = True
            import js

            js.console.warn(f"Hearts: {name} is not in the start's stdlib: loading all of it")
            if not _fetch(self.url, WHOLE):
                return None
            sys.path.append(WHOLE)
            # Packages imported from the small zip look for their parts in the whole one too.
            for module in list(sys.modules.values()):
                _also_in_whole(getattr(module, "__path__", None))
            importlib.invalidate_caches()
        # A package imported from the small zip after the fetch (``email`` for
        # ``email.mime``) has only the small zip's folder: its part is looked for here.
        _also_in_whole(path)
        return importlib.machinery.PathFinder.find_spec(name, path, target)


def _also_in_whole(entries: object) -> None:
    """Add to a package's ``__path__`` the whole stdlib's folder for each small zip's."""
    if not isinstance(entries, list):
        return
    for entry in list(entries):
        if isinstance(entry, str) and entry.startswith("/lib/python3") and ".zip/" in entry:
            whole = WHOLE + "/" + entry.split(".zip/", 1)[1]
            if whole not in entries:
                entries.append(whole)


def install(url: str) -> None:
    """Put the finder last on ``sys.meta_path`` (once) and tell it the whole stdlib's URL."""
    for finder in sys.meta_path:
        if isinstance(finder, WholeStdlib):
            finder.url = url
            return
    sys.meta_path.append(WholeStdlib(url))
