"""Play online: pages that look for players meet in a lobby and leave it as a table.

Every page that presses Play online goes into one meeting room through the relays (the
lobby of this protocol's version). The page with the lowest id there is the dealer: once
three others are in, or its wait is over (``WAIT_SECONDS``, counted down on every page), it
makes a table code, sends it to up to three of the others (those that came first, by id),
and everyone concerned leaves the lobby for that table's own room — the same table a code
opens (``web.friends.guest_side``), its seats not taken by a person played by the computer.
So a lobby holds only the pages still waiting, and a table's mesh never exceeds four.

A table that started with computers in some seats keeps a foot in the lobby while it has
one (``SeatOffers``): it offers each page that comes in one of those seats, from its next
hand, and tells the pages it has no seat for that it is a table, not a dealer. No DOM, no
clock of its own: pytest runs it.
"""

from __future__ import annotations

import json

from web.p2p.codes import CodeError
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode, read_code

__all__ = ["LOBBY_PASSWORD", "LOBBY_ROOM", "WAIT_SECONDS", "Lobby", "SeatOffers",
           "table_message"]

LOBBY_ROOM = "hearts-lobby-v1"
"""The lobby's room: one per protocol version, so different versions never meet."""
LOBBY_PASSWORD = "hearts-lobby"
"""Not a secret (the lobby is public): only keeps the room's offers apart from others'."""
WAIT_SECONDS = 15.0
"""How long a dealer waits for three others before computers fill the empty seats."""
MAX_MESSAGE = 200
OFFER_SECONDS = 30.0
"""How long a seat offered to a page in the lobby stays kept for it."""
RUNNING = json.dumps({"v": 1, "t": "running"})
"""A table under way says so to the pages it has no seat for (they don't wait for it)."""


def table_message(code: TableCode, running: bool = False, fair: bool = False) -> str:
    """The invitation to the table of ``code`` (``running``: a table under way; ``fair``:
    four people, who deal among themselves: ``web.friends.fair``)."""
    return json.dumps({"v": 1, "t": "table", "code": code.code,
                       **({"running": True} if running else {}),
                       **({"fair": True} if fair else {})})


class Lobby:
    """The lobby as this page sees it: who else waits, and whether it deals."""

    def __init__(self, me: str, started: float, wait: float = WAIT_SECONDS) -> None:
        """``me``: this page's id in the lobby; ``started``: when it came in (seconds);
        ``wait``: how long it waits for three others before computers fill the seats."""
        self.me = me
        self.started = started
        self.wait = wait
        self.others: dict[str, str] = {}
        """conn -> peer id of the pages here."""
        self.tables: set[str] = set()
        """The connections of tables under way that came to offer seats (not dealers)."""
        self.invited: TableCode | None = None
        """The table the dealer sent this page to."""
        self.fair = False
        """That table is a fair one: four people, no computers."""

    def opened(self, conn: str) -> None:
        self.others[conn] = peer_of(conn)

    def closed(self, conn: str) -> None:
        self.others.pop(conn, None)
        self.tables.discard(conn)

    def _waiting(self) -> dict[str, str]:
        return {conn: peer for conn, peer in self.others.items() if conn not in self.tables}

    def people(self) -> int:
        """The pages waiting here, this one included."""
        return len(self._waiting()) + 1

    def dealer(self) -> bool:
        return all(self.me < peer for peer in self._waiting().values())

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.started + self.wait - now)

    def deal(self, now: float) -> list[str] | None:
        """The connections to send to a new table now (this page deals), else None."""
        waiting = self._waiting()
        if not self.dealer() or (len(waiting) < 3 and self.seconds_left(now) > 0):
            return None
        return sorted(waiting, key=lambda conn: waiting[conn])[:3]

    def received(self, conn: str, text: str) -> None:
        """A message in the lobby: the dealer's invitation to a table, or a table under way
        offering a seat (or saying it has none)."""
        if conn not in self.others:
            self.opened(conn)  # a message may come before the page hears of the connection
        peer = self.others[conn]
        if len(text) > MAX_MESSAGE or self.invited is not None:
            return
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("v") != 1:
                return
            if data.get("t") == "running":
                self.tables.add(conn)
                return
            if data.get("t") != "table":
                return
            if data.get("running") is True:
                self.tables.add(conn)
            elif any(other < peer for other in [self.me, *self._waiting().values()]):
                return  # only the dealer (the lowest id here) seats people
            self.invited = read_code(str(data.get("code", "")))
            self.fair = data.get("fair") is True and data.get("running") is not True
        except (ValueError, CodeError):
            return


class SeatOffers:
    """A table under way in the lobby: which pages coming in get one of its open seats."""

    def __init__(self, code: TableCode) -> None:
        self.code = code
        self.offered: dict[str, float] = {}
        """page id -> when it was offered a seat (kept for it ``OFFER_SECONDS``)."""

    def message(self, conn: str, open_seats: int, now: float) -> str:
        """What to send a page that came into the lobby on ``conn``: a seat while the
        table has one nobody was offered lately, else that it is a table under way."""
        self.offered = {peer: at for peer, at in self.offered.items()
                        if now - at < OFFER_SECONDS}
        if open_seats - len(self.offered) <= 0:
            return RUNNING
        self.offered[peer_of(conn)] = now
        return table_message(self.code, running=True)

    def arrived(self, peer: str) -> None:
        """The page ``peer`` came to the table: its offer is used."""
        self.offered.pop(peer, None)
