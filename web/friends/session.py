"""Which side of a table this page is on, as an explicit state machine. No DOM.

    IDLE ──HOST──► HOSTING ──CLOSE──► HOST_CLOSED ──SOLO──► IDLE
      │                └──────────────SOLO───────────────►
      └──JOIN──► JOINING ──CONNECTED──► SEATED ──TABLE_CLOSED, LEAVE──► GUEST_CLOSED
                    └── a bad invite, nobody answered ───────────────► GUEST_CLOSED
    IDLE ──PLAY_ONLINE──► LOOKING ──DEALT──► HOSTING (alone: a game with the computers)
                             │                  └──FAIR_FOUND (a person came)──► FAIR
                             ├──FAIR_FOUND──► FAIR ──FAIR_CLOSED, LEAVE──► GUEST_CLOSED
                             │                  └──ALONE (the others left)──► HOSTING
                             ├──RELAY_FAILED──► NO_RELAY ──PLAY_ONLINE (Try again)──► LOOKING
                             └──DIALOG_CLOSED, LEAVE──► IDLE

The whole table, every (role, event) pair, is ``web.friends.role.TRANSITIONS``; ``fire`` is
the one place that looks it up and changes the role, and carries out the effects every role
shares (out of the lobby, the felt back to the page's own game, the dialog opened or closed).

While HOSTING or SEATED the felt table shows a ``RemoteSeat`` (``seat_table``); at a FAIR
table (four people dealing among themselves, ``web.friends.fair_room``) a ``FairSeat``;
otherwise the page's own game. The dialog (``web.friends.dialog``) reads this session and
calls its transitions, and the host's and the guest's buttons on those sides; WebRTC is the
injected ``Peer``.

The session holds the role and what every role shares (the page, the peer, the clocks, the
background jobs, the seat's state), routes each connection to the part that owns it, and
leaves whichever table the page is at. Going to a table (whether the page may, by invite,
code or a kept seat, until a table seats it) is ``web.friends.going``'s; the session's
methods of that name hand over to it. What each role does is apart: the host's side in
``web.friends.host_side``, the guest's in ``web.friends.guest_side``, a fair table's in
``web.friends.fair_side``, looking for players in ``web.friends.online_side``; the lobby
(relay events, on the injected ``Wire``) is ``web.friends.online``.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from web import words
from web.friends.fair_room import FairPlay
from web.friends.fair_side import FairSide
from web.friends.going import Going
from web.friends.guest_side import GuestSide
from web.friends.host_side import HostSide
from web.friends.hosting import TABLE_ROOM, Hosting
from web.friends.joining import STUN, CodeJoining, Joining
from web.friends.looking import GATHER
from web.friends.online import Online
from web.friends.online_side import OnlineSide
from web.friends.parts import PageHooks
from web.friends.role import Effect, Event, Role, next_role
from web.friends.table_sign import TableSigns
from web.p2p.fair.group import GROUP
from web.p2p.guest import SeatState
from web.p2p.host import HostTable
from web.p2p.peer import Peer, Reply
from web.p2p.protocol import Intent
from web.p2p.relay_wire import Wire
from web.p2p.turns import TURN_SECONDS
from web.seats.remote import RemoteSeat
from web.tasks import Tasks

__all__ = ["Event", "PageHooks", "Role", "Session"]


class Connections(Protocol):
    """A part of the session that owns connections: their news goes to it."""

    def opened(self, conn: str) -> None: ...
    def received(self, conn: str, text: str) -> None: ...
    def closed(self, conn: str) -> None: ...


class Session:
    """This page's private table, if any."""

    def __init__(self, peer: Peer, page: PageHooks, *, wire: Wire, grace: float,
                 pace: Callable[[], float], now: Callable[[], float],
                 minute: Callable[[], int],
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 on_error: Callable[[BaseException], None] = lambda error: None,
                 rng: random.Random | None = None, turn: float = TURN_SECONDS,
                 wait: float = GATHER, wall: Callable[[], float] | None = None,
                 cheat: str = "", sign: Wire | None = None) -> None:
        """``grace``: seconds a dropped friend's seat waits; ``pace``: seconds before each
        computer move; ``now``/``minute``: the clocks (seconds, and minutes for invites);
        ``turn``: seconds a person at an online table has to move; ``wait``: seconds a
        dealer in the lobby waits for three others; ``wall``: the clock the lobby's
        events carry (seconds since 1970; ``now`` if not given); ``cheat``: this page
        breaks a rule at fair tables (the tests' check that the others catch it);
        ``sign``: a wire of its own for the sign of a table shared by code (None: no
        sign, and a code is looked up for its whole time)."""
        self.cheat = cheat
        self.fair_group = GROUP
        """The fair deal's prime (the tests use a small one)."""
        self.peer = peer
        self.page = page
        self.grace = grace
        self.turn = turn
        self.pace = pace
        self.now = now
        self.minute = minute
        self.sleep = sleep
        # the OS's randomness by default: a table's code is its meeting room's password
        self.rng = rng or random.SystemRandom()
        self.role = Role.IDLE
        self.online = Online(wire, page.relays, now=wall or now, sleep=self.sleep,
                             rng=self.rng, on_change=page.on_change, wait=wait)
        """The lobby: looking for players, or offering an online table's open seats."""
        self.signs = TableSigns(sign, page.relays, now=wall or now, sleep=self.sleep)
        """The sign of the table this page shares by code, or the look for another's."""
        self.seat = SeatState()
        """What this page's seat knows of the table (the host's own seat too)."""
        self.remote: RemoteSeat | None = None
        """HOSTING, SEATED: the seat the felt table shows."""
        self.host_side = HostSide(self)
        """Opening a table, the host's buttons, closing it."""
        self.guest_side = GuestSide(self)
        """Going to another page's table, the connection to its host, the hand-over."""
        self.fair_side = FairSide(self)
        """Sitting at a fair table, and its closing."""
        self.online_side = OnlineSide(self)
        """Looking for players, and going to the table the lobby found."""
        self.going = Going(self, self.host_side, self.guest_side, self.fair_side)
        """Whether this page may go to a table now, and its way there until seated."""
        self.error = ""
        self.busy = False
        """A connection job (invites, an answer, letting in) is running: one at a time."""
        self.tasks = Tasks(on_error)

    # --- reading -------------------------------------------------------------------------

    @property
    def hosting(self) -> Hosting | None:
        """HOSTING: the table this page runs."""
        return self.host_side.hosting

    @property
    def host(self) -> HostTable | None:
        return self.hosting.host if self.hosting is not None else None

    @property
    def resumed(self) -> bool:
        """The hosted table was carried over from before a reload (the dialog says so)."""
        return self.host_side.resumed

    @property
    def joining(self) -> Joining | CodeJoining | None:
        """JOINING, SEATED: the invite answered or the code looked for."""
        return self.guest_side.joining

    @property
    def fair(self) -> FairPlay | None:
        """FAIR: this page's part of a fair table."""
        return self.fair_side.fair

    @property
    def fair_ended(self) -> str | None:
        """GUEST_CLOSED after a fair table: why it closed (the cheat named, a page gone)."""
        return self.fair_side.ended

    # --- what every role shares ------------------------------------------------------------

    def run(self, job: Coroutine[Any, Any, None], *, connecting: bool = True) -> None:
        """Run ``job`` in the background (``connecting``: one such job at a time)."""
        async def guarded() -> None:
            self.busy = self.busy or connecting
            try:
                await job
            finally:
                if connecting:
                    self.busy = False
                    self.host_side.refresh()
                self.page.on_change()
        self.tasks.spawn(guarded())

    def told(self, text: str) -> None:
        self.error = text

    def fire(self, event: Event) -> bool:
        """The role after ``event`` (``web.friends.role.TRANSITIONS``), with its effects;
        whether the event meant anything in this role (if not, nothing changes)."""
        row = next_role(self.role, event)
        if row is None:
            return False
        self.role, effects = row
        if Effect.LEAVE_LOBBY in effects:
            self.online.stop()
        if Effect.OWN_GAME in effects:
            self.leave_felt()
        if Effect.OPEN_DIALOG in effects:
            self.page.show(True)
        if Effect.CLOSE_DIALOG in effects:
            self.page.show(False)
        return True

    async def meet(self, room: str, password: str, name: str = TABLE_ROOM) -> Reply | None:
        """Into a meeting room through the relays; None (and the error said) if they
        couldn't be reached."""
        # Pages met through relays are rarely on one network: they find a route with STUN
        # (named in the dialog) unless the person chose their own TURN server.
        servers = json.loads(self.page.ice() or "[]") or [{"urls": STUN}]
        reply = await self.peer.meet(json.dumps({
            "name": name, "relays": self.page.relays(), "room": room, "password": password,
            "iceServers": servers}))
        if "error" in reply:
            self.page.warn(f"Hearts: relays: {reply['error']}")
            self.error = words.no_relay(self.page.relays())
            return None
        return reply

    def rename(self) -> None:
        """The person chose another name: the table they are at shows it."""
        name = self.page.name()
        if self.hosting is not None:
            self.hosting.host.names[0] = name
            self.hosting.host.broadcast()
            self.hosting.flush()
        elif self.role is Role.SEATED:
            self.guest_side.send(Intent("name", name=name))
        elif self.fair is not None:
            self.fair.rename()

    def news(self, kind: str) -> None:
        """A message of this kind reached this page's seat."""
        if self.remote is not None:
            self.remote.update(kind)
        self.page.on_change()

    def leave_felt(self) -> bool:
        """The felt table shows the page's own game again; whether it showed a table's."""
        if self.remote is None:
            return False
        self.remote = None
        self.page.seat_table(None)
        return True

    # --- opening a table -------------------------------------------------------------------

    def open_table(self) -> None:
        """Open a private table here (a closed guest's page leaves the old one first)."""
        if self.role in (Role.GUEST_CLOSED, Role.NO_RELAY):
            self.forget()
            self.error = ""
        if self.role is Role.IDLE:
            self.host_side.host_table()

    # --- going to a table: ``web.friends.going`` ----------------------------------------

    def play_online(self) -> None:
        """IDLE → LOOKING (``web.friends.online_side``)."""
        self.online_side.play_online()

    def can_join(self) -> bool:
        return self.going.can_join()

    def may_join(self) -> bool:
        return self.going.may_join()

    def join(self, code: str) -> None:
        self.going.join(code)

    def join_code(self, text: str) -> None:
        self.going.join_code(text)

    def back_to_table(self, kept: str) -> None:
        self.going.back_to_table(kept)

    def dialog_closed(self) -> None:
        self.going.dialog_closed()

    def on_the_way(self) -> bool:
        return self.going.on_the_way()

    # --- connections: each to the part that owns it -----------------------------------------

    def _part(self, conn: str) -> Connections:
        """Who owns connection ``conn``: a fair table's mesh, the hosted table
        (every connection while hosting), else the guest's link to its host."""
        fair = self.fair
        if fair is not None and fair.owns(conn):
            return fair
        return self.hosting if self.hosting is not None else self.guest_side

    def opened(self, conn: str) -> None:
        self._part(conn).opened(conn)

    def received(self, conn: str, text: str) -> None:
        self._part(conn).received(conn, text)

    def closed(self, conn: str) -> None:
        self._part(conn).closed(conn)

    # --- leaving -----------------------------------------------------------------------------

    def page_leaving(self) -> None:
        """The page is going away: say goodbye while the connections are still open."""
        if self.hosting is not None:
            # the saved table stays, to carry on after a reload (not its code: its sign
            # comes down)
            self.signs.take_down()
            self.hosting.host.close(words.HOST_GONE)
            self.hosting.flush()
        elif self.role is Role.SEATED and not self.guest_side.kept:
            self.guest_side.send(Intent("leave"))
        # (a seat that can be come back to waits its grace: this may be a reload)
        elif self.fair is not None:
            self.fair_side.page_leaving()

    def leave(self) -> None:
        """Close the table (host: HOSTING → HOST_CLOSED) or leave it (a seated guest)."""
        self.error = ""  # (a refusal said while at the table is stale once it is left)
        if self.going.on_the_way():  # not seated yet: as closing the dialog, nothing to say
            self.forget()
            self.page.show(False)
        elif self.hosting is not None:
            self.fair_side.forget()  # (a lone page's door to a fair table)
            self.host_side.close()
        elif self.role is Role.SEATED:
            self.guest_side.send(Intent("leave"))
        elif self.role is Role.LOOKING:
            self.fire(Event.LEAVE)
        elif self.fair is not None:
            self.fair_side.leave()
        self.page.on_change()

    def leave_for_own_game(self) -> None:
        """Guest: leave at once (the error dialog's New game); the computer takes the seat."""
        if self.fair is not None:
            self.fair_side.leave()
        else:
            self.guest_side.leave_now()

    def forget(self) -> None:
        """→ IDLE: close the table this page opened (nobody has played yet), the
        connection of an earlier invite, or stop looking for players."""
        self.online.stop()
        self.fair_side.forget()
        self.host_side.forget()
        self.guest_side.hang_up()
        if self.role in (Role.HOSTING, Role.HOST_CLOSED):
            self.host_side.forget_game()
        self.leave_felt()
        self.guest_side.joining = None
        self.fire(Event.FORGET)
        self.host_side.resumed = False
        self.fair_side.ended = None
        self.seat = SeatState()
