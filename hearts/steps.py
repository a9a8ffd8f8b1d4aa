"""Work done in slices: a generator that yields between slices and returns its result.

The computers' search, the coach's review and the fair table's audit each come as such a
generator, so that a page can run them a slice at a time and stay responsive; ``run`` is
the same work done at once (tests, tools, a caller with no page to keep alive).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")


def run(steps: Generator[Any, Any, T]) -> T:
    """Run ``steps`` to its end; its return value.

    >>> def count() -> Generator[None, None, int]:
    ...     yield
    ...     return 3
    >>> run(count())
    3
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: T = done.value
            return result
