"""The page's own steps that took long, named on the console: ``?slow=MS``.

For finding the long tasks of a page (Python inside Pyodide shows in a DevTools profile
only as wasm): each step wrapped in ``timed`` that takes at least ``MS`` milliseconds
prints ``slow step NAME 123 ms``, which ``e2e/measure.py --fair`` gathers. Off unless the
address asks (``web.options``); off, a step costs one comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter

__all__ = ["timed", "watch"]

_limit: list[float] = []
"""The threshold in seconds, if the page's address asked for one (``watch``)."""


def watch(ms: float | None) -> None:
    """Name every timed step of at least ``ms`` milliseconds from now on (None: none)."""
    _limit[:] = [] if ms is None else [ms / 1000]


@contextmanager
def timed(name: str) -> Iterator[None]:
    """Time the step inside; print it if it took at least the threshold.

    >>> watch(0); import io, contextlib; out = io.StringIO()
    >>> with contextlib.redirect_stdout(out), timed("nothing"): pass
    >>> out.getvalue().startswith("slow step nothing "); watch(None)
    True
    """
    if not _limit:
        yield
        return
    start = perf_counter()
    try:
        yield
    finally:
        took = perf_counter() - start
        if took >= _limit[0]:
            print(f"slow step {name} {took * 1000:.0f} ms")
