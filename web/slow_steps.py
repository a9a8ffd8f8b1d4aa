"""The page's own steps that took long, named on the console: ``?slow=MS``.

For finding the long tasks of a page (Python inside Pyodide shows in a DevTools profile
only as the interpreter's wasm): each step wrapped in ``timed`` that takes at least ``MS``
milliseconds prints ``slow step NAME 123 ms``, which ``e2e/measure.py --fair`` gathers (a
step inside another is printed when the outer one ends, so the printing isn't timed).
With ``&calls=N`` too, each such step is run under CPython's profiler (``_lsprof``, the
engine of ``cProfile``; it slows the step some twofold) and the line names the ``N``
Python functions that took most of it, each with its own time and its time with what it
called (``slow calls NAME: module.function 12/40 ms, ...``). Off unless the address asks
(``web.options``); off, a step costs one comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import Any

__all__ = ["costliest", "timed", "watch"]

_limit: list[float] = []
"""The threshold in seconds, if the page's address asked for one (``watch``)."""
_calls: list[int] = []
"""How many functions a slow step's line names (``watch``), if asked."""
_profiling: list[Any] = []
"""The profiler of the outermost timed step under way (one at a time: CPython has one)."""
_open: list[str] = []
"""The timed steps under way, outermost first."""
_lines: list[str] = []
"""The lines of the steps inside the outermost one, printed when it ends: printing is a
call out of Python, and a line printed inside a step would be timed as part of it."""


def watch(ms: float | None, calls: int = 0) -> None:
    """Name every timed step of at least ``ms`` milliseconds from now on (None: none);
    ``calls``: with its costliest ``calls`` Python functions (0: not profiled)."""
    _limit[:] = [] if ms is None else [ms / 1000]
    _calls[:] = [calls] if calls > 0 and ms is not None else []


def costliest(stats: list[Any], count: int) -> str:
    """The ``count`` functions of a profile (``_lsprof.Profiler.getstats()``) with the
    most time of their own: ``module.function own/with-callees ms``.

    >>> from types import SimpleNamespace as S
    >>> code = compile("def f(): pass", "web/x.py", "exec").co_consts[0]
    >>> costliest([S(code=code, inlinetime=0.002, totaltime=0.005),
    ...            S(code="<built-in method pow>", inlinetime=0.01, totaltime=0.01)], 5)
    'built-in method pow 10/10 ms, x.f 2/5 ms'
    """
    def name(code: Any) -> str:
        if isinstance(code, str):
            return code.strip("<>")
        module = code.co_filename.rsplit("/", 1)[-1].removesuffix(".py")
        return f"{module}.{code.co_qualname}"
    top = sorted(stats, key=lambda entry: -entry.inlinetime)[:count]
    return ", ".join(f"{name(entry.code)} {entry.inlinetime * 1000:.0f}/"
                     f"{entry.totaltime * 1000:.0f} ms" for entry in top)


@contextmanager
def timed(name: str) -> Iterator[None]:
    """Time the step inside; print it if it took at least the threshold.

    >>> watch(0); import io, contextlib; out = io.StringIO()
    >>> with contextlib.redirect_stdout(out), timed("nothing"): pass
    >>> out.getvalue().startswith("slow step nothing ")
    True
    >>> out = io.StringIO()
    >>> with contextlib.redirect_stdout(out), timed("outer"):
    ...     with timed("inner"): printed_inside = out.getvalue()
    >>> printed_inside, [line.split()[2] for line in out.getvalue().splitlines()]
    ('', ['inner', 'outer'])
    >>> watch(None)
    """
    if not _limit:
        yield
        return
    profiler = None
    if _calls and not _profiling:
        import _lsprof  # (only when asked: the measuring tool's)

        profiler = _lsprof.Profiler()
        _profiling.append(profiler)
        profiler.enable()
    _open.append(name)
    start = perf_counter()
    try:
        yield
    finally:
        took = perf_counter() - start
        if profiler is not None:
            profiler.disable()
            _profiling.clear()
        _open.pop()
        if took >= _limit[0]:
            _lines.append(f"slow step {name} {took * 1000:.0f} ms")
            if profiler is not None:
                _lines.append(f"slow calls {name}: {costliest(profiler.getstats(), _calls[0])}")
        if not _open:
            for line in _lines:
                print(line)
            _lines.clear()
