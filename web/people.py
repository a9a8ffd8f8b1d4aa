"""What a table of people is, apart from how its cards are dealt: the rule of the grace.

Both kinds of table with other people use it — the host-dealt table (``web.p2p.seats``)
and the fair table (``web.friends.fair_room``): a person whose connection goes may be
reloading, so their seat waits for them ``grace`` seconds, shown away (the seat's kind
``AWAY``: "(reconnecting)", ``data-away`` on its plate), before the table goes on without
them; one who comes back within it, proving the seat is theirs, takes it again. A first
piece of the one layer of people and seats (docs/architecture.md). No I/O, no imports.
"""

from __future__ import annotations

__all__ = ["AWAY", "Grace"]

AWAY = "away"
"""The kind of a seat whose person's connection went, within their grace."""


class Grace:
    """The seats whose person is away, and since when."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        """Seconds a seat waits for its person to come back."""
        self.since: dict[int, float] = {}

    def went(self, seat: int, now: float) -> None:
        """The person at ``seat`` went (their grace runs from the first time)."""
        self.since.setdefault(seat, now)

    def back(self, seat: int) -> None:
        """The person at ``seat`` is back (or the seat is someone else's now)."""
        self.since.pop(seat, None)

    def away(self, seat: int) -> bool:
        return seat in self.since

    def __contains__(self, seat: object) -> bool:
        return seat in self.since

    def expired(self, now: float) -> list[int]:
        """The seats whose grace is over, in order."""
        return sorted(seat for seat, at in self.since.items() if now - at >= self.grace)

    def __bool__(self) -> bool:
        return bool(self.since)
