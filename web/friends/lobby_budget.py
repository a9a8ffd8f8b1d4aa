"""How much a page may read from the lobby and send to it in a minute, whatever the crowd.

Reads: a page reads the lobby's LOOKs and DOORs only by one-shot queries (a ``REQ`` closed
once answered, its filter ending before the second it is sent in), each capped by its
filter's ``limit``, which the relay enforces: so what the queries bring is bounded by the
sum of the limits asked, and the page asks for at most ``QUERIES`` events in any minute.
The only live subscription is to the notes addressed to this page (a looker's, or its
table's door's); it counts them and stops reading notes past ``NOTES`` in a minute.

Sends: a page books what it may send before it sends it (its LOOK when a look comes, a
deal's invitations, the same again and the seats before it deals, each answer, knock and
welcome), stamped with the last moment those events may go; what the minute can't hold it
doesn't do (a deal it can't afford: it plays with computers, its door open). A look's
withdrawal goes whatever the minute holds (a LOOK left standing misleads the others), so
every booking leaves room for one: a page sends at most ``SENDS`` events in any minute.
One budget per page, shared by every look it makes in a minute
and by its table's door. No I/O, no clock of its own.
"""

from __future__ import annotations

from collections import deque

__all__ = ["NOTES", "QUERIES", "SENDS", "WINDOW", "LobbyBudget"]

WINDOW = 60.0
"""Seconds over which reads and sends are counted."""
QUERIES = 488
"""Events a page may ask of its queries in a minute: ten probes and ten reads of its shard
of ``CROWD`` (24) each, and the open doors once (8); a dealer's LOOK looked up (1) comes
out of it too."""
NOTES = 16
"""Notes to this page it reads in a minute (an honest look gets at most ~6: an
invitation and a seat, or three answers, or a welcome; a door, two per knock)."""
SENDS = 24
"""Lobby events a page sends in any minute, at most: a look (its LOOK and its withdrawal,
2), two deals to three others (the invitations, the same again to those slow to answer,
and the seats: 9 each), and four answers or knocks. An honest look sends 2 to 11."""


class LobbyBudget:
    """The lobby events a page asked for (queries), read (notes) and booked to send in the
    last minute."""

    def __init__(self, queries: int = QUERIES, notes: int = NOTES, sends: int = SENDS,
                 window: float = WINDOW) -> None:
        self.queries = queries
        self.notes = notes
        self.sends = sends
        self.window = window
        self.asked: deque[tuple[float, int]] = deque()
        """(when, the query's limit) of each query sent in the window."""
        self.noted: deque[float] = deque()
        """When each note was read in the window."""
        self.booked: deque[tuple[float, int]] = deque()
        """(the last moment they may go, how many) of the sends booked in the window."""

    def _forget(self, now: float) -> None:
        for counts in (self.asked, self.booked):
            while counts and counts[0][0] <= now - self.window:
                counts.popleft()
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

    def hearing(self, now: float) -> bool:
        """Whether the page may read notes again (the minute has room for more)."""
        self._forget(now)
        return len(self.noted) < self.notes - 1

    def book(self, count: int, now: float, until: float | None = None) -> bool:
        """Whether ``count`` events more may be sent, from ``now`` until ``until`` (now, if
        not given), leaving room for a withdrawal; if so they are counted, whether or not
        all are sent."""
        self._forget(now)
        if sum(booked for _, booked in self.booked) + count + 1 > self.sends:
            return False
        self.booked.append((now if until is None else until, count))
        return True

    def sent(self, count: int, now: float) -> None:
        """``count`` events sent that the minute had to hold (a withdrawal)."""
        self._forget(now)
        self.booked.append((now, count))
