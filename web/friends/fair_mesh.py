"""A fair table's room, as one page sees it: who is in it, and the draws for the seats.

The lobby sends two to four people to a fair table (``web.friends.online``): each page meets
the others in the table code's room (the ``FAIR_ROOM`` connections, a full mesh), and once
all are there they draw the seats (``web.p2p.fair.seating``: commit, then reveal) — every
page works out the same seats, and nobody chooses — and which page plays each computer left
over. A person who comes later waits in the room until the table's door lets them in
between two hands, and a page alone with the computers turns its own game into a fair table
with them (``web.friends.fair_door``); the pages draw again then, and when a page left. A
page that leaves while the seats are drawn, before anyone sat with it, is drawn without:
once what it sent has had ``GONE_GRACE`` to arrive, the pages still in that draw start it
again among themselves (``_draw_without``), as they do when a newcomer hasn't done its part
when the time is up: so a person who closes the page then, or whose page stalls, holds no
table up. Who holds the seats the draws give as people go and come is
``web.friends.fair_comings``'s, and what they seat is played by ``web.friends.fair_room``'s
``FairPlay``: the two classes built on this one. No DOM: the peer and the
clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from web import words
from web.friends.fair_back import Kept, back_text, is_back, is_late
from web.friends.fair_door import Carried, Door
from web.friends.fair_names import is_name
from web.friends.fair_tables import PageTables
from web.p2p.fair.cheats import DRAWS
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.seating import (
    Admit,
    DrawError,
    OtherRound,
    SeatDraw,
    Seating,
    door,
    is_admit,
    is_draw,
    where,
)
from web.p2p.fair.table import GONE_GRACE, FairTable
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.seats.fair import FairSeat
from web.slow_steps import timed

__all__ = ["FAIR_ROOM", "FairMesh"]

FAIR_ROOM = "fair"
"""The name of a fair table's meeting room (``Peer.meet``): connections ``r:fair:<peer>``."""
MAX_EARLY = 64
BYE = '{"v":1,"t":"fair_bye"}'
"""A page whose person leaves on purpose says so first: the others don't wait for it."""
"""Messages kept from pages that spoke before this one had its seat (the deal's first)."""


