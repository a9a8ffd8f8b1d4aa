"""Looking for players on the relays: one page's part of the relay lobby (protocol v4).

A page that presses Play online files a ``LOOK`` event under its shard's tags and reads the
lookers and open doors filed there. Every page orders the lookers of its shard alike (by
when they came, then by key) and cuts the list into as few tables of at most four as hold
them, of even sizes (``table_of``); the first of each table deals: once its table is full,
or ``GATHER`` seconds after it came, it invites the others by notes encrypted to their
keys, seats those who accept, and the table meets in its own room (WebRTC among its people
only). A page alone (after ``ALONE_WAIT`` more if others looked lately) knocks at an open
door of a table under way (a seat from its next hand), or plays with computers at once
with its own door open. Seated, it withdraws its ``LOOK`` and reads nothing more here.

Which shard: the page first reads a few levels at once, stored events only, each capped at
``CROWD`` by the filter's ``limit``, and keeps the coarsest level where it heard from fewer
than ``CROWD`` keys; a shard that grows that busy sends it to a finer one. It never reads
the lobby live: it reads its shard again every ``POLL`` seconds by a one-shot query capped
at ``CROWD`` (the relay enforces a ``limit``; a live subscription brings whatever a crowd
or a spammer sends before it can be closed), and asks for the open doors once, when alone.
Live, it reads only the notes to its key. A ``ReadBudget`` bounds all of it by the minute.

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

from web.friends.lobby_events import (
    DOOR,
    LEVELS,
    LOOK,
    NOTE,
    TABLE,
    VERSION,
    Event,
    content_of,
    shard,
    shard_tag,
    shard_tags,
)
from web.friends.read_budget import ReadBudget

__all__ = ["ASK_AGAIN", "CROWD", "FIRST_POLL", "GATHER", "POLL", "Alone", "Close", "Joined",
           "Looker", "Publish", "Seated", "Subscribe"]

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
LOOK_TTL = 30
"""Seconds a LOOK counts (its NIP-40 expiration); older ones are ignored."""
SKEW = 5
"""Seconds a clock may be ahead of this page's."""
RECENT = 10
"""Seconds back a page reads LOOKs when it comes in (an honest looker is seated sooner)."""
LATE = 2
"""Seconds before its last read that a page's next read of its shard goes back (a LOOK
reaches the relay after it is made, on a clock that may be behind this page's)."""
DOOR_TTL = 120
"""Seconds an open door counts (its expiration; the door refreshes it every minute)."""
CROWD = 24
"""A shard holding this many lookers is too busy: read a finer level."""
PROBES = (0, 3, 6, 9, 12)
"""The levels read at first, at once (each capped at ``CROWD`` events)."""
POLL = 1.0
"""Seconds between two reads of the page's shard (one-shot, capped at ``CROWD``): each
just after a second begins (``FIRST_POLL`` into it), since a read ends with the second
before it."""
FIRST_POLL = 0.125
"""How far into a second a page reads its shard (the LOOKs of the second before, on their
way to the relay as it ended, have come)."""
PRE_DEAL = 0.4
"""Seconds before its wait is over that a page reads its shard once more, so that the
tables it cuts are those the others cut."""
DOORS = 8
"""The open doors a page alone asks for (once)."""
MAX_FROM_KEY = 8
"""Events one key may send this page while it looks (an honest one sends at most 5)."""
TABLE_SIZE = 4


@dataclass(frozen=True)
class Publish:
    """Sign and send an event; ``to``: encrypt the content to that key (and tag it)."""

    kind: int
    tags: tuple[tuple[str, ...], ...]
    content: str
    to: str | None = None


@dataclass(frozen=True)
class Subscribe:
    """Open (or replace) the subscription ``name`` with NIP-01 filters; ``once``: close it
    once the relay sent its stored events (EOSE): a one-shot query, whose filters end
    (``until``) before the second it is sent in, so that nothing an honest page files
    comes on it live while the CLOSE is on its way."""

    name: str
    filters: list[dict[str, Any]]
    once: bool = False


@dataclass(frozen=True)
class Close:
    name: str


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


Effect = Publish | Subscribe | Close
Outcome = Seated | Alone | Joined


