"""Play online: pages that look for players meet in a lobby and leave it as a table.

Every page that presses Play online goes into one meeting room through the relays (the
lobby of this protocol's version). The page with the lowest id there is the dealer: once
three others are in, or its wait is over (``WAIT_SECONDS``, counted down on every page), it
makes a table code, sends it to up to three of the others (those that came first, by id),
and everyone concerned leaves the lobby for that table's own room — the same table a code
opens (``web.friends.session``), its seats not taken by a person played by the computer.
So a lobby holds only the pages still waiting, and a table's mesh never exceeds four. No
DOM, no clock of its own: pytest runs it.
"""

from __future__ import annotations

import json

from web.p2p.codes import CodeError
from web.p2p.tablecode import TableCode, read_code

__all__ = ["LOBBY_PASSWORD", "LOBBY_ROOM", "WAIT_SECONDS", "Lobby", "table_message"]

LOBBY_ROOM = "hearts-lobby-v1"
"""The lobby's room: one per protocol version, so different versions never meet."""
LOBBY_PASSWORD = "hearts-lobby"
"""Not a secret (the lobby is public): only keeps the room's offers apart from others'."""
WAIT_SECONDS = 15.0
"""How long a dealer waits for three others before computers fill the empty seats."""
MAX_MESSAGE = 200


def table_message(code: TableCode) -> str:
    return json.dumps({"v": 1, "t": "table", "code": code.code})


def _peer(conn: str) -> str:
    return conn.rsplit(":", 1)[-1]


class Lobby:
    """The lobby as this page sees it: who else waits, and whether it deals."""

    def __init__(self, me: str, started: float) -> None:
        """``me``: this page's id in the lobby; ``started``: when it came in (seconds)."""
        self.me = me
        self.started = started
        self.others: dict[str, str] = {}
        """conn -> peer id of the pages waiting here."""
        self.invited: TableCode | None = None
        """The table the dealer sent this page to."""

    def opened(self, conn: str) -> None:
        self.others[conn] = _peer(conn)

    def closed(self, conn: str) -> None:
        self.others.pop(conn, None)

    def people(self) -> int:
        """The pages waiting here, this one included."""
        return len(self.others) + 1

    def dealer(self) -> bool:
        return all(self.me < peer for peer in self.others.values())

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.started + WAIT_SECONDS - now)

    def deal(self, now: float) -> list[str] | None:
        """The connections to send to a new table now (this page deals), else None."""
        if not self.dealer() or (len(self.others) < 3 and self.seconds_left(now) > 0):
            return None
        return sorted(self.others, key=lambda conn: self.others[conn])[:3]

    def received(self, conn: str, text: str) -> None:
        """A message in the lobby: only the dealer's invitation to a table counts."""
        peer = self.others.get(conn)
        if peer is None or len(text) > MAX_MESSAGE or self.invited is not None:
            return
        if any(other < peer for other in [self.me, *self.others.values()]):
            return  # only the dealer (the lowest id here) seats people
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("v") != 1 or data.get("t") != "table":
                return
            self.invited = read_code(str(data.get("code", "")))
        except (ValueError, CodeError):
            return
