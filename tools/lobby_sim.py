"""Pages that look for players through the relay lobby, simulated over ``tools.lobby_relay``.

Each simulated page runs the page's own lobby code (``web.friends.looking.Looker``, then
``web.friends.lobby_door.Door`` at a table a computer plays part of) and does what the page
does with its effects: signs and sends events, opens and closes subscriptions, ticks every
quarter second. Signatures are a stand-in (a hash of key and id: the page signs with
secp256k1 Schnorr keys), notes go unencrypted to their ``p`` key. What happens at a table
is modelled, not played: connecting its people (WebRTC, ``CONNECT`` seconds), the deal,
hands of ``HAND`` seconds, people leaving after ``STAY`` seconds on average. Used by
``tools/bench_lobby.py`` and ``tests/test_lobby_relay.py``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tools.lobby_relay import Clock, Relay
from web.friends.lobby_budget import LobbyBudget
from web.friends.lobby_door import Door
from web.friends.lobby_events import LOOK, NOTE, Event, make_event
from web.friends.looking import Alone, Close, Effect, Joined, Looker, Publish, Seated, Subscribe

__all__ = ["SimPage", "World", "key_of", "sign_for", "verify"]

T0 = 1000.0
"""When the simulations start (the relays' seconds: a filter's "since" stays positive)."""
TICK = 0.25
DEAL = 1.0
"""Seconds from a table's people connected to cards in their hands (a fair deal)."""
LOCAL_DEAL = 0.3
"""Seconds for a page alone with computers to deal."""


