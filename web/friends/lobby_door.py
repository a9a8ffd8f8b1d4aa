"""The door of a table under way in the relay lobby: its open seats, offered to lookers.

A table that a computer plays part of (a page alone with the computers, or a table a person
left) files one addressable ``DOOR`` event per table (NIP-01's ``d`` tag: the table's
name), under its page's shard tags, saying how many seats are open. A looker that finds no
one to play with knocks (a note encrypted to the door's key, naming the table); the door
lets it in while a seat is free that wasn't promised in the last ``PROMISE_SECONDS``, by a
note naming the looker's ``LOOK`` (so it can't be replayed to another look), and files the
door again with one seat fewer; a door with no open seat is withdrawn (``open`` 0). A key
gets one seat however often it knocks. The door files again only when its count changes and
once a minute (``REFRESH``), and reads nothing but the notes to its key, each counted in the
page's ``LobbyBudget``: past its minute's notes it stops reading them (its subscription
closed) until the minute has room again, and each welcome (with the filing that follows it)
is booked there too, so a flood of knocks costs the page no more than its budget. A table's
page sends at most ``1 + 2 × knocks`` lobby events a minute, none once every seat has a
person.
No I/O, no clock of its own (``tests/test_lobby_relay.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from web.friends.lobby_budget import LobbyBudget
from web.friends.lobby_effects import Close, Effect, Publish, Subscribe, note
from web.friends.lobby_events import DOOR, NOTE, VERSION, Event, content_of, shard_tags
from web.friends.lobby_reading import DOOR_TTL
from web.friends.lobby_view import MAX_FROM_KEY, SKEW

__all__ = ["REFRESH", "Door"]

REFRESH = 60.0
"""Seconds between two filings of an unchanged open door (it expires after ``DOOR_TTL``)."""
PROMISE_SECONDS = 30.0
"""How long a seat promised to a knocker stays kept for it."""


class Door:
    """A table's open seats in the lobby: knocks in, welcomes and filings out."""

    def __init__(self, me: str, table: str, *, verify: Callable[[Event], bool],
                 budget: LobbyBudget | None = None) -> None:
        """``budget``: the page's reads and sends this minute."""
        self.me = me
        self.budget = budget if budget is not None else LobbyBudget()
        self.table = table
        self.verify = verify
        self.open = 0
        """Seats a computer plays that a person may take."""
        self.promised: dict[str, float] = {}
        """Knocker key -> when it was let in (its seat kept ``PROMISE_SECONDS``)."""
        self.filed: tuple[int, float] | None = None
        """(open seats filed, when) of the last filing; None before the first."""
        self.heard: dict[str, int] = {}
        self.listening = False
        """The door is open to knocks (it reads them, or would but for its budget)."""
        self.deaf = False
        """It read all the notes its minute allows: its subscription is closed until the
        minute has room again."""

    def seats(self, open_seats: int, now: float) -> list[Effect]:
        """The table's open seats now (``open_seats``: those a computer plays); the filing
        and subscription that follow."""
        self.open = open_seats
        self.promised = {key: at for key, at in self.promised.items()
                         if now - at < PROMISE_SECONDS}
        free = max(0, self.open - len(self.promised))
        effects: list[Effect] = []
        if free and not self.listening:
            self.listening, self.deaf = True, not self.budget.hearing(now)
            effects += [] if self.deaf else [self._knocks(now)]
        elif self.listening and self.deaf and self.budget.hearing(now):
            self.deaf = False  # the minute has room for knocks again
            effects.append(self._knocks(now))
        due = self.filed is None or self.filed[0] != free \
            or (free and now - self.filed[1] >= REFRESH)
        if due and (free or self.filed is not None):
            self.filed = (free, now)
            effects.append(self._filing(free, now))
        if not free and not self.promised and self.listening:
            self.listening = False
            effects += [] if self.deaf else [Close("door")]
            self.deaf = False
        return effects

    def _knocks(self, now: float) -> Subscribe:
        return Subscribe("door", [{"kinds": [NOTE], "#p": [self.me], "since": int(now) - SKEW}])

    def _filing(self, free: int, now: float) -> Publish:
        return Publish(DOOR, (("d", self.table), *shard_tags(self.me),
                              ("expiration", str(int(now + DOOR_TTL)))),
                       json.dumps({"v": VERSION, "open": free}, separators=(",", ":")))

    def received(self, event: Event, plain: str | None, now: float) -> list[Effect]:
        """A note to the door: a knock lets its page in while a seat is free."""
        key = event.pubkey
        if event.kind != NOTE or not self.listening or self.deaf:
            return []
        if not self.budget.note(now):  # a flood of knocks: read no more this minute
            self.deaf = True
            return [Close("door")]
        if event.tag("p") != self.me or plain is None or not self.verify(event) \
                or event.created_at < now - 60:
            return []
        self.heard[key] = self.heard.get(key, 0) + 1
        data = content_of(plain)
        if self.heard[key] > MAX_FROM_KEY or data is None or data.get("t") != "knock" \
                or data.get("table") != self.table or not isinstance(data.get("look"), str):
            return []
        free = self.open - len({k for k, at in self.promised.items()
                                if now - at < PROMISE_SECONDS})
        if (key not in self.promised and free <= 0) or not self.budget.book(2, now):
            return []  # (a welcome, and the filing with one seat fewer)
        self.promised.setdefault(key, now)
        welcome = Publish(NOTE, (), note("welcome", table=self.table, look=data["look"]),
                          to=key)
        return [welcome, *self.seats(self.open, now)]

    def arrived(self, key: str, open_seats: int, now: float) -> list[Effect]:
        """The page of ``key`` took its seat: its promise is used."""
        self.promised.pop(key, None)
        return self.seats(open_seats, now)

    def close(self, now: float) -> list[Effect]:
        """The table is over: the door withdrawn."""
        self.promised = {}
        return self.seats(0, now)
