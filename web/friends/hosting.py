"""The host's side of a private table: the ``HostTable``, its invites and its connections.

``Hosting`` makes an invite per seat (a WebRTC offer wrapped in an invite code), lets a
friend in when their answer code is pasted, hands every message to the ``HostTable`` and
delivers the table's replies: over the wire to guests, straight into ``SeatState`` for the
host's own seat (``LOCAL``). It keeps the table in storage after each change, so a reload
carries the game on. Computers move at a visible pace and search in slices, like at the
single-player table. No DOM: the peer, clocks and callbacks are injected.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from hearts import SEAT_NAMES, Game
from web import words
from web.p2p.codes import CodeError, Invite, answer_sdp, decode_answer, encode_invite, parse_sdp
from web.p2p.guest import SeatState
from web.p2p.host import LOCAL, HostTable
from web.p2p.peer import Peer
from web.p2p.protocol import Intent, ProtocolError, dump, parse_intent
from web.p2p.qr import qr_svg
from web.p2p.saved import table_json
from web.p2p.tablecode import TableCode

__all__ = ["TABLE_ROOM", "Hosting"]

TABLE_ROOM = "table"
"""The name of the meeting room of a table shared by code (``Peer.meet``)."""

KIND_WORDS = {"friend": "a friend is playing", "away": "a friend is reconnecting…",
              "computer": "the computer plays",
              "open": "empty (the computer plays it unless you invite someone)"}


class Hosting:
    """One private table this page runs."""

    def __init__(self, host: HostTable, seat: SeatState, peer: Peer, *, table_id: int,
                 now: Callable[[], float], minute: Callable[[], int],
                 keep: Callable[[str | None], None], told: Callable[[str], None],
                 warn: Callable[[str], None], on_news: Callable[[str], None],
                 on_change: Callable[[], None]) -> None:
        """``keep``: stores the table's JSON; ``told``: an error in words for the dialog;
        ``warn``: a refused guest message, for the console; ``on_news``: a message of this
        kind reached the host's own seat."""
        self.host = host
        self.seat = seat
        self.peer = peer
        self.table_id = table_id
        self.now = now
        self.minute = minute
        self.keep = keep
        self.told = told
        self.warn = warn
        self.on_news = on_news
        self.on_change = on_change
        self.tickets = 0
        self.pending: dict[int, tuple[int, str]] = {}
        """seat -> (invite number, connection) of its open invite."""
        self.pending_ice: dict[int, str] = {}
        """seat -> the ICE servers (JSON) its open invite was made with."""
        self.conn_seat: dict[str, int] = {}
        self.greeting: set[str] = set()
        """Connections of pages that came into the table's room and haven't yet said who
        they are: a newcomer ("hello") or a person coming back to their seat ("back")."""
        self.links: dict[int, str] = {}
        self.qr: dict[int, str] = {}
        self.notes: dict[int, str] = {}
        """seat -> what is happening to its invite right now ("making an invite…")."""
        self.room: TableCode | None = None
        """The table's short code, once the host shared it (friends arrive through relays)."""
        self.refused_seen = 0
        self.saved_at: tuple[int, int, bool, bool] | None = None

    # --- what the dialog shows ---------------------------------------------------------------

    def seat_words(self, seat: int) -> str:
        kind = self.host.kind(seat)
        if seat in self.notes:
            return self.notes[seat]
        if seat in self.pending and kind != "friend":
            return words.INVITED
        return KIND_WORDS.get(kind, "")

    def seated(self, seat: int) -> bool:
        """A friend sits there (or is reconnecting): no invite for that seat."""
        return self.host.kind(seat) in ("friend", "away")

    def refusal_log(self) -> list[str]:
        return self.host.log.lines[-10:]

    # --- invites -----------------------------------------------------------------------------

    async def make_invites(self, seats: list[int], ice: str, base: str) -> None:
        """New invites for ``seats``, made side by side (each waits for its addresses)."""
        await asyncio.gather(*(self.make_invite(seat, ice, base) for seat in seats))

    async def make_invite(self, seat: int, ice: str, base: str) -> None:
        """An invite link for ``seat`` (``base``: the page's address without a fragment)."""
        host = self.host
        if host.closed or self.seated(seat):
            return
        old = self.pending.pop(seat, None)
        self.pending_ice.pop(seat, None)
        self.links.pop(seat, None)
        if old is not None:
            self.peer.close(old[1])
        self.notes[seat] = "making an invite…"
        self.on_change()
        reply = await self.peer.offer(ice, 5000)
        self.notes.pop(seat, None)
        if "error" in reply:
            self.told("The browser couldn't prepare a connection: " + reply["error"])
            self.on_change()
            return
        self.tickets = (self.tickets + 1) % 64
        try:
            code = encode_invite(Invite(self.table_id, seat, self.tickets, self.minute(),
                                        parse_sdp(reply["sdp"])))
        except CodeError as problem:
            self.peer.close(reply["id"])
            self.told(str(problem))
            self.on_change()
            return
        if host.closed:
            self.peer.close(reply["id"])
            return
        self.pending[seat] = (self.tickets, reply["id"])
        self.pending_ice[seat] = ice
        self.conn_seat[reply["id"]] = seat
        self.links[seat] = f"{base}#join={code}"
        self.qr[seat] = qr_svg(self.links[seat],
                               title=f"QR code of the invite link for {SEAT_NAMES[seat]}")
        self.on_change()

    def stale(self, ice: str) -> list[int]:
        """Seats whose open invite was made with other ICE servers than ``ice``."""
        return [seat for seat in self.pending if self.pending_ice.get(seat) != ice]

    async def let_in(self, seat: int, text: str) -> None:
        """The answer code pasted for ``seat``: check it, then connect."""
        try:
            answer = decode_answer(text, self.table_id)
        except CodeError as problem:
            self.told(str(problem))
            return
        pending = self.pending.get(answer.seat)
        if answer.seat != seat or pending is None or pending[0] != answer.ticket:
            where = SEAT_NAMES[answer.seat]
            self.told(words.answer_invite_gone(where) if answer.seat == seat or
                      pending is None or pending[0] != answer.ticket else
                      words.answer_for_other_seat(where))
            return
        self.notes[seat] = "connecting…"
        self.on_change()
        reply = await self.peer.accept(pending[1], answer_sdp(answer.endpoint))
        if "error" in reply:
            self.notes.pop(seat, None)
            self.told("The browser refused that answer: " + reply["error"])
            self.on_change()

    def drop_invites(self) -> None:
        """Hang up the invites nobody answered (their codes can't open a seat now)."""
        for _ticket, conn in self.pending.values():
            self.peer.close(conn)
        self.pending.clear()
        self.pending_ice.clear()
        self.links.clear()

    def hang_up_all(self) -> None:
        if self.room is not None:
            self.peer.unmeet(TABLE_ROOM)
        self.drop_invites()
        for conn in list(self.conn_seat):
            self.peer.close(conn)
        self.conn_seat.clear()

    # --- connections -------------------------------------------------------------------------

    def arrived(self, conn: str) -> bool:
        """A page came into the table's meeting room: it takes the first seat that no
        connected friend holds (see the order below). False if the table is full."""
        host = self.host
        free = [s for s in (1, 2, 3) if host.kind(s) != "friend" and s not in host.coming]
        # An empty or computer seat first, one whose invite nobody has used before one
        # whose invite is out, a dropped friend's seat last.
        free.sort(key=lambda s: (host.kind(s) == "away", s in self.pending))
        if self.room is None or not free:
            return False
        if host.online and host.stage() in ("pass", "play"):
            # Strangers: the hand under way is played out by those who began it, and a
            # newcomer takes a computer's seat from the next.
            free = [s for s in free if host.kind(s) == "computer"]
            if not free or not host.reserve(conn, free[0]):
                return False
        elif not host.join(conn, free[0], self.now()):
            return False
        seat = free[0]
        invite = self._invite_done(seat)
        if invite is not None:  # the seat is taken: its invite can't be used any more
            self.conn_seat.pop(invite[1], None)
            self.peer.close(invite[1])
        self.conn_seat[conn] = seat
        self.flush()
        return True

    def _invite_done(self, seat: int) -> tuple[int, str] | None:
        """Forget ``seat``'s open invite (its link, code and note); returns it, if any."""
        self.pending_ice.pop(seat, None)
        self.links.pop(seat, None)
        self.notes.pop(seat, None)
        return self.pending.pop(seat, None)

    def opened(self, conn: str) -> None:
        seat = self.conn_seat.get(conn)
        if seat is None and conn.startswith(f"r:{TABLE_ROOM}:"):
            self.greeting.add(conn)  # seated by its first words (``_greeted``)
            return
        if seat is None or self.pending.get(seat, (0, ""))[1] != conn:
            self.peer.close(conn)
            return
        self._invite_done(seat)
        if not self.host.join(conn, seat, self.now()):
            self.peer.close(conn)
        self.flush()

    def received(self, conn: str, text: str) -> None:
        if conn in self.greeting:
            self.greeting.discard(conn)
            self._greeted(conn, text)
            return
        self.host.receive(conn, text, self.now())
        self.flush()

    def _greeted(self, conn: str, text: str) -> None:
        """The first words of a page in the table's room: a newcomer takes a free seat; a
        page with a seat's secret takes that seat back; anything else is turned away."""
        try:
            intent: Intent | None = parse_intent(text)
        except ProtocolError:
            intent = None
        if intent is not None and intent.kind == "back":
            if self.host.back(conn, intent.seat, intent.secret, self.now()):
                self.conn_seat[conn] = intent.seat
                self.flush()
                return
            self.peer.send(conn, dump("closed", reason=words.NOT_BACK))
            self.peer.close(conn)
            return
        if intent is None or intent.kind != "hello" or not self.arrived(conn):
            self.peer.close(conn)

    def closed(self, conn: str) -> None:
        self.greeting.discard(conn)
        if conn in self.conn_seat:
            self.host.drop(conn, self.now())
            self.flush()

    def local(self, intent: Intent) -> None:
        """The host person's own intent (seat 0)."""
        self.host.local(intent)
        self.flush()

    def new_game(self) -> None:
        if not self.host.closed:
            self.host.new_game(Game.new())
            self.flush()

    def flush(self) -> None:
        """Deliver the table's messages (its own seat's to this page) and hang-ups; save."""
        host = self.host
        if host.log.count != self.refused_seen:
            fresh = host.log.lines[-min(host.log.count - self.refused_seen, len(host.log.lines)):]
            for line in fresh:
                self.warn("Private table: refused " + line)
            self.refused_seen = host.log.count
        out, host.outbox = host.outbox, []
        for conn, text in out:
            if conn == LOCAL:
                kind = self.seat.receive(text)
                if kind is not None:
                    self.on_news(kind)
            else:
                self.peer.send(conn, text)
        hangups, host.hangups = host.hangups, []
        for conn in hangups:
            self.conn_seat.pop(conn, None)
            self.peer.close(conn)
        saved = (id(host.game), len(host.game.events), host.started, 0 in host.waiting_ready)
        if not host.closed and saved != self.saved_at:
            self.saved_at = saved
            self.keep(table_json(host))
        self.on_change()

    async def run(self, *, pace: Callable[[], float],
                  sleep: Callable[[float], Awaitable[None]]) -> None:
        """Computer moves at the person's pace (seconds before each), grace periods, until
        the table closes."""
        due_since: float | None = None
        while not self.host.closed:
            await sleep(0.05)
            host = self.host
            now = self.now()
            changed = host.tick(now)
            if not host.due():
                due_since = None
            else:
                due_since = now if due_since is None else due_since
                turn = host.computer_turn()
                if turn is None:  # the computers' passes: once the pause is over
                    if now - due_since >= pace():
                        changed = host.computer_step()
                else:
                    seat, view = turn
                    card = await host.computers.play(view, seat, pause=pace(),
                                                     since=due_since, clock=self.now,
                                                     sleep=sleep)
                    if host.closed or host.computer_turn() is None or host.game.view(
                            seat) != view:
                        continue  # the table moved on while the computer thought
                    changed = host.computer_step(card)
                due_since = None if changed else due_since
            if changed:
                self.flush()

