"""This page's own steps of a hand that take long: made in slices, each done when made.

Each is a generator of steps (``hearts.steps``: a power, or a part of one, a step) and what
its result does once made: most send a message the other pages wait for. They are taken
in a fixed order, a slice of one at a time (``Making.slice_step``): the card being played
first (the table waits for it), then the record's digest at the hand's end, the shuffle
and the lock of a deck, a pass's blind and unblind and the reading of the cards passed
in, an opening round. No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["ORDER", "Making"]

ORDER: Final = ("play", "digest", "shuffle", "lock", "blind", "unblind", "read", "open")
"""The kinds of step, the first due first."""

Slice = Callable[[Generator[None, None, Any]], tuple[bool, Any]]
"""Steps of a generator for a slice's time: whether it finished, and its value if so."""


@dataclass
class _Job:
    steps: Generator[None, None, Any]
    done: Callable[[Any], None]
    about: object


class Making:
    """The long steps of this page being made, at most one of each kind."""

    def __init__(self, slice_: Slice) -> None:
        self._slice = slice_
        self._jobs: dict[str, _Job] = {}

    def start(self, kind: str, steps: Generator[None, None, Any],
              done: Callable[[Any], None], about: object = None) -> None:
        """Make ``steps`` in slices, then call ``done`` with its result; ``about``: what it
        is about (the card played, say: ``about``)."""
        assert kind in ORDER and kind not in self._jobs, kind
        self._jobs[kind] = _Job(steps, done, about)

    def __contains__(self, kind: str) -> bool:
        """Whether a step of ``kind`` is being made."""
        return kind in self._jobs

    def about(self, kind: str) -> object:
        """What the step of ``kind`` being made is about (None: none is)."""
        job = self._jobs.get(kind)
        return None if job is None else job.about

    def slice_step(self) -> bool | None:
        """A slice of the first step due: None if none is being made, else whether this
        slice finished it (then it is done, and more may be due)."""
        for kind in ORDER:
            job = self._jobs.get(kind)
            if job is None:
                continue
            finished, made = self._slice(job.steps)
            if finished:
                del self._jobs[kind]
                job.done(made)
            return finished
        return None