def key_of(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def sign_for(key: str) -> Callable[[str], str]:
    """The stand-in signature of ``key``: what ``verify`` accepts."""
    return lambda ident: hashlib.sha512(f"sig{key}{ident}".encode()).hexdigest()


def verify(event: Event) -> bool:
    return event.sig == sign_for(event.pubkey)(event.id)


@dataclass
class Table:
    name: str
    members: list[SimPage] = field(default_factory=list)
    start: float = 0.0
    hand: float = 100.0
    door: SimPage | None = None

    def next_hand(self, now: float) -> float:
        """When the next hand starts (``now`` or later)."""
        if now <= self.start:
            return self.start
        done = int((now - self.start) // self.hand) + 1
        return self.start + done * self.hand


class World:
    """The relay, the clock, the tables, and the pages."""

    def __init__(self, rng: random.Random, *, loss: float = 0.0, stay: float = 600.0,
                 hand: float = 100.0, connect: tuple[float, float] = (0.5, 1.5),
                 keep_log: bool = False) -> None:
        self.rng = rng
        self.clock = Clock()
        self.clock.now = T0
        self.relay = Relay(self.clock, rng, loss=loss, keep_log=keep_log)
        self.stay = stay
        self.hand = hand
        self.connect = connect
        self.tables: dict[str, Table] = {}
        self.pages: list[SimPage] = []
        self.count = 0

    def new_table(self) -> str:
        self.count += 1
        return f"table{self.count:06d}"

    def add(self, name: str, at: float, vanish: float | None = None) -> SimPage:
        page = SimPage(self, name)
        self.pages.append(page)
        self.clock.at(at, page.arrive)
        if vanish is not None:
            self.clock.at(at + vanish, page.vanish)
        return page

    def table(self, name: str) -> Table:
        if name not in self.tables:
            self.tables[name] = Table(name, hand=self.hand)
        return self.tables[name]


class SimPage:
    """One simulated page: its lobby code, and what became of it."""

    def __init__(self, world: World, name: str) -> None:
        self.world = world
        self.name = name
        self.key = key_of(name)
        self.sign = sign_for(self.key)
        self.looker: Looker | None = None
        self.door: Door | None = None
        self.arrived = self.seated = self.cards = self.person = -1.0
        self.table: Table | None = None
        self.gone = False
        self.peers = 0
        """Peer connections this page opened (the other people of its table)."""
        self.budget = LobbyBudget()
        """What it read of the lobby and sent to it in the last minute (its looks, its door)."""
        self.once: set[str] = set()
        """One-shot queries not answered yet (each closed at its EOSE)."""

    @property
    def now(self) -> float:
        return self.world.clock.now

    def arrive(self) -> None:
        self.arrived = self.now
        self.world.relay.connect(self.key, self.inbox)
        self.looker = Looker(self.key, self.now, verify=verify,
                             new_table=self.world.new_table, budget=self.budget)
        self.apply(self.looker.start(self.now))
        self.world.clock.after(TICK, self.tick)

    def vanish(self) -> None:
        """The person closed the page while it looked."""
        if self.looker is not None and self.looker.outcome is None:
            self.gone = True
            self.world.relay.disconnect(self.key)

    def apply(self, effects: list[Effect]) -> None:
        relay = self.world.relay
        for effect in effects:
            if isinstance(effect, Publish):
                tags = effect.tags + ((("p", effect.to),) if effect.to else ())
                event = make_event(self.key, int(self.now), effect.kind, tags, effect.content,
                                   self.sign)
                if effect.kind == LOOK and self.looker is not None \
                        and not self.looker.look_id:
                    self.looker.look_id = event.id
                relay.publish(self.key, event)
            elif isinstance(effect, Subscribe):
                relay.req(self.key, effect.name, effect.filters)
                if effect.once:  # closed at its EOSE
                    self.once.add(effect.name)
                else:
                    self.once.discard(effect.name)
            elif isinstance(effect, Close):
                relay.close(self.key, effect.name)

    def inbox(self, kind: str, payload: object) -> None:
        if self.gone:
            return
        looker = self.looker
        if kind == "EOSE" and payload in self.once:
            assert isinstance(payload, str)
            self.once.discard(payload)
            self.world.relay.close(self.key, payload)
        if kind == "EOSE" and looker is not None and looker.outcome is None:
            assert isinstance(payload, str)
            self.apply(looker.stored_end(payload, self.now))
        elif kind == "EVENT":
            assert isinstance(payload, tuple)
            event: Event = payload[1]
            plain = event.content if event.kind == NOTE else None
            if looker is not None and looker.outcome is None:
                self.apply(looker.received(event, plain, self.now))
                self.settle()
            elif self.door is not None:
                self.apply(self.door.received(event, plain, self.now))

    def tick(self) -> None:
        if self.gone or self.looker is None or self.looker.outcome is not None:
            return
        self.apply(self.looker.tick(self.now))
        if not self.settle():
            self.world.clock.after(TICK, self.tick)

    def settle(self) -> bool:
        """Carry out the lobby's outcome, once: sit at the table it names."""
        looker = self.looker
        if looker is None or looker.outcome is None or self.seated >= 0:
            return looker is not None and looker.outcome is not None
        self.seated = self.now
        world, outcome = self.world, looker.outcome
        table = world.table(outcome.table)
        if isinstance(outcome, Seated):
            # the dealer starts the table once its people are connected; a page whose
            # seat note was lost leaves a computer in its seat
            if outcome.dealer:
                table.start = self.now + world.rng.uniform(*world.connect) + DEAL
                world.clock.at(table.start + 0.01, lambda: self.started(table))
            self.sit(table, max(self.now + world.rng.uniform(*world.connect) + DEAL,
                                table.start))
        elif isinstance(outcome, Alone):
            table.start = self.now + LOCAL_DEAL
            self.sit(table, table.start)
            self.open_door(table)
        elif isinstance(outcome, Joined):
            # it plays with computers meanwhile (nobody waits idle), then takes its seat
            self.cards = self.now + LOCAL_DEAL
            when = table.next_hand(self.now)
            world.clock.at(when, lambda: self.admitted(table))
        return True

    def sit(self, table: Table, cards: float) -> None:
        self.table = table
        # a page let in at a table under way held cards (with computers) from then on,
        # even if that table filled before its next hand and it looked again
        self.cards = cards if self.cards < 0 else min(self.cards, cards)
        table.members.append(self)
        self.world.clock.at(cards + self.world.rng.expovariate(1 / self.world.stay),
                            self.leave)

    def started(self, table: Table) -> None:
        """The dealer's table starts: a seat whose person never came is a computer's."""
        people = [page for page in table.members if not page.gone]
        for page in people:
            page.peers = max(page.peers, len(people) - 1)
            if len(people) > 1 and page.person < 0:
                page.person = max(page.cards, table.start)
        if len(people) < 4 and people:
            people[0].open_door(table)

    def admitted(self, table: Table) -> None:
        """A page let in by a door sits down at the table's next hand."""
        if not table.members or len(table.members) >= 4:  # ended, or full: look again
            self.seated = -1.0
            if self.looker is not None:
                self.looker.outcome = None
                self.looker = Looker(self.key, self.now, verify=verify,
                                     new_table=self.world.new_table, budget=self.budget)
                self.apply(self.looker.start(self.now))
                self.world.clock.after(TICK, self.tick)
            return
        self.sit(table, self.cards if self.cards > 0 else self.now)
        for page in table.members:
            page.peers = max(page.peers, len(table.members) - 1)
            if page.person < 0:
                page.person = self.now
        door = table.door
        if door is not None and door.door is not None:
            door.apply(door.door.arrived(self.key, 4 - len(table.members), self.now))

    def open_door(self, table: Table) -> None:
        """This page keeps the table's door: its open seats offered in the lobby."""
        table.door = self
        if self.door is None:
            self.door = Door(self.key, table.name, verify=verify, budget=self.budget)
        self.apply(self.door.seats(4 - len(table.members), self.now))
        self.world.clock.after(30.0, self.refresh)

    def refresh(self) -> None:
        table = self.table
        if self.door is None or table is None or table.door is not self or self.gone:
            return
        self.apply(self.door.seats(4 - len(table.members), self.now))
        self.world.clock.after(30.0, self.refresh)

    def leave(self) -> None:
        """The person leaves the table (the game isn't over for the others)."""
        table = self.table
        if table is None or self.gone:
            return
        self.gone = True
        if self.door is not None:
            self.apply(self.door.close(self.now))
        self.world.relay.disconnect(self.key)
        table.members.remove(self)
        if table.members and table.door in (self, None):
            table.members[0].open_door(table)
        elif table.members and table.door is not None and table.door.door is not None:
            keeper = table.door
            assert keeper.door is not None
            keeper.apply(keeper.door.seats(4 - len(table.members), self.now))
