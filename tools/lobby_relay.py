"""A simulated NIP-01 relay and clock, for the relay lobby's unit tests and its benchmark.

Events go in (``publish``); subscriptions (``req``) get the stored events matching their
filters (newest first, at most ``limit`` per filter), then EOSE, then every new matching
event. Addressable events (kinds 30000-39999) are stored, one per key, kind and ``d`` tag,
the newest winning; ephemeral ones (20000-29999) are only passed on. Filters: ``kinds``,
``#t``, ``#p``, ``authors``, ``since``, ``limit``, as NIP-01 says. Deliveries take
``latency()`` seconds and are lost with probability ``loss`` (an injected
``random.Random``), on a discrete-event ``Clock``; each way, a client's messages arrive in
the order they were sent (a WebSocket), and those sent at one instant arrive together (a
page closes a one-shot query at its EOSE: what comes live meanwhile is read, and counted).
Counts what it carries, per client and per second.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from web.friends.lobby_events import Event

__all__ = ["Clock", "Relay"]


class Clock:
    """Discrete-event time: callbacks at given times, run in order."""

    def __init__(self) -> None:
        self.now = 0.0
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.seq = itertools.count()

    def at(self, when: float, call: Callable[[], None]) -> None:
        heapq.heappush(self.queue, (when, next(self.seq), call))

    def after(self, delay: float, call: Callable[[], None]) -> None:
        self.at(self.now + delay, call)

    def run(self, until: float) -> None:
        while self.queue and self.queue[0][0] <= until:
            self.now, _, call = heapq.heappop(self.queue)
            call()
        self.now = max(self.now, until)


Place = tuple[str, int, str]
"""Where an addressable event is stored: (key, kind, ``d`` tag)."""


@dataclass
class Subscription:
    client: str
    name: str
    filters: list[dict[str, Any]]


@dataclass
class Counts:
    sent: int = 0
    received: int = 0
    log: list[tuple[float, str]] = field(default_factory=list)
    """(time, "s" or "r") of each event, when ``Relay.keep_log``."""


def matches(event: Event, filt: dict[str, Any],
            tags: dict[str, set[str]] | None = None) -> bool:
    """Whether ``event`` passes one NIP-01 filter (``limit`` aside); ``tags``: the event's
    tag values by name, if the caller keeps them (a crowd's events are matched often)."""
    if "kinds" in filt and event.kind not in filt["kinds"]:
        return False
    if "authors" in filt and event.pubkey not in filt["authors"]:
        return False
    if "since" in filt and event.created_at < filt["since"]:
        return False
    if "until" in filt and event.created_at > filt["until"]:
        return False
    for name in ("t", "p", "d"):
        wanted = filt.get(f"#{name}")
        if wanted is None:
            continue
        values = tags.get(name, set()) if tags is not None else set(event.tag_values(name))
        if values.isdisjoint(wanted):
            return False
    return True


class Relay:
    """One relay that every simulated page (and door) talks to."""

    def __init__(self, clock: Clock, rng: random.Random, *, loss: float = 0.0,
                 latency: Callable[[], float] | None = None, keep_log: bool = False) -> None:
        self.clock = clock
        self.rng = rng
        self.loss = loss
        self.latency = latency or (lambda: 0.03 + rng.expovariate(1 / 0.02))
        self.keep_log = keep_log
        self.stored: dict[tuple[str, int, str], Event] = {}
        self.tag_sets: dict[str, dict[str, set[str]]] = {}
        """Event id -> its tag values by name, for the events stored or being passed on."""
        self.shelves: dict[tuple[str, str, int], dict[int, list[Place]]] = \
            defaultdict(dict)
        """(tag name, value, kind) -> second -> the places of the stored events under that
        tag, of that kind, created that second, in order: a filter's newest ``limit`` are
        read off the top, not sorted out of a crowd every time."""
        self.subs: dict[tuple[str, str], Subscription] = {}
        self.by_tag: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        self.inboxes: dict[str, Callable[[str, Any], None]] = {}
        self.counts: dict[str, Counts] = defaultdict(Counts)
        self.per_second_in: Counter[int] = Counter()
        self.per_second_out: Counter[int] = Counter()
        self.up: dict[str, float] = {}
        """Client -> when its last message reaches the relay (in order: one socket)."""
        self.down: dict[str, float] = {}
        """Client -> when the relay's last message to it arrives."""
        self.last_sent: dict[str, float] = {}
        """Client -> when it last sent a message (those sent at one instant travel
        together, as one write to a socket)."""

    def _in_order(self, ends: dict[str, float], client: str, call: Callable[[], None]) -> None:
        """``call`` after a latency, but not before the client's previous message that way."""
        if ends is self.up and self.last_sent.get(client) == self.clock.now:
            when = ends[client]  # sent together: they arrive together, in order
        else:
            when = ends[client] = max(self.clock.now + self.latency(), ends.get(client, 0.0))
        if ends is self.up:
            self.last_sent[client] = self.clock.now
        self.clock.at(when, call)

    def connect(self, client: str, inbox: Callable[[str, Any], None]) -> None:
        """``inbox(kind, payload)``: ("EVENT", (sub name, event)) or ("EOSE", sub name)."""
        self.inboxes[client] = inbox

    def disconnect(self, client: str) -> None:
        self.inboxes.pop(client, None)
        for key in [key for key in self.subs if key[0] == client]:
            self._drop(key)

    def _count(self, client: str, what: str) -> None:
        counts = self.counts[client]
        if what == "s":
            counts.sent += 1
            self.per_second_in[int(self.clock.now)] += 1
        else:
            counts.received += 1
            self.per_second_out[int(self.clock.now)] += 1
        if self.keep_log:
            counts.log.append((self.clock.now, what))

    def _send(self, client: str, kind: str, payload: Any) -> None:
        if kind == "EVENT" and self.rng.random() < self.loss:
            return
        if kind == "EVENT":
            self._count(client, "r")

        def deliver() -> None:
            inbox = self.inboxes.get(client)
            if inbox is not None:
                inbox(kind, payload)
        self._in_order(self.down, client, deliver)

    # --- the client's side: messages take latency() to reach the relay ---

    def publish(self, client: str, event: Event) -> None:
        self._count(client, "s")
        self._in_order(self.up, client, lambda: self._publish(event))

    def req(self, client: str, name: str, filters: list[dict[str, Any]]) -> None:
        self._in_order(self.up, client, lambda: self._req(client, name, filters))

    def close(self, client: str, name: str) -> None:
        self._in_order(self.up, client, lambda: self._drop((client, name)))

    # --- the relay's side ---

    def _tags(self, event: Event) -> dict[str, set[str]]:
        found = self.tag_sets.get(event.id)
        if found is None:
            found = self.tag_sets[event.id] = {}
            for tag in event.tags:
                found.setdefault(tag[0], set()).add(tag[1])
        return found

    def _publish(self, event: Event) -> None:
        tags = self._tags(event)
        if 30000 <= event.kind < 40000:
            place = (event.pubkey, event.kind, event.tag("d") or "")
            old = self.stored.get(place)
            if old is not None and old.created_at > event.created_at:
                return
            if old is not None:
                self.tag_sets.pop(old.id, None)
                for tag in old.tags:
                    shelf = self.shelves[(tag[0], tag[1], old.kind)][old.created_at]
                    del shelf[bisect.bisect_left(shelf, place)]
            self.stored[place] = event
            for tag in event.tags:
                bisect.insort(self.shelves[(tag[0], tag[1], event.kind)]
                              .setdefault(event.created_at, []), place)
        elif not 20000 <= event.kind < 30000:
            return  # the lobby files nothing else
        else:
            del self.tag_sets[event.id]  # passed on now, never stored
        keys: set[tuple[str, str]] = set()
        for tag in event.tags:
            keys |= self.by_tag.get((tag[0], tag[1]), set())
        for key in sorted(keys):  # in a set's order, runs would differ (hash seeds)
            sub = self.subs.get(key)
            if sub is not None and any(matches(event, f, tags) for f in sub.filters):
                self._send(sub.client, "EVENT", (sub.name, event))

    def _req(self, client: str, name: str, filters: list[dict[str, Any]]) -> None:
        if client not in self.inboxes:
            return
        self._drop((client, name))
        sub = self.subs[(client, name)] = Subscription(client, name, filters)
        for filt in filters:
            for tag in ("t", "p", "d"):
                for value in filt.get(f"#{tag}", []):
                    self.by_tag[(tag, value)].add((client, name))
        for filt in filters:
            for event in self._stored(filt):
                self._send(client, "EVENT", (name, event))
        self._send(client, "EOSE", name)
        del sub

    def _stored(self, filt: dict[str, Any]) -> list[Event]:
        """The stored events that pass ``filt``, newest first (ties in key order), at most
        its ``limit``."""
        kinds = filt.get("kinds", sorted({place[1] for place in self.stored}))
        tag = next((tag for tag in ("t", "p", "d") if f"#{tag}" in filt), None)
        if tag is None:
            shelves = [self._all_of(kinds)]
        else:
            shelves = [self.shelves[(tag, value, kind)] for value in filt[f"#{tag}"]
                       for kind in kinds if (tag, value, kind) in self.shelves]
        since, until = filt.get("since"), filt.get("until", int(self.clock.now) + 60)
        if since is not None and until - since <= 600:  # the lobby's: walk the seconds
            seconds = [second for second in range(until, since - 1, -1)
                       if any(second in shelf for shelf in shelves)]
        else:
            seconds = sorted({second for shelf in shelves for second in shelf
                              if (since is None or since <= second) and second <= until},
                             reverse=True)
        limit = filt.get("limit", len(self.stored))
        found: list[Event] = []
        for second in seconds:
            last = None
            for place in heapq.merge(*(shelf[second] for shelf in shelves if second in shelf)):
                if place == last:  # under two of the wanted values: once
                    continue
                last, event = place, self.stored[place]
                if matches(event, filt, self._tags(event)):
                    found.append(event)
                    if len(found) >= limit:
                        return found
        return found

    def _all_of(self, kinds: list[int]) -> dict[int, list[Place]]:
        """Every stored event of ``kinds``, shelved by second (a filter with no tag)."""
        shelf: dict[int, list[Place]] = {}
        for place, event in self.stored.items():
            if place[1] in kinds:
                shelf.setdefault(event.created_at, []).append(place)
        return {second: sorted(places) for second, places in shelf.items()}

    def _drop(self, key: tuple[str, str]) -> None:
        sub = self.subs.pop(key, None)
        if sub is None:
            return
        for filt in sub.filters:
            for tag in ("t", "p", "d"):
                for value in filt.get(f"#{tag}", []):
                    self.by_tag[(tag, value)].discard(key)
