"""A fair table's side of a page's session: its room's mesh, its seats and its clock.

The lobby sends two to four people to a fair table (``web.friends.lobby``): each page meets
the others in the table code's room (the ``FAIR_ROOM`` connections, a full mesh), and once
all are there they draw the seats (``web.p2p.fair.seating``: commit, then reveal) — every
page works out the same seats, and nobody chooses — and which page plays each computer left
over. A page runs a ``FairTable`` for its person's seat and, if the draw gave it one, a
second for its computer's (``web.p2p.fair.computer``). Every message of either goes to the
other pages and into the other table here; every message of theirs into both, once the
mesh checked that its page holds the seat it comes from. Between messages the audit runs
in slices, the page yielding after each.

A page that leaves takes its keys with it. If two or more pages are left, the table goes on
(``_hand_over``): once what the page sent before it left has had ``GONE_GRACE`` to arrive,
and the hand's audit is done if the keys were all out, the pages still there draw again
among themselves — their people keep their seats, a computer takes each seat of the page
that left, and who plays which computer is drawn — and deal the next hand with the scores
as they were; a hand the page left unfinished doesn't count. No DOM: the peer and the
clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Awaitable, Callable
from statistics import mean

from web import words
from web.friends.fair_tables import PageTables
from web.friends.peer import Reply
from web.p2p.fair.cheats import DRAWS
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.seating import DrawError, SeatDraw, Seating, is_draw
from web.p2p.fair.table import GONE_GRACE, FairStage, FairTable
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.players import make
from web.seats.fair import FairSeat

__all__ = ["FAIR_ROOM", "FairPlay"]

FAIR_ROOM = "fair"
"""The name of a fair table's meeting room (``Peer.meet``): connections ``r:fair:<peer>``."""
GATHER_SECONDS = 25.0
"""How long a page waits for the others in the table's room."""
MAX_EARLY = 64
"""Messages kept from pages that spoke before this one had its seat (the deal's first)."""


