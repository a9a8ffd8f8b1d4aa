"""Play online's side of a page's session: the lobby's meeting room.

A page is in the lobby for one of two reasons: it looks for players (``look``: until it is
invited to a table or deals one), or it runs a table under way that a computer plays part
of (``offer_seats``: it offers those seats to whoever comes looking). ``web.friends.lobby``
decides who deals and who gets a seat; this holds the room's connections and the waiting.
No DOM: the peer and the clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from web.friends.lobby import (
    LOBBY_PASSWORD,
    LOBBY_ROOM,
    WAIT_SECONDS,
    Lobby,
    SeatOffers,
    table_message,
)
from web.p2p.peer import Peer, Reply
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode, make_code

__all__ = ["LOBBY", "Dealt", "Invited", "Online", "Unreachable"]

LOBBY = "lobby"
"""The name of the lobby's meeting room (``Peer.meet``)."""


@dataclass(frozen=True)
class Invited:
    """Another page dealt a table and sent this one its code."""

    code: TableCode
    people: int = 0
    """How many people the dealer sent to this fair table (``web.friends.fair_room``), this
    page among them; 0: a table under way (``late``)."""
    late: bool = False
    """A fair table under way, which seats this page between two hands."""


@dataclass(frozen=True)
class Dealt:
    """This page dealt a table: its code, and how many pages it sent the code to."""

    code: TableCode
    people: int


@dataclass(frozen=True)
class Unreachable:
    """No relay could be reached: the lobby was never found."""


class Online:
    """This page in the lobby, looking for players or offering its table's open seats."""

    def __init__(self, peer: Peer, meet: Callable[[str, str, str], Awaitable[Reply | None]],
                 *, now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 rng: random.Random, on_change: Callable[[], None],
                 wait: float = WAIT_SECONDS) -> None:
        """``meet(room, password, name)``: into a meeting room through the relays (None if
        they couldn't be reached); ``wait``: the lobby's wait for players (seconds)."""
        self.wait = wait
        self.peer = peer
        self.meet = meet
        self.now = now
        self.sleep = sleep
        self.rng = rng
        self.on_change = on_change
        self.lobby: Lobby | None = None
        """Looking for players: the lobby as this page sees it."""
        self.offers: SeatOffers | None = None
        """Running a table with computers in it: its seats offered in the lobby."""
        self.offering: Callable[[], int | None] | None = None
        """The open seats of the table offered (None: it is over)."""

    # --- looking for players -----------------------------------------------------------------

    async def look(self) -> Invited | Dealt | Unreachable | None:
        """In the lobby until another page invites this one to a table, or this one deals
        (it sends the code to those it seats); ``Unreachable`` if no relay answered, None if
        it stopped looking (``stop``). The lobby is left either way."""
        self._stop_offering()
        lobby = self.lobby = Lobby("", self.now(), self.wait)  # pages come in as it meets
        reply = await self.meet(LOBBY_ROOM, LOBBY_PASSWORD, LOBBY)
        if self.lobby is not lobby:
            return None
        if reply is None or not reply.get("self"):
            self.stop()
            return Unreachable()
        # the wait counts from when the relays answered, not from the press of the button
        lobby.started = self.now()
        lobby.me = reply["self"]
        while self.lobby is lobby:
            if lobby.invited is not None:
                self.stop()
                return Invited(lobby.invited, lobby.fair_people, lobby.late)
            chosen = lobby.deal(self.now())
            if chosen is not None:
                code = make_code(self.rng)
                for conn in chosen:  # with this page, two to four people: a fair table
                    self.peer.send(conn, table_message(code, people=len(chosen) + 1))
                await self.sleep(0.5)  # the invitations leave before the lobby closes
                self.stop()
                return Dealt(code, len(chosen))
            self.on_change()
            await self.sleep(0.25)
        return None

    def stop(self) -> None:
        """Stop looking: out of the lobby."""
        if self.lobby is not None:
            self.lobby = None
            self.peer.unmeet(LOBBY)

    # --- a table under way --------------------------------------------------------------------

    async def offer_seats(self, seats: Callable[[], int | None], code: TableCode) -> None:
        """While a table goes on: in the lobby whenever a computer plays a seat of it that
        nobody came for (``seats``: how many; None once the table is over), to offer that
        seat to whoever comes looking; out once every seat has a person."""
        self.offering = seats
        while self.offering is seats and (left := seats()) is not None:
            wanted = left > 0
            if wanted and self.offers is None and self.lobby is None:
                self.offers = SeatOffers(code)
                await self.meet(LOBBY_ROOM, LOBBY_PASSWORD, LOBBY)
            elif not wanted and self.offers is not None:
                self._leave_offers()
            await self.sleep(1.0)
        if self.offering is seats:
            self._stop_offering()

    def _stop_offering(self) -> None:
        self.offering = None
        self._leave_offers()

    def _leave_offers(self) -> None:
        if self.offers is not None:
            self.offers = None
            if self.lobby is None:
                self.peer.unmeet(LOBBY)

    def arrived(self, conn: str) -> None:
        """A page came to the table's room: a seat offered to it is used."""
        if self.offers is not None:
            self.offers.arrived(peer_of(conn))

    # --- the lobby's connections ----------------------------------------------------------------

    @staticmethod
    def owns(conn: str) -> bool:
        """Whether ``conn`` is a connection of the lobby's room."""
        return conn.startswith(f"r:{LOBBY}:")

    def opened(self, conn: str) -> None:
        if self.lobby is not None:
            self.lobby.opened(conn, self.now())
        elif self.offers is not None and self.offering is not None:
            self.peer.send(conn, self.offers.message(conn, self.offering() or 0, self.now()))

    def received(self, conn: str, text: str) -> None:
        if self.lobby is not None:
            self.lobby.received(conn, text, self.now())

    def closed(self, conn: str) -> None:
        if self.lobby is not None:
            self.lobby.closed(conn)
