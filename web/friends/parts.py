"""What a side of the session may use of it, and what the page gives the session.

The session (``web.friends.session``) makes its sides — the host's, the guest's, a fair
table's, Play online's — and hands itself to each: each side takes it as ``Parts``, the
members it may use (the page, the peer, the clocks, the background jobs, the role's table,
the seat's state) and the two doors into other sides (``HostDoor``, ``FairDoor``). So no
side imports the session that makes it, nor another side. No DOM.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hearts import Game
from web.friends.fair_back import KeepSeat
from web.friends.fair_door import Carried
from web.friends.online import Online
from web.friends.role import Event, Role
from web.friends.table_sign import TableSigns
from web.p2p.fair.group import Group
from web.p2p.fair.public import Score
from web.p2p.guest import SeatState
from web.p2p.host import HostTable
from web.p2p.peer import Peer, Reply
from web.p2p.tablecode import TableCode
from web.seats.remote import RemoteSeat
from web.table.seat import Seat

__all__ = ["FairDoor", "HostDoor", "PageHooks", "Parts"]


@dataclass(frozen=True)
class PageHooks:
    """What the session asks of the page around it."""

    seat_table: Callable[[Seat | None], None]
    """Show this seat on the felt table (None: the page's own game)."""
    adopt: Callable[[Game, bool], None]
    """Carry a hosted game on alone (whether its hand had just ended)."""
    keep: Callable[[str | None], None]
    """Store the hosted table's JSON (None: forget it)."""
    show: Callable[[bool], None]
    """Open (True) or close the dialog."""
    on_change: Callable[[], None]
    """Something the dialog shows has changed."""
    warn: Callable[[str], None]
    """A line for the console (a refused guest message)."""
    level: Callable[[], str]
    """The computer level chosen in the settings."""
    ice: Callable[[], str | None]
    """The ICE servers chosen in the dialog (JSON; None while incomplete)."""
    base: Callable[[], str]
    """The page's address without a fragment (invite links start with it)."""
    relays: Callable[[], list[str]]
    """The relays where tables are found by code (public ones unless the address says)."""
    name: Callable[[], str] = lambda: ""
    """The name the person chose for tables with others ("": their seat's place)."""
    keep_seat: KeepSeat = lambda text, part="": None
    """Keep, for this tab only, what brings this page back to its seat after a reload, or
    a part of it (None: forget it all)."""


class HostDoor(Protocol):
    """What another side asks of the host's side."""

    def host_table(self, resumed: HostTable | None = None, online: TableCode | None = None
                   ) -> None: ...
    def carry_on(self, code: TableCode, history: Sequence[Score], seat: int) -> None: ...
    def forget(self) -> None: ...


class FairDoor(Protocol):
    """What another side asks of a fair table's side."""

    def sit(self, code: TableCode, people: int = 4, late: bool = False,
            carried: Carried | None = None) -> None: ...


class Parts(Protocol):
    """The session as its sides see it."""

    error: str
    remote: RemoteSeat | None

    @property
    def page(self) -> PageHooks: ...
    @property
    def peer(self) -> Peer: ...
    @property
    def seat(self) -> SeatState: ...
    @property
    def role(self) -> Role: ...
    @property
    def busy(self) -> bool: ...
    @property
    def online(self) -> Online: ...
    @property
    def signs(self) -> TableSigns: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def turn(self) -> float: ...
    @property
    def grace(self) -> float: ...
    @property
    def cheat(self) -> str: ...
    @property
    def fair_group(self) -> Group: ...
    @property
    def now(self) -> Callable[[], float]: ...
    @property
    def minute(self) -> Callable[[], int]: ...
    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]: ...
    @property
    def pace(self) -> Callable[[], float]: ...
    @property
    def host_side(self) -> HostDoor: ...
    @property
    def fair_side(self) -> FairDoor: ...

    def fire(self, event: Event) -> bool: ...
    def run(self, job: Coroutine[Any, Any, None], *, connecting: bool = True) -> None: ...
    def forget(self) -> None: ...
    def news(self, kind: str) -> None: ...
    def told(self, text: str) -> None: ...
    def may_join(self) -> bool: ...
    def can_join(self) -> bool: ...
    def leave(self) -> None: ...
    def leave_for_own_game(self) -> None: ...
    async def meet(self, room: str, password: str, name: str = ...) -> Reply | None: ...
