"""Which side of a private table this page is on, as an explicit state machine. No DOM.

    IDLE ──host()──► HOSTING ──leave()──► HOST_CLOSED ──solo()──► IDLE
      │                 │  └──────────────solo()─────────────────►
      └──join()──► JOINING ──connected──► SEATED ──table gone──► GUEST_CLOSED
                      └── a bad invite, a lost connection ──────► GUEST_CLOSED
    GUEST_CLOSED ──open_table()──► IDLE ──► HOSTING      join() from any role that loses
                                                         nothing (forget() first)
    IDLE ──play_online()──► LOOKING ──dealt──► HOSTING (a table by code, its people coming)
                               ├──invited──► JOINING (by that code) ──► SEATED
                               └──four people──► FAIR ──closed, left──► GUEST_CLOSED

While HOSTING or SEATED the felt table shows a ``RemoteSeat`` (``seat_table``); at a FAIR
table (four people dealing among themselves, ``web.friends.fair``) a ``FairSeat``;
otherwise the page's own game. The dialog (``web.friends.dialog``) reads this session and
calls its transitions; WebRTC is the injected ``Peer``.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import Any

from hearts import Game, Phase
from web import words
from web.friends.fair import FAIR_ROOM, FairPlay
from web.friends.handover import next_game, successor
from web.friends.hosting import TABLE_ROOM, Hosting
from web.friends.joining import STUN, CodeJoining, Joining
from web.friends.lobby import Lobby
from web.friends.online import Dealt, Invited, Online
from web.friends.peer import Peer, Reply
from web.p2p.codes import CodeError, decode_invite
from web.p2p.fair.group import GROUP
from web.p2p.guest import SeatState
from web.p2p.host import HostTable
from web.p2p.protocol import Intent, intent_text, peer_of
from web.p2p.saved import resume_table
from web.p2p.tablecode import TableCode, make_code, read_code
from web.p2p.turns import TURN_SECONDS, TurnTimer
from web.table.remote import RemoteSeat
from web.table.seat import Seat
from web.tasks import Tasks

__all__ = ["PageHooks", "Role", "Session"]

GONE = ("The host's page closed or reloaded, so this table has closed. If the host opens it "
        "again, they can send you a new invite to sit back down.")
LOST = "The connection to the host was lost."
BAD_INVITE = "This invite can't be used. Ask for a new one and paste it here."
SEATED_ALREADY = ("You're already playing at a private table: leave it first (Leave the table "
                  "or Close the table), then open the invite again.")
CLOSED = "You closed the table. Your friends' pages say so."
NO_TABLE = ("No table answered this code. Check it with the person who sent it: their page "
            "must be open, with its table shared by code.")
NO_RELAY = "Your page couldn't reach the relays: "
ARRIVAL_SECONDS = 10.0
"""How long a table dealt in the lobby waits for its people before it starts anyway."""
LOOK_SECONDS = 25.0
"""How long a page looks for a table by its code before saying nobody answered."""
CLOSED_SOLO = (f"{CLOSED} You can carry the game on by yourself against the computers.")
HOST_LEFT = ("The page that ran this table left, and no other player's page could carry it "
             "on, so the table has closed.")
CARRIED_ON = ("The page that ran this table left, so {who} runs it now: the hand that was "
              "under way is dealt again, and everyone keeps their score.")


class Role(Enum):
    IDLE = "idle"
    HOSTING = "hosting"
    HOST_CLOSED = "host-closed"
    JOINING = "joining"
    SEATED = "seated"
    GUEST_CLOSED = "guest-closed"
    LOOKING = "looking"
    FAIR = "fair"


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


class Session:
    """This page's private table, if any."""

    def __init__(self, peer: Peer, page: PageHooks, *, grace: float,
                 pace: Callable[[], float], now: Callable[[], float],
                 minute: Callable[[], int],
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 on_error: Callable[[BaseException], None] = lambda error: None,
                 rng: random.Random | None = None, turn: float = TURN_SECONDS,
                 cheat: str = "") -> None:
        """``grace``: seconds a dropped friend's seat waits; ``pace``: seconds before each
        computer move; ``now``/``minute``: the clocks (seconds, and minutes for invites);
        ``turn``: seconds a person at an online table has to move; ``cheat``: this page
        breaks a rule at fair tables (the tests' check that the others catch it)."""
        self.cheat = cheat
        self.peer = peer
        self.page = page
        self.grace = grace
        self.turn = turn
        self.pace = pace
        self.now = now
        self.minute = minute
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.role = Role.IDLE
        self.hosting: Hosting | None = None
        self.joining: Joining | CodeJoining | None = None
        self.online = Online(peer, self._meet, now=now, sleep=self.sleep, rng=self.rng,
                             on_change=page.on_change)
        """The lobby: looking for players, or offering an online table's open seats."""
        self.seat = SeatState()
        self.remote: RemoteSeat | None = None
        self.fair: FairPlay | None = None
        self.fair_group = GROUP
        self.fair_ended: str | None = None
        """GUEST_CLOSED after a fair table: why it closed (the cheat named, a page gone)."""
        """The fair deal's prime (the tests use a small one)."""
        """FAIR: this page's part of a fair table."""
        self.left: tuple[Game, bool] | None = None
        """HOST_CLOSED: the game of the table closed, and whether its hand had just ended."""
        self.error = ""
        self.resumed = False
        """The table was carried over from before a reload (the dialog says so)."""
        self.busy = False
        """A connection job (invites, an answer, letting in) is running: one at a time."""
        self.tasks = Tasks(on_error)

    # --- reading -------------------------------------------------------------------------

    @property
    def host(self) -> HostTable | None:
        return self.hosting.host if self.hosting is not None else None

    def can_join(self) -> bool:
        """Whether joining a table now loses nothing: not while seated at a friend's table,
        nor while hosting a game that has started."""
        if self.role is Role.SEATED:
            return self.seat.state is None
        if self.role is Role.FAIR:
            return False
        if self.role is Role.HOSTING and self.hosting is not None:
            return not self.hosting.host.started
        return True

    def can_go_solo(self) -> bool:
        """Whether this page's hosted game can carry on as the single-player game."""
        if self.role is Role.HOSTING and self.host is not None:
            game = self.host.game if self.host.started and not self.host.closed else None
        elif self.role is Role.HOST_CLOSED and self.left is not None:
            game = self.left[0]
        else:
            game = None
        return game is not None and game.phase is not Phase.GAME_OVER

    # --- jobs ------------------------------------------------------------------------------

    def run(self, job: Coroutine[Any, Any, None], *, connecting: bool = True) -> None:
        """Run ``job`` in the background (``connecting``: one such job at a time)."""
        async def guarded() -> None:
            self.busy = self.busy or connecting
            try:
                await job
            finally:
                if connecting:
                    self.busy = False
                    self.refresh()
                self.page.on_change()
        self.tasks.spawn(guarded())

    def told(self, text: str) -> None:
        self.error = text

    # --- hosting -----------------------------------------------------------------------------

    def host_table(self, resumed: HostTable | None = None, online: TableCode | None = None,
                   expected: int = 0) -> None:
        """IDLE → HOSTING: open a table (or ``resumed``), an invite for each other seat; or,
        dealt in the lobby (``online``), a table by that code that starts once its
        ``expected`` people are in (or after ``ARRIVAL_SECONDS``)."""
        ice = self.page.ice()
        if self.role is not Role.IDLE or ice is None:
            return
        host = resumed or HostTable(Game.new(), grace=self.grace, level=self.page.level())
        self.resumed = resumed is not None
        if online is None:
            hosting = self._open(host)
            self.run(hosting.make_invites([1, 2, 3], ice, self.page.base()))
            return
        hosting = self._open(host, online)

        async def gather() -> None:
            await self._meet(online.room, online.code)
            waited = 0.0
            while self.hosting is hosting and not host.started and waited < ARRIVAL_SECONDS:
                if sum(hosting.seated(s) for s in (1, 2, 3)) >= expected:
                    break
                await self.sleep(0.25)
                waited += 0.25
            if self.hosting is hosting and not host.started:
                self.begin()
            await self.online.offer_seats(host, online)
        self.run(gather(), connecting=False)

    def _open(self, host: HostTable, online: TableCode | None = None) -> Hosting:
        """→ HOSTING with ``host`` (``online``: a table of strangers in that code's room:
        a turn timer, and no copy kept, since another page carries it on if this one goes)."""
        self.role = Role.HOSTING
        if online is not None:
            host.turns = TurnTimer(self.turn)  # strangers: nobody stalls the table
            host.online = True
        hosting = self.hosting = Hosting(
            host, self.seat, self.peer, table_id=self.rng.getrandbits(32), now=self.now,
            minute=self.minute, keep=self.page.keep if online is None else lambda text: None,
            told=self.told, warn=self.page.warn, on_news=self._news,
            on_change=self.page.on_change)
        hosting.room = online
        host.broadcast()
        hosting.flush()
        # The host plays its own seat on the felt table, through the same messages as a guest.
        self.remote = RemoteSeat(self.seat, hosting.local, deal=hosting.new_game,
                                 start_over=hosting.new_game, on_level=self.set_level)
        self.page.seat_table(self.remote)
        self.run(hosting.run(pace=self.pace, sleep=self.sleep), connecting=False)
        return hosting

    def resume(self, text: str | None) -> None:
        """A table this page hosted before it reloaded: open it again where it was."""
        if text is None:
            return
        table = resume_table(text, grace=self.grace)
        if table is None:
            self.page.keep(None)
            return
        table.set_level(self.page.level())
        self.page.show(True)
        self.host_table(table)

    def invite(self, seat: int) -> None:
        ice = self.page.ice()
        if self.hosting is not None and not self.busy and ice is not None:
            self.error = ""
            self.run(self.hosting.make_invite(seat, ice, self.page.base()))

    def refresh(self) -> None:
        """Remake the open invites made with other ICE servers than the ones chosen now
        (their codes would carry the wrong network addresses)."""
        if self.hosting is None or self.busy or self.hosting.host.closed:
            return
        ice = self.page.ice()
        stale = self.hosting.stale(ice) if ice is not None else []
        if stale:
            assert ice is not None
            self.run(self.hosting.make_invites(stale, ice, self.page.base()))

    def let_in(self, seat: int, code: str) -> None:
        if self.hosting is not None and not self.busy:
            self.error = ""
            self.run(self.hosting.let_in(seat, code))

    def share_code(self) -> None:
        """HOSTING: friends may come in by the table's short code or its link, which pages
        find through relays; the table seats each one as they arrive."""
        hosting = self.hosting
        if hosting is None or hosting.room is not None or hosting.host.closed:
            return
        code = hosting.room = make_code(self.rng)

        async def meet() -> None:
            await self._meet(code.room, code.code)
        self.run(meet(), connecting=False)

    async def _meet(self, room: str, password: str, name: str = TABLE_ROOM) -> Reply | None:
        # Pages met through relays are rarely on one network: they find a route with STUN
        # (named in the dialog) unless the person chose their own TURN server.
        servers = json.loads(self.page.ice() or "[]") or [{"urls": STUN}]
        reply = await self.peer.meet(json.dumps({
            "name": name, "relays": self.page.relays(), "room": room, "password": password,
            "iceServers": servers}))
        if "error" in reply:
            self.error = NO_RELAY + reply["error"]
            return None
        return reply

    def begin(self) -> None:
        if self.hosting is not None:
            self.hosting.host.start()
            self.hosting.flush()
            self.page.show(False)

    def set_level(self, level: str) -> None:
        if self.host is not None:
            self.host.set_level(level)

    # --- joining -----------------------------------------------------------------------------

    def _may_join(self) -> bool:
        """Open the dialog; whether this page may go to another table now (if not, the
        dialog says why)."""
        self.page.show(True)
        if self.can_join():
            return True
        self.error = SEATED_ALREADY
        self.page.on_change()
        return False

    def join(self, code: str) -> None:
        """Take a seat with the invite ``code`` (a code or a whole link)."""
        if not self._may_join():
            return
        try:
            invite = decode_invite(code.strip(), self.minute())
        except CodeError as problem:
            if self.role is Role.IDLE:  # the page opened with a broken link
                self.role = Role.GUEST_CLOSED
            self.error = str(problem)
            self.page.on_change()
            return
        self.forget()
        self.role = Role.JOINING
        self.joining = Joining(invite)
        self.error = ""
        self.answer()

    def play_online(self) -> None:
        """IDLE → LOOKING: into the lobby, to be seated with whoever else is waiting."""
        if not self._may_join():
            return
        self.forget()
        self.role = Role.LOOKING
        self.error = ""
        self.run(self._look_for_players(), connecting=False)
        self.page.on_change()

    @property
    def lobby(self) -> Lobby | None:
        """LOOKING: the lobby as this page sees it."""
        return self.online.lobby

    async def _look_for_players(self) -> None:
        found = await self.online.look()
        if self.role is not Role.LOOKING:
            return
        self.role = Role.IDLE
        if (isinstance(found, Invited) and found.fair) \
                or (isinstance(found, Dealt) and found.people == 3):
            self.sit_fair(found.code)
        elif isinstance(found, Invited):
            self.join_code(found.code.code)
        elif isinstance(found, Dealt):
            self.host_table(online=found.code, expected=found.people)
            self.page.show(False)

    # --- a fair table ----------------------------------------------------------------------------

    def sit_fair(self, code: TableCode) -> None:
        """IDLE → FAIR: to the fair table of ``code``, with the three others the lobby sent."""
        self.role = Role.FAIR
        self.error = ""
        fair = self.fair = FairPlay(
            self.peer.send, code, now=self.now, sleep=self.sleep, turn=self.turn,
            cheat=self.cheat, warn=self.page.warn, seated=self._fair_seated,
            closed=lambda why: self._fair_closed(fair, why),
            start_over=self.leave_for_own_game, group=self.fair_group)
        self.page.show(False)
        self.run(fair.run(self._meet), connecting=False)
        self.page.on_change()

    def _fair_seated(self, seat: Seat) -> None:
        self.page.seat_table(seat)
        self.page.on_change()

    def _fair_closed(self, fair: FairPlay, why: str) -> None:
        """FAIR → GUEST_CLOSED: the fair table closed; the dialog says why."""
        if self.fair is not fair:
            return
        self.fair = None
        fair.leave()
        self.peer.unmeet(FAIR_ROOM)
        self.seat.closed = self.fair_ended = why
        self.role = Role.GUEST_CLOSED
        if fair.seat is not None:
            self.page.seat_table(None)
        self.page.show(True)
        self.page.on_change()

    def _leave_lobby(self) -> None:
        """LOOKING → IDLE (the lobby's room left)."""
        self.online.stop()
        if self.role is Role.LOOKING:
            self.role = Role.IDLE

    def join_code(self, text: str) -> None:
        """Look for a table by its short code (or its ``#t=…&k=…`` link)."""
        if not self._may_join():
            return
        try:
            code = read_code(text)
        except CodeError as problem:
            self.error = str(problem)
            self.page.on_change()
            return
        self.forget()
        self.role = Role.JOINING
        joining = self.joining = CodeJoining(code)
        self.error = ""

        async def look() -> None:
            reply = await self._meet(code.room, code.code)
            if reply is None:
                self._gone()
                return
            await self.sleep(LOOK_SECONDS)
            if self.joining is joining and self.role is Role.JOINING:
                self.peer.unmeet(TABLE_ROOM)
                self.seat.closed = NO_TABLE
                self._gone()
        self.run(look(), connecting=False)
        self.page.on_change()

    def answer(self) -> None:
        joining = self.joining
        if not isinstance(joining, Joining) or self.busy:
            return

        async def make() -> None:
            problem = await joining.make_answer(self.peer)
            if problem is not None:
                self.error = problem
        self.run(make())

    # --- connections -------------------------------------------------------------------------

    def opened(self, conn: str) -> None:
        if self.online.owns(conn):
            self.online.opened(conn)
            return
        if self.fair is not None and self.fair.owns(conn):
            self.fair.opened(conn)
            return
        if self.hosting is not None:
            self.online.arrived(conn)
            self.hosting.opened(conn)
            return
        if isinstance(self.joining, CodeJoining) and conn.startswith(f"r:{TABLE_ROOM}:"):
            self.joining.room[peer_of(conn)] = conn
        if self.joining is not None and conn == self.joining.conn:
            self.role = Role.SEATED
            self.remote = RemoteSeat(self.seat, self._send, start_over=self.leave_for_own_game)
            self.page.seat_table(self.remote)
            self.page.show(False)
            self.page.on_change()

    def received(self, conn: str, text: str) -> None:
        if self.online.owns(conn):
            self.online.received(conn, text)
            return
        if self.fair is not None and self.fair.owns(conn):
            self.fair.received(conn, text)
            return
        if self.hosting is not None:
            self.hosting.received(conn, text)
            return
        joining = self.joining
        if isinstance(joining, CodeJoining) and joining.conn is None \
                and self.role is Role.JOINING:
            # In a table's room only its host speaks first: its first message, the table's
            # state, says which page that is.
            kind = self.seat.receive(text)
            if kind is None:
                return
            joining.conn = conn
            self.opened(conn)
            self._news(kind)
        elif self.joining is not None and conn == self.joining.conn:
            kind = self.seat.receive(text)
            if kind == "closed":
                self.peer.close(conn)
                if self.seat.handover:
                    self._carry_on()
                else:
                    self._gone()
            elif kind is not None:
                self._news(kind)

    def closed(self, conn: str) -> None:
        if self.online.owns(conn):
            self.online.closed(conn)
            return
        if self.fair is not None and self.fair.owns(conn):
            self.fair.closed(conn)
            return
        if self.hosting is not None:
            self.hosting.closed(conn)
            return
        if isinstance(self.joining, CodeJoining):
            self.joining.room.pop(peer_of(conn), None)
        if self.joining is not None and conn == self.joining.conn:
            if self.seat.closed is None and self.seat.peers is not None:
                self._carry_on()  # an online table's host page went without a word
                return
            if self.seat.closed is None:
                self.seat.closed = LOST
            self._gone()

    # --- an online table whose host's page went ----------------------------------------------

    def _carry_on(self) -> None:
        """SEATED at an online table whose host's page went: the successor's page (perhaps
        this one) opens the table again, the others wait for its state."""
        joining, state, peers = self.joining, self.seat.state, self.seat.peers
        if not isinstance(joining, CodeJoining) or state is None or peers is None \
                or joining.conn is None:
            self._gone()
            return
        joining.room.pop(peer_of(joining.conn), None)
        me = state.view.seat
        heir = successor(peers, me, joining.room)
        game = next_game(state.view, self.rng) if state.stage != "lobby" else None
        if heir is None or game is None:
            self.seat.closed = HOST_LEFT
            self._gone()
            return
        self.seat.closed = None
        self.seat.handover = False
        if heir == me:
            self._take_over(joining, game, peers, me)
            return
        heir_peer = peers[heir]
        assert heir_peer is not None
        joining.conn = joining.room[heir_peer]
        self.page.on_change()

        async def wait_for_heir() -> None:
            heard, since = self.seat.state, self.now()
            while self.joining is joining and self.seat.state is heard:
                if self.now() - since >= LOOK_SECONDS:
                    self.seat.closed = HOST_LEFT
                    self._gone()
                    return
                await self.sleep(0.5)
        self.run(wait_for_heir(), connecting=False)

    def _take_over(self, joining: CodeJoining, game: Game, peers: tuple[str | None, ...],
                   me: int) -> None:
        """This page runs the online table now, in the host's seat: the seats turn so that
        it is South, and each person still here keeps their place around the table."""
        table = HostTable(game, grace=self.grace, level=self.page.level())
        self.joining = None
        self.remote = None
        self.role = Role.IDLE
        self.seat.notice = None
        hosting = self._open(table, joining.table)
        for old_seat, peer in enumerate(peers):
            conn = joining.room.get(peer) if peer is not None else None
            if conn is not None and old_seat != me and table.join(conn, (old_seat - me) % 4,
                                                                  self.now()):
                hosting.conn_seat[conn] = (old_seat - me) % 4
        table.start()
        table.tell(CARRIED_ON.format(who="another player's page"))
        self.seat.notice = CARRIED_ON.format(who="your page")
        hosting.flush()
        self.run(self.online.offer_seats(table, joining.table), connecting=False)

    def page_leaving(self) -> None:
        """The page is going away: say goodbye while the connections are still open."""
        if self.hosting is not None:
            self.hosting.host.close(GONE)  # the saved table stays, to carry on after a reload
            self.hosting.flush()
        elif self.role is Role.SEATED:
            self._send(Intent("leave"))
        elif self.fair is not None:
            self.peer.unmeet(FAIR_ROOM)  # the others see this page go: their hand is void

    def _send(self, intent: Intent) -> None:
        if self.joining is not None and self.joining.conn is not None:
            self.peer.send(self.joining.conn, intent_text(intent))

    def _news(self, kind: str) -> None:
        if self.remote is not None:
            self.remote.update(kind)
        self.page.on_change()

    def _gone(self) -> None:
        """SEATED/JOINING → GUEST_CLOSED: back to the page's own game, the dialog says why."""
        if isinstance(self.joining, CodeJoining):
            self.peer.unmeet(TABLE_ROOM)
        if self.joining is not None:
            self.joining.conn = None
        self.role = Role.GUEST_CLOSED
        if self._leave_felt():
            self.page.show(True)
        self.page.on_change()

    def _leave_felt(self) -> bool:
        if self.remote is None:
            return False
        self.remote = None
        self.page.seat_table(None)
        return True

    # --- leaving -------------------------------------------------------------------------------

    def leave(self) -> None:
        """Close the table (host: HOSTING → HOST_CLOSED) or leave it (a seated guest)."""
        if self.hosting is not None:
            hosting, host = self.hosting, self.hosting.host
            host.close()
            hosting.flush()
            hosting.hang_up_all()
            self._leave_felt()
            self.page.keep(None)
            if host.started:
                self.left = (host.game, 0 in host.waiting_ready)
            self.seat.closed = CLOSED if self.left is None else CLOSED_SOLO
            self.hosting = None
            self.role = Role.HOST_CLOSED
        elif self.role is Role.SEATED:
            self._send(Intent("leave"))
        elif self.role is Role.LOOKING:
            self._leave_lobby()
        elif self.fair is not None:
            self._fair_closed(self.fair, words.FAIR_LEFT)
        self.page.on_change()

    def leave_for_own_game(self) -> None:
        """Guest: leave at once (the error dialog's New game); the computer takes the seat."""
        if self.fair is not None:
            self._fair_closed(self.fair, words.FAIR_LEFT)
            return
        if self.joining is not None and self.joining.conn is not None:
            self._send(Intent("leave"))
            self.peer.close(self.joining.conn)
        self.seat.closed = "You left the table."
        self._gone()

    def solo(self) -> None:
        """Host: close the table if it is open and carry its game on here, alone."""
        if not self.can_go_solo():
            return
        if self.hosting is not None:
            self.leave()
        assert self.left is not None
        game, scored = self.left
        self.forget()
        self.error = ""
        self.page.show(False)
        self.page.adopt(game, scored)

    def open_table(self) -> None:
        """Open a private table here (a closed guest's page leaves the old one first)."""
        if self.role is Role.GUEST_CLOSED:
            self.forget()
            self.error = ""
        if self.role is Role.IDLE:
            self.host_table()

    def forget(self) -> None:
        """→ IDLE: close the table this page opened (nobody has played yet), the
        connection of an earlier invite, or stop looking for players."""
        self._leave_lobby()
        if self.fair is not None:
            self.fair.leave()
            self.fair = None
            self.peer.unmeet(FAIR_ROOM)
            self.page.seat_table(None)
        if self.hosting is not None:
            self.hosting.host.close()
            self.hosting.flush()
            self.hosting.hang_up_all()
            self.hosting = None
        if self.joining is not None and self.joining.conn is not None:
            self.peer.close(self.joining.conn)
        if isinstance(self.joining, CodeJoining):
            self.peer.unmeet(TABLE_ROOM)
        if self.role in (Role.HOSTING, Role.HOST_CLOSED):
            self.left = None
            self.page.keep(None)
        self._leave_felt()
        self.joining = None
        self.role = Role.IDLE
        self.resumed = False
        self.fair_ended = None
        self.seat = SeatState()
