"""How a looking page reads the relay lobby: which shard, when, and never past its budget.

The page first reads a few levels at once (``PROBES``), stored events only, each capped at
``CROWD`` by the filter's ``limit``, and keeps the coarsest level where it heard from fewer
than ``CROWD`` keys; once the second it came in is over it sends the probes again (a crowd
arriving within that second is stored by then, and seen at every level at once). It never
reads the lobby live: it reads its shard again every ``POLL`` seconds by a one-shot query
capped at ``CROWD`` (the relay enforces a ``limit``; a live subscription brings whatever a
crowd or a spammer sends before it can be closed), and a read that finds a crowd sends it
to a finer level. The open doors it asks for once, when alone; a dealer's LOOK it hasn't
read, once per invitation. Every query is booked in the page's ``LobbyBudget`` first.
No I/O, no clock of its own: ``web.friends.looking.Looker`` drives it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from web.friends.lobby_budget import LobbyBudget
from web.friends.lobby_effects import Effect, Subscribe
from web.friends.lobby_events import DOOR, LEVELS, LOOK, shard, shard_tag

__all__ = ["CROWD", "DOORS", "DOOR_TTL", "FIRST_POLL", "POLL", "PROBES", "ShardReading"]

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
SETTLE = 1.5
"""Seconds after which a probe that never ended counts as it stands."""
RECENT = 10
"""Seconds back a page reads LOOKs when it comes in (an honest looker is seated sooner)."""
LATE = 2
"""Seconds before its last read that a page's next read of its shard goes back (a LOOK
reaches the relay after it is made, on a clock that may be behind this page's); the
probes sent again go back as far before the page came."""
DOORS = 8
"""The open doors a page alone asks for (once)."""
DOOR_TTL = 120
"""Seconds an open door counts (its expiration; the door refreshes it every minute)."""


class ShardReading:
    """One look's reads of the lobby: the probes, the shard's level, its polls, how busy
    each level is, the doors and the lookups; effects out, never past the budget."""

    def __init__(self, me: str, started: float, budget: LobbyBudget) -> None:
        self.me = me
        self.started = started
        self.budget = budget
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
        self.active: set[str] = set()
        """The keys of the LOOKs and DOORs read (how busy a shard is)."""
        self.near = [0] * LEVELS
        """How many of ``active`` share this page's shard up to each level and no finer
        (so ``busy`` costs a dozen additions, not a pass over a crowd, per event)."""
        self.doors_asked: float | None = None
        """When the open doors were asked for (None: not yet)."""
        self.doors_in = False

    def start(self, now: float) -> list[Effect]:
        """The probes (or, if the budget allows none, the coarsest level at once)."""
        probes = self._probe(now, int(self.started) - RECENT)
        if not self.probes:
            self._settle(now)
        return probes

    def stored_end(self, name: str, now: float) -> list[Effect]:
        """The relay sent every stored event of the query ``name`` (EOSE)."""
        if name == "doors":
            self.doors_in = True
        elif name == "poll" and self.level is not None:
            return self._finer(now)
        elif name.startswith("probe") and int(name[5:]) in self.probes:
            self.ended.add(int(name[5:]))
            if len(self.ended) == len(self.probes):
                self._settle(now)
        return []

    def tick(self, now: float, free: bool, deal_at: float) -> list[Effect]:
        """Time passed: settle on a level if the probes are slow, read the shard again if
        it is time (``free``: the page deals, answers or knocks at nobody now), and once
        more just before ``deal_at`` (when the page deals or goes alone)."""
        if self.level is None:
            if now - self.started < SETTLE:
                return []
            self._settle(now)  # a probe that never ended counts as it stands
        due = now >= self.next_poll or (not self.pre_polled and now >= deal_at - PRE_DEAL)
        if not free or not due:
            return []
        if not self.reprobed:
            # the second it came in is over: the probes again, that second's LOOKs among
            # the stored now (a crowd arriving at once is seen at every level at once)
            self.reprobed = True
            self.next_poll = math.floor(now) + POLL + FIRST_POLL
            return self._probe(now, int(self.started) - LATE)
        self.pre_polled = self.pre_polled or now >= deal_at - PRE_DEAL
        return self._poll(now)

    # --- who is where ---

    def heard_from(self, key: str) -> None:
        """Count ``key`` among the active ones, at the finest level it shares with me."""
        if key in self.active:
            return
        self.active.add(key)
        self.near[next((level - 1 for level in range(1, LEVELS)
                        if shard(key, level) != shard(self.me, level)), LEVELS - 1)] += 1

    def busy(self, level: int) -> int:
        """How many keys this page heard from in its shard at ``level`` (looking, seated
        since, or a door): how much it reads there."""
        return sum(self.near[level:])

    def mine(self, key: str) -> bool:
        """Whether ``key`` is in this page's shard at the level read."""
        level = self.level or 0
        return shard(key, level) == shard(self.me, level)

    def lively(self, looked: Iterable[str]) -> bool:
        """Whether another page of ``looked`` (keys whose LOOKs were read) is in this
        page's shard."""
        return any(self.mine(key) for key in looked)

    # --- the queries ---

    def _probe(self, now: float, since: int) -> list[Effect]:
        """Read the levels of ``PROBES`` at once (as many as the budget allows)."""
        self.ended = set()
        self.probes = tuple(level for level in PROBES if self.budget.ask(CROWD, now))
        return [Subscribe(f"probe{level}", self._filters(level, since, now), once=True)
                for level in self.probes]

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

    def _settle(self, now: float) -> None:
        """Keep the coarsest level whose shard isn't crowded (the probes closed themselves).
        (A probe capped by its ``limit`` holds ``CROWD`` keys, so it counts as crowded.)"""
        self.level = next((level for level in self.probes if self.busy(level) < CROWD),
                          PROBES[-1])
        self.next_poll = math.floor(now) + 1 + FIRST_POLL
        self.read_at = self.started  # the probes read the chosen level

    def _finer(self, now: float) -> list[Effect]:
        """A shard that grew crowded (many came at once): read a finer level at once, one
        where this page's shard holds about half a crowd of lookers."""
        level = self.level
        if level is None or level == LEVELS - 1 or self.busy(level) < CROWD:
            return []
        self.level = min(LEVELS - 1, level + math.ceil(math.log2(self.busy(level) / (CROWD / 2))))
        self.read_at = None  # the finer shard's LOOKs: some weren't among those read
        return self._poll(now)

    def doors(self, now: float) -> list[Effect]:
        """The open doors of this page's shard, asked for once (when the page is alone)."""
        if self.doors_asked is not None or self.level is None:
            return []
        self.doors_asked = now
        if not self.budget.ask(DOORS, now):
            self.doors_in = True  # none will come
            return []
        tag = [shard_tag(self.level, shard(self.me, self.level))]
        return [Subscribe("doors", [{"kinds": [DOOR], "#t": tag, "limit": DOORS,
                                     "since": int(now) - DOOR_TTL, "until": int(now) - 1}],
                          once=True)]

    def who(self, key: str, now: float) -> list[Effect]:
        """``key``'s LOOK, if the budget allows (a dealer this page hasn't read looking)."""
        if not self.budget.ask(1, now):
            return []
        return [Subscribe("who", [{"kinds": [LOOK], "authors": [key], "#d": ["look"],
                                   "limit": 1}], once=True)]
