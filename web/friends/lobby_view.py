"""The relay lobby as one looking page has read it: who looks in its shard, since when, the
open doors there, and the keys it stopped listening to.

What comes in is checked before it counts (the caller checked its shape and id with
``lobby_events.read_event``): its signature (``verify``), once per event however often a
query brings it again, a key that sent more than ``MAX_FROM_KEY`` muted, nothing older than
a LOOK lasts (``LOOK_TTL``) or dated ahead of this page's clock by more than ``SKEW``. A LOOK
must say when its page came (within 2 s of its date), a DOOR how many seats it has open
(0 to 3). Every page orders the lookers alike: by when they came, then by key. No I/O, no
clock of its own: ``web.friends.looking.Looker`` reads it.
"""

from __future__ import annotations

from collections.abc import Callable

from web.friends.lobby_events import TABLE, Event, content_of
from web.friends.lobby_reading import ShardReading

__all__ = ["LOOK_TTL", "MAX_FROM_KEY", "SKEW", "ShardView"]

LOOK_TTL = 30
"""Seconds a LOOK counts (its NIP-40 expiration); older ones are ignored."""
SKEW = 5
"""Seconds a clock may be ahead of this page's."""
MAX_FROM_KEY = 8
"""Events one key may send this page while it looks (an honest one sends at most 5)."""


class ShardView:
    """The lookers and open doors of this page's shard, as read; floods muted."""

    def __init__(self, me: str, started: float, reading: ShardReading, *,
                 verify: Callable[[Event], bool]) -> None:
        """``reading``: which shard this page reads (and how busy each level is);
        ``verify``: whether an event's signature is its key's."""
        self.me = me
        self.started = started
        self.reading = reading
        self.verify = verify
        self.came: dict[str, int] = {}
        """Looker key -> when it came (ms, from its LOOK)."""
        self.look_ids: dict[str, str] = {}
        """Looker key -> the id of its LOOK (an invitation names it)."""
        self.looked: set[str] = set()
        """The keys of the LOOKs read, looking or seated since."""
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

    def admit(self, event: Event, now: float) -> bool:
        """Whether ``event`` counts: signed by its key, new, from a key not flooding this
        page, of a date that holds."""
        key = event.pubkey
        if key == self.me or key in self.muted or event.id in self.seen:
            return False  # (each read of the shard brings its stored LOOKs again)
        if not self.verify(event):
            return False
        self.seen.add(event.id)
        self.heard[key] = self.heard.get(key, 0) + 1
        if self.heard[key] > MAX_FROM_KEY:
            self.mute(key)
            return False
        return int(now) - LOOK_TTL <= event.created_at <= now + SKEW

    def mute(self, key: str) -> None:
        """Listen to ``key`` no more (a flood, or a dealer that never seated)."""
        self.muted.add(key)
        self.came.pop(key, None)
        self.doors.pop(key, None)

    def look(self, event: Event, now: float) -> None:
        """A LOOK read: a looker (or one seated since, its LOOK withdrawn)."""
        data = content_of(event.content, 60)
        came = data.get("came") if data is not None else None
        if event.tag("d") != "look" or data is None:
            return
        self.reading.heard_from(event.pubkey)
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

    def door(self, event: Event) -> None:
        """A DOOR read: a table under way with seats open (or none any more)."""
        data = content_of(event.content, 60)
        table = event.tag("d")
        if data is None or table is None or not TABLE.match(table):
            return
        self.reading.heard_from(event.pubkey)
        seats = data.get("open")
        if set(data) != {"v", "open"} or type(seats) is not int or not 0 <= seats <= 3:
            return
        if seats:
            self.doors[event.pubkey] = (table, seats)
        else:
            self.doors.pop(event.pubkey, None)

    def order(self, key: str) -> tuple[int, str]:
        """Where ``key`` stands among the lookers (this page: when it started)."""
        return (self.came.get(key, round(self.started * 1000)), key)

    def lookers(self, now: float) -> list[str]:
        """The lookers of this page's shard not passed over, in the order every page puts
        them in, this page among them."""
        keys = [key for key in self.came if self.reading.mine(key)
                and self.passed.get(key, 0) <= now]
        return sorted({*keys, self.me}, key=self.order)

    def lively(self) -> bool:
        """Whether another page filed a LOOK in this page's shard lately."""
        return self.reading.lively(self.looked)

    def open_door(self, now: float) -> str | None:
        """The key of the door with the most seats open, not passed over; None: none."""
        return next((key for key in sorted(self.doors, key=lambda k: -self.doors[k][1])
                     if self.passed.get(key, 0) <= now), None)
