"""A fair table's side of a page's session: its tables, its seat and its clock.

A page runs a ``FairTable`` for its person's seat and, if the draw gave it one, a second
for its computer's (``web.p2p.fair.computer``), once its room's draw seated it
(``web.friends.fair_mesh``). Every message of either goes to the other pages and into the
other table here; every message of theirs into both, once the mesh checked that its page
holds the seat it comes from. Between messages the audit runs in slices, the page yielding
after each.

A page that leaves takes its keys with it. If two or more pages are left, the table goes on
(``_hand_over``): once what the page sent before it left has had ``GONE_GRACE`` to arrive,
and the hand's audit is done if the keys were all out, the pages still there draw again
among themselves — their people keep their seats, a computer takes each seat of the page
that left, and who plays which computer is drawn — and deal the next hand with the scores
as they were; a hand the page left unfinished doesn't count. People who came later are let
in the same way, between two hands (``_let_in``, ``web.friends.fair_door``). A page left
alone carries the game on against the computers (``_carry_on``, with ``alone``), as a page
the lobby left alone does: the scores as they were, and its door open to the next person
who comes. No DOM: the peer and the clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from web import words
from web.friends.fair_back import Kept, back_text, read_back
from web.friends.fair_door import Carried
from web.friends.fair_mesh import FAIR_ROOM, FairMesh
from web.friends.fair_names import is_name, name_text, read_name
from web.friends.fair_tables import PageTables
from web.p2p.fair.cheats import RESUMES
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.played import first_to_leave
from web.p2p.fair.public import Score
from web.p2p.fair.resume import HandKeeper, HandKept, claim_of, resume_fault
from web.p2p.fair.seating import Seating, is_draw, where
from web.p2p.fair.table import GONE_GRACE, FairStage, FairTable
from web.p2p.names import clean_name
from web.p2p.peer import Reply
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.people import Grace
from web.seats.fair import FairSeat

__all__ = ["FAIR_ROOM", "Alone", "FairPlay"]

Alone = Callable[[Sequence[Score], int, str], None]
"""A page left alone at a fair table carries its game on against the computers: the hands
scored, its person's seat, and the sentence that tells them so."""

GATHER_SECONDS = 25.0
"""How long a page waits for the others in the table's room."""
LATE_SECONDS = 600.0
"""How long a person who came later waits to be let in (a hand may take that long)."""


