"""How much a looking page may read from the lobby in a minute, whatever the crowd.

A page reads the lobby's LOOKs and DOORs only by one-shot queries (a ``REQ`` closed once
answered, its filter ending before the second it is sent in), each capped by its filter's
``limit``, which the relay enforces: so what the queries bring is bounded by the sum of the
limits asked, and the page asks for at most ``QUERIES`` events in any minute. The only
live subscription is to the notes addressed to this page; it counts them and stops
reading notes past ``NOTES`` in a minute. Meant to be shared by every look a page makes in
that minute. No I/O, no clock of its own.
"""

from __future__ import annotations

from collections import deque

__all__ = ["NOTES", "QUERIES", "WINDOW", "ReadBudget"]

WINDOW = 60.0
"""Seconds over which reads are counted."""
QUERIES = 488
"""Events a page may ask of its queries in a minute: ten probes and ten reads of its shard
of ``CROWD`` (24) each, and the open doors once (8); a dealer's LOOK looked up (1) comes
out of it too."""
NOTES = 16
"""Notes to this page it reads in a minute (an honest look gets at most ~6: an
invitation and a seat, or three answers, or a welcome)."""


class ReadBudget:
    """The lobby events a page asked for (queries) and read (notes) in the last minute."""

    def __init__(self, queries: int = QUERIES, notes: int = NOTES,
                 window: float = WINDOW) -> None:
        self.queries = queries
        self.notes = notes
        self.window = window
        self.asked: deque[tuple[float, int]] = deque()
        """(when, the query's limit) of each query sent in the window."""
        self.noted: deque[float] = deque()
        """When each note was read in the window."""

    def _forget(self, now: float) -> None:
        while self.asked and self.asked[0][0] <= now - self.window:
            self.asked.popleft()
        while self.noted and self.noted[0] <= now - self.window:
            self.noted.popleft()

    def ask(self, limit: int, now: float) -> bool:
        """Whether a query of ``limit`` events fits in the minute (if so, it is counted)."""
        self._forget(now)
        if sum(asked for _, asked in self.asked) + limit > self.queries:
            return False
        self.asked.append((now, limit))
        return True

    def note(self, now: float) -> bool:
        """A note read: whether the page may go on reading notes."""
        self._forget(now)
        self.noted.append(now)
        return len(self.noted) < self.notes
