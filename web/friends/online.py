"""Play online's side of a page's session: the relay lobby, over the page's wire.

A page is in the lobby for one of two reasons: it looks for players (``look``: a
``Looker`` until it is seated, dealt a table, let in at one under way, or alone), or it runs
a table under way that a computer plays part of (``offer_seats``: a ``Door`` offering those
seats). ``web.friends.looking`` and ``web.friends.lobby_door`` decide; this carries out
their effects on the wire (``web.p2p.relay_wire``: NIP-01 events, no WebRTC), hands them
what comes in, and turns the outcome into the table the session sits at. No DOM: the wire
and the clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from web.friends.lobby_budget import LobbyBudget
from web.friends.lobby_door import Door
from web.friends.lobby_events import LOOK, Event, read_event
from web.friends.looking import (
    GATHER,
    Alone,
    Close,
    Effect,
    Looker,
    Outcome,
    Publish,
    Seated,
    Subscribe,
)
from web.p2p.codes import CodeError
from web.p2p.relay_wire import Wire
from web.p2p.tablecode import TableCode, make_code, read_code

__all__ = ["Dealt", "Invited", "Online", "Unreachable"]

TICK = 0.1
"""Seconds between two looks at the lobby's clock while looking."""
DOOR_TICK = 0.25
"""Seconds between two looks at a table's open seats and the knocks that came (a
knocker waits for its welcome)."""


@dataclass(frozen=True)
class Invited:
    """Another page dealt a table and sent this one its code."""

    code: TableCode
    people: int = 0
    """How many people the dealer seated at this fair table (``web.friends.fair_room``),
    this page among them; 0: a table under way (``late``)."""
    late: bool = False
    """A fair table under way, which seats this page between two hands."""


@dataclass(frozen=True)
class Dealt:
    """This page dealt a table: its code, and how many other people it seated there (0:
    nobody looked, so it plays with computers, its door open)."""

    code: TableCode
    people: int


@dataclass(frozen=True)
class Unreachable:
    """No relay could be reached: the lobby was never found."""


def _checked(event: Event) -> bool:
    """Every event reaching Python had its id and signature checked by the page's
    JavaScript (``web/static/relays.mjs``: Pyodide has no secp256k1)."""
    return True


