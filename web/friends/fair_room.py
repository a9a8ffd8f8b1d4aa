"""A fair table's side of a page's session: its room's mesh, its seats and its clock.

The lobby sends four people to a fair table (``web.friends.lobby``): each page meets the
three others in the table code's room (the ``FAIR_ROOM`` connections, a full mesh), and
once all four are there the four draw the seats (``web.p2p.fair.seating``: commit, then
reveal) — every page works out the same seats, and nobody chooses. From then on every
message of this page's ``FairTable`` goes to the three others, every message of theirs into
it; between messages the audit runs in slices, the page yielding after each. No DOM: the
peer and the clocks are injected, and pytest runs it.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from statistics import mean

from web import words
from web.friends.peer import Reply
from web.p2p.fair.cheats import DRAWS
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.seating import DrawError, SeatDraw, is_draw
from web.p2p.fair.table import FairStage, FairTable
from web.p2p.protocol import peer_of
from web.p2p.tablecode import TableCode
from web.seats.fair import FairSeat

__all__ = ["FAIR_ROOM", "FairPlay"]

FAIR_ROOM = "fair"
"""The name of a fair table's meeting room (``Peer.meet``): connections ``r:fair:<peer>``."""
GATHER_SECONDS = 25.0
"""How long a page waits for the three others in the table's room."""
MAX_EARLY = 64
"""Messages kept from pages that spoke before this one had its seat (the deal's first)."""


class FairPlay:
    """This page at a fair table: the room's connections, its ``FairTable`` and seat."""

    def __init__(self, send: Callable[[str, str], None], code: TableCode, *,
                 now: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 turn: float, cheat: str = "", warn: Callable[[str], None],
                 seated: Callable[[FairSeat], None], closed: Callable[[str], None],
                 start_over: Callable[[], None], group: Group = GROUP) -> None:
        """``send(conn, text)``: to one page; ``seated``: the felt shows this seat now;
        ``closed(why)``: the table closed (a cheat named, a page gone)."""
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
        self.seats: dict[str, int] = {}
        """Connection -> seat, once seated."""
        self.signing_key = 0
        """This page's signing key for the table (made with the draw)."""
        self.draw: SeatDraw | None = None
        """The draw for the seats, once the four are in the room."""
        self.table: FairTable | None = None
        self.seat: FairSeat | None = None
        self.done = False
        self.reported = (0, "")
        self._pumping = False
        self.group = group

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
            if len(self.room) >= 3 and self.draw is None:
                self._start_draw()
                since = self.now()  # the draw has GATHER_SECONDS of its own
            elif self.now() - since >= GATHER_SECONDS:
                self._close(words.FAIR_NOBODY)
                return
            else:
                await self.sleep(0.1)
        while not self.done and self.table is not None:
            done = self.table.work_step()
            if done:
                self._after()  # a proof out or checked, the verdict: news to send and show
            await self.sleep(0.1 if done is None else 0)  # a slice, then the page breathes

    def _start_draw(self) -> None:
        assert self.me is not None
        peers = list(self.room)[:3]
        group = self.group
        self.signing_key = group.short_key(secrets.SystemRandom())  # this table's only
        self.draw = DRAWS.get(self.cheat, SeatDraw)(
            self.me, peers, group.power(group.generator, self.signing_key), group=group)
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
        if self.done or self.table is not None:
            return
        try:
            out = draw.received(peer_of(conn), text)
        except DrawError:
            self._close(words.FAIR_DRAW_BROKEN)
            return
        for message in out:
            for other in self.room.values():
                self.send(other, message)
        order = draw.order()
        if order is not None:
            self._sit(order, draw.name(), [draw.keys[peer] for peer in order])

    def _sit(self, ids: list[str], name: str, keys: list[int]) -> None:
        assert self.me is not None
        self.seats = {self.room[peer]: ids.index(peer) for peer in ids if peer != self.me}
        table = self.table = FairTable(ids.index(self.me), now=self.now, turn=self.turn,
                                       cheat=self.cheat, group=self.group, name=name,
                                       signing_key=self.signing_key, keys=keys)
        self.seat = FairSeat(table, self.pump, start_over=self.start_over)
        self.on_seated(self.seat)
        for conn, text in self.early:
            if conn in self.seats:
                table.received_from(self.seats[conn], text)
        self.early = []
        self._after()

    def opened(self, conn: str) -> None:
        if self.table is None and len(self.room) < 3:
            self.room[peer_of(conn)] = conn  # a fifth page, if any, is never seated

    def received(self, conn: str, text: str) -> None:
        if self.table is None:
            if self.draw is not None and conn in self.room.values() and is_draw(text):
                self._drawn(conn, text)
            elif len(self.early) < MAX_EARLY:
                self.opened(conn)
                self.early.append((conn, text))
            return
        seat = self.seats.get(conn)
        if seat is not None:
            self.table.received_from(seat, text)
            self._after()

    def closed(self, conn: str) -> None:
        if self.table is None:
            self.room.pop(peer_of(conn), None)
            return
        seat = self.seats.get(conn)
        if seat is not None:
            self.table.gone(seat)
            self._after()

    # --- the table moved on ---------------------------------------------------------------------
    def pump(self) -> None:
        """Send the fair table's messages to the three other pages."""
        if self._pumping:
            return  # a message sent made an answer come back at once: the loop below sends it
        self._pumping = True
        try:
            while self.table is not None and self.table.outbox:
                for text in self.table.take_outbox():  # in order, or the others must wait
                    for conn in self.seats:
                        self.send(conn, text)
        finally:
            self._pumping = False
        if self.table is not None and self.table.closed is not None:
            self._close(self.table.closed)  # the timer's verdict (a page that stalled)

    def _after(self) -> None:
        table, seat = self.table, self.seat
        if table is None or seat is None:
            return
        seat.update()
        self._report()
        if table.closed is not None:
            self._close(table.closed)

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