class FairMesh:
    """This page in a fair table's room: the pages there, the draws for the seats, and the
    newcomers' door; ``FairComings`` and ``FairPlay`` build on it (``_sit``, ``_claimed``)."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 closed: Callable[[str], None], now: Callable[[], float], cheat: str = "",
                 group: Group = GROUP, people: int = 4, late: bool = False,
                 carried: Carried | None = None, back: Kept | None = None) -> None:
        """``send(conn, text)``: to one page; ``closed(why)``: the table closed (a cheat
        named, a page gone); ``people``: how many pages the lobby sent to the table, this
        one among them (2 to 4); ``late``: this page came to a table under way, and waits
        to be let in; ``carried``: this page's own game, which people who come may join;
        ``back``: the seat this tab held before it reloaded (``web.friends.fair_back``)."""
        self.send = send
        self.code = code
        self.on_closed = closed
        self.now = now
        self.cheat = cheat
        self.group = group
        self.people = people
        self.door = Door(late, carried)
        """Who came to take a computer's seat, and the admission that lets them in."""
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
        self.redrawing = False
        """The pages seated are drawing again (a page left, or people came)."""
        self.draw_since = 0.0
        """When this page began its draw (a draw gets ``GATHER_SECONDS``)."""
        self.tables: PageTables | None = None
        """This page's fair tables, once seated: its person's, and its computer's."""
        self.seat: FairSeat | None = None
        self.byes: set[str] = set()
        """Pages that said they leave on purpose (``BYE``)."""
        self.gone: dict[str, float] = {}
        """Pages of this page's draw whose connection closed, and when (one that comes back
        is not gone)."""
        self.done = False
        self.back = back
        """The seat this tab comes back to, with the pages it sat with."""
        self.anew = False
        """This page's person came back too late for their seat and sits down anew (told
        so by the table, ``AGAIN``; then, at the new table, waiting to be let in)."""
        if back is not None:
            self.people = len(back.others) + 1

    # --- the room -------------------------------------------------------------------------------
    @property
    def table(self) -> FairTable | None:
        """This page's person's seat's table, once seated."""
        return None if self.tables is None else self.tables.person

    @staticmethod
    def owns(conn: str) -> bool:
        return conn.startswith(f"r:{FAIR_ROOM}:")

    def _ready_to_draw(self) -> bool:
        """Start the first draw if this page may: every page invited is in the room; or,
        come later, the door let it in; or, a lone page between two hands, people came.
        Whether it started."""
        assert self.me is not None
        back = self.back
        if back is not None:  # back after a reload: the same pages, this one at its seat
            if set(back.others) - set(self.room):
                return False
            if self._resume(back):  # the hand under way goes on where it stood
                return True
            claim = back_text(self.group, back.key, back.table, back.seat, self.me)
            for conn in self.room.values():  # (before the draw's commit, on each channel)
                self.send(conn, claim)
            # the hand it left counts as every page counts it: never dealt again
            history = back.history + (() if back.charged is None else (back.charged,))
            self.door.history = history
            fixed = {**back.others, self.me: back.seat}
            self._start_draw(list(back.others), fixed, where(history, fixed))
            return True
        first = self.door.first_draw(self.me, self.room)
        if first is not None:
            peers, kept, at = first
            if self.door.carried is not None:  # the lone page's door: it tells them
                self.room = dict(self.door.newcomers)
                self._tell(self.room.values(), self.door.admission(kept, self.door.history))
            self.people = len(peers) + 1
            self._start_draw(peers, kept, at)
            return True
        if self.door.late or self.door.carried is not None \
                or len(self.room) < self.people - 1:
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
        self.draw_since = self.now()
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
        except OtherRound:  # of a draw before this one, or of one to come: not this one's
            if len(self.early) < MAX_EARLY:
                self.early.append((conn, text))
            return
        except DrawError:
            self._give_up(words.FAIR_LATE_BROKEN if self.door.late
                          else words.FAIR_REDRAW_BROKEN if self.redrawing
                          else words.FAIR_DRAW_BROKEN)
            return
        for message in out:
            for other in self.room.values():
                self.send(other, message)
        seating = draw.seating()
        if seating is not None:
            self._sit(seating, draw.name())

    def opened(self, conn: str) -> None:
        peer = peer_of(conn)
        self.gone.pop(peer, None)
        if (self.door.carried is not None and self.draw is None) or self.table is not None:
            # a person who came for a computer's seat, if one is still free for them
            if peer not in self.room and conn not in self.seats:
                self.door.came(peer, conn, self.open_seats() or 0)
        elif self.table is None and len(self.room) < self.people - 1 \
                and (self.back is None or peer in self.back.others):
            self.room[peer] = conn  # a page beyond those invited is never seated

    def open_seats(self) -> int | None:
        """Computers' seats nobody has come for yet (None: this table is over)."""
        if self.done:
            return None
        seat = self.seat
        return self.door.free(1 if seat is None else
                              sum(1 for s, p in enumerate(seat.players) if p == s))

    def is_door(self) -> bool:
        """Whether this page lets newcomers in (and offers its table's computers' seats)."""
        if self.table is None:
            return self.door.carried is not None
        return self.me is not None and door(self._kept()) == self.me

    def _kept(self) -> dict[str, int]:
        """The people's seats, by their pages' ids."""
        assert self.me is not None and self.table is not None
        return {self.me: self.table.seat} | {peer: self.seats[conn][0]
                                             for peer, conn in self.room.items()
                                             if conn in self.seats}

    def _tell(self, conns: Iterable[str], admit: Admit) -> None:
        for conn in conns:
            self.send(conn, admit.text())

    def _admitted(self, conn: str, text: str) -> None:
        """An admission (``web.friends.fair_door``): a newcomer's, or a seated page's."""
        admit, peer = Admit.read(text), peer_of(conn)
        if admit is None or self.me is None:
            return
        if self.table is None:
            if self.draw is None:
                self.door.told_newcomer(conn, peer, admit, self.me, self.room)
        elif conn in self.seats and not self.redrawing:
            self.door.told_seated(conn, admit, door(self._kept()) == peer)

    def received(self, conn: str, text: str) -> None:
        if is_admit(text):
            self._admitted(conn, text)
            return
        if is_back(text):
            self._claimed(conn, text)
            return
        if is_late(text):
            self._too_late(conn, text)
            return
        if text == BYE:
            self.byes.add(peer_of(conn))
            return
        if is_name(text):  # a name of the table to come waits for it
            if self.table is None or self.redrawing:
                if len(self.early) < MAX_EARLY:
                    self.early.append((conn, text))
            else:
                self._named(conn, text)
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
            with timed("deliver"):
                self._deliver(conn, text)
            with timed("after a message"):
                self._after()

    def _draw_without(self, gone: Iterable[str]) -> bool:
        """The pages ``gone`` left while the seats were drawn, or didn't do their part in
        time: if none of them keeps a seat, draw again among the pages still in this draw,
        at the same point of the game (a newcomer takes that from the door's admission,
        which still holds); none left, give up at once. Whether it did either; a page with a
        seat is never drawn without."""
        draw = self.draw
        gone = set(gone) & set(() if draw is None else draw.others)
        if draw is None or self.done or not gone or gone & set(draw.fixed or {}):
            return False
        others = [p for p in draw.others if p not in gone]
        if not others:  # this page is alone in it: no table to wait for
            if self.table is not None:
                return False
            self._give_up(words.FAIR_LATE_NOBODY if self.door.late else words.FAIR_NOBODY)
            return True
        for peer in gone:
            self.room.pop(peer, None)
            self.gone.pop(peer, None)
            self.door.went(peer)  # not let in at the next hand either
        self.people = len(others) + 1
        self._start_draw(others, draw.fixed, draw.at)
        return True

    def _leave_out(self) -> None:
        """Draw again without the pages gone ``GONE_GRACE`` ago (what they sent had time to
        arrive) whose part of the draw this page still waits for."""
        waiting = set(self._unfinished())
        gone = [peer for peer, at in self.gone.items()
                if peer in waiting and self.now() - at >= GONE_GRACE]
        if gone:
            self._draw_without(gone)

    def _unfinished(self) -> list[str]:
        """The pages this page's draw waits for: those whose commit isn't in, else (a page
        reveals once it holds every commit) those whose reveal isn't."""
        draw = self.draw
        if draw is None:
            return []
        return [p for p in draw.others if p not in draw.commits] \
            or [p for p in draw.others if p not in draw.reveals]

    def _give_up(self, why: str) -> None:
        """A draw that can't be finished: a lone page's game goes on without the
        newcomers; any other closes with ``why``."""
        if self.door.carried is not None and self.table is None:
            self.draw, self.room, self.early = None, {}, []
            self.door.newcomers = {}
        else:
            self._close(why)

    def _close(self, why: str) -> None:
        if not self.done:
            self.done = True
            self.on_closed(why)

    def leave(self) -> None:
        """This page's person leaves: the others are told so (they don't wait for them to
        come back), and see its connections go."""
        if not self.done:
            for conn in self.seats:
                self.send(conn, BYE)
        self.done = True

    # --- played by ``FairComings`` and ``FairPlay`` ----------------------------------------------
    def _sit(self, seating: Seating, name: str) -> None:
        """The draw is over: sit at the table it names, as it seated this page."""
        raise NotImplementedError

    def _deliver(self, conn: str, text: str) -> None:
        """A message from the page on ``conn`` into each of this page's tables."""
        raise NotImplementedError

    def _named(self, conn: str, text: str) -> None:
        """The name of the person of the page on ``conn`` (``web.friends.fair_names``)."""
        raise NotImplementedError

    def _claimed(self, conn: str, text: str) -> None:
        """The page on ``conn`` claims a seat back after a reload (``web.friends.fair_back``)."""
        raise NotImplementedError

    def _too_late(self, conn: str, text: str) -> None:
        """The page on ``conn`` answers this tab's claim: it came back too late
        (``web.friends.fair_back``'s ``late_text``)."""
        raise NotImplementedError

    def _resume(self, back: Kept) -> bool:
        """Back after a reload: take the hand under way up where this tab left it, if its
        record holds (``web.p2p.fair.resume``); whether it did."""
        raise NotImplementedError

    def _after(self) -> None:
        """This page's tables moved on: send and show what they have."""
        raise NotImplementedError
