"""A fair table's side of a page's session: its tables, its seat and its clock.

A page runs a ``FairTable`` for its person's seat and, if the draw gave it one, a second
for its computer's (``web.p2p.fair.computer``), once its room's draw seated it
(``web.friends.fair_mesh``). Every message of either goes to the other pages and into the
other table here; every message of theirs into both, once the mesh checked that its page
holds the seat it comes from. Between messages the audit runs in slices, the page yielding
after each. Before each message it sends, the tab keeps what brings it back to its seat
(``web.friends.fair_back``); reloaded, it takes the hand under way up where it stood
(``_resume``). Who holds the seats as people go away, leave, come back or come later is
``web.friends.fair_comings``'s, this class's base. No DOM: the peer and the clocks are
injected, and pytest runs it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from web import words
from web.friends.fair_back import AGAIN, GONE, KeepSeat, Kept, KeptSeat, back_text, read_late
from web.friends.fair_comings import Alone, FairComings
from web.friends.fair_door import Carried
from web.friends.fair_mesh import FAIR_ROOM
from web.friends.fair_names import is_name, name_text, read_name
from web.friends.fair_tables import PageTables
from web.p2p.fair.cheats import RESUMES, WITHHOLDS
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.public import Score
from web.p2p.fair.resume import HandKept, claim_of
from web.p2p.fair.seating import Seating, is_draw, where
from web.p2p.fair.table import FairTable
from web.p2p.fair.wire import sender
from web.p2p.names import clean_name
from web.p2p.peer import Reply
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.seats.fair import FairSeat
from web.slow_steps import timed

__all__ = ["FAIR_ROOM", "Alone", "FairPlay"]

GATHER_SECONDS = 25.0
"""How long a page waits for the others in the table's room."""
LATE_SECONDS = 600.0
"""How long a person who came later waits to be let in (a hand may take that long)."""
DRAW_SECONDS = 0.2
"""While the page's loop has slices back to back, the felt is drawn at most this often;
once it rests, at once (each message used to draw it: a few a second on a phone)."""


