"""A table shared by code puts up a sign on the relays while it is open: "table open".

A page that looks a code up reads the relays for the table's sign before its host could
answer in the table's room. The relays answer at once (their stored events, then EOSE), so
with no sign up the person is told "No table answered" within a few seconds, not after the
whole look (``LOOK_SECONDS``); with a sign up, the look goes on as before.

The sign is a NIP-01 addressable event (kind ``SIGN``, one per key and ``d`` tag, so each
filing replaces the last) with a NIP-40 ``expiration``: the host files it when it shares
the code, again every ``REFRESH`` seconds, and replaces it with a withdrawal when the table
closes; a page that vanishes without withdrawing it (a closed tab) leaves a sign that
expires ``LIFE`` seconds after its last filing.

What it gives away: its ``d`` tag is a hash of the table's meeting room (the first five
characters of the code), which the relays already see hashed as the room's topic whenever
a page meets there (Trystero's namespace is SHA-256 of its app id and the room). The rest
of the code, the room's password, never leaves the page: a hash of the whole code would
let an onlooker try every code offline and then walk into the room.

What a liar can do: file a sign of its own for any room. A sign never seats anybody (only
the host's page answers in the room), so a false "open" at most sends a look back to the
whole wait, as if there were no sign at all; a false withdrawal is another key's event and
can't replace the host's. Reading no sign never ends a look while a page of the table's
room is connecting to this one (the caller's check).

No DOM: the wire (``web.p2p.relay_wire``) and the clocks are injected; pytest runs it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from web.friends.lobby_events import Event, read_event
from web.p2p.relay_wire import Wire
from web.p2p.tablecode import TableCode

__all__ = ["GRACE", "LIFE", "REFRESH", "SIGN", "Lookup", "TableSigns", "sign_tag",
           "stands"]

SIGN = 30442
"""A table open to people who come by its code (addressable: one per host and table)."""
LIFE = 120
"""Seconds a sign stands after it was filed, unless filed again (NIP-40 expiration)."""
REFRESH = 60
"""Seconds between two filings of an open table's sign."""
GRACE = 2.0
"""Seconds a look waits, after the relays answered with no sign up, for one filed just
then (a table whose code was shared a moment ago)."""
TICK = 0.1
"""Seconds between two looks at the clock while a sign stands or is looked for."""
APP = "hearts-table-v2"
"""The tables' protocol (``web/static/room.mjs``'s app id): a page of another version
reads no sign, as it would meet no table."""
SUB = "sign"


def sign_tag(code: TableCode) -> str:
    """The ``d`` tag of the sign of the table ``code``: a hash of its meeting room only."""
    return hashlib.sha256(f"{APP}:open:{code.room}".encode()).hexdigest()


def sign_event(code: TableCode, now: float, open_: bool
               ) -> tuple[int, tuple[tuple[str, ...], ...], str]:
    """The (kind, tags, content) of the table's sign, or of its withdrawal."""
    tags = (("d", sign_tag(code)), ("expiration", str(int(now) + LIFE)))
    return SIGN, tags, json.dumps({"v": 1, "open": 1 if open_ else 0},
                                  separators=(",", ":"))


def stands(event: Event, tag: str, now: float) -> bool:
    """Whether ``event`` is an open sign of the table tagged ``tag`` at ``now``: of this
    kind and tag, saying open, filed within its life (not ahead of the clock by more than
    a minute) and not expired."""
    if event.kind != SIGN or event.tag("d") != tag:
        return False
    try:
        content = json.loads(event.content)
        expires = int(event.tag("expiration") or "")
    except ValueError:
        return False
    return isinstance(content, dict) and content.get("v") == 1 and content.get("open") == 1 \
        and now - LIFE <= event.created_at <= now + 60 and now < expires