def note(kind: str, **fields: object) -> str:
    return json.dumps({"v": VERSION, "t": kind, **fields}, separators=(",", ":"))


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
                 budget: ReadBudget | None = None) -> None:
        """``me``: this page's public key (hex); ``verify``: whether an event's signature is
        its key's; ``new_table``: a fresh table name (the page's table code); ``gather``:
        seconds a dealer waits for three others (``GATHER``; the page's ``?wait=S``);
        ``budget``: the page's reads this minute (shared by its looks)."""
        self.me = me
        self.budget = budget if budget is not None else ReadBudget()
        self.gather = gather
        self.started = now
        self.verify = verify
        self.new_table = new_table
        self.look_id = ""
        """The id of this page's LOOK (the caller sets it once published): notes name it."""
        self.level: int | None = None
        """The shard level read (None while the probes are out)."""
        self.ended: set[int] = set()
        """The probe levels whose stored events have all come (EOSE)."""
        self.probes: tuple[int, ...] = ()
        """The levels probed (as many of ``PROBES`` as the budget allowed)."""
        self.next_poll = math.inf
        """When the shard is read again."""
        self.pre_polled = False
        self.reprobed = False
        """The probes were sent again, once the second the page came in was over."""
        self.read_at: float | None = None
        """When the shard at ``level`` was last read (None: not yet at this level)."""
        self.pending: tuple[str, str, float] | None = None
        """(dealer key, table, when) of an invitation from a key this page hasn't read
        looking yet: its LOOK is asked for (a page that came a moment after the dealer, or
        reads a finer shard than it, may not have read it)."""
        self.doors_asked: float | None = None
        """When the open doors were asked for (None: not yet)."""
        self.doors_in = False
        self.deaf = False
        """This page read all the notes its budget allows: it reads no more."""
        self.came: dict[str, int] = {}
        """Looker key -> when it came (ms, from its LOOK)."""
        self.look_ids: dict[str, str] = {}
        """Looker key -> the id of its LOOK (an invitation names it)."""
        self.looked: set[str] = set()
        """The keys of the LOOKs read, looking or seated since."""
        self.active: set[str] = set()
        """The keys of the LOOKs and DOORs read (how busy a shard is)."""
        self.near = [0] * LEVELS
        """How many of ``active`` share this page's shard up to each level and no finer
        (so ``busy`` costs a dozen additions, not a pass over a crowd, per event)."""
        self.first_seen: dict[str, float] = {}
        self.doors: dict[str, tuple[str, int]] = {}
        """Door key -> (table, open seats) of tables under way with an open seat."""
        self.heard: dict[str, int] = {}
        """Key -> how many events it sent this page (each counted once, however often read)."""
        self.seen: set[str] = set()
        """The ids of the events read (a stored one comes again with each read)."""
        self.muted: set[str] = set()
        self.passed: dict[str, float] = {}
        """Keys skipped until a time (invited elsewhere, or a door that didn't answer)."""
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

    def people(self, now: float) -> int:
        """How many look in this page's shard now, this page included."""
        return len(self.lookers(now))

    def seconds_left(self, now: float) -> float:
        """Seconds until this page deals to whoever it has (or, alone, plays with
        computers), if nobody else comes first."""
        return max(0.0, self.started + self.gather - now)

    # --- going in ---

    def start(self, now: float) -> list[Effect]:
        """The LOOK to publish and the subscriptions to open."""
        came = round(now * 1000)
        look = Publish(LOOK, (("d", "look"), *shard_tags(self.me),
                              ("expiration", str(int(now) + LOOK_TTL))),
                       json.dumps({"v": VERSION, "came": came}, separators=(",", ":")))
        notes = Subscribe("notes", [{"kinds": [NOTE], "#p": [self.me], "since": int(now) - SKEW}])
        probes = self._probe(now)
        return [look, notes, *probes, *([] if self.probes else self._settle(now))]

    def _probe(self, now: float) -> list[Effect]:
        """Read the levels of ``PROBES`` at once (as many as the budget allows)."""
        self.ended = set()
        self.probes = tuple(level for level in PROBES if self.budget.ask(CROWD, now))
        return [Subscribe(f"probe{level}", self._filters(level, int(self.started) - RECENT, now),
                          once=True) for level in self.probes]

    def stored_end(self, name: str, now: float) -> list[Effect]:
        """The relay sent every stored event of subscription ``name`` (EOSE)."""
        if self.outcome is not None:
            return []
        if name == "doors":
            self.doors_in = True
        elif name == "who":
            self.pending = None  # its LOOK came, or it has none
        elif name == "poll" and self.level is not None:
            return self._finer(now)
        elif name.startswith("probe") and int(name[5:]) in self.probes:
            self.ended.add(int(name[5:]))
            if len(self.ended) == len(self.probes):
                return self._settle(now)
        return []

    def lively(self) -> bool:
        """Whether another page filed a LOOK in this page's shard lately."""
        mine = shard(self.me, self.level or 0)
        return any(shard(key, self.level or 0) == mine for key in self.looked)

    def busy(self, level: int) -> int:
        """How many keys this page heard from in its shard at ``level`` (looking, seated
        since, or a door): how much it reads there."""
        return sum(self.near[level:])

    def _heard_from(self, key: str) -> None:
        """Count ``key`` among the active ones, at the finest level it shares with me."""
        if key in self.active:
            return
        self.active.add(key)
        self.near[next((level - 1 for level in range(1, LEVELS)
                        if shard(key, level) != shard(self.me, level)), LEVELS - 1)] += 1

    def _finer(self, now: float) -> list[Effect]:
        """A shard that grew crowded (many came at once): read a finer level at once, one
        where this page's shard holds about half a crowd of lookers."""
        level = self.level
        if level is None or level == LEVELS - 1 or self.busy(level) < CROWD:
            return []
        self.level = min(LEVELS - 1, level + math.ceil(math.log2(self.busy(level) / (CROWD / 2))))
        self.read_at = None  # the finer shard's LOOKs: some weren't among those read
        return self._poll(now)

    def _filters(self, level: int, since: int, now: float) -> list[dict[str, Any]]:
        """A read of this page's shard at ``level``: the LOOKs filed since ``since`` and
        before this second, at most ``CROWD`` of them (a one-shot query: the relay sends
        no more than that, however many look)."""
        tag = [shard_tag(level, shard(self.me, level))]
        return [{"kinds": [LOOK], "#t": tag, "since": since, "until": int(now) - 1,
                 "limit": CROWD}]

    def _poll(self, now: float) -> list[Effect]:
        """Read the shard again, if the minute's budget allows: what was filed since the
        last read (``LATE`` seconds more), or, at a level not read yet, the last
        ``RECENT`` seconds."""
        assert self.level is not None
        self.next_poll = math.floor(now) + POLL + FIRST_POLL
        if not self.budget.ask(CROWD, now):
            return []
        since = int(self.started) - RECENT
        if self.read_at is not None:
            since = max(since, int(self.read_at) - LATE)
        self.read_at = now
        return [Subscribe("poll", self._filters(self.level, since, now), once=True)]

    def _settle(self, now: float) -> list[Effect]:
        """Keep the coarsest level whose shard isn't crowded (the probes closed themselves).
        (A probe capped by its ``limit`` holds ``CROWD`` keys, so it counts as crowded.)"""
        self.level = next((level for level in self.probes if self.busy(level) < CROWD),
                          PROBES[-1])
        self.next_poll = math.floor(now) + 1 + FIRST_POLL
        self.read_at = self.started  # the probes read the chosen level
        return []

    # --- what comes in ---

    def received(self, event: Event, plain: str | None, now: float) -> list[Effect]:
        """An event from a subscription (``plain``: a note's content, decrypted)."""
        key = event.pubkey
        if self.outcome is not None:
            return []
        if event.kind == NOTE and not self.deaf and not self.budget.note(now):
            return self._deafened(now)  # a flood of notes (or a page looking for long)
        if key == self.me or key in self.muted or event.id in self.seen:
            return []  # (each read of the shard brings its stored LOOKs again)
        if not self.verify(event):
            return []
        self.seen.add(event.id)
        self.heard[key] = self.heard.get(key, 0) + 1
        if self.heard[key] > MAX_FROM_KEY:
            self._mute(key)
            return []
        if not int(now) - LOOK_TTL <= event.created_at <= now + SKEW:
            return []
        if event.kind == LOOK:
            self._look(event, now)
            if self.pending is not None and self.pending[0] == key:
                dealer, table, _ = self.pending
                self.pending = None
                if self._may_invite(dealer):
                    self.answered = (dealer, table, now + SEAT_WAIT)
                    return [Publish(NOTE, (), note("accept", table=table), to=dealer)]
        elif event.kind == DOOR:
            self._door(event)
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
        return [Close("notes"), *self._done(Alone(self.new_table()))]

    def _mute(self, key: str) -> None:
        self.muted.add(key)
        self.came.pop(key, None)
        self.doors.pop(key, None)

    def _look(self, event: Event, now: float) -> None:
        data = content_of(event.content, 60)
        came = data.get("came") if data is not None else None
        if event.tag("d") != "look" or data is None:
            return
        self._heard_from(event.pubkey)
        self.looked.add(event.pubkey)
        if set(data) == {"v", "gone"}:  # seated elsewhere: withdrawn
            self.came.pop(event.pubkey, None)
            return
        if set(data) != {"v", "came"} or type(came) is not int \
                or abs(came - event.created_at * 1000) > 2000:
            return
        self.came[event.pubkey] = came
        self.look_ids[event.pubkey] = event.id
        self.first_seen.setdefault(event.pubkey, now)

    def _door(self, event: Event) -> None:
        data = content_of(event.content, 60)
        table = event.tag("d")
        if data is None or table is None or not TABLE.match(table):
            return
        self._heard_from(event.pubkey)
        seats = data.get("open")
        if set(data) != {"v", "open"} or type(seats) is not int or not 0 <= seats <= 3:
            return
        if seats:
            self.doors[event.pubkey] = (table, seats)
        else:
            self.doors.pop(event.pubkey, None)

    def _note(self, key: str, data: dict[str, Any], now: float) -> list[Effect]:
        kind, table = data.get("t"), data["table"]
        if kind == "invite" and data.get("look") == self.look_id and self._may_invite(key):
            self.answered = (key, table, now + SEAT_WAIT)
            return [Publish(NOTE, (), note("accept", table=table), to=key)]
        if kind == "invite" and data.get("look") == self.look_id and key not in self.came \
                and self.pending is None and self.budget.ask(1, now):
            self.pending = (key, table, now)  # who is it? its LOOK, if it has one
            return [Subscribe("who", [{"kinds": [LOOK], "authors": [key], "#d": ["look"],
                                       "limit": 1}], once=True)]
        if kind == "accept" and self.dealing is not None and self.invited.get(key) == table:
            self.accepted.add(key)
            if self.accepted == set(self.invited):
                return self._seat(now)
        if kind == "seat" and self.answered is not None and self.answered[:2] == (key, table):
            people = data.get("people")
            if isinstance(people, list) and 2 <= len(people) <= TABLE_SIZE \
                    and len(set(people)) == len(people) and self.me in people \
                    and key in people and all(isinstance(p, str) for p in people):
                return self._done(Seated(table, tuple(people), dealer=False))
        if kind == "welcome" and self.knocked is not None \
                and self.knocked[:2] == (key, table) and data.get("look") == self.look_id:
            return self._done(Joined(table, key))
        return []

    def _may_invite(self, key: str) -> bool:
        """Whether a dealer's invitation may be taken: this page is free, and the dealer is
        a page seen looking that comes before it (a made-up table is no one's)."""
        free = self.dealing is None and self.answered is None and self.knocked is None
        return free and key in self.came and self._order(key) < self._order(self.me)

    # --- the clock ---

    def tick(self, now: float) -> list[Effect]:
        """Time passed: deal, give up on a dealer or a door, or go alone."""
        if self.outcome is not None:
            return []
        if self.level is None:
            if now - self.started < 1.5:
                return []
            effects = self._settle(now)  # a probe that never ended counts as it stands
        else:
            effects = []
        free = self.dealing is None and self.answered is None and self.knocked is None
        pre_deal = not self.pre_polled and now >= self.started + self.gather - PRE_DEAL
        if free and (now >= self.next_poll or pre_deal) and not self.reprobed:
            # the second it came in is over: the probes again, that second's LOOKs among
            # the stored now (a crowd arriving at once is seen at every level at once)
            self.reprobed = True
            self.next_poll = math.floor(now) + POLL + FIRST_POLL
            effects += self._probe(now)
        elif free and (now >= self.next_poll or pre_deal):
            self.pre_polled = self.pre_polled or pre_deal
            effects += self._poll(now)
        if self.dealing is not None:
            if now >= self.dealing[1]:
                effects += self._seat(now)
            elif now >= self.dealing[1] - ANSWER_WAIT + ASK_AGAIN and not self.asked_again:
                self.asked_again = True
                effects += self._invitations(set(self.invited) - self.accepted)
            return effects
        if self.answered is not None:
            if now >= self.answered[2]:  # answered, never seated: a liar or a dropout
                self._mute(self.answered[0])
                self.answered = None
            return effects
        if self.knocked is not None:
            if now >= self.knocked[2]:
                self.passed[self.knocked[0]] = now + 60
                self.doors.pop(self.knocked[0], None)
                self.knocked = None
            return effects
        return effects + self._look_around(now)

    def _order(self, key: str) -> tuple[int, str]:
        return (self.came.get(key, round(self.started * 1000)), key)

    def lookers(self, now: float) -> list[str]:
        """The lookers of this page's shard, in the order every page puts them in."""
        level = self.level or 0
        mine = shard(self.me, level)
        keys = [key for key in self.came if shard(key, level) == mine
                and self.passed.get(key, 0) <= now]
        return sorted({*keys, self.me}, key=self._order)

    def _look_around(self, now: float) -> list[Effect]:
        four = table_of(self.lookers(now), self.me)
        dealer = four[0]
        if dealer != self.me:
            # the dealer's turn: its wait from when this page saw it, then the answers; and
            # if this page just passed over the one before it, time for the dealer to do
            # as much (it may have read that one a poll later)
            due = max(self.first_seen.get(dealer, now) + self.gather + ANSWER_WAIT,
                      self.last_pass + POLL) + GRACE
            if now > due:
                self.passed[dealer] = now + LOOK_TTL
                self.last_pass = now
            return []
        if len(four) < TABLE_SIZE and now - self.started < self.gather:
            return []
        if len(four) == 1 and now - self.started < self.gather + ALONE_WAIT \
                and self.lively():
            return []  # others came lately: one more will likely come soon
        if len(four) > 1 and not self.deaf:
            table = self.new_table()
            self.invited = {key: table for key in four[1:]}
            self.accepted = set()
            self.dealing = (table, now + ANSWER_WAIT)
            self.asked_again = False
            return self._invitations(set(four[1:]))
        if self.doors_asked is None and self.level is not None and not self.deaf:
            self.doors_asked = now
            if self.budget.ask(DOORS, now):
                tag = [shard_tag(self.level, shard(self.me, self.level))]
                return [Subscribe("doors", [{"kinds": [DOOR], "#t": tag, "limit": DOORS,
                                             "since": int(now) - DOOR_TTL,
                                             "until": int(now) - 1}], once=True)]
        if not self.doors_in and self.doors_asked is not None \
                and now - self.doors_asked < KNOCK_WAIT and not self.deaf:
            return []  # the doors' answer is on its way
        door = next((key for key in sorted(self.doors, key=lambda k: -self.doors[k][1])
                     if self.passed.get(key, 0) <= now), None)
        if door is not None and not self.deaf:
            table = self.doors[door][0]
            self.knocked = (door, table, now + KNOCK_WAIT)
            knock = Publish(NOTE, (), note("knock", table=table, look=self.look_id), to=door)
            return [knock]
        return self._done(Alone(self.new_table()))

    def _invitations(self, keys: set[str]) -> list[Effect]:
        assert self.dealing is not None
        return [Publish(NOTE, (), note("invite", table=self.dealing[0], look=self._look_of(key)),
                        to=key) for key in sorted(keys)]

    def _look_of(self, key: str) -> str:
        return self.look_ids.get(key, "")

    def _seat(self, now: float) -> list[Effect]:
        """The answers are in: seat those who answered, or look again."""
        assert self.dealing is not None
        table = self.dealing[0]
        for key in set(self.invited) - self.accepted:  # gone elsewhere, or away
            self.passed[key] = now + LOOK_TTL
        self.dealing = None
        if not self.accepted:
            self.invited = {}
            return []
        people = tuple(sorted({self.me, *self.accepted}, key=self._order))
        seats = [Publish(NOTE, (), note("seat", table=table, people=list(people)), to=key)
                 for key in sorted(self.accepted)]
        return seats + self._done(Seated(table, people, dealer=True))

    def _done(self, outcome: Outcome) -> list[Effect]:
        """Seated (or alone): withdraw the LOOK and stop reading the lobby."""
        self.outcome = outcome
        return [self.withdrawal(), Close("notes")]

    def withdrawal(self) -> Publish:
        """This page's LOOK withdrawn (seated, or it stopped looking): filed under the same
        tags, so the pages reading this shard drop it at once."""
        return Publish(LOOK, (("d", "look"), *shard_tags(self.me),
                              ("expiration", str(int(self.started) + LOOK_TTL))),
                       json.dumps({"v": VERSION, "gone": 1}, separators=(",", ":")))
