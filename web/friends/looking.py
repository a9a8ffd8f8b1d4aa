"""Looking for players on the relays: one page's part of the relay lobby (protocol v4).

A page that presses Play online files a ``LOOK`` event under its shard's tags and reads the
lookers and open doors filed there (``web.friends.lobby_reading``: which shard, when, never
past the page's budget). Every page orders the lookers of its shard alike (by when they
came, then by key) and cuts the list into as few tables of at most four as hold them, of
even sizes (``table_of``); the first of each table deals: once its table is full, or
``GATHER`` seconds after it came, it invites the others by notes encrypted to their keys,
seats those who accept, and the table meets in its own room (WebRTC among its people only).
A page alone (after ``ALONE_WAIT`` more if others looked lately) knocks at an open door of
a table under way (a seat from its next hand), or plays with computers at once with its own
door open. Seated, it withdraws its ``LOOK`` and reads nothing more here.

What it sends is booked in the page's ``LobbyBudget`` first: its LOOK and withdrawal when it
comes, each deal's invitations (twice) and seats before it deals, each answer and knock. A
deal it can't book it doesn't make: it plays with computers, its door open.

What comes in is checked before it counts (``lobby_events.read_event`` for shape and id;
``verify`` for the signature): a key that sends more than ``MAX_FROM_KEY`` events is muted;
a note must name this page's ``LOOK`` (a replayed invitation names an old one); an
invitation counts only from a key seen looking that comes before this page; a seat only
from the dealer this page accepted, naming it among two to four people; a dealer that
doesn't deal in time, or doesn't seat after an answer, is passed over. No I/O, no clock of
its own: effects are returned as data, and pytest runs it (``tests/test_lobby_relay.py``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from web.friends.lobby_budget import LobbyBudget
from web.friends.lobby_effects import Close, Effect, Publish, Subscribe, note
from web.friends.lobby_events import (
    DOOR,
    LOOK,
    NOTE,
    TABLE,
    VERSION,
    Event,
    content_of,
    shard_tags,
)
from web.friends.lobby_reading import (
    CROWD,
    DOOR_TTL,
    FIRST_POLL,
    POLL,
    PROBES,
    ShardReading,
)
from web.friends.lobby_view import LOOK_TTL, MAX_FROM_KEY, SKEW, ShardView

__all__ = ["ASK_AGAIN", "CROWD", "DOOR_TTL", "FIRST_POLL", "GATHER", "LOOK_TTL",
           "MAX_FROM_KEY", "POLL", "PROBES", "SKEW", "Alone", "Close", "Effect", "Joined",
           "Looker", "Publish", "Seated", "Subscribe", "note"]

GATHER = 2.0
"""Seconds a dealer waits for three others before it deals to whoever it has."""
ANSWER_WAIT = 1.5
"""Seconds a dealer waits for the answers to its invitations."""
ASK_AGAIN = 1.0
"""Seconds after which a dealer sends its invitation once more to those that haven't
answered (a page that came a moment after it learns of it at its first read of the
shard, and takes notes only from the lookers it knows)."""
SEAT_WAIT = 3.0
"""Seconds a page that answered an invitation waits for its seat."""
KNOCK_WAIT = 3.0
"""Seconds a page waits for a door it knocked at to let it in."""
ALONE_WAIT = 4.0
"""Seconds more a page alone waits when others looked in its shard lately (rather than
play with computers, or wait for a door's next hand)."""
GRACE = 2.0
"""Seconds past its turn after which a dealer that hasn't dealt is passed over."""
TABLE_SIZE = 4
DEAL_SENDS = 3
"""Events a deal books per person invited: the invitation, once more, and the seat."""
DEAL_SPAN = ANSWER_WAIT + 1.0
"""Seconds after a deal within which its events go (the seats at the tick after the
answers are in): what it books counts for a minute from then."""


@dataclass(frozen=True)
class Seated:
    """A new table of ``people`` (keys, this page's among them; two to four), named
    ``table``: its people meet in its own room."""

    table: str
    people: tuple[str, ...]
    dealer: bool


@dataclass(frozen=True)
class Alone:
    """Nobody else to play with now: play with computers, the door open (``Door``)."""

    table: str


@dataclass(frozen=True)
class Joined:
    """A table under way let this page in: its seat from the next hand."""

    table: str
    door: str


Outcome = Seated | Alone | Joined


def table_of(order: list[str], me: str) -> list[str]:
    """``me``'s table when the lookers ``order`` are cut into as few tables of at most four
    as hold them, of sizes as even as can be (so nobody is left alone while two others
    look: five make three and two)."""
    tables = -(-len(order) // TABLE_SIZE)
    at = order.index(me)
    for number in range(tables):
        first, end = number * len(order) // tables, (number + 1) * len(order) // tables
        if first <= at < end:
            return order[first:end]
    raise AssertionError("me is in the order")


class Looker:
    """One page looking for players: events in, effects and (once) an outcome out."""

    def __init__(self, me: str, now: float, *, verify: Callable[[Event], bool],
                 new_table: Callable[[], str], gather: float = GATHER,
                 budget: LobbyBudget | None = None) -> None:
        """``me``: this page's public key (hex); ``verify``: whether an event's signature is
        its key's; ``new_table``: a fresh table name (the page's table code); ``gather``:
        seconds a dealer waits for three others (``GATHER``; the page's ``?wait=S``);
        ``budget``: the page's reads and sends this minute (shared by its looks)."""
        self.me = me
        self.budget = budget if budget is not None else LobbyBudget()
        self.reading = ShardReading(me, now, self.budget)
        self.view = ShardView(me, now, self.reading, verify=verify)
        self.gather = gather
        self.started = now
        self.new_table = new_table
        self.look_id = ""
        """The id of this page's LOOK (the caller sets it once published): notes name it."""
        self.pending: tuple[str, str, float] | None = None
        """(dealer key, table, when) of an invitation from a key this page hasn't read
        looking yet: its LOOK is asked for (a page that came a moment after the dealer, or
        reads a finer shard than it, may not have read it)."""
        self.deaf = False
        """This page read all the notes its budget allows: it reads no more."""
        self.invited: dict[str, str] = {}
        """As dealer: invitee key -> the table it was invited to."""
        self.accepted: set[str] = set()
        self.asked_again = False
        self.last_pass = -math.inf
        """When this page last passed over a dealer that didn't deal."""
        self.dealing: tuple[str, float] | None = None
        """As dealer: (table, when the answers are in)."""
        self.answered: tuple[str, str, float] | None = None
        """As invitee: (dealer key, table, when the seat is due)."""
        self.knocked: tuple[str, str, float] | None = None
        """(door key, table, when the welcome is due)."""
        self.outcome: Outcome | None = None

    @property
    def level(self) -> int | None:
        """The shard level read (None while the probes are out)."""
        return self.reading.level

    @level.setter
    def level(self, level: int | None) -> None:
        self.reading.level = level

    def busy(self, level: int) -> int:
        return self.reading.busy(level)

    def people(self, now: float) -> int:
        """How many look in this page's shard now, this page included."""
        return len(self.view.lookers(now))

    def seconds_left(self, now: float) -> float:
        """Seconds until this page deals to whoever it has (or, alone, plays with
        computers), if nobody else comes first."""
        return max(0.0, self.started + self.gather - now)

    # --- going in ---

    def start(self, now: float) -> list[Effect]:
        """The LOOK to publish and the subscriptions to open; if the page's minute can't
        afford another look (it looked again and again), it plays with computers."""
        if not self.budget.book(1, now):
            self.outcome = Alone(self.new_table())
            return []
        came = round(now * 1000)
        look = Publish(LOOK, (("d", "look"), *shard_tags(self.me),
                              ("expiration", str(int(now) + LOOK_TTL))),
                       json.dumps({"v": VERSION, "came": came}, separators=(",", ":")))
        notes = Subscribe("notes", [{"kinds": [NOTE], "#p": [self.me], "since": int(now) - SKEW}])
        return [look, notes, *self.reading.start(now)]

    def stored_end(self, name: str, now: float) -> list[Effect]:
        """The relay sent every stored event of subscription ``name`` (EOSE)."""
        if self.outcome is not None:
            return []
        if name == "who":
            self.pending = None  # its LOOK came, or it has none
        return self.reading.stored_end(name, now)

    # --- what comes in ---

    def received(self, event: Event, plain: str | None, now: float) -> list[Effect]:
        """An event from a subscription (``plain``: a note's content, decrypted)."""
        key = event.pubkey
        if self.outcome is not None:
            return []
        if event.kind == NOTE and not self.deaf and not self.budget.note(now):
            return self._deafened(now)  # a flood of notes (or a page looking for long)
        if not self.view.admit(event, now):
            return []
        if event.kind == LOOK:
            self.view.look(event, now)
            if self.pending is not None and self.pending[0] == key:
                dealer, table, _ = self.pending
                self.pending = None
                return self._accept(dealer, table, now)
        elif event.kind == DOOR:
            self.view.door(event)
        elif event.kind == NOTE and event.tag("p") == self.me and plain is not None:
            data = content_of(plain)
            if data is not None and isinstance(data.get("table"), str) \
                    and TABLE.match(data["table"]):
                return self._note(key, data, now)
        return []

    def _deafened(self, now: float) -> list[Effect]:
        """Read all the notes the minute allows: read no more, and make do with what this
        page has (the people who answered it, or the computers)."""
        self.deaf = True
        if self.dealing is not None and self.accepted:
            self.invited = {key: table for key, table in self.invited.items()
                            if key in self.accepted}
            return [Close("notes"), *self._seat(now)]
        return [Close("notes"), *self._done(Alone(self.new_table()), now)]

    def _note(self, key: str, data: dict[str, Any], now: float) -> list[Effect]:
        kind, table = data.get("t"), data["table"]
        if kind == "invite" and data.get("look") == self.look_id and self._may_invite(key):
            return self._accept(key, table, now)
        if kind == "invite" and data.get("look") == self.look_id and key not in self.view.came \
                and self.pending is None:
            who = self.reading.who(key, now)  # who is it? its LOOK, if it has one
            if who:
                self.pending = (key, table, now)
            return who
        if kind == "accept" and self.dealing is not None and self.invited.get(key) == table:
            self.accepted.add(key)
            if self.accepted == set(self.invited):
                return self._seat(now)
        if kind == "seat" and self.answered is not None and self.answered[:2] == (key, table):
            people = data.get("people")
            if isinstance(people, list) and 2 <= len(people) <= TABLE_SIZE \
                    and len(set(people)) == len(people) and self.me in people \
                    and key in people and all(isinstance(p, str) for p in people):
                return self._done(Seated(table, tuple(people), dealer=False), now)
        if kind == "welcome" and self.knocked is not None \
                and self.knocked[:2] == (key, table) and data.get("look") == self.look_id:
            return self._done(Joined(table, key), now)
        return []

    def _may_invite(self, key: str) -> bool:
        """Whether a dealer's invitation may be taken: this page is free, and the dealer is
        a page seen looking that comes before it (a made-up table is no one's)."""
        view = self.view
        return self._free() and key in view.came and view.order(key) < view.order(self.me)

    def _accept(self, dealer: str, table: str, now: float) -> list[Effect]:
        """Answer ``dealer``'s invitation, if it may be taken and the minute affords it."""
        if not self._may_invite(dealer) or not self.budget.book(1, now):
            return []
        self.answered = (dealer, table, now + SEAT_WAIT)
        return [Publish(NOTE, (), note("accept", table=table), to=dealer)]

    def _free(self) -> bool:
        """Neither dealing, nor waiting for a seat or a door."""
        return self.dealing is None and self.answered is None and self.knocked is None

    # --- the clock ---

    def tick(self, now: float) -> list[Effect]:
        """Time passed: deal, give up on a dealer or a door, or go alone."""
        if self.outcome is not None:
            return []
        effects = self.reading.tick(now, self._free(), self.started + self.gather)
        if self.reading.level is None:
            return effects
        if self.dealing is not None:
            if now >= self.dealing[1]:
                effects += self._seat(now)
            elif now >= self.dealing[1] - ANSWER_WAIT + ASK_AGAIN and not self.asked_again:
                self.asked_again = True
                effects += self._invitations(set(self.invited) - self.accepted)
            return effects
        if self.answered is not None:
            if now >= self.answered[2]:  # answered, never seated: a liar or a dropout
                self.view.mute(self.answered[0])
                self.answered = None
            return effects
        if self.knocked is not None:
            if now >= self.knocked[2]:
                self.view.passed[self.knocked[0]] = now + 60
                self.view.doors.pop(self.knocked[0], None)
                self.knocked = None
            return effects
        return effects + self._look_around(now)

    def _look_around(self, now: float) -> list[Effect]:
        four = table_of(self.view.lookers(now), self.me)
        dealer = four[0]
        if dealer != self.me:
            # the dealer's turn: its wait from when this page saw it, then the answers; and
            # if this page just passed over the one before it, time for the dealer to do
            # as much (it may have read that one a poll later)
            due = max(self.view.first_seen.get(dealer, now) + self.gather + ANSWER_WAIT,
                      self.last_pass + POLL) + GRACE
            if now > due:
                self.view.passed[dealer] = now + LOOK_TTL
                self.last_pass = now
            return []
        if len(four) < TABLE_SIZE and now - self.started < self.gather:
            return []
        if len(four) == 1 and now - self.started < self.gather + ALONE_WAIT \
                and self.view.lively():
            return []  # others came lately: one more will likely come soon
        if len(four) > 1 and not self.deaf \
                and self.budget.book(DEAL_SENDS * (len(four) - 1), now, now + DEAL_SPAN):
            return self._deal(four[1:], now)
        return self._alone(now)

    def _deal(self, others: list[str], now: float) -> list[Effect]:
        """Invite ``others`` to a new table (the invitations, and again, and the seats
        were booked)."""
        table = self.new_table()
        self.invited = {key: table for key in others}
        self.accepted = set()
        self.dealing = (table, now + ANSWER_WAIT)
        self.asked_again = False
        return self._invitations(set(others))

    def _alone(self, now: float) -> list[Effect]:
        """Nobody to deal to (or no deal the minute affords): knock at an open door of the
        shard, or play with computers."""
        if not self.deaf:
            asked = self.reading.doors(now)
            if asked:
                return asked
            if not self.reading.doors_in and self.reading.doors_asked is not None \
                    and now - self.reading.doors_asked < KNOCK_WAIT:
                return []  # the doors' answer is on its way
        door = self.view.open_door(now)
        if door is not None and not self.deaf and self.budget.book(1, now):
            table = self.view.doors[door][0]
            self.knocked = (door, table, now + KNOCK_WAIT)
            return [Publish(NOTE, (), note("knock", table=table, look=self.look_id), to=door)]
        return self._done(Alone(self.new_table()), now)

    def _invitations(self, keys: set[str]) -> list[Effect]:
        assert self.dealing is not None
        return [Publish(NOTE, (), note("invite", table=self.dealing[0],
                                       look=self.view.look_ids.get(key, "")), to=key)
                for key in sorted(keys)]

    def _seat(self, now: float) -> list[Effect]:
        """The answers are in: seat those who answered, or look again."""
        assert self.dealing is not None
        table = self.dealing[0]
        for key in set(self.invited) - self.accepted:  # gone elsewhere, or away
            self.view.passed[key] = now + LOOK_TTL
        self.dealing = None
        if not self.accepted:
            self.invited = {}
            return []
        people = tuple(sorted({self.me, *self.accepted}, key=self.view.order))
        seats = [Publish(NOTE, (), note("seat", table=table, people=list(people)), to=key)
                 for key in sorted(self.accepted)]
        return seats + self._done(Seated(table, people, dealer=True), now)

    def _done(self, outcome: Outcome, now: float) -> list[Effect]:
        """Seated (or alone): withdraw the LOOK and stop reading the lobby."""
        self.outcome = outcome
        return [self.withdrawal(now), Close("notes")]

    def withdrawal(self, now: float) -> Publish:
        """This page's LOOK withdrawn (seated, or it stopped looking): filed under the same
        tags, so the pages reading this shard drop it at once (counted in the minute's
        sends, which always has room for it)."""
        self.budget.sent(1, now)
        return Publish(LOOK, (("d", "look"), *shard_tags(self.me),
                              ("expiration", str(int(self.started) + LOOK_TTL))),
                       json.dumps({"v": VERSION, "gone": 1}, separators=(",", ":")))