class FairPlay(FairComings):
    """This page at a fair table: its room (``FairMesh``), who holds its seats as people go
    and come (``FairComings``), its ``FairTable`` and seat, and the computer it plays, if
    any: the messages between its tables and the other pages'."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 turn: float, cheat: str = "", warn: Callable[[str], None],
                 seated: Callable[[FairSeat], None], closed: Callable[[str], None],
                 start_over: Callable[[], None], group: Group = GROUP,
                 people: int = 4, pace: Callable[[], float] = lambda: 0.8,
                 late: bool = False, carried: Carried | None = None,
                 alone: Alone | None = None, name: Callable[[], str] = lambda: "",
                 grace: float = 0.0, keep: KeepSeat = lambda text, part="": None,
                 back: Kept | None = None) -> None:
        """``seated``: the felt shows this seat now; ``pace``: seconds before a computer's
        card; ``name``: the name the person chose ("": none); ``keep``: store, for this
        tab, what brings it back to its seat after a reload, in parts (None: forget it); the rest as
        ``FairComings``'s."""
        super().__init__(send, code, closed=closed, now=now, cheat=cheat, group=group,
                         people=people, late=late, carried=carried, back=back, grace=grace,
                         alone=alone)
        self.sleep = sleep
        self.turn = turn
        self.warn = warn
        self.on_seated = seated
        self.start_over = start_over
        self.pace = pace
        self.name = name
        self.kept = KeptSeat(code.code, keep)
        """What this tab keeps to come back to its seat after a reload."""
        self.seating: Seating | None = None
        """The draw that seated this page at its tables."""
        self.resumed: FairTable | None = None
        """The table this tab took the hand up at after a reload (``_resume``)."""
        self._pumping = False
        self._woken = asyncio.Event()
        """Set when a message came or this page sent one: work may be due (``_rest``)."""
        self._stale = False
        """The tables moved on since the felt was drawn (``_show_felt``)."""
        self._drawn_at = float("-inf")

    @property
    def computer(self) -> FairComputer | None:
        """The computer this page plays, if the draw gave it one."""
        return None if self.tables is None else self.tables.computer

    # --- the table ------------------------------------------------------------------------------
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
                pass  # the draw has GATHER_SECONDS of its own
            elif self.draw is not None:
                self._leave_out()
                if self.now() - self.draw_since >= GATHER_SECONDS and not (
                        self.door.late and self._draw_without(self._unfinished())):
                    self._give_up(words.FAIR_LATE_BROKEN if self.door.late
                                  else words.FAIR_NOBODY)
                else:
                    await self.sleep(0.1)
            elif self.door.late and waited >= LATE_SECONDS:
                self._close(words.FAIR_LATE_NOBODY)
            elif not self.door.late and self.door.carried is None and waited >= GATHER_SECONDS:
                self._close(words.FAIR_NOBODY)
            else:
                await self.sleep(0.1)
        while not self.done and self.tables is not None:
            with timed("work_step"):
                done = self.tables.work_step()
            if done:
                with timed("after work_step"):
                    self._after()  # a message taken, a proof out or checked, the verdict
            if self.computer is not None and not self.done and not self.redrawing \
                    and await self.computer.move(self.sleep):
                self._after()
            self._away_over()
            self._hand_over()
            self._let_in()
            if self.redrawing:
                self._leave_out()
            if self.redrawing and self.now() - self.draw_since >= GATHER_SECONDS \
                    and not self._draw_without(self._unfinished()):
                self._close(words.FAIR_REDRAW_BROKEN)  # a seated page didn't draw
            if done is not None:
                await self.sleep(0)  # a slice, then the page breathes
            # the felt in a task of its own, not after a slice in the same one
            if self._show_felt(busy=done is not None):
                await self.sleep(0)
            if done is None:
                await self._rest(0.1)
        self._show_felt(busy=False)

    async def _rest(self, seconds: float) -> None:
        """Nothing due: sleep ``seconds``, or less if a message comes or goes meanwhile —
        the slice it makes due runs at once, not at the next wake-up (a deal's round is
        a message's answer: waiting up to ``seconds`` a hop added up)."""
        self._woken.clear()
        nap = asyncio.ensure_future(self.sleep(seconds))
        woken = asyncio.ensure_future(self._woken.wait())
        try:
            await asyncio.wait((nap, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            nap.cancel()
            woken.cancel()

    def _tables(self, seating: Seating, name: str, history: Sequence[Score],
                kept: Sequence[HandKept] = ()) -> PageTables:
        assert self.me is not None
        return PageTables.seat(
            seating, self.me, name, hand=len(history) + 1, history=history, now=self.now,
            turn=self.turn, group=self.group, cheat=self.cheat, pace=self.pace,
            keys=(self.signing_key, self.computer_signing_key), kept=kept)

    def _resume(self, back: Kept) -> bool:
        assert self.me is not None
        found = back.resumes(self.group)
        if found is None:
            return False
        seating, kept = found
        was = seating.pages[back.seat]  # this page's id before the reload
        seating = dataclasses.replace(
            seating, pages=tuple(self.me if p == was else p for p in seating.pages))
        g = self.group
        computer = seating.computer_of(was)
        if g.power(g.generator, back.key) != seating.keys[back.seat] or (
                computer is not None
                and g.power(g.generator, back.computer_key) != seating.keys[computer]):
            return False  # not the keys the draw seated this page with
        self.signing_key, self.computer_signing_key = back.key, back.computer_key
        self.door.history = back.history
        tables = self._tables(seating, back.table, back.history, kept)
        if not tables.resumed or len(kept) != len(tables.all()):
            return False  # the record doesn't hold: the hand is charged, as with none
        resume = claim_of(tables.person)
        cheat = RESUMES.get(self.cheat)
        if cheat is not None:  # a modified page (the tests')
            resume = cheat(resume, self.group)
        claim = back_text(self.group, back.key, back.table, back.seat, self.me,
                          resume=resume)
        for conn in self.room.values():  # (before the asks below, on each channel)
            self.send(conn, claim)
        for table in tables.all():
            table.ask_missed()
        self._sit(seating, back.table, tables)
        self.resumed = tables.person
        return True

    def _too_late(self, conn: str, text: str) -> None:
        """Another page of the table this tab came back to answers that it came too late
        (its grace ran out there). ``CHARGED``: the hand under way can't be taken up, so it
        comes back the way of a tab without the record, at once — the hand counts as far as
        it went, the rest on this seat (``_charge``), and the pages draw again with it at
        its seat (its plain claim tells any page that took the hand up with it). ``GONE``:
        a computer plays its seat now; the table closes for it, saying so; ``AGAIN``: the
        same, and it comes in anew (``anew``: the session seats it as a newcomer)."""
        back, table, me = self.back, self.table, self.me
        if back is None or me is None or self.done or peer_of(conn) not in back.others:
            return
        read = read_late(back.table, text)
        if read is None or read[0] != back.seat:
            return
        if read[1] in (GONE, AGAIN):
            self.anew = read[1] == AGAIN
            self._close(words.FAIR_BACK_TOO_LATE)
            return
        if table is None or table is not self.resumed or self.redrawing:
            return  # (already on its way back charged)
        claim = back_text(self.group, back.key, back.table, back.seat, me)
        for other in self.room.values():
            self.send(other, claim)
        computer = self.computer
        self._charge([(table.seat,) + (() if computer is None else (computer.table.seat,))])
        if table.closed is not None:
            return  # the 52 plays named a rule broken: the table closed
        self.redrawing = True
        fixed = {**back.others, me: back.seat}
        self._start_draw(list(back.others), fixed, where(table.history, fixed))

    def _sit(self, seating: Seating, name: str, resumed: PageTables | None = None) -> None:
        assert self.me is not None
        old, old_seat = self.table, self.seat
        history = tuple(self.door.history if old is None else old.history)
        # a hand a page left counted (``_charge``): the next one
        self.seats = {conn: seating.seats_of(peer) for peer, conn in self.room.items()
                      if peer in seating.pages}
        self.seating = seating
        self.kept.seated()
        self.tables = tables = resumed or self._tables(seating, name, history)
        table = tables.person
        players = tuple(map(seating.person, seating.pages))
        self.seat = FairSeat(table, self.pump, start_over=self.start_over, players=players)
        self.seat.away = self.away
        before = None if old_seat is None else old_seat.players
        self.seat.names[table.seat] = clean_name(self.name()) or ""
        if old_seat is not None and before is not None:  # until each sends it again
            for s in range(4):
                if s != table.seat and players[s] == s == before[s]:
                    self.seat.names[s] = old_seat.names[s]
        gone = [] if before is None else [s for s in range(4) if before[s] == s != players[s]]
        came = [s for s in range(4) if players[s] == s and s != table.seat
                and (before is None or before[s] != s)]
        left = self._left_words(table.seat)
        if resumed is not None:  # this tab reloaded, and takes its hand up
            self.seat.notice = words.FAIR_RESUMED
        elif self.back is not None and (old is None or old is self.resumed):
            # this tab reloaded, and is back (too late to take the hand up: ``_too_late``)
            charged = self.back.charged
            self.seat.notice = words.fair_back(
                "" if charged is None else words.fair_left_hand(table.seat, charged, table.seat))
        elif self.returned and not gone:
            self.seat.notice = words.fair_returned(
                sorted(self.returned), table.seat, self.seat.names, left)
        elif gone:
            self.seat.notice = words.fair_handed_over(gone, players, table.seat, left)
        elif self.door.late:  # this page came to a game under way
            self.seat.notice = words.fair_came([table.seat], table.seat)
        elif came and (before is not None or self.door.carried is not None):
            self.seat.notice = words.fair_came(came, table.seat)
        self.redrawing = False
        self._seated_anew(old)
        self.on_seated(self.seat)  # (a newcomer's dialog steps aside: ``door.late`` says so)
        self.door.seated(self.seats)
        self.rename()
        for conn, text in self.early:
            if conn in self.seats and is_name(text):
                self._named(conn, text)
            elif conn in self.seats and not is_draw(text):
                self._deliver(conn, text)
        # the next hand's messages into the new tables; a draw's are kept for the next
        # draw (one that began at another page while this one was finishing)
        self.early = [(conn, text) for conn, text in self.early if is_draw(text)]
        self._after()

    def rename(self) -> None:
        """Tell the other pages the name this page's person chose (signed by their seat:
        ``web.friends.fair_names``), and show it here."""
        table, seat = self.table, self.seat
        if table is None or seat is None or self.redrawing or self.done:
            return
        name = clean_name(self.name()) or ""
        seat.names[table.seat] = name
        if name:
            text = name_text(self.group, self.signing_key, table.name, table.seat, name)
            for conn in self.seats:
                self.send(conn, text)
        seat.news.changed()

    def _named(self, conn: str, text: str) -> None:
        """Another page's person's name, if it is signed by the seat that page holds."""
        table, seat, seats = self.table, self.seat, self.seats.get(conn)
        if table is None or seat is None or not seats:
            return
        named = read_name(self.group, table.keys, table.name, text)
        if named is not None and named[0] == seats[0]:
            seat.names[named[0]] = named[1]
            seat.news.changed()

    def _deliver(self, conn: str, text: str) -> None:
        """A message from the page on ``conn`` into each of this page's tables."""
        if self.tables is not None:
            self.tables.deliver(self.seats[conn], text)

    def _keep_seat(self) -> None:
        """Keep, for this tab, what brings it back to its seat after a reload."""
        tables = self.tables
        if tables is None or self.done or self.redrawing or self.me is None:
            return
        others = {peer: self.seats[conn][0] for peer, conn in self.room.items()
                  if conn in self.seats}
        with timed("keep seat"):
            self.kept.update(tables, others, self.seating,
                             (self.signing_key, self.computer_signing_key))

    def pump(self) -> None:
        """Send this page's tables' messages to the other pages, and each to its other
        table here."""
        if self._pumping:
            return  # a message sent made an answer come back at once: the loop below sends it
        self._pumping = True
        self._woken.set()
        try:
            if self.tables is not None:
                self.tables.flush(self._to_others)
        finally:
            self._pumping = False
        why = None if self.tables is None else self.tables.closing()
        if why is not None:
            self._close(why)  # the timer's verdict (a page that stalled)

    def _to_others(self, text: str) -> None:
        self._keep_seat()  # the tab holds every message of this page before it leaves
        withheld = WITHHOLDS.get(self.cheat)  # a modified page (the tests')
        mine = sender(text)
        for conn, seats in self.seats.items():
            if withheld is None or mine is None or not withheld(mine, seats[0], text):
                self.send(conn, text)

    def _after(self) -> None:
        """The tables moved on: their messages go out now; the felt is drawn at the loop's
        next rest, or within ``DRAW_SECONDS`` while it is busy (``_show_felt``), so that a
        burst of messages draws it once."""
        tables, seat = self.tables, self.seat
        if tables is None or seat is None:
            return
        self._woken.set()
        self._keep_seat()
        with timed("share findings"):
            tables.share_findings()
        with timed("pump"):
            self.pump()
        self._stale = True
        line = tables.report()
        if line is not None:
            self.warn(line)
        why = tables.closing()
        if why is not None:
            self._show_felt(busy=False)  # the felt as it stood, under the words that close it
            self._close(why)

    def _show_felt(self, busy: bool) -> bool:
        """Draw the felt (and tell the person what happened) if the tables moved on since
        it was drawn: at once, or if ``busy``, only once ``DRAW_SECONDS`` passed. Whether
        it drew."""
        seat = self.seat
        if not self._stale or seat is None or (
                busy and self.now() - self._drawn_at < DRAW_SECONDS):
            return False
        self._stale = False
        self._drawn_at = self.now()
        with timed("seat update"):
            seat.update()
        return True
