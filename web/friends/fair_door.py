"""Who comes to a fair table under way, and how they are let in between two hands.

A page seated at a table notes each page that comes into the table's room while a
computer's seat is free for it: a newcomer. Once a hand is scored, the table's door — the
page of the lowest seat a person holds (``seating.door``) — sends every page and every
newcomer the admission (``seating.Admit``): the newcomers, the seats the people keep and
the hands scored; then all draw again. A seated page takes an admission only from its own
table's door, and draws once its own hand is scored too, only if the admission says where
its own table stands. A newcomer takes one only from the door of the seats it names, and
draws at the point of the game it says, so a door that lies to it breaks the draw. A page
alone with the computers is a door too: its own game (``Carried``) takes the newcomers in
once its hand is over (``docs/protocol.md``, "A person who comes later"). No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence

from web.p2p.fair.public import Score
from web.p2p.fair.seating import Admit, door, where

__all__ = ["Carried", "Door"]

Carried = Callable[[], "tuple[Sequence[Score], int] | None"]
"""A lone page's own game, to carry on at a fair table: the hands scored and its person's
seat, once its hand is over (None while a hand is under way)."""


class Door:
    """The newcomers this page knows of, and the admission it was told (``late``: this page
    is itself a newcomer; ``carried``: this page's own game, which newcomers join)."""

    def __init__(self, late: bool = False, carried: Carried | None = None) -> None:
        self.late = late
        self.carried = carried
        self.newcomers: dict[str, str] = {}
        """Page id -> connection, of the pages that came to take a computer's seat."""
        self.admit: tuple[str, Admit] | None = None
        """The admission this page was told (the connection it came on), until it draws."""
        self.history: tuple[Score, ...] = ()
        """The hands scored before this page's first table (a newcomer's, a lone page's)."""

    def came(self, peer: str, conn: str, free: int) -> None:
        """A page came into the room: a newcomer, if a computer's seat is free for it."""
        if free > 0 and peer not in self.newcomers:
            self.newcomers[peer] = conn

    def went(self, peer: str) -> None:
        self.newcomers.pop(peer, None)

    def free(self, people: int) -> int:
        """The computers' seats nobody came for, at a table of ``people`` people."""
        return max(0, 4 - people - len(self.newcomers))

    def seated(self, conns: Container[str]) -> None:
        """A draw seated the pages on ``conns``: they are newcomers no more, and this page
        is at a table of its own now."""
        self.newcomers = {peer: conn for peer, conn in self.newcomers.items()
                          if conn not in conns}
        self.admit = None
        self.late = False
        self.carried = None

    def admission(self, kept: Mapping[str, int], history: Sequence[Score]) -> Admit:
        """What the door sends: its newcomers, the people's seats and the hands scored."""
        return Admit(tuple(self.newcomers), dict(kept),
                     tuple((a, b, c, d) for a, b, c, d in history))

    # --- a newcomer, and a lone page --------------------------------------------------------
    def told_newcomer(self, conn: str, peer: str, admit: Admit, me: str,
                      room: Mapping[str, str]) -> None:
        """A newcomer takes the first admission that names it, from the door of the seats
        it names, on that page's own connection."""
        if self.late and self.admit is None and me in admit.pages \
                and room.get(peer) == conn and door(admit.seats) == peer:
            self.admit = conn, admit

    def first_draw(self, me: str, room: Mapping[str, str]
                   ) -> tuple[list[str], dict[str, int], str] | None:
        """A newcomer's or a lone page's first draw, once it may start: the pages to draw
        with, the seats the people keep, and where the game stands (``SeatDraw``'s
        ``fixed`` and ``at``); None: not yet (or this page is neither)."""
        if self.late and self.admit is not None:
            _, admit = self.admit
            pages = [*admit.pages, *admit.seats]
            if not all(page in room or page == me for page in pages):
                return None  # the door's draw waits for every page it named
            self.history = admit.history
            return [p for p in pages if p != me], dict(admit.seats), admit.at
        state = self.carried() if self.carried is not None and self.newcomers else None
        if state is None:
            return None
        self.history = tuple(state[0])
        kept = {me: state[1]}
        return list(self.newcomers), kept, where(self.history, kept)

    # --- a seated page ------------------------------------------------------------------------
    def told_seated(self, conn: str, admit: Admit, from_door: bool) -> None:
        """A seated page takes an admission from its own table's door only."""
        if from_door:
            self.admit = conn, admit

    def due(self, kept: Mapping[str, int], history: Sequence[Score]) -> dict[str, str] | None:
        """For a seated page its door told: the newcomers to draw with now. None: not yet
        (its own hand isn't scored, or it hasn't met them all), or the admission isn't
        where its own table stands (then it is dropped, and the door's draw fails)."""
        if self.admit is None:
            return None
        _, admit = self.admit
        if len(history) < len(admit.history) or not set(admit.pages) <= set(self.newcomers):
            return None
        if dict(admit.seats) != dict(kept) or list(admit.history) != list(history):
            self.admit = None
            return None
        return {page: self.newcomers[page] for page in admit.pages}