class Lookup:
    """One look at the relays for a table's sign."""

    def __init__(self, code: TableCode) -> None:
        self.tag = sign_tag(code)
        self.standing = False
        """An open sign of the table came."""
        self.answered: float | None = None
        """When the relays had sent every sign they kept (EOSE)."""

    def filters(self, now: float) -> list[dict[str, Any]]:
        return [{"kinds": [SIGN], "#d": [self.tag], "since": int(now) - LIFE}]

    def received(self, event: Event, now: float) -> None:
        if stands(event, self.tag, now):
            self.standing = True

    def stored(self, now: float) -> None:
        if self.answered is None:
            self.answered = now

    def verdict(self, now: float) -> bool | None:
        """True: a sign stands (look on); False: none, and its grace is out; None: not
        known yet."""
        if self.standing:
            return True
        if self.answered is not None and now - self.answered >= GRACE:
            return False
        return None


class TableSigns:
    """This page's sign for the table it shares by code, or its look for another's."""

    def __init__(self, wire: Wire | None, relays: Callable[[], list[str]], *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]]) -> None:
        """``wire``: a wire of its own (None: no signs, every look waits its whole time);
        ``now``: the wall clock (seconds since 1970: events carry it)."""
        self.wire = wire
        self.relays = relays
        self.now = now
        self.sleep = sleep
        self.posted: TableCode | None = None
        """The table whose sign this page keeps up."""
        self.lookup: Lookup | None = None
        """The look under way."""
        self._ticket: object | None = None
        """The post or look under way (one stopped while the relays answer ends there)."""

    # --- a host's sign -------------------------------------------------------------------

    async def post(self, code: TableCode) -> None:
        """Keep the table's sign up, filed again every ``REFRESH`` seconds, until
        ``take_down``."""
        wire = self.wire
        if wire is None:
            return
        self.stop()
        ticket = self._ticket = object()
        if await wire.open(self.relays()) is None or self._ticket is not ticket:
            return  # (no relay: people who come by code wait the whole look, as before)
        self.posted = code
        while self._ticket is ticket:
            now = self.now()
            kind, tags, content = sign_event(code, now, True)
            await wire.publish(kind, tags, content, None, int(now))
            while self._ticket is ticket and self.now() < now + REFRESH:
                await self.sleep(TICK)

    def take_down(self) -> None:
        """The table closed: its sign is replaced by a withdrawal, and this page is off
        the relays (a post still waiting for its relays goes no further)."""
        if self.lookup is not None or self.wire is None:
            return  # (a look, not a post)
        code, self.posted, self._ticket = self.posted, None, None
        self.wire.close([] if code is None else [sign_event(code, self.now(), False)])

    # --- a look ------------------------------------------------------------------------------

    async def look(self, code: TableCode, still: Callable[[], bool]) -> bool | None:
        """Whether the table ``code`` has its sign up: True (it stands), False (the relays
        keep none and none came within ``GRACE``), None (no relay answered, or the look
        stopped: ``still`` turned false or ``stop``). Off the relays when it returns."""
        wire = self.wire
        if wire is None:
            return None
        self.stop()
        ticket = self._ticket = object()
        if await wire.open(self.relays()) is None:
            if self._ticket is ticket:
                self._ticket = None
            return None
        lookup = self.lookup = Lookup(code)
        if self._ticket is ticket:
            wire.subscribe(SUB, lookup.filters(self.now()), False)
        verdict = None
        while self._ticket is ticket and still() \
                and (verdict := lookup.verdict(self.now())) is None:
            await self.sleep(TICK)
        if self._ticket is ticket:
            self.stop()
            return verdict
        return None

    def stop(self) -> None:
        """Whatever this page did on the signs' wire ends, silently (a sign up is left
        to expire: ``take_down`` withdraws it)."""
        self._ticket = None
        self.lookup = None
        self.posted = None
        if self.wire is not None:
            self.wire.close()

    # --- the wire ---------------------------------------------------------------------------

    def event(self, sub: str, text: str, plain: str | None) -> None:
        """An event from the relays, its id and signature checked."""
        lookup = self.lookup
        if lookup is None or sub != SUB:
            return
        try:
            event = read_event(json.loads(text), (SIGN,))
        except ValueError:
            return
        if event is not None:
            lookup.received(event, self.now())

    def stored(self, sub: str) -> None:
        """The relays sent every sign they keep for the look."""
        if self.lookup is not None and sub == SUB:
            self.lookup.stored(self.now())
