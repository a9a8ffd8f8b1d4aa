"""Who sits in each seat of the host's table (``web.p2p.host``), and who comes next hand.

Seat 0 is the host person's, on the connection ``LOCAL``; seats 1-3 are a person's by
connection, kept ``grace`` seconds for a person whose connection dropped, or the
computer's. At a table of strangers a page that comes in mid-hand has a computer's seat
kept for it (``coming``) until the next hand. Bookkeeping only: the table decides when,
and tells the people.
"""

from __future__ import annotations

from dataclasses import dataclass

from web.people import AWAY, Grace

__all__ = ["LOCAL", "Seats"]

LOCAL = "local"
"""The host person's own connection id (seat 0)."""


@dataclass
class _Seat:
    conn: str | None = None
    """The person's connection; None: the computer plays (or nobody yet, in the lobby)."""


class Seats:
    """The four seats: the person's connection in each, and the seats kept for others."""

    def __init__(self, grace: float) -> None:
        self.away = Grace(grace)
        """The people whose connection dropped: each seat waits its grace for them
        (``web.people``, the rule of every table of people)."""
        self._seats = [_Seat(LOCAL)] + [_Seat() for _ in range(3)]
        self.coming: dict[int, str] = {}
        """seat -> the connection of a person who takes it from the next hand."""

    @property
    def grace(self) -> float:
        """Seconds a dropped person's seat waits for them before the computer takes it."""
        return self.away.grace

    def conn(self, seat: int) -> str | None:
        """The connection of the person in ``seat``, connected or not (None: nobody)."""
        return self._seats[seat].conn

    def seat_of(self, conn: str) -> int | None:
        """The seat bound to ``conn`` (None if it has none)."""
        for number, seat in enumerate(self._seats):
            if seat.conn == conn:
                return number
        return None

    def present(self) -> list[tuple[int, str]]:
        """Each seat whose person is connected now (the host's too), with its connection."""
        return [(number, seat.conn) for number, seat in enumerate(self._seats)
                if seat.conn is not None and not self.away.away(number)]

    def kind(self, seat: int, started: bool) -> str:
        """host, friend, away (dropped, in its grace period), computer, or open (lobby)."""
        s = self._seats[seat]
        if seat == 0:
            return "host"
        if s.conn is not None:
            return AWAY if self.away.away(seat) else "friend"
        return "computer" if started else "open"

    def sit(self, conn: str, seat: int) -> str | None:
        """Put ``conn`` in ``seat``; returns the dropped person's connection it replaces."""
        replaced = self._seats[seat].conn
        self._seats[seat] = _Seat(conn)
        self.away.back(seat)
        return replaced

    def keep(self, conn: str, seat: int) -> bool:
        """Keep ``seat`` for ``conn`` from the next hand; False if it is kept for someone
        else, or ``conn`` already has a seat or one kept for it."""
        if seat in self.coming or conn in self.coming.values() or self.seat_of(conn) is not None:
            return False
        self.coming[seat] = conn
        return True

    def take_coming(self) -> dict[int, str]:
        """The seats kept for people, handed over (a new hand: they sit down)."""
        coming, self.coming = self.coming, {}
        return coming

    def drop(self, conn: str, now: float, started: bool) -> int | None:
        """``conn`` is gone: forget any seat kept for it; its guest seat is open again in the
        lobby, else waits ``grace`` seconds from its first drop. Returns that seat, if any."""
        self.coming = {seat: c for seat, c in self.coming.items() if c != conn}
        seat = self.seat_of(conn)
        if seat is None or seat == 0:
            return None
        if not started:
            self._seats[seat] = _Seat()
        else:
            self.away.went(seat, now)
        return seat

    def expired(self, now: float) -> list[int]:
        """The seats whose grace period is over."""
        return self.away.expired(now)

    def clear(self, seat: int) -> str | None:
        """The computer takes ``seat``; returns the connection that had it, if any."""
        conn = self._seats[seat].conn
        self._seats[seat] = _Seat()
        self.away.back(seat)
        return conn
