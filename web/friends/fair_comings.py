"""Who holds a fair table's seats, as people go and come: away, back, gone, let in.

A page whose connection goes may be reloading: with a grace, its seat waits for it, shown
away (``closed``, ``web.people``), and a claim signed with the seat's key gives it back
(``_claimed``, ``web.friends.fair_back``): the hand under way goes on if its claim takes it
up where it stood, else the hand is charged (``_charge``) and the pages draw again.

A page that leaves takes its keys with it. If two or more pages are left, the table goes on
(``_hand_over``): once what the page sent before it left has had ``GONE_GRACE`` to arrive,
and the hand's audit is done if the keys were all out, the pages still there draw again
among themselves — their people keep their seats, a computer takes each seat of the page
that left, and who plays which computer is drawn — and deal the next hand with the scores
as they were; a hand the page left unfinished counts as far as it went (``_charge``).
People who came later are let in the same way, between two hands (``_let_in``,
``web.friends.fair_door``). A page left alone carries the game on against the computers
(``_carry_on``, with ``on_alone``), as a page the lobby left alone does: the scores as they
were, and its door open to the next person who comes.

This class sits between the room (``web.friends.fair_mesh``) and the play of the seats
(``web.friends.fair_room``'s ``FairPlay``). No DOM: the clocks are injected, and pytest
runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from web import words
from web.friends.fair_back import AGAIN, CHARGED, GONE, Kept, late_text, read_back
from web.friends.fair_door import Carried
from web.friends.fair_mesh import FairMesh
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.played import first_to_leave
from web.p2p.fair.public import Score
from web.p2p.fair.resume import resume_fault
from web.p2p.fair.seating import where
from web.p2p.fair.table import GONE_GRACE, FairStage, FairTable
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.people import Grace

__all__ = ["Alone", "FairComings"]

Alone = Callable[[Sequence[Score], int, str], None]
"""A page left alone at a fair table carries its game on against the computers: the hands
scored, its person's seat, and the sentence that tells them so."""


