"""Asking for the messages a page missed, and relaying the signed copies others hold.

A modified page can send a message to some pages and not to others: its last card to all
but the next player, its digest or its evidence to two pages of three. Each message is
signed by its sender (``signing``), so any page that holds it can hand it on and the page
that missed it can check it as if it had come straight from its sender. A page that has
waited ``ASK_SECONDS`` for the others asks every page for what follows what it holds
(``ask``: per seat, the number of the next message it expects); each page answers with the
signed envelopes it holds beyond that (``relay``, one a message). So a message every honest
page lacks is one its sender sent to no honest page, and a page is named for a missing
message only once it has been shown what it needed to send it (``docs/protocol.md``, "A
hand stopped after the deal").

Neither form is signed: an ask gives nothing away, and a relay carries its sender's
signature inside. Both start like an envelope (``wire.sender`` reads the relaying page's
seat), so the mesh routes them as it routes every message of that page. No I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from hearts.rules import NUM_SEATS
from web.p2p.fair.ledger import Ledger
from web.p2p.fair.wire import TAG_CHARS, sender

__all__ = ["ASK_SECONDS", "Ask", "Relay", "Relays", "ask", "read", "relay"]

ASK_SECONDS = 3.0
"""How long a page waits for the others before it asks for what it may have missed (and
between two asks; a page answers one page's ask at most once in half of it)."""


@dataclass(frozen=True)
class Ask:
    """Page ``seat`` holds each seat's messages of ``hand`` below ``have[seat]``."""

    seat: int
    table: str
    hand: int
    have: tuple[int, ...]


@dataclass(frozen=True)
class Relay:
    """Page ``seat`` hands on ``item``, another page's signed envelope of ``hand``."""

    seat: int
    table: str
    hand: int
    item: str


def ask(seat: int, table: str, hand: int, have: tuple[int, ...]) -> str:
    """The ask of page ``seat`` (``table``: the table's tag)."""
    return json.dumps({"v": 1, "t": "fair", "f": seat, "d": table, "h": hand,
                       "a": list(have)}, separators=(",", ":"))


def relay(seat: int, table: str, hand: int, item: str) -> str:
    """Page ``seat`` hands on the envelope ``item``."""
    return json.dumps({"v": 1, "t": "fair", "f": seat, "d": table, "h": hand, "r": item},
                      separators=(",", ":"))


def read(text: str, limit: int) -> Ask | Relay | None:
    """An ask or a relay read back (None: neither; ``limit``: the longest envelope)."""
    if ('"a":' not in text and '"r":' not in text) or len(text) > 2 * limit + 200:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) not in ({"v", "t", "f", "d", "h", "a"},
                                                       {"v", "t", "f", "d", "h", "r"}):
        return None
    seat, table, hand = data["f"], data["d"], data["h"]
    if data["v"] != 1 or data["t"] != "fair" or seat != sender(text) \
            or not isinstance(table, str) or len(table) > TAG_CHARS or type(hand) is not int:
        return None
    if "r" in data:
        return Relay(seat, table, hand, data["r"]) if isinstance(data["r"], str) else None
    have = data["a"]
    if not isinstance(have, list) or len(have) != NUM_SEATS \
            or not all(type(n) is int and 0 <= n < 1000 for n in have):
        return None
    return Ask(seat, table, hand, tuple(have))


class Relays:
    """One page's side of relaying at a table (``table``: its tag): when it last asked, and
    when it last answered each page. It makes the texts; the table sends them."""

    def __init__(self, seat: int, table: str, ledger: Ledger, now: Callable[[], float]) -> None:
        self.seat = seat
        self.table = table
        self.ledger = ledger
        self.now = now
        self._asked = now()
        self._answered: dict[tuple[int, int], float] = {}
        """(seat, hand) -> when this page last answered that page's ask for that hand."""
        self._welcome: dict[int, set[int]] = {}
        """Pages back after a reload, and the hands answered since: their next ask of each
        hand (the one under way, the next one's deal) is answered in full, at once."""

    def ask(self, hand: int, waiting_since: float) -> str | None:
        """This page's ask, if it has waited ``ASK_SECONDS`` since the table last moved
        (``waiting_since``) and since its last ask."""
        now = self.now()
        if now - max(waiting_since, self._asked) < ASK_SECONDS:
            return None
        self._asked = now
        return ask(self.seat, self.table, hand, self.ledger.have(hand))

    def answer(self, asked: Ask) -> list[str]:
        """The envelopes page ``asked.seat`` lacks, as relays: those this page has held a
        while (one it took just now may still be on its way there), not the asker's own;
        none if it asked just before."""
        now, seat = self.now(), asked.seat
        welcomed = self._welcome.get(seat)
        back = welcomed is not None and asked.hand not in welcomed and len(welcomed) < 2
        if now - self._answered.get((seat, asked.hand), -ASK_SECONDS) < ASK_SECONDS / 2 \
                and not back:
            return []
        self._answered[(seat, asked.hand)] = now  # (the hand under way's, the next deal's)
        if welcomed is not None and back:
            welcomed.add(asked.hand)
        own = f'{{"v":1,"t":"fair","f":{seat},'
        since = now if back else now - ASK_SECONDS / 2  # (nothing was on its way to it)
        return [relay(self.seat, self.table, asked.hand, item)
                for item in self.ledger.beyond(asked.hand, asked.have, since)
                if not item.startswith(own)]

    def welcome(self, seat: int) -> None:
        """The page at ``seat`` is back after a reload: what it missed while away is
        relayed to it at its next ask, all of it (``resume``)."""
        self._welcome[seat] = set()

    def digests(self, hand: int) -> list[str]:
        """The four digests of ``hand`` this page holds, as relays."""
        return self.every(hand, "fair_digest")

    def every(self, hand: int, kind: str) -> list[str]:
        """Each page's last message of ``kind`` in ``hand`` that this page holds, as
        relays."""
        out = []
        for seat in range(NUM_SEATS):
            n = max((n for n, sent in self.ledger.kinds_of(hand, seat).items()
                     if sent == kind), default=None)
            item = "" if n is None else self.ledger.envelope(hand, seat, n)
            if item:
                out.append(relay(self.seat, self.table, hand, item))
        return out