class FairPlay(FairMesh):
    """This page at a fair table: its room (``FairMesh``), its ``FairTable`` and seat, and
    the computer it plays, if any."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 turn: float, cheat: str = "", warn: Callable[[str], None],
                 seated: Callable[[FairSeat], None], closed: Callable[[str], None],
                 start_over: Callable[[], None], group: Group = GROUP,
                 people: int = 4, pace: Callable[[], float] = lambda: 0.8,
                 late: bool = False, carried: Carried | None = None,
                 alone: Alone | None = None, name: Callable[[], str] = lambda: "",
                 grace: float = 0.0, keep: Callable[[str | None], None] = lambda text: None,
                 back: Kept | None = None) -> None:
        """``seated``: the felt shows this seat now; ``pace``: seconds before a computer's
        card; ``alone``: every other person left, and this page carries the game on (None:
        the table closes then); ``name``: the name the person chose ("": none);
        ``grace``: seconds a page whose connection went (a reload?) keeps its seat, shown
        away, before the table goes on without it (0: none); ``keep``: store, for this tab,
        what brings it back to its seat after a reload (None: forget it); the rest as
        ``FairMesh``'s."""
        super().__init__(send, code, closed=closed, now=now, cheat=cheat, group=group,
                         people=people, late=late, carried=carried, back=back)
        self.sleep = sleep
        self.turn = turn
        self.warn = warn
        self.on_seated = seated
        self.start_over = start_over
        self.pace = pace
        self.leaving: dict[str, float] = {}
        """Pages that left a table that goes on, and when: their seats are handed over."""
        self.left_seats: dict[str, tuple[int, ...]] = {}
        """The seats each of those pages held (its person's first)."""
        self.left_hand: tuple[int, Score] | None = None
        """The hand under way a page left, as charged to its seat (``_charge``), to say."""
        self.on_alone = alone
        self.name = name
        self.grace = grace
        self.keep = keep
        self.kept = ""
        self.kept_core: object = None
        self.kept_hands: list[str] = []
        """This page's part of the hand under way at each of its tables (``resume``)."""
        self.keepers = [HandKeeper(), HandKeeper()]
        self.seating: Seating | None = None
        self.away = Grace(grace)
        """The people whose page's connection went, and since when: each seat waits its
        grace for a claim (``_claimed``; ``web.people``, the rule of every table)."""
        self.away_held: dict[int, tuple[str, tuple[int, ...]]] = {}
        """An away person's seat -> the connection their page had, and the seats it held."""
        self.returned: set[int] = set()
        """Seats whose page came back, for the draw again under way."""
        self.alone = False
        """Every other page left: this page carries the game on by itself (``_carry_on``)."""
        self._pumping = False

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
            done = self.tables.work_step()
            if done:
                self._after()  # a proof out or checked, the verdict: news to send and show
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
            await self.sleep(0.1 if done is None else 0)  # a slice, then the page breathes

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
        return True

    def _sit(self, seating: Seating, name: str, resumed: PageTables | None = None) -> None:
        assert self.me is not None
        old, old_seat = self.table, self.seat
        history = tuple(self.door.history if old is None else old.history)
        # a hand a page left counted (``_charge``): the next one
        self.seats = {conn: seating.seats_of(peer) for peer, conn in self.room.items()
                      if peer in seating.pages}
        self.seating = seating
        self.keepers = [HandKeeper(), HandKeeper()]
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
        elif self.back is not None and old is None:  # this tab reloaded, and is back
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
        self.leaving.clear()
        self.left_seats.clear()
        self.left_hand = None
        self.returned.clear()
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

    def _let_in(self) -> None:
        """Between two hands the newcomers draw seats with the table: the door says so to
        all; a page the door told, once its own hand is scored too."""
        table = self.table
        if self.redrawing or self.done or table is None or self.leaving or self.away \
                or table.closed is not None:
            return
        if self.door.admit is not None:
            newcomers = self.door.due(self._kept(), table.history)
            if newcomers is not None:
                self._redraw(newcomers)
        elif self.door.newcomers and self.is_door() and table.stage is FairStage.SCORED:
            self._tell([*self.seats, *self.door.newcomers.values()],
                       self.door.admission(self._kept(), table.history))
            self._redraw(dict(self.door.newcomers))

    def closed(self, conn: str) -> None:
        peer = peer_of(conn)
        self.door.went(peer)
        if self.draw is not None and (self.table is None or self.redrawing) \
                and peer in self.draw.others:
            self.gone[peer] = self.now()  # drawn without if its part isn't in (_leave_out)
        if self.table is None:
            self.room.pop(peer, None)
            if self.door.late and not self.room:  # the table this page came to is gone
                self._close(words.FAIR_LATE_NOBODY)
            return
        seats = self.seats.pop(conn, None)
        if seats is None:
            return
        self.room.pop(peer, None)
        if self.grace > 0 and peer not in self.byes and not self.redrawing \
                and self.seat is not None:  # it may be a reload: the seat waits for it
            self.away.went(seats[0], self.now())
            self.away_held[seats[0]] = (conn, seats)
            self._after()
            return
        self._went(conn, seats)

    def _went(self, conn: str, seats: tuple[int, ...]) -> None:
        """The page on ``conn`` is gone for good: the table goes on without it."""
        if self.seats and not self.redrawing:  # two or more pages left: the table goes on
            self.leaving[conn] = self.now()
            self.left_seats[conn] = seats
            return
        if not self.seats and self.on_alone is not None and self.table is not None \
                and self.table.stage is not FairStage.OVER:
            self.leaving[conn] = self.now()  # this page is alone now: it carries on
            self.left_seats[conn] = seats
            self.alone = True
            return
        self.seats[conn] = seats  # this page is alone now (or was drawing again): it closes
        for table in [] if self.tables is None else self.tables.all():
            table.gone(seats[0])
        self._after()

    def _away_over(self) -> None:
        """A page away for longer than its grace is gone (``_went``)."""
        for seat in self.away.expired(self.now()):
            self.away.back(seat)
            conn, seats = self.away_held.pop(seat)
            self._went(conn, seats)

    def _claimed(self, conn: str, text: str) -> None:
        """A page claims a seat back after a reload: if that seat is away and the claim is
        signed by its key, its new connection takes the seats its page held, and the
        pages draw again (the hand under way went with its keys: it counts as far as it
        went, the rest on that seat, ``_charge``). Any other claim is refused, and the
        person told."""
        table, seat, peer = self.table, self.seat, peer_of(conn)
        if table is None or seat is None or self.redrawing or self.done:
            return
        read = read_back(self.group, table.keys, table.name, text, peer)
        if read is None:
            return
        claimed, signed, resume = read
        self.door.went(peer)  # a page that claims a seat is no newcomer
        if not signed or claimed not in self.away:
            seat.news.tell(words.fair_false_claim(claimed, table.seat, seat.names))
            return
        if resume is not None:  # it takes the hand under way up where it stood
            fault = resume_fault(table.transcript,
                                 table.ledger.expected(claimed, table.hand_number),
                                 table.hand_number, claimed, resume)
            if fault is not None:  # other keys, or another hand: refused, and named
                seat.news.tell(words.fault_text(fault, table.seat, seat.names))
                return
            self.away.back(claimed)
            _, seats = self.away_held.pop(claimed)
            self.room[peer] = conn
            self.seats[conn] = seats
            for mine in [] if self.tables is None else self.tables.all():
                for held in seats:
                    mine.relays.welcome(held)
            seat.news.tell(words.fair_resumed(claimed, table.seat, seat.names))
            self._after()
            return
        self.away.back(claimed)
        _, seats = self.away_held.pop(claimed)
        self._charge([seats])  # the hand it left counts, as it counted it too
        self.room[peer] = conn
        self.seats[conn] = seats
        self.returned.add(claimed)
        self._redraw({})

    def _keep_seat(self) -> None:
        """Keep, for this tab, what brings it back to its seat after a reload."""
        table = self.table
        if table is None or self.done or self.redrawing or self.me is None:
            return
        others = {peer: self.seats[conn][0] for peer, conn in self.room.items()
                  if conn in self.seats}
        computer = self.computer
        held = () if computer is None else (computer.table.seat,)
        tables = self.tables
        assert tables is not None
        hands = [keeper.text(t) for keeper, t in zip(self.keepers, tables.all(),
                                                      strict=False)]
        core = (table.name, table.seat, tuple(table.history), tuple(others.items()),
                table.if_left(table.seat, held))
        if core == self.kept_core and all(hand is None for hand in hands):
            return  # (each message: nothing encoded again but what changed)
        self.kept_core = core
        self.kept_hands = [old if new is None else new for old, new in
                           zip([*self.kept_hands, "", ""], hands, strict=False)]
        kept = Kept(self.code.code, table.name, table.seat, self.signing_key,
                    tuple(table.history), others, core[4], self.seating,
                    self.computer_signing_key, tuple(self.kept_hands)).text()
        self.kept = kept
        self.keep(kept)

    def _hand_over(self) -> None:
        """A page left: once what it sent before has had time to arrive, and the hand's
        audit is done if every key was out, draw again with the pages still there; the next
        hand is theirs, with a computer in each seat of the page that left."""
        table = self.table
        if not self.leaving or (self.redrawing and not self.alone) or self.done \
                or table is None or table.closed is not None \
                or any(self.now() - at < GONE_GRACE for at in self.leaving.values()):
            return
        if table.stage is FairStage.AUDITING and len(table.transcript.reveals) == 4:
            return  # every key is out: the audit says whether the hand counts
        if table.replaying:
            return  # a scored hand's computers replayed first (issue 39: no way out of it)
        self._charge([self.left_seats[conn] for conn in self.leaving if conn in self.left_seats])
        if self.table is None or self.table.closed is not None:
            return  # the 52 plays named a rule broken: the table closed
        if self.alone:
            self._carry_on(table)
        else:
            self._redraw({})

    def _charge(self, held: Sequence[tuple[int, ...]]) -> None:
        """The pages that held ``held`` (each: its person's seat, then the computer it
        played) left the hand under way: it counts at this page's tables, never dealt
        again — scored as far as it went, the rest on the first of them in play order from
        the seat to move (``FairTable.left_by``, ``played.left``)."""
        tables = self.tables
        if tables is None or not held:
            return
        seat = first_to_leave([h[0] for h in held], tables.person.transcript.plays)
        page = next(h for h in held if h[0] == seat)
        hands = [table.left_by(seat, page[1:]) for table in tables.all()]
        if hands[0] is not None:
            self.left_hand = (seat, hands[0])
        self._after()

    def _left_words(self, me: int) -> str:
        """What the felt says of a hand a page left (``_charge``), or ""."""
        if self.left_hand is None:
            return ""
        seat, hand = self.left_hand
        names = () if self.seat is None else self.seat.names
        return words.fair_left_hand(seat, hand, me, names)

    def _carry_on(self, table: FairTable) -> None:
        """Every other person left: this page carries the game on against the computers,
        the scores as they were (a hand left unfinished counted: ``_charge``), its door open to
        the next person (``alone``). A game over has nothing to carry on: it closes."""
        seat = self.seat
        assert self.on_alone is not None and seat is not None
        me = table.seat
        gone = [s for s, p in enumerate(seat.players) if p == s != me]
        if table.stage is FairStage.OVER:
            self._close(words.fair_gone_text(gone[0] if gone else me, me))
            return
        self.done = True
        self.on_alone(tuple(table.history), me,
                      words.fair_alone(gone, me, self._left_words(me), names=seat.names))

    def _redraw(self, newcomers: dict[str, str]) -> None:
        """Draw again with the pages still here and ``newcomers``: the people keep their
        seats; where the game stands is the hands scored (one a page left unfinished isn't)."""
        table = self.table
        assert self.me is not None and table is not None
        kept = self._kept()
        self.redrawing = True
        self.room |= newcomers
        self.people = len(self.room) + 1
        held, self.early = self.early, []
        self._start_draw(list(self.room), kept, where(table.history, kept))
        for conn, text in held:  # the draw of a page that began first; the next hand's
            self.received(conn, text)

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
        self._keep_seat()  # the tab holds every message of this page before it leaves
        for conn in self.seats:
            self.send(conn, text)

    def _after(self) -> None:
        tables, seat = self.tables, self.seat
        if tables is None or seat is None:
            return
        self._keep_seat()
        if tables.share_findings():
            self.pump()
        seat.update()
        line = tables.report()
        if line is not None:
            self.warn(line)
        why = tables.closing()
        if why is not None:
            self._close(why)