class FairComings(FairMesh):
    """This page's fair table as people go and come: the seats of pages away within their
    grace, of pages gone for good (handed over to computers), of pages back after a reload,
    and of newcomers let in between two hands; ``FairPlay`` plays the seats."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 closed: Callable[[str], None], now: Callable[[], float], cheat: str = "",
                 group: Group = GROUP, people: int = 4, late: bool = False,
                 carried: Carried | None = None, back: Kept | None = None,
                 grace: float = 0.0, alone: Alone | None = None) -> None:
        """``grace``: seconds a page whose connection went (a reload?) keeps its seat,
        shown away, before the table goes on without it (0: none); ``alone``: every other
        person left, and this page carries the game on (None: the table closes then); the
        rest as ``FairMesh``'s."""
        super().__init__(send, code, closed=closed, now=now, cheat=cheat, group=group,
                         people=people, late=late, carried=carried, back=back)
        self.grace = grace
        self.on_alone = alone
        self.leaving: dict[str, float] = {}
        """Pages that left a table that goes on, and when: their seats are handed over."""
        self.left_seats: dict[str, tuple[int, ...]] = {}
        """The seats each of those pages held (its person's first)."""
        self.left_hand: tuple[int, Score] | None = None
        """The hand under way a page left, as charged to its seat (``_charge``), to say."""
        self.away = Grace(grace)
        """The people whose page's connection went, and since when: each seat waits its
        grace for a claim (``_claimed``; ``web.people``, the rule of every table)."""
        self.away_held: dict[int, tuple[str, tuple[int, ...]]] = {}
        """An away person's seat -> the connection their page had, and the seats it held."""
        self.returned: set[int] = set()
        """Seats whose page came back, for the draw again under way."""
        self.alone = False
        """Every other page left: this page carries the game on by itself (``_carry_on``)."""
        self.before: tuple[str, tuple[int, ...], int] | None = None
        """The name, the seats' keys and this page's seat of the table before the last
        draw again (or, at a page carrying the game on alone, of the fair table it
        carried on from): a page back too late claims a seat of it (``_claimed_before``)."""

    def _seated_anew(self, before: FairTable | None) -> None:
        """A draw seated the pages again (``before``: at the table they sat at until now):
        who left, came back or was charged is told; forget it."""
        if before is not None:
            self.before = (before.name, tuple(before.keys), before.seat)
        self.leaving.clear()
        self.left_seats.clear()
        self.left_hand = None
        self.returned.clear()

    # --- away, and back -------------------------------------------------------------------------

    def closed(self, conn: str) -> None:
        """The connection to the page on ``conn`` closed: before its seat, it is out of the
        room; seated, its seat waits its grace, away (it may be a reload), else it is gone
        (``_went``)."""
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
        person told; one signed but late is answered (``_late``)."""
        table, seat, peer = self.table, self.seat, peer_of(conn)
        if self.done:
            return
        if table is None or seat is None:  # a page carrying the game on alone: answered
            if self.door.carried is not None:
                self._claimed_before(conn, text)
            return
        read = read_back(self.group, table.keys, table.name, text, peer)
        if read is None:
            self._claimed_before(conn, text)
            return
        claimed, signed, resume = read
        if self.redrawing:
            if signed and conn not in self.seats:
                self._late(conn, claimed)
            return
        self.door.went(peer)  # a page that claims a seat is no newcomer
        if signed and claimed not in self.away:
            self._late(conn, claimed, resume is not None)
            return
        if not signed:
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
        self._back_charged(conn, seats)

    def _claimed_before(self, conn: str, text: str) -> None:
        """A claim to a seat of the table before the last draw again (at a page carrying
        the game on alone: of the fair table it carried on from), signed by its key: the
        page comes back after its seat was handed over, and is told so at once (``GONE``)."""
        table, seat, before = self.table, self.seat, self.before
        if before is None:
            return
        read = read_back(self.group, before[1], before[0], text, peer_of(conn))
        if read is None or not read[1]:
            return
        claimed, mine = read[0], before[2] if table is None else table.seat
        if claimed == mine or any(held[0] == claimed for held in self.seats.values()):
            if seat is not None:
                seat.news.tell(words.fair_false_claim(claimed, mine, seat.names))
            return
        self._too_late_for(conn, before[0], claimed, mine)

    def _too_late_for(self, conn: str, table: str, claimed: int, mine: int) -> None:
        """Tell the page on ``conn``, which claimed ``claimed`` of ``table``, that a computer
        has its seat: it comes in anew if a computer's seat is open (``AGAIN``: it meets
        the room again as a newcomer, let in at the next hand), else the table is closed
        to it (``GONE``)."""
        self.door.went(peer_of(conn))  # (it comes again as a newcomer, on a new connection)
        again = bool(self.open_seats())
        self.send(conn, late_text(table, claimed, AGAIN if again else GONE))
        seat = self.seat
        if seat is not None:
            seat.news.tell(words.fair_back_again(claimed, mine, seat.names) if again
                           else words.fair_back_too_late(claimed, mine, seat.names))

    def _back_charged(self, conn: str, seats: tuple[int, ...]) -> None:
        """The page on ``conn`` is back at ``seats`` without the hand under way: it counts
        as far as it went, the rest on them, as that page counts it too; the pages draw
        again, every person at their seat."""
        self._charge([seats])
        self.room[peer_of(conn)] = conn
        self.seats[conn] = seats
        self.returned.add(seats[0])
        self._redraw({})

    def _late(self, conn: str, claimed: int, resumes: bool = False) -> None:
        """A claim signed by the key of ``claimed``, a seat not away: its grace ran out
        here. If the hand wasn't handed over yet, the page is taken back as a tab without
        the record (told so if it came to take the hand up: ``CHARGED``); a page that took
        the hand up here and then was told so by another page comes the same way; if a
        computer has the seat, the page is told (``GONE``). A claim for a seat its page
        holds on another connection is refused (someone else has its key)."""
        table, seat = self.table, self.seat
        assert table is not None and seat is not None
        left = next((c for c, held in self.left_seats.items()
                     if held[0] == claimed and c in self.leaving), None)
        if left is not None and not self.redrawing:  # not handed over yet: back, charged
            del self.leaving[left]
            self.alone = False
            if resumes:
                self.send(conn, late_text(table.name, claimed, CHARGED))
            self._back_charged(conn, self.left_seats.pop(left))
        elif self.seats.get(conn, (-1,))[0] == claimed and not resumes \
                and not self.redrawing:  # took the hand up here, and was told it's late
            seats = self.seats.pop(conn)
            self._back_charged(conn, seats)
        elif claimed != table.seat and all(held[0] != claimed for held in self.seats.values()):
            self._too_late_for(conn, table.name, claimed, table.seat)
        else:
            seat.news.tell(words.fair_false_claim(claimed, table.seat, seat.names))

    # --- gone for good ---------------------------------------------------------------------

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

    # --- the seats drawn again, newcomers let in ---------------------------------------------

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
