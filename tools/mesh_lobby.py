"""The mesh lobby the page used until protocol v4 (a Trystero room, ``hearts-lobby-v3``),
kept only as the model ``tools/bench_lobby.py`` sets beside the relay lobby. The page no
longer ships it (docs/protocol.md, "Play online: the lobby before v4").

Every page that presses Play online goes into one meeting room through the relays (the
lobby of this protocol's version). The page with the lowest id there is the dealer: once
three others are in, or its wait is over (``WAIT_SECONDS``, counted down on every page), it
makes a table code, sends it to up to three of the others (those that came first, by id),
and everyone concerned leaves the lobby for that table's own room — the same table a code
opens (``web.friends.guest_side``), its seats not taken by a person played by the computer.
So a lobby holds only the pages still waiting, and a table's mesh never exceeds four.

The lobby is public, so what comes in is checked before it counts: a message longer than
``MAX_MESSAGE``, one that isn't a lobby message, or more than ``MAX_MESSAGES`` from one
page mutes that page (it no longer counts as a player or a dealer, and nothing more of it is
read); and a page with the lowest id that hasn't dealt ``DEALER_GRACE`` seconds after its
wait could have ended (a stalled tab, a changed page) is passed over as the dealer, so no
page can hold the lobby up by staying in it.

A table that started with computers in some seats keeps a foot in the lobby while it has
one (``SeatOffers``, sent by the page that lets people in): it offers each page that comes
in one of those seats, from its next hand, at a fair table, and tells the pages it has no
seat for that it is a table, not a dealer. No DOM, no
clock of its own: pytest runs it.
"""

from __future__ import annotations

import json
from typing import Any

from web.friends.versioned import versioned_json
from web.p2p.codes import CodeError
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode, read_code

__all__ = ["LOBBY_PASSWORD", "LOBBY_ROOM", "WAIT_SECONDS", "Lobby", "SeatOffers",
           "table_message"]

LOBBY_ROOM = "hearts-lobby-v3"
"""The lobby's room: one per protocol version, so different versions never meet."""
LOBBY_PASSWORD = "hearts-lobby"
"""Not a secret (the lobby is public): only keeps the room's offers apart from others'."""
WAIT_SECONDS = 15.0
"""How long a dealer waits for three others before computers fill the empty seats."""
MAX_MESSAGE = 200
MAX_MESSAGES = 4
"""Lobby messages one page may send (an honest one sends one: an invitation, or that it is a
table under way)."""
DEALER_GRACE = 5.0
"""Seconds past the wait after which a page seen in the lobby that hasn't dealt is passed
over as the dealer."""
OFFER_SECONDS = 30.0
"""How long a seat offered to a page in the lobby stays kept for it."""
RUNNING = json.dumps({"v": 1, "t": "running"})
"""A table under way says so to the pages it has no seat for (they don't wait for it)."""


def table_message(code: TableCode, running: bool = False, people: int = 0) -> str:
    """The invitation to the table of ``code`` (``running``: a table under way; ``people``:
    how many the dealer sends there, itself included, who deal among themselves:
    ``web.friends.fair_room``)."""
    return json.dumps({"v": 1, "t": "table", "code": code.code,
                       **({"running": True} if running else {}),
                       **({"fair": people} if people else {})})


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
        self.seen: dict[str, float] = {}
        """conn -> when this page first heard of it."""
        self.heard: dict[str, int] = {}
        """conn -> how many messages it sent."""
        self.muted: set[str] = set()
        """The connections of pages that sent junk or too much: they don't count."""
        self.tables: set[str] = set()
        """The connections of tables under way that came to offer seats (not dealers)."""
        self.invited: TableCode | None = None
        """The table the dealer sent this page to."""
        self.fair_people = 0
        """How many people the dealer sent to that fair table."""
        self.late = False
        """The table is one under way, which seats this page between two hands."""

    def opened(self, conn: str, now: float) -> None:
        self.others[conn] = peer_of(conn)
        self.seen.setdefault(conn, now)

    def closed(self, conn: str) -> None:
        self.others.pop(conn, None)
        self.tables.discard(conn)
        self.seen.pop(conn, None)

    def _waiting(self) -> dict[str, str]:
        return {conn: peer for conn, peer in self.others.items()
                if conn not in self.tables and conn not in self.muted}

    def _expected(self, now: float) -> str | None:
        """The id of the page this one waits for to deal (None: this page deals). Each
        lower page in turn has the wait and ``DEALER_GRACE`` to deal, counted from when
        this page saw it or passed over the one before it, whichever came later; so pages
        that see the same lobby pass over the same stalled dealers, one at a time."""
        waiting = self._waiting()
        lower = sorted((peer, conn) for conn, peer in waiting.items() if peer < self.me)
        clear = float("-inf")  # when the pages before this one were passed over
        for peer, conn in lower:
            since = max(self.seen.get(conn, now), clear)
            if now - since <= self.wait + DEALER_GRACE:
                return peer
            clear = since + self.wait + DEALER_GRACE
        return None

    def _may_seat(self, peer: str, now: float) -> bool:
        """Whether the page ``peer`` may send this one to a new table: the dealer this page
        waits for (the lowest id here, stalled ones passed over), or one passed over."""
        expected = self._expected(now)
        return peer < self.me and (expected is None or peer <= expected)

    def people(self) -> int:
        """The pages waiting here, this one included."""
        return len(self._waiting()) + 1

    def dealer(self, now: float) -> bool:
        return self._expected(now) is None

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.started + self.wait - now)

    def deal(self, now: float) -> list[str] | None:
        """The connections to send to a new table now (this page deals), else None."""
        if not self.dealer(now):
            return None
        # the lower pages (if any) were passed over: they stalled
        waiting = {conn: peer for conn, peer in self._waiting().items() if peer > self.me}
        if len(waiting) < 3 and self.seconds_left(now) > 0:
            return None
        return sorted(waiting, key=lambda conn: waiting[conn])[:3]

    def received(self, conn: str, text: str, now: float) -> None:
        """A message in the lobby: the dealer's invitation to a table, or a table under way
        offering a seat (or saying it has none). Junk, or too much, mutes its page."""
        if conn not in self.others:
            self.opened(conn, now)  # a message may come before the page hears of the conn
        peer = self.others[conn]
        self.heard[conn] = self.heard.get(conn, 0) + 1
        if conn in self.muted or self.invited is not None:
            return
        data = _lobby_message(text)
        if data is None or self.heard[conn] > MAX_MESSAGES:
            self.muted.add(conn)
            return
        if data["t"] == "running":
            self.tables.add(conn)
            return
        if data.get("running") is True:
            self.tables.add(conn)
        elif not self._may_seat(peer, now):
            return
        self.invited = read_code(data["code"])
        self.late = data.get("running") is True
        self.fair_people = 0 if self.late else data.get("fair", 0)


def _lobby_message(text: str) -> dict[str, Any] | None:
    """A lobby message's fields if ``text`` is one (a table under way, or an invitation
    with a code that reads), else None."""
    data = versioned_json(text, MAX_MESSAGE, 1)
    if data is None:
        return None
    if data.get("t") == "running" and set(data) == {"v", "t"}:
        return data
    if data.get("t") != "table" or not set(data) <= {"v", "t", "code", "running", "fair"}:
        return None
    if "fair" in data and (type(data["fair"]) is not int or not 2 <= data["fair"] <= 4):
        return None
    code = data.get("code")
    try:
        read_code(code if isinstance(code, str) else "")
    except CodeError:
        return None
    return data


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