class FairPlay:
    """This page at a fair table: the room's connections, its ``FairTable`` and seat, and
    the computer it plays, if any."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 turn: float, cheat: str = "", warn: Callable[[str], None],
                 seated: Callable[[FairSeat], None], closed: Callable[[str], None],
                 start_over: Callable[[], None], group: Group = GROUP,
                 people: int = 4, pace: Callable[[], float] = lambda: 0.8) -> None:
        """``send(conn, text)``: to one page; ``seated``: the felt shows this seat now;
        ``closed(why)``: the table closed (a cheat named, a page gone); ``people``: how
        many pages the lobby sent to the table, this one among them (2 to 4); ``pace``: seconds
        before a computer's card."""
        self.people = people
        self.pace = pace
        self.send = send
        self.code = code
        self.now = now
        self.sleep = sleep
        self.turn = turn
        self.cheat = cheat
        self.warn = warn
        self.on_seated = seated
        self.on_closed = closed
        self.start_over = start_over
        self.me: str | None = None
        self.room: dict[str, str] = {}
        """Page id -> connection, of the pages in the table's room."""
        self.early: list[tuple[str, str]] = []
        self.seats: dict[str, tuple[int, ...]] = {}
        """Connection -> the seats its page holds (its person's first), once seated."""
        self.signing_key = self.computer_signing_key = 0
        """This page's signing keys for the table (made with the draw), its person's and
        the one for a computer's seat."""
        self.draw: SeatDraw | None = None
        """The draw for the seats, once every page is in the room."""
        self.tables: PageTables | None = None
        """This page's fair tables, once seated: its person's, and its computer's."""
        self.seat: FairSeat | None = None
        self.leaving: dict[str, float] = {}
        """Pages that left a table that goes on, and when: their seats are handed over."""
        self.redrawing = False
        """The pages still there are drawing again (``_hand_over``)."""
        self.done = False
        self.reported = (0, "")
        self._pumping = False
        self.group = group

    @property
    def table(self) -> FairTable | None:
        """This page's person's seat's table, once seated."""
        return None if self.tables is None else self.tables.person

    @property
    def computer(self) -> FairComputer | None:
        """The computer this page plays, if the draw gave it one."""
        return None if self.tables is None else self.tables.computer

    @staticmethod
    def owns(conn: str) -> bool:
        return conn.startswith(f"r:{FAIR_ROOM}:")

    # --- the room -------------------------------------------------------------------------------
    async def run(self, meet: Callable[[str, str, str], Awaitable[Reply | None]]) -> None:
        """Into the table's room; seated once the four are there; then the audits' slices
        until the table closes."""
        reply = await meet(self.code.room, self.code.code, FAIR_ROOM)
        if reply is None or not reply.get("self"):
            self._close(words.FAIR_NOBODY)
            return
        self.me = str(reply["self"])
        since = self.now()
        while not self.done and self.table is None:
            if len(self.room) >= self.people - 1 and self.draw is None:
                self._start_draw()
                since = self.now()  # the draw has GATHER_SECONDS of its own
            elif self.now() - since >= GATHER_SECONDS:
                self._close(words.FAIR_NOBODY)
                return
            else:
                await self.sleep(0.1)
        while not self.done and self.tables is not None:
            done = self.tables.work_step()
            if done:
                self._after()  # a proof out or checked, the verdict: news to send and show
            if self.computer is not None and not self.done and not self.redrawing \
                    and await self.computer.move(self.sleep):
                self._after()
            self._hand_over()
            await self.sleep(0.1 if done is None else 0)  # a slice, then the page breathes

    def _start_draw(self, fixed: dict[str, int] | None = None, at: str = "") -> None:
        """Draw the seats with the pages in the room (``fixed``, ``at``: a draw again, see
        ``SeatDraw``), with new keys for this page."""
        assert self.me is not None
        peers = list(self.room)[:self.people - 1]
        group = self.group
        source = secrets.SystemRandom()
        self.signing_key = group.short_key(source)  # this table's only
        self.computer_signing_key = group.short_key(source)
        self.draw = DRAWS.get(self.cheat, SeatDraw)(
            self.me, peers, group.power(group.generator, self.signing_key), group=group,
            computer_key=group.power(group.generator, self.computer_signing_key),
            fixed=fixed, at=at)
        for conn in self.room.values():
            self.send(conn, self.draw.commit_text())
        early, self.early = self.early, []
        for conn, text in early:  # a draw that began at another page first
            if is_draw(text):
                self._drawn(conn, text)
            else:
                self.early.append((conn, text))

    def _drawn(self, conn: str, text: str) -> None:
        draw = self.draw
        assert draw is not None
        if self.done or (self.table is not None and not self.redrawing):
            return
        try:
            out = draw.received(peer_of(conn), text)
        except DrawError:
            self._close(words.FAIR_DRAW_BROKEN if not self.redrawing else words.FAIR_REDRAW_BROKEN)
            return
        for message in out:
            for other in self.room.values():
                self.send(other, message)
        seating = draw.seating()
        if seating is not None:
            self._sit(seating, draw.name())

    def _sit(self, seating: Seating, name: str) -> None:
        assert self.me is not None
        old, old_seat = self.table, self.seat
        history = () if old is None else tuple(old.history)
        hand = len(history) + 1  # a hand a page left unfinished is dealt again
        self.seats = {conn: seating.seats_of(peer) for peer, conn in self.room.items()
                      if peer in seating.pages}
        table = FairTable(seating.person(self.me), now=self.now, turn=self.turn,
                          cheat=self.cheat, group=self.group, name=name,
                          signing_key=self.signing_key, keys=seating.keys,
                          hand=hand, history=history)
        played = seating.computer_of(self.me)
        computer = None
        if played is not None:
            bot = make("hard", secrets.randbits(53))
            computer = FairComputer(
                FairTable(played, now=self.now, turn=self.turn, group=self.group, name=name,
                          signing_key=self.computer_signing_key, keys=seating.keys,
                          checks=False, hand=hand, history=history),  # the person's checks
                bot, now=self.now, pause=self.pace)
        self.tables = PageTables(table, computer)
        players = tuple(map(seating.person, seating.pages))
        self.seat = FairSeat(table, self.pump, start_over=self.start_over, players=players)
        if old is not None and old_seat is not None:  # on without the page that left
            gone = [s for s in range(4) if old_seat.players[s] == s and players[s] != s]
            self.seat.notice = words.fair_handed_over(
                gone, players, table.seat,
                void=old.hand_number == hand and old.current.dealt is not None)
        self.redrawing = False
        self.leaving.clear()
        self.on_seated(self.seat)
        for conn, text in self.early:
            if conn in self.seats:
                self._deliver(conn, text)
        self.early = []
        self._after()

    def _deliver(self, conn: str, text: str) -> None:
        """A message from the page on ``conn`` into each of this page's tables."""
        if self.tables is not None:
            self.tables.deliver(self.seats[conn], text)

    def opened(self, conn: str) -> None:
        if self.table is None and len(self.room) < self.people - 1:
            self.room[peer_of(conn)] = conn  # a page beyond those invited is never seated

    def received(self, conn: str, text: str) -> None:
        if self.table is not None and (self.redrawing or is_draw(text)):
            # drawing again: the draw's messages to it (or kept until this page starts its
            # own), the next hand's kept for the new tables
            if self.redrawing and is_draw(text) and conn in self.room.values():
                self._drawn(conn, text)
            elif len(self.early) < MAX_EARLY:
                self.early.append((conn, text))
            return
        if self.table is None:
            if self.draw is not None and conn in self.room.values() and is_draw(text):
                self._drawn(conn, text)
            elif len(self.early) < MAX_EARLY:
                self.opened(conn)
                self.early.append((conn, text))
            return
        if conn in self.seats:
            self._deliver(conn, text)
            self._after()

    def closed(self, conn: str) -> None:
        if self.table is None:
            self.room.pop(peer_of(conn), None)
            return
        seats = self.seats.pop(conn, None)
        if seats is None:
            return
        self.room.pop(peer_of(conn), None)
        if self.seats and not self.redrawing:  # two or more pages left: the table goes on
            self.leaving[conn] = self.now()
            return
        self.seats[conn] = seats  # this page is alone now (or was drawing again): it closes
        for table in [] if self.tables is None else self.tables.all():
            table.gone(seats[0])
        self._after()

    def _hand_over(self) -> None:
        """A page left: once what it sent before has had time to arrive, and the hand's
        audit is done if every key was out, draw again with the pages still there; the next
        hand is theirs, with a computer in each seat of the page that left."""
        table = self.table
        if not self.leaving or self.redrawing or self.done or table is None \
                or table.closed is not None \
                or any(self.now() - at < GONE_GRACE for at in self.leaving.values()):
            return
        if table.stage is FairStage.AUDITING and len(table.transcript.reveals) == 4:
            return  # every key is out: the audit says whether the hand counts
        assert self.me is not None
        self.redrawing = True
        self.people = len(self.room) + 1
        fixed = {peer: self.seats[conn][0] for peer, conn in self.room.items()}
        fixed[self.me] = table.seat
        # where the game stands: the hands scored (one a page left unfinished isn't)
        at = f"{len(table.history) + 1}:" + hashlib.sha256(
            json.dumps(table.history).encode()).hexdigest()[:32]
        held, self.early = self.early, []
        self._start_draw(fixed=fixed, at=at)
        for conn, text in held:  # the draw of a page that began first; the next hand's
            self.received(conn, text)

    # --- the table moved on ---------------------------------------------------------------------
    def pump(self) -> None:
        """Send this page's tables' messages to the other pages, and each to its other
        table here."""
        if self._pumping:
            return  # a message sent made an answer come back at once: the loop below sends it
        self._pumping = True
        try:
            if self.tables is not None:
                self.tables.flush(self._to_others)
        finally:
            self._pumping = False
        why = None if self.tables is None else self.tables.closing()
        if why is not None:
            self._close(why)  # the timer's verdict (a page that stalled)

    def _to_others(self, text: str) -> None:
        for conn in self.seats:
            self.send(conn, text)

    def _after(self) -> None:
        tables, seat = self.tables, self.seat
        if tables is None or seat is None:
            return
        if tables.share_findings():
            self.pump()
        seat.update()
        self._report()
        why = tables.closing()
        if why is not None:
            self._close(why)

    def _report(self) -> None:
        """The timings of a hand once it is audited (or stopped), on the console."""
        table = self.table
        assert table is not None
        stage = table.stage
        key = (table.hand_number, stage.value)
        if stage not in (FairStage.SCORED, FairStage.OVER, FairStage.CLOSED) \
                or key == self.reported:
            return
        self.reported = key
        t = table.timings
        checks = t["check"]
        self.warn(f"Hearts fair table: hand {table.hand_number}, seat {table.seat}, "
                  f"{stage.value}; deal {_last(t['deal'])} ms; "
                  f"checks {len(checks)}, mean {mean(checks) if checks else 0:.1f} ms, "
                  f"max {max(checks, default=0):.1f} ms; audit {_last(t['audit'])} ms")

    def _close(self, why: str) -> None:
        if not self.done:
            self.done = True
            self.on_closed(why)

    def leave(self) -> None:
        """This page leaves: the others learn it from the room (their hand is void)."""
        self.done = True


def _last(values: list[float]) -> str:
    return f"{values[-1]:.0f}" if values else "-"
