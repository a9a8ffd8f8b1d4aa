"""A fair table's side of a page's session: sitting down at one, and its closing.

The lobby sends two to four people to a fair table, or a person who comes later to one under
way; ``FairPlay`` (``web.friends.fair_room``) is this page's part of it (the room's mesh, its
``FairTable``, its seat). This is what the roles see: FAIR while it runs, the felt showing
its ``FairSeat``, and GUEST_CLOSED with the reason once it closed (a cheat named, a page
gone, this page left). The page that lets newcomers in offers the computers' seats in the
lobby. A page alone with the computers (HOSTING, a table the lobby dealt it) keeps a door
open in the same room, and goes to FAIR once a person who came sits down with it. No DOM:
everything comes through the session (``web.friends.parts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from web import words
from web.friends.fair_back import Kept
from web.friends.fair_door import Carried
from web.friends.fair_room import FAIR_ROOM, FairPlay
from web.friends.parts import Parts
from web.friends.role import Event, Role
from web.p2p.codes import CodeError
from web.p2p.fair.public import Score
from web.p2p.tablecode import TableCode, read_code
from web.table.seat import Seat

__all__ = ["FairSide"]


class FairSide:
    """This page at a fair table, if it is at one (or its door, if it plays alone)."""

    def __init__(self, session: Parts) -> None:
        self.session = session
        self.fair: FairPlay | None = None
        """FAIR: this page's part of a fair table."""
        self.ended: str | None = None
        """GUEST_CLOSED after a fair table: why it closed (the cheat named, a page gone)."""

    def sit(self, code: TableCode, people: int = 4, late: bool = False,
            carried: Carried | None = None, back: Kept | None = None,
            anew: bool = False) -> None:
        """FAIR (the session is there already): to the fair table of ``code``, with the
        others the lobby sent (``people`` in all, this page's among them); ``late``: to a
        table under way, to be let in between two hands. HOSTING, ``carried``: this page's
        own game with the computers, which a person who comes joins at a fair table;
        ``back``: the seat this tab held there before it reloaded; ``anew``: (``late``)
        back too late for that seat, this person sits down again as a newcomer."""
        session = self.session
        session.error = ""
        fair = self.fair = FairPlay(
            session.peer.send, code, now=session.now, sleep=session.sleep, turn=session.turn,
            cheat=session.cheat, warn=session.page.warn,
            seated=lambda seat: self._seated(fair, seat,
                                             first=fair.door.late or back is not None),
            closed=lambda why: self._closed(fair, why, Event.FAIR_CLOSED),
            start_over=session.leave_for_own_game, group=session.fair_group, people=people,
            pace=session.pace, late=late, carried=carried,
            alone=lambda history, seat, notice: self._alone(fair, history, seat, notice),
            name=lambda: session.page.name(), grace=session.grace,
            keep=session.page.keep_seat, back=back)
        fair.anew = anew
        session.run(fair.run(session.meet), connecting=False)
        if late:  # nothing on the felt yet: the dialog says what it waits for
            session.page.show(True)
        if carried is not None:
            session.run(session.online.offer_seats(fair.open_seats, code), connecting=False)
        session.page.on_change()

    def _seated(self, fair: FairPlay, seat: Seat, first: bool = False) -> None:
        """The felt shows ``seat`` (``first``: a person who waited for a table under way is
        at it now, so the dialog that said so steps aside)."""
        session = self.session
        if first:
            session.page.show(False)
        if session.role is Role.HOSTING:  # a lone page's game goes on at a fair table
            session.host_side.forget()
            session.remote = None
            session.fire(Event.FAIR_FOUND)
        session.page.seat_table(seat)
        if fair.is_door():  # this page offers the computers' seats in the lobby
            session.run(session.online.offer_seats(fair.open_seats, fair.code),
                        connecting=False)
        session.page.on_change()

    def _closed(self, fair: FairPlay, why: str, event: Event) -> None:
        """FAIR → GUEST_CLOSED: the fair table closed (``event``: or this person left); the
        dialog says why."""
        if self.fair is not fair:
            return
        session = self.session
        self.fair = None
        session.page.keep_seat(None)
        if fair.anew and not fair.door.late and session.role is Role.FAIR:
            # back too late for its seat, with a computer's seat open: in again as a
            # newcomer, let in at the next hand, the scores as they stand
            fair.leave()
            session.peer.unmeet(FAIR_ROOM)
            if fair.seat is not None:
                session.page.seat_table(None)
            self.sit(fair.code, late=True, anew=True)
            return
        if session.role is not Role.FAIR:  # a lone page's door: its own game goes on
            fair.leave()
            session.peer.unmeet(FAIR_ROOM)
            return
        fair.leave()
        session.peer.unmeet(FAIR_ROOM)
        session.seat.closed = self.ended = why
        if fair.seat is not None:
            session.page.seat_table(None)
        session.fire(event)
        session.page.on_change()

    def back(self, kept: Kept) -> None:
        """IDLE → FAIR: back to the seat this tab held before it reloaded; the pages it sat
        with take it back if its claim holds (``web.friends.fair_back``)."""
        session = self.session
        try:
            code = read_code(kept.code)
        except CodeError:
            session.page.keep_seat(None)
            return
        if session.fire(Event.BACK):
            self.sit(code, people=len(kept.others) + 1, back=kept)

    def _alone(self, fair: FairPlay, history: Sequence[Score], seat: int,
               notice: str) -> None:
        """FAIR → HOSTING: every other person left; this page carries the game on against
        the computers, the scores as they were, its door open in the same room."""
        if self.fair is not fair:
            return
        session = self.session
        self.fair = None
        table = fair.table
        fair.leave()
        session.peer.unmeet(FAIR_ROOM)
        session.page.keep_seat(None)
        session.fire(Event.ALONE)
        session.host_side.carry_on(fair.code, history, seat)
        if self.fair is not None and table is not None:
            # a person whose seat went to a computer may come back too late: answered
            self.fair.before = (table.name, tuple(table.keys), table.seat)
        session.seat.notice = notice
        session.news("state")

    def leave(self) -> None:
        """This person leaves the fair table (FAIR → GUEST_CLOSED)."""
        if self.fair is not None:
            self._closed(self.fair, words.FAIR_LEFT, Event.LEAVE)

    def page_leaving(self) -> None:
        if self.fair is not None:
            self.session.peer.unmeet(FAIR_ROOM)  # the others see this page go: their hand is void

    def forget(self) -> None:
        """Out of the fair table without a word in the dialog (the session goes IDLE)."""
        if self.fair is not None:
            fair, self.fair = self.fair, None
            fair.leave()
            self.session.peer.unmeet(FAIR_ROOM)
            self.session.page.keep_seat(None)
            if fair.seat is not None:  # (one let in later shows nothing on the felt yet)
                self.session.page.seat_table(None)
