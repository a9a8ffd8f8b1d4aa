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
as they were; a hand the page left unfinished doesn't count.

A person who comes later (``late``: the lobby sent them to a table under way) waits in the
room. Between two hands the table's door (``seating.door``: the page of the lowest seat a
person holds, which offers the computers' seats in the lobby) lets them in: it sends every
page the admission (``seating.Admit``) and all draw again, the people keeping their seats
and each newcomer drawn to a computer's. A page that runs its own game against the
computers (``carried``: a lone page's table) is a door too: once its hand is over it turns
that game into a fair table with the newcomers, the scores as they were. No DOM: the peer
and the clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from statistics import mean

from web import words
from web.friends.fair_tables import PageTables
from web.friends.peer import Reply
from web.p2p.fair.cheats import DRAWS
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.public import Score
from web.p2p.fair.seating import Admit, DrawError, SeatDraw, Seating, door, is_admit, is_draw, where
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
LATE_SECONDS = 600.0
"""How long a person who came later waits to be let in (a hand may take that long)."""
MAX_EARLY = 64
"""Messages kept from pages that spoke before this one had its seat (the deal's first)."""

Carried = Callable[[], "tuple[Sequence[Score], int] | None"]
"""A lone page's own game, to carry on at a fair table: the hands scored and its person's
seat, once its hand is over (None while a hand is under way)."""


class FairPlay:
    """This page at a fair table: the room's connections, its ``FairTable`` and seat, and
    the computer it plays, if any."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 turn: float, cheat: str = "", warn: Callable[[str], None],
                 seated: Callable[[FairSeat], None], closed: Callable[[str], None],
                 start_over: Callable[[], None], group: Group = GROUP,
                 people: int = 4, pace: Callable[[], float] = lambda: 0.8,
                 late: bool = False, carried: Carried | None = None) -> None:
        """``send(conn, text)``: to one page; ``seated``: the felt shows this seat now;
        ``closed(why)``: the table closed (a cheat named, a page gone); ``people``: how
        many pages the lobby sent to the table, this one among them (2 to 4); ``pace``: seconds
        before a computer's card; ``late``: this page came to a table under way, and waits
        to be let in; ``carried``: this page's own game, which people who come may join."""
        self.people = people
        self.late = late
        self.carried = carried
        self.history: Sequence[Score] = ()
        """The hands scored before the first table here (a newcomer's, a lone page's)."""
        self.newcomers: dict[str, str] = {}
        """Page id -> connection, of the pages that came to take a computer's seat."""
        self.admit: tuple[str, Admit] | None = None
        """The door's admission (the connection it came on), until it is drawn."""
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
        """The pages still there are drawing again (``_hand_over``, ``_let_in``)."""
        self.redraw_since = 0.0
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
            waited = self.now() - since
            if self.draw is None and self._ready_to_draw():
                since = self.now()  # the draw has GATHER_SECONDS of its own
            elif self.draw is not None and waited >= GATHER_SECONDS:
                self._give_up(words.FAIR_LATE_BROKEN if self.late else words.FAIR_NOBODY)
            elif self.late and waited >= LATE_SECONDS:
                self._close(words.FAIR_LATE_NOBODY)
            elif not self.late and self.carried is None and waited >= GATHER_SECONDS:
                self._close(words.FAIR_NOBODY)
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
            self._let_in()
            if self.redrawing and self.now() - self.redraw_since >= GATHER_SECONDS:
                self._close(words.FAIR_REDRAW_BROKEN)
            await self.sleep(0.1 if done is None else 0)  # a slice, then the page breathes

    def _ready_to_draw(self) -> bool:
        """Start the first draw if this page may: all those invited are in the room; or,
        come later, the door let it in and the others are here; or, a lone page's game
        between two hands, people came. Whether it started."""
        assert self.me is not None
        if self.late:
            if self.admit is None:
                return False
            _, admit = self.admit
            pages = [*admit.pages, *admit.seats]
            if not all(p in self.room or p == self.me for p in pages):
                return False
            self.history = admit.history
            self.people = len(pages)
            self._start_draw([p for p in pages if p != self.me], dict(admit.seats), admit.at)
            return True
        if self.carried is not None:
            state = self.carried() if self.newcomers else None
            if state is None:
                return False
            self.history, seat = tuple(state[0]), state[1]
            self.room = dict(self.newcomers)
            self.people = len(self.room) + 1
            kept = {self.me: seat}
            self._send_admit(kept)
            self._start_draw(list(self.room), kept, where(self.history, kept))
            return True
        if len(self.room) < self.people - 1:
            return False
        self._start_draw(list(self.room)[:self.people - 1])
        return True

    def _start_draw(self, peers: list[str], fixed: dict[str, int] | None = None,
                    at: str = "") -> None:
        """Draw the seats with ``peers`` (``fixed``, ``at``: a draw again, see ``SeatDraw``),
        with new keys for this page."""
        assert self.me is not None
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
            self._give_up(words.FAIR_LATE_BROKEN if self.late else words.FAIR_REDRAW_BROKEN
                          if self.redrawing else words.FAIR_DRAW_BROKEN)
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
        history = tuple(self.history if old is None else old.history)
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
            came = [s for s in range(4) if old_seat.players[s] != s and players[s] == s]
            self.seat.notice = words.fair_handed_over(
                gone, players, table.seat,
                void=old.hand_number == hand and old.current.dealt is not None) if gone \
                else words.fair_came(came, table.seat)
        elif self.late or self.carried is not None:  # people came to a game under way
            self.seat.notice = words.fair_came(
                [table.seat] if self.late else
                [s for s in range(4) if players[s] == s and s != table.seat], table.seat)
        self.redrawing = False
        self.leaving.clear()
        self.newcomers = {peer: conn for peer, conn in self.newcomers.items()
                          if conn not in self.seats}
        self.admit = None
        self.on_seated(self.seat)  # (a newcomer's dialog steps aside: ``late`` still says so)
        self.late = False
        self.carried = None
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
        peer = peer_of(conn)
        if (self.carried is not None and self.draw is None) or self.table is not None:
            # a person who came for a computer's seat, if one is still free for them
            if peer not in self.room and conn not in self.seats and self.open_seats():
                self.newcomers[peer] = conn
        elif self.table is None and len(self.room) < self.people - 1:
            self.room[peer] = conn  # a page beyond those invited is never seated

    def open_seats(self) -> int | None:
        """Computers' seats nobody has come for yet (None: this table is over)."""
        if self.done:
            return None
        people = 1 if self.table is None else sum(
            1 for s, p in enumerate(self.table_players()) if p == s)
        return max(0, 4 - people - len(self.newcomers))

    def table_players(self) -> tuple[int, ...]:
        return (0, 1, 2, 3) if self.seat is None else self.seat.players

    def is_door(self) -> bool:
        """Whether this page lets newcomers in (and offers its table's computers' seats)."""
        if self.table is None:
            return self.carried is not None
        return self.me is not None and door(self._kept()) == self.me

    def _kept(self) -> dict[str, int]:
        """The people's seats, by their pages' ids."""
        assert self.me is not None and self.table is not None
        return {self.me: self.table.seat} | {peer: self.seats[conn][0]
                                             for peer, conn in self.room.items()
                                             if conn in self.seats}

    def _send_admit(self, kept: dict[str, int]) -> None:
        admit = Admit(tuple(self.newcomers), kept,
                      tuple((a, b, c, d) for a, b, c, d in self.history))
        for conn in [*self.seats, *self.newcomers.values()]:
            self.send(conn, admit.text())

    def _let_in(self) -> None:
        """Between two hands, the newcomers draw seats with the table: the door says so to
        all; a page told so by the door once its own hand is scored too."""
        table = self.table
        if self.redrawing or self.done or table is None or self.leaving \
                or table.closed is not None:
            return
        if self.admit is not None:
            _, admit = self.admit
            if len(table.history) < len(admit.history) \
                    or not set(admit.pages) <= set(self.newcomers):
                return  # its audit isn't done here yet, or a newcomer not yet seen here
            if admit.seats != self._kept() or list(admit.history) != list(table.history):
                self.admit = None  # not where this table stands: the door's draw will fail
                return
            self._redraw({p: self.newcomers[p] for p in admit.pages})
        elif self.newcomers and self.is_door() and table.stage is FairStage.SCORED:
            self.history = table.history
            self._send_admit(self._kept())
            self._redraw(dict(self.newcomers))

    def _admitted(self, conn: str, text: str) -> None:
        """An admission: a newcomer takes it from the door of the table it names; a seated
        page from its table's door, to draw once its own hand is scored too."""
        admit, peer = Admit.read(text), peer_of(conn)
        if admit is None or self.me is None:
            return
        if self.table is None:
            if self.late and self.draw is None and self.me in admit.pages \
                    and self.room.get(peer) == conn and door(admit.seats) == peer:
                self.admit = conn, admit
        elif conn in self.seats and not self.redrawing and door(self._kept()) == peer:
            self.admit = conn, admit

    def received(self, conn: str, text: str) -> None:
        if is_admit(text):
            self._admitted(conn, text)
            return
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
        self.newcomers.pop(peer_of(conn), None)
        if self.table is None:
            self.room.pop(peer_of(conn), None)
            if self.late and not self.room:  # the table this page came to is gone
                self._close(words.FAIR_LATE_NOBODY)
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
        self._redraw({})

    def _redraw(self, newcomers: dict[str, str]) -> None:
        """Draw again with the pages still here and ``newcomers``: the people keep their
        seats; where the game stands is the hands scored (one a page left unfinished isn't)."""
        table = self.table
        assert self.me is not None and table is not None
        kept = self._kept()
        self.redrawing = True
        self.redraw_since = self.now()
        self.room |= newcomers
        self.people = len(self.room) + 1
        held, self.early = self.early, []
        self._start_draw(list(self.room), kept, where(table.history, kept))
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

    def _give_up(self, why: str) -> None:
        """A draw that can't be finished: a lone page's game goes on without the
        newcomers; any other closes with ``why``."""
        if self.carried is not None and self.table is None:
            self.draw, self.room, self.newcomers, self.early = None, {}, {}, []
            self.history = ()
        else:
            self._close(why)

    def _close(self, why: str) -> None:
        if not self.done:
            self.done = True
            self.on_closed(why)

    def leave(self) -> None:
        """This page leaves: the others learn it from the room (their hand is void)."""
        self.done = True


def _last(values: list[float]) -> str:
    return f"{values[-1]:.0f}" if values else "-"