class Online:
    """This page in the lobby, looking for players or offering its table's open seats."""

    def __init__(self, wire: Wire, relays: Callable[[], list[str]], *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 rng: random.Random, on_change: Callable[[], None],
                 wait: float = GATHER) -> None:
        """``relays``: where players meet (the dialog's setting); ``now``: the wall clock
        (seconds since 1970: events carry it); ``wait``: seconds a dealer waits for three
        others (``GATHER``; ``?wait=S``)."""
        self.wire = wire
        self.relays = relays
        self.wait = wait
        self.now = now
        self.sleep = sleep
        self.rng = rng
        self.on_change = on_change
        self.looking = False
        """Play online was pressed and hasn't found a table yet (nor been stopped)."""
        self.looker: Looker | None = None
        """Looking, with a relay reached: the lobby as this page sees it."""
        self.door: Door | None = None
        """Running a table with computers in it: its open seats, offered in the lobby."""
        self.offering: Callable[[], int | None] | None = None
        """The open seats of the table offered (None: it is over)."""
        self._ticket: object | None = None
        """The look under way (a look stopped while its relays answer comes to nothing)."""
        self.pending: list[Effect] = []
        """What the events that came in call for, carried out by the running loop."""
        self.budget = LobbyBudget()
        """What this page read of the lobby and sent to it in the last minute, whichever
        look (or its table's door) did."""

    # --- looking for players -----------------------------------------------------------------

    async def look(self) -> Invited | Dealt | Unreachable | None:
        """In the lobby until another page seats this one at a table, this one deals one,
        a table under way lets it in, or it is alone (a game with computers of its own);
        ``Unreachable`` if no relay answered, None if it stopped looking (``stop``)."""
        self._stop_offering()
        self.looking = True
        ticket = object()
        self._ticket = ticket
        key = await self.wire.open(self.relays())
        if self._ticket is not ticket:
            return None
        if key is None:
            self.stop()
            return Unreachable()
        looker = self.looker = Looker(key, self.now(), verify=_checked, gather=self.wait,
                                      new_table=lambda: make_code(self.rng).code,
                                      budget=self.budget)
        self.pending = []
        effects = looker.start(self.now())
        while self.looker is looker:
            await self._carry_out(effects)
            if self.looker is not looker:
                return None
            if looker.outcome is not None:
                found = self._found(looker.outcome)
                self.stop()
                if found is None:  # a table name that isn't a code: look again
                    return await self.look()
                return found
            self.on_change()
            await self.sleep(TICK)
            effects = self._take() + looker.tick(self.now())
        return None

    def _found(self, outcome: Outcome) -> Invited | Dealt | None:
        try:
            code = read_code(outcome.table)
        except CodeError:
            return None
        if isinstance(outcome, Seated):
            others = len(outcome.people) - 1
            return Dealt(code, others) if outcome.dealer else Invited(code, others + 1)
        if isinstance(outcome, Alone):
            return Dealt(code, 0)
        return Invited(code, late=True)

    def stop(self) -> None:
        """Stop looking: off the relays."""
        if self.looking:
            looker, self.looker = self.looker, None
            self.looking = False
            self._ticket = None
            # a look stopped before it found a table is withdrawn, so the others don't
            # count on this page until its LOOK expires
            gone = looker.withdrawal(self.now()) if looker is not None and looker.look_id \
                and looker.outcome is None else None
            self.wire.close([] if gone is None else [(gone.kind, gone.tags, gone.content)])

    def met(self) -> bool:
        """Looking, and a relay answered."""
        return self.looker is not None

    def people(self) -> int:
        """Looking: how many look in this page's part of the lobby, this page included."""
        return self.looker.people(self.now()) if self.looker is not None else 1

    def seconds_left(self) -> float:
        """Looking: seconds until this page deals (or plays with computers) if nobody
        else comes first."""
        return self.looker.seconds_left(self.now()) if self.looker is not None else self.wait

    # --- a table under way --------------------------------------------------------------------

    async def offer_seats(self, seats: Callable[[], int | None], code: TableCode) -> None:
        """While a table goes on: its open seats (``seats``: how many a computer plays that
        nobody came for; None once the table is over) filed in the lobby, and whoever
        knocks let in at the next hand; off the relays whenever no seat is open."""
        self.offering = seats
        last = 0
        while self.offering is seats and (left := seats()) is not None:
            door = self.door
            if door is None and left > 0 and not self.looking:
                key = await self.wire.open(self.relays())
                if self.offering is not seats:
                    if key is not None and not self.looking:  # (a look replaced it)
                        self.wire.close()
                    return
                door = self.door = None if key is None else Door(key, code.code,
                                                                 verify=_checked,
                                                                 budget=self.budget)
                self.pending = []
            if door is not None:
                effects = self._take()
                # a page let in came to the table: the seat promised to it is used (the
                # table's room doesn't know its lobby key: the oldest promise goes first)
                taken = max(0, last - left)
                for key in sorted(door.promised, key=door.promised.__getitem__)[:taken]:
                    effects += door.arrived(key, left, self.now())
                effects += door.seats(left, self.now())
                await self._carry_out(effects)
                if self.door is door and not door.listening:  # nothing open, withdrawn
                    self.door = None
                    self.wire.close()
            last = left
            await self.sleep(DOOR_TICK)
        if self.offering is seats:
            door = self.door
            if door is not None:  # the table is over: its door withdrawn
                await self._carry_out(door.close(self.now()))
            self._stop_offering()

    def _stop_offering(self) -> None:
        self.offering = None
        if self.door is not None:
            self.door = None
            self.wire.close()

    # --- the wire -----------------------------------------------------------------------------

    def event(self, sub: str, text: str, plain: str | None) -> None:
        """An event from the relays, its id and signature checked (``plain``: a note to
        this page, decrypted)."""
        try:
            event = read_event(json.loads(text))
        except ValueError:
            return
        if event is None:
            return
        now = self.now()
        if self.looker is not None:
            self.pending += self.looker.received(event, plain, now)
        elif self.door is not None:
            self.pending += self.door.received(event, plain, now)

    def stored(self, sub: str) -> None:
        """The relays sent every stored event of subscription ``sub``."""
        if self.looker is not None:
            self.pending += self.looker.stored_end(sub, self.now())

    def _take(self) -> list[Effect]:
        effects, self.pending = self.pending, []
        return effects

    async def _carry_out(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Publish):
                ident = await self.wire.publish(effect.kind, effect.tags, effect.content,
                                                effect.to, int(self.now()))
                looker = self.looker
                if effect.kind == LOOK and looker is not None and not looker.look_id:
                    looker.look_id = ident  # the invitations name it
            elif isinstance(effect, Subscribe):
                self.wire.subscribe(effect.name, effect.filters, effect.once)
            elif isinstance(effect, Close):
                self.wire.unsubscribe(effect.name)
